"""The entry form read by the engine (scoring/games/form.py): one reading for the server and the device."""

import pytest

from scoring.games import GAMES
from scoring.games.base import ScoringError


def read(slug, players, form, options=None, **kw):
    return GAMES[slug].read_form(players, options or {}, form, **kw)


def refusal(slug, players, form, options=None, lang="fr", **kw):
    with pytest.raises(ScoringError) as caught:
        read(slug, players, form, options, **kw)
    return [(e["path"], e["code"], e["message"]) for e in caught.value.messages(lang)]


def test_it_reads_a_hand_of_cards_and_typed_points_by_seat():
    cards = '[{"kind": "rainbow", "value": 3}, {"kind": "shadow", "value": 12}]'
    form = {"cards-0": cards, "points-0": "", "cards-1": "", "points-1": " \u22124 ", "csrf": "x"}
    assert read("numx", ["Léa", "Tom"], form) == {
        "entries": {
            "Léa": {"cards": [{"kind": "rainbow", "value": 3}, {"kind": "shadow", "value": 12}]},
            "Tom": {"points": -4},
        }
    }


def test_a_seat_without_fields_is_not_at_the_rounds_table():
    assert read("numwin", ["Léa", "Tom", "Ana"], {"points-0": "4", "points-2": "6", "declarer": "2"}) == {
        "entries": {"Léa": {"points": 4}, "Ana": {"points": 6}},
        "declarer": "Ana",
    }


@pytest.mark.parametrize("declarer", ["", "7", "²", "1" * 5000, "-1"])
def test_a_declarer_it_cannot_place_is_nobody(declarer):
    assert read("numwin", ["Léa", "Tom"], {"points-0": "4", "points-1": "6", "declarer": declarer})["declarer"] is None


@pytest.mark.parametrize(
    "typed, code, words",
    [
        ("²", "form_not_a_number", "Léa : « ² » n'est pas un nombre entier."),
        ("1_000", "form_not_a_number", "Léa : « 1_000 » n'est pas un nombre entier."),
        ("12345678901", "form_too_large", "Léa : « 12345678901 » est trop grand."),
        ("9" * 5000, "form_too_large", "Léa : « " + "9" * 19 + "… » est trop grand."),
    ],
)
def test_it_refuses_points_it_cannot_read_naming_the_player(typed, code, words):
    assert refusal("numx", ["Léa", "Tom"], {"points-0": typed, "points-1": "3"}) == [
        ("entries.Léa.points", code, words)
    ]


@pytest.mark.parametrize(
    "cards",
    ["[" * 3000 + "]" * 3000, "5", '{"kind": "rainbow"}', '[{"kind": "\\udc80"}]', '[{"kind": "x", "v": [1]}]', "NaN"],
)
def test_it_refuses_cards_it_cannot_read(cards):
    assert refusal("numx", ["Léa", "Tom"], {"cards-0": cards, "points-1": "2"}, lang="en") == [
        ("entries.Léa.cards", "form_cards_unreadable", "Léa: the cards could not be read.")
    ]


def test_cards_picked_and_points_typed_cannot_both_count():
    form = {"cards-0": '[{"kind": "rainbow", "value": 3}]', "points-0": "5", "points-1": "2"}
    assert refusal("numx", ["Léa", "Tom"], form, lang="en") == [
        (
            "entries.Léa.points",
            "form_cards_and_points",
            "Léa: cards picked and points typed, only one can count. Remove the cards or clear the points.",
        )
    ]


def test_a_complete_round_of_bids_needs_every_bid_and_every_tricks():
    form = {"bid-0": "1", "tricks-0": "", "bid-1": "", "tricks-1": "0", "cards": "1"}
    assert refusal("numking", ["Léa", "Tom"], form) == [
        ("entries.Léa.tricks", "form_tricks_missing", "Léa : plis pris manquants."),
        ("entries.Tom.bid", "form_bid_missing", "Tom : annonce manquante."),
    ]
    assert read("numking", ["Léa", "Tom"], form, complete=False) == {
        "entries": {"Léa": {"bid": 1, "tricks": 0}, "Tom": {"bid": 0, "tricks": 0}},
        "cards": 1,
    }


def test_counts_read_empty_as_none_and_refuse_counts_beside_points():
    form = {"numeric-0": "3", "specials-0": "", "points-0": "", "numeric-1": "", "specials-1": "", "points-1": "7"}
    assert read("numx-malus", ["Léa", "Tom"], form) == {
        "entries": {"Léa": {"numeric": 3, "specials": 0}, "Tom": {"points": 7}}
    }
    assert refusal("numx-malus", ["Léa", "Tom"], {"numeric-0": "x", "numeric-1": ""}) == [
        ("entries.Léa.numeric", "form_not_a_number", "Léa, classiques : « x » n'est pas un nombre entier.")
    ]
    assert refusal("numx-malus", ["Léa", "Tom"], {"numeric-0": "2", "points-0": "3", "numeric-1": ""}, lang="en")[0][
        1
    ] == ("form_counts_and_points")


def test_the_table_result_places_the_deck_when_the_game_is_won():
    assert read("coop", ["A", "B"], {"placed": "40"}) == {"placed": 40}
    assert read("coop", ["A", "B"], {"placed": "40", "won": "on", "deck": "68"}) == {"placed": 68}
    assert read("coop", ["A", "B"], {"placed": "40", "won": "on", "deck": "²"}) == {"placed": 40}


def test_each_seat_result_is_read_with_its_box():
    options = {"mode": "adversaire"}
    form = {"placed-0": "17", "eliminated-1": "on", "placed-1": ""}
    assert read("coop", ["A", "B"], form, options) == {
        "entries": {"A": {"placed": 17, "eliminated": False}, "B": {"placed": 0, "eliminated": True}}
    }


def test_a_players_own_phone_sends_part_of_an_entry():
    game = GAMES["numking"]
    assert game.read_seat_form(["Léa", "Tom"], {}, 1, {"bid-1": "2", "tricks-1": ""}) == {"bid": 2}
    assert game.read_seat_form(["Léa", "Tom"], {}, 1, {"bid-1": "", "tricks-1": ""}) == {}
    malus = GAMES["numx-malus"]
    assert malus.read_seat_form(["Léa", "Tom"], {}, 0, {"numeric-0": "4"}) == {"numeric": 4, "specials": 0}


@pytest.mark.parametrize("form", [[], "points-0=3", {"points-0": 3}, {"points-0": None}])
def test_a_form_is_an_object_of_texts(form):
    codes = {code for _path, code, _m in refusal("numx", ["Léa", "Tom"], form)}
    assert codes <= {"form_type", "form_field_type"} and codes


def test_the_engine_scores_rounds_given_as_their_form_like_the_rounds_it_reads():
    game = GAMES["numx-malus"]
    by_form = game.score(["Léa", "Tom"], {}, [{"form": {"numeric-0": "3", "numeric-1": "", "points-1": "5"}}])
    by_round = game.score(
        ["Léa", "Tom"], {}, [{"entries": {"Léa": {"numeric": 3, "specials": 0}, "Tom": {"points": 5}}}]
    )
    assert by_form["totals"] == by_round["totals"] == {"Léa": 3, "Tom": 5}
    with pytest.raises(ScoringError) as caught:
        game.score(
            ["Léa", "Tom"],
            {},
            [
                {"entries": {"Léa": {"points": 1}, "Tom": {"points": 2}}},
                {"form": {"points-0": "x"}},
            ],
        )
    assert [e.path for e in caught.value.errors] == ["rounds[1].entries.Léa.points"]


def test_the_engine_says_what_the_pages_ask_before_an_empty_round():
    game = GAMES["numx"]
    empty = read("numx", ["Léa", "Tom"], {"cards-0": "", "cards-1": ""})
    assert game.empty_question(["Léa", "Tom"], {}, empty, "fr") == "Aucune carte saisie — enregistrer quand même ?"
    half = read("numx", ["Léa", "Tom"], {"cards-0": "", "points-1": "3"})
    assert game.empty_question(["Léa", "Tom"], {}, half, "en") == "No cards entered for Léa — save anyway?"
    full = read("numx", ["Léa", "Tom"], {"points-0": "1", "points-1": "3"})
    assert game.empty_question(["Léa", "Tom"], {}, full, "en") == ""


def test_the_form_says_save_anyway_and_the_engine_asks_nothing_more():
    game = GAMES["numx"]
    empty = {"cards-0": "", "cards-1": ""}
    assert game.read_form_asking(["Léa", "Tom"], {}, empty, "en")[1] == "No cards entered — save anyway?"
    rnd, question = game.read_form_asking(["Léa", "Tom"], {}, {**empty, "confirm_empty": "1"}, "en")
    assert question == "" and rnd == {"entries": {"Léa": {"cards": []}, "Tom": {"cards": []}}}


def test_a_number_typed_with_non_breaking_spaces_around_is_read():
    assert read("numx", ["Léa", "Tom"], {"points-0": "\u00a03\u00a0", "points-1": "\u2212 4".replace(" ", "")}) == {
        "entries": {"Léa": {"points": 3}, "Tom": {"points": -4}}
    }
