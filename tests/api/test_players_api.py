"""« Mes joueurs » written through the API: merge, split, rename, a link to another account,
« Qui êtes-vous ? » and « Ma table », each checked on the rows stored and the numbers answered.

The history is tests/web/test_players.py's: two Num-X Malus games (Speed-Game, the lowest total wins).

    game A: Zoé 5 (wins), lea 6, Max 8, Tom 10
    game B: Zoé 8, Léa 1 (wins), Maxime 4, Tom 6
"""

from datetime import UTC, datetime, timedelta

import pytest
from django.test import Client

from accounts.models import SeatAnswer, TableName, TablePlayer
from scoring import services
from scoring.models import Player
from tests.accounts import logged_in
from tests.web.test_players import GAME_A, GAME_B, ids, play, stored_ratings

pytestmark = pytest.mark.django_db
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


def post(client, url, body=None, **headers):
    return client.post(url, body, content_type="application/json", **headers)


def listing(client) -> dict:
    return {p["name"]: p for p in client.get("/api/v1/players/").json()}


def the_error(response) -> tuple:
    [error] = response.json()["errors"]
    return response.status_code, error["path"], error["code"], error["message"]


@pytest.fixture
def zoe():
    user, client = logged_in("zoe@example.org")
    play(user, GAME_A, days_ago=40)
    play(user, GAME_B, days_ago=0)
    return user, client


def test_merge_two_players_answers_the_merged_one_and_moves_the_ratings(zoe):
    user, client = zoe
    found = ids(user)
    r = post(client, f"/api/v1/players/{found['Max']}/merge/", {"other": found["Maxime"]})
    assert r.status_code == 200
    merged = r.json()
    assert (merged["id"], merged["name"], merged["names"], merged["games"], merged["wins"]) == (
        found["Max"],
        "Max",
        ["Max", "Maxime"],
        2,
        0,
    )
    assert merged["per_game"][0]["rating"]["games"] == 2
    assert not TablePlayer.objects.filter(pk=found["Maxime"]).exists()
    assert TableName.objects.get(owner=user, name="Maxime").player_id == found["Max"]
    assert set(stored_ratings(user)) == {"Zoé", "lea", "Max", "Tom"}
    assert {n: p["games"] for n, p in listing(client).items()} == {"Zoé": 2, "lea": 2, "Max": 2, "Tom": 2}


def test_a_merge_refused_says_why_in_french_and_english_and_stores_nothing(zoe):
    user, client = zoe
    found = ids(user)
    before = sorted(TableName.objects.filter(owner=user).values_list("name", "player_id"))
    url = f"/api/v1/players/{found['Zoé']}/merge/"
    status, path, code, message = the_error(post(client, url, {"other": found["Tom"]}))
    assert (status, path, code) == (400, "other", "played_together") and "même partie" in message
    status, path, code, message = the_error(post(client, url, {"other": found["Tom"]}, **EN))
    assert (status, code) == (400, "played_together") and "same game" in message
    assert the_error(post(client, url, {"other": found["Zoé"]}))[:3] == (400, "other", "same_player")
    for bad in ({}, {"other": "3"}, {"other": 0}, {"other": True}, {"other": None}, {"other": 1.5}):
        status, path, code, message = the_error(post(client, url, bad))
        assert (status, path) == (400, "other") and message.startswith("other :"), bad
        assert the_error(post(client, url, bad, **EN))[3].startswith("other: the player to merge"), bad
    status, path, code, message = the_error(post(client, url, {"other": found["Tom"], "into": 1}, **EN))
    assert (status, path, code, message) == (400, "into", "unknown_field", "Unknown field: into.")
    assert post(client, url, [1, 2]).status_code == 400
    assert client.post(url, "{", content_type="application/json").status_code == 400
    # Another account's player, as the path or as `other`: not found, nothing changed.
    stranger, _client = logged_in("other@example.org")
    play(stranger, {"Ana": (1, 1), "Bo": (2, 2)})
    status, path, code, _m = the_error(post(client, url, {"other": ids(stranger)["Ana"]}))
    assert (status, path, code) == (404, "other", "not_found")
    assert the_error(post(client, f"/api/v1/players/{ids(stranger)['Ana']}/merge/", {"other": found["Tom"]}))[:2] == (
        404,
        "player",
    )
    assert sorted(TableName.objects.filter(owner=user).values_list("name", "player_id")) == before


def test_split_a_name_off_gives_a_new_player_and_rename_shows_it_by_another_name(zoe):
    user, client = zoe
    lea = ids(user)["Léa"]
    r = post(client, f"/api/v1/players/{lea}/split/", {"name": "lea"})
    assert r.status_code == 201
    new = r.json()
    assert r["Location"] == new["url"] == f"http://testserver/api/v1/players/{new['id']}/"
    assert (new["name"], new["names"], new["games"], new["wins"]) == ("lea", ["lea"], 1, 0)
    assert ids(user)["lea"] == new["id"] != ids(user)["Léa"] == lea
    # The player kept « lea » as its shown name: renamed, it answers as the list shows it.
    r = client.patch(f"/api/v1/players/{lea}/", {"name": "  Léa "}, content_type="application/json")
    assert r.status_code == 200
    assert (r.json()["name"], r.json()["names"], r.json()["games"], r.json()["wins"]) == ("Léa", ["Léa"], 1, 1)
    assert TablePlayer.objects.get(pk=lea).name == "Léa"
    assert {n: (p["games"], p["wins"]) for n, p in listing(client).items()}["lea"] == (1, 0)


def test_split_and_rename_refused_name_the_field(zoe):
    user, client = zoe
    lea, tom = ids(user)["Léa"], ids(user)["Tom"]
    count = TablePlayer.objects.filter(owner=user).count()
    status, path, code, message = the_error(post(client, f"/api/v1/players/{tom}/split/", {"name": "Tom"}))
    assert (status, path, code) == (400, "name", "only_name") and "seul nom" in message
    status, path, code, message = the_error(post(client, f"/api/v1/players/{lea}/split/", {"name": "LEA"}, **EN))
    assert (status, path, code, message) == (400, "name", "unknown_name", "“LEA” is not one of this player's names.")
    assert the_error(post(client, f"/api/v1/players/{lea}/split/", {"name": 7}))[:2] == (400, "name")
    assert TablePlayer.objects.filter(owner=user).count() == count
    url = f"/api/v1/players/{lea}/"
    status, path, code, message = the_error(client.patch(url, {"name": "x" * 41}, content_type="application/json"))
    assert (status, path, code) == (400, "name", "long") and "40 caractères" in message
    r = client.patch(url, {"name": "   "}, content_type="application/json", **EN)
    assert the_error(r)[:2] == (400, "name") and the_error(r)[3] == "Type a name."
    status, path, code, message = the_error(client.patch(url, {}, content_type="application/json"))
    assert (status, path, message) == (400, "name", "name : envoyez le nom sous forme de texte.")
    assert TablePlayer.objects.get(pk=lea).name == "lea"
    # Another account's player: not found, never renamed or split.
    _other, stranger = logged_in("other@example.org")
    assert stranger.patch(url, {"name": "Mine"}, content_type="application/json").status_code == 404
    assert post(stranger, f"/api/v1/players/{lea}/split/", {"name": "lea"}).status_code == 404
    assert TablePlayer.objects.get(pk=lea).name == "lea"


def test_writes_need_a_login():
    anonymous = Client()
    for url in ("/api/v1/players/1/merge/", "/api/v1/players/1/split/", "/api/v1/players/1/link/"):
        assert post(anonymous, url, {"other": 2}).status_code in (401, 403)
    assert anonymous.patch("/api/v1/players/1/", {"name": "A"}, content_type="application/json").status_code in (
        401,
        403,
    )
    assert anonymous.put("/api/v1/players/seats/abc/", {"seat": 0}, content_type="application/json").status_code in (
        401,
        403,
    )
    assert anonymous.get("/api/v1/players/board/numx-malus/").status_code in (401, 403)
    assert anonymous.delete("/api/v1/players/1/link/").status_code in (401, 403)


def test_a_link_made_in_the_api_is_accepted_in_the_api_and_ended(zoe):
    owner, client = zoe
    lea = ids(owner)["Léa"]
    r = post(client, f"/api/v1/players/{lea}/link/")
    assert r.status_code == 201
    link = r.json()
    assert link["url"].startswith(f"http://testserver/players/link/{lea}/")
    api_path = link["api_url"].removeprefix("http://testserver")
    assert api_path == link["url"].removeprefix("http://testserver").replace("/players/", "/api/v1/players/", 1)
    # A moment in UTC, as every date the API gives, 30 days from now.
    assert link["expires_at"].endswith("Z")
    left = datetime.fromisoformat(link["expires_at"]) - datetime.now(UTC)
    assert timedelta(days=29, hours=23) < left <= timedelta(days=30)
    # Anyone with the link sees whose table and which player, nothing else.
    assert Client().get(api_path).json() == {"player": lea, "name": "lea", "table": ""}
    assert post(Client(), api_path).status_code in (401, 403)
    # The table's own account is refused, in its language.
    status, path, code, message = the_error(post(client, api_path, **EN))
    assert (status, path, code) == (400, "player", "own_table") and "your own table" in message
    lea_user, lea_client = logged_in("lea@example.org")
    r = post(lea_client, api_path)
    assert r.status_code == 200 and r.json() == {"player": lea, "name": "lea", "table": "", "counted": 2}
    assert Player.objects.filter(user=lea_user).count() == 2
    assert TablePlayer.objects.get(pk=lea).linked_user == lea_user
    assert listing(client)["lea"]["linked"] is True
    # Used once: the link is gone.
    assert Client().get(api_path).status_code == 404
    assert post(lea_client, api_path).status_code == 404
    # Ended by the owner: the seats leave her stats; a stranger cannot end it.
    _x, stranger = logged_in("stranger@example.org")
    assert stranger.delete(f"/api/v1/players/{lea}/link/").status_code == 404
    assert post(stranger, f"/api/v1/players/{lea}/link/").status_code == 404
    assert client.delete(f"/api/v1/players/{lea}/link/").status_code == 204
    assert not Player.objects.filter(user=lea_user).exists()
    assert TablePlayer.objects.get(pk=lea).linked_user is None


def test_a_link_not_yet_accepted_ends_with_delete(zoe):
    owner, client = zoe
    tom = ids(owner)["Tom"]
    api_path = post(client, f"/api/v1/players/{tom}/link/").json()["api_url"].removeprefix("http://testserver")
    assert Client().get(api_path).status_code == 200
    assert client.delete(f"/api/v1/players/{tom}/link/").status_code == 204
    assert Client().get(api_path).status_code == 404
    assert Client().get(api_path[:-5] + "0000/").status_code == 404


def test_who_are_you_answered_in_the_api():
    user, client = logged_in("zoe@example.org")  # no display name: the finished game asks
    sheet = play(user, GAME_A)
    url = f"/api/v1/players/seats/{sheet.pk}/"
    assert client.get(url).json() == {
        "sheet": sheet.pk,
        "players": list(GAME_A),
        "seat": None,
        "none": False,
        "asked": True,
    }
    r = client.put(url, {"seat": 1}, content_type="application/json")
    assert r.status_code == 200 and (r.json()["seat"], r.json()["asked"]) == (1, False)
    assert Player.objects.get(sheet=sheet, seat=1).user == user
    # « aucun »: no seat theirs, never asked again.
    r = client.put(url, {"seat": None}, content_type="application/json")
    assert r.status_code == 200 and (r.json()["seat"], r.json()["none"], r.json()["asked"]) == (None, True, False)
    assert not Player.objects.filter(sheet=sheet, user=user).exists()
    assert SeatAnswer.objects.filter(user=user, sheet_id=sheet.pk).exists()
    assert "Qui êtes-vous ?" not in client.get(f"/sheets/{sheet.pk}/").content.decode()


def test_who_are_you_refused_names_the_seat_and_stores_nothing():
    user, client = logged_in("zoe@example.org")
    sheet = play(user, GAME_A)
    url = f"/api/v1/players/seats/{sheet.pk}/"
    status, path, code, message = the_error(client.put(url, {"seat": 4}, content_type="application/json"))
    assert (status, path, code) == (400, "seat", "out_of_range") and "4 noms" in message
    r = client.put(url, {"seat": 4}, content_type="application/json", **EN)
    assert the_error(r)[3] == "seat: this sheet has 4 names, seats 0 to 3."
    for bad in ({}, {"seat": "1"}, {"seat": -1}, {"seat": False}):
        status, path, _code, message = the_error(client.put(url, bad, content_type="application/json"))
        assert (status, path) == (400, "seat") and message.startswith("seat :"), bad
    assert not Player.objects.filter(sheet=sheet, user=user).exists()
    assert not SeatAnswer.objects.exists()
    # Another account's sheet, or one that does not exist: not found.
    _other, stranger = logged_in("other@example.org")
    assert stranger.get(url).status_code == 404
    assert stranger.put(url, {"seat": 0}, content_type="application/json").status_code == 404
    assert client.get("/api/v1/players/seats/nosuchsheet/").status_code == 404
    assert not Player.objects.filter(sheet=sheet).exclude(user=None).exists()


def test_my_table_board_all_time_and_this_month(zoe):
    user, client = zoe
    r = client.get("/api/v1/players/board/numx-malus/")
    assert r.status_code == 200
    board = r.json()
    assert (board["game"], board["period"]) == ("numx-malus", "all")
    rows = [(x["rank"], x["name"], x["wins"], x["games"], x["best"], x["win_rate"]) for x in board["rows"]]
    assert rows == [
        (1, "lea", 1, 2, 1, 50.0),
        (2, "Zoé", 1, 2, 5, 50.0),
        (3, "Tom", 0, 2, 6, 0),
        (4, "Max", 0, 1, 8, 0),
        (5, "Maxime", 0, 1, 4, 0),
    ]
    lea = board["rows"][0]
    assert lea["id"] == ids(user)["lea"] and lea["url"] == f"http://testserver/api/v1/players/{lea['id']}/"
    assert lea["rating"]["games"] == 2 and lea["rating"]["mu"] == pytest.approx(stored_ratings(user)["lea"][0], 0.01)
    month = client.get("/api/v1/players/board/numx-malus/?period=month").json()
    assert [(x["name"], x["wins"], x["games"]) for x in month["rows"]] == [
        ("lea", 1, 1),
        ("Maxime", 0, 1),
        ("Tom", 0, 1),
        ("Zoé", 0, 1),
    ]
    assert client.get("/api/v1/players/board/numking/").json()["rows"] == []
    status, path, code, message = the_error(client.get("/api/v1/players/board/numx-malus/?period=week"))
    assert (status, path, code) == (400, "period", "invalid_period") and message.startswith("period :")
    assert client.get("/api/v1/players/board/nosuchgame/").status_code == 404
    # Another account sees its own table only.
    _other, stranger = logged_in("other@example.org")
    assert stranger.get("/api/v1/players/board/numx-malus/").json()["rows"] == []


def test_a_game_finished_through_the_api_fills_my_table_at_once():
    user, client = logged_in("zoe@example.org", display_name="Zoé")
    sheet = services.sheet_create(
        game="numx-malus", players=["Zoé", "Léa"], options={"mode": "speedgame"}, user=user
    ).sheet
    for points in ((1, 5), (2, 5)):
        services.round_add(sheet=sheet, data={"entries": {"Zoé": {"points": points[0]}, "Léa": {"points": points[1]}}})
    rows = client.get("/api/v1/players/board/numx-malus/?period=month").json()["rows"]
    assert [(x["name"], x["wins"], x["games"]) for x in rows] == [("Zoé", 1, 1), ("Léa", 0, 1)]
    seat = client.get(f"/api/v1/players/seats/{sheet.pk}/").json()
    assert (seat["seat"], seat["asked"]) == (0, False)  # the seat named like the account, without a chore
