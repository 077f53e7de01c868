"""Behind a load balancer: one setting, TRUSTED_PROXIES, decides the client address for every limiter."""

import pytest
from allauth.account.adapter import get_adapter
from django.test import Client, RequestFactory
from rest_framework.throttling import ScopedRateThrottle

from scoring.models import Sheet
from tests.accounts import PASSWORD, verified_user
from web.clientip import client_address, client_ip

pytestmark = pytest.mark.django_db
BALANCER = "10.0.0.2"


@pytest.fixture
def tight(monkeypatch):
    # The pages and the API read the same rates (web/ratelimit.py).
    monkeypatch.setattr(
        ScopedRateThrottle, "THROTTLE_RATES", {**ScopedRateThrottle.THROTTLE_RATES, "sheet_create": "3/min"}
    )


def api_create(client, xff=None):
    extra = {"HTTP_X_FORWARDED_FOR": xff} if xff is not None else {}
    return client.post(
        "/api/v1/sheets/", {"game": "coop", "players": ["A", "B"]}, content_type="application/json", **extra
    ).status_code


def page_create(client, xff=None):
    extra = {"HTTP_X_FORWARDED_FOR": xff} if xff is not None else {}
    return client.post("/new/coop/", {"player": ["A", "B"]}, **extra).status_code


CREATE = {"api": (api_create, 201), "page": (page_create, 302)}


@pytest.mark.parametrize(
    ("remote", "xff", "proxies", "expected"),
    [
        ("192.0.2.1", "203.0.113.7", 0, "192.0.2.1"),  # no proxy trusted: the header is ignored
        (BALANCER, "203.0.113.7", 1, "203.0.113.7"),
        (BALANCER, "6.6.6.6, 203.0.113.7", 1, "203.0.113.7"),  # the client's own values are left of ours
        (BALANCER, "6.6.6.6, 203.0.113.7, 10.0.0.1", 2, "203.0.113.7"),
        (BALANCER, "203.0.113.7", 2, "203.0.113.7"),  # fewer entries than proxies: the left-most
        (BALANCER, "", 1, BALANCER),  # no header: the peer
        (BALANCER, "6.6.6.6, not-an-ip", 1, BALANCER),  # garbage: the peer
        (BALANCER, "203.0.113.7, ", 1, BALANCER),
        (BALANCER, " 2001:DB8::0:1 ", 1, "2001:db8::1"),
        (BALANCER, "[2001:db8::1]", 1, "2001:db8::1"),
    ],
)
def test_it_picks_the_right_most_untrusted_hop(remote, xff, proxies, expected):
    assert client_address(remote, xff, proxies) == expected


@pytest.mark.parametrize("where", ["api", "page"])
def test_it_ignores_x_forwarded_for_without_trusted_proxies(settings, tight, where):
    settings.TRUSTED_PROXIES = 0
    send, ok = CREATE[where]
    client = Client(REMOTE_ADDR="192.0.2.1")
    codes = [send(client, f"198.51.100.{i}") for i in range(5)]
    assert codes == [ok, ok, ok, 429, 429]
    assert Sheet.objects.count() == 3


@pytest.mark.parametrize("where", ["api", "page"])
def test_it_gives_each_client_behind_the_balancer_its_own_budget(settings, tight, where):
    settings.TRUSTED_PROXIES = 1
    send, ok = CREATE[where]
    first, second = Client(REMOTE_ADDR=BALANCER), Client(REMOTE_ADDR=BALANCER)
    assert [send(first, "203.0.113.7") for _ in range(4)] == [ok, ok, ok, 429]
    assert [send(second, "203.0.113.8") for _ in range(4)] == [ok, ok, ok, 429]
    assert Sheet.objects.count() == 6


@pytest.mark.parametrize("where", ["api", "page"])
def test_it_keeps_a_client_that_prepends_spoofed_values_in_its_budget(settings, tight, where):
    settings.TRUSTED_PROXIES = 1
    send, ok = CREATE[where]
    client = Client(REMOTE_ADDR=BALANCER)
    codes = [send(client, f"198.51.100.{i}, garbage, 203.0.113.7") for i in range(5)]
    assert codes == [ok, ok, ok, 429, 429]
    assert Sheet.objects.count() == 3


def login(client, email, password, xff):
    return client.post("/accounts/login/", {"login": email, "password": password}, HTTP_X_FORWARDED_FOR=xff)


@pytest.mark.parametrize("where", ["api", "page"])
def test_it_gives_each_signed_in_player_behind_one_address_a_budget_of_their_own(tight, where):
    send, ok = CREATE[where]
    first, second = Client(REMOTE_ADDR="192.0.2.1"), Client(REMOTE_ADDR="192.0.2.1")
    first.force_login(verified_user("ana@example.org"))
    second.force_login(verified_user("bea@example.org"))
    assert [send(first) for _ in range(4)] == [ok, ok, ok, 429]
    assert [send(second) for _ in range(4)] == [ok, ok, ok, 429]
    assert [send(Client(REMOTE_ADDR="192.0.2.1")) for _ in range(4)] == [ok, ok, ok, 429]
    assert Sheet.objects.count() == 9


def test_it_never_locks_everyone_out_for_one_bots_failed_logins(settings):
    settings.TRUSTED_PROXIES = 1
    verified_user("player@example.org")
    bot = Client(REMOTE_ADDR=BALANCER)
    # allauth allows 10 failed logins a minute per address (ACCOUNT_RATE_LIMITS): one
    # address per e-mail, so only the per-address limit can stop the bot.
    pages = [login(bot, f"victim{i}@example.org", "wrong", f"6.6.6.{i}, 198.51.100.66") for i in range(12)]
    assert [p.status_code for p in pages] == [200] * 12  # the form again, with its error
    refused = ["Trop de tentatives de connexion" in p.content.decode() for p in pages]
    assert refused == [False] * 10 + [True] * 2
    player = Client(REMOTE_ADDR=BALANCER)
    r = login(player, "player@example.org", PASSWORD, "203.0.113.7")
    assert r.status_code == 302
    assert player.get("/me/").status_code == 200


def test_it_tells_allauth_the_same_client_address(settings):
    request = RequestFactory().get("/", REMOTE_ADDR=BALANCER, HTTP_X_FORWARDED_FOR="6.6.6.6, 203.0.113.7")
    settings.TRUSTED_PROXIES = 1
    assert get_adapter(request).get_client_ip(request) == client_ip(request) == "203.0.113.7"
    settings.TRUSTED_PROXIES = 3  # more proxies than entries: allauth's own reading would fail the request
    assert get_adapter(request).get_client_ip(request) == client_ip(request) == "6.6.6.6"
    settings.TRUSTED_PROXIES = 0
    assert get_adapter(request).get_client_ip(request) == client_ip(request) == BALANCER
