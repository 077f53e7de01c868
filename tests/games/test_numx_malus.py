"""Num-X short rules with penalty points: scoring tables, end rules, properties."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.games import GAMES, ScoringError
from tests.fuzzing import examples

GAME = GAMES["numx-malus"]
PLAYERS = ["Elya", "Sasha", "Mendy"]


def card(kind, value=None, name=None):
    if value is not None:
        return {"kind": kind, "value": value}
    if name is not None:
        return {"kind": "action", "name": name}
    return {"kind": kind}


LEFT = [card("red", 12), card("shadow", 3), card("rainbow", 0), card("joker"), card("action", name="bombe-x")]


def typed(*points):
    return {"entries": {p: {"points": n} for p, n in zip(PLAYERS, points)}}


def errors(players, options, rounds):
    with pytest.raises(ScoringError) as info:
        GAME.score(players, options, rounds)
    return info.value


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        ({}, 3 * 1 + 2 * 2),  # classic: 1 per numeric card, 2 per special/action
        ({"scoring": "competition"}, 12 + 3 + 0 + 5 + 5),
        ({"mode": "speedgame"}, 25),  # speedgame scores competition by default
        ({"mode": "speedgame", "scoring": "classic"}, 7),
        ({"mode": "family"}, 7),
    ],
)
def test_it_counts_the_cards_left(options, expected):
    rnd = {"entries": {"Elya": {"cards": LEFT}, "Sasha": {"cards": []}, "Mendy": {"points": 4}}}
    result = GAME.score(PLAYERS, options, [rnd])
    assert result["rounds"][0]["points"] == {"Elya": expected, "Sasha": 0, "Mendy": 4}
    assert result["winners"] == ["Sasha"]


def test_it_explains_the_penalty():
    rnd = {"entries": {"Elya": {"cards": LEFT}, "Sasha": {"cards": []}, "Mendy": {"cards": []}}}
    details = GAME.score(PLAYERS, {}, [rnd])["rounds"][0]["details"]
    assert [(d["rule"], d["points"]) for d in details["Elya"]] == [("malus_numeric", 3), ("malus_special", 4)]
    assert details["Sasha"][0]["rule"] == "went_out"


def test_it_fills_the_option_defaults():
    assert GAME.normalize_options(PLAYERS, {}) == {"mode": "speedrun", "scoring": "classic", "end": "threshold"}
    assert GAME.normalize_options(PLAYERS, {"mode": "speedgame"}) == {
        "mode": "speedgame",
        "scoring": "competition",
        "end": "fixed",
    }


def test_it_ends_when_a_total_reaches_thirty():
    rounds = [typed(10, 0, 5), typed(10, 3, 5)]
    going = GAME.score(PLAYERS, {}, rounds)
    assert going["finished"] is False
    assert going["winners"] == ["Sasha"]
    assert going["next_round"]["number"] == 3
    done = GAME.score(PLAYERS, {}, [*rounds, typed(10, 3, 5)])
    assert done["totals"] == {"Elya": 30, "Sasha": 6, "Mendy": 15}
    assert done["finished"] is True
    assert done["next_round"] is None
    assert done["winners"] == ["Sasha"]


def test_it_refuses_a_round_after_the_threshold():
    err = errors(PLAYERS, {}, [typed(31, 0, 0), typed(1, 1, 1)])
    assert [e.path for e in err.errors] == ["rounds"]
    assert "1" in err.messages()[0]["message"]


def test_it_plays_five_fixed_rounds():
    four = [typed(10, 0, 5)] * 4
    assert GAME.score(PLAYERS, {"end": "fixed"}, four)["finished"] is False  # 40 points do not end it
    done = GAME.score(PLAYERS, {"end": "fixed"}, [*four, typed(0, 0, 0)])
    assert done["finished"] is True
    assert done["totals"]["Elya"] == 40
    assert errors(PLAYERS, {"end": "fixed"}, [typed(0, 0, 0)] * 6).errors[0].path == "rounds"


def test_it_plays_speedgame_in_two_rounds():
    one = GAME.score(PLAYERS, {"mode": "speedgame"}, [typed(40, 0, 5)])
    assert one["finished"] is False  # no threshold in Speed-Game
    two = GAME.score(PLAYERS, {"mode": "speedgame"}, [typed(40, 0, 5), typed(0, 9, 1)])
    assert two["finished"] is True
    assert two["winners"] == ["Mendy"]
    assert errors(PLAYERS, {"mode": "speedgame"}, [typed(0, 0, 0)] * 3).errors[0].path == "rounds"


def test_it_refuses_a_threshold_end_in_speedgame():
    err = errors(PLAYERS, {"mode": "speedgame", "end": "threshold"}, [])
    assert err.errors[0].path == "options.end"
    assert "2" in err.messages()[0]["message"]


def test_it_refuses_cards_of_another_game():
    rnd = {
        "entries": {
            "Elya": {"cards": [card("action", name="tornade"), card("red", 1)]},
            "Sasha": {"cards": [card("red", 1)]},
            "Mendy": {"cards": [card("action", name="block")] * 4},
        }
    }
    err = errors(PLAYERS, {}, [rnd])
    found = {m["path"]: m["message"] for m in err.messages()}
    assert "Tornade" in found["rounds[0].entries.Elya.cards[0]"]
    assert found["rounds[0].entries.Sasha.cards[0]"] == "Carte donnée deux fois : 1 rouge (aussi chez Elya)."
    assert "Block" in found["rounds[0].entries.Mendy.cards[3]"]


def test_it_refuses_unknown_scoring():
    err = errors(PLAYERS, {"scoring": "fancy"}, [])
    assert err.errors[0].path == "options.scoring"
    assert "fancy" in err.messages("en")[0]["message"]


@settings(max_examples=examples(150), deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from(["red", "blue", "green", "yellow", "rainbow", "shadow"]), st.integers(0, 16)),
        unique=True,
        max_size=40,
    ),
    st.lists(st.sampled_from(["joker", "infini", "numx", "simple", "double", "twister", "block"]), max_size=7),
    st.sampled_from(["classic", "competition"]),
)
def test_it_follows_the_count_formula(numeric, others, scoring):
    limits = {"joker": 2, "infini": 4, "numx": 1, "simple": 2, "double": 2, "twister": 2, "block": 3}
    counts = {}
    kept = []
    for name in others:  # stay within the deck's copies
        if counts.get(name, 0) < limits[name]:
            counts[name] = counts.get(name, 0) + 1
            kept.append(name)
    others = kept
    cards = [card(k, v) for k, v in numeric]
    cards += [card(n) if n in ("joker", "infini", "numx") else card("action", name=n) for n in others]
    rnd = {"entries": {"Elya": {"cards": cards}, "Sasha": {"cards": []}, "Mendy": {"cards": []}}}
    points = GAME.score(PLAYERS, {"scoring": scoring}, [rnd])["rounds"][0]["points"]["Elya"]
    if scoring == "classic":
        assert points == len(numeric) + 2 * len(others)
    else:
        assert points == sum(v for _k, v in numeric) + 5 * len(others)
