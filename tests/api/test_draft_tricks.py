"""Num King's hand in the round in progress through PUT /api/v1/sheets/{id}/draft/: the referee's tricks,
stored for every phone, checked, filling the tricks after the last one; the page's bids keep them."""

import pytest
from django.test import Client

from scoring.games import GAMES
from scoring.models import Round, Sheet
from tests.api.sheets import create
from tests.games.test_numking_tricks_played import BIDS, HAND, OPTIONS, PAIR, TABLE, R, S, trick

pytestmark = pytest.mark.django_db


def make():
    return create("numking", TABLE, OPTIONS)


def put(sheet, body, *, version=None, lang="fr"):
    headers = {"HTTP_X_EDIT_TOKEN": sheet["edit_token"], "HTTP_ACCEPT_LANGUAGE": lang}
    if version is not None:
        headers["HTTP_IF_MATCH"] = f'"{version}"'
    return Client().put(f"/api/v1/sheets/{sheet['id']}/draft/", body, content_type="application/json", **headers)


def test_a_hand_played_trick_by_trick_fills_the_tricks_and_saves_as_a_plain_round():
    sheet = make()
    version = sheet["version"]
    r = put(sheet, {"entries": BIDS, "fields": {"cards": 3}}, version=version)
    assert r.status_code == 200, r.content
    for played in range(1, 4):
        body = r.json()
        r = put(
            sheet,
            {"entries": body["entries"], "fields": {**body["fields"], "tricks_played": HAND[:played]}},
            version=body["version"],
        )
        assert r.status_code == 200, r.content
        if played < 3:
            assert r.json()["entries"] == BIDS and r.json()["entered"] == []
    body = r.json()
    assert body["fields"]["tricks_played"] == HAND
    assert {p: e["tricks"] for p, e in body["entries"].items()} == {"Léa": 1, "Bruno": 0, "Chloé": 0, "David": 2}
    assert body["entered"] == TABLE
    # Saved as it stands: the round keeps the entries and the cards dealt, not the tricks.
    saved = Client().post(
        f"/api/v1/sheets/{sheet['id']}/rounds/",
        {"from_draft": True},
        content_type="application/json",
        HTTP_X_EDIT_TOKEN=sheet["edit_token"],
    )
    assert saved.status_code == 201, saved.content
    data = Round.objects.get(sheet_id=sheet["id"]).data
    assert data == {"cards": 3, "entries": body["entries"]}
    assert saved.json()["totals"] == GAMES["numking"].score(TABLE, OPTIONS, [data])["totals"]
    assert saved.json()["draft"]["fields"] == {}


def test_a_card_played_twice_in_the_round_is_refused_and_nothing_is_stored():
    sheet = make()
    assert put(sheet, {"entries": BIDS, "fields": {"tricks_played": [PAIR]}}).status_code == 200
    again = trick("Léa", [R(9), S(5), R(1), S(2)])
    for lang, message in (
        ("fr", "Rainbow 9 a déjà été jouée dans un pli précédent de la manche."),
        ("en", "Rainbow 9 was already played in an earlier trick of this round."),
    ):
        r = put(sheet, {"entries": BIDS, "fields": {"tricks_played": [PAIR, again]}}, lang=lang)
        assert r.status_code == 400
        assert r.json()["errors"] == [
            {"path": "fields.tricks_played[1].plays[0].card", "code": "card_already_played", "message": message}
        ]
    assert Sheet.objects.get(pk=sheet["id"]).draft["fields"] == {"tricks_played": [PAIR]}


def test_more_tricks_than_cards_and_a_stranger_in_a_trick_are_refused():
    sheet = make()
    fourth = trick("Chloé", [R(1), S(1), R(2), S(3)])
    r = put(sheet, {"entries": BIDS, "fields": {"tricks_played": [*HAND, fourth]}}, lang="en")
    assert r.status_code == 400
    assert r.json()["errors"][0]["path"] == "fields.tricks_played"
    assert r.json()["errors"][0]["message"] == (
        "4 tricks played for 3 cards dealt: a round has at most one trick per card."
    )
    stranger = {"leader": "Léa", "plays": [*PAIR["plays"][:3], {"player": "Zoé", "card": S(12)}]}
    r = put(sheet, {"entries": BIDS, "fields": {"tricks_played": [stranger]}})
    assert r.status_code == 400
    assert {e["path"] for e in r.json()["errors"]} == {
        "fields.tricks_played[0].plays[3].player",
        "fields.tricks_played[0].plays",
    }


def test_a_stale_write_is_refused_so_another_phones_entry_is_never_lost():
    sheet = make()
    seat = sheet["seat_urls"]["Bruno"].rstrip("/").rsplit("/", 1)[1]
    r = put(sheet, {"entries": BIDS, "fields": {}})
    read_at = r.json()["version"]
    # Bruno changes his bid from his phone meanwhile.
    moved = Client().put(
        f"/api/v1/sheets/{sheet['id']}/draft/entries/Bruno/",
        {"bid": 1},
        content_type="application/json",
        HTTP_X_SEAT_TOKEN=seat,
    )
    assert moved.status_code == 200
    r = put(sheet, {"entries": BIDS, "fields": {"tricks_played": [PAIR]}}, version=read_at)
    assert r.status_code == 412
    assert Sheet.objects.get(pk=sheet["id"]).draft["entries"]["Bruno"] == {"bid": 1}
    assert "tricks_played" not in Sheet.objects.get(pk=sheet["id"]).draft["fields"]


def test_a_value_typed_by_hand_after_the_hand_wins_over_a_correction():
    sheet = make()
    body = put(sheet, {"entries": BIDS, "fields": {"tricks_played": HAND}}).json()
    typed = {**body["entries"], "Léa": {"bid": 1, "tricks": 0}}  # the table says Léa took none
    body = put(sheet, {"entries": typed, "fields": body["fields"]}).json()
    corrected = [
        PAIR,
        trick("Léa", [R(5), {"kind": "action", "name": "flip"}, {"kind": "action", "name": "flash"}, S(2)]),
        HAND[2],
    ]
    body = put(sheet, {"entries": body["entries"], "fields": {"tricks_played": corrected}}).json()
    assert body["entries"]["Léa"] == {"bid": 1, "tricks": 0}  # typed by hand: kept
    assert body["entries"]["David"] == {"bid": 2, "tricks": 1}  # the referee's: follows the correction


def test_the_pages_bids_keep_the_hands_tricks(client):
    sheet = make()
    assert put(sheet, {"entries": BIDS, "fields": {"cards": 3, "tricks_played": HAND[:1]}}).status_code == 200
    client.get(f"/sheets/{sheet['id']}/?edit={sheet['edit_token']}")
    form = {"number": "1", "cards": "3", "step": "bids", **{f"bid-{i}": "1" for i in range(4)}}
    r = client.post(f"/sheets/{sheet['id']}/draft/", form)
    assert r.status_code == 302
    draft = Sheet.objects.get(pk=sheet["id"]).draft
    assert draft["fields"] == {"cards": 3, "tricks_played": HAND[:1]}
    assert draft["entries"]["Bruno"] == {"bid": 1}
