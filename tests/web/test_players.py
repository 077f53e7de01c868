"""« Mes joueurs »: recognised by name, their own seat without a chore, stats, head to head and ratings by hand.

The history of every test is small and fixed: two Num-X Malus games (Speed-Game, two
rounds, the lowest total wins), four players each.

    game A: Zoé 3+2=5 (wins), lea 5+1=6, Max 8+0=8, Tom 1+9=10   places Zoé 1, lea 2, Max 3, Tom 4
    game B: Zoé 4+4=8, Léa 0+1=1 (wins), Maxime 2+2=4, Tom 3+3=6  places Léa 1, Maxime 2, Tom 3, Zoé 4
"""

import csv
import io
import re
from datetime import timedelta

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from openskill.models import PlackettLuce

from accounts import services as accounts
from accounts.models import Rating, SeatAnswer, TableName, TablePlayer
from accounts.players import fold, replay
from scoring import services
from scoring.models import Player, Round, Sheet
from tests.accounts import PASSWORD, logged_in, verified_user

pytestmark = pytest.mark.django_db
ZOE = "zoe@example.org"

GAME_A = {"Zoé": (3, 2), "lea": (5, 1), "Max": (8, 0), "Tom": (1, 9)}
GAME_B = {"Zoé": (4, 4), "Léa": (0, 1), "Maxime": (2, 2), "Tom": (3, 3)}


def play(owner, game: dict, *, days_ago: int = 0, owner_key: str = "") -> Sheet:
    """Play a whole two-round Num-X Malus game with these points per round; return the finished sheet."""
    sheet = services.sheet_create(
        game="numx-malus", players=list(game), options={"mode": "speedgame"}, user=owner, owner_key=owner_key
    ).sheet
    for r in range(2):
        services.round_add(sheet=sheet, data={"entries": {name: {"points": pts[r]} for name, pts in game.items()}})
    sheet.refresh_from_db()
    assert sheet.finished
    when = timezone.now() - timedelta(days=days_ago)
    Sheet.objects.filter(pk=sheet.pk).update(created_at=when - timedelta(minutes=1))
    Round.objects.filter(sheet=sheet).update(created_at=when)
    return sheet


def ids(user) -> dict:
    return {name: pid for name, pid in TableName.objects.filter(owner=user).values_list("name", "player_id")}


def library_ratings(games):
    """Return OpenSkill's own ratings for these games: [[(name, place)]], each name a player of its own."""
    model = PlackettLuce()
    ratings = {}
    for game in games:
        teams = [[ratings.get(name) or model.rating()] for name, _place in game]
        rated = model.rate(teams, ranks=[place for _name, place in game])
        for (name, _place), [rating] in zip(game, rated):
            ratings[name] = rating
    return {name: (r.mu, r.sigma) for name, r in ratings.items()}


def stored_ratings(user, game="numx-malus") -> dict:
    return {
        name: (mu, sigma)
        for name, mu, sigma in Rating.objects.filter(player__owner=user, game=game).values_list(
            "player__name", "mu", "sigma"
        )
    }


def assert_same(stored: dict, expected: dict):
    assert set(stored) == set(expected)
    for name, (mu, sigma) in expected.items():
        assert stored[name] == pytest.approx((mu, sigma), abs=1e-9), name


# Each game's places, by the player's name as the account shows it (« lea », spelt « Léa » in game B).
PLACES_A = [("Zoé", 1), ("lea", 2), ("Max", 3), ("Tom", 4)]
PLACES_B = [("Zoé", 4), ("lea", 1), ("Maxime", 2), ("Tom", 3)]


def test_names_fold_without_case_or_accents():
    assert fold("Léa") == fold("lea") == fold("LÉA") == fold("  Le\u0301a ") == "lea"
    assert fold("Zoé") != fold("Zoë ") or fold("Zoé") == "zoe"
    assert fold("Maxime") != fold("Max")


def test_the_names_of_the_sheets_are_one_player_each_lea_and_lea_one():
    user, _client = logged_in(ZOE)
    play(user, GAME_A, days_ago=2)
    play(user, GAME_B, days_ago=1)
    found = ids(user)
    assert found["lea"] == found["Léa"]
    assert len({found[n] for n in ("Zoé", "Léa", "Max", "Maxime", "Tom")}) == 5
    assert TablePlayer.objects.get(pk=found["lea"]).name == "lea"  # the first spelling seen names the player
    listed = {p["name"]: p for p in accounts.table_players(user)}
    assert {n: (p["games"], p["wins"]) for n, p in listed.items()} == {
        "lea": (2, 1),
        "Zoé": (2, 1),
        "Tom": (2, 0),
        "Max": (1, 0),
        "Maxime": (1, 0),
    }
    assert listed["lea"]["names"] == ["Léa", "lea"]


def test_two_names_folding_alike_at_one_table_are_two_people():
    user, _client = logged_in(ZOE)
    play(user, {"Léa": (1, 1), "Lea": (2, 2)})
    found = ids(user)
    assert found["Léa"] != found["Lea"]


def test_the_seat_named_like_the_account_is_its_own_without_a_chore():
    user, client = logged_in(ZOE, display_name="zoe")  # case and accents ignored
    sheet = play(user, GAME_A)
    assert Player.objects.get(sheet=sheet, seat=0).user == user
    page = client.get(f"/sheets/{sheet.pk}/").content.decode()
    assert "Qui êtes-vous ?" not in page
    stats = client.get(f"/players/{user.pk}/").content.decode()
    assert "<dd>1</dd>" in stats  # one game, one win: counted at once


def test_a_sheet_claimed_at_login_gives_the_seat_too():
    user = verified_user(ZOE, display_name="Zoé")
    browser = Client()
    r = browser.post("/new/numx-malus/", {"player": ["ZOÉ", "Tom"]})
    sheet = Sheet.objects.get(pk=r.url.strip("/").split("/")[-1])
    browser.post("/accounts/login/", {"login": ZOE, "password": PASSWORD})
    browser.post("/me/claim/", {"answer": "add"})
    assert Player.objects.get(sheet=sheet, seat=0).user == user
    assert set(ids(user)) == {"ZOÉ", "Tom"}


def test_a_finished_game_asks_once_who_you_are():
    user, client = logged_in(ZOE)  # no display name: nothing to match
    sheet = play(user, GAME_A)
    page = client.get(f"/sheets/{sheet.pk}/").content.decode()
    assert "Qui êtes-vous ?" in page
    for name in GAME_A:
        assert f'name="seat" value="{list(GAME_A).index(name)}">{name}</button>' in page
    assert 'value="none"' in page
    # « aucun »: a game only kept score of; never asked again, nothing counted.
    client.post(f"/me/sheets/{sheet.pk}/seat/", {"seat": "none"})
    assert SeatAnswer.objects.filter(user=user, sheet_id=sheet.pk).exists()
    assert "Qui êtes-vous ?" not in client.get(f"/sheets/{sheet.pk}/").content.decode()
    assert not Player.objects.filter(sheet=sheet, user=user).exists()
    # Another game: a name answers, the stats count it from then on.
    other = play(user, GAME_B)
    assert "Qui êtes-vous ?" in client.get(f"/sheets/{other.pk}/").content.decode()
    client.post(f"/me/sheets/{other.pk}/seat/", {"seat": "1"})
    assert Player.objects.get(sheet=other, seat=1).user == user
    assert "Qui êtes-vous ?" not in client.get(f"/sheets/{other.pk}/").content.decode()
    assert accounts.player_stats(user.pk, "fr")[0]["wins"] == 1  # Léa won game B


def test_an_unfinished_game_never_asks():
    user, client = logged_in(ZOE)
    sheet = services.sheet_create(game="numx-malus", players=["A", "B"], options={}, user=user).sheet
    assert "Qui êtes-vous ?" not in client.get(f"/sheets/{sheet.pk}/").content.decode()


def test_a_players_page_has_its_figures_by_hand():
    user, client = logged_in(ZOE)
    play(user, GAME_A, days_ago=2)
    play(user, GAME_B, days_ago=1)
    lea = ids(user)["Léa"]
    player = accounts.table_player(user, lea, "fr")
    [game] = player["per_game"]
    assert (game["games"], game["wins"], game["average"], game["best"]) == (2, 1, 3.5, 1)
    assert [(total, won) for _when, total, won in game["results"]] == [(6, False), (1, True)]
    versus = {v["name"]: (v["games"], v["ahead"], v["behind"], v["wins"], v["their_wins"]) for v in player["versus"]}
    assert versus == {
        "Zoé": (2, 1, 1, 1, 1),  # behind in A, ahead in B
        "Tom": (2, 2, 0, 1, 0),
        "Max": (1, 1, 0, 0, 0),
        "Maxime": (1, 1, 0, 1, 0),
    }
    page = client.get(f"/me/players/{lea}/").content.decode()
    assert "<svg" in page and page.count('class="dot') == 2 and 'class="dot won"' in page
    assert "3.5" in page or "3,5" in page
    # Max and Maxime are one person: merged, the head to head counts both games.
    max_id, maxime = ids(user)["Max"], ids(user)["Maxime"]
    assert client.post(f"/me/players/{max_id}/merge/", {"other": str(maxime)}).status_code == 302
    player = accounts.table_player(user, lea, "fr")
    versus = {v["name"]: (v["games"], v["ahead"], v["behind"]) for v in player["versus"]}
    assert versus["Max"] == (2, 2, 0) and "Maxime" not in versus
    assert len(accounts.table_players(user)) == 4


def test_merge_split_and_rename_from_the_list():
    user, client = logged_in(ZOE)
    play(user, GAME_A, days_ago=2)
    play(user, GAME_B, days_ago=1)
    found = ids(user)
    page = client.get("/me/players/").content.decode()
    assert page.count('class="table-player"') == 5
    # Two people who sat at one sheet cannot be merged.
    r = client.post(f"/me/players/{found['Zoé']}/merge/", {"other": str(found["Tom"])}, follow=True)
    assert "la même partie" in r.content.decode()
    assert TablePlayer.objects.filter(owner=user).count() == 5
    # « lea » is not Léa after all: split, each has one game.
    client.post(f"/me/players/{found['Léa']}/split/", {"name": "lea"})
    after = ids(user)
    assert after["lea"] != after["Léa"]
    listed = {p["name"]: (p["games"], p["wins"]) for p in accounts.table_players(user)}
    assert listed["lea"] == (1, 0)  # game A
    # The player keeps the name it was shown by; the split-off spelling names the new one.
    assert TablePlayer.objects.get(pk=after["Léa"]).name == "lea"
    client.post(f"/me/players/{after['Léa']}/rename/", {"name": "Léa"})
    listed = {p["name"]: (p["games"], p["wins"]) for p in accounts.table_players(user)}
    assert listed["Léa"] == (1, 1) and listed["lea"] == (1, 0)
    # A refused name says why; another account's player is not found.
    r = client.post(f"/me/players/{after['Léa']}/rename/", {"name": "x" * 41}, follow=True)
    assert "40 caractères" in r.content.decode()
    _other, stranger = logged_in("other@example.org")
    assert stranger.post(f"/me/players/{after['Léa']}/rename/", {"name": "Mine"}).status_code == 404
    assert stranger.get(f"/me/players/{after['Léa']}/").status_code == 404


def test_ratings_are_the_librarys_and_follow_delete_and_restore_exactly():
    user, client = logged_in(ZOE)
    a = play(user, GAME_A, days_ago=2)
    assert_same(stored_ratings(user), library_ratings([PLACES_A]))
    # lea of game A is Léa of game B: one player, rated across both.
    b = play(user, GAME_B, days_ago=1)
    both = library_ratings([PLACES_A, PLACES_B])
    assert_same(stored_ratings(user), both)
    mu, sigma = both["Tom"]
    assert Rating.objects.get(player__name="Tom").games == 2
    # Game B, the last played, was rated onto the kept ratings: the very numbers of the whole history replayed.
    kept = stored_ratings(user)
    accounts.ratings_recount(owner_id=user.pk, game="numx-malus")
    assert stored_ratings(user) == kept
    # The older game deleted: the ratings are those of game B alone, as if A never was.
    client.post(f"/me/sheets/{a.pk}/delete/")
    only_b = library_ratings([PLACES_B])
    assert_same(stored_ratings(user), only_b)
    # Restored: every figure back exactly.
    client.post(f"/me/sheets/{a.pk}/restore/")
    assert_same(stored_ratings(user), both)
    assert stored_ratings(user)["Tom"] == pytest.approx((mu, sigma), abs=1e-9)
    # Shown honestly: few games, a wide range.
    page = client.get(f"/me/players/{ids(user)['Tom']}/").content.decode()
    assert f"{round(mu)} ± {round(sigma)}" in page
    assert b.pk  # both sheets live


def test_ratings_follow_the_order_played_and_a_round_removed_from_a_finished_game():
    user, client = logged_in(ZOE)
    play(user, GAME_B)
    # Game A was played yesterday on this phone without logging in, and claimed today: it counts first.
    client.post("/accounts/logout/")
    r = client.post("/new/numx-malus/", {"player": list(GAME_A), "opt-mode": "speedgame"})
    a = Sheet.objects.get(pk=r.url.strip("/").split("/")[-1])
    for i in range(2):
        services.round_add(sheet=a, data={"entries": {name: {"points": pts[i]} for name, pts in GAME_A.items()}})
    yesterday = timezone.now() - timedelta(days=1)
    Sheet.objects.filter(pk=a.pk).update(created_at=yesterday)
    Round.objects.filter(sheet=a).update(created_at=yesterday)
    client.post("/accounts/login/", {"login": ZOE, "password": PASSWORD})
    client.post("/me/claim/", {"answer": "add"})
    a.refresh_from_db()
    assert a.user == user and a.finished
    as_shown = {"lea": "Léa"}  # game B entered the account first: its spelling names the player
    both = library_ratings([PLACES_A, PLACES_B])
    assert_same(stored_ratings(user), {as_shown.get(n, n): r for n, r in both.items()})
    services.round_delete(sheet=a, number=2)  # A is unfinished again: it no longer counts
    only_b = library_ratings([PLACES_B])
    assert_same(stored_ratings(user), {as_shown.get(n, n): r for n, r in only_b.items()})


def test_ties_share_a_place_in_the_ratings():
    user, _client = logged_in(ZOE)
    # Bo and Cy level on 6 behind Ana: they share the second place.
    play(user, {"Ana": (1, 1), "Bo": (3, 3), "Cy": (2, 4)})
    assert_same(stored_ratings(user), library_ratings([[("Ana", 1), ("Bo", 2), ("Cy", 2)]]))


def test_replay_matches_the_library_with_teams():
    model = PlackettLuce()
    a, b, c, d = (model.rating() for _ in range(4))
    [[a1, b1], [c1, d1]] = model.rate([[a, b], [c, d]], ranks=[2, 1])
    got = replay([[((1, 2), 2), ((3, 4), 1)]])
    assert got[1] == pytest.approx((a1.mu, a1.sigma, 1)) and got[3] == pytest.approx((c1.mu, c1.sigma, 1))


def test_my_table_board_counts_players_not_spellings_this_month_and_all_time():
    user, client = logged_in(ZOE)
    play(user, GAME_A, days_ago=40)
    play(user, GAME_B, days_ago=0)
    rows = accounts.table_board(user, "numx-malus", month=False)
    assert [(r["name"], r["wins"], r["games"], r["best"]) for r in rows] == [
        ("lea", 1, 2, 1),
        ("Zoé", 1, 2, 5),
        ("Tom", 0, 2, 6),
        ("Max", 0, 1, 8),
        ("Maxime", 0, 1, 4),
    ]
    month = accounts.table_board(user, "numx-malus", month=True)
    assert [(r["name"], r["wins"], r["games"]) for r in month] == [
        ("lea", 1, 1),
        ("Maxime", 0, 1),
        ("Tom", 0, 1),
        ("Zoé", 0, 1),
    ]
    page = client.get("/leaderboards/numx-malus/?scope=table").content.decode()
    assert re.search(r'<th scope="row"><a href="/me/players/\d+/">lea</a></th><td>1</td><td>2</td>', page)
    assert "±" in page


def test_the_global_board_needs_a_public_name_and_enough_games(settings):
    settings.LEADERBOARD_MIN_GAMES = 2
    user, client = logged_in(ZOE, display_name="Zoé")
    accounts.profile_update(user=user, display_name="Zoé", public=True)
    play(user, GAME_A, days_ago=2)
    assert "Zoé" not in Client().get("/leaderboards/numx-malus/").content.decode()  # one game: not yet
    play(user, GAME_B, days_ago=1)
    board = Client().get("/leaderboards/numx-malus/").content.decode()
    assert "Zoé" in board
    # The other players of her table are never shown outside her own pages.
    for name in ("Léa", "lea", "Tom", "Max", "Maxime"):
        assert f">{name}<" not in board


def test_the_api_lists_my_players_and_one_player():
    user, client = logged_in(ZOE)
    play(user, GAME_A, days_ago=2)
    play(user, GAME_B, days_ago=1)
    assert Client().get("/api/v1/players/").status_code in (401, 403)
    listed = client.get("/api/v1/players/").json()
    by_name = {p["name"]: p for p in listed}
    assert {n: p["games"] for n, p in by_name.items()} == {"lea": 2, "Zoé": 2, "Tom": 2, "Max": 1, "Maxime": 1}
    lea = by_name["lea"]
    assert lea["names"] == ["Léa", "lea"] and lea["per_game"][0]["game"] == "numx-malus"
    assert lea["per_game"][0]["rating"]["games"] == 2
    one = client.get(f"/api/v1/players/{lea['id']}/").json()
    assert (one["games"], one["wins"], one["per_game"][0]["average"], one["per_game"][0]["best"]) == (2, 1, 3.5, 1)
    assert [r["total"] for r in one["per_game"][0]["results"]] == [6, 1]
    assert {v["name"]: v["ahead"] for v in one["versus"]} == {"Zoé": 1, "Tom": 2, "Max": 1, "Maxime": 1}
    _other, stranger = logged_in("other@example.org")
    assert stranger.get(f"/api/v1/players/{lea['id']}/").status_code == 404
    assert stranger.get("/api/v1/players/").json() == []


def test_the_players_list_and_page_take_a_fixed_number_of_queries(django_assert_num_queries):
    user, client = logged_in(ZOE)
    play(user, GAME_A, days_ago=3)
    play(user, GAME_B, days_ago=2)
    lea = ids(user)["Léa"]
    counts = {}
    for url in ("/me/players/", f"/me/players/{lea}/", "/api/v1/players/", f"/api/v1/players/{lea}/"):
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url).status_code == 200
        counts[url] = len(queries)
    for days in range(4, 14):  # ten more games, new names among them
        play(user, {"Zoé": (1, days), "Léa": (2, 2), f"P{days}": (3, 3), "Tom": (4, 4)}, days_ago=days)
    for url, count in counts.items():
        with django_assert_num_queries(count):
            assert client.get(url).status_code == 200
    # The session and the user, then the list: the players, their names, the seats grouped, the ratings;
    # a player: the player, the names, their sheets, the seats of these, their own seats' records, the ratings.
    assert counts == {"/me/players/": 6, f"/me/players/{lea}/": 8, "/api/v1/players/": 6, f"/api/v1/players/{lea}/": 8}


def test_the_export_and_the_deletion_of_the_account_carry_the_players():
    user, client = logged_in(ZOE)
    play(user, GAME_A, days_ago=2)
    play(user, GAME_B, days_ago=1)
    rows = list(csv.DictReader(io.StringIO(client.get("/me/export.csv").content.decode())))
    assert {r["player"]: r["table_player"] for r in rows if r["player"] in ("lea", "Léa")} == {
        "lea": "lea",
        "Léa": "lea",
    }
    data = client.get("/me/export.json").json()
    assert data[0]["table_players"]["lea"] == data[1]["table_players"]["Léa"]
    players = client.get("/me/export-players.json").json()
    assert {p["name"]: p["games"] for p in players}["lea"] == 2
    table = list(csv.DictReader(io.StringIO(client.get("/me/export-players.csv").content.decode())))
    tom = next(r for r in table if r["name"] == "Tom")
    assert (tom["game"], tom["games"], tom["wins"]) == ("numx-malus", "2", "0")
    assert float(tom["mu"]) == pytest.approx(stored_ratings(user)["Tom"][0], abs=0.01)
    client.post("/me/delete/", {"confirm": "on"})
    assert TablePlayer.objects.count() == TableName.objects.count() == Rating.objects.count() == 0


def test_a_new_sheet_offers_my_players_names():
    user, client = logged_in(ZOE)
    play(user, GAME_A)
    page = client.get("/new/numking/").content.decode()
    datalist = re.search(r'<datalist id="known-names">(.*?)</datalist>', page).group(1)
    assert re.findall(r'<option value="([^"]+)">', datalist) == ["lea", "Max", "Tom", "Zoé"]
    assert re.search(r'<datalist id="known-names"></datalist>', Client().get("/new/numking/").content.decode())


def test_a_coop_session_counts_its_own_games_and_the_best_climb():
    user, client = logged_in(ZOE)
    sheet = services.sheet_create(game="coop", players=["Ana", "Bo"], options={}, user=user).sheet
    for placed in (93, 10, 93):
        services.round_add(sheet=sheet, data={"placed": placed})
    listed = {p["name"]: (p["games"], p["wins"]) for p in accounts.table_players(user)}
    assert listed == {"Ana": (3, 2), "Bo": (3, 2)}
    ana = accounts.table_player(user, ids(user)["Ana"], "en")
    [coop] = ana["per_game"]
    assert (coop["games"], coop["wins"], coop["average"], coop["rating"]) == (3, 2, None, None)
    assert coop["records"] == [{"key": "best", "label": "Best climb (cards placed)", "value": 93, "of": None}]
    assert ana["versus"] == []  # a cooperative session has no one ahead


def link_of(client, player_id) -> str:
    """Make the player's link on their page and return its path."""
    client.post(f"/me/players/{player_id}/link/")
    page = client.get(f"/me/players/{player_id}/").content.decode()
    return re.search(r'value="http://testserver(/players/link/[^"]+)"', page).group(1)


def test_a_player_linked_to_their_account_finds_the_games_in_their_stats():
    owner, client = logged_in(ZOE, display_name="Zoé")
    play(owner, GAME_A, days_ago=2)
    play(owner, GAME_B, days_ago=1)
    lea = ids(owner)["Léa"]
    path = link_of(client, lea)
    # Léa opens it before she has logged in: told what it is, asked to log in.
    page = Client().get(path).content.decode()
    assert "lea" in page and "Zoé" in page and "/accounts/login/?next=" in page
    lea_user, lea_client = logged_in("lea@example.org")
    r = lea_client.post(path)
    assert r.status_code == 302 and r.url == f"/players/{lea_user.pk}/"
    # Both games of « lea » and « Léa » count in her stats, one won; the sheets stay Zoé's.
    [stats] = accounts.player_stats(lea_user.pk, "fr")
    assert (stats["games"], stats["wins"], stats["best"]) == (2, 1, 1)
    assert not Sheet.objects.filter(user=lea_user).exists()
    assert lea_client.get("/me/players/").content.decode().count('class="table-player"') == 0
    # The link worked once; a game played after it counts at once.
    assert Client().get(path).status_code == 404
    play(owner, {"Zoé": (5, 5), "Léa": (1, 1)})
    assert accounts.player_stats(lea_user.pk, "fr")[0]["games"] == 3
    assert {p["name"]: p["linked"] for p in client.get("/api/v1/players/").json()}["lea"] is True
    # The owner ends the link: the games leave her stats.
    client.post(f"/me/players/{lea}/unlink/")
    assert accounts.player_stats(lea_user.pk, "fr") == []
    assert not Player.objects.filter(user=lea_user).exists()


def test_a_players_link_is_refused_to_its_owner_and_to_a_wrong_token():
    owner, client = logged_in(ZOE)
    play(owner, GAME_A)
    tom = ids(owner)["Tom"]
    path = link_of(client, tom)
    assert Client().get(path[:-5] + "0000/").status_code == 404
    r = client.post(path, follow=True)
    assert "votre propre table" in r.content.decode()
    assert TablePlayer.objects.get(pk=tom).linked_user is None
    # A new link ends the previous one.
    newer = link_of(client, tom)
    assert newer != path and Client().get(path).status_code == 404 and Client().get(newer).status_code == 200


def test_players_rebuild_gives_the_same_players_and_ratings_again():
    from django.core.management import call_command

    user, _client = logged_in(ZOE)
    play(user, GAME_A, days_ago=2)
    play(user, GAME_B, days_ago=1)
    before = stored_ratings(user)
    Rating.objects.all().delete()
    call_command("players_rebuild", stdout=io.StringIO())
    assert stored_ratings(user) == before


def test_deleting_and_restoring_a_game_moves_every_figure_back_and_forth_exactly():
    user, client = logged_in(ZOE)
    a = play(user, GAME_A, days_ago=2)
    play(user, GAME_B, days_ago=1)

    def figures():
        """Every figure the account sees of its players: the list, each player's page, « Ma table », the stats."""
        return {
            "players": sorted(accounts.table_players(user), key=lambda p: p["id"]),
            "pages": {pid: accounts.table_player(user, pid, "fr") for pid in sorted(set(ids(user).values()))},
            "board": accounts.table_board(user, "numx-malus", month=False),
            "month": accounts.table_board(user, "numx-malus", month=True),
            "stats": accounts.player_stats(user.pk, "fr"),
        }

    both = figures()
    client.post(f"/me/sheets/{a.pk}/delete/")
    without_a = figures()
    # Game A no longer counts: Tom played one game, not two.
    tom = next(p for p in without_a["players"] if p["name"] == "Tom")
    assert (tom["games"], next(p for p in both["players"] if p["name"] == "Tom")["games"]) == (1, 2)
    assert without_a != both
    client.post(f"/me/sheets/{a.pk}/restore/")
    assert figures() == both
