"""Anonymous sheets become the player's when they log in, even as the session key rotates."""

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.test import Client

from scoring.models import Sheet

pytestmark = pytest.mark.django_db


def new_sheet(client: Client) -> str:
    client.post("/new/coop/", {"player": ["A", "B"]})
    return Sheet.objects.latest("created_at").pk


def user(email):
    u = get_user_model().objects.create_user(email.split("@")[0], email, "a-long-pass-phrase")
    EmailAddress.objects.create(user=u, email=email, verified=True, primary=True)
    return u


def test_it_claims_this_browsers_sheets_on_login_after_the_key_rotates():
    owner = user("elya@example.org")
    browser = Client()
    first, second = new_sheet(browser), new_sheet(browser)
    key_before = browser.session.session_key
    r = browser.post("/accounts/login/", {"login": "elya@example.org", "password": "a-long-pass-phrase"})
    assert r.status_code == 302
    assert browser.session.session_key != key_before
    for pk in (first, second):
        sheet = Sheet.objects.get(pk=pk)
        assert sheet.user == owner and sheet.expires_at is None
    assert browser.get(f"/sheets/{first}/").status_code == 200


def test_it_does_not_claim_another_browsers_sheets():
    user("sasha@example.org")
    theirs = new_sheet(Client())
    mine = Client()
    mine.post("/accounts/login/", {"login": "sasha@example.org", "password": "a-long-pass-phrase"})
    assert Sheet.objects.get(pk=theirs).user is None
    assert mine.get(f"/sheets/{theirs}/").status_code == 404


def test_it_keeps_unclaimed_sheets_when_another_account_logs_in_later():
    a, b = user("a@example.org"), user("b@example.org")
    browser = Client()
    browser.post("/accounts/login/", {"login": "a@example.org", "password": "a-long-pass-phrase"})
    owned_by_a = new_sheet(browser)
    browser.post("/accounts/logout/")
    anonymous = new_sheet(browser)
    browser.post("/accounts/login/", {"login": "b@example.org", "password": "a-long-pass-phrase"})
    assert Sheet.objects.get(pk=owned_by_a).user == a
    assert Sheet.objects.get(pk=anonymous).user == b
