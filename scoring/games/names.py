"""The one rule for the names people type: players, teams, public names.

A name is checked, then cleaned, then checked again (docs/rules.md, "Names"):

1. it is text of at most ``MAX_NAME`` characters as sent;
2. it holds no control, format or surrogate character (Unicode Cc, Cf, Cs): NUL,
   C1 controls, zero-width spaces, bidi overrides…, nor a letter that draws nothing
   (Hangul fillers, U+2800). Tabs and line breaks count as spaces. Two format characters that real text needs stay allowed: the zero-width
   joiner inside an emoji sequence (👩‍💻) and the tags of a subdivision flag;
3. it is put in Unicode NFC, every run of spaces becomes one space, ends trimmed;
4. what is left is 1 to ``MAX_NAME`` characters.

Two names are the same person when their ``name_key`` is equal: compatibility
forms and case do not count.

Plain Python, like the engines: Django code calls it too (sheets, pages, profiles).
"""

import contextlib
import contextvars
import unicodedata

MAX_NAME = 40

# Typed whitespace: folded into a space rather than refused.
_TYPED_SPACES = frozenset("\t\n\v\f\r")
_ZWJ = "\u200d"
_BLACK_FLAG = "\U0001f3f4"
_TAGS = range(0xE0020, 0xE0080)
_EMOJI_BEFORE_ZWJ = frozenset(("So", "Sk", "Mn", "Me"))  # a symbol, its skin tone or its variation selector
# Letters and marks that draw nothing (Hangul fillers, the blank braille pattern, the
# grapheme joiner, Khmer inherent vowels): printable for Python, invisible on a screen.
_BLANK = frozenset("\u115f\u1160\u3164\uffa0\u2800\u034f\u17b4\u17b5")


# Set while a stored sheet is scored again: its names were checked when it was made,
# possibly under an older rule, and must not make the sheet unreadable (Game.score).
_KEPT = contextvars.ContextVar("kept_names", default=False)


@contextlib.contextmanager
def kept_names(kept: bool = True):
    """Check names inside this block as names a sheet already keeps (see ``names_are_kept``)."""
    token = _KEPT.set(kept)
    try:
        yield
    finally:
        _KEPT.reset(token)


def names_are_kept() -> bool:
    """Tell whether the names being checked are a stored sheet's: then only their shape is checked again."""
    return _KEPT.get()


class NameRefused(ValueError):
    """A name breaks the rule; ``code`` says how ("type", "long", "control", "empty")."""

    def __init__(self, code: str, **params):
        super().__init__(code, params)
        self.code = code
        self.params = params


def _allowed_format(text: str, i: int) -> bool:
    """Tell whether the format character at ``i`` is one real text needs there."""
    char = text[i]
    if char == _ZWJ:
        before = text[i - 1] if i else ""
        after = text[i + 1] if i + 1 < len(text) else ""
        return (
            bool(before and after)
            and unicodedata.category(before) in _EMOJI_BEFORE_ZWJ
            and unicodedata.category(after) == "So"
        )
    if ord(char) in _TAGS:
        before = text[i - 1] if i else ""
        return before == _BLACK_FLAG or (bool(before) and ord(before) in _TAGS)
    return False


def _refused(text: str, i: int) -> bool:
    """Tell whether the character at ``i`` may not be in a name."""
    char = text[i]
    if char in _BLANK:
        return True
    if char.isprintable() or char in _TYPED_SPACES:
        return False  # the common case, without asking for the category
    category = unicodedata.category(char)
    if category in ("Cc", "Cs"):
        return True
    return category == "Cf" and not _allowed_format(text, i)


def forbidden_at(text: str) -> int | None:
    """Return the index of the first character a name may not hold, or None."""
    return next((i for i in range(len(text)) if _refused(text, i)), None)


def code_point(char: str) -> str:
    """Return how a message names a character: "U+200B ZERO WIDTH SPACE"."""
    label = f"U+{ord(char):04X}"
    name = unicodedata.name(char, "")
    return f"{label} {name}" if name else label


def visible(text: str, limit: int = MAX_NAME) -> str:
    """Return ``text`` for a message: refused characters shown as "�", cut at ``limit``."""
    shown = "".join("\ufffd" if _refused(text, i) else char for i, char in enumerate(text))
    return shown if len(shown) <= limit else shown[: limit - 1] + "…"


def _fold(text: str) -> str:
    """Return ``text`` with every run of spaces (any Unicode space) made one space, ends trimmed."""
    return " ".join(text.split())


def clean_name(value, *, max_length: int = MAX_NAME) -> str:
    """Return the name as it is kept (NFC, spaces folded, trimmed); raise NameRefused if it breaks the rule."""
    if not isinstance(value, str):
        raise NameRefused("type")
    # Printable ASCII cannot hold a refused character: most names skip the scan.
    bad = None if value.isascii() and value.isprintable() else forbidden_at(value)
    if bad is not None:
        raise NameRefused("control", name=visible(value), char=code_point(value[bad]))
    if len(value) > max_length:
        raise NameRefused("long", name=visible(value), length=len(value), max=max_length)
    name = _fold(value if value.isascii() else unicodedata.normalize("NFC", value))
    if not name:
        raise NameRefused("empty", name=visible(value))
    if len(name) > max_length:  # NFC may lengthen a few characters (U+0958 → 2)
        raise NameRefused("long", name=visible(name), length=len(name), max=max_length)
    return name


def tidy(value):
    """Return the cleaned name, or ``value`` unchanged when it breaks the rule (for the engine to refuse)."""
    try:
        return clean_name(value)
    except NameRefused:
        return value


def name_key(name: str) -> str:
    """Return the key under which two names are the same: NFKC, spaces folded, case-insensitive."""
    if name.isascii():
        return _fold(name).casefold()
    return unicodedata.normalize("NFKC", _fold(unicodedata.normalize("NFKC", name)).casefold())


def tidy_teams(options):
    """Return ``options`` with the team names and their members tidied like the players (a copy)."""
    if not isinstance(options, dict) or not isinstance(options.get("teams"), dict):
        return options
    raw = options["teams"]
    if len({tidy(team) for team in raw}) < len(raw):
        return options  # two teams named alike: left as sent, for the engine to name the duplicate
    teams = {
        tidy(team): [tidy(m) for m in members] if isinstance(members, list) else members
        for team, members in raw.items()
    }
    return {**options, "teams": teams}
