"""The cooperative climbing game: deck sizes, sessions, reference rates, Adversaire."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.games import GAMES, ScoringError
from scoring.games.coop import deck_size, reference_rate
from tests.fuzzing import examples

GAME = GAMES["coop"]


def names(n):
    return [f"P{i}" for i in range(n)]


def errors(players, options, rounds):
    with pytest.raises(ScoringError) as info:
        GAME.score(players, options, rounds)
    return info.value


@pytest.mark.parametrize(
    ("players", "decouverte", "expected"),
    [(2, False, 93), (3, False, 96), (4, False, 96), (5, False, 96), (2, True, 76), (3, True, 79), (5, True, 79)],
)
def test_it_sizes_the_deck(players, decouverte, expected):
    assert deck_size(players, decouverte) == expected
    result = GAME.score(names(players), {"decouverte": decouverte}, [{"placed": expected}])
    assert result["summary"]["deck"] == expected
    assert result["rounds"][0]["won"] is True


@pytest.mark.parametrize(
    ("players", "expert", "decouverte", "rate"),
    [
        (2, False, False, 52.0),
        (3, False, False, 39.5),
        (4, False, False, 20.0),
        (5, False, False, 16.0),
        (2, True, False, 52.7),
        (3, True, False, 32.7),
        (4, True, False, 15.3),
        (5, True, False, 4.7),
        (2, False, True, 60.7),
        (3, False, True, 34.7),
        (4, False, True, 30.7),
        (5, False, True, 18.7),
        (3, True, True, None),  # never simulated
    ],
)
def test_it_gives_the_reference_win_rate(players, expert, decouverte, rate):
    assert reference_rate(players, expert, decouverte) == rate
    summary = GAME.score(names(players), {"expert": expert, "decouverte": decouverte}, [])["summary"]
    assert summary["reference_win_rate"] == rate


def test_it_keeps_a_session_record():
    players = names(3)
    result = GAME.score(players, {}, [{"placed": 90}, {"placed": 96}, {"placed": 95, "entries": {}}, {"placed": 96}])
    assert result["summary"] == {
        "mode": "cooperatif",
        "games": 4,
        "wins": 2,
        "win_rate": 50.0,
        "best": 96,
        "deck": 96,
        "reference_win_rate": 39.5,
    }
    assert result["rounds"][0]["points"] == {p: 90 for p in players}
    assert result["totals"] == {p: 90 + 96 + 95 + 96 for p in players}
    assert result["winners"] == players  # the last game was won
    assert result["finished"] is False
    assert result["next_round"] == {"number": 5, "cards": None, "tiebreak": False, "players": []}


def test_it_names_no_winner_for_a_lost_game():
    result = GAME.score(names(2), {}, [{"placed": 93}, {"placed": 80}])
    assert result["winners"] == []
    assert result["summary"]["win_rate"] == 50.0
    empty = GAME.score(names(2), {}, [])
    assert empty["summary"]["win_rate"] is None
    assert empty["summary"]["best"] is None
    assert empty["winners"] == []


def test_it_refuses_bad_cooperatif_rounds():
    err = errors(names(2), {}, [{"placed": 94}, {}, {"placed": 3, "entries": {"P0": {"placed": 3}}}, {"placed": True}])
    found = {m["path"]: m["message"] for m in err.messages()}
    assert found["rounds[0].placed"] == "Valeur hors limites : 94 (0 à 93)."
    assert "placed" in found["rounds[1].placed"]
    assert "rounds[2].entries" in found
    assert "rounds[3].placed" in found


def test_it_limits_players_per_mode():
    assert errors(names(6), {}, []).errors[0].path == "players"
    err = errors(names(5), {"mode": "adversaire"}, [])
    assert err.messages()[0]["path"] == "players"
    assert "2 à 4" in err.messages()[0]["message"]
    assert errors(names(3), {"mode": "adversaire", "decouverte": True}, []).errors[0].path == "options.decouverte"


def test_it_scores_adversaire_games():
    players = ["Elya", "Sasha", "Mendy"]
    rounds = [
        {"entries": {"Elya": {"placed": 17}, "Sasha": {"placed": 12, "eliminated": True}, "Mendy": {"placed": 9}}},
        {"entries": {"Elya": {"placed": 10, "eliminated": True}, "Sasha": {"placed": 14}, "Mendy": {"placed": 14}}},
    ]
    result = GAME.score(players, {"mode": "adversaire"}, rounds)
    assert result["rounds"][0]["winners"] == ["Elya"]
    assert result["rounds"][1]["winners"] == ["Sasha", "Mendy"]  # ties shared
    assert result["winners"] == ["Sasha", "Mendy"]
    assert result["summary"] == {"mode": "adversaire", "games": 2, "wins": {"Elya": 1, "Sasha": 1, "Mendy": 1}}
    assert result["totals"] == {"Elya": 27, "Sasha": 26, "Mendy": 23}
    assert result["next_round"]["players"] == players
    assert result["finished"] is False


def test_it_lets_an_eliminated_player_win_on_cards():
    rounds = [{"entries": {"A": {"placed": 15, "eliminated": True}, "B": {"placed": 11}}}]
    assert GAME.score(["A", "B"], {"mode": "adversaire"}, rounds)["winners"] == ["A"]


def test_it_refuses_bad_adversaire_entries():
    rounds = [
        {"entries": {"A": {"placed": 18}, "B": {"placed": 3, "eliminated": "no"}, "C": {"eliminated": False}}},
        {"entries": {"A": {"placed": 17}, "B": {"placed": 17}, "C": {"placed": 2}}},
    ]
    err = errors(["A", "B", "C"], {"mode": "adversaire"}, rounds)
    found = {m["path"]: m["message"] for m in err.messages()}
    assert found["rounds[0].entries.A.placed"] == "Valeur hors limites : 18 (0 à 17)."
    assert "no" in found["rounds[0].entries.B.eliminated"]
    assert "placed" in found["rounds[0].entries.C.placed"]
    assert "A, B" in found["rounds[1]"]


@settings(max_examples=examples(100), deadline=None)
@given(st.integers(2, 5), st.lists(st.integers(0, 96), max_size=20))
def test_it_counts_wins_and_best(players, placed):
    deck = deck_size(players)
    placed = [min(p, deck) for p in placed]
    summary = GAME.score(names(players), {}, [{"placed": p} for p in placed])["summary"]
    assert summary["games"] == len(placed)
    assert summary["wins"] == placed.count(deck)
    assert summary["best"] == (max(placed) if placed else None)
