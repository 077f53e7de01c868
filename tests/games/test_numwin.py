"""Num Win: the rule book's table and FAQ, the +20 call, rounds, tie-breaks, teams."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.games import GAMES, ScoringError
from scoring.games.cards import Card
from scoring.games.numwin import hand_points
from tests.fuzzing import examples

GAME = GAMES["numwin"]
EMOJI = {"🔴": "red", "🔵": "blue", "🟢": "green", "🟡": "yellow", "🌈": "rainbow", "🌑": "shadow"}


def hand(text):
    """Return card dicts from text such as "🌈5 🌑8 ∞ A" (A = an action card)."""
    cards = []
    for token in text.split():
        if token == "∞":
            cards.append({"kind": "infini"})
        elif token == "A":
            cards.append({"kind": "action", "name": "block"})
        elif token[0] in EMOJI:
            cards.append({"kind": EMOJI[token[0]], "value": int(token[1:])})
        else:
            cards.append({"kind": EMOJI[token[-1]], "value": int(token[:-1])})
    return cards


def points_of(text):
    result = GAME.score(["A", "B"], {"rounds": 1}, [{"entries": {"A": {"cards": hand(text)}, "B": {"cards": []}}}])
    return result["rounds"][0]["points"]["A"]


def errors(players, options, rounds):
    with pytest.raises(ScoringError) as info:
        GAME.score(players, options, rounds)
    return info.value


def typed(points, declarer=None):
    rnd = {"entries": {p: {"points": n} for p, n in points.items()}}
    if declarer is not None:
        rnd["declarer"] = declarer
    return rnd


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("🌑10 🌈10", 0),
        ("🌈5 🌑8", 13),
        ("∞ A 0🔴 0🔵 0🟢", 20),
        ("∞ ∞", 40),
        ("∞ 🌈12", 32),
        ("🌈10 🌈2", 12),
        ("🌈5 5🟢", 10),
        ("🌈3 🌑10", 13),
        ("🌈12 A", 12),
        ("🌈7", 0),
    ],
)
def test_it_scores_every_worked_example(text, expected):
    assert points_of(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("∞", -10),
        ("∞ 3🔴 🌑4", -3),
        ("∞ ∞ ∞", 40),
        ("🌑10 🌈10 🌈4", 0),  # neutralised cards activate nothing
        ("🌑10 🌈10 ∞", -10),  # ... nor trap an Infini
        ("7🔴 7🔵 7🟢 A A", 21),
        ("🌈6 6🔴 🌈9", 6 + 6 + 9),
    ],
)
def test_it_scores_more_hands(text, expected):
    assert points_of(text) == expected


def test_it_explains_a_trapped_infini():
    result = GAME.score(["A", "B"], {"rounds": 1}, [{"entries": {"A": {"cards": hand("∞ 🌈12")}, "B": {"cards": []}}}])
    rules = [(d["rule"], d["points"]) for d in result["rounds"][0]["details"]["A"]]
    assert rules == [("rainbow_active", 12), ("infini_trap", 20)]


@pytest.mark.parametrize(
    ("hands", "declarer", "expected"),
    [
        ({"A": 5, "B": 3}, "A", {"A": 25, "B": 3}),  # failed call: +20
        ({"A": 3, "B": 5}, "A", {"A": 3, "B": 5}),
        ({"A": 4, "B": 4}, "A", {"A": 4, "B": 4}),  # a tie for the lowest is not a failure
        ({"A": 5, "B": 3}, None, {"A": 5, "B": 3}),  # nobody called
    ],
)
def test_it_charges_a_failed_num_win(hands, declarer, expected):
    result = GAME.score(["A", "B"], {"rounds": 1}, [typed(hands, declarer)])
    assert result["rounds"][0]["points"] == expected
    assert result["rounds"][0]["declarer"] == declarer


def test_it_plays_one_round_per_player_by_default():
    players = ["A", "B", "C"]
    assert GAME.normalize_options(players, {})["rounds"] == 3
    rounds = [typed({"A": 1, "B": 2, "C": 3})] * 2
    going = GAME.score(players, {}, rounds)
    assert going["finished"] is False
    assert going["next_round"] == {"number": 3, "cards": None, "tiebreak": False, "players": players}
    done = GAME.score(players, {}, [*rounds, typed({"A": 1, "B": 2, "C": 3})])
    assert done["finished"] is True
    assert done["winners"] == ["A"]
    assert done["totals"] == {"A": 3, "B": 6, "C": 9}


def test_it_opens_a_tiebreak_for_the_tied_players_only():
    players = ["A", "B", "C"]
    rounds = [typed({"A": 5, "B": 5, "C": 9}), typed({"A": 0, "B": 0, "C": 9}), typed({"A": 1, "B": 1, "C": 0})]
    tied = GAME.score(players, {}, rounds)
    assert tied["finished"] is False
    assert tied["winners"] == ["A", "B"]
    assert tied["next_round"] == {"number": 4, "cards": None, "tiebreak": True, "players": ["A", "B"]}
    again = GAME.score(players, {}, [*rounds, typed({"A": 3, "B": 3})])
    assert again["finished"] is False
    assert again["next_round"]["players"] == ["A", "B"]
    done = GAME.score(players, {}, [*rounds, typed({"A": 3, "B": 3}), typed({"A": 9, "B": 2})])
    assert done["finished"] is True
    assert done["winners"] == ["B"]
    # Tie-break hands decide the winner; they are not added to the totals.
    assert done["totals"] == {"A": 6, "B": 6, "C": 18}
    assert done["rounds"][-1]["tiebreak"] is True
    assert done["rounds"][-1]["points"] == {"A": 9, "B": 2}


def test_it_refuses_non_tied_players_in_a_tiebreak():
    rounds = [typed({"A": 5, "B": 5, "C": 9})] * 3
    err = errors(["A", "B", "C"], {}, [*rounds, typed({"A": 1, "B": 2, "C": 0}, declarer="C")])
    found = {m["path"]: m["message"] for m in err.messages()}
    assert found["rounds[3].entries.C"] == "C ne joue pas la manche de départage."
    assert found["rounds[3].declarer"] == "C ne joue pas la manche de départage."
    assert "C does not play" in err.messages("en")[0]["message"]


def test_it_refuses_rounds_after_the_end():
    err = errors(["A", "B"], {"rounds": 1}, [typed({"A": 1, "B": 2}), typed({"A": 1, "B": 2})])
    assert [e.path for e in err.errors] == ["rounds"]


def test_it_sums_teams_and_charges_the_whole_team():
    players = ["A", "B", "C", "D"]
    teams = {"Nord": ["A", "B"], "Sud": ["C", "D"]}
    rnd = typed({"A": 6, "B": 1, "C": 2, "D": 2}, declarer="A")
    result = GAME.score(players, {"teams": teams, "rounds": 1}, [rnd])
    assert result["rounds"][0]["points"] == {"A": 26, "B": 1, "C": 2, "D": 2}
    assert result["rounds"][0]["teams"] == {"Nord": 27, "Sud": 4}
    assert result["teams"]["Nord"] == {"members": ["A", "B"], "total": 27}
    assert result["winners"] == ["Sud"]


def test_it_plays_teams_two_against_two():
    err = errors(["A", "B", "C"], {"teams": {"X": ["A", "B", "C"]}}, [])
    assert {e.path for e in err.errors} == {"options.teams.X", "options.teams"}


def test_it_refuses_the_joker_and_the_numx_card():
    rnd = {"entries": {"A": {"cards": [{"kind": "joker"}]}, "B": {"cards": [{"kind": "numx"}]}}}
    err = errors(["A", "B"], {}, [rnd])
    assert err.messages("fr")[0] == {
        "path": "rounds[0].entries.A.cards[0]",
        "code": "card_not_in_game",
        "message": "Le joker n'existe pas dans Num Win.",
    }
    assert err.messages("en")[0]["message"] == "The joker does not exist in Num Win."
    assert "Num-X" in err.messages("fr")[1]["message"]


def test_it_allows_discard_errors_up_to_a_bound():
    values = list(range(15))
    cards = [{"kind": "red", "value": v} for v in values]
    ok = GAME.score(["A", "B"], {"rounds": 1}, [{"entries": {"A": {"cards": cards}, "B": {"cards": []}}}])
    assert ok["totals"]["A"] == sum(values)
    cards.append({"kind": "blue", "value": 0})
    err = errors(["A", "B"], {"rounds": 1}, [{"entries": {"A": {"cards": cards}, "B": {"cards": []}}}])
    assert err.errors[0].path == "rounds[0].entries.A.cards"
    assert "16" in err.messages()[0]["message"]
    entries = {"A": {"cards": cards[:15]}, "B": {"cards": []}}
    speed = errors(["A", "B"], {"mode": "speedwin", "rounds": 1}, [{"entries": entries}])
    assert speed.errors[0].path == "rounds[0].entries.A.cards"


def test_it_refuses_an_unknown_declarer():
    err = errors(["A", "B"], {}, [typed({"A": 1, "B": 2}, declarer="Bob")])
    assert err.messages()[0] == {
        "path": "rounds[0].declarer",
        "code": "unknown_player",
        "message": "Joueur inconnu : Bob.",
    }
    assert errors(["A", "B"], {}, [typed({"A": 1, "B": 2}, declarer=3)]).errors[0].path == "rounds[0].declarer"


def test_it_refuses_a_bad_rounds_option():
    err = errors(["A", "B"], {"rounds": 0}, [])
    assert err.messages()[0]["message"] == "Valeur hors limites : 0 (1 à 20)."


NUMERIC = st.builds(
    Card,
    st.sampled_from(["red", "blue", "green", "yellow", "rainbow", "shadow"]),
    st.integers(0, 16),
)
HANDS = st.lists(
    st.one_of(
        NUMERIC, st.builds(Card, st.just("infini")), st.builds(Card, st.just("action"), st.none(), st.just("flip"))
    ),
    max_size=12,
    unique_by=lambda c: (c.kind, c.value) if c.value is not None else id(c),
)


@settings(max_examples=examples(150), deadline=None)
@given(HANDS, st.randoms(use_true_random=False))
def test_it_ignores_card_order(cards, rnd):
    shuffled = list(cards)
    rnd.shuffle(shuffled)
    assert hand_points(cards) == hand_points(shuffled)
    points, details = hand_points(cards)
    assert points == sum(d["points"] for d in details)


@settings(max_examples=examples(100), deadline=None)
@given(st.permutations(["A", "B", "C"]), st.lists(st.integers(-10, 60), min_size=3, max_size=3))
def test_it_ignores_player_order(order, points):
    rnd = typed(dict(zip(["A", "B", "C"], points)), declarer="B")
    base = GAME.score(["A", "B", "C"], {"rounds": 1}, [rnd])
    other = GAME.score(list(order), {"rounds": 1}, [rnd])
    assert base["totals"] == other["totals"]
    assert set(base["winners"]) == set(other["winners"])


def test_a_null_rounds_option_plays_one_round_per_player():
    # null counts as no option (docs/api.md): it used to reach the scoring as None, a 500.
    result = GAME.score(["A", "B", "C"], {"rounds": None}, [])
    assert result["options"]["rounds"] == 3
    assert result["next_round"]["number"] == 1
