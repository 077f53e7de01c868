"""A player's figures kept in the cache: the same as computed afresh after every change, and pages of results in the API.

The histories and helpers are tests/web/test_players.py's; its figures by hand stay there.
"""

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts import api
from accounts import services as accounts
from scoring import services
from scoring.models import Sheet
from tests.accounts import logged_in
from tests.web.test_players import GAME_A, GAME_B, ids, play

pytestmark = pytest.mark.django_db


def test_the_kept_figures_are_the_fresh_ones_after_every_change(django_capture_on_commit_callbacks):
    user, client = logged_in("zoe@example.org")
    play(user, GAME_A, days_ago=3)
    b = play(user, GAME_B, days_ago=2)
    lea = ids(user)["Léa"]

    def kept():
        """Through the cache, as the pages read it (filled once the request's transaction commits)."""
        with django_capture_on_commit_callbacks(execute=True):
            return accounts.table_player(user, lea, "fr")

    def fresh():
        cache.clear()
        return accounts.table_player(user, lea, "fr")

    def figures(player):
        return [(g["slug"], g["games"], g["wins"], g["average"], g["best"]) for g in player["per_game"]], [
            (v["name"], v["games"], v["ahead"], v["behind"]) for v in player["versus"]
        ]

    kept()
    with CaptureQueriesContext(connection) as queries:
        again = kept()
    # Kept: the player, the account's names, its sheets' stamp, the ratings; nothing read per game.
    assert len(queries) == 4 and again == fresh()

    def moved(change):
        before = figures(kept())  # and the figures before the change are in the cache
        change()
        now = kept()
        assert now == fresh(), change.__doc__
        assert figures(now) != before, change.__doc__  # the change moved a figure

    def one_more_game():
        """A game finished."""
        play(user, {"Zoé": (1, 1), "Léa": (9, 9), "Tom": (2, 2)}, days_ago=1)

    def round_undone():
        """The last round of a finished game removed: it is no longer finished."""
        services.round_delete(sheet=Sheet.objects.get(pk=b.pk), number=2)

    def round_again():
        """The round put back."""
        services.round_add(
            sheet=Sheet.objects.get(pk=b.pk), data={"entries": {n: {"points": p[1]} for n, p in GAME_B.items()}}
        )

    def deleted():
        """A game deleted."""
        accounts.sheet_delete(sheet=Sheet.objects.get(pk=b.pk))

    def restored():
        """The game restored."""
        accounts.sheet_restore(sheet=Sheet.objects.get(pk=b.pk))

    def merged():
        """Max and Maxime merged into one player."""
        accounts.players_merge(user=user, into=ids(user)["Max"], other=ids(user)["Maxime"])

    def renamed():
        """Tom shown by another name."""
        accounts.players_rename(user=user, player_id=ids(user)["Tom"], name="Thomas")

    def split():
        """« lea » split from « Léa »."""
        accounts.players_split(user=user, player_id=lea, name="lea")

    for change in (one_more_game, round_undone, round_again, deleted, restored, merged, renamed, split):
        moved(change)
    page = client.get(f"/me/players/{lea}/").content.decode()
    assert "Thomas" in page and ">Tom<" not in page


def test_deleting_and_restoring_a_sheet_move_its_version_on():
    user, _client = logged_in("zoe@example.org")
    sheet = play(user, GAME_A)
    version = Sheet.objects.get(pk=sheet.pk).version
    assert accounts.sheet_delete(sheet=sheet)
    assert Sheet.objects.get(pk=sheet.pk).version == version + 1
    assert accounts.sheet_restore(sheet=sheet)
    assert Sheet.objects.get(pk=sheet.pk).version == version + 2


def test_the_page_reads_nothing_per_game_once_its_figures_are_kept(django_capture_on_commit_callbacks):
    user, client = logged_in("zoe@example.org")
    play(user, GAME_A, days_ago=2)
    play(user, GAME_B, days_ago=1)
    url = f"/me/players/{ids(user)['Léa']}/"
    with django_capture_on_commit_callbacks(execute=True):
        first = client.get(url)
    with CaptureQueriesContext(connection) as queries:
        again = client.get(url)
    # The session and the user; the player, the names, the sheets' stamp, the ratings.
    assert len(queries) == 6
    assert again.content.count(b'class="dot') == first.content.count(b'class="dot') == 2


def test_the_api_gives_a_players_results_a_page_at_a_time(monkeypatch):
    monkeypatch.setattr(api, "RESULTS_PAGE", 2)
    user, client = logged_in("zoe@example.org")
    play(user, GAME_A, days_ago=3)
    play(user, GAME_B, days_ago=2)
    play(user, {"Zoé": (1, 1), "Léa": (9, 9), "Tom": (2, 2)}, days_ago=1)
    lea = ids(user)["Léa"]
    url = f"/api/v1/players/{lea}/"
    one, two, three = (client.get(url, {"page": n}).json() for n in (1, 2, 3))
    assert client.get(url).json() == one
    assert [[r["total"] for r in p["per_game"][0]["results"]] for p in (one, two, three)] == [[6, 1], [18], []]
    every = accounts.table_player(user, lea, "fr")["per_game"][0]["results"]
    assert [total for _when, total, _won in every] == [6, 1, 18]
    assert (one["page"], one["pages"], one["previous"]) == (1, 2, None)
    assert one["next"].endswith(f"{url}?page=2") and two["previous"].endswith(f"{url}?page=1")
    assert (two["next"], three["next"]) == (None, None) and three["previous"].endswith(f"{url}?page=2")
    for page in (one, two, three):
        assert page["per_game"][0]["results_count"] == 3
        assert (page["games"], page["wins"], page["per_game"][0]["average"]) == (3, 1, 8.3)
        assert page["versus"] == one["versus"]


@pytest.mark.parametrize("page", ["0", "-1", "abc", "1.5", "", "١"])
def test_a_page_that_is_not_a_whole_number_from_one_is_refused_in_both_languages(page):
    user, client = logged_in("zoe@example.org")
    play(user, GAME_A)
    url = f"/api/v1/players/{ids(user)['lea']}/"
    fr = client.get(url, {"page": page}, HTTP_ACCEPT_LANGUAGE="fr")
    en = client.get(url, {"page": page}, HTTP_ACCEPT_LANGUAGE="en")
    assert fr.status_code == en.status_code == 400
    assert [(e["path"], e["code"]) for e in fr.json()["errors"]] == [("page", "invalid_page")]
    assert fr.json()["errors"][0]["message"] == "La page est un nombre entier à partir de 1."
    assert en.json()["errors"][0]["message"] == "The page is a whole number from 1."
