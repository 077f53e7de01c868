"""The round in progress: shapes, partial validation, who may write what, concurrency."""

import threading

import pytest
from django.db import connection
from django.test import Client

from scoring import services
from scoring.models import Round, Sheet
from tests.api.sheets import create

pytestmark = pytest.mark.django_db
needs_postgres = pytest.mark.skipif(connection.vendor != "postgresql", reason="concurrent writers need PostgreSQL")
KING = ["Léa", "Marc", "Nina"]


def make(game="numking", players=KING, options=None):
    return create(game, players, options or {})


def url(sheet, tail=""):
    return f"/api/v1/sheets/{sheet['id']}/draft/{tail}"


def seat_token(sheet, name):
    return sheet["seat_urls"][name].rstrip("/").rsplit("/", 1)[1]


def put_entry(sheet, name, entry, *, token=None, edit=False, lang="fr"):
    headers = {"HTTP_ACCEPT_LANGUAGE": lang}
    if token:
        headers["HTTP_X_SEAT_TOKEN"] = token
    if edit:
        headers["HTTP_X_EDIT_TOKEN"] = sheet["edit_token"]
    return Client().put(url(sheet, f"entries/{name}/"), entry, content_type="application/json", **headers)


def read(sheet):
    r = Client().get(url(sheet), HTTP_X_EDIT_TOKEN=sheet["edit_token"])
    assert r.status_code == 200
    return r.json()


def test_it_starts_with_an_empty_round_in_progress_in_the_sheet_json():
    sheet = make()
    assert sheet["draft"] == {"number": 1, "entries": {}, "fields": {}, "entered": [], "version": 1}
    assert set(sheet["seat_urls"]) == set(KING)
    assert read(sheet) == sheet["draft"]


def test_it_saves_bids_as_they_are_announced_and_shows_them_to_watchers():
    sheet = make()
    for name, bid in (("Léa", 1), ("Marc", 0)):
        r = put_entry(sheet, name, {"bid": bid}, token=seat_token(sheet, name))
        assert r.status_code == 200, r.content
    body = r.json()
    assert body["entries"] == {"Léa": {"bid": 1}, "Marc": {"bid": 0}}
    assert body["entered"] == []  # bids alone are not a whole Num King entry
    assert body["number"] == 1 and body["version"] == 3
    share = sheet["share_url"].rstrip("/").rsplit("/", 1)[1]
    watched = Client().get(url(sheet), HTTP_X_SHARE_TOKEN=share)
    assert watched.status_code == 200 and watched.json()["entries"]["Léa"] == {"bid": 1}
    whole = Client().get(f"/api/v1/sheets/{sheet['id']}/", HTTP_X_SHARE_TOKEN=share).json()
    assert whole["draft"]["entries"]["Marc"] == {"bid": 0} and "seat_urls" not in whole


def test_it_refuses_a_bid_above_the_cards_dealt_naming_the_field():
    sheet = make()
    r = put_entry(sheet, "Léa", {"bid": 5}, token=seat_token(sheet, "Léa"))
    assert r.status_code == 400
    assert r.json()["errors"][0]["path"] == "entries.Léa.bid"
    assert "5" in r.json()["errors"][0]["message"]
    assert read(sheet)["entries"] == {}  # nothing stored


def test_it_refuses_an_unknown_player_and_unknown_fields():
    sheet = make()
    assert put_entry(sheet, "Zoé", {"bid": 0}, edit=True).status_code == 404
    r = Client().put(
        url(sheet),
        {"entries": {"Zoé": {"bid": 0}}, "fields": {}},
        content_type="application/json",
        HTTP_X_EDIT_TOKEN=sheet["edit_token"],
    )
    assert r.status_code == 400 and r.json()["errors"][0]["path"] == "entries.Zoé"
    r = Client().put(
        url(sheet), {"entries": {}, "fields": {"colour": 1}}, content_type="application/json", **edit_headers(sheet)
    )
    assert r.status_code == 400 and r.json()["errors"][0]["path"] == "fields.colour"


def edit_headers(sheet):
    return {"HTTP_X_EDIT_TOKEN": sheet["edit_token"]}


def test_it_refuses_a_card_already_in_another_hand_naming_the_first_holder():
    players = ["Léa", "Marc"]
    sheet = make("numx", players, {"mode": "speedrun"})
    seven = {"kind": "red", "value": 7}
    assert put_entry(sheet, "Marc", {"cards": [seven]}, token=seat_token(sheet, "Marc")).status_code == 200
    r = put_entry(sheet, "Léa", {"cards": [seven, {"kind": "blue", "value": 2}]}, token=seat_token(sheet, "Léa"))
    assert r.status_code == 400
    error = r.json()["errors"][0]
    assert error["path"] == "entries.Léa.cards[0]" and "Marc" in error["message"]
    assert read(sheet)["entries"] == {"Marc": {"cards": [seven]}}
    assert read(sheet)["entered"] == ["Marc"]


def test_it_lets_each_actor_do_only_what_is_theirs():
    sheet = make()
    share = sheet["share_url"].rstrip("/").rsplit("/", 1)[1]
    lea, marc = seat_token(sheet, "Léa"), seat_token(sheet, "Marc")
    # The player with their own token: their entry only.
    assert put_entry(sheet, "Léa", {"bid": 1}, token=lea).status_code == 200
    # Another player's token, a share token, a stranger: 404 and nothing changes.
    assert put_entry(sheet, "Marc", {"bid": 1}, token=lea).status_code == 404
    r = Client().put(url(sheet, "entries/Marc/"), {"bid": 1}, content_type="application/json", HTTP_X_SHARE_TOKEN=share)
    assert r.status_code == 404
    assert Client().put(url(sheet, "entries/Marc/"), {"bid": 1}, content_type="application/json").status_code == 404
    # A seat token never writes the whole round, saved rounds, players or options.
    seat = {"HTTP_X_SEAT_TOKEN": marc}
    assert Client().put(url(sheet), {"entries": {}}, content_type="application/json", **seat).status_code == 404
    assert Client().delete(url(sheet), **seat).status_code == 404
    rounds = f"/api/v1/sheets/{sheet['id']}/rounds/"
    assert Client().post(rounds, {"from_draft": True}, content_type="application/json", **seat).status_code == 404
    assert Client().put(rounds + "1/", {}, content_type="application/json", **seat).status_code == 404
    assert Client().post(f"/api/v1/sheets/{sheet['id']}/rematch/", **seat).status_code == 404
    # A seat token reads the sheet and the round in progress.
    assert Client().get(f"/api/v1/sheets/{sheet['id']}/", **seat).status_code == 200
    assert Client().get(url(sheet), HTTP_X_SEAT_TOKEN="0" * 32).status_code == 404
    assert read(sheet)["entries"] == {"Léa": {"bid": 1}}
    # The editor may write anyone's entry, the whole round, and empty it.
    assert put_entry(sheet, "Marc", {"bid": 0}, edit=True).status_code == 200
    assert Client().delete(url(sheet), **edit_headers(sheet)).status_code == 204
    assert read(sheet)["entries"] == {}


def test_it_lets_a_logged_in_owner_write_the_round_in_progress(django_user_model):
    user = django_user_model.objects.create_user("owner", "owner@example.org", "pw")
    created = services.sheet_create(game="numking", players=KING, options={}, user=user)
    api = Client(enforce_csrf_checks=True)
    api.force_login(user)
    assert api.get(f"/sheets/{created.sheet.pk}/").status_code == 200
    entry = f"/api/v1/sheets/{created.sheet.pk}/draft/entries/Nina/"
    # A logged-in browser sends its CSRF token like every cookie-carrying write.
    assert api.put(entry, {"bid": 1}, content_type="application/json").status_code == 403
    token = api.cookies["csrftoken"].value
    r = api.put(entry, {"bid": 1}, content_type="application/json", HTTP_X_CSRFTOKEN=token)
    assert r.status_code == 200 and r.json()["entries"] == {"Nina": {"bid": 1}}
    stranger = Client()
    stranger.force_login(django_user_model.objects.create_user("stranger", "s@example.org", "pw"))
    assert stranger.put(entry, {"bid": 0}, content_type="application/json").status_code == 404
    assert stranger.get(f"/api/v1/sheets/{created.sheet.pk}/draft/").status_code == 404


def test_it_saves_the_round_in_progress_and_empties_it():
    sheet = make()
    for name, entry in (("Léa", {"bid": 1, "tricks": 1}), ("Marc", {"bid": 0, "tricks": 0})):
        assert put_entry(sheet, name, entry, token=seat_token(sheet, name)).status_code == 200
    rounds = f"/api/v1/sheets/{sheet['id']}/rounds/"
    r = Client().post(rounds, {"from_draft": True}, content_type="application/json", **edit_headers(sheet))
    assert r.status_code == 400
    assert r.json()["errors"][0]["path"] == "entries.Nina" and "Nina" in r.json()["errors"][0]["message"]
    assert put_entry(sheet, "Nina", {"bid": 0, "tricks": 0}, token=seat_token(sheet, "Nina")).status_code == 200
    assert read(sheet)["entered"] == KING
    r = Client().post(rounds, {"from_draft": True}, content_type="application/json", **edit_headers(sheet))
    assert r.status_code == 201, r.content
    body = r.json()
    assert body["rounds"][0]["entry"]["entries"]["Léa"] == {"bid": 1, "tricks": 1}
    assert body["totals"] == services.score("numking", KING, {}, [body["rounds"][0]["entry"]], "fr")["totals"]
    assert body["draft"] == {"number": 2, "entries": {}, "fields": {}, "entered": [], "version": body["version"]}


def test_it_empties_the_round_in_progress_when_a_round_is_saved_directly():
    sheet = make("coop", ["A", "B"])
    r = Client().put(
        url(sheet), {"entries": {}, "fields": {"placed": 40}}, content_type="application/json", **edit_headers(sheet)
    )
    assert r.status_code == 200 and r.json()["fields"] == {"placed": 40}
    rounds = f"/api/v1/sheets/{sheet['id']}/rounds/"
    assert (
        Client().post(rounds, {"placed": 41}, content_type="application/json", **edit_headers(sheet)).status_code == 201
    )
    assert read(sheet)["fields"] == {}
    assert Round.objects.get(sheet_id=sheet["id"]).data == {"placed": 41}


def test_it_tells_a_late_player_their_round_was_saved():
    sheet = make("coop", ["A", "B"], {"mode": "adversaire"})
    token = seat_token(sheet, "B")
    assert put_entry(sheet, "A", {"placed": 17, "number": 1}, token=seat_token(sheet, "A")).status_code == 200
    rounds = f"/api/v1/sheets/{sheet['id']}/rounds/"
    saved = Client().post(
        rounds,
        {"entries": {"A": {"placed": 17}, "B": {"placed": 5}}},
        content_type="application/json",
        **edit_headers(sheet),
    )
    assert saved.status_code == 201
    late = put_entry(sheet, "B", {"placed": 6, "number": 1}, token=token, lang="en")
    assert late.status_code == 409
    assert late.json()["errors"][0]["code"] == "round_saved"
    assert "Game 1 was saved" in late.json()["errors"][0]["message"]  # a session's rows are games
    assert read(sheet)["entries"] == {}
    # The player chooses to keep it for the next round.
    assert put_entry(sheet, "B", {"placed": 6, "number": 2}, token=token).status_code == 200
    assert read(sheet)["entries"] == {"B": {"placed": 6}}


def test_it_bumps_the_version_watchers_poll_on_every_write():
    sheet = make()
    share = sheet["share_url"].rstrip("/").rsplit("/", 1)[1]
    first = Client().get(f"/api/v1/sheets/{sheet['id']}/", HTTP_X_SHARE_TOKEN=share)
    etag = first["ETag"]
    same = Client().get(f"/api/v1/sheets/{sheet['id']}/", HTTP_X_SHARE_TOKEN=share, HTTP_IF_NONE_MATCH=etag)
    assert same.status_code == 304
    assert put_entry(sheet, "Nina", {"bid": 1}, token=seat_token(sheet, "Nina")).status_code == 200
    after = Client().get(f"/api/v1/sheets/{sheet['id']}/", HTTP_X_SHARE_TOKEN=share, HTTP_IF_NONE_MATCH=etag)
    assert after.status_code == 200 and after.json()["draft"]["entries"]["Nina"] == {"bid": 1}


def test_it_keeps_the_last_of_two_writes_of_the_same_entry():
    sheet = make()
    token = seat_token(sheet, "Léa")
    assert put_entry(sheet, "Léa", {"bid": 0}, token=token).status_code == 200
    assert put_entry(sheet, "Léa", {"bid": 1}, token=token).status_code == 200
    assert read(sheet)["entries"] == {"Léa": {"bid": 1}}


@needs_postgres
@pytest.mark.django_db(transaction=True)
def test_it_keeps_every_player_entry_written_at_the_same_moment():
    names = [f"P{i}" for i in range(6)]
    sheet = make("numking", names)
    barrier = threading.Barrier(len(names))
    statuses = {}

    def write(i, name):
        try:
            barrier.wait()
            entry = {"bid": i % 2, "tricks": int(i == 0)}
            statuses[name] = put_entry(sheet, name, entry, token=seat_token(sheet, name)).status_code
        finally:
            connection.close()

    threads = [threading.Thread(target=write, args=(i, n)) for i, n in enumerate(names)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert statuses == {n: 200 for n in names}
    draft = read(sheet)
    assert draft["entries"] == {n: {"bid": i % 2, "tricks": int(i == 0)} for i, n in enumerate(names)}
    assert draft["entered"] == names
    assert draft["version"] == 1 + len(names)
    assert Sheet.objects.get(pk=sheet["id"]).version == 1 + len(names)


def test_it_lets_a_bid_change_until_that_players_tricks_are_in():
    sheet = make()
    token = seat_token(sheet, "Léa")
    assert put_entry(sheet, "Léa", {"bid": 0}, token=token).status_code == 200
    assert put_entry(sheet, "Léa", {"bid": 1}, token=token).status_code == 200
    assert put_entry(sheet, "Léa", {"bid": 1, "tricks": 1}, token=token).status_code == 200
    r = put_entry(sheet, "Léa", {"bid": 0, "tricks": 1}, token=token)
    assert r.status_code == 400 and r.json()["errors"][0]["path"] == "entries.Léa.bid"
    assert "plis" in r.json()["errors"][0]["message"]
    assert put_entry(sheet, "Léa", {"bid": 1, "tricks": 0}, token=token).status_code == 200  # tricks may change
    assert read(sheet)["entries"] == {"Léa": {"bid": 1, "tricks": 0}}


def test_it_empties_the_round_in_progress_of_a_finished_game():
    # An empty round in progress is never wrong: it was a 400 "too many rounds" once the game was over.
    sheet = make("numx", ["A", "B"], {"mode": "speedrun"})  # one round
    rounds = f"/api/v1/sheets/{sheet['id']}/rounds/"
    played = {"entries": {"A": {"points": 5}, "B": {"points": 0}}}
    done = Client().post(rounds, played, content_type="application/json", **edit_headers(sheet))
    assert done.status_code == 201 and done.json()["finished"] is True, done.content
    r = Client().delete(url(sheet), **edit_headers(sheet))
    assert r.status_code == 204, r.content
    assert read(sheet)["entries"] == {}
