"""The entry form and the players' links are drawn once per content (scoring/fragments.py).

A kept fragment is drawn from its values alone: the same values, the same HTML. These tests
hold the two halves of that: what the page draws from its values is what the whole page's
context would draw (no template reads a name the key does not hold), and a phone landing on
the next round's form does not draw it again.
"""

import pytest
from django.template.loader import render_to_string
from django.test import Client
from django.utils import translation

from scoring import services
from tests.games.test_numking_tricks_played import BIDS, HAND, TABLE
from tests.web.sheets import start

pytestmark = pytest.mark.django_db

PLAYERS = ["Léa", "Marc", "Hugo"]


def page_context(client, url):
    """Return the page's response and the context its template was drawn with, flattened."""
    response = client.get(url)
    assert response.status_code == 200
    page = next(i for i, t in enumerate(response.templates) if t.name in ("scoring/sheet.html", "scoring/edit.html"))
    return response, response.context[page].flatten()


def king_round(cards: int) -> dict:
    """A Num King round of `cards` cards: the first player bids and takes them all."""
    return {
        "cards": cards,
        "entries": {n: {"bid": cards * (i == 0), "tricks": cards * (i == 0)} for i, n in enumerate(TABLE)},
    }


def drawn(response, name):
    return sum(1 for t in response.templates if t.name == name)


def sheets(client):
    """Yield (label, page url) for a sheet of every kind of entry form, in several states."""
    yield "numx", f"/sheets/{start(client, 'numx', PLAYERS).pk}/"
    yield "numx speedrun", f"/sheets/{start(client, 'numx', PLAYERS, mode='speedrun').pk}/"
    malus = start(client, "numx-malus", PLAYERS)
    yield "numx-malus", f"/sheets/{malus.pk}/"
    services.draft_put(sheet=malus, entries={"Marc": {"numeric": 2, "specials": 1}}, fields={})
    yield "numx-malus with an entry in", f"/sheets/{malus.pk}/"
    yield "numx-malus speedgame", f"/sheets/{start(client, 'numx-malus', PLAYERS, mode='speedgame').pk}/"
    yield "numwin", f"/sheets/{start(client, 'numwin', PLAYERS).pk}/"
    coop = start(client, "coop", PLAYERS)
    yield "coop", f"/sheets/{coop.pk}/"
    assert client.post(f"/sheets/{coop.pk}/rounds/", {"placed": "31", "number": "1"}).status_code == 302
    yield "coop, editing round 1", f"/sheets/{coop.pk}/rounds/1/edit/"
    yield "coop adversaire", f"/sheets/{start(client, 'coop', PLAYERS, mode='adversaire').pk}/"
    king = start(client, "numking", TABLE, start="3")
    yield "numking", f"/sheets/{king.pk}/"
    played = start(client, "numking", TABLE)
    for cards in (1, 2):
        played = services.round_add(sheet=played, data=king_round(cards))
    yield "numking, editing round 1 of 2", f"/sheets/{played.pk}/rounds/1/edit/"
    services.draft_put(sheet=king, entries=BIDS, fields={"cards": 3, "tricks_played": HAND[:2]})
    yield "numking, two tricks refereed", f"/sheets/{king.pk}/"


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_the_entry_form_drawn_from_its_values_is_the_one_the_whole_page_would_draw(lang):
    client = Client()
    client.cookies["django_language"] = lang
    kinds = set()
    for label, url in sheets(client):
        response, context = page_context(client, url)
        template = context["entry"]["template"]
        kinds.add(context["entry"]["kind"])
        with translation.override(lang):
            whole = render_to_string(template, context)
            kept = render_to_string(template, {**context["entry_values"], "LANGUAGE_CODE": lang})
        assert kept == whole, label
        assert kept in response.content.decode(), label
    assert kinds == {"bid_tricks", "cards", "counts", "seat_result", "table_result"}


def test_a_phone_landing_on_the_next_rounds_form_does_not_draw_it_again():
    client = Client()
    sheet = start(client, "numx-malus", PLAYERS)
    page = f"/sheets/{sheet.pk}/"
    first = client.get(page)
    assert drawn(first, "scoring/entry/counts.html") == 1
    assert drawn(first, "scoring/_seat_links.html") == 1
    row = {"number": "1", **{f"numeric-{s}": "1" for s in range(3)}, "numeric-0": "0"}
    assert client.post(f"/sheets/{sheet.pk}/rounds/", row).status_code == 302
    landing = client.get(page)
    assert 'name="number" value="2"' in landing.content.decode()
    assert drawn(landing, "scoring/entry/counts.html") == 0  # the same empty form as round 1's
    assert drawn(landing, "scoring/_seat_links.html") == 0
    # A value held by the round in progress is a form of its own, drawn once.
    services.draft_put(sheet=sheet, entries={"Hugo": {"numeric": 3, "specials": 0}}, fields={})
    held = client.get(page)
    assert drawn(held, "scoring/entry/counts.html") == 1
    assert 'name="numeric-2" value="3"' in held.content.decode()
    # The same form in the other language is drawn in that language.
    client.cookies["django_language"] = "en"
    english = client.get(page)
    assert drawn(english, "scoring/entry/counts.html") == 1 and "numeric cards" in english.content.decode()


def test_an_edited_rounds_form_is_that_rounds_own():
    client = Client()
    sheet = start(client, "numking", TABLE)
    for cards in (1, 2):
        sheet = services.round_add(sheet=sheet, data=king_round(cards))
    assert 'name="cards" value="3"' in client.get(f"/sheets/{sheet.pk}/").content.decode()  # round 3 deals 3
    page = client.get(f"/sheets/{sheet.pk}/rounds/1/edit/").content.decode()
    assert 'name="cards" value="1"' in page and 'max="1"' in page  # round 1 dealt 1, not the next round's 3
    # Saved back unchanged, as the form holds it: accepted.
    fields = {
        "cards": "1",
        **{f"bid-{i}": str(int(i == 0)) for i in range(4)},
        **{f"tricks-{i}": str(int(i == 0)) for i in range(4)},
    }
    r = client.post(f"/sheets/{sheet.pk}/rounds/1/edit/", {**fields, "version": str(sheet.version)})
    assert r.status_code == 302, r.content.decode()[:2000]
