"""The names rule (scoring/games/names.py): checked, cleaned, checked again; one key for duplicates."""

import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.games import GAMES, ScoringError
from scoring.games.names import MAX_NAME, NameRefused, clean_name, name_key, tidy, tidy_teams
from tests.fuzzing import examples


@pytest.mark.parametrize(
    "raw, kept",
    [
        ("  Elya  ", "Elya"),
        ("Jean \t\n Pierre", "Jean Pierre"),
        ("Jean\u00a0\u2003Pierre", "Jean Pierre"),  # no-break and em spaces are spaces
        ("E\u0301lya", "\u00c9lya"),  # NFC
        ("👩\u200d💻", "👩\u200d💻"),  # zero-width joiner inside an emoji
        ("❤\ufe0f\u200d🔥 Noa", "❤\ufe0f\u200d🔥 Noa"),
        ("עִברִית 🎲", "עִברִית 🎲"),
        ("x" * MAX_NAME, "x" * MAX_NAME),
    ],
)
def test_it_keeps_a_name_cleaned(raw, kept):
    assert clean_name(raw) == kept


@pytest.mark.parametrize(
    "raw, code",
    [
        (None, "type"),
        (3, "type"),
        ("", "empty"),
        ("  \t ", "empty"),
        ("El\x00ya", "control"),
        ("El\x7fya", "control"),
        ("El\x85ya", "control"),
        ("El\x1cya", "control"),  # Python calls it a space; it is a control
        ("El\u200bya", "control"),
        ("El\u200dya", "control"),  # a joiner between letters hides a difference
        ("\u200d👩", "control"),
        ("El\u202eya", "control"),
        ("El\u2066ya", "control"),
        ("\ufeffElya", "control"),
        ("El\u00adya", "control"),
        ("a\udc80", "control"),
        ("\U000e0067", "control"),  # a tag outside a flag
        ("\u3164", "control"),  # a Hangul filler: a letter that draws nothing
        ("Elya\u2800", "control"),
        ("x" * (MAX_NAME + 1), "long"),
        ("a  " + "b" * 38, "long"),  # 41 as sent, 40 once folded: still too long
        ("\u0958" * 30, "long"),  # 30 as sent, 60 once in NFC
    ],
)
def test_it_refuses_a_name_that_breaks_the_rule(raw, code):
    with pytest.raises(NameRefused) as caught:
        clean_name(raw)
    assert caught.value.code == code


def test_it_names_the_refused_character_and_shows_where_it_was():
    with pytest.raises(NameRefused) as caught:
        clean_name("El\u200bya")
    assert caught.value.params == {"name": "El\ufffdya", "char": "U+200B ZERO WIDTH SPACE"}
    with pytest.raises(NameRefused) as caught:
        clean_name("a\x00")
    assert caught.value.params["char"] == "U+0000"


@pytest.mark.parametrize(
    "first, second",
    [
        ("Élya", "E\u0301lya"),
        ("Elya", "ELYA"),
        ("Elya", "Ｅｌｙａ"),
        ("Jean Pierre", " Jean  Pierre"),
        ("Straße", "STRASSE"),
    ],
)
def test_it_gives_names_that_are_the_same_person_one_key(first, second):
    assert name_key(first) == name_key(second)


def test_it_leaves_a_refused_name_as_sent_for_the_engine_to_name():
    assert tidy(" Elya ") == "Elya"
    assert tidy("El\u200bya") == "El\u200bya"
    assert tidy(None) is None


def test_it_tidies_teams_like_players_unless_two_teams_would_merge():
    options = {"teams": {" Rouge ": [" A", "B "], "Bleu": ["C", "D"]}, "mode": "xgame"}
    assert tidy_teams(options) == {"teams": {"Rouge": ["A", "B"], "Bleu": ["C", "D"]}, "mode": "xgame"}
    merging = {"teams": {"Rouge": ["A", "B"], "Rouge ": ["C", "D"]}}
    assert tidy_teams(merging) == merging
    assert tidy_teams({"teams": "x"}) == {"teams": "x"} and tidy_teams(None) is None


def test_it_refuses_in_the_engine_with_the_field_named():
    with pytest.raises(ScoringError) as caught:
        GAMES["numx"].score(["Elya", "Sa\u200bsha", "elya"], {}, [])
    found = {m["path"]: (m["code"], m["message"]) for m in caught.value.messages("en")}
    assert found["players[1]"][0] == "player_name_control"
    assert "Sa\ufffdsha" in found["players[1]"][1] and "U+200B" in found["players[1]"][1]
    assert found["players[2]"][0] == "player_duplicate"


def test_it_refuses_a_team_name_with_an_invisible_character_in_the_engine():
    with pytest.raises(ScoringError) as caught:
        GAMES["numx"].score(["A", "B", "C", "D"], {"teams": {"R\u202e": ["A", "B"], "B": ["C", "D"]}}, [])
    found = {m["code"]: m for m in caught.value.messages("fr")}
    assert found["team_name_control"]["path"].startswith("options.teams.R")
    assert "Nom d'équipe" in found["team_name_control"]["message"] and "U+202E" in found["team_name_control"]["message"]


NAMES = st.text(st.characters(codec="utf-8") | st.sampled_from("\x00\u200b\u200d\u202e\t \u00a0\udc80"), max_size=50)


@settings(max_examples=examples(300))
@given(NAMES)
def test_it_keeps_only_names_that_follow_the_rule(raw):
    try:
        kept = clean_name(raw)
    except NameRefused:
        return
    assert 1 <= len(kept) <= MAX_NAME and len(raw) <= MAX_NAME
    assert kept == kept.strip() and "  " not in kept and unicodedata.is_normalized("NFC", kept)
    assert "\x00" not in kept and not any(0xD800 <= ord(c) <= 0xDFFF for c in kept)
    kept.encode()  # storable as UTF-8
    assert clean_name(kept) == kept  # cleaning twice changes nothing
