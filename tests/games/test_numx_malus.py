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


# ---- cards left counted, not named (classic scoring) ------------------------------------


def counts(**given):
    return {"entries": {p: {"numeric": n, "specials": m} for p, (n, m) in given.items()}}


def test_it_scores_counted_cards_like_the_same_cards_named():
    counted = GAME.score(PLAYERS, {}, [counts(Elya=(3, 2), Sasha=(0, 0), Mendy=(1, 0))])["rounds"][0]
    named = GAME.score(
        PLAYERS,
        {},
        [{"entries": {"Elya": {"cards": LEFT}, "Sasha": {"cards": []}, "Mendy": {"cards": [card("blue", 9)]}}}],
    )["rounds"][0]
    assert counted["points"] == named["points"] == {"Elya": 3 * 1 + 2 * 2, "Sasha": 0, "Mendy": 1}
    for name in PLAYERS:
        assert [(d["rule"], d["points"]) for d in counted["details"][name]] == [
            (d["rule"], d["points"]) for d in named["details"][name]
        ]
    assert all(d["cards"] == [] for d in counted["details"]["Elya"])
    assert [d["text"] for d in counted["details"]["Elya"]] == [
        "3 cartes numériques → 3",
        "2 cartes spéciales ou action × 2 → 4",
    ]
    assert counted["details"]["Sasha"][0]["text"] == "Aucune carte restante → 0"


def test_it_explains_counted_cards_in_english_with_plurals():
    details = GAME.score(PLAYERS, {}, [counts(Elya=(1, 1), Sasha=(0, 0), Mendy=(0, 3))], "en")["rounds"][0]["details"]
    assert [d["text"] for d in details["Elya"]] == ["1 numeric card → 1", "1 special or action card × 2 → 2"]
    assert [d["text"] for d in details["Mendy"]] == ["3 special or action cards × 2 → 6"]


def test_it_mixes_counted_named_and_typed_entries_in_one_round():
    rnd = {
        "entries": {"Elya": {"numeric": 4, "specials": 1}, "Sasha": {"cards": [card("joker")]}, "Mendy": {"points": 3}}
    }
    assert GAME.score(PLAYERS, {}, [rnd])["rounds"][0]["points"] == {"Elya": 6, "Sasha": 2, "Mendy": 3}


@pytest.mark.parametrize("options", [{}, {"mode": "family"}, {"mode": "speedgame", "scoring": "classic"}])
def test_it_takes_counts_under_classic_scoring(options):
    result = GAME.score(PLAYERS, options, [counts(Elya=(102, 17), Sasha=(0, 0), Mendy=(0, 0))])
    assert result["rounds"][0]["points"]["Elya"] == 102 + 34


@pytest.mark.parametrize("options", [{"scoring": "competition"}, {"mode": "speedgame"}])
def test_it_refuses_counts_under_competition_scoring(options):
    error = errors(PLAYERS, options, [counts(Elya=(3, 1), Sasha=(0, 0), Mendy=(0, 0))])
    elya = [e for e in error.messages("fr") if e["path"] == "rounds[0].entries.Elya"]
    assert elya[0]["code"] == "counts_competition"
    assert elya[0]["message"] == (
        "Elya : en décompte compétition chaque carte compte sa valeur ; compter les cartes ne suffit pas : "
        "saisissez les cartes ou les points."
    )
    assert error.messages("en")[0]["message"].startswith("Elya: in competition scoring each card counts its face value")


@pytest.mark.parametrize(
    ("entry", "path", "code", "fr", "en"),
    [
        (
            {"numeric": 2.5, "specials": 0},
            "numeric",
            "count_type",
            "Elya : le nombre de cartes classiques (numériques) doit être un nombre entier (2.5).",
            "Elya: the number of numeric cards must be a whole number (2.5).",
        ),
        (
            {"numeric": 1, "specials": True},
            "specials",
            "count_type",
            "Elya : le nombre de cartes spéciales et actions doit être un nombre entier (true).",
            "Elya: the number of special and action cards must be a whole number (true).",
        ),
        (
            {"numeric": "3", "specials": 0},
            "numeric",
            "count_type",
            "Elya : le nombre de cartes classiques (numériques) doit être un nombre entier (3).",
            "Elya: the number of numeric cards must be a whole number (3).",
        ),
        (
            {"numeric": -1, "specials": 0},
            "numeric",
            "count_negative",
            "Elya : le nombre de cartes classiques (numériques) ne peut pas être négatif (-1).",
            "Elya: the number of numeric cards cannot be negative (-1).",
        ),
        (
            {"numeric": 103, "specials": 0},
            "numeric",
            "count_above_deck",
            "Elya : 103 cartes classiques (numériques), c'est plus que le paquet n'en a (102).",
            "Elya: 103 numeric cards is more than the deck holds (102).",
        ),
        (
            {"numeric": 0, "specials": 18},
            "specials",
            "count_above_deck",
            "Elya : 18 cartes spéciales et actions, c'est plus que le paquet n'en a (17).",
            "Elya: 18 special and action cards is more than the deck holds (17).",
        ),
        (
            {"numeric": 1},
            "specials",
            "count_missing",
            "Elya : il manque le nombre de cartes spéciales et actions (specials).",
            "Elya: the number of special and action cards is missing (specials).",
        ),
        (
            {"numeric": 1, "specials": 0, "jokers": 1},
            "jokers",
            "counts_field_unknown",
            "Elya : champ inconnu « jokers » (le nombre de cartes se donne par numeric et specials).",
            "Elya: unknown field “jokers” (cards left are counted with numeric and specials).",
        ),
        (
            {"numeric": 1, "specials": 0, "points": 4},
            "",
            "counts_mixed",
            "Elya : donnez soit le nombre de cartes restantes (numeric, specials), soit les points (points), pas les deux.",
            "Elya: give either the cards left counted (numeric, specials) or the points, not both.",
        ),
        (
            {"specials": 1, "cards": []},
            "",
            "counts_mixed",
            "Elya : donnez soit le nombre de cartes restantes (numeric, specials), soit les cartes (cards), pas les deux.",
            "Elya: give either the cards left counted (numeric, specials) or the cards, not both.",
        ),
    ],
)
def test_it_refuses_bad_counts_naming_the_player(entry, path, code, fr, en):
    rnd = {"entries": {"Elya": entry, "Sasha": {"numeric": 0, "specials": 0}, "Mendy": {"cards": []}}}
    error = errors(PLAYERS, {}, [rnd])
    where = "rounds[0].entries.Elya" + (f".{path}" if path else "")
    assert [(e["path"], e["code"], e["message"]) for e in error.messages("fr")] == [(where, code, fr)]
    assert [e["message"] for e in error.messages("en")] == [en]


def test_it_refuses_a_round_counting_more_cards_than_the_deck_holds():
    rnd = counts(Elya=(60, 9), Sasha=(40, 8), Mendy=(3, 1))
    error = errors(PLAYERS, {}, [rnd])
    assert [(e["path"], e["code"], e["message"]) for e in error.messages("fr")] == [
        (
            "rounds[0].entries.Mendy.numeric",
            "count_round_total",
            "Mendy : 103 cartes classiques (numériques) restantes dans la manche en tout (Elya, Sasha, Mendy), "
            "le paquet n'en a que 102.",
        ),
        (
            "rounds[0].entries.Mendy.specials",
            "count_round_total",
            "Mendy : 18 cartes spéciales et actions restantes dans la manche en tout (Elya, Sasha, Mendy), "
            "le paquet n'en a que 17.",
        ),
    ]
    assert error.messages("en")[0]["message"] == (
        "Mendy: 103 numeric cards left in the round in all (Elya, Sasha, Mendy), the deck holds only 102."
    )
    # Exactly the deck is fine.
    GAME.score(PLAYERS, {}, [counts(Elya=(60, 9), Sasha=(40, 8), Mendy=(2, 0))])


def test_it_counts_the_cards_named_beside_the_counted_ones_against_the_deck():
    named = [card(kind, value) for kind in ("red", "blue") for value in range(17)]  # 34 numeric cards
    specials = [card("joker"), card("joker"), card("infini")]
    rnd = {
        "entries": {
            "Elya": {"numeric": 69, "specials": 15},
            "Sasha": {"cards": named + specials},
            "Mendy": {"points": 0},
        }
    }
    error = errors(PLAYERS, {}, [rnd])
    assert [(e["path"], e["message"]) for e in error.messages("en")] == [
        (
            "rounds[0].entries.Elya.numeric",
            "Elya: 103 numeric cards left in the round in all (Elya, Sasha), the deck holds only 102.",
        ),
        (
            "rounds[0].entries.Elya.specials",
            "Elya: 18 special and action cards left in the round in all (Elya, Sasha), the deck holds only 17.",
        ),
    ]


def test_it_names_the_player_of_an_empty_entry():
    error = errors(PLAYERS, {}, [{"entries": {"Elya": {}, "Sasha": {"points": 0}, "Mendy": {"points": 0}}}])
    assert error.messages("fr")[0]["message"] == (
        "La saisie de Elya doit donner les cartes (cards), les points (points) "
        "ou le nombre de cartes restantes (numeric et specials)."
    )


@pytest.mark.parametrize(
    ("options", "kind"),
    [
        ({}, "counts"),
        ({"scoring": None, "mode": "family"}, "counts"),
        ({"mode": "speedrun", "scoring": "classic", "end": "fixed"}, "counts"),
        ({"mode": "speedgame", "scoring": "classic"}, "counts"),
        ({"mode": "speedgame"}, "cards"),
        ({"mode": "speedgame", "scoring": None}, "cards"),
        ({"scoring": "competition"}, "cards"),
    ],
)
def test_it_counts_the_cards_under_classic_scoring_and_picks_them_under_competition(options, kind):
    form = GAME.entry_form(options)
    assert form["kind"] == kind
    assert form["template"] == f"scoring/entry/{kind}.html"
    assert form["seat_template"] == f"scoring/seat_entry/{kind}.html"
    assert form["count_limits"] == ({"numeric": 102, "specials": 17} if kind == "counts" else None)


def test_it_shows_a_stored_hand_counted_on_a_counts_form():
    hand = {"cards": LEFT}
    assert GAME.form_entry({"scoring": "classic"}, hand) == {"numeric": 3, "specials": 2}
    assert GAME.form_entry({"scoring": "competition"}, hand) == hand
    assert GAME.form_entry({}, {"points": 4}) == {"points": 4}


def test_it_takes_counts_of_zero_as_an_empty_entry():
    nothing = counts(Elya=(0, 0), Sasha=(0, 0), Mendy=(0, 0))
    assert GAME.empty_entries(PLAYERS, {}, nothing)["nobody"] is True
    assert GAME.empty_entries(PLAYERS, {}, counts(Elya=(1, 0), Sasha=(0, 0), Mendy=(0, 0)))["nobody"] is False


def test_it_keeps_a_counted_entry_in_a_round_in_progress():
    ready = GAME.check_draft(PLAYERS, {}, [], {"Elya": {"numeric": 2, "specials": 0}, "Sasha": {}}, {})
    assert ready == ["Elya"]
    with pytest.raises(ScoringError) as info:
        GAME.check_draft(PLAYERS, {}, [], {"Elya": {"numeric": -2, "specials": 0}}, {})
    assert info.value.messages("fr")[0]["path"] == "entries.Elya.numeric"


@settings(max_examples=examples(100), deadline=None)
@given(st.lists(st.tuples(st.integers(0, 30), st.integers(0, 5)), min_size=3, max_size=3))
def test_counted_points_are_one_per_numeric_and_two_per_special(given_counts):
    rnd = counts(**dict(zip(PLAYERS, given_counts)))
    points = GAME.score(PLAYERS, {}, [rnd])["rounds"][0]["points"]
    assert points == {p: n + 2 * m for p, (n, m) in zip(PLAYERS, given_counts)}
