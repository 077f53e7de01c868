"""Num King's referee: who takes a trick (spec scoring.md, « Who takes the trick »): its examples, its
decisions, its refusals, and properties over random legal tricks."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.games import GAMES, ScoringError
from scoring.games.numking import resolve_trick
from tests.fuzzing import examples

GAME = GAMES["numking"]
ABCD = ["A", "B", "C", "D"]
SEVEN = ["A", "B", "C", "D", "E", "F", "G"]


def R(value):
    return {"kind": "rainbow", "value": value}


def S(value):
    return {"kind": "shadow", "value": value}


def F(value):
    return {"kind": "family", "value": value}


def X(declared):
    return {"kind": "numx", "as": declared}


FLASH = {"kind": "action", "name": "flash"}
FLIP = {"kind": "action", "name": "flip"}
QUANTIQUE = {"kind": "action", "name": "quantique"}


def plays(cards, order=None):
    """Return the plays of ``cards``, played by ``order`` (A, B, C… by default) in that order."""
    order = order or [chr(ord("A") + i) for i in range(len(cards))]
    return [{"player": p, "card": c} for p, c in zip(order, cards)]


def trick(cards, players=None, options=None, order=None, played=None, lang="fr"):
    players = players or [chr(ord("A") + i) for i in range(len(cards))]
    return resolve_trick(players, options or {}, plays(cards, order or players), played, lang)


def refused(players, plays_, options=None, played=None):
    with pytest.raises(ScoringError) as info:
        resolve_trick(players, options or {}, plays_, played)
    return info.value


def outcome(result):
    return (result["winner"], result["leads_next"], result["active"], result["cancelled"], result["valid"])


# --- every example of the spec (4 players, A B C D in playing order) ---------------------------


@pytest.mark.parametrize(
    ("cards", "expected"),
    [
        pytest.param([R(9), S(4), R(12), S(12)], ("A", "A", None, ["C", "D"], ["A", "B"]), id="pair-cancelled"),
        pytest.param([R(9), FLIP, S(4), R(2)], ("D", "D", "flip", [], ["A", "C", "D"]), id="flip-lowest"),
        pytest.param([R(9), FLIP, S(4), X(17)], ("D", "D", "numx", [], ["A", "C", "D"]), id="numx-after-flip"),
        pytest.param([R(9), FLASH, S(4), R(2)], (None, "A", "flash", [], ["A", "C", "D"]), id="flash-no-winner"),
        pytest.param(
            [R(5), S(5), FLASH, FLIP], (None, "A", "flip", ["A", "B"], []), id="flip-after-flash-all-cancelled"
        ),
        pytest.param([R(7), S(8), QUANTIQUE, R(3)], ("B", "B", "quantique", [], ["A", "B", "D"]), id="quantique-even"),
        pytest.param([R(7), S(9), QUANTIQUE, R(3)], ("B", "B", "quantique", [], ["A", "B", "D"]), id="quantique-void"),
        pytest.param([X(0), FLIP, R(4), S(6)], ("A", "A", "flip", [], ["A", "C", "D"]), id="flip-numx-zero"),
    ],
)
def test_it_resolves_each_example_of_the_spec(cards, expected):
    assert outcome(trick(cards, ABCD)) == expected


def test_it_explains_each_step_in_french_and_english():
    fr = trick([R(5), S(5), FLASH, FLIP], ABCD)["details"]
    assert fr == [
        "Rainbow 5 et Shadow 5 s'annulent",
        "Flip joué après Flash : la plus petite carte valide gagne",
        "Aucune carte valide ne reste",
        "Personne ne remporte le pli",
        "A commence le pli suivant : Rainbow 5 et Shadow 5 sont à égalité, les plus hautes hors Flash, "
        "et Rainbow 5 a été jouée en premier",
    ]
    en = trick([R(9), S(4), R(12), S(12)], ABCD, lang="en")["details"]
    assert en == [
        "Rainbow 12 and Shadow 12 cancel each other out",
        "No action card: the highest valid card wins",
        "Valid cards: Rainbow 9 and Shadow 4",
        "A takes the trick with Rainbow 9",
        "A leads the next trick",
    ]
    assert trick([R(9), FLASH, S(4), R(2)], ABCD)["details"][-1] == (
        "A commence le pli suivant : Rainbow 9 est la plus haute carte hors Flash"
    )
    assert trick([R(9), FLIP, S(4), X(17)], ABCD, lang="en")["details"][1] == (
        "⚡ Num-X 17 played after Flip: the highest valid card wins"
    )
    assert trick([R(7), S(9), QUANTIQUE, R(3)], ABCD)["details"][1:4] == [
        "Quantique : 4 joueurs, la plus haute carte valide paire gagne",
        "Cartes valides : Rainbow 7, Shadow 9 et Rainbow 3",
        "Aucune carte valide paire : Quantique est sans effet, la plus haute carte valide gagne",
    ]


# --- the decisions ---------------------------------------------------------------------------


def test_three_cards_of_one_value_all_cancel_with_the_extra_family():
    result = trick([R(12), S(12), F(12), R(3), S(5), F(1), X(0)], SEVEN, {"extra_family": True})
    assert outcome(result) == ("E", "E", "numx", ["A", "B", "C"], ["D", "E", "F", "G"])
    assert result["details"][0] == "Rainbow 12, Shadow 12 et Famille 12 s'annulent"


def test_the_extra_family_cancels_with_rainbow_or_shadow_alone():
    result = trick([F(9), R(9), S(2), R(4), S(6), F(1), R(8)], SEVEN, {"extra_family": True})
    assert result["cancelled"] == ["A", "B"]
    assert result["winner"] == "G"  # R8, the highest left; 7 players (odd) only matters to Quantique


def test_several_values_cancel_at_once():
    result = trick([R(3), S(7), S(3), R(7), R(9)], ["A", "B", "C", "D", "E"])
    assert outcome(result) == ("E", "E", None, ["A", "B", "C", "D"], ["E"])
    assert result["details"][:2] == ["Rainbow 3 et Shadow 3 s'annulent", "Shadow 7 et Rainbow 7 s'annulent"]


def test_num_x_never_cancels():
    result = trick([X(17), R(16), S(16)], ["A", "B", "C"])
    assert outcome(result) == ("A", "A", "numx", ["B", "C"], ["A"])


def test_quantique_parity_follows_the_players_of_the_game():
    # 3 players: odd, the highest odd valid card wins even when an even one is higher.
    assert trick([R(7), S(8), QUANTIQUE], ["A", "B", "C"])["winner"] == "A"
    # A Num-X counts at its declared value: 17 is odd, 0 even.
    assert trick([X(17), S(15), QUANTIQUE], ["A", "B", "C"])["winner"] == "A"
    assert trick([X(0), S(15), QUANTIQUE, R(3)], ABCD)["winner"] == "A"


def test_quantique_without_a_card_of_its_parity_has_no_effect():
    result = trick([R(8), QUANTIQUE, S(6)], ["A", "B", "C"])  # odd: no odd card
    assert (result["winner"], result["active"]) == ("A", "quantique")
    assert "Aucune carte valide impaire" in result["details"][3]
    en = trick([R(8), QUANTIQUE, S(6)], ["A", "B", "C"], lang="en")
    assert "No valid odd card: Quantique has no effect" in en["details"][3]


def test_flash_is_overridden_by_a_later_action():
    assert outcome(trick([FLASH, R(9), QUANTIQUE, S(4)], ABCD)) == ("D", "D", "quantique", [], ["B", "D"])
    assert outcome(trick([FLASH, R(9), X(0), S(4)], ABCD)) == ("B", "B", "numx", [], ["B", "C", "D"])
    assert outcome(trick([R(9), FLASH, S(4), FLIP], ABCD)) == ("C", "C", "flip", [], ["A", "C"])


def test_flash_played_last_wins_over_the_earlier_actions():
    result = trick([FLIP, R(9), QUANTIQUE, FLASH, S(4)], ["A", "B", "C", "D", "E"])
    assert outcome(result) == (None, "B", "flash", [], ["B", "E"])
    assert result["details"][1] == "Flash joué après Flip et Quantique : le pli est annulé, personne ne le remporte"


def test_num_x_after_flip_replaces_it_whatever_it_declares():
    # Num-X 0 played after Flip: no Flip, the highest valid card wins (not the Num-X).
    assert outcome(trick([R(9), FLIP, S(4), X(0)], ABCD)) == ("A", "A", "numx", [], ["A", "C", "D"])


def test_flip_after_num_x_makes_the_lowest_win():
    assert trick([X(17), FLIP, R(4), S(6)], ABCD)["winner"] == "C"


def test_a_single_valid_card_wins_under_flip():
    assert outcome(trick([R(5), S(5), FLIP, R(12)], ABCD)) == ("D", "D", "flip", ["A", "B"], ["D"])


def test_a_trick_without_a_winner_is_led_by_the_highest_card_other_than_flash_cancelled_included():
    # Flip is in force, yet the next leader is the highest value (the cancelled 10s), not the lowest.
    result = trick([R(3), R(10), S(10), FLIP, FLASH], ["A", "B", "C", "D", "E"])
    assert outcome(result) == (None, "B", "flash", ["B", "C"], ["A"])


def test_a_tie_of_cancelled_cards_for_the_next_leader_goes_to_the_one_played_first():
    # Played by C, D, A, B (C leads): the 10s tie and D's was played before A's.
    result = trick([R(2), S(10), R(10), FLASH], ABCD, order=["C", "D", "A", "B"])
    assert outcome(result) == (None, "D", "flash", ["D", "A"], ["C"])
    assert "Shadow 10 a été jouée en premier" in result["details"][-1]


def test_a_num_x_leads_next_at_its_declared_value():
    assert trick([R(9), FLASH, X(17), R(2)], ABCD)["leads_next"] == "C"
    assert trick([FLASH, X(0), FLIP], ["A", "B", "C"])["leads_next"] == "B"


def test_without_any_card_of_value_the_leader_leads_again():
    # B led: Flash, Flip, Quantique have no value.
    result = trick([FLASH, FLIP, QUANTIQUE], ["A", "B", "C"], order=["B", "C", "A"])
    assert outcome(result) == (None, "B", "quantique", [], [])
    assert result["details"][-1] == ("Aucune carte n'a de valeur : B, qui a commencé ce pli, commence aussi le suivant")


def test_the_next_leader_is_the_winner():
    result = trick([R(1), S(2), R(3)], ["A", "B", "C"], order=["C", "A", "B"])
    assert (result["winner"], result["leads_next"]) == ("B", "B")  # played by C, A, B: B played R3, the highest


def test_the_round_earlier_cards_change_nothing_when_they_are_other_cards():
    played = [R(1), S(1), FLASH, {"kind": "numx", "as": 17}]
    assert outcome(trick([R(9), S(4), R(12), S(12)], ABCD, played=played)) == ("A", "A", None, ["C", "D"], ["A", "B"])


# --- refusals, with paths and messages in both languages -------------------------------------


def test_it_refuses_a_player_twice_and_names_the_missing_one():
    err = refused(ABCD, plays([R(9), S(4), R(12), S(12)], ["A", "B", "A", "D"]))
    assert err.messages() == [
        {"path": "plays[2].player", "code": "trick_player_twice", "message": "A joue deux fois dans ce pli."},
        {"path": "plays", "code": "trick_player_missing", "message": "Il manque la carte de C dans ce pli."},
    ]
    assert [e["message"] for e in err.messages("en")] == [
        "A plays twice in this trick.",
        "The card of C is missing from this trick.",
    ]


def test_it_refuses_an_unknown_player():
    err = refused(ABCD, plays([R(9), S(4), R(12), S(12)], ["A", "B", "C", "Zoé"]))
    assert [(e["path"], e["code"]) for e in err.messages()] == [
        ("plays[3].player", "unknown_player"),
        ("plays", "trick_player_missing"),
    ]
    assert err.messages()[0]["message"] == "Joueur inconnu : Zoé."
    assert err.messages("en")[0]["message"] == "Unknown player: Zoé."


def test_it_refuses_a_play_without_its_player_or_its_card():
    err = refused(["A", "B"], [{"card": R(3)}, {"player": "B"}, "A"])
    assert [(e["path"], e["code"]) for e in err.messages()] == [
        ("plays[0].player", "field_required"),
        ("plays[1].card", "field_required"),
        ("plays[2]", "play_type"),
        ("plays", "trick_player_missing"),
    ]


def test_it_refuses_a_family_card_without_the_extra_family():
    err = refused(ABCD, plays([R(9), S(4), F(12), S(12)]))
    [error] = err.messages()
    assert error == {
        "path": "plays[2].card",
        "code": "extra_family_off",
        "message": "Famille 12 : la famille supplémentaire ne se joue qu'avec son option (7 joueurs ou plus).",
    }
    assert err.messages("en")[0]["message"] == (
        "Family 12: the extra family is only played with its option (7 players or more)."
    )


@pytest.mark.parametrize(
    ("card", "path", "code", "fr", "en"),
    [
        (
            R(0),
            "plays[2].card.value",
            "out_of_range",
            "Valeur hors limites : 0 (1 à 16).",
            "Value out of range: 0 (1 to 16).",
        ),
        (
            S(17),
            "plays[2].card.value",
            "out_of_range",
            "Valeur hors limites : 17 (1 à 16).",
            "Value out of range: 17 (1 to 16).",
        ),
        (R("3"), "plays[2].card.value", "int_type", "Nombre entier attendu : 3.", "Whole number expected: 3."),
        (
            {"kind": "shadow"},
            "plays[2].card.value",
            "int_type",
            "Nombre entier attendu : null.",
            "Whole number expected: null.",
        ),
        (
            {"kind": "numx"},
            "plays[2].card.as",
            "numx_as_missing",
            "Num-X : déclarez sa valeur, 0 ou 17 (as).",
            "Num-X: declare its value, 0 or 17 (as).",
        ),
        (X(5), "plays[2].card.as", "numx_as", "Num-X vaut 0 ou 17 (as), pas 5.", "Num-X is worth 0 or 17 (as), not 5."),
        (
            X(True),
            "plays[2].card.as",
            "numx_as",
            "Num-X vaut 0 ou 17 (as), pas true.",
            "Num-X is worth 0 or 17 (as), not true.",
        ),
        (
            X(17.0),
            "plays[2].card.as",
            "numx_as",
            "Num-X vaut 0 ou 17 (as), pas 17.0.",
            "Num-X is worth 0 or 17 (as), not 17.0.",
        ),
        (
            {"kind": "blue", "value": 3},
            "plays[2].card.kind",
            "card_kind_unknown",
            "Type de carte inconnu : blue (rainbow, shadow, numx, action).",
            "Unknown card kind: blue (rainbow, shadow, numx, action).",
        ),
        (
            {"kind": "action", "name": "block"},
            "plays[2].card.name",
            "action_unknown",
            "Action inconnue : block (flash, flip, quantique).",
            "Unknown action: block (flash, flip, quantique).",
        ),
        (
            {"kind": "rainbow", "value": 3, "as": 17},
            "plays[2].card.as",
            "field_unknown",
            "Champ inconnu : as.",
            "Unknown field: as.",
        ),
        ("R3", "plays[2].card", "card_type", None, None),
        ({"value": 3}, "plays[2].card", "card_type", None, None),
    ],
)
def test_it_refuses_a_card_outside_the_deck(card, path, code, fr, en):
    err = refused(ABCD, plays([R(9), S(4), card, S(12)]))
    [error] = err.messages()
    assert (error["path"], error["code"]) == (path, code)
    if fr is not None:
        assert error["message"] == fr
        assert err.messages("en")[0]["message"] == en


def test_it_refuses_the_same_card_twice_in_the_trick_naming_it():
    err = refused(ABCD, plays([R(9), S(4), R(9), FLIP]))
    assert err.messages() == [
        {
            "path": "plays[2].card",
            "code": "trick_card_twice",
            "message": "Rainbow 9 est jouée deux fois dans ce pli (déjà par A).",
        }
    ]
    assert err.messages("en")[0]["message"] == "Rainbow 9 is played twice in this trick (already by A)."
    assert refused(ABCD, plays([X(0), S(4), X(17), FLIP])).errors[0].path == "plays[2].card"  # one Num-X


def test_it_refuses_a_card_already_played_in_the_round_naming_it():
    err = refused(ABCD, plays([R(9), S(4), R(2), FLIP]), played=[S(1), FLIP, R(16)])
    assert err.messages() == [
        {
            "path": "plays[3].card",
            "code": "card_already_played",
            "message": "Flip a déjà été jouée dans un pli précédent de la manche.",
        }
    ]
    assert err.messages("en")[0]["message"] == "Flip was already played in an earlier trick of this round."
    # The Num-X is one card, whatever it was declared to be worth.
    assert refused(ABCD, plays([X(17), S(4), R(2), FLIP]), played=[X(0)]).errors[0].path == "plays[0].card"


def test_it_refuses_a_card_twice_among_the_earlier_tricks():
    err = refused(ABCD, plays([R(9), S(4), R(2), FLIP]), played=[S(1), R(16), S(1)])
    assert err.messages() == [
        {"path": "played[2]", "code": "duplicate_card", "message": "Carte donnée deux fois : Shadow 1."}
    ]
    assert refused(ABCD, plays([R(9), S(4), R(2), FLIP]), played=[R(40)]).errors[0].path == "played[0].value"


def test_it_checks_the_players_and_the_options_first():
    err = refused(ABCD, plays([R(9), S(4), F(12), S(12)]), options={"extra_family": True})
    assert [e.path for e in err.errors] == ["options.extra_family"]
    err = refused(["A", "A"], plays([R(9), R(9)]))
    assert [e.path for e in err.errors] == ["players[1]"]
    err = refused(ABCD, plays([R(9), S(4), R(2), FLIP]), options={"flash": True})
    assert [(e.path, e.code) for e in err.errors] == [("options.flash", "option_unknown")]
    assert refused(["A"], plays([R(9)])).errors[0].code == "players_count"


def test_it_refuses_lists_that_are_not_lists_or_too_long():
    assert [(e.path, e.code) for e in refused(ABCD, {"A": R(9)}).errors] == [("plays", "cards_type")]
    assert [(e.path, e.code) for e in refused(ABCD, None).errors] == [("plays", "cards_type")]
    err = refused(ABCD, plays([R(9), S(4), R(2), FLIP]), played={"kind": "numx"})
    assert [(e.path, e.code) for e in err.errors] == [("played", "cards_type")]
    err = refused(ABCD, [{"player": "A", "card": R(9)}] * 53)
    assert err.messages("en") == [
        {"path": "plays", "code": "too_many_cards", "message": "Too many cards: 53 (at most 4)."}
    ]
    assert refused(ABCD, plays([R(9), S(4), R(2), FLIP]), played=[R(1)] * 53).errors[0].path == "played"


def test_it_reports_every_problem_at_once():
    err = refused(ABCD, [{"player": "A", "card": R(0)}, {"player": "B", "card": X(3)}, {"player": "B", "card": F(2)}])
    assert [e.path for e in err.errors] == [
        "plays[0].card.value",
        "plays[1].card.as",
        "plays[2].player",
        "plays[2].card",
        "plays",
        "plays",
    ]


def test_the_registry_says_num_king_has_a_referee():
    assert [slug for slug, game in GAMES.items() if game.referee] == ["numking"]
    assert GAME.trick(ABCD, None, plays([R(9), S(4), R(12), S(12)]))["winner"] == "A"


# --- properties over random legal tricks -----------------------------------------------------

NAMES = ["Elya", "Sasha", "Mendy", "Noa", "Luka", "Inès", "Tom", "Jade", "Rémi", "Zoé", "Yann", "Maël"]
OTHER_NAMES = ["Ωmega", "Björk", "李", "Ève", "Óscar", "Çelik", "Ñu", "Åsa", "Ülle", "Þór", "Øyvind", "Ÿan"]


@st.composite
def legal_tricks(draw):
    """Return (players, options, plays, played): a trick any table could play, and the round's earlier cards."""
    n = draw(st.integers(2, 12))
    extra = n >= 7 and draw(st.booleans())
    deck = [(k, v) for k in ("rainbow", "shadow", "family")[: 3 if extra else 2] for v in range(1, 17)]
    deck += [("numx", None), ("action", "flash"), ("action", "flip"), ("action", "quantique")]
    cards = draw(st.lists(st.sampled_from(deck), min_size=n, max_size=n + 8, unique=True))
    objects = []
    for kind, what in cards:
        if kind == "numx":
            objects.append({"kind": "numx", "as": draw(st.sampled_from([0, 17]))})
        elif kind == "action":
            objects.append({"kind": "action", "name": what})
        else:
            objects.append({"kind": kind, "value": what})
    players = NAMES[:n]
    order = draw(st.permutations(players))
    return players, {"extra_family": extra}, plays(objects[:n], order), objects[n:]


def valued(card):
    return card.get("value", card.get("as"))


@settings(max_examples=examples(300), deadline=None)
@given(legal_tricks())
def test_a_legal_trick_has_one_winner_or_none_and_a_next_leader_at_the_table(case):
    players, options, plays_, played = case
    result = resolve_trick(players, options, plays_, played)
    card_of = {p["player"]: p["card"] for p in plays_}
    assert set(result) == {"winner", "leads_next", "active", "cancelled", "valid", "details"}
    winner = result["winner"]
    assert winner is None or winner in players
    if winner is not None:
        assert winner in result["valid"] and winner not in result["cancelled"]
        assert result["leads_next"] == winner
        values = [valued(card_of[p]) for p in result["valid"]]
        assert len(values) == len(set(values))  # valid cards never tie
        mine = valued(card_of[winner])
        if result["active"] in (None, "numx"):
            assert mine == max(values)
        elif result["active"] == "flip":
            assert mine == min(values)
    else:
        assert result["active"] == "flash" or not result["valid"]
    assert result["leads_next"] in players
    assert not set(result["cancelled"]) & set(result["valid"])
    assert all(card_of[p]["kind"] not in ("numx", "action") for p in result["cancelled"])
    assert len(result["details"]) >= 5 and all(isinstance(line, str) and line for line in result["details"])


@settings(max_examples=examples(200), deadline=None)
@given(legal_tricks())
def test_renaming_the_players_maps_the_result(case):
    players, options, plays_, played = case
    rename = dict(zip(players, OTHER_NAMES))
    renamed = [{"player": rename[p["player"]], "card": p["card"]} for p in plays_]
    before = resolve_trick(players, options, plays_, played)
    after = resolve_trick([rename[p] for p in players], options, renamed, played)
    assert after["winner"] == (rename[before["winner"]] if before["winner"] else None)
    assert after["leads_next"] == rename[before["leads_next"]]
    assert after["active"] == before["active"]
    assert after["cancelled"] == [rename[p] for p in before["cancelled"]]
    assert after["valid"] == [rename[p] for p in before["valid"]]
    assert len(after["details"]) == len(before["details"])
