"""The hand's tricks written from any phone of the table: PUT /api/v1/sheets/{id}/draft/tricks/{n}/.

The editor and every player with their own seat token add or correct a trick of the round
in progress (docs/rules.md, « Who may write the hand's tricks »); nothing else of the round
changes, and If-Match is required, so two phones storing at once never lose a trick."""

import threading

import pytest
from django.db import connection
from django.test import Client

from scoring import services
from scoring.games import GAMES
from scoring.models import Sheet
from tests.api.test_draft import seat_token
from tests.api.test_draft_tricks import make, put
from tests.games.test_numking_tricks_played import BIDS, FLASH_FLIP, HAND, PAIR, TABLE, R, S, trick

pytestmark = pytest.mark.django_db


def put_trick(sheet, n, body, *, seat=None, edit=False, version=None, lang="fr", **headers):
    if seat:
        headers["HTTP_X_SEAT_TOKEN"] = seat_token(sheet, seat)
    if edit:
        headers["HTTP_X_EDIT_TOKEN"] = sheet["edit_token"]
    if version is not None:
        headers["HTTP_IF_MATCH"] = f'"{version}"'
    url = f"/api/v1/sheets/{sheet['id']}/draft/tricks/{n}/"
    return Client().put(url, body, content_type="application/json", HTTP_ACCEPT_LANGUAGE=lang, **headers)


def stored(sheet):
    return Sheet.objects.get(pk=sheet["id"]).draft


def bid(sheet):
    """Return the sheet with every bid in (the hand can be played) and its version."""
    r = put(sheet, {"entries": BIDS, "fields": {"cards": 3}})
    assert r.status_code == 200, r.content
    return r.json()["version"]


def test_a_players_phone_adds_and_corrects_a_trick_and_the_last_one_fills_everyones_tricks():
    sheet = make()
    version = bid(sheet)
    # Bruno's phone stores trick 1, Chloé's trick 2: only the hand changes, every bid stays.
    r = put_trick(sheet, 1, {**PAIR, "number": 1}, seat="Bruno", version=version)
    assert r.status_code == 200, r.content
    assert r.json()["fields"]["tricks_played"] == [PAIR]
    assert r.json()["entries"] == BIDS
    assert r.headers["ETag"] == f'"{version + 1}"'
    r = put_trick(sheet, 2, FLASH_FLIP, seat="Chloé", version=r.json()["version"])
    assert r.status_code == 200, r.content
    # Chloé corrects trick 1 (Bruno's card was Shadow 5), then Bruno stores the last one.
    corrected = trick("Léa", [R(9), S(5), R(12), S(12)])
    r = put_trick(sheet, 1, corrected, seat="Chloé", version=r.json()["version"])
    assert r.status_code == 200, r.content
    assert r.json()["fields"]["tricks_played"] == [corrected, FLASH_FLIP]
    r = put_trick(sheet, 3, HAND[2], seat="Bruno", version=r.json()["version"])
    assert r.status_code == 200, r.content
    body = r.json()
    assert body["fields"] == {"cards": 3, "tricks_played": [corrected, *HAND[1:]]}
    counted = {"Léa": 1, "Bruno": 0, "Chloé": 0, "David": 2}
    assert body["entries"] == {name: {**BIDS[name], "tricks": n} for name, n in counted.items()}
    assert body["entered"] == TABLE
    # The round saves as the referee counted it.
    saved = Client().post(
        f"/api/v1/sheets/{sheet['id']}/rounds/",
        {"from_draft": True},
        content_type="application/json",
        HTTP_X_EDIT_TOKEN=sheet["edit_token"],
    )
    assert saved.status_code == 201, saved.content
    expected = GAMES["numking"].score(TABLE, {"start": 3}, [{"cards": 3, "entries": body["entries"]}])
    assert saved.json()["totals"] == expected["totals"]


def test_the_editor_stores_tricks_the_same_way():
    sheet = make()
    version = bid(sheet)
    r = put_trick(sheet, 1, PAIR, edit=True, version=version)
    assert r.status_code == 200, r.content
    assert stored(sheet)["fields"]["tricks_played"] == [PAIR]


def test_a_players_phone_writes_the_hand_and_nothing_else():
    sheet = make()
    version = bid(sheet)
    share = sheet["share_url"].rstrip("/").rsplit("/", 1)[1]
    # Another player's entry, the whole round, an entry slipped into the trick: refused, nothing stored.
    r = Client().put(
        f"/api/v1/sheets/{sheet['id']}/draft/entries/Léa/",
        {"bid": 3},
        content_type="application/json",
        HTTP_X_SEAT_TOKEN=seat_token(sheet, "Bruno"),
    )
    assert r.status_code == 404
    r = Client().put(
        f"/api/v1/sheets/{sheet['id']}/draft/",
        {"entries": {**BIDS, "Léa": {"bid": 3}}, "fields": {"tricks_played": [PAIR]}},
        content_type="application/json",
        HTTP_X_SEAT_TOKEN=seat_token(sheet, "Bruno"),
        HTTP_IF_MATCH=f'"{version}"',
    )
    assert r.status_code == 404
    for lang, message in (("fr", "Champ inconnu : entries."), ("en", "Unknown field: entries.")):
        r = put_trick(sheet, 1, {**PAIR, "entries": {"Léa": {"bid": 3}}}, seat="Bruno", version=version, lang=lang)
        assert r.status_code == 400
        assert r.json()["errors"] == [{"path": "entries", "code": "unknown_field", "message": message}]
    # A share link, a stranger, a made-up seat token: as if the sheet did not exist.
    assert put_trick(sheet, 1, PAIR, version=version, HTTP_X_SHARE_TOKEN=share).status_code == 404
    assert put_trick(sheet, 1, PAIR, version=version).status_code == 404
    assert put_trick(sheet, 1, PAIR, version=version, HTTP_X_SEAT_TOKEN="0" * 32).status_code == 404
    assert stored(sheet) == {"entries": BIDS, "fields": {"cards": 3}, "entered": []}


def test_it_requires_if_match_and_refuses_a_stale_one_in_the_users_language():
    sheet = make()
    version = bid(sheet)
    for lang, message in (
        ("fr", "If-Match : envoyez la version"),
        ("en", "If-Match: send the version the round in progress was read at"),
    ):
        r = put_trick(sheet, 1, PAIR, seat="Bruno", lang=lang)
        assert r.status_code == 428
        [error] = r.json()["errors"]
        assert (error["path"], error["code"]) == ("If-Match", "if_match_required")
        assert error["message"].startswith(message)
    assert put_trick(sheet, 1, PAIR, seat="Léa", version=version).status_code == 200
    r = put_trick(sheet, 1, FLASH_FLIP, seat="Bruno", version=version, lang="en")  # read before Léa's trick
    assert r.status_code == 412
    assert r.json()["errors"][0]["message"] == "The sheet changed since you loaded it: reload it and try again."
    assert r.headers["ETag"] == f'"{version + 1}"'
    assert stored(sheet)["fields"]["tricks_played"] == [PAIR]


def test_it_refuses_a_trick_out_of_turn_a_bad_trick_and_a_trick_of_a_saved_round():
    sheet = make()
    version = bid(sheet)
    for lang, message in (
        ("fr", "Le pli 3 ne peut pas être enregistré avant le pli 1."),
        ("en", "Trick 3 cannot be stored before trick 1."),
    ):
        r = put_trick(sheet, 3, PAIR, seat="Bruno", version=version, lang=lang)
        assert r.status_code == 400
        assert r.json()["errors"] == [{"path": "n", "code": "trick_number", "message": message}]
    assert put_trick(sheet, 0, PAIR, seat="Bruno", version=version).status_code == 404
    # The referee's checks, at the trick's place in the hand.
    version = put_trick(sheet, 1, PAIR, seat="Bruno", version=version).json()["version"]
    again = trick("Léa", [R(9), S(5), R(1), S(2)])
    r = put_trick(sheet, 2, again, seat="Bruno", version=version, lang="en")
    assert r.status_code == 400
    assert r.json()["errors"] == [
        {
            "path": "fields.tricks_played[1].plays[0].card",
            "code": "card_already_played",
            "message": "Rainbow 9 was already played in an earlier trick of this round.",
        }
    ]
    r = put_trick(sheet, 2, {"plays": FLASH_FLIP["plays"]}, seat="Bruno", version=version)
    assert r.status_code == 400
    assert stored(sheet)["fields"]["tricks_played"] == [PAIR]
    # The round was saved meanwhile: the trick meant for it is not stored in the next one.
    services.draft_put(sheet=Sheet.objects.get(pk=sheet["id"]), entries=BIDS, fields={"tricks_played": HAND})
    sheet_now = Sheet.objects.get(pk=sheet["id"])
    services.round_add(sheet=sheet_now, data={"from_draft": True}, from_draft=True)
    version = Sheet.objects.get(pk=sheet["id"]).version
    r = put_trick(sheet, 1, {**PAIR, "number": 1}, seat="Bruno", version=version)
    assert r.status_code == 409
    assert r.json()["errors"][0]["code"] == "round_saved"
    assert stored(sheet) == {}


def test_a_game_without_a_referee_has_no_hand_to_write():
    r = Client().post("/api/v1/sheets/", {"game": "numx-malus", "players": ["A", "B"]}, content_type="application/json")
    sheet = r.json()
    assert put_trick(sheet, 1, PAIR, seat="A", version=sheet["version"]).status_code == 404


# --- two phones storing at once ---------------------------------------------------------------------


def _together(writers):
    """Run each writer in its own thread and connection, all released at once; return their results."""
    barrier = threading.Barrier(len(writers))
    results = [None] * len(writers)

    def run(i, writer):
        try:
            barrier.wait()
            results[i] = writer()
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, w)) for i, w in enumerate(writers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results


@pytest.mark.django_db(transaction=True)
def test_two_phones_storing_the_same_trick_at_once_keep_one_and_the_other_is_told():
    sheet = make()
    version = bid(sheet)
    lea = trick("Léa", [R(9), S(4), R(12), S(12)])
    other = trick("Léa", [R(9), S(5), R(12), S(12)])  # Bruno's phone saw another card
    codes = _together(
        [
            lambda: put_trick(sheet, 1, lea, seat="Léa", version=version).status_code,
            lambda: put_trick(sheet, 1, other, seat="Bruno", version=version).status_code,
        ]
    )
    assert sorted(codes) == [200, 412]
    kept = stored(sheet)["fields"]["tricks_played"]
    assert kept == [lea if codes[0] == 200 else other]
    assert Sheet.objects.get(pk=sheet["id"]).version == version + 1


@pytest.mark.django_db(transaction=True)
def test_phones_tapping_at_once_never_lose_a_trick():
    """Each phone stores its trick as the page does: on 412 it reads the hand again and stores at the next place."""
    sheet = make()
    version = bid(sheet)
    tricks = {"Léa": PAIR, "Bruno": FLASH_FLIP, "Chloé": HAND[2]}

    def phone(name):
        def write():
            for _attempt in range(len(tricks)):
                draft = (
                    Client()
                    .get(f"/api/v1/sheets/{sheet['id']}/draft/", HTTP_X_SEAT_TOKEN=seat_token(sheet, name))
                    .json()
                )
                n = len(draft["fields"].get("tricks_played", [])) + 1
                r = put_trick(sheet, n, {**tricks[name], "number": 1}, seat=name, version=draft["version"])
                if r.status_code != 412:
                    return r.status_code
            return 412

        return write

    codes = _together([phone(name) for name in tricks])
    assert codes == [200, 200, 200]
    kept = stored(sheet)["fields"]["tricks_played"]
    assert sorted(kept, key=str) == sorted(tricks.values(), key=str)
    assert Sheet.objects.get(pk=sheet["id"]).version == version + 3
