"""Cards, messages, the registry, and garbage input for every engine."""

import json
import pathlib

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.games import GAMES, ScoringError
from scoring.games.base import Issue
from scoring.games.cards import Card, CardSubject, Deck
from scoring.games.i18n import t
from tests.fuzzing import examples


def test_it_registers_the_games_in_catalogue_order():
    assert list(GAMES) == ["numx", "numx-malus", "numwin", "numking", "coop"]
    for slug, game in GAMES.items():
        assert game.slug == slug
        assert set(game.describe()["name"]) == {"fr", "en"}
        assert game.wins in ("highest", "lowest", "coop")


def test_it_describes_every_game_as_json():
    for game in GAMES.values():
        for lang in ("fr", "en"):
            entry = json.loads(json.dumps(game.describe(lang)))
            assert set(entry) == {
                "slug",
                "name",
                "players",
                "wins",
                "modes",
                "options",
                "cards",
                "entry",
                "cell",
                "summary",
                "round_noun",
            }
            assert entry["options"]["mode"]["default"] == entry["modes"][0]["slug"] or entry["slug"] == "numx-malus"
            assert entry["summary"]
            assert all(option["label"] for option in entry["options"].values())


def test_it_names_cards_in_both_languages():
    assert Card("blue", 7).render("fr") == "7 bleu"
    assert Card("blue", 7).render("en") == "blue 7"
    assert Card("rainbow", 10).render("fr") == "10 🌈"
    assert Card("shadow", 3).render("en") == "3 🌑"
    assert Card("joker").render() == "Joker"
    assert Card("infini").render() == "∞"
    assert Card("numx").render() == "⚡ Num-X"
    assert Card("action", None, "eclair").render("fr") == "Éclair"
    assert Card("red", 7).short() == "7🔴"
    assert CardSubject(Card("joker")).render("fr") == "Le joker"
    assert CardSubject(Card("action", None, "block")).render("en") == "The Block action card"


def test_it_falls_back_to_french():
    assert t("unknown_player", "de", name="Bob") == "Joueur inconnu : Bob."
    assert Issue("players", "unknown_player", {"name": "Bob"}).message("xx") == "Joueur inconnu : Bob."
    assert t("no-such-code", "en") == "no-such-code"
    assert t("unknown_player", "en") == "Unknown player: {name}."  # a missing parameter never crashes


def test_it_parses_a_hand_and_keeps_the_callers_dicts():
    from scoring.games.base import Problems

    deck = Deck("Test", specials={"joker": 1})
    raw = [{"kind": "red", "value": 3}, {"kind": "joker"}]
    problems = Problems()
    cards = deck.parse(raw, "cards", problems)
    assert not problems
    assert [c.raw for c in cards] == raw
    assert cards[0].raw is raw[0]
    deck.check_round([("A", "a", cards), ("B", "b", deck.parse([{"kind": "joker"}], "b", problems))], problems)
    assert [i.code for i in problems.issues] == ["too_many_copies"]


def test_it_keeps_django_out_of_the_engines():
    folder = pathlib.Path(__file__).resolve().parents[2] / "scoring" / "games"
    for path in folder.glob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert "import django" not in text and "from django" not in text, path.name


def test_it_lists_every_problem_at_once():
    rounds = [
        {"entries": {"A": {"cards": [{"kind": "blue", "value": 99}]}, "B": {"cards": "x"}}},
        {"entries": {"A": {"points": "3"}}},
    ]
    try:
        GAMES["numx"].score(["A", "B"], {"mode": "xgame"}, rounds)
    except ScoringError as err:
        paths = [m["path"] for m in err.messages("en")]
    assert paths == [
        "rounds[0].entries.A.cards[0].value",
        "rounds[0].entries.B.cards",
        "rounds[1].entries.B",
        "rounds[1].entries.A.points",
    ]


# --- garbage in, ScoringError or a result out -------------------------------------------

KEYS = [
    "kind", "value", "name", "cards", "points", "bid", "tricks", "placed", "eliminated",
    "entries", "declarer", "mode", "teams", "rounds", "start", "visible", "A", "B", "C",
]  # fmt: skip
ATOMS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 20),
    st.floats(allow_nan=True),
    st.text(max_size=4),
    st.sampled_from(
        [
            "red",
            "rainbow",
            "shadow",
            "joker",
            "infini",
            "numx",
            "action",
            "block",
            "malus",
            "A",
            "B",
            "xgame",
            "family",
            "speedgame",
            "competition",
            "fixed",
            "binomes",
            "adversaire",
            "speedwin",
        ]
    ),  # fmt: skip
)
JSONISH = st.recursive(
    ATOMS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(st.one_of(st.sampled_from(KEYS), st.text(max_size=3)), inner, max_size=4),
    ),
    max_leaves=20,
)
CARD = st.one_of(
    st.fixed_dictionaries(
        {"kind": st.sampled_from(["red", "blue", "green", "yellow", "rainbow", "shadow"]), "value": st.integers(-1, 17)}
    ),
    st.fixed_dictionaries({"kind": st.sampled_from(["joker", "infini", "numx"])}),
    st.fixed_dictionaries({"kind": st.just("action"), "name": st.sampled_from(["block", "flip", "tornade", "malus"])}),
    JSONISH,
)
ENTRY = st.one_of(
    st.fixed_dictionaries({"cards": st.lists(CARD, max_size=6)}),
    st.fixed_dictionaries({"points": st.one_of(st.integers(-2000, 2000), JSONISH)}),
    st.fixed_dictionaries({"bid": st.integers(-1, 10), "tricks": st.integers(-1, 10)}),
    st.fixed_dictionaries({"placed": st.integers(-1, 100)}, optional={"eliminated": JSONISH}),
    JSONISH,
)
PLAYERS = st.one_of(st.lists(st.sampled_from(["A", "B", "C", "D", " a", ""]), max_size=6), JSONISH)
ROUND = st.one_of(
    st.fixed_dictionaries(
        {"entries": st.dictionaries(st.sampled_from(["A", "B", "C", "D", "Z"]), ENTRY, max_size=5)},
        optional={"declarer": JSONISH, "cards": JSONISH, "placed": st.integers(-1, 100)},
    ),
    JSONISH,
)
OPTIONS = st.one_of(
    st.dictionaries(
        st.sampled_from(
            [
                "mode",
                "same_colour",
                "teams",
                "scoring",
                "end",
                "rounds",
                "start",
                "extra_family",
                "expert",
                "decouverte",
                "other",
            ]
        ),  # fmt: skip
        JSONISH,
        max_size=3,
    ),
    JSONISH,
)


@settings(max_examples=examples(200), deadline=None)
@given(
    st.sampled_from(list(GAMES)),
    PLAYERS,
    OPTIONS,
    st.one_of(st.lists(ROUND, max_size=4), JSONISH),
    st.sampled_from(["fr", "en", "de"]),
)
def test_it_never_crashes_on_garbage(slug, players, options, rounds, lang):
    game = GAMES[slug]
    try:
        result = game.score(players, options, rounds, lang)
    except ScoringError as err:
        assert err.errors
        for message in err.messages(lang):
            assert message["message"] and isinstance(message["path"], str)
        return
    json.dumps(result)
    assert set(result["totals"]) == set(players)
