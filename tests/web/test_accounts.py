"""History, export, deletion, seats, stats and leaderboards for logged-in players."""

import csv
import io
import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from accounts.models import Standing
from scoring import services
from scoring.games import GAMES
from scoring.models import Player, Sheet
from tests.accounts import logged_in

pytestmark = pytest.mark.django_db
# A row of « Ma table »: the player (a link to their page), wins, games.
TABLE_ROW = r'<th scope="row"><a href="/me/players/\d+/">([^<]+)</a></th><td>(\d+)</td><td>(\d+)</td>'


def account(email, display_name="", public=False):
    user, client = logged_in(email)
    if display_name or public:
        client.post("/me/profile/", {"display_name": display_name, "public": "on" if public else ""})
    return user, client


def king_game(owner, players, exact_for):
    """Play a whole 2-player Num King game (18 cards per player max → 18 rounds); `exact_for` bids right."""
    sheet = services.sheet_create(game="numking", players=players, options={}, user=owner).sheet
    n_rounds = 36 // len(players)
    for _ in range(n_rounds):
        entries = {}
        for name in players:
            entries[name] = {"bid": 0, "tricks": 0} if name == exact_for else {"bid": 1, "tricks": 0}
        services.round_add(sheet=sheet, data={"entries": entries})
    sheet.refresh_from_db()
    assert sheet.finished
    return sheet


def mark_me(client, sheet, seat):
    r = client.post(f"/me/sheets/{sheet.pk}/seat/", {"seat": str(seat)})
    assert r.status_code == 302


def test_it_filters_history_by_game_and_state():
    user, client = account("elya@example.org")
    finished = king_game(user, ["Elya", "Sasha"], "Elya")
    ongoing = services.sheet_create(game="numx", players=["Elya", "Sasha"], options={"mode": "xgame"}, user=user).sheet
    page = client.get("/me/").content.decode()
    assert finished.pk in page and ongoing.pk in page
    page = client.get("/me/?game=numking").content.decode()
    assert finished.pk in page and ongoing.pk not in page
    page = client.get("/me/?state=ongoing").content.decode()
    assert finished.pk not in page and ongoing.pk in page


def test_it_exports_every_game_as_csv_and_json():
    user, client = account("elya@example.org")
    sheet = king_game(user, ["=Elya", "Sasha"], "=Elya")
    rows = list(csv.reader(io.StringIO(client.get("/me/export.csv").content.decode())))
    assert rows[0][:3] == ["sheet", "game", "created_at"]
    assert len(rows) == 3
    by_name = {r[6]: r for r in rows[1:]}
    assert "'=Elya" in by_name  # no spreadsheet formula
    expected = Player.objects.get(sheet=sheet, seat=0).total
    assert int(by_name["'=Elya"][7]) == expected
    data = client.get("/me/export.json").json()
    assert data[0]["id"] == sheet.pk and len(data[0]["rounds"]) == 18
    assert data[0]["totals"]["=Elya"] == expected
    assert Client().get("/me/export.json").status_code == 302  # login first


def test_it_counts_stats_and_records_from_the_marked_seat():
    user, client = account("elya@example.org")
    sheet = king_game(user, ["Elya", "Sasha"], "Elya")
    mark_me(client, sheet, 0)
    page = client.get(f"/players/{user.pk}/").content.decode()
    elya = Player.objects.get(sheet=sheet, seat=0)
    # 18 rounds of bid 0 made: sum(20 + 2k) + streak 18 → +40.
    assert elya.total == sum(20 + 2 * k for k in range(1, 19)) + 40
    assert f">{elya.total}<" in page
    assert "18/18" in page  # exact bids
    assert elya.records["longest_streak"] == 18


def test_it_links_a_seat_for_another_player():
    owner, owner_client = account("owner@example.org")
    friend, friend_client = account("friend@example.org")
    sheet = king_game(owner, ["Owner", "Friend"], "Owner")
    page = owner_client.get(f"/sheets/{sheet.pk}/").content.decode()
    links = re.findall(r'value="(http://testserver/seat/[^"]+)"', page)
    assert len(links) == 2
    path = links[1].replace("http://testserver", "")
    assert friend_client.get(path).status_code == 200
    assert friend_client.post(path).status_code == 302
    assert Player.objects.get(sheet=sheet, seat=1).user == friend
    assert Standing.objects.get(user=friend, game="numking", period="all").games == 1
    assert friend_client.get(path[:-4] + "beef/").status_code == 404


def test_it_shows_only_opted_in_players_on_the_global_board(settings):
    settings.LEADERBOARD_MIN_GAMES = 1  # one game each here (the minimum has its own test, tests/web/test_players.py)
    alice, alice_client = account("alice@example.org", "Alice", public=True)
    bob, bob_client = account("bob@example.org")
    for user, client, seat in ((alice, alice_client, 0), (bob, bob_client, 0)):
        sheet = king_game(user, ["Me", "Other"], "Me")
        mark_me(client, sheet, seat)
    page = Client().get("/leaderboards/numking/").content.decode()
    assert "Alice" in page
    assert bob.username not in page and "bob@" not in page
    standing = Standing.objects.get(user=alice, game="numking", period="all")
    assert (standing.games, standing.wins) == (1, 1)
    # Bob opts in: he appears at once.
    bob_client.post("/me/profile/", {"display_name": "Bob", "public": "on"})
    assert "Bob" in Client().get("/leaderboards/numking/?period=month").content.decode()
    # The board rendered above without him is not shown again.
    assert "Bob" in Client().get("/leaderboards/numking/").content.decode()
    # The same board, seen logged in, carries that player's own header.
    mine = bob_client.get("/leaderboards/numking/").content.decode()
    assert "Bob" in mine and "/accounts/logout/" in mine
    assert "/accounts/logout/" not in Client().get("/leaderboards/numking/").content.decode()


def test_it_never_counts_anonymous_sheets_on_boards():
    sheet = services.sheet_create(game="coop", players=["A", "B"], options={}, owner_key="x").sheet
    services.round_add(sheet=sheet, data={"placed": 93})
    assert Standing.objects.count() == 0


def test_it_shows_my_table_board_with_hand_checked_numbers():
    user, client = account("elya@example.org")
    king_game(user, ["Elya", "Sasha"], "Elya")
    king_game(user, ["Elya", "Sasha"], "Sasha")
    king_game(user, ["Elya", "Sasha"], "Elya")
    page = client.get("/leaderboards/numking/?scope=table").content.decode()
    rows = re.findall(TABLE_ROW, page)
    assert rows == [("Elya", "2", "3"), ("Sasha", "1", "3")]


def test_it_keeps_private_stats_private():
    user, _client = account("shy@example.org")
    assert Client().get(f"/players/{user.pk}/").status_code == 404


def test_it_deletes_the_account_and_everything_it_owns():
    user, client = account("gone@example.org")
    king_game(user, ["A", "B"], "A")
    assert client.post("/me/delete/", {}).status_code == 302  # not confirmed: nothing happens
    assert get_user_model().objects.filter(pk=user.pk).exists()
    assert client.post("/me/delete/", {"confirm": "on"}).status_code == 302
    assert not get_user_model().objects.filter(pk=user.pk).exists()
    assert Sheet.objects.count() == 0 and Player.objects.count() == 0


def test_it_lets_an_owner_delete_a_sheet_but_not_a_stranger():
    user, client = account("a@example.org")
    _other, stranger = account("b@example.org")
    sheet = services.sheet_create(game="coop", players=["A", "B"], options={}, user=user).sheet
    assert stranger.post(f"/me/sheets/{sheet.pk}/delete/").status_code == 404
    assert Sheet.objects.filter(pk=sheet.pk).exists()
    assert client.post(f"/me/sheets/{sheet.pk}/delete/").status_code == 302
    assert not Sheet.objects.alive().filter(pk=sheet.pk).exists()  # gone for readers, restorable a while
    assert client.get(f"/sheets/{sheet.pk}/").status_code == 404


def test_it_shows_the_coop_win_rate_beside_the_rule_book():
    user, client = account("coop@example.org")
    sheet = services.sheet_create(game="coop", players=["A", "B", "C"], options={}, user=user).sheet
    for placed in (96, 50, 96, 10):
        services.round_add(sheet=sheet, data={"placed": placed})
    mark_me(client, sheet, 0)
    page = client.get(f"/players/{user.pk}/").content.decode()
    assert "50.0&nbsp;%" in page or "50,0&nbsp;%" in page
    assert "39.5&nbsp;%" in page or "39,5&nbsp;%" in page


def test_it_opens_a_sheet_by_its_edit_link_and_saves_it_to_the_account():
    api = Client()
    created = api.post(
        "/api/v1/sheets/", {"game": "coop", "players": ["A", "B"]}, content_type="application/json"
    ).json()
    user, browser = account("late@example.org")
    assert browser.get(f"/sheets/{created['id']}/").status_code == 404
    assert browser.get(f"/sheets/{created['id']}/?edit=wrong").status_code == 404
    r = browser.get(f"/sheets/{created['id']}/?edit={created['edit_token']}")
    assert r.status_code == 302 and "edit=" not in r.url
    page = browser.get(r.url).content.decode()
    assert "Sauvegarder dans mon compte" in page
    assert browser.post(f"/me/sheets/{created['id']}/save/").status_code == 302
    sheet = Sheet.objects.get(pk=created["id"])
    assert sheet.user == user and sheet.expires_at is None


def test_it_ranks_coop_players_of_my_tables_by_games_won():
    user, client = account("table@example.org")
    first = services.sheet_create(game="coop", players=["Ana", "Bo"], options={}, user=user).sheet
    for placed in (93, 10, 93):
        services.round_add(sheet=first, data={"placed": placed})
    second = services.sheet_create(game="coop", players=["Ana", "Cy"], options={}, user=user).sheet
    services.round_add(sheet=second, data={"placed": 93})
    page = client.get("/leaderboards/coop/?scope=table").content.decode()
    rows = re.findall(TABLE_ROW, page)
    assert rows == [("Ana", "3", "4"), ("Bo", "2", "3"), ("Cy", "1", "1")]


def test_the_headers_leaderboards_link_opens_the_first_registered_games_board():
    home = Client().get("/").content.decode()
    assert 'href="/leaderboards/"' in home
    r = Client().get("/leaderboards/")
    first = next(iter(GAMES))
    assert (r.status_code, r.url) == (302, f"/leaderboards/{first}/")
    assert Client().get(r.url).status_code == 200
