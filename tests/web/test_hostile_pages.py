"""Odd input on the pages: NUL bytes in URLs, cookies and fields, invisible characters in
names, numbers spelt oddly, JSON too deep. The page's own message (or a 404), nothing
stored, never a 500.

The NUL cases only broke on PostgreSQL (it refuses NUL in text): run this file with
DATABASE_URL=postgres://… to see them fail without the fixes.
"""

import json
import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from accounts.models import Profile
from scoring.models import Player, Round, Sheet
from scoring.tokens import claim_token
from tests.accounts import PASSWORD, logged_in
from tests.web.sheets import start as start_sheet

pytestmark = pytest.mark.django_db
SUPERSCRIPT_TWO = "\u00b2"  # str.isdigit() says yes, int() says no
FIVE_THOUSAND_DIGITS = "9" * 5000  # int() refuses past 4,300 digits


def start(client, slug, players, **fields):
    return start_sheet(client, slug, players, fields=fields)


def alert(response) -> str:
    """Return the text of the page's error box."""
    page = response.content.decode()
    box = re.search(r'<div class="errors" role="alert".*?</div>', page, re.S)
    assert box, page[:3000]
    return box.group(0)


# --- NUL bytes and odd tokens in URLs and cookies ------------------------------------------


def test_it_answers_404_for_a_nul_byte_or_an_accent_in_any_sheet_url(client):
    user, owner = logged_in("ana@example.com")
    sheet = start(owner, "coop", ["A", "B"])
    token = claim_token(sheet.pk, 0)
    for method, url in [
        ("get", "/sheets/a%00b/"),
        ("post", "/sheets/a%00b/rounds/"),
        ("get", "/sheets/a%00b/rounds/1/edit/"),
        ("post", "/sheets/a%00b/undo/"),
        ("post", "/sheets/a%00b/rematch/"),
        ("get", f"/w/a%00b/{token}/"),
        ("get", f"/w/{sheet.pk}/a%00b/"),
        ("get", f"/w/{sheet.pk}/%C3%A9/"),
        ("get", f"/seat/a%00b/0/{token}/"),
        ("get", f"/seat/{sheet.pk}/0/a%00b/"),
        ("get", f"/seat/{sheet.pk}/0/%C3%A9/"),
        ("get", f"/seat/{sheet.pk}/{FIVE_THOUSAND_DIGITS}/{token}/"),
        ("post", "/me/sheets/a%00b/delete/"),
        ("post", "/me/sheets/a%00b/seat/"),
        ("post", "/me/sheets/a%00b/save/"),
        ("get", f"/players/{FIVE_THOUSAND_DIGITS}/"),
    ]:
        assert getattr(owner, method)(url).status_code == 404, url
    assert Sheet.objects.count() == 1 and not Player.objects.exclude(user=None).exists()


def test_it_treats_a_session_cookie_with_a_nul_byte_as_no_session():
    browser = Client()
    browser.cookies["sessionid"] = "abcdefgh\x00ijklmnop"
    r = browser.get("/")
    assert r.status_code == 200
    assert "Comptez les points" in r.content.decode()


@pytest.mark.parametrize(
    "url, data",
    [
        ("/accounts/login/", {"login": "ana\x00@example.com", "password": "x\x00y"}),
        ("/accounts/signup/", {"email": "ana\x00@example.com", "password1": PASSWORD, "password2": PASSWORD}),
        ("/accounts/password/reset/", {"email": "ana\x00@example.com"}),
        ("/admin/login/", {"username": "ana\x00", "password": "x\x00y"}),
    ],
)
def test_it_answers_the_account_forms_with_their_own_error_for_a_nul_byte(client, url, data):
    r = client.post(url, data)
    assert r.status_code == 200
    assert "errorlist" in r.content.decode() or "errornote" in r.content.decode()
    assert get_user_model().objects.count() == 0


# --- Names on the new-sheet form ------------------------------------------------------------


@pytest.mark.parametrize("char", ["\x00", "\u200b", "\u202e", "\x1b"], ids=["nul", "zero-width", "bidi", "escape"])
def test_it_refuses_a_player_name_with_an_invisible_character_and_says_so(client, char):
    r = client.post("/new/numx/", {"player": ["Elya", f"Sa{char}sha"]})
    assert r.status_code == 400
    box = alert(r)
    assert "invisible ou de contrôle" in box and f"U+{ord(char):04X}" in box and "Sa\ufffdsha" in box
    en = alert(client.post("/new/numx/", {"player": ["Elya", f"Sa{char}sha"]}, HTTP_ACCEPT_LANGUAGE="en"))
    assert "invisible or control character" in en
    assert Sheet.objects.count() == 0 and Player.objects.count() == 0


@pytest.mark.parametrize("char", ["\x00", "\u200b"], ids=["nul", "zero-width"])
def test_it_refuses_a_team_name_with_an_invisible_character(client, char):
    teams = {"team-0": f"Rouge{char}", "team-1": f"Rouge{char}", "team-2": "Bleu", "team-3": "Bleu"}
    r = client.post("/new/numx/", {"player": ["A", "B", "C", "D"], **teams})
    assert r.status_code == 400
    assert "Nom d'équipe" in alert(r).replace("&#x27;", "'")
    assert Sheet.objects.count() == 0


def test_it_keeps_each_team_with_its_seat_when_a_name_row_is_left_blank(client):
    teams = {"team-0": "Rouge", "team-2": " Rouge ", "team-3": "Bleu", "team-4": "Bleu"}
    sheet = start(client, "numx", ["A", "", " B", "C", "D  "], **teams)
    assert sheet.players == ["A", "B", "C", "D"]
    assert sheet.options["teams"] == {"Rouge": ["A", "B"], "Bleu": ["C", "D"]}


def test_it_refuses_a_41_character_name_that_folds_to_40(client):
    r = client.post("/new/numx/", {"player": ["a  " + "b" * 38, "Sasha"]})
    assert r.status_code == 400
    assert "41" in alert(r)
    assert Sheet.objects.count() == 0


def test_it_reads_bytes_that_are_no_utf8_in_a_form_as_replacement_characters(client):
    # A lone surrogate cannot travel in a form: its UTF-8-like bytes arrive as U+FFFD.
    r = client.post("/new/numx/", b"player=a%ED%B2%80&player=Sasha", content_type="application/x-www-form-urlencoded")
    assert r.status_code == 302
    name = Sheet.objects.get().players[0]
    assert name.startswith("a") and set(name[1:]) == {"\ufffd"}
    name.encode()  # stored and shown as UTF-8


# --- The public name ---------------------------------------------------------------------------


@pytest.mark.parametrize("char", ["\x00", "\u200b", "\u202e"], ids=["nul", "zero-width", "bidi"])
def test_it_refuses_a_public_name_with_an_invisible_character(char):
    user, client = logged_in("ana@example.com")
    client.post("/me/profile/", {"display_name": "Ana", "public": "on"})
    r = client.post("/me/profile/", {"display_name": f"An{char}a", "public": "on"}, follow=True)
    page = r.content.decode()
    assert r.status_code == 200 and "invisible ou de contrôle" in page and f"U+{ord(char):04X}" in page
    assert Profile.objects.get(user=user).display_name == "Ana"
    r = client.post("/me/profile/", {"display_name": f"An{char}a"}, follow=True, HTTP_ACCEPT_LANGUAGE="en")
    assert "invisible or control character" in r.content.decode()


def test_it_cleans_a_public_name_like_a_player_name():
    user, client = logged_in("ana@example.com")
    client.post("/me/profile/", {"display_name": "  Ana \t  Lucía ", "public": "on"})
    assert Profile.objects.get(user=user).display_name == "Ana Lucía"
    r = client.post("/me/profile/", {"display_name": "a  " + "b" * 38, "public": "on"}, follow=True)
    assert "au plus 40 caractères" in r.content.decode()
    assert Profile.objects.get(user=user).display_name == "Ana Lucía"


# --- Numbers typed or sent by the pages ---------------------------------------------------------


@pytest.mark.parametrize("number", [SUPERSCRIPT_TWO, FIVE_THOUSAND_DIGITS, "١"], ids=["superscript", "5000", "arabic"])
def test_it_adds_the_round_at_the_end_when_its_number_is_unreadable(client, number):
    sheet = start(client, "coop", ["A", "B"])
    r = client.post(f"/sheets/{sheet.pk}/rounds/", {"placed": "50", "number": number})
    assert r.status_code == 302
    assert list(Round.objects.values_list("number", "data")) == [(1, {"placed": 50})]


@pytest.mark.parametrize("version", [SUPERSCRIPT_TWO, FIVE_THOUSAND_DIGITS], ids=["superscript", "5000"])
def test_it_saves_an_edited_round_when_its_version_is_unreadable(client, version):
    sheet = start(client, "coop", ["A", "B"])
    client.post(f"/sheets/{sheet.pk}/rounds/", {"placed": "50"})
    r = client.post(f"/sheets/{sheet.pk}/rounds/1/edit/", {"placed": "60", "version": version})
    assert r.status_code == 302
    assert list(Round.objects.values_list("data", flat=True)) == [{"placed": 60}]


@pytest.mark.parametrize("declarer", [SUPERSCRIPT_TWO, FIVE_THOUSAND_DIGITS, "7"], ids=["superscript", "5000", "seat"])
def test_it_reads_an_unreadable_declarer_as_nobody(client, declarer):
    sheet = start(client, "numwin", ["Elya", "Sasha"])
    r = client.post(f"/sheets/{sheet.pk}/rounds/", {"points-0": "4", "points-1": "6", "declarer": declarer})
    assert r.status_code == 302
    assert Round.objects.get().data["declarer"] is None


def test_it_places_the_typed_cards_when_the_deck_size_is_unreadable(client):
    sheet = start(client, "coop", ["A", "B"])
    r = client.post(f"/sheets/{sheet.pk}/rounds/", {"placed": "40", "won": "on", "deck": SUPERSCRIPT_TWO})
    assert r.status_code == 302
    assert Round.objects.get().data == {"placed": 40}


@pytest.mark.parametrize(
    "seat", [SUPERSCRIPT_TWO, FIVE_THOUSAND_DIGITS, "-1", ""], ids=["superscript", "5000", "-1", "empty"]
)
def test_it_answers_404_for_an_unreadable_seat(seat):
    user, client = logged_in("ana@example.com")
    sheet = start(client, "coop", ["A", "B"])
    assert client.post(f"/me/sheets/{sheet.pk}/seat/", {"seat": seat}).status_code == 404
    assert not Player.objects.exclude(user=None).exists()


@pytest.mark.parametrize(
    "value, words",
    [
        (SUPERSCRIPT_TWO, "pas un nombre entier"),
        ("١٢", "pas un nombre entier"),
        ("1_000", "pas un nombre entier"),
        (FIVE_THOUSAND_DIGITS, "trop grand"),
        ("12345678901", "trop grand"),
    ],
)
def test_it_refuses_typed_points_that_are_not_a_number_it_reads(client, value, words):
    sheet = start(client, "numx-malus", ["Elya", "Sasha"])
    r = client.post(f"/sheets/{sheet.pk}/rounds/", {"points-0": value, "points-1": "3"})
    assert r.status_code == 400
    box = alert(r)
    assert words in box and "Elya" in box
    assert Round.objects.count() == 0


def test_it_takes_a_negative_number_with_the_printed_minus_sign(client):
    sheet = start(client, "numx-malus", ["Elya", "Sasha"])
    r = client.post(f"/sheets/{sheet.pk}/rounds/", {"points-0": "\u22123", "points-1": " -4 "})
    assert r.status_code == 302
    assert Round.objects.get().data["entries"] == {"Elya": {"points": -3}, "Sasha": {"points": -4}}


def test_it_refuses_an_unreadable_option_number_on_the_new_sheet_form(client):
    r = client.post("/new/numking/", {"player": ["A", "B", "C"], "opt-start": SUPERSCRIPT_TWO})
    assert r.status_code == 400
    assert "pas un nombre entier" in alert(r)
    assert Sheet.objects.count() == 0


@pytest.mark.parametrize(
    "cards",
    ["[" * 3000 + "]" * 3000, '[{"kind": "\\udc80"}]', '[{"kind": "action", "name": "\\u0000"}]'],
    ids=["deep", "surrogate", "nul"],
)
def test_it_refuses_cards_it_cannot_read_with_the_page_message(client, cards):
    sheet = start(client, "numx", ["Elya", "Sasha"])
    r = client.post(f"/sheets/{sheet.pk}/rounds/", {"cards-0": cards, "points-1": "2"})
    assert r.status_code == 400
    assert "Elya" in alert(r) and "cartes" in alert(r)
    assert Round.objects.count() == 0
    json.dumps(r.content.decode())  # the page itself is plain UTF-8 text


def test_it_shows_a_stored_sheet_whose_names_predate_the_rule_and_says_why_no_rematch(client):
    sheet = start(client, "coop", ["Elya", "Sasha"])
    Sheet.objects.filter(pk=sheet.pk).update(players=["El\u202eya", "Sasha"], version=sheet.version + 1)
    Player.objects.filter(sheet=sheet, seat=0).update(name="El\u202eya")
    assert client.get(f"/sheets/{sheet.pk}/").status_code == 200
    assert client.post(f"/sheets/{sheet.pk}/rounds/", {"placed": "50"}).status_code == 302
    r = client.post(f"/sheets/{sheet.pk}/rematch/", follow=True)
    assert r.status_code == 200 and "invisible ou de contrôle" in r.content.decode()
    assert Sheet.objects.count() == 1 and Round.objects.count() == 1
