"""Why a use case refuses: each refusal carries its HTTP status, its code and its message.

Services raise these; the API's exception handler (scoring/api/errors.py) turns any of
them into the one error shape, and the pages show `page_message()` at the level
`page_level` (scoring/views.py `tell_refused`). Messages are computed when asked for,
in the active language (the request's).
"""

from django.contrib.messages import constants as levels
from django.utils.text import capfirst
from django.utils.translation import gettext as _

from scoring.games.base import Game
from web.i18n import request_lang


def row_noun(round_words=None) -> str:
    """Return a game's noun of one row ("manche", "partie") in the request's language.

    ``round_words`` is the engine's ``Game.round_words`` (the noun in a language, singular and
    plural); a game that does not say calls a row a round (``Game.round_noun``).
    """
    return (round_words or Game().round_words)(request_lang())["one"]


class ServiceError(Exception):
    """A refused use case; subclasses say its status, code, path and message."""

    status = 400
    code = "invalid"
    path = ""
    page_level = levels.WARNING

    def message(self) -> str:
        return _("Invalid request.")

    @property
    def errors(self) -> list[dict]:
        """Return the API's error items: what is wrong and where."""
        return [{"path": self.path, "code": self.code, "message": self.message()}]

    def headers(self) -> dict[str, str]:
        """Return the response headers the refusal comes with (e.g. the current ETag)."""
        return {}

    def page_message(self) -> str:
        """Return what a page says after the refusal, showing the sheet as it is now."""
        return self.message()


class InvalidInput(ServiceError):
    """The request is refused; `errors` name each offending field in the user's language."""

    page_level = levels.ERROR

    def __init__(self, errors: list[dict]):
        super().__init__(errors)
        self._errors = errors

    @property
    def errors(self) -> list[dict]:
        return self._errors

    def page_message(self) -> str:
        return " ".join(e["message"] for e in self._errors)

    @classmethod
    def one(cls, path: str, code: str, message: str) -> "InvalidInput":
        return cls([{"path": path, "code": code, "message": message}])


class UnknownGame(ServiceError):
    """The game asked for is not in the registry."""

    status = 404
    code = "unknown_game"
    path = "slug"

    def __init__(self, game: str):
        super().__init__(game)
        self.game = game

    def message(self) -> str:
        return _("Unknown game: %(game)s.") % {"game": self.game}


class VersionMismatch(ServiceError):
    """The sheet changed since the client read it (stale If-Match)."""

    status = 412
    code = "stale"

    def __init__(self, current: int):
        super().__init__(current)
        self.current = current

    def message(self) -> str:
        return _("The sheet changed since you loaded it: reload it and try again.")

    def headers(self) -> dict[str, str]:
        return {"ETag": f'"{self.current}"'}

    def page_message(self) -> str:
        return _("The sheet changed on another phone: here it is as it is now. Enter your round again.")


class PreconditionRequired(ServiceError):
    """A write that must name the version it was read at (If-Match) came without it."""

    status = 428
    code = "if_match_required"
    path = "If-Match"

    def message(self) -> str:
        return _(
            "If-Match: send the version the round in progress was read at (its ETag), "
            "so that two phones never store a trick over each other."
        )


class NotFound(ServiceError):
    """What was asked for is not there: the API's 404 `not_found` (the refusals below say what)."""

    status = 404
    code = "not_found"

    def message(self) -> str:
        return _("Not found.")


class SheetGone(NotFound):
    """The sheet went away while the request was answered (expired or purged since it was read).

    The API answers it as any 404; a page as the 404 page (`access.GoneMiddleware`).
    """

    page_level = levels.ERROR


class NoReferee(NotFound):
    """The game has no trick referee: its referee's address (an API one) does not exist."""


class RoundNotFound(NotFound):
    path = "number"

    def message(self) -> str:
        return _("No such round.")


class PlayerNotFound(NotFound):
    """No such player (of the account's table, or of a sheet); `path` names where it was asked for."""

    path = "player"

    def __init__(self, path: str = "player"):
        super().__init__(path)
        self.path = path

    def message(self) -> str:
        return _("No such player.")


class Conflict(ServiceError):
    """Two writers raced for the same round number."""

    status = 409
    code = "conflict"

    def message(self) -> str:
        return _("Another phone added a round at the same moment: reload the sheet.")

    def page_message(self) -> str:
        return _("Another phone added a round at the same moment: here is the sheet as it is now.")


class DraftMoved(ServiceError):
    """The round an entry was meant for was saved (or removed) before the entry arrived; `current` is the next."""

    status = 409
    code = "round_saved"
    path = "number"

    def __init__(self, current: int, round_words=None):
        super().__init__(current)
        self.current = current
        self.round_words = round_words

    def message(self) -> str:
        words = {"n": self.current - 1, "next": self.current, "noun": row_noun(self.round_words)}
        # English starts with the noun ("Game 1 was saved…"), French with its article.
        return capfirst(
            _("%(noun)s %(n)d was saved before your entry arrived: enter it again for %(noun)s %(next)d if you wish.")
            % words
        )

    def page_message(self) -> str:
        return _("That %(noun)s was saved meanwhile: here is the next one.") % {"noun": row_noun(self.round_words)}


class IdempotencyMismatch(ServiceError):
    """The Idempotency-Key was used before with another body."""

    status = 422
    code = "idempotency_mismatch"
    path = "Idempotency-Key"

    def message(self) -> str:
        return _("This Idempotency-Key was already used for a different round.")


class RestoreRefused(ServiceError):
    """A removed round cannot be put back: the sheet moved on since (`already`: it is back already;
    `taken`: another round holds its number now)."""

    status = 409
    code = "restore_refused"

    def __init__(self, number: int, already: bool = False, taken: bool = False, round_words=None):
        super().__init__(number, already, taken)
        self.number = number
        self.already = already
        self.taken = taken
        self.round_words = round_words
        self.page_level = levels.INFO if already else levels.ERROR

    def message(self) -> str:
        words = {"n": self.number, "noun": row_noun(self.round_words)}
        if self.already:
            message = _("%(noun)s %(n)d is back already.")
        elif self.taken:
            message = _("%(noun)s %(n)d cannot be restored: another %(noun)s was added since.")
        else:
            message = _("%(noun)s %(n)d can no longer be restored: the sheet changed since.")
        return capfirst(message % words)  # English starts with the noun, French with its article


class SeatTaken(ServiceError):
    """A seat's claim link opened by someone else than the account holding the seat, without asking to take it."""

    status = 409
    code = "seat_taken"

    def message(self) -> str:
        return _("This seat is already taken by another account.")


class CsrfRefused(ServiceError):
    """A write carrying a browser's cookies failed the CSRF check."""

    status = 403
    code = "csrf"

    def message(self) -> str:
        return _("CSRF check failed: reload the page and try again.")
