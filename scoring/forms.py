"""Turn the pages' form fields into the JSON the engine takes, and back.

Fields are named by seat number (`bid-0`, `cards-2`…), never by player name, so any
name is safe in a form.
"""

import json

from django.utils.translation import get_language

from scoring.games import names
from scoring.games.base import ScoringError
from scoring.games.form import read_number
from scoring.services import InvalidInput


def _read(read, *args, **kwargs):
    """Return what the engine reads from a form; its refusal as the pages' InvalidInput, in the request's language."""
    try:
        return read(*args, **kwargs)
    except ScoringError as exc:
        raise InvalidInput(exc.messages(get_language())) from None


def _int(value: str, path: str, label: str):
    """Return the whole number typed in a field (None when empty); refuse anything else, naming the field."""
    return _read(read_number, value, path, label)


def sheet_options(post, game: dict) -> dict:
    """Return the options chosen on the new-sheet form, as the engine names them."""
    options = {}
    for name, spec in game["options"].items():
        if name == "teams":
            continue
        raw = post.get(f"opt-{name}")
        if spec.get("type") == "bool":
            options[name] = raw == "on"
        elif raw not in (None, ""):
            if spec.get("type") in ("int", "seat"):
                options[name] = _int(raw, f"options.{name}", spec.get("label", name))
            else:
                options[name] = raw
    return options


def sheet_teams(post, typed: list[str]) -> dict | None:
    """Return {"team": [players]} from the per-seat team fields, or None without teams.

    `typed` holds the name fields as sent, blank rows included, so that seat n is
    the row of `team-n`; names and teams are tidied like the players (names rule).
    """
    teams: dict[str, list[str]] = {}
    for seat, name in enumerate(typed):
        team = post.get(f"team-{seat}") or ""
        if name.strip() and team.strip():
            teams.setdefault(names.tidy(team), []).append(names.tidy(name))
    return teams or None


# What the entry form sends for the server itself, not for the engine to read.
NOT_ENTERED = frozenset({"csrfmiddlewaretoken", "number", "version"})


def posted_form(post) -> dict:
    """Return the entry form's fields as posted ({name: text}, the last value of each), for the engine to read."""
    return {name: post.get(name) for name in post if name not in NOT_ENTERED}


def round_data(post, sheet, *, complete: bool = True) -> dict:
    """Return the round the entry form describes, as the engine reads it (scoring/games/form.py).

    With ``complete``, a bid or tricks left empty is refused, naming the player (an empty
    stepper is not a 0); a round in progress (``complete=False``) may leave them empty.
    """
    return _read(sheet.engine.read_form, sheet.players, sheet.options, posted_form(post), complete=complete)


def form_values(sheet, data: dict | None) -> dict:
    """Return the per-seat values a round holds, to fill the entry form (edit or retry)."""
    values = {"seats": {}, "placed": "", "declarer": "", "cards": ""}
    if not data:
        return values
    entries = data.get("entries") or {}
    for seat, name in enumerate(sheet.players):
        e = entries.get(name) or {}
        # The form may show an entry another way than it was stored (a hand counted): the engine says how.
        shown = sheet.engine.form_entry(sheet.options, e) or {}
        values["seats"][seat] = {
            # A count of 0 shows as an empty field, which means 0 (nothing to type over).
            "numeric": shown.get("numeric") or "",
            "specials": shown.get("specials") or "",
            "cards": json.dumps(e["cards"]) if isinstance(e.get("cards"), list) else "",
            "points": e.get("points", "") if "cards" not in e else "",
            "bid": e.get("bid", ""),
            "tricks": e.get("tricks", ""),
            "placed": e.get("placed", ""),
            "eliminated": bool(e.get("eliminated")),
        }
    values["placed"] = data.get("placed", "")
    values["cards"] = data.get("cards", "")
    if data.get("declarer") in sheet.players:
        values["declarer"] = str(sheet.players.index(data["declarer"]))
    return values


def posted_values(sheet, post) -> dict:
    """Return the entry form's values as they were sent, to show a refused round again as typed."""
    fields = ("cards", "points", "bid", "tricks", "placed", "numeric", "specials")
    return {
        "seats": {
            seat: {
                **{field: post.get(f"{field}-{seat}", "") for field in fields},
                "eliminated": post.get(f"eliminated-{seat}") == "on",
            }
            for seat in range(len(sheet.players))
        },
        "placed": post.get("placed", ""),
        "declarer": post.get("declarer", ""),
        "cards": post.get("cards", ""),
    }


def seat_entry(post, sheet, seat: int) -> dict:
    """Return one player's entry from their own phone's form: partial is fine (a bid before the tricks)."""
    return _read(sheet.engine.read_seat_form, sheet.players, sheet.options, seat, posted_form(post))
