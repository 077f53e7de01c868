"""Sheets through the API: create, rounds, totals, finish, rematch, expiry, permissions."""

from datetime import timedelta

import pytest
from django.db.models import F
from django.test import Client
from django.utils import timezone

from scoring.models import Player, Round, Sheet
from tests.api.sheets import create as create_sheet

pytestmark = pytest.mark.django_db


def post(client, url, body=None, **headers):
    return client.post(url, body or {}, content_type="application/json", **headers)


def create(client, game="numking", players=("Elya", "Sasha", "Mendy", "Noa"), options=None):
    return create_sheet(game, players, options or {}, client=client)


def king_round(cards, results):
    return {"cards": cards, "entries": {name: {"bid": b, "tricks": t} for name, (b, t) in results.items()}}


def token_client():
    """An API client with no cookies at all."""
    return Client(enforce_csrf_checks=True)


def test_it_creates_a_sheet_with_an_edit_token_and_a_share_url():
    api = token_client()
    sheet = create(api)
    assert len(sheet["edit_token"]) >= 32
    assert "/w/" in sheet["share_url"]
    assert sheet["rounds"] == [] and sheet["winners"] == [] and sheet["finished"] is False
    assert sheet["next_round"]["cards"] == 1
    stored = Sheet.objects.get(pk=sheet["id"])
    assert stored.edit_token_hash != sheet["edit_token"]  # stored hashed
    assert stored.expires_at is not None
    assert list(Player.objects.filter(sheet=stored).values_list("name", flat=True)) == ["Elya", "Sasha", "Mendy", "Noa"]


def test_it_plays_a_num_king_game_to_the_end_with_the_token():
    api = token_client()
    sheet = create(api)
    headers = {"HTTP_X_EDIT_TOKEN": sheet["edit_token"]}
    url = f"/api/v1/sheets/{sheet['id']}/rounds/"
    # Elya is exact every round (bid 0 then 1 ...), the others always bid 0 and take what is left.
    for k in range(1, 10):
        r = post(
            api, url, king_round(k, {"Elya": (1, 1), "Sasha": (0, 0), "Mendy": (0, k - 1), "Noa": (0, 0)}), **headers
        )
        assert r.status_code == 201, r.content
    body = r.json()
    assert body["finished"] is True
    assert len(body["rounds"]) == 9
    # Elya: 9 exact rounds at 13 each, streak of 9 → +40.
    assert body["totals"]["Elya"] == 9 * 13 + 40
    # Sasha: bid 0 made every round: 20 + 2k, streak 9 → +40.
    assert body["totals"]["Sasha"] == sum(20 + 2 * k for k in range(1, 10)) + 40
    assert body["winners"] == ["Sasha", "Noa"]  # equal totals share the win
    seats = {p.name: p.total for p in Player.objects.filter(sheet_id=sheet["id"])}
    assert seats == body["totals"]
    assert Player.objects.get(sheet_id=sheet["id"], name="Sasha").winner is True
    # A tenth round is refused, nothing stored.
    r = post(api, url, king_round(10, {"Elya": (0, 0), "Sasha": (0, 0), "Mendy": (0, 0), "Noa": (0, 0)}), **headers)
    assert r.status_code == 400
    assert Round.objects.filter(sheet_id=sheet["id"]).count() == 9


def test_it_refuses_tricks_above_the_cards_and_stores_nothing():
    api = token_client()
    sheet = create(api)
    r = post(
        api,
        f"/api/v1/sheets/{sheet['id']}/rounds/",
        king_round(1, {"Elya": (1, 1), "Sasha": (0, 1), "Mendy": (0, 0), "Noa": (0, 0)}),
        HTTP_X_EDIT_TOKEN=sheet["edit_token"],
        HTTP_ACCEPT_LANGUAGE="fr",
    )
    assert r.status_code == 400
    assert r.json()["errors"][0]["path"] in ("round", "entries")
    assert "1" in r.json()["errors"][0]["message"]
    assert Round.objects.count() == 0
    assert Sheet.objects.get(pk=sheet["id"]).version == 1


def test_it_edits_and_removes_rounds_and_totals_follow():
    api = token_client()
    sheet = create(api)
    h = {"HTTP_X_EDIT_TOKEN": sheet["edit_token"]}
    base = f"/api/v1/sheets/{sheet['id']}/rounds/"
    post(api, base, king_round(1, {"Elya": (1, 1), "Sasha": (0, 0), "Mendy": (0, 0), "Noa": (0, 0)}), **h)
    post(api, base, king_round(2, {"Elya": (2, 2), "Sasha": (0, 0), "Mendy": (0, 0), "Noa": (0, 0)}), **h)
    r = api.put(
        base + "1/",
        king_round(1, {"Elya": (1, 0), "Sasha": (0, 1), "Mendy": (0, 0), "Noa": (0, 0)}),
        content_type="application/json",
        **h,
    )
    assert r.status_code == 200, r.content
    assert r.json()["rounds"][0]["points"]["Elya"] == -3
    assert r.json()["rounds"][0]["points"]["Sasha"] == -15
    # Removing round 1 would put a 2-card round where the schedule deals 1: refused.
    r = api.delete(base + "1/", **h)
    assert r.status_code == 400
    assert Round.objects.filter(sheet_id=sheet["id"]).count() == 2
    r = api.delete(base + "2/", **h)
    assert r.status_code == 200
    body = r.json()
    assert len(body["rounds"]) == 1
    assert body["totals"]["Elya"] == -3
    assert Player.objects.get(sheet_id=sheet["id"], name="Elya").total == -3
    assert api.delete(base + "5/", **h).status_code == 404


def test_it_refuses_a_stale_if_match_with_412():
    api = token_client()
    sheet = create(api)
    h = {"HTTP_X_EDIT_TOKEN": sheet["edit_token"]}
    url = f"/api/v1/sheets/{sheet['id']}/rounds/"
    r = post(
        api,
        url,
        king_round(1, {"Elya": (1, 1), "Sasha": (0, 0), "Mendy": (0, 0), "Noa": (0, 0)}),
        HTTP_IF_MATCH='"1"',
        **h,
    )
    assert r.status_code == 201
    assert r["ETag"] == '"2"'
    r = post(
        api,
        url,
        king_round(2, {"Elya": (1, 1), "Sasha": (0, 0), "Mendy": (0, 0), "Noa": (0, 0)}),
        HTTP_IF_MATCH='"1"',
        **h,
    )
    assert r.status_code == 412
    assert Round.objects.count() == 1


def test_it_gives_404_to_strangers_and_read_only_to_the_share_link():
    owner = token_client()
    sheet = create(owner)
    stranger = token_client()
    url = f"/api/v1/sheets/{sheet['id']}/"
    assert stranger.get(url).status_code == 404
    assert stranger.get(url, HTTP_X_EDIT_TOKEN="x" * 32).status_code == 404
    share = sheet["share_url"].rstrip("/").rsplit("/", 1)[1]
    r = stranger.get(url, HTTP_X_SHARE_TOKEN=share)
    assert r.status_code == 200
    assert r.json()["can_edit"] is False
    assert "edit_token" not in r.json() and "share_url" not in r.json()
    round_ = king_round(1, {"Elya": (1, 1), "Sasha": (0, 0), "Mendy": (0, 0), "Noa": (0, 0)})
    assert post(stranger, url + "rounds/", round_, HTTP_X_SHARE_TOKEN=share).status_code == 404
    assert post(stranger, url + "rounds/", round_).status_code == 404
    assert Round.objects.count() == 0
    assert stranger.get("/api/v1/sheets/doesnotexist/").status_code == 404


def test_it_lets_the_creating_browser_write_and_checks_csrf():
    browser = Client(enforce_csrf_checks=True)
    browser.get("/")  # a session and a CSRF cookie, as a page visit gives
    browser.get("/new/numking/")
    csrf = browser.cookies["csrftoken"].value
    r = post(browser, "/api/v1/sheets/", {"game": "coop", "players": ["A", "B"]}, HTTP_X_CSRFTOKEN=csrf)
    assert r.status_code == 201, r.content
    sheet_id = r.json()["id"]
    assert Sheet.objects.get(pk=sheet_id).owner_key
    r = post(browser, f"/api/v1/sheets/{sheet_id}/rounds/", {"placed": 93})
    assert r.status_code == 403
    assert r.json()["errors"][0]["code"] == "csrf"
    r = post(browser, f"/api/v1/sheets/{sheet_id}/rounds/", {"placed": 93}, HTTP_X_CSRFTOKEN=csrf)
    assert r.status_code == 201
    assert r.json()["summary"]["wins"] == 1
    listed = browser.get("/api/v1/sheets/").json()
    assert [s["id"] for s in listed] == [sheet_id]
    assert token_client().get("/api/v1/sheets/").json() == []


def test_it_treats_an_expired_anonymous_sheet_as_gone_before_the_purge():
    api = token_client()
    sheet = create(api)
    Sheet.objects.filter(pk=sheet["id"]).update(expires_at=timezone.now() - timedelta(seconds=1))
    assert api.get(f"/api/v1/sheets/{sheet['id']}/", HTTP_X_EDIT_TOKEN=sheet["edit_token"]).status_code == 404


def test_it_starts_a_rematch_with_the_same_players_and_options():
    api = token_client()
    sheet = create(api, game="numx", players=["A", "B", "C"], options={"mode": "xgame"})
    r = post(api, f"/api/v1/sheets/{sheet['id']}/rematch/", HTTP_X_EDIT_TOKEN=sheet["edit_token"])
    assert r.status_code == 201
    again = r.json()
    assert again["id"] != sheet["id"]
    assert again["players"] == ["A", "B", "C"]
    assert again["options"]["mode"] == "xgame"


def test_it_refuses_bad_sheets_with_paths():
    api = token_client()
    r = post(api, "/api/v1/sheets/", {"game": "numking", "players": ["Solo"]})
    assert r.status_code == 400 and r.json()["errors"][0]["path"].startswith("players")
    r = post(api, "/api/v1/sheets/", {"game": "chess", "players": ["A", "B"]})
    assert r.status_code == 400 and r.json()["errors"][0]["path"] == "game"
    r = post(
        api,
        "/api/v1/sheets/",
        {"game": "numx", "players": ["A", "B"], "options": {"mode": "turbo"}},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert r.status_code == 400 and r.json()["errors"][0]["path"] == "options.mode"
    assert "turbo" in r.json()["errors"][0]["message"]
    r = post(api, "/api/v1/sheets/", {"game": "numx", "players": ["A", "B"], "colour": "x"})
    assert r.status_code == 400 and r.json()["errors"][0]["path"] == "colour"
    assert Sheet.objects.count() == 0


@pytest.mark.parametrize(("players", "rounds"), [(2, 1), (8, 18)])
def test_it_reads_a_sheet_in_a_fixed_number_of_queries(django_assert_max_num_queries, players, rounds):
    api = token_client()
    names = [f"P{i}" for i in range(players)]
    sheet = create(api, game="numx-malus", players=names, options={"end": "fixed"} if rounds <= 5 else {})
    stored = Sheet.objects.get(pk=sheet["id"])
    # Build rounds directly: typed points small enough never to end the game early.
    data = {"entries": {n: {"points": 0} for n in names}}
    Round.objects.bulk_create(Round(sheet=stored, number=k, data=data) for k in range(1, rounds + 1))
    Sheet.objects.filter(pk=stored.pk).update(version=F("version") + 1)  # as every write does
    with django_assert_max_num_queries(3):
        r = api.get(f"/api/v1/sheets/{sheet['id']}/", HTTP_X_EDIT_TOKEN=sheet["edit_token"])
    assert r.status_code == 200
    assert len(r.json()["rounds"]) == rounds


@pytest.mark.django_db(transaction=True)  # the answer is read after the commit, as in production
@pytest.mark.parametrize(("players", "rounds"), [(2, 0), (8, 17)])
def test_it_adds_a_round_in_a_fixed_number_of_queries(django_assert_max_num_queries, players, rounds):
    """At most: read, lock, rounds, insert, sheet, seats, the changed seats' UPDATE (one statement), commit; the answer's rounds."""
    api = token_client()
    names = [f"P{i}" for i in range(players)]
    sheet = create(api, game="numx-malus", players=names)
    data = {"entries": {n: {"points": 0} for n in names}}
    stored = Sheet.objects.get(pk=sheet["id"])
    Round.objects.bulk_create(Round(sheet=stored, number=k, data=data) for k in range(1, rounds + 1))
    Sheet.objects.filter(pk=stored.pk).update(version=F("version") + 1, round_count=rounds)
    body = {"entries": {n: {"points": i} for i, n in enumerate(names)}}
    with django_assert_max_num_queries(10):  # as many for 2 players as for 8, and for 18 rounds as for 1
        r = post(api, f"/api/v1/sheets/{sheet['id']}/rounds/", body, HTTP_X_EDIT_TOKEN=sheet["edit_token"])
    assert r.status_code == 201, r.content
    assert len(r.json()["rounds"]) == rounds + 1
    assert {p.name: p.total for p in Player.objects.filter(sheet_id=sheet["id"])} == {n: i for i, n in enumerate(names)}
