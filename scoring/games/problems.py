"""What the engines say is wrong with their input: an issue, the error that lists them, and how a value is shown.

Plain Python like every engine module (scoring/games/base.py re-exports these names).
"""

from dataclasses import dataclass, field

from .i18n import t


@dataclass(frozen=True)
class Issue:
    """One problem found in the input: where it is, what it is, and the facts to say it."""

    path: str
    code: str
    params: dict = field(default_factory=dict)

    def message(self, lang="fr"):
        """Return the issue as plain words in ``lang``."""
        return t(self.code, lang, **{k: render(v, lang) for k, v in self.params.items()})


class ScoringError(Exception):
    """Raised when the input cannot be scored; ``errors`` lists every problem found."""

    def __init__(self, errors):
        self.errors = list(errors)
        super().__init__("; ".join(f"{e.path}: {e.message('en')}" for e in self.errors))

    def messages(self, lang="fr"):
        """Return the problems as [{"path", "code", "message"}] with messages in ``lang``."""
        return [{"path": e.path, "code": e.code, "message": e.message(lang)} for e in self.errors]


def render(value, lang):
    """Return a parameter of a message as text in ``lang``."""
    if hasattr(value, "render"):
        return value.render(lang)
    if isinstance(value, (list, tuple)):
        return ", ".join(render(v, lang) for v in value)
    if isinstance(value, str):
        return value
    return shown(value)


def shown(value, limit=40):
    """Return a short printable form of any input value (for messages about bad input)."""
    if isinstance(value, bool):
        text = "true" if value else "false"
    elif value is None:
        text = "null"
    elif isinstance(value, str):
        text = value
    else:
        text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


class Problems:
    """Collect issues while validating, then raise them all at once."""

    __slots__ = ("issues",)

    def __init__(self):
        self.issues = []

    def add(self, path, code, **params):
        """Record one issue."""
        self.issues.append(Issue(path, code, params))

    def __bool__(self):
        return bool(self.issues)

    def __len__(self):
        return len(self.issues)

    def raise_if_any(self):
        """Raise ScoringError if any issue was recorded."""
        if self.issues:
            raise ScoringError(self.issues)
