"""Read what a request carries (numbers typed in forms, JSON text, tokens) without ever raising on odd input.

`str.isdigit()` is True for "²" and "٣", and `int()` refuses past 4,300 digits: both
turned a form field into a 500. Python's JSON decoder recurses once per nesting level
and PostgreSQL refuses NUL in text: a hostile body did the same. Everything here
answers "no" (None, False or `JSONRefused`) instead.
"""

import hmac
import json
import re

MAX_DEPTH = 32

_UNSIGNED = re.compile(r"[0-9]+")
_SIGNED = re.compile(r"[-\u2212]?[0-9]+")  # U+2212 is the minus sign the pages print
# What no JSON text of ours holds: NUL (PostgreSQL refuses it in text and jsonb) and
# lone surrogates (they cannot be encoded as UTF-8, so neither stored nor answered).
_BAD_TEXT = re.compile(r"[\x00\ud800-\udfff]")
_STRUCTURE = re.compile(r'[\[\]{}"\\]')


def parse_int(text, *, max_digits: int = 9, signed: bool = False) -> int | None:
    """Return the whole number ``text`` spells in ASCII digits (1 to ``max_digits``), else None.

    Spaces around are ignored; ``signed`` allows a leading "-" (or "−").
    """
    if not isinstance(text, str):
        return None
    text = text.strip(" \t\r\n")
    match = (_SIGNED if signed else _UNSIGNED).fullmatch(text)
    if match is None:
        return None
    digits = text.lstrip("-\u2212")
    if len(digits) > max_digits:
        return None
    return -int(digits) if digits != text else int(digits)


class JSONRefused(ValueError):
    """JSON text we do not read: ``code`` is "invalid", "too_deep" or "bad_character"; ``path`` says where."""

    def __init__(self, code: str, path: str = "", **params):
        super().__init__(code, path, params)
        self.code = code
        self.path = path
        self.params = params


def nesting_depth(text: str) -> int:
    """Return how deeply arrays and objects nest in JSON text (without parsing it, in one pass)."""
    depth = deepest = 0
    in_string = False
    skip = -1
    for match in _STRUCTURE.finditer(text):
        pos = match.start()
        if pos == skip:
            continue  # the character after a backslash
        char = text[pos]
        if in_string:
            if char == "\\":
                skip = pos + 1
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


def _path(parent: str, key) -> str:
    if isinstance(key, int):
        return f"{parent}[{key}]"
    key = _BAD_TEXT.sub("\ufffd", key)
    return f"{parent}.{key}" if parent else key


def _check_text(value, path: str) -> None:
    """Raise JSONRefused for the first string (key or value) holding NUL or a lone surrogate."""
    if isinstance(value, str):
        bad = _BAD_TEXT.search(value)
        if bad:
            raise JSONRefused("bad_character", path, char=f"U+{ord(bad.group()):04X}")
    elif isinstance(value, dict):
        for key, item in value.items():
            _check_text(key, _path(path, key))
            _check_text(item, _path(path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            _check_text(item, _path(path, index))


def _no_constant(name):
    raise ValueError(f"{name} is not valid JSON")


def load_json(text: str, *, max_depth: int = MAX_DEPTH):
    """Return the value JSON ``text`` holds; raise JSONRefused if it is not JSON, too deep, or holds NUL or a lone surrogate."""
    if nesting_depth(text) > max_depth:
        raise JSONRefused("too_deep", max=max_depth)
    try:
        value = json.loads(text, parse_constant=_no_constant)
    except (ValueError, RecursionError) as exc:
        raise JSONRefused("invalid", detail=str(exc)[:200]) from None
    _check_text(value, "")
    return value


def is_printable_ascii(text: str) -> bool:
    """Tell whether ``text`` holds only printable ASCII (space to "~"): what a key sent in a header may be."""
    return text.isascii() and text.isprintable()


def same_token(expected: str, given) -> bool:
    """Tell in constant time whether ``given`` is ``expected``; any other text (non-ASCII, not a string) is False."""
    if not isinstance(given, str) or not given or not given.isascii():
        return False
    return hmac.compare_digest(expected.encode(), given.encode())
