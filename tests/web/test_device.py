"""Whose data the phone keeps (scoring/device.py): each page names the identities its browser holds,
and the page after a logout or an account deletion names, once, those that ended."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from scoring.access import OWNER_SESSION_KEY
from scoring.device import HEADER
from scoring.models import Sheet
from tests.accounts import PASSWORD, log_in, verified_user

pytestmark = pytest.mark.django_db


def meta(response, name: str) -> list[str] | None:
    found = re.search(rf'<meta name="{name}" content="([^"]*)">', response.content.decode())
    return found.group(1).split() if found else None


def said(client, path="/"):
    """Return (the identities the page's meta names, its header's, the ones it says to forget, the response)."""
    r = client.get(path)
    return meta(r, "num-device"), r[HEADER].split(), meta(r, "num-forget"), r


def test_each_account_has_its_own_opaque_identity_the_same_in_every_session():
    verified_user("lea@example.org"), verified_user("sacha@example.org")
    lea, lea_again, sacha = (
        log_in(Client(), "lea@example.org"),
        log_in(Client(), "lea@example.org"),
        log_in(Client(), "sacha@example.org"),
    )
    ids, header, forget, _ = said(lea)
    assert len(ids) == 1 and header == ids and forget is None
    assert said(lea_again)[0] == ids  # another session, another phone: the same person
    assert said(sacha)[0] != ids and len(said(sacha)[0]) == 1


def test_an_anonymous_browser_gets_its_identity_with_the_new_sheet_form_never_its_owner_id():
    browser = Client()
    assert said(browser)[:2] == ([], [])  # nothing kept yet: no identity, no session made for it
    ids, header, _, _ = said(browser, "/new/numx/")
    owner = browser.session[OWNER_SESSION_KEY]
    assert len(ids) == 1 and header == ids and owner not in ids[0]
    browser.post("/new/numx/", {"player": ["A", "B"]})
    sheet = Sheet.objects.latest("created_at")
    assert sheet.owner_key == owner and said(browser, f"/sheets/{sheet.pk}/")[0] == ids


def test_an_edit_link_gives_an_anonymous_browser_an_identity_for_what_its_page_keeps():
    maker = Client()
    created = maker.post("/api/v1/sheets/", {"game": "numx", "players": ["A", "B"]}, content_type="application/json")
    sheet = created.json()
    other = Client()
    other.get(f"/sheets/{sheet['id']}/?edit={sheet['edit_token']}")
    ids = said(other, f"/sheets/{sheet['id']}/")[0]
    assert len(ids) == 1 and ids != said(maker, "/new/numx/")[0]


def test_logging_in_keeps_the_browsers_anonymous_identity_after_the_accounts():
    verified_user("lea@example.org")
    browser = Client()
    anonymous = said(browser, "/new/numx/")[0]
    browser.post("/accounts/login/", {"login": "lea@example.org", "password": PASSWORD})
    ids = said(browser)[0]
    assert len(ids) == 2 and ids[1:] == anonymous


def test_the_page_after_a_logout_names_once_the_identities_that_ended_and_is_never_kept():
    verified_user("lea@example.org")
    browser = Client()
    browser.get("/new/numx/")
    browser.post("/accounts/login/", {"login": "lea@example.org", "password": PASSWORD})
    held = said(browser)[0]
    assert len(held) == 2  # the account's, and the browser's anonymous owner id
    r = browser.post("/accounts/logout/")
    assert r.status_code == 302
    ids, header, forget, page = said(browser, r.url)
    assert ids == header == [] and forget == held
    assert "no-store" in page["Cache-Control"]
    # Once: the next page forgets nothing more, and may be kept again.
    ids, _, forget, page = said(browser)
    assert forget is None and "no-store" not in page.get("Cache-Control", "")
    # An API call in between never takes the page's turn.
    browser = log_in(Client(), "lea@example.org")
    browser.post("/accounts/logout/")
    assert browser.get("/api/v1/games/").status_code == 200
    assert said(browser)[2] is not None


def test_deleting_the_account_has_the_next_page_forget_it():
    verified_user("lea@example.org")
    browser = log_in(Client(), "lea@example.org")
    held = said(browser)[0]
    r = browser.post("/me/delete/", {"confirm": "on"})
    assert r.status_code == 302 and not get_user_model().objects.filter(email="lea@example.org").exists()
    ids, header, forget, page = said(browser, r.url)
    assert ids == header == [] and forget == held and "no-store" in page["Cache-Control"]
    assert "Votre compte et ses feuilles sont supprimés." in page.content.decode()


def test_the_logout_and_deletion_pages_guard_rounds_that_still_wait():
    verified_user("lea@example.org")
    browser = log_in(Client(), "lea@example.org")
    for path in ("/accounts/logout/", "/me/delete/"):
        page = browser.get(path).content.decode()
        assert re.search(r"<form [^>]*data-leaving", page), path
        assert re.search(r'<script type="module" src="/static/js/table\.js"></script>', page), path
        assert "Ce que ce téléphone garde pour vous" in page, path
