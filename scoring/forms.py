"""Turn the pages' form fields into the JSON the engine takes, and back.

Fields are named by seat number (`bid-0`, `cards-2`…), never by player name, so any
name is safe in a form.
"""

import json

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.games import names
from scoring.services import InvalidInput
from web.parsing import JSONRefused, load_json, looks_like_int, parse_int

# The messages the pages also give before sending (templates/scoring/_hands.html, app.js): the same words.
NOT_A_NUMBER = gettext_lazy("%(label)s: “%(value)s” is not a whole number.")
TOO_LARGE = gettext_lazy("%(label)s: “%(value)s” is too large.")
BOTH = gettext_lazy(
    "%(name)s: cards picked and points typed, only one can count. Remove the cards or clear the points."
)


def _int(value: str, path: str, label: str):
    """Return the whole number typed in a field (None when empty); refuse anything else, naming the field."""
    value = (value or "").strip()
    if value == "":
        return None
    number = parse_int(value, signed=True)
    if number is not None:
        return number
    if looks_like_int(value):
        message, code = TOO_LARGE, "too_large"
    else:
        message, code = NOT_A_NUMBER, "not_a_number"
    shown = value if len(value) <= 20 else value[:19] + "…"
    raise InvalidInput([{"path": path, "code": code, "message": message % {"label": label, "value": shown}}])


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


def round_data(post, sheet, *, complete: bool = True) -> dict:
    """Return the round the entry form describes, for the engine to check.

    The form is the one the engine's entry form description names (its kind). With
    ``complete``, a bid or tricks left empty is refused, naming the player (an empty
    stepper is not a 0); a round in progress (``complete=False``) may leave them empty.
    """
    form = sheet.engine.entry_form(sheet.options)
    return ROUND_READERS[form["kind"]](post, sheet, form, complete)


def _seat_result_round(post, sheet, form, complete):
    entries = {}
    for seat, name in enumerate(sheet.players):
        placed = _int(post.get(f"placed-{seat}"), f"entries.{name}.placed", name)
        entries[name] = {
            "placed": placed if placed is not None else 0,
            "eliminated": post.get(f"eliminated-{seat}") == "on",
        }
    return {"entries": entries}


def _table_result_round(post, sheet, form, complete):
    placed = _int(post.get("placed"), "placed", _("Cards placed"))
    if post.get("won"):
        # "won" places the whole deck, whose size the page sends along.
        placed = parse_int(post.get("deck")) or placed
    return {"placed": placed}


def _bid_tricks_round(post, sheet, form, complete):
    players = sheet.players
    entries, missing = {}, []
    for seat, name in enumerate(players):
        bid = _int(post.get(f"bid-{seat}"), f"entries.{name}.bid", name)
        tricks = _int(post.get(f"tricks-{seat}"), f"entries.{name}.tricks", name)
        if complete:
            for field, value, message in (
                ("bid", bid, _("%(name)s: the bid is missing.")),
                ("tricks", tricks, _("%(name)s: the tricks taken are missing.")),
            ):
                if value is None:
                    missing.append(
                        {"path": f"entries.{name}.{field}", "code": "required", "message": message % {"name": name}}
                    )
        entries[name] = {"bid": bid if bid is not None else 0, "tricks": tricks if tricks is not None else 0}
    if missing:
        raise InvalidInput(missing)
    data = {"entries": entries}
    cards = _int(post.get("cards"), "cards", _("Cards dealt"))
    if cards is not None:
        data["cards"] = cards
    return data


def _cards_round(post, sheet, form, complete):
    players = sheet.players
    entries = {}
    for seat, name in enumerate(players):
        if f"cards-{seat}" not in post and f"points-{seat}" not in post:
            continue  # not at this round's table (a Num Win tie-break seats only the tied)
        raw_cards = (post.get(f"cards-{seat}") or "").strip()
        points = _int(post.get(f"points-{seat}"), f"entries.{name}.points", name)
        cards = []
        if raw_cards:
            try:
                cards = load_json(raw_cards)
            except JSONRefused:
                raise InvalidInput(
                    [
                        {
                            "path": f"entries.{name}.cards",
                            "code": "invalid",
                            "message": _("%(name)s: the cards could not be read.") % {"name": name},
                        }
                    ]
                ) from None
        if points is not None and cards:
            # Only one can count: neither is dropped without a word (the page says the same, app.js).
            raise InvalidInput(
                [{"path": f"entries.{name}.points", "code": "cards_and_points", "message": BOTH % {"name": name}}]
            )
        entries[name] = {"points": points} if points is not None else {"cards": cards}
    data = {"entries": entries}
    if form["declarer"]:
        seat = parse_int(post.get("declarer", ""))
        data["declarer"] = players[seat] if seat is not None and seat < len(players) else None
    return data


def _counts_entry(post, seat: int, name: str) -> dict | None:
    """Return one player's cards left, counted ({"numeric", "specials"}; empty = 0), or their typed points.

    None when the form holds no field of this seat (not at this round's table).
    """
    if f"numeric-{seat}" not in post and f"specials-{seat}" not in post and f"points-{seat}" not in post:
        return None
    numeric = _int(post.get(f"numeric-{seat}"), f"entries.{name}.numeric", f"{name}, {_('numeric cards')}")
    specials = _int(post.get(f"specials-{seat}"), f"entries.{name}.specials", f"{name}, {_('specials and actions')}")
    points = _int(post.get(f"points-{seat}"), f"entries.{name}.points", name)
    if points is not None:
        if numeric or specials:
            both = _(
                "%(name)s: cards counted and points typed, only one can count. Set the counts to 0 or clear the points."
            )
            raise InvalidInput(
                [{"path": f"entries.{name}.points", "code": "counts_and_points", "message": both % {"name": name}}]
            )
        return {"points": points}
    return {"numeric": numeric or 0, "specials": specials or 0}


def _counts_round(post, sheet, form, complete):
    entries = {}
    for seat, name in enumerate(sheet.players):
        entry = _counts_entry(post, seat, name)
        if entry is not None:
            entries[name] = entry
    return {"entries": entries}


# How each kind of entry form is read (templates/scoring/entry/<kind>.html).
ROUND_READERS = {
    "cards": _cards_round,
    "counts": _counts_round,
    "bid_tricks": _bid_tricks_round,
    "table_result": _table_result_round,
    "seat_result": _seat_result_round,
}


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
    name = sheet.players[seat]
    kind = sheet.engine.entry_form(sheet.options)["kind"]
    if kind == "bid_tricks":
        out = {}
        for field in ("bid", "tricks"):
            value = _int(post.get(f"{field}-{seat}"), f"entries.{name}.{field}", name)
            if value is not None:
                out[field] = value
        return out
    if kind == "counts":
        return _counts_entry(post, seat, name) or {}
    if kind in ("seat_result", "table_result"):
        placed = _int(post.get(f"placed-{seat}"), f"entries.{name}.placed", name)
        out = {"eliminated": post.get(f"eliminated-{seat}") == "on"}
        if placed is not None:
            out["placed"] = placed
        return out
    return round_data(post, sheet).get("entries", {}).get(name, {})
