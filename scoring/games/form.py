"""The entry form's fields, read as a round: the one reading of the pages' entry form.

The sheet's phone and a player's own phone post their form's fields as they are (text by
field name, ``bid-0``, ``cards-2``…: fields are named by seat, never by player name, so
any name is safe in a form); the server (the plain form post, the API's ``{"form": …}``)
and the in-page engine on the device read them here, the same way. What cannot be read is
refused with the path of the round it was meant for (``entries.Léa.points``).

Plain Python like the engines: no Django.
"""

import json
import re

from .i18n import N_, _, pN_
from .problems import Issue, ScoringError, shown

# The most digits a typed number may have (a larger one is "too large", not "not a number").
MAX_DIGITS = 9
_INT = re.compile(r"[-\u2212]?[0-9]+")

# What the labels of the fields that are not a player's say.
LABELS = {
    "placed": N_("Cards placed"),
    "cards": N_("Cards dealt"),
    "numeric": pN_("form label", "numeric cards"),
    "specials": N_("specials and actions"),
}


def is_form_round(rnd) -> bool:
    """Tell whether a round is given as its entry form's fields: ``{"form": {name: text}}``."""
    return isinstance(rnd, dict) and set(rnd) == {"form"}


def read_round(game, players, options, form, *, complete=True, lang="fr") -> dict:
    """Return the round the entry form's fields describe, for the engine to check.

    With ``complete``, a bid or tricks left empty is refused, naming the player (an empty
    stepper is not a 0); a round in progress (``complete=False``) may leave them empty.
    Raise ScoringError (paths relative to the round) for what cannot be read.
    """
    fields = _fields(form)
    return READERS[game.entry_kind(options)](game, players, fields, complete)


def read_entry(game, players, options, seat, form) -> dict:
    """Return one player's entry from their own phone's form: partial is fine (a bid before the tricks)."""
    fields = _fields(form)
    name = players[seat]
    kind = game.entry_kind(options)
    if kind == "bid_tricks":
        values = {
            field: read_int(fields, f"{field}-{seat}", f"entries.{name}.{field}", name) for field in ("bid", "tricks")
        }
        return {field: value for field, value in values.items() if value is not None}
    if kind == "counts":
        return _counts_entry(fields, seat, name) or {}
    if kind in ("seat_result", "table_result"):
        placed = read_int(fields, f"placed-{seat}", f"entries.{name}.placed", name)
        out = {"eliminated": fields.get(f"eliminated-{seat}") == "on"}
        if placed is not None:
            out["placed"] = placed
        return out
    return _cards_round(game, players, fields, False).get("entries", {}).get(name, {})


def _fields(form) -> dict:
    """Return the form's fields ({name: text}), or refuse a form that is not one."""
    if not isinstance(form, dict):
        raise ScoringError([Issue("form", "form_type")])
    wrong = [
        Issue(f"form.{shown(k)}", "form_field_type", {"name": shown(k)})
        for k, v in form.items()
        if not isinstance(k, str) or not isinstance(v, str)
    ]
    if wrong:
        raise ScoringError(wrong)
    return form


def read_int(fields, name, path, label):
    """Return the whole number typed in the field ``name`` (None when empty); refuse anything else, naming it."""
    return read_number(fields.get(name), path, label)


def read_number(text, path, label):
    """Return the whole number ``text`` spells (None when empty); refuse anything else, naming the field."""
    value = (text or "").strip()
    if value == "":
        return None
    if _INT.fullmatch(value):
        digits = value.lstrip("-\u2212")
        if len(digits) <= MAX_DIGITS:
            return -int(digits) if digits != value else int(digits)
        code = "form_too_large"
    else:
        code = "form_not_a_number"
    raise ScoringError([Issue(path, code, {"label": label, "value": shown(value, 20)})])


def _seat_number(text):
    """Return the number a field the page sets holds (a seat, the deck's size), or None."""
    text = (text or "").strip()
    return int(text) if re.fullmatch(f"[0-9]{{1,{MAX_DIGITS}}}", text) else None


class _Label:
    """A field's label said in the reader's language: "Léa, numeric cards", "Cards placed"."""

    def __init__(self, text, name=None):
        self.text, self.name = text, name

    def render(self, lang):
        said = _(lang, self.text)
        return f"{self.name}, {said}" if self.name else said


def _by_seat(players, read_one) -> dict:
    """Return {name: entry} for the seats ``read_one(seat, name)`` reads (None: not at this round's table).

    Every seat is read: what is wrong with each is refused together, as the page lists it.
    """
    entries, issues = {}, []
    for seat, name in enumerate(players):
        try:
            entry = read_one(seat, name)
        except ScoringError as exc:
            issues.extend(exc.errors)
            continue
        if entry is not None:
            entries[name] = entry
    if issues:
        raise ScoringError(issues)
    return entries


def _seat_result_round(game, players, fields, complete):
    def one(seat, name):
        placed = read_int(fields, f"placed-{seat}", f"entries.{name}.placed", name)
        return {"placed": placed if placed is not None else 0, "eliminated": fields.get(f"eliminated-{seat}") == "on"}

    return {"entries": _by_seat(players, one)}


def _table_result_round(game, players, fields, complete):
    placed = read_int(fields, "placed", "placed", _Label(LABELS["placed"]))
    if fields.get("won"):
        # "won" places the whole deck, whose size the page sends along.
        placed = _seat_number(fields.get("deck")) or placed
    return {"placed": placed}


def _bid_tricks_round(game, players, fields, complete):
    def one(seat, name):
        issues, entry = [], {}
        for field in ("bid", "tricks"):
            try:
                value = read_int(fields, f"{field}-{seat}", f"entries.{name}.{field}", name)
            except ScoringError as exc:
                issues.extend(exc.errors)
                continue
            if value is None and complete:
                issues.append(Issue(f"entries.{name}.{field}", f"form_{field}_missing", {"name": name}))
            entry[field] = value if value is not None else 0
        if issues:
            raise ScoringError(issues)
        return entry

    data = {"entries": _by_seat(players, one)}
    cards = read_int(fields, "cards", "cards", _Label(LABELS["cards"]))
    if cards is not None:
        data["cards"] = cards
    return data


def _cards_round(game, players, fields, complete):
    def one(seat, name):
        if f"cards-{seat}" not in fields and f"points-{seat}" not in fields:
            return None  # not at this round's table (a Num Win tie-break seats only the tied)
        raw_cards = (fields.get(f"cards-{seat}") or "").strip()
        points = read_int(fields, f"points-{seat}", f"entries.{name}.points", name)
        cards = _cards(raw_cards) if raw_cards else []
        if cards is None:
            raise ScoringError([Issue(f"entries.{name}.cards", "form_cards_unreadable", {"name": name})])
        if points is not None and cards:
            # Only one can count: neither is dropped without a word.
            raise ScoringError([Issue(f"entries.{name}.points", "form_cards_and_points", {"name": name})])
        return {"points": points} if points is not None else {"cards": cards}

    data = {"entries": _by_seat(players, one)}
    if game.declarer_question:
        seat = _seat_number(fields.get("declarer"))
        data["declarer"] = players[seat] if seat is not None and seat < len(players) else None
    return data


# Text a card cannot hold: NUL, a lone surrogate (JSON can spell both; no page can show them).
_BAD_TEXT = re.compile("[\x00\ud800-\udfff]")


def _cards(text):
    """Return the cards a hand's field holds (JSON: a list of flat objects), or None if it holds anything else."""
    try:
        cards = json.loads(text, parse_constant=lambda name: None)
    except (ValueError, RecursionError):
        return None

    def plain(value):
        if isinstance(value, str):
            return not _BAD_TEXT.search(value)
        return isinstance(value, (int, float)) and value is not None

    if not isinstance(cards, list):
        return None
    for card in cards:
        if not isinstance(card, dict) or not all(plain(k) and plain(v) for k, v in card.items()):
            return None
    return cards


def _counts_entry(fields, seat: int, name: str) -> dict | None:
    """Return one player's cards left, counted ({"numeric", "specials"}; empty = 0), or their typed points.

    None when the form holds no field of this seat (not at this round's table).
    """
    if not any(f"{field}-{seat}" in fields for field in ("numeric", "specials", "points")):
        return None
    issues, read = [], {}
    labels = {"numeric": _Label(LABELS["numeric"], name), "specials": _Label(LABELS["specials"], name), "points": name}
    for field, label in labels.items():
        try:
            read[field] = read_int(fields, f"{field}-{seat}", f"entries.{name}.{field}", label)
        except ScoringError as exc:
            issues.extend(exc.errors)
    if issues:
        raise ScoringError(issues)
    if read["points"] is not None:
        if read["numeric"] or read["specials"]:
            raise ScoringError([Issue(f"entries.{name}.points", "form_counts_and_points", {"name": name})])
        return {"points": read["points"]}
    return {"numeric": read["numeric"] or 0, "specials": read["specials"] or 0}


def _counts_round(game, players, fields, complete):
    return {"entries": _by_seat(players, lambda seat, name: _counts_entry(fields, seat, name))}


# How each kind of entry form is read (templates/scoring/entry/<kind>.html).
READERS = {
    "cards": _cards_round,
    "counts": _counts_round,
    "bid_tricks": _bid_tricks_round,
    "table_result": _table_result_round,
    "seat_result": _seat_result_round,
}
