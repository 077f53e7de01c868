"""Num King's hand in the round in progress: the draft field ``tricks_played``, checked by the referee,
whose last trick fills each player's tricks (docs/rules.md, « The hand's tricks in the round in progress »)."""

import pytest

from scoring.games import GAMES, ScoringError

GAME = GAMES["numking"]
TABLE = ["Léa", "Bruno", "Chloé", "David"]
OPTIONS = {"start": 3}  # the first round deals 3 cards: a hand of 3 tricks


def R(value):
    return {"kind": "rainbow", "value": value}


def S(value):
    return {"kind": "shadow", "value": value}


def X(declared):
    return {"kind": "numx", "as": declared}


FLASH = {"kind": "action", "name": "flash"}
FLIP = {"kind": "action", "name": "flip"}
QUANTIQUE = {"kind": "action", "name": "quantique"}


def trick(leader, cards, players=TABLE):
    """Return a stored trick: ``cards`` played clockwise from ``leader``."""
    at = players.index(leader)
    order = players[at:] + players[:at]
    return {"leader": leader, "plays": [{"player": p, "card": c} for p, c in zip(order, cards, strict=True)]}


# The hand of the browser test: a cancelled pair, Flash then Flip, Num-X 0 (each card once in a round).
PAIR = trick("Léa", [R(9), S(4), R(12), S(12)])  # R12/S12 cancel: Léa (R9)
FLASH_FLIP = trick("Léa", [R(5), FLASH, FLIP, S(2)])  # Flip after Flash: lowest, David (S2)
# R3/S3 cancel, Quantique (4 players: even) after Num-X: Num-X 0 is the only valid card, David.
NUMX_ZERO = trick("David", [X(0), R(3), S(3), QUANTIQUE])
HAND = [PAIR, FLASH_FLIP, NUMX_ZERO]
BIDS = {"Léa": {"bid": 1}, "Bruno": {"bid": 0}, "Chloé": {"bid": 1}, "David": {"bid": 2}}


def check(entries, fields, rounds=(), before=None):
    return GAME.check_draft(TABLE, OPTIONS, list(rounds), entries, fields, before=before)


def refused(fields, entries=None, lang="fr"):
    with pytest.raises(ScoringError) as info:
        check(entries if entries is not None else BIDS, fields)
    return info.value.messages(lang)


def fill(entries, fields, before_fields=None):
    return GAME.fill_draft(TABLE, OPTIONS, [], entries, fields, before_fields or {})


# --- what the round in progress may hold --------------------------------------------------------


def test_a_hand_in_progress_is_accepted_trick_by_trick():
    for played in range(len(HAND) + 1):
        assert check(BIDS, {"cards": 3, "tricks_played": HAND[:played]}) == []


def test_the_tricks_never_go_into_the_saved_round():
    fields = {"cards": 3, "tricks_played": HAND}
    assert GAME.round_of_draft(fields, BIDS) == {"cards": 3, "entries": BIDS}
    assert "tricks_played" in GAME.draft_only_fields


def test_another_game_has_no_tricks_played():
    with pytest.raises(ScoringError) as info:
        GAMES["numx"].check_draft(["A", "B"], {}, [], {}, {"tricks_played": []})
    assert info.value.messages("en")[0]["path"] == "fields.tricks_played"
    assert info.value.messages("en")[0]["code"] == "field_unknown"


def test_a_card_played_twice_in_the_round_is_refused_with_the_referees_words():
    again = trick("Léa", [R(9), FLASH, FLIP, S(2)])  # Léa's Rainbow 9 of the first trick
    fr = refused({"tricks_played": [PAIR, again]})
    assert fr == [
        {
            "path": "fields.tricks_played[1].plays[0].card",
            "code": "card_already_played",
            "message": "Rainbow 9 a déjà été jouée dans un pli précédent de la manche.",
        }
    ]
    en = refused({"tricks_played": [PAIR, again]}, lang="en")
    assert en[0]["message"] == "Rainbow 9 was already played in an earlier trick of this round."


def test_a_card_twice_in_one_trick_is_refused_naming_who_played_it_first():
    errors = refused({"tricks_played": [trick("Léa", [R(9), S(4), R(9), S(12)])]}, lang="en")
    assert errors[0]["path"] == "fields.tricks_played[0].plays[2].card"
    assert errors[0]["message"] == "Rainbow 9 is played twice in this trick (already by Léa)."


def test_a_tricks_players_must_be_the_rounds_players():
    short = {"leader": "Léa", "plays": PAIR["plays"][:3]}
    assert [(e["path"], e["code"]) for e in refused({"tricks_played": [short]})] == [
        ("fields.tricks_played[0].plays", "trick_player_missing")
    ]
    stranger = {"leader": "Léa", "plays": [*PAIR["plays"][:3], {"player": "Zoé", "card": S(12)}]}
    codes = [(e["path"], e["code"]) for e in refused({"tricks_played": [stranger]})]
    assert ("fields.tricks_played[0].plays[3].player", "unknown_player") in codes
    assert ("fields.tricks_played[0].plays", "trick_player_missing") in codes
    twice = {"leader": "Léa", "plays": [*PAIR["plays"][:3], {"player": "Léa", "card": S(12)}]}
    codes = [(e["path"], e["code"]) for e in refused({"tricks_played": [twice]})]
    assert ("fields.tricks_played[0].plays[3].player", "trick_player_twice") in codes


def test_at_most_one_trick_per_card_dealt():
    fourth = trick("Chloé", [R(1), S(1), R(2), S(3)])
    errors = refused({"tricks_played": [*HAND, fourth]})
    assert errors == [
        {
            "path": "fields.tricks_played",
            "code": "tricks_played_count",
            "message": "4 plis joués pour 3 cartes distribuées : une manche a au plus un pli par carte.",
        }
    ]


def test_the_leader_plays_first():
    errors = refused({"tricks_played": [{**PAIR, "leader": "Bruno"}]}, lang="en")
    assert errors == [
        {
            "path": "fields.tricks_played[0].leader",
            "code": "trick_leader",
            "message": "Trick 1: Bruno leads it, their card comes first (here Léa's).",
        }
    ]


@pytest.mark.parametrize(
    ("tricks", "path", "code"),
    [
        ({"leader": "Léa"}, "fields.tricks_played", "tricks_played_type"),
        (["Léa"], "fields.tricks_played[0]", "trick_type"),
        ([{"plays": PAIR["plays"]}], "fields.tricks_played[0].leader", "field_required"),
        ([{"leader": "Léa"}], "fields.tricks_played[0].plays", "field_required"),
        ([{"leader": "Zoé", "plays": PAIR["plays"]}], "fields.tricks_played[0].leader", "unknown_player"),
        ([{**PAIR, "winner": "Léa"}], "fields.tricks_played[0].winner", "field_unknown"),
        ([trick("Léa", [R(9), S(4), X(5), S(12)])], "fields.tricks_played[0].plays[2].card.as", "numx_as"),
        (
            [trick("Léa", [R(9), S(4), {"kind": "numx"}, S(12)])],
            "fields.tricks_played[0].plays[2].card.as",
            "numx_as_missing",
        ),
        (
            [trick("Léa", [R(9), S(4), {"kind": "family", "value": 3}, S(12)])],
            "fields.tricks_played[0].plays[2].card",
            "extra_family_off",
        ),
    ],
)
def test_each_refusal_names_its_path(tricks, path, code):
    errors = refused({"tricks_played": tricks})
    assert (errors[0]["path"], errors[0]["code"]) == (path, code)


def test_once_the_game_is_over_the_round_in_progress_is_refused_as_before():
    rounds = [{"entries": {p: {"bid": 0, "tricks": 0} for p in TABLE}} for _ in range(7)]  # 3…9 cards
    with pytest.raises(ScoringError):
        check({}, {"tricks_played": []}, rounds=rounds)
    assert GAME.draft_referee(TABLE, OPTIONS, rounds, {}) is None


# --- the tricks count themselves -------------------------------------------------------------------


def test_nothing_is_filled_before_the_last_trick():
    for played in range(len(HAND)):
        assert fill(BIDS, {"tricks_played": HAND[:played]}) == BIDS


def test_the_last_trick_fills_every_players_tricks_with_the_referees_count():
    filled = fill(BIDS, {"tricks_played": HAND}, {"tricks_played": HAND[:2]})
    assert filled == {
        "Léa": {"bid": 1, "tricks": 1},
        "Bruno": {"bid": 0, "tricks": 0},
        "Chloé": {"bid": 1, "tricks": 0},
        "David": {"bid": 2, "tricks": 2},
    }
    # Every entry is now whole, and the round scores as the engine scores it typed by hand.
    assert check(filled, {"tricks_played": HAND}) == TABLE
    scored = GAME.score(TABLE, OPTIONS, [GAME.round_of_draft({"tricks_played": HAND}, filled)])
    assert scored["rounds"][0]["points"] == {"Léa": 13, "Bruno": 26, "Chloé": -3, "David": 16}


def test_the_count_is_the_tricks_with_a_winner():
    nobody = trick("Léa", [R(5), FLASH, S(6), R(2)])  # Flash: nobody; Bruno (S6) leads next
    hand = [PAIR, nobody, trick("Bruno", [R(10), S(3), X(17), S(1)])]
    filled = fill(BIDS, {"tricks_played": hand})
    assert {p: e["tricks"] for p, e in filled.items()} == {"Léa": 1, "Bruno": 0, "Chloé": 0, "David": 1}
    assert sum(e["tricks"] for e in filled.values()) == 2


def test_a_player_without_a_bid_is_not_filled():
    bids = {k: v for k, v in BIDS.items() if k != "Bruno"}
    filled = fill(bids, {"tricks_played": HAND})
    assert "Bruno" not in filled and filled["David"] == {"bid": 2, "tricks": 2}


def test_a_value_typed_by_hand_wins_over_a_later_correction():
    filled = fill(BIDS, {"tricks_played": HAND}, {"tricks_played": HAND[:2]})
    typed = {**filled, "Chloé": {"bid": 1, "tricks": 1}}  # the table says Chloé took one
    # Trick 2 corrected: Chloé's Flip was a Flash (nobody takes it; Léa, R5, leads the third).
    corrected = [PAIR, trick("Léa", [R(5), FLIP, FLASH, S(2)]), NUMX_ZERO]
    again = fill(typed, {"tricks_played": corrected}, {"tricks_played": HAND})
    assert again["Chloé"] == {"bid": 1, "tricks": 1}  # typed by hand: kept
    assert again["David"] == {"bid": 2, "tricks": 1}  # the referee's: follows the correction
    assert again["Léa"] == {"bid": 1, "tricks": 1}


def test_the_same_tricks_again_fill_nothing():
    filled = fill(BIDS, {"tricks_played": HAND})
    cleared = {**filled, "Léa": {"bid": 1}}  # cleared by hand
    assert fill(cleared, {"tricks_played": HAND}, {"tricks_played": HAND}) == cleared


def test_values_already_there_when_the_hand_ends_are_the_referees_to_fill():
    early = {**BIDS, "Bruno": {"bid": 0, "tricks": 2}}  # sent from a phone before the last trick
    filled = fill(early, {"tricks_played": HAND}, {"tricks_played": HAND[:2]})
    assert filled["Bruno"] == {"bid": 0, "tricks": 0}


# --- what the pages show ----------------------------------------------------------------------------


def test_the_referee_view_resolves_each_trick_and_says_who_leads_next():
    view = GAME.draft_referee(TABLE, OPTIONS, [], {"tricks_played": HAND[:2]}, "fr")
    assert view["cards"] == 3 and not view["complete"]
    assert view["first_leader"] == "Bruno"  # offered: the player after the dealer (Léa)
    assert [c["kind"] for c in view["picker"]["colours"]] == ["rainbow", "shadow"]
    assert view["picker"]["values"] == list(range(1, 17))
    assert [a["name"] for a in view["picker"]["actions"]] == ["flash", "flip", "quantique"]
    assert [t["winner"] for t in view["tricks"]] == ["Léa", "David"]
    assert view["next_leader"] == "David"
    assert view["counted"] == {"Léa": 1, "Bruno": 0, "Chloé": 0, "David": 1}
    assert view["tricks"][0]["details"][0] == "Rainbow 12 et Shadow 12 s'annulent"
    assert view["tricks"][1]["details"][1] == "Flip joué après Flash : la plus petite carte valide gagne"
    assert view["tricks"][0]["plays"][0] == {"player": "Léa", "card": "Rainbow 9"}
    done = GAME.draft_referee(TABLE, OPTIONS, [], {"tricks_played": HAND}, "en")
    assert done["complete"] and done["tricks"][2]["winner"] == "David"
    assert done["tricks"][2]["details"][-2] == "David takes the trick with ⚡ Num-X 0"


def test_a_trick_led_by_someone_else_than_the_previous_result_says_is_flagged_not_refused():
    late = trick("Bruno", [R(1), S(3), R(16), S(5)])  # David took trick 2: he should lead
    fields = {"tricks_played": [PAIR, FLASH_FLIP, late]}
    assert check(BIDS, fields) == []
    view = GAME.draft_referee(TABLE, OPTIONS, [], fields, "fr")
    assert [t["expected_leader"] for t in view["tricks"]] == [None, None, "David"]
