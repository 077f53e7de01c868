"""Num-X short rules through the API: the cards left counted ({"numeric", "specials"}) under classic scoring."""

import pytest

from scoring.models import Round, Sheet
from tests.api.sheets import create as create_sheet

pytestmark = pytest.mark.django_db

PLAYERS = ["Elya", "Sasha", "Mendy"]


def post(client, url, body, **headers):
    return client.post(url, body, content_type="application/json", **headers)


def create(client, options=None):
    sheet = create_sheet("numx-malus", PLAYERS, options or {}, client=client)
    return sheet, f"/api/v1/sheets/{sheet['id']}/rounds/", {"HTTP_X_EDIT_TOKEN": sheet["edit_token"]}


def counted(**given):
    return {"entries": {p: {"numeric": n, "specials": m} for p, (n, m) in given.items()}}


def test_it_stores_a_counted_round_and_scores_it(client):
    sheet, url, auth = create(client)
    r = post(client, url, counted(Elya=(3, 2), Sasha=(0, 0), Mendy=(5, 0)), **auth)
    assert r.status_code == 201, r.content
    body = r.json()
    assert body["rounds"][0]["points"] == {"Elya": 7, "Sasha": 0, "Mendy": 5}
    assert body["totals"] == {"Elya": 7, "Sasha": 0, "Mendy": 5}
    assert [d["rule"] for d in body["rounds"][0]["details"]["Elya"]] == ["malus_numeric", "malus_special"]
    assert Round.objects.get(sheet_id=sheet["id"]).data == counted(Elya=(3, 2), Sasha=(0, 0), Mendy=(5, 0))


def test_it_scores_counts_without_a_sheet(client):
    body = {
        "players": PLAYERS,
        "options": {"mode": "family"},
        "rounds": [counted(Elya=(1, 1), Sasha=(0, 0), Mendy=(2, 0))],
    }
    r = post(client, "/api/v1/games/numx-malus/score/", body, HTTP_ACCEPT_LANGUAGE="en")
    assert r.status_code == 200, r.content
    assert r.json()["totals"] == {"Elya": 3, "Sasha": 0, "Mendy": 2}
    assert r.json()["rounds"][0]["details"]["Elya"][1]["text"] == "1 special or action card × 2 → 2"


@pytest.mark.parametrize(
    ("elya", "path", "fr", "en"),
    [
        (
            {"numeric": 1.5, "specials": 0},
            "entries.Elya.numeric",
            "Elya : le nombre de cartes classiques (numériques) doit être un nombre entier (1.5).",
            "Elya: the number of numeric cards must be a whole number (1.5).",
        ),
        (
            {"numeric": False, "specials": 0},
            "entries.Elya.numeric",
            "Elya : le nombre de cartes classiques (numériques) doit être un nombre entier (false).",
            "Elya: the number of numeric cards must be a whole number (false).",
        ),
        (
            {"numeric": 0, "specials": -3},
            "entries.Elya.specials",
            "Elya : le nombre de cartes spéciales et actions ne peut pas être négatif (-3).",
            "Elya: the number of special and action cards cannot be negative (-3).",
        ),
        (
            {"numeric": 200, "specials": 0},
            "entries.Elya.numeric",
            "Elya : 200 cartes classiques (numériques), c'est plus que le paquet n'en a (102).",
            "Elya: 200 numeric cards is more than the deck holds (102).",
        ),
        (
            {"numeric": 0, "specials": 2, "joker": 1},
            "entries.Elya.joker",
            "Elya : champ inconnu « joker » (le nombre de cartes se donne par numeric et specials).",
            "Elya: unknown field “joker” (cards left are counted with numeric and specials).",
        ),
        (
            {"numeric": 2, "specials": 0, "cards": []},
            "entries.Elya",
            "Elya : donnez soit le nombre de cartes restantes (numeric, specials), soit les cartes (cards), pas les deux.",
            "Elya: give either the cards left counted (numeric, specials) or the cards, not both.",
        ),
        (
            {"numeric": 2, "specials": 0, "points": 2},
            "entries.Elya",
            "Elya : donnez soit le nombre de cartes restantes (numeric, specials), soit les points (points), pas les deux.",
            "Elya: give either the cards left counted (numeric, specials) or the points, not both.",
        ),
    ],
)
def test_it_refuses_bad_counts_with_a_400_naming_the_player_and_stores_nothing(client, elya, path, fr, en):
    sheet, url, auth = create(client)
    version = Sheet.objects.get(pk=sheet["id"]).version
    body = {"entries": {"Elya": elya, "Sasha": {"numeric": 0, "specials": 0}, "Mendy": {"numeric": 1, "specials": 0}}}
    for lang, message in (("fr", fr), ("en", en)):
        r = post(client, url, body, HTTP_ACCEPT_LANGUAGE=lang, **auth)
        assert r.status_code == 400, r.content
        assert [(e["path"], e["message"]) for e in r.json()["errors"]] == [(path, message)]
    assert not Round.objects.filter(sheet_id=sheet["id"]).exists()
    assert Sheet.objects.get(pk=sheet["id"]).version == version


def test_it_refuses_a_round_counting_more_than_the_deck_and_stores_nothing(client):
    sheet, url, auth = create(client)
    r = post(client, url, counted(Elya=(50, 10), Sasha=(50, 5), Mendy=(3, 3)), HTTP_ACCEPT_LANGUAGE="en", **auth)
    assert r.status_code == 400
    assert [(e["path"], e["message"]) for e in r.json()["errors"]] == [
        (
            "entries.Mendy.numeric",
            "Mendy: 103 numeric cards left in the round in all (Elya, Sasha, Mendy), the deck holds only 102.",
        ),
        (
            "entries.Mendy.specials",
            "Mendy: 18 special and action cards left in the round in all (Elya, Sasha, Mendy), the deck holds only 17.",
        ),
    ]
    assert not Round.objects.filter(sheet_id=sheet["id"]).exists()


@pytest.mark.parametrize("options", [{"scoring": "competition"}, {"mode": "speedgame"}])
def test_it_refuses_counts_under_competition_scoring(client, options):
    sheet, url, auth = create(client, options)
    r = post(client, url, counted(Elya=(3, 0), Sasha=(0, 0), Mendy=(0, 0)), **auth)
    assert r.status_code == 400
    errors = r.json()["errors"]
    assert {e["path"] for e in errors} == {f"entries.{p}" for p in PLAYERS}
    assert errors[0]["message"] == (
        "Elya : en décompte compétition chaque carte compte sa valeur ; compter les cartes ne suffit pas : "
        "saisissez les cartes ou les points."
    )
    assert not Round.objects.filter(sheet_id=sheet["id"]).exists()
    # The cards themselves are taken.
    named = {
        "entries": {"Elya": {"cards": [{"kind": "red", "value": 9}]}, "Sasha": {"cards": []}, "Mendy": {"points": 4}}
    }
    assert post(client, url, named, **auth).status_code == 201


def test_it_documents_the_counts_in_the_schema(client):
    schema = client.get("/api/v1/schema/", HTTP_ACCEPT="application/json").content.decode()
    assert "numeric" in schema and "specials" in schema
