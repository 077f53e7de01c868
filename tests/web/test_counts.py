"""Num-X short rules with classic scoring on the pages: the cards left counted with steppers, not picked."""

import json
import re

import pytest
from django.test import Client

from scoring import services, tokens
from scoring.games import GAMES
from scoring.models import Round, Sheet
from tests.web.sheets import start as start_sheet

pytestmark = pytest.mark.django_db

PLAYERS = ["Elya", "Sasha", "Mendy"]


def start(client, **options):
    return start_sheet(client, "numx-malus", PLAYERS, **options)


def field(page, name):
    """Return the value an input of the page holds."""
    return re.search(rf'<input[^>]*name="{name}"[^>]*value="([^"]*)"', page).group(1)


def counts_form(**given):
    """The counts page's form fields: {"numeric-0": "3", …}; a player left out sends empty fields."""
    post = {}
    for seat, name in enumerate(PLAYERS):
        numeric, specials = given.get(name, ("", ""))
        post[f"numeric-{seat}"], post[f"specials-{seat}"] = str(numeric), str(specials)
    return post


def test_it_shows_count_steppers_under_classic_scoring_in_french_and_english(client):
    sheet = start(client)
    page = client.get(f"/sheets/{sheet.pk}/").content.decode()
    assert page.count('<fieldset class="count-row"') == 3
    assert '<fieldset class="hand"' not in page and "card-grid" not in page
    assert '<label for="numeric-1">classiques</label>' in page
    assert '<label for="specials-1">spéciales et actions</label>' in page
    # Thumb-sized −/+ either side of an empty field (nothing to type over), the deck's limits.
    assert 'aria-label="Une carte classique de plus pour Sasha">+</button>' in page
    assert re.search(
        r'<input type="number"[^>]*max="102" id="numeric-0" name="numeric-0" value="" placeholder="0"', page
    )
    assert re.search(r'max="17" id="specials-2" name="specials-2" value=""', page)
    en = client.get(f"/sheets/{sheet.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert '<label for="numeric-1">numeric cards</label>' in en
    assert '<label for="specials-1">specials and actions</label>' in en


@pytest.mark.parametrize("options", [{"scoring": "competition"}, {"mode": "speedgame"}])
def test_it_keeps_the_card_picker_under_competition_scoring(client, options):
    sheet = start(client, **options)
    page = client.get(f"/sheets/{sheet.pk}/").content.decode()
    assert page.count('<fieldset class="hand"') == 3
    assert "count-row" not in page


def test_it_stores_the_counts_posted_by_the_form_empty_fields_counting_zero(client):
    sheet = start(client)
    r = client.post(f"/sheets/{sheet.pk}/rounds/", counts_form(Elya=(3, 2), Mendy=(0, 1)))
    assert r.status_code == 302
    data = Round.objects.get(sheet=sheet).data
    assert data == {
        "entries": {
            "Elya": {"numeric": 3, "specials": 2},
            "Sasha": {"numeric": 0, "specials": 0},
            "Mendy": {"numeric": 0, "specials": 1},
        }
    }
    expected = GAMES["numx-malus"].score(PLAYERS, sheet.options, [data])["totals"]
    assert expected == {"Elya": 7, "Sasha": 0, "Mendy": 2}
    assert {p.name: p.total for p in sheet.seats.all()} == expected
    # The next round's form is empty again.
    page = client.get(f"/sheets/{sheet.pk}/").content.decode()
    assert field(page, "numeric-0") == "" and field(page, "specials-0") == ""


@pytest.mark.parametrize(
    ("given", "path", "message", "shown"),
    [
        (
            {"Sasha": ("2,5", "")},
            "entries.Sasha.numeric",
            "Sasha, classiques : « 2,5 » n&#x27;est pas un nombre entier.",
            ("numeric-1", "2,5"),
        ),
        (
            {"Elya": ("", "18")},
            "entries.Elya.specials",
            "Elya : 18 cartes spéciales et actions, c&#x27;est plus que le paquet n&#x27;en a (17).",
            ("specials-0", "18"),
        ),
        (
            {"Mendy": ("-1", "")},
            "entries.Mendy.numeric",
            "Mendy : le nombre de cartes classiques (numériques) ne peut pas être négatif (-1).",
            ("numeric-2", "-1"),
        ),
        (
            {"Elya": ("60", ""), "Sasha": ("43", "")},
            "entries.Sasha.numeric",
            "Sasha : 103 cartes classiques (numériques) restantes dans la manche en tout (Elya, Sasha), "
            "le paquet n&#x27;en a que 102.",
            ("numeric-0", "60"),
        ),
    ],
)
def test_it_shows_a_refused_count_again_with_its_message_and_stores_nothing(client, given, path, message, shown):
    sheet = start(client)
    version = sheet.version
    r = client.post(f"/sheets/{sheet.pk}/rounds/", counts_form(**given))
    assert r.status_code == 400
    page = r.content.decode()
    assert f'<li data-path="{path}">{message}</li>' in page
    assert field(page, shown[0]) == shown[1]
    assert not Round.objects.filter(sheet=sheet).exists()
    sheet.refresh_from_db()
    assert sheet.version == version


def test_it_says_the_refusal_in_english_too(client):
    sheet = start(client)
    r = client.post(f"/sheets/{sheet.pk}/rounds/", counts_form(Elya=("x", "")), HTTP_ACCEPT_LANGUAGE="en")
    assert r.status_code == 400
    assert "Elya, numeric cards: “x” is not a whole number." in r.content.decode()


def test_it_shows_a_round_stored_with_cards_counted_on_its_edit_page(client):
    sheet = start(client)
    hand = [{"kind": "red", "value": 12}, {"kind": "shadow", "value": 3}, {"kind": "joker"}]
    services.round_add(
        sheet=sheet,
        data={"entries": {"Elya": {"cards": hand}, "Sasha": {"points": 4}, "Mendy": {"cards": []}}},
        lang="fr",
    )
    page = client.get(f"/sheets/{sheet.pk}/rounds/1/edit/").content.decode()
    assert (field(page, "numeric-0"), field(page, "specials-0")) == ("2", "1")
    # Points typed by hand stay typed; the player who went out shows empty fields.
    assert field(page, "points-1") == "4" and 'name="points-0"' not in page
    assert (field(page, "numeric-2"), field(page, "specials-2")) == ("", "")
    # Saved from the counts form, the round holds the counts.
    post = {
        **counts_form(Elya=(2, 1), Mendy=(1, "")),
        "points-1": "4",
        "version": str(Sheet.objects.get(pk=sheet.pk).version),
    }
    r = client.post(f"/sheets/{sheet.pk}/rounds/1/edit/", post)
    assert r.status_code == 302, r.content.decode()[:3000]
    assert Round.objects.get(sheet=sheet, number=1).data == {
        "entries": {
            "Elya": {"numeric": 2, "specials": 1},
            "Sasha": {"points": 4},
            "Mendy": {"numeric": 1, "specials": 0},
        }
    }
    assert {p.name: p.total for p in sheet.seats.all()} == {"Elya": 4, "Sasha": 4, "Mendy": 1}


def test_it_refuses_counts_and_points_typed_together(client):
    sheet = start(client)
    services.round_add(sheet=sheet, data={"entries": {p: {"points": 1} for p in PLAYERS}}, lang="fr")
    post = {**counts_form(Elya=(2, "")), "points-0": "1", "points-1": "1", "points-2": "1"}
    post["version"] = str(Sheet.objects.get(pk=sheet.pk).version)
    r = client.post(f"/sheets/{sheet.pk}/rounds/1/edit/", post)
    assert r.status_code == 400
    assert (
        "Elya : cartes comptées et points saisis, un seul peut compter. Remettez les nombres à 0 ou effacez les points."
        in r.content.decode().replace("&#x27;", "'")
    )
    assert Round.objects.get(sheet=sheet, number=1).data == {"entries": {p: {"points": 1} for p in PLAYERS}}


def test_a_players_own_phone_sends_their_counts_to_the_round_in_progress(client):
    sheet = start(client)
    phone = Client()
    url = f"/p/{sheet.pk}/1/{tokens.entry_token(sheet.pk, 1)}/"
    page = phone.get(url).content.decode()
    assert page.count('<fieldset class="count-row"') == 1 and 'id="numeric-1"' in page and 'id="numeric-0"' not in page
    r = phone.post(url, {"number": "1", "numeric-1": "4", "specials-1": "1"})
    assert r.status_code == 302
    sheet.refresh_from_db()
    assert sheet.draft["entries"] == {"Sasha": {"numeric": 4, "specials": 1}}
    # The sheet's phone sees it, in words, and its form starts from it.
    table = client.get(f"/sheets/{sheet.pk}/").content.decode()
    assert "4 classiques, 1 spéciale ou action" in table
    assert (field(table, "numeric-1"), field(table, "specials-1")) == ("4", "1")
    bad = phone.post(url, {"number": "1", "numeric-1": "", "specials-1": "20"})
    assert bad.status_code == 400
    assert (
        "Sasha : 20 cartes spéciales et actions, c&#x27;est plus que le paquet n&#x27;en a (17)."
        in bad.content.decode()
    )
    sheet.refresh_from_db()
    assert sheet.draft["entries"] == {"Sasha": {"numeric": 4, "specials": 1}}


def test_it_gives_the_page_the_counts_in_its_data_block(client):
    sheet = start(client)
    client.post(f"/sheets/{sheet.pk}/rounds/", counts_form(Elya=(1, 1)))
    page = client.get(f"/sheets/{sheet.pk}/").content.decode()
    block = re.search(r'<script id="sheet-data" type="application/json">(.*?)</script>', page, re.S).group(1)
    data = json.loads(block)
    assert data["rounds"][0]["entries"]["Elya"] == {"numeric": 1, "specials": 1}
    # The engine asks about an empty round itself ("empty_round"): the page holds no rule to apply.
    assert "empty_rule" not in data
