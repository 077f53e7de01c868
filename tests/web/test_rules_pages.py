"""The rules pages: each game's scoring reference, every worked example of the spec computed by the engine."""

import html
import re

import pytest

from scoring.games import GAMES

pytestmark = pytest.mark.django_db

# The worked examples of docs' normative reading (shared/spec/scoring.md), as the French page labels them.
SPEC_EXAMPLES = {
    "numx": {
        "10🌈 10🌑 10🔵": "10",
        "7🔴 7🌈": "14",
        "5🔵 5🟡 5🌈": "15",
        "12🔵 12🔴 12🟢": "36",
        "8🔵 8🔴 8🟢 8🟡": "32",
        "9🔵 9🔴": "0",
        "14🔵 14🟡 16🌈": "16",
        "16🔵 13🔵 5🔵": "5",
        "12🔵 8🔵 12🔴": "8",
        "12🔵 12🔴 12🟢 12🟡 12🌈": "100",
        "9🔵 9🔴 9🟢 9🌈 9🌑": "100",
        "3🔵 3🔴 3🌑": "6",
        "Elya : 6🔵 6🌈 5🌈 7🌑 3🌑 1🟢 13🟢 5🔵 16🔵 3🟢 7🟡 3🔵 7🔴 7🌈 5🟡": "50",
    },
    "numwin": {
        "🌑10 🌈10": "0",
        "🌈5 🌑8": "13",
        "∞ + action + 0 0 0": "20",
        "∞ ∞": "40",
        "∞ 🌈12": "32",
        "🌈10 🌈2": "12",
        "🌈5 5🟢": "10",
        "🌈3 🌑10": "13",
        "🌈12 + action": "12",
        "🌈7 seule": "0",
    },
    "numking": {
        "Annonce 3, 3 plis pris": "19",
        "Annonce 0 sur 5 cartes, 0 pli": "30",
        "Annonce 3, 1 pli pris": "−6",
    },
}
# The spec's tables, row by row as the French page shows them.
SPEC_TABLES = {
    "numking": [
        ["2 manches exactes de suite", "+5"],
        ["3 manches exactes de suite", "+10"],
        ["4 manches exactes de suite", "+15"],
        ["5 manches exactes de suite ou plus", "+40"],
        ["4", "9"],
        ["6", "6"],
    ],
    "numx-malus": [["spéciale ou action", "2", "5"], ["numérique 0–16 (les six familles)", "1 point", "sa valeur"]],
    "numwin": [["∞ seul", "−10"], ["∞ piégé (action ou Rainbow)", "+20"], ["∞ ∞ (deux ou plus)", "+40"]],
    "coop": [
        ["2", "52,0\u00a0%", "52,7\u00a0%", "60,7\u00a0%"],
        ["3", "39,5\u00a0%", "32,7\u00a0%", "34,7\u00a0%"],
        ["4", "20,0\u00a0%", "15,3\u00a0%", "30,7\u00a0%"],
        ["5", "16,0\u00a0%", "4,7\u00a0%", "18,7\u00a0%"],
        ["2", "93", "76"],
        ["3", "96", "79"],
    ],
}


def _text(fragment):
    return html.unescape(re.sub(r"<[^>]+>", "", fragment)).strip()


def examples_on(page):
    """Return {label: points} of the worked examples a rules page shows."""
    found = re.findall(r'class="ex-label">(.*?)</span> → <strong class="ex-points">(.*?)</strong>', page)
    return {_text(label): _text(points) for label, points in found}


def table_rows(page):
    """Return every row of the reference tables as lists of cell texts."""
    return [
        [_text(c) for c in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)]
        for row in re.findall(r"<tr>(.*?)</tr>", page, re.S)
    ]


@pytest.mark.parametrize("slug", sorted(SPEC_EXAMPLES))
def test_it_shows_every_worked_example_of_the_spec_with_the_spec_number(client, slug):
    r = client.get(f"/rules/{slug}/")
    assert r.status_code == 200
    shown = examples_on(r.content.decode())
    assert {label: shown.get(label) for label in SPEC_EXAMPLES[slug]} == SPEC_EXAMPLES[slug]


@pytest.mark.parametrize("slug", sorted(SPEC_TABLES))
def test_it_shows_the_spec_tables_row_by_row(client, slug):
    rows = table_rows(client.get(f"/rules/{slug}/").content.decode())
    for row in SPEC_TABLES[slug]:
        assert row in rows


def test_it_computes_the_examples_when_the_page_renders(client, monkeypatch):
    engine = GAMES["numking"]
    monkeypatch.setattr(engine, "example", lambda given, lang="fr": (777, []))
    shown = examples_on(client.get("/rules/numking/").content.decode())
    assert shown["Annonce 3, 3 plis pris"] == "777"


def test_it_explains_each_example_rule_by_rule_in_english(client):
    page = client.get("/rules/numx/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert examples_on(page)["Elya: 6🔵 6🌈 5🌈 7🌑 3🌑 1🟢 13🟢 5🔵 16🔵 3🟢 7🟡 3🔵 7🔴 7🌈 5🟡"] == "50"
    assert "5🔵 5🟡 5🌈: the rainbow adds up → 5 × 3 = 15" in html.unescape(page)
    assert "52.0" in client.get("/rules/coop/", HTTP_ACCEPT_LANGUAGE="en").content.decode()


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_it_gives_every_game_a_reference_whose_examples_match_the_rule_book(slug):
    engine = GAMES[slug]
    sections = engine.reference("fr")
    assert len(sections) >= 3
    for section in sections:
        for ex in section["examples"]:
            assert ex["points"] == ex["expected"], ex["label"]
