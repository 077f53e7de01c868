"""Num King: round points, schedule, streak bonus, binômes, validation, properties."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.games import GAMES, ScoringError
from scoring.games.numking import round_points, schedule, streak_bonus
from tests.fuzzing import examples

GAME = GAMES["numking"]
FOUR = ["Elya", "Sasha", "Mendy", "Luka"]


def rnd(pairs, cards=None):
    """Return a round from {player: (bid, tricks)}."""
    out = {"entries": {p: {"bid": b, "tricks": t} for p, (b, t) in pairs.items()}}
    if cards is not None:
        out["cards"] = cards
    return out


def errors(players, options, rounds):
    with pytest.raises(ScoringError) as info:
        GAME.score(players, options, rounds)
    return info.value


@pytest.mark.parametrize(
    ("bid", "tricks", "cards", "expected"),
    [
        (3, 3, 5, 19),  # the rule book's examples
        (0, 0, 5, 30),
        (3, 1, 5, -6),
        (1, 3, 5, -6),
        (0, 2, 5, -20),
        (0, 1, 1, -15),
        (0, 0, 1, 22),
        (9, 9, 9, 37),
    ],
)
def test_it_scores_a_round(bid, tricks, cards, expected):
    assert round_points(bid, tricks, cards)[0] == expected


@pytest.mark.parametrize(("longest", "bonus"), [(0, 0), (1, 0), (2, 5), (3, 10), (4, 15), (5, 40), (9, 40)])
def test_it_values_streaks(longest, bonus):
    assert streak_bonus(longest) == bonus


@pytest.mark.parametrize(
    ("players", "options", "expected"),
    [
        (4, {}, list(range(1, 10))),  # 9 rounds
        (6, {}, list(range(1, 7))),  # 6 rounds
        (2, {}, list(range(1, 19))),
        (12, {}, [1, 2, 3]),
        (4, {"start": 3}, list(range(3, 10))),
        (7, {"extra_family": True}, list(range(1, 8))),  # 52 // 7 = 7
        (6, {"mode": "binomes"}, [6] * 5),
    ],
)
def test_it_follows_the_schedule(players, options, expected):
    names = [f"P{i}" for i in range(players)]
    if options.get("mode") == "binomes":
        options = dict(options, teams={f"T{i}": names[2 * i : 2 * i + 2] for i in range(players // 2)})
    opts = GAME.normalize_options(names, options)
    assert schedule(opts, players) == expected
    result = GAME.score(names, options, [])
    assert result["next_round"] == {"number": 1, "cards": expected[0], "tiebreak": False, "players": names}


def test_it_plays_a_full_four_player_game():
    rounds = []
    for k in range(1, 10):
        # Elya always exact with bid 0; Sasha exact only in rounds 1-3; others miss.
        sasha = (1, 1) if k <= 3 else (1, 0)
        rounds.append(rnd({"Elya": (0, 0), "Sasha": sasha, "Mendy": (1, 0), "Luka": (1, 0)}))
    result = GAME.score(FOUR, {}, rounds)
    assert result["finished"] is True
    assert result["next_round"] is None
    assert [r["cards"] for r in result["rounds"]] == list(range(1, 10))
    assert result["streaks"] == {"Elya": 9, "Sasha": 3, "Mendy": 0, "Luka": 0}
    assert result["bonuses"] == {"Elya": 40, "Sasha": 10, "Mendy": 0, "Luka": 0}
    elya = sum(20 + 2 * k for k in range(1, 10)) + 40
    sasha = 3 * 13 + 6 * -3 + 10
    assert result["totals"] == {"Elya": elya, "Sasha": sasha, "Mendy": -27, "Luka": -27}
    assert result["winners"] == ["Elya"]


def test_it_shows_a_provisional_bonus_during_the_game():
    rounds = [rnd({"Elya": (1, 1), "Sasha": (1, 0), "Mendy": (0, 0), "Luka": (0, 0)}, cards=1)]
    rounds.append(rnd({"Elya": (2, 2), "Sasha": (0, 0), "Mendy": (0, 0), "Luka": (0, 0)}, cards=2))
    result = GAME.score(FOUR, {}, rounds)
    assert result["finished"] is False
    assert result["bonuses"] == {"Elya": 5, "Sasha": 0, "Mendy": 5, "Luka": 5}
    assert result["totals"]["Elya"] == 13 + 16 + 5
    assert result["next_round"]["cards"] == 3


def test_it_resets_the_streak_on_a_miss():
    pattern = [(1, 1), (1, 1), (1, 0), (1, 1), (1, 1), (1, 1)]
    rounds = [rnd({"Elya": p, "Sasha": (0, 0), "Mendy": (0, 0), "Luka": (0, 0)}) for p in pattern]
    result = GAME.score(FOUR, {}, rounds)
    assert result["streaks"]["Elya"] == 3
    assert result["bonuses"]["Elya"] == 10


def test_it_starts_at_the_start_option():
    result = GAME.score(FOUR, {"start": 4}, [rnd({p: (0, 0) for p in FOUR})])
    assert result["rounds"][0]["cards"] == 4
    assert result["rounds"][0]["points"]["Elya"] == 28
    assert len(schedule(result["options"], 4)) == 6


def test_it_refuses_a_start_past_the_last_round():
    err = errors(FOUR, {"start": 10}, [])
    assert err.messages()[0] == {
        "path": "options.start",
        "code": "out_of_range",
        "message": "Valeur hors limites : 10 (1 à 9).",
    }


def test_it_allows_the_extra_family_from_seven_players():
    seven = [f"P{i}" for i in range(7)]
    assert GAME.normalize_options(seven, {"extra_family": True})["extra_family"] is True
    err = errors(FOUR, {"extra_family": True}, [])
    assert err.errors[0].path == "options.extra_family"
    assert "4" in err.messages()[0]["message"]
    assert "7 players" in err.messages("en")[0]["message"]


def test_it_scores_binomes_as_team_sums():
    teams = {"Rois": ["Elya", "Sasha"], "Reines": ["Mendy", "Luka"]}
    rounds = [rnd({"Elya": (2, 2), "Sasha": (1, 1), "Mendy": (3, 2), "Luka": (0, 0)})] * 5
    result = GAME.score(FOUR, {"mode": "binomes", "teams": teams}, rounds)
    assert result["finished"] is True
    assert [r["cards"] for r in result["rounds"]] == [6] * 5
    assert result["rounds"][0]["teams"] == {"Rois": 16 + 13, "Reines": -3 + 32}
    assert result["bonuses"] == {"Elya": 40, "Sasha": 40, "Mendy": 0, "Luka": 40}
    assert result["teams"] == {
        "Rois": {"members": ["Elya", "Sasha"], "total": 5 * 29 + 80},
        "Reines": {"members": ["Mendy", "Luka"], "total": 5 * 29 + 40},
    }
    assert result["winners"] == ["Rois"]
    assert errors(FOUR, {"mode": "binomes", "teams": teams}, rounds * 2).errors[0].path == "rounds"


def test_it_requires_pairs_for_binomes():
    assert errors(FOUR, {"mode": "binomes"}, []).errors[0].path == "options.teams"
    err = errors(FOUR, {"mode": "binomes", "teams": {"A": ["Elya", "Sasha", "Mendy"], "B": ["Luka"]}}, [])
    assert {e.path for e in err.errors} == {"options.teams.A", "options.teams.B"}
    eight = [f"P{i}" for i in range(8)]
    teams = {f"T{i}": eight[2 * i : 2 * i + 2] for i in range(4)}
    err = errors(eight, {"mode": "binomes", "teams": teams}, [])
    assert err.errors[0].code == "binomes_deck"
    assert GAME.normalize_options(eight, {"mode": "binomes", "teams": teams, "extra_family": True})


def test_it_refuses_teams_outside_binomes():
    err = errors(FOUR, {"teams": {"A": ["Elya", "Sasha"], "B": ["Mendy", "Luka"]}}, [])
    assert err.errors[0].path == "options.teams"


def test_it_refuses_a_bid_above_the_cards():
    rounds = [
        rnd({p: (0, 0) for p in FOUR}),
        rnd({p: (0, 0) for p in FOUR}),
        rnd({"Elya": (4, 0), "Sasha": (0, 0), "Mendy": (0, 0), "Luka": (0, 0)}),
    ]
    err = errors(FOUR, {}, rounds)
    assert err.messages()[0] == {
        "path": "rounds[2].entries.Elya.bid",
        "code": "bid_above_cards",
        "message": "Annonce de 4 plis pour 3 cartes distribuées.",
    }
    assert err.messages("en")[0]["message"] == "Bid of 4 tricks for 3 cards dealt."


def test_it_refuses_more_tricks_than_cards():
    rounds = [rnd({p: (0, 0) for p in FOUR})] * 3
    rounds.append(rnd({"Elya": (2, 2), "Sasha": (1, 2), "Mendy": (0, 1), "Luka": (0, 0)}))
    err = errors(FOUR, {}, rounds)
    assert err.messages()[0] == {
        "path": "rounds[3]",
        "code": "tricks_sum",
        "message": "Les plis pris (5) dépassent les cartes distribuées (4).",
    }
    one = errors(FOUR, {}, [rnd({"Elya": (0, 2), "Sasha": (0, 0), "Mendy": (0, 0), "Luka": (0, 0)})])
    assert one.errors[0].path == "rounds[0].entries.Elya.tricks"
    assert "2" in one.messages()[0]["message"]


def test_it_accepts_fewer_tricks_than_cards():
    result = GAME.score(FOUR, {}, [rnd({p: (0, 0) for p in FOUR}, cards=1)])
    assert result["rounds"][0]["points"] == {p: 22 for p in FOUR}


def test_it_checks_the_announced_cards():
    err = errors(FOUR, {}, [rnd({p: (0, 0) for p in FOUR}, cards=2)])
    assert err.messages()[0] == {
        "path": "rounds[0].cards",
        "code": "cards_schedule",
        "message": "Cette manche distribue 1 cartes, pas 2.",
    }


def test_it_refuses_bad_entries():
    rounds = [
        {
            "entries": {
                "Elya": {"bid": -1, "tricks": 0},
                "Sasha": {"bid": "1", "tricks": 0},
                "Mendy": {"bid": 0},
                "Luka": {"bid": 0, "tricks": 0, "bonus": 3},
            }
        }
    ]
    err = errors(FOUR, {}, rounds)
    paths = {e.path for e in err.errors}
    assert paths == {
        "rounds[0].entries.Elya.bid",
        "rounds[0].entries.Sasha.bid",
        "rounds[0].entries.Mendy.tricks",
        "rounds[0].entries.Luka.bonus",
    }


def test_it_refuses_rounds_after_the_last():
    rounds = [rnd({p: (0, 0) for p in FOUR})] * 10
    err = errors(FOUR, {"start": 9}, rounds[:2])
    assert [e.path for e in err.errors] == ["rounds"]


@settings(max_examples=examples(100), deadline=None)
@given(st.data())
def test_it_totals_rounds_plus_bonus(data):
    n = data.draw(st.integers(2, 6))
    names = [f"P{i}" for i in range(n)]
    plan = schedule(GAME.normalize_options(names, {}), n)
    played = data.draw(st.integers(0, len(plan)))
    rounds = []
    for cards in plan[:played]:
        left = cards
        entries = {}
        for name in names:
            took = data.draw(st.integers(0, left))
            left -= took
            entries[name] = {"bid": data.draw(st.integers(0, cards)), "tricks": took}
        rounds.append({"entries": entries})
    result = GAME.score(names, {}, rounds)
    for name in names:
        assert result["totals"][name] == result["bonuses"][name] + sum(r["points"][name] for r in result["rounds"])
        assert result["bonuses"][name] == streak_bonus(result["streaks"][name])
    assert result["finished"] is (played == len(plan))
    reordered = GAME.score(list(reversed(names)), {}, rounds)
    assert reordered["totals"] == result["totals"]


def test_it_tells_what_the_next_round_needs():
    assert GAME.score(FOUR, {}, [rnd({p: (0, 0) for p in FOUR})])["next_round"] == {
        "number": 2,
        "cards": 2,
        "tiebreak": False,
        "players": FOUR,
    }
    full = [rnd({p: (0, 0) for p in FOUR})] * 5
    teams = {"A": FOUR[:2], "B": FOUR[2:]}
    assert GAME.score(FOUR, {"mode": "binomes", "teams": teams}, full)["next_round"] is None
