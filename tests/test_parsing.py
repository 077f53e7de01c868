"""web/parsing.py: numbers, JSON and tokens read without ever raising on odd input."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.fuzzing import examples
from web.parsing import JSONRefused, load_json, nesting_depth, parse_int, same_token


@pytest.mark.parametrize(
    "text, expected",
    [
        ("0", 0),
        ("42", 42),
        (" 7 ", 7),
        ("999999999", 999999999),
        ("1000000000", None),  # 10 digits
        ("9" * 5000, None),  # int() would raise past 4,300 digits
        ("\u00b2", None),  # isdigit() says yes
        ("\u0663", None),  # an Arabic-Indic three: int() would read it
        ("1_000", None),  # int() would read it
        ("+3", None),
        ("-3", None),
        ("", None),
        ("3.0", None),
        (None, None),
        (3, None),
    ],
)
def test_it_reads_only_ascii_digits(text, expected):
    assert parse_int(text) == expected


@pytest.mark.parametrize(
    "text, expected", [("-3", -3), ("\u22123", -3), ("-0", 0), ("12", 12), ("--3", None), ("-", None)]
)
def test_it_reads_a_sign_when_asked(text, expected):
    assert parse_int(text, signed=True) == expected


@pytest.mark.parametrize(
    "text, depth",
    [("1", 0), ("[]", 1), ('{"a": [1, {"b": []}]}', 4), ('["[[[", "\\"[[["]', 1), ("[" * 5000, 5000)],
)
def test_it_measures_nesting_without_parsing(text, depth):
    assert nesting_depth(text) == depth


@pytest.mark.parametrize(
    "text, code, path",
    [
        ("[" * 33 + "]" * 33, "too_deep", ""),
        ('{"a":' * 2000 + "1" + "}" * 2000, "too_deep", ""),
        ('{"players": ["a\\u0000"]}', "bad_character", "players[0]"),
        ('{"players": ["a\\udc80"]}', "bad_character", "players[0]"),
        ('{"o": {"\\u0000": 1}}', "bad_character", "o.\ufffd"),
        ('"\\ud800"', "bad_character", ""),
        ("[1,]", "invalid", ""),
        ("NaN", "invalid", ""),
        ("1" * 5000, "invalid", ""),  # past Python's 4,300 digits
    ],
)
def test_it_refuses_json_it_does_not_read(text, code, path):
    with pytest.raises(JSONRefused) as caught:
        load_json(text)
    assert (caught.value.code, caught.value.path) == (code, path)


def test_it_reads_json_up_to_the_depth_limit():
    assert load_json("[" * 32 + "]" * 32) is not None
    assert load_json('{"a": "\\ud83c\\udccf"}') == {"a": "🃏"}


@settings(max_examples=examples(200))
@given(
    st.recursive(
        st.none() | st.integers() | st.text(), lambda inner: st.lists(inner) | st.dictionaries(st.text(), inner)
    )
)
def test_it_measures_the_depth_json_really_has(value):
    def depth(v):
        if isinstance(v, list):
            return 1 + max((depth(x) for x in v), default=0)
        if isinstance(v, dict):
            return 1 + max((depth(x) for x in v.values()), default=0)
        return 0

    assert nesting_depth(json.dumps(value)) == depth(value)
    assert nesting_depth(json.dumps(value, ensure_ascii=False)) == depth(value)


@pytest.mark.parametrize("given", ["", "é" * 32, "a\x00", None, 42, "b" * 32])
def test_it_tells_a_wrong_token_without_raising(given):
    assert same_token("a" * 32, given) is False


def test_it_tells_the_right_token():
    assert same_token("a" * 32, "a" * 32) is True
