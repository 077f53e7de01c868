"""A sixth game needs its engine and its place in the registry, nothing else.

The toy game below exists only in this module: a plain engine, added to GAMES for
the test and removed after it. Its new-sheet page, its sheet with a round, its entry
forms (the sheet's phone, a player's own phone, a round's edit) and its API results
all render from what the engine describes, with no page, form, serializer or
template knowing it.
"""

import html
import json
import re
from typing import ClassVar

import pytest

from scoring import services
from scoring.games import GAMES
from scoring.games.base import Game, Option, check_entries, leaders, next_round
from scoring.games.cards import Deck, parse_entry, typed_detail
from scoring.games.i18n import CATALOGUES, N_, _
from scoring.models import Sheet

pytestmark = pytest.mark.django_db

SLUG = "numtoy"
DECK = Deck("Num Toy", numeric=("red", "blue"), values={"red": (1, 6), "blue": (1, 6)})


class NumToy(Game):
    """Each player scores the sum of the cards they hold; after the planned rounds, the highest total wins."""

    slug = SLUG
    name: ClassVar[str] = N_("Num Toy")
    min_players = 2
    max_players = 4
    wins = "highest"
    entry = "cards"
    options_spec = (Option("rounds", "int", N_("Rounds to play"), 2, lo=1, hi=5),)
    summary: ClassVar[str] = N_("The sum of your cards.")
    card_kinds = tuple(DECK.kinds)
    card_actions = ()
    card_values = (1, 6)
    api_example: ClassVar[dict] = {
        "players": ["Elya", "Sasha"],
        "options": {"rounds": 1},
        "rounds": [{"entries": {"Elya": {"cards": [{"kind": "red", "value": 6}]}, "Sasha": {"points": 2}}}],
    }

    def _score(self, players, opts, rounds, lang, problems):
        if len(rounds) > opts["rounds"]:
            self._too_many(rounds, opts["rounds"], problems)
        results = []
        for i, rnd in enumerate(rounds):
            path = f"rounds[{i}]"
            rnd = self._round_dict(rnd, path, {"entries"}, problems)
            if rnd is None:
                continue
            entries = check_entries(rnd, path, players, players, problems)
            points, details = {}, {}
            for name, entry in entries.items():
                cards, typed = parse_entry(entry, f"{path}.entries.{name}", name, DECK, problems)
                if typed is not None:
                    points[name], details[name] = typed, [typed_detail(typed, lang)]
                elif cards is not None:
                    points[name] = sum(c.value for c in cards)
                    text = _(lang, N_("Sum of the cards"))
                    details[name] = [
                        {"rule": "sum", "cards": [c.raw for c in cards], "points": points[name], "text": text}
                    ]
            results.append({"points": points, "details": details})
        if problems:
            return {}
        totals = {p: sum(r["points"][p] for r in results) for p in players}
        finished = len(results) == opts["rounds"]
        return {
            "rounds": results,
            "bonuses": {p: 0 for p in players},
            "totals": totals,
            "teams": None,
            "winners": leaders(totals, self.wins),
            "finished": finished,
            "next_round": None if finished else next_round(len(results) + 1, players),
        }


# Its French: what its lines of the engines' catalogue (engine.po) would say.
FRENCH = {
    "Num Toy": "Num Jouet",
    "Rounds to play": "Manches à jouer",
    "The sum of your cards.": "La somme de vos cartes.",
    "Sum of the cards": "Somme des cartes",
}


@pytest.fixture
def toy(monkeypatch):
    assert SLUG not in GAMES
    for msgid, msgstr in FRENCH.items():
        monkeypatch.setitem(CATALOGUES["fr"]._catalog, msgid, msgstr)
    GAMES[SLUG] = NumToy()
    yield GAMES[SLUG]
    del GAMES[SLUG]


def text(page: str) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page)))


def hand(*cards):
    return json.dumps([{"kind": kind, "value": value} for kind, value in cards])


def test_its_new_sheet_page_offers_its_players_and_options(client, toy):
    page = client.get(f"/new/{SLUG}/").content.decode()
    assert "Num Jouet" in page
    assert "Manches à jouer" in page
    assert len(re.findall(r'name="player"', page)) == 4  # max_players rows
    r = client.post(f"/new/{SLUG}/", {"player": ["Léa", "Marc"], "opt-rounds": "2"})
    assert r.status_code == 302
    sheet = Sheet.objects.get(pk=r.url.strip("/").split("/")[-1])
    assert (sheet.game, sheet.players, sheet.options) == (SLUG, ["Léa", "Marc"], {"rounds": 2})


def test_its_sheet_shows_its_entry_form_and_its_rounds(client, toy):
    r = client.post(f"/new/{SLUG}/", {"player": ["Léa", "Marc"], "opt-rounds": "2"})
    sheet = Sheet.objects.get(pk=r.url.strip("/").split("/")[-1])
    page = client.get(f"/sheets/{sheet.pk}/").content.decode()
    # The card picker holds a hand per player and the toy deck's colours alone.
    assert re.findall(r'<fieldset class="hand" data-seat="(\d)" data-name="([^"]+)"', page) == [
        ("0", "Léa"),
        ("1", "Marc"),
    ]
    assert set(re.findall(r'class="colour c-(\w+)" data-kind="\w+" aria-pressed="false">([^<]+)<', page)) == {
        ("red", "rouge"),
        ("blue", "bleu"),
    }
    assert 'class="special"' not in page and 'class="special action"' not in page
    # Its values alone, 1 to 6, in each hand's grid.
    assert re.findall(r'class="value" data-value="(\d+)"', page) == [str(v) for v in range(1, 7)] * 2
    assert (
        re.findall(r'class="cell c-red" data-kind="red" data-value="(\d+)"', page) == [str(v) for v in range(1, 7)] * 2
    )
    assert "Manche 1/2" not in text(page)  # no schedule: the title is the round's number
    assert "Manche 1" in text(page)

    data = {"version": sheet.version, "number": 1, "cards-0": hand(("red", 6), ("blue", 2)), "points-1": "5"}
    assert client.post(f"/sheets/{sheet.pk}/rounds/", data).status_code == 302
    page = client.get(f"/sheets/{sheet.pk}/").content.decode()
    row = re.search(r'<table class="scores">.*?<tbody>(.*?)</tbody>', page, re.S).group(1)
    assert [text(s).split() for s in re.findall(r"<summary>(.*?)</summary>", row, re.S)] == [["8", "8"], ["5", "5"]]
    assert "Somme des cartes" in text(row)
    totals = re.search(r'<tr class="total-row">(.*?)</tr>', page, re.S).group(1)
    assert re.findall(r"<td[^>]*>(-?\d+)</td>", totals) == ["8", "5"]
    assert "En tête : Léa" in text(page)
    assert "Manche 2" in text(page)

    data = {"version": Sheet.objects.get(pk=sheet.pk).version, "number": 2, "points-0": "1", "points-1": "6"}
    assert client.post(f"/sheets/{sheet.pk}/rounds/", data).status_code == 302
    page = client.get(f"/sheets/{sheet.pk}/").content.decode()
    assert "Gagnant : Marc" in text(page)  # Léa 8 + 1 = 9, Marc 5 + 6 = 11
    sheet.refresh_from_db()
    assert sheet.finished


def test_its_entry_forms_hold_the_round_on_every_phone(client, toy):
    r = client.post(f"/new/{SLUG}/", {"player": ["Léa", "Marc"], "opt-rounds": "2"})
    sheet = Sheet.objects.get(pk=r.url.strip("/").split("/")[-1])
    links = re.findall(
        r'<input class="seat-url" readonly value="([^"]+)"', client.get(f"/sheets/{sheet.pk}/").content.decode()
    )
    assert len(links) == 2
    seat_page = client.get(links[1])
    assert seat_page.status_code == 200
    assert re.findall(r'<fieldset class="hand" data-seat="(\d)"', seat_page.content.decode()) == ["1"]
    assert 'id="save-entry"' in seat_page.content.decode()

    data = {"version": sheet.version, "number": 1, "cards-0": hand(("blue", 4)), "points-1": "3"}
    assert client.post(f"/sheets/{sheet.pk}/rounds/", data).status_code == 302
    edit = client.get(f"/sheets/{sheet.pk}/rounds/1/edit/").content.decode()
    assert html.unescape(re.search(r'name="cards-0" id="cards-0" value="([^"]*)"', edit).group(1)) == hand(("blue", 4))
    assert re.search(r'name="points-1" id="points-1" value="([^"]*)"', edit).group(1) == "3"
    data = {
        "version": Sheet.objects.get(pk=sheet.pk).version,
        "cards-0": hand(("blue", 4), ("red", 5)),
        "points-1": "3",
    }
    assert client.post(f"/sheets/{sheet.pk}/rounds/1/edit/", data).status_code == 302
    assert Sheet.objects.get(pk=sheet.pk).players == ["Léa", "Marc"]
    assert services.sheet_state(Sheet.objects.get(pk=sheet.pk), "fr")[0]["totals"] == {"Léa": 9, "Marc": 3}


def test_its_api_scores_it_and_keeps_its_sheets(client, toy):
    catalogue = client.get("/api/v1/games/").json()
    assert [g["name"]["en"] for g in catalogue if g["slug"] == SLUG] == ["Num Toy"]

    scored = client.post(f"/api/v1/games/{SLUG}/score/", toy.api_example, content_type="application/json")
    assert scored.status_code == 200, scored.content
    assert scored.json()["totals"] == {"Elya": 6, "Sasha": 2}
    assert scored.json()["winners"] == ["Elya"] and scored.json()["finished"] is True

    created = client.post(
        "/api/v1/sheets/",
        {"game": SLUG, "players": ["Elya", "Sasha"], "options": {"rounds": 1}},
        content_type="application/json",
    )
    assert created.status_code == 201, created.content
    token = created.json()["edit_token"]
    url = f"/api/v1/sheets/{created.json()['id']}/"
    added = client.post(
        f"{url}rounds/", toy.api_example["rounds"][0], content_type="application/json", headers={"X-Edit-Token": token}
    )
    assert added.status_code == 201, added.content
    sheet = client.get(url, headers={"X-Edit-Token": token}).json()
    assert (sheet["game"], sheet["totals"], sheet["winners"], sheet["finished"]) == (
        SLUG,
        {"Elya": 6, "Sasha": 2},
        ["Elya"],
        True,
    )
