"""What a finished game's seats count for: places (for the table's ratings and head to head) and records."""

import pytest

from scoring.games import GAMES


def test_the_lowest_total_wins_and_equal_totals_share_a_place():
    malus = GAMES["numx-malus"]
    seats = [("Zoé", 5, True), ("Léa", 6, False), ("Max", 6, False), ("Tom", 10, False)]
    assert malus.seat_ranks({}, seats) == {"Zoé": 1, "Léa": 2, "Max": 2, "Tom": 4}


def test_the_highest_total_wins_and_a_tie_break_winner_comes_first():
    king = GAMES["numking"]
    # Equal totals, one of them won the tie-break: the winner first, the other second.
    assert king.seat_ranks({}, [("A", 40, False), ("B", 40, True), ("C", 12, False)]) == {"B": 1, "A": 2, "C": 3}


def test_teams_share_their_place():
    king = GAMES["numking"]
    teams = {"options": {"teams": {"X": ["A", "B"], "Y": ["C", "D"]}}}
    sides = king.ranked_sides(teams["options"], [("A", 10, False), ("B", 5, False), ("C", 3, True), ("D", 2, True)])
    assert sides == [(["A", "B"], 2), (["C", "D"], 1)]


def test_a_session_is_not_rated():
    assert not GAMES["coop"].rated
    assert GAMES["coop"].ranked_sides({}, [("A", 3, True), ("B", 2, False)]) == []


@pytest.mark.parametrize(
    ("slug", "records", "combined"),
    [
        (
            "numking",
            [{"longest_streak": 3, "exact_bids": 5, "bids": 9}, {"longest_streak": 7, "exact_bids": 2, "bids": 9}],
            {"longest_streak": 7, "exact_bids": 7, "bids": 18},
        ),
        ("numx", [{"xtrem": 1}, {"xtrem": 2}, {}], {"xtrem": 3}),
        (
            "coop",
            [{"games": 4, "wins": 1, "best": 80}, {"games": 2, "wins": 0, "best": 93}],
            {"games": 6, "wins": 1, "best": 93},
        ),
    ],
)
def test_records_add_up_or_keep_their_best(slug, records, combined):
    assert GAMES[slug].combine_records(records) == combined


def test_the_records_shown_are_named_in_each_language():
    king = GAMES["numking"]
    lines = king.record_lines({"longest_streak": 7, "exact_bids": 7, "bids": 18}, "fr")
    assert lines == [
        {"key": "longest_streak", "label": "Plus longue série d'annonces exactes", "value": 7, "of": None},
        {"key": "exact_bids", "label": "Annonces exactes", "value": 7, "of": 18},
    ]
    assert king.record_lines({"longest_streak": 2}, "en")[0]["label"] == "Longest exact streak"


def test_the_coop_keeps_the_tables_best_climb():
    coop = GAMES["coop"]
    result = coop.score(["A", "B"], {}, [{"placed": 40}, {"placed": 71}, {"placed": 12}])
    assert coop.seat_records(result, "A") == {"games": 3, "wins": 0, "best": 71}


def test_num_win_counts_the_hands_won_with_a_lone_infini():
    win = GAMES["numwin"]
    infini = {"cards": [{"kind": "infini"}, {"kind": "red", "value": 3}]}
    trapped = {"cards": [{"kind": "infini"}, {"kind": "rainbow", "value": 3}]}
    rounds = [{"entries": {"A": infini, "B": {"points": 5}}}, {"entries": {"A": trapped, "B": infini}}]
    result = win.score(["A", "B"], {"rounds": 3}, rounds)
    assert win.seat_records(result, "A") == {"failed_declarations": 0, "infini_alone": 1}
    assert win.seat_records(result, "B") == {"failed_declarations": 0, "infini_alone": 1}
    assert win.record_lines({"infini_alone": 2}, "fr")[-1]["label"] == "Infini seul (−10)"
