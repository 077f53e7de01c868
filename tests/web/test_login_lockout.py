"""A stranger's wrong passwords never lock the owner out, and brute force stays limited.

allauth counts failed logins per client address (10 a minute) and per address and email
together (5 in 5 minutes), never per email alone (docs/security.md, "a stranger locking
an account").
"""

import pytest
from django.test import Client

from tests.accounts import PASSWORD, verified_user

pytestmark = pytest.mark.django_db
STRANGER, OWNER = "198.51.100.66", "203.0.113.7"
REFUSED = "Trop de tentatives de connexion"


def login(client, password, email="owner@example.org"):
    return client.post("/accounts/login/", {"login": email, "password": password})


def test_it_lets_the_owner_in_from_their_address_after_a_stranger_failed_twelve_times():
    verified_user("owner@example.org")
    stranger = Client(REMOTE_ADDR=STRANGER)
    pages = [login(stranger, f"wrong-{i}") for i in range(12)]
    assert [p.status_code for p in pages] == [200] * 12
    refused = [REFUSED in p.content.decode() for p in pages]
    assert refused == [False] * 5 + [True] * 7  # 5 tries per address and email

    mine = Client(REMOTE_ADDR=OWNER)
    r = login(mine, PASSWORD)
    assert r.status_code == 302, r.content.decode()[:500]
    assert mine.get("/me/").status_code == 200

    # The stranger's address is still limited, even with the right password, and on other emails too once
    # past 10 a minute.
    r = login(Client(REMOTE_ADDR=STRANGER), PASSWORD)
    assert r.status_code == 200 and REFUSED in r.content.decode()
    others = [login(stranger, "wrong", f"other{i}@example.org") for i in range(6)]
    assert [REFUSED in p.content.decode() for p in others] == [True] * 6  # 12 already this minute
    assert "_auth_user_id" not in stranger.session


def test_it_still_limits_wrong_passwords_from_the_owners_own_address():
    verified_user("owner@example.org")
    mine = Client(REMOTE_ADDR=OWNER)
    pages = [login(mine, f"wrong-{i}") for i in range(6)]
    assert [REFUSED in p.content.decode() for p in pages] == [False] * 5 + [True]
    # Another address is not held back by these.
    assert login(Client(REMOTE_ADDR="192.0.2.9"), PASSWORD).status_code == 302


def test_it_counts_one_ipv6_network_as_one_address():
    verified_user("owner@example.org")
    pages = [login(Client(REMOTE_ADDR=f"2001:db8:1:2::{i:x}"), f"wrong-{i}") for i in range(1, 8)]
    assert [REFUSED in p.content.decode() for p in pages] == [False] * 5 + [True] * 2
    assert login(Client(REMOTE_ADDR="2001:db8:9:9::1"), PASSWORD).status_code == 302
