"""Num-X score cards: every worked example of scoring.md, modes, teams, properties."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.games import GAMES, ScoringError
from scoring.games.cards import Card
from scoring.games.numx import score_family, score_full
from tests.fuzzing import examples

GAME = GAMES["numx"]
EMOJI = {"🔴": "red", "🔵": "blue", "🟢": "green", "🟡": "yellow", "🌈": "rainbow", "🌑": "shadow"}


def hand(text):
    """Return card dicts from a compact text such as "7🔴 7🌈"."""
    cards = []
    for token in text.split():
        for emoji, kind in EMOJI.items():
            if token.endswith(emoji):
                cards.append({"kind": kind, "value": int(token[: -len(emoji)])})
                break
        else:
            raise ValueError(token)
    return cards


def one_round(entries, options=None, players=None):
    players = players or list(entries)
    return GAME.score(players, options or {}, [{"entries": entries}])


def points_of(text, options=None):
    result = one_round({"Elya": {"cards": hand(text)}, "Sasha": {"cards": []}}, options)
    return result["rounds"][0]["points"]["Elya"]


def errors(players, options, rounds):
    with pytest.raises(ScoringError) as info:
        GAME.score(players, options, rounds)
    return info.value


EXAMPLES = [
    ("10🌈 10🌑 10🔵", 10),
    ("7🔴 7🌈", 14),
    ("5🔵 5🟡 5🌈", 15),
    ("12🔵 12🔴 12🟢", 36),
    ("8🔵 8🔴 8🟢 8🟡", 32),
    ("9🔵 9🔴", 0),
    ("14🔵 14🟡 16🌈", 16),
    ("16🔵 13🔵 5🔵", 5),
    ("12🔵 8🔵 12🔴", 8),
    ("12🔵 12🔴 12🟢 12🟡 12🌈", 100),
    ("9🔵 9🔴 9🟢 9🌈 9🌑", 100),
    ("3🔵 3🔴 3🌑", 6),
    ("6🔵 6🌈 5🌈 7🌑 3🌑 1🟢 13🟢 5🔵 16🔵 3🟢 7🟡 3🔵 7🔴 7🌈 5🟡", 50),
]


@pytest.mark.parametrize(("text", "expected"), EXAMPLES)
def test_it_scores_every_worked_example(text, expected):
    assert points_of(text) == expected


def test_it_explains_elya_rule_by_rule():
    result = one_round({"Elya": {"cards": hand(EXAMPLES[-1][0])}, "Sasha": {"cards": []}})
    details = result["rounds"][0]["details"]["Elya"]
    by_rule = {}
    for item in details:
        by_rule.setdefault(item["rule"], []).append(item["points"])
    assert by_rule == {
        "combo": [6],
        "rainbow": [15, 12],
        "cancel": [0],
        "pair": [0],
        "single": [16],
        "same_colour_kept": [1],
        "same_colour_dropped": [0],
    }
    assert sum(item["points"] for item in details) == 50
    assert "7🔴 7🟡: paire annulée → 0" in [item["text"] for item in details]


def test_it_gives_the_six_card_xtrem_its_leftover_rainbow():
    assert points_of("4🔴 4🔵 4🟢 4🟡 4🌈 4🌑") == 104


def test_it_scores_xtrem_with_four_classics_and_a_shadow():
    assert points_of("7🔵 7🔴 7🟢 7🟡 7🌑") == 100


def test_it_scores_a_lone_rainbow_and_a_lone_shadow():
    assert points_of("11🌈") == 11
    assert points_of("11🌑") == 0
    assert points_of("11🌑 11🔴") == 11  # the classic is a single of its colour


def test_it_ignores_non_numeric_cards():
    cards = hand("7🔴 7🌈") + [
        {"kind": "joker"},
        {"kind": "infini"},
        {"kind": "numx"},
        {"kind": "action", "name": "block"},
        {"kind": "action", "name": "malus"},
    ]
    result = one_round({"Elya": {"cards": cards}, "Sasha": {"cards": []}})
    assert result["rounds"][0]["points"]["Elya"] == 14
    assert result["rounds"][0]["details"]["Elya"][-1]["rule"] == "non_numeric"


def test_it_ignores_visibility():
    cards = [dict(c, visible=i % 2 == 0) for i, c in enumerate(hand("5🔵 5🟡 5🌈"))]
    assert one_round({"Elya": {"cards": cards}, "Sasha": {"cards": []}})["totals"]["Elya"] == 15


def test_it_plays_speedrun_in_one_round():
    result = one_round({"Elya": {"cards": hand("7🔴 7🌈")}, "Sasha": {"cards": hand("9🔵")}})
    assert result["finished"] is True
    assert result["next_round"] is None
    assert result["winners"] == ["Elya"]
    assert result["totals"] == {"Elya": 14, "Sasha": 9}
    assert result["bonuses"] == {"Elya": 0, "Sasha": 0}
    assert result["options"] == {"mode": "speedrun", "same_colour": False, "teams": None}


def test_it_adds_the_two_xgame_rounds():
    players = ["Elya", "Sasha"]
    first = {"entries": {"Elya": {"cards": hand("7🔴 7🌈")}, "Sasha": {"cards": hand("12🔵 12🔴 12🟢")}}}
    second = {"entries": {"Elya": {"cards": hand("7🔴 7🌈 16🟢")}, "Sasha": {"points": 0}}}
    halfway = GAME.score(players, {"mode": "xgame"}, [first])
    assert halfway["finished"] is False
    assert halfway["winners"] == ["Sasha"]
    assert halfway["next_round"] == {"number": 2, "cards": None, "tiebreak": False, "players": players}
    result = GAME.score(players, {"mode": "xgame"}, [first, second])
    assert result["totals"] == {"Elya": 14 + 30, "Sasha": 36}
    assert result["finished"] is True
    assert result["winners"] == ["Elya"]


def test_it_has_no_leader_before_the_first_round():
    result = GAME.score(["Elya", "Sasha"], {}, [])
    assert result["winners"] == []
    assert result["finished"] is False
    assert result["next_round"]["number"] == 1


def test_it_shares_the_win_on_equal_totals():
    result = one_round({"Elya": {"cards": hand("7🔴")}, "Sasha": {"cards": hand("7🔵")}})
    assert result["winners"] == ["Elya", "Sasha"]


def test_it_refuses_a_second_speedrun_round():
    entries = {"Elya": {"points": 1}, "Sasha": {"points": 2}}
    err = errors(["Elya", "Sasha"], {}, [{"entries": entries}, {"entries": entries}])
    assert [e.path for e in err.errors] == ["rounds"]


@pytest.mark.parametrize(
    ("text", "same_colour", "expected"),
    [
        ("9🔵 9🔴", False, 0),
        ("4🔵 4🔴 4🌈", False, 12),  # rainbow is an ordinary colour: a triplet, no bonus
        ("10🌈 10🌑 10🔵", False, 30),  # no cancelling
        ("12🔵 12🔴 12🟢 12🟡 12🌈", False, 60),  # no X-Trem
        ("16🔵 13🔵 5🔵", False, 34),  # no same-colour rule by default
        ("16🔵 13🔵 5🔵", True, 5),
        ("16🌈 3🌈 5🔵", True, 8),  # rainbow counts as its own colour
        ("7🔵 7🔴 16🔵 2🔵", True, 2),
        ("11🌑", False, 11),
    ],
)
def test_it_scores_family_pairs_and_sets_only(text, same_colour, expected):
    assert points_of(text, {"mode": "family", "same_colour": same_colour}) == expected


def test_it_refuses_action_cards_in_family():
    cards = [{"kind": "action", "name": "block"}]
    err = errors(["A", "B"], {"mode": "family"}, [{"entries": {"A": {"cards": cards}, "B": {"cards": []}}}])
    assert err.errors[0].path == "rounds[0].entries.A.cards[0]"
    assert "Block" in err.messages("fr")[0]["message"]


def test_it_accepts_same_colour_outside_family_without_effect():
    assert points_of("16🔵 13🔵 5🔵", {"same_colour": False}) == 5


def test_it_scores_a_team_on_the_union_of_its_cards():
    players = ["Elya", "Sasha", "Mendy", "Luka"]
    teams = {"Rouges": ["Elya", "Sasha"], "Bleus": ["Mendy", "Luka"]}
    entries = {
        "Elya": {"cards": hand("7🔴 9🔵")},  # 7 + 9 = 16 alone
        "Sasha": {"cards": hand("7🔵 7🌈")},  # 14 alone; with Elya: 7×3 = 21 and 9 → 30
        "Mendy": {"cards": hand("10🌈")},  # 10 alone
        "Luka": {"cards": hand("10🌑 2🟡")},  # 2 alone; together the shadow cancels → 2
    }
    result = GAME.score(players, {"teams": teams}, [{"entries": entries}])
    assert result["rounds"][0]["points"] == {"Elya": 16, "Sasha": 14, "Mendy": 10, "Luka": 2}
    assert result["rounds"][0]["teams"] == {"Rouges": 30, "Bleus": 2}
    assert result["teams"] == {
        "Rouges": {"members": ["Elya", "Sasha"], "total": 30},
        "Bleus": {"members": ["Mendy", "Luka"], "total": 2},
    }
    assert result["winners"] == ["Rouges"]


def test_it_adds_typed_points_to_a_team_union():
    teams = {"A": ["a1", "a2"], "B": ["b1", "b2"]}
    entries = {
        "a1": {"cards": hand("7🔴")},
        "a2": {"points": 5},
        "b1": {"cards": []},
        "b2": {"cards": []},
    }
    result = GAME.score(["a1", "a2", "b1", "b2"], {"teams": teams}, [{"entries": entries}])
    assert result["rounds"][0]["teams"] == {"A": 12, "B": 0}


def test_it_keeps_typed_points_and_says_so():
    result = one_round({"Elya": {"points": 42}, "Sasha": {"cards": []}})
    item = result["rounds"][0]["details"]["Elya"]
    assert item == [{"rule": "typed", "cards": [], "points": 42, "text": "Points saisis à la main : 42"}]
    en = GAME.score(["Elya", "Sasha"], {}, [{"entries": {"Elya": {"points": 42}, "Sasha": {"cards": []}}}], "en")
    assert "typed by hand" in en["rounds"][0]["details"]["Elya"][0]["text"]


# --- validation ---------------------------------------------------------------------


def test_it_refuses_a_card_given_twice_across_hands():
    entries = {"Elya": {"cards": hand("7🔵")}, "Sasha": {"cards": hand("3🔴 7🔵")}}
    err = errors(["Elya", "Sasha"], {}, [{"entries": entries}])
    assert [e.path for e in err.errors] == ["rounds[0].entries.Sasha.cards[1]"]
    assert err.messages("fr")[0]["message"] == "Carte donnée deux fois : 7 bleu (aussi chez Elya)."
    assert err.messages("en")[0]["message"] == "Card given twice: blue 7 (also held by Elya)."


def test_it_refuses_a_card_given_twice_in_one_hand():
    err = errors(["A", "B"], {}, [{"entries": {"A": {"cards": hand("10🌈 10🌈")}, "B": {"cards": []}}}])
    assert err.errors[0].path == "rounds[0].entries.A.cards[1]"
    assert "10 🌈" in err.messages()[0]["message"]


def test_it_refuses_more_specials_than_the_deck_holds():
    cards = [{"kind": "numx"}]
    entries = {"A": {"cards": cards}, "B": {"cards": [{"kind": "numx"}]}}
    err = errors(["A", "B"], {}, [{"entries": entries}])
    assert err.errors[0].path == "rounds[0].entries.B.cards[0]"
    assert "Num-X" in err.messages("fr")[0]["message"]
    assert "(the deck has 1)" in err.messages("en")[0]["message"]


def test_it_refuses_a_sixth_malus():
    cards = [{"kind": "action", "name": "malus"}] * 6
    err = errors(["A", "B"], {}, [{"entries": {"A": {"cards": cards}, "B": {"cards": []}}}])
    assert err.errors[0].code == "too_many_copies"
    assert "Malus" in err.messages()[0]["message"]


def test_it_refuses_bad_values_kinds_and_fields():
    cards = [
        {"kind": "blue", "value": 17},
        {"kind": "purple", "value": 3},
        {"kind": "red"},
        {"kind": "action", "name": "teleport"},
        {"kind": "red", "value": 2, "colour": "x"},
        {"kind": "green", "value": 1, "visible": "yes"},
        "7 bleu",
    ]
    err = errors(["A", "B"], {}, [{"entries": {"A": {"cards": cards}, "B": {"cards": []}}}])
    found = {m["path"]: m["message"] for m in err.messages()}
    base = "rounds[0].entries.A.cards"
    assert found[f"{base}[0].value"] == "Valeur hors limites : 17 (0 à 16)."
    assert "purple" in found[f"{base}[1].kind"]
    assert f"{base}[2].value" in found
    assert "teleport" in found[f"{base}[3].name"]
    assert "colour" in found[f"{base}[4].colour"]
    assert f"{base}[5].visible" in found
    assert "7 bleu" in found[f"{base}[6]"]
    assert "Value out of range: 17 (0 to 16)." in [m["message"] for m in err.messages("en")]


def test_it_refuses_unknown_and_missing_players():
    entries = {"Elya": {"cards": []}, "Bob": {"cards": []}}
    err = errors(["Elya", "Mendy"], {}, [{"entries": entries}])
    found = {m["path"]: m["message"] for m in err.messages()}
    assert found["rounds[0].entries.Bob"] == "Joueur inconnu : Bob."
    assert found["rounds[0].entries.Mendy"] == "Il manque la saisie de Mendy."
    en = {m["path"]: m["message"] for m in err.messages("en")}
    assert en["rounds[0].entries.Bob"] == "Unknown player: Bob."
    assert "Mendy" in en["rounds[0].entries.Mendy"]


def test_it_refuses_bad_player_lists():
    err = errors(["Elya", " elya ", "", "x" * 41], {}, [])
    paths = [e.path for e in err.errors]
    assert paths == ["players[1]", "players[2]", "players[3]"]
    assert "elya" in err.messages()[0]["message"]
    assert errors(["Solo"], {}, []).errors[0].path == "players"
    assert errors([f"P{i}" for i in range(9)], {}, []).errors[0].path == "players"
    assert errors("Elya, Sasha", {}, []).errors[0].path == "players"


def test_it_refuses_unknown_modes_and_options():
    err = errors(["A", "B"], {"mode": "turbo", "speed": 3, "same_colour": "oui"}, [])
    found = {m["path"]: m["message"] for m in err.messages()}
    assert found["options.mode"] == "Mode inconnu : turbo (speedrun, xgame, family)."
    assert "speed" in found["options.speed"]
    assert "oui" in found["options.same_colour"]
    en = {m["path"]: m["message"] for m in err.messages("en")}
    assert en["options.mode"] == "Unknown mode: turbo (speedrun, xgame, family)."


def test_it_refuses_broken_teams():
    players = ["A", "B", "C", "D", "E"]
    teams = {"T1": ["A", "B", "Z"], "T2": ["C", "A"], "T3": ["D"]}
    err = errors(players, {"teams": teams}, [])
    found = {m["path"]: m["message"] for m in err.messages()}
    assert found["options.teams.T1[2]"] == "Joueur inconnu : Z."
    assert "A" in found["options.teams.T2[1]"]
    assert "T3" in found["options.teams.T3"]
    assert any("E" in m["message"] and m["path"] == "options.teams" for m in err.messages())


def test_it_refuses_entries_with_both_cards_and_points():
    entries = {"A": {"cards": [], "points": 3}, "B": {}, "C": {"points": 2000}}
    err = errors(["A", "B", "C"], {}, [{"entries": entries}])
    found = {m["path"]: m["message"] for m in err.messages()}
    assert "A" in found["rounds[0].entries.A"]
    assert "B" in found["rounds[0].entries.B"]
    assert found["rounds[0].entries.C.points"] == "Valeur hors limites : 2000 (-1000 à 1000)."


def test_it_describes_itself():
    entry = GAME.describe("en")
    assert entry["slug"] == "numx"
    assert entry["players"] == {"min": 2, "max": 8}
    assert entry["wins"] == "highest"
    assert entry["entry"] == "cards"
    assert [m["slug"] for m in entry["modes"]] == ["speedrun", "xgame", "family"]
    assert entry["options"]["mode"]["default"] == "speedrun"
    assert entry["options"]["same_colour"]["type"] == "bool"
    assert "joker" in entry["cards"]["kinds"]
    assert set(entry["cards"]["actions"]) == {"block", "flip", "swipe", "eclair", "quantique", "malus"}


def test_it_normalizes_options():
    assert GAME.normalize_options(["A", "B"], {"mode": "family"}) == {
        "mode": "family",
        "same_colour": False,
        "teams": None,
    }
    with pytest.raises(ScoringError):
        GAME.normalize_options(["A", "B"], {"mode": "nope"})


# --- properties -----------------------------------------------------------------------

NUMERIC = st.builds(
    Card,
    st.sampled_from(["red", "blue", "green", "yellow", "rainbow", "shadow"]),
    st.integers(0, 16),
)
HANDS = st.lists(NUMERIC, max_size=30, unique_by=lambda c: (c.kind, c.value))
EXTRAS = st.lists(
    st.sampled_from(
        [Card("joker"), Card("infini"), Card("numx"), Card("action", None, "block"), Card("action", None, "flip")]
    ),
    max_size=5,
)


@settings(max_examples=examples(150), deadline=None)
@given(HANDS, st.randoms(use_true_random=False))
def test_it_ignores_card_order(cards, rnd):
    shuffled = list(cards)
    rnd.shuffle(shuffled)
    assert score_full(cards) == score_full(shuffled)
    assert score_family(cards, True) == score_family(shuffled, True)


@settings(max_examples=examples(150), deadline=None)
@given(HANDS, EXTRAS)
def test_it_gives_non_numeric_cards_no_effect(cards, extras):
    assert score_full(cards + extras)[0] == score_full(cards)[0]
    assert score_family(cards + extras)[0] == score_family(cards)[0]


@settings(max_examples=examples(150), deadline=None)
@given(HANDS)
def test_it_explains_every_point(cards):
    points, details = score_full(cards)
    assert points == sum(item["points"] for item in details)
    assert sorted(id(c) for item in details for c in item["cards"]) == sorted(id(c.raw) for c in cards)


@settings(max_examples=examples(100), deadline=None)
@given(HANDS, st.integers(0, 30))
def test_it_scores_a_team_as_the_union(cards, cut):
    left = [c.raw for c in cards[:cut]]
    right = [c.raw for c in cards[cut:]]
    players = ["A", "B", "C", "D"]
    teams = {"AB": ["A", "B"], "CD": ["C", "D"]}
    entries = {"A": {"cards": left}, "B": {"cards": right}, "C": {"cards": []}, "D": {"cards": []}}
    result = GAME.score(players, {"teams": teams}, [{"entries": entries}])
    assert result["teams"]["AB"]["total"] == score_full(cards)[0]


@settings(max_examples=examples(100), deadline=None)
@given(st.permutations(["Elya", "Sasha", "Mendy"]), HANDS)
def test_it_ignores_player_order(order, cards):
    thirds = [cards[0::3], cards[1::3], cards[2::3]]
    entries = {name: {"cards": [c.raw for c in part]} for name, part in zip(["Elya", "Sasha", "Mendy"], thirds)}
    base = GAME.score(["Elya", "Sasha", "Mendy"], {}, [{"entries": entries}])
    other = GAME.score(list(order), {}, [{"entries": entries}])
    assert base["totals"] == other["totals"]
    assert set(base["winners"]) == set(other["winners"])
