"""A browser's anonymous sheets go into the account that logs in once it says yes, even as the session key rotates."""

import html
import re

import pytest
from django.test import Client

from scoring.models import Sheet
from tests.accounts import PASSWORD, verified_user
from tests.web.sheets import start

pytestmark = pytest.mark.django_db


def new_sheet(client: Client) -> str:
    return start(client, "coop", ["A", "B"]).pk


def test_it_claims_this_browsers_sheets_on_login_after_the_key_rotates():
    owner = verified_user("elya@example.org")
    browser = Client()
    first, second = new_sheet(browser), new_sheet(browser)
    key_before = browser.session.session_key
    r = browser.post("/accounts/login/", {"login": "elya@example.org", "password": PASSWORD})
    assert r.status_code == 302
    assert browser.session.session_key != key_before
    assert browser.post("/me/claim/", {"answer": "add"}).status_code == 302  # the login asked; yes
    for pk in (first, second):
        sheet = Sheet.objects.get(pk=pk)
        assert sheet.user == owner and sheet.expires_at is None
    assert browser.get(f"/sheets/{first}/").status_code == 200


def test_it_does_not_claim_another_browsers_sheets():
    verified_user("sasha@example.org")
    theirs = new_sheet(Client())
    mine = Client()
    mine.post("/accounts/login/", {"login": "sasha@example.org", "password": PASSWORD})
    assert Sheet.objects.get(pk=theirs).user is None
    assert mine.get(f"/sheets/{theirs}/").status_code == 404


def test_it_keeps_unclaimed_sheets_when_another_account_logs_in_later():
    a, b = verified_user("a@example.org"), verified_user("b@example.org")
    browser = Client()
    browser.post("/accounts/login/", {"login": "a@example.org", "password": PASSWORD})
    owned_by_a = new_sheet(browser)
    browser.post("/accounts/logout/")
    anonymous = new_sheet(browser)
    browser.post("/accounts/login/", {"login": "b@example.org", "password": PASSWORD})
    browser.post("/me/claim/", {"answer": "add"})
    assert Sheet.objects.get(pk=owned_by_a).user == a
    assert Sheet.objects.get(pk=anonymous).user == b


def text(response) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode())))


def test_it_asks_before_adding_this_browsers_sheets_to_the_account_that_logs_in():
    """A shared phone: Léa played without an account, Sacha logs in. Nothing moves unless Sacha says so."""
    sacha = verified_user("sacha@example.org")
    phone = Client()
    first, second = new_sheet(phone), new_sheet(phone)
    r = phone.post("/accounts/login/", {"login": "sacha@example.org", "password": PASSWORD})
    assert r.status_code == 302 and r.url == "/me/claim/?next=/"
    assert Sheet.objects.filter(pk__in=[first, second], user=None).count() == 2  # nothing moved yet
    page = text(phone.get(r.url))
    assert "Ajouter ces 2 feuilles à votre compte ?" in page
    assert "Jeu coopératif (climbing) — A, B" in page  # which sheets, so the person knows whose they are
    # « Non » : they stay as they were, the edit links of the person who made them too.
    r = phone.post("/me/claim/", {"answer": "keep", "next": "/"})
    assert r.status_code == 302 and r.url == "/"
    assert Sheet.objects.filter(pk__in=[first, second], user=None).exclude(edit_token_hash="").count() == 2
    assert Sheet.objects.filter(user=sacha).count() == 0
    assert "Ajouter ces" not in text(phone.get("/"))
    # Asked again only by going back to the page; « Oui » moves them.
    assert "Ajouter ces 2 feuilles à votre compte ?" in text(phone.get("/me/claim/"))
    r = phone.post("/me/claim/", {"answer": "add", "next": "/"}, follow=True)
    assert "2 feuilles ajoutées à votre compte." in text(r)
    assert Sheet.objects.filter(pk__in=[first, second], user=sacha, expires_at=None).count() == 2


def test_it_asks_in_the_singular_and_comes_back_to_the_page_the_login_was_for():
    verified_user("lea@example.org")
    phone = Client()
    sheet = new_sheet(phone)
    r = phone.post(
        f"/accounts/login/?next=/sheets/{sheet}/",
        {"login": "lea@example.org", "password": PASSWORD, "next": f"/sheets/{sheet}/"},
    )
    assert r.url == f"/me/claim/?next=/sheets/{sheet}/"
    assert "Ajouter cette feuille à votre compte ?" in text(phone.get(r.url))
    r = phone.post("/me/claim/", {"answer": "add", "next": f"/sheets/{sheet}/"})
    assert r.url == f"/sheets/{sheet}/"
    assert Sheet.objects.get(pk=sheet).user.email == "lea@example.org"
    # Another site is never where the answer leads.
    assert phone.post("/me/claim/", {"answer": "keep", "next": "https://evil.example/"}).url == "/"


def test_it_goes_straight_on_when_the_browser_has_no_sheet_to_offer():
    verified_user("lea@example.org")
    phone = Client()
    r = phone.post("/accounts/login/", {"login": "lea@example.org", "password": PASSWORD})
    assert r.url == "/"
    assert phone.get("/me/claim/?next=/sheets/").url == "/sheets/"
    assert Client().get("/me/claim/").status_code == 302  # logged out: the login first
