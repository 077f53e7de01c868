"""Num-X short rules with penalty points (rule book 001): lowest total wins."""

from typing import ClassVar

from .base import (
    Game,
    Option,
    check_entries,
    detail,
    is_int,
    leaders,
    next_round,
    shown,
)
from .cards import Deck, cards_from_text, parse_entry, typed_detail
from .i18n import N_, t

MODES = {
    "family": N_("Family (13 cards)"),
    "speedrun": N_("Speed Run (13 cards)"),
    "speedgame": N_("Speed-Game (10 cards, 2 rounds)"),
}
SCORING = {
    "classic": N_("Classic (1 or 2 points a card)"),
    "competition": N_("Competition (face value, 5 points for specials)"),
}
ENDS = {
    "threshold": N_("Classic end: at 30 points"),
    "fixed": N_("Fixed: 5 rounds"),
}
THRESHOLD = 30
FIXED_ROUNDS = 5
SPEEDGAME_ROUNDS = 2

# 119 cards: 102 numeric, 7 specials, 10 actions.
DECK = Deck(
    "Num-X",
    specials={"joker": 2, "infini": 4, "numx": 1},
    actions={"simple": 2, "double": 2, "twister": 2, "block": 3, "bombe-x": 1},
    max_cards=119,
)


# Counting the cards left instead of naming them (classic scoring: the values do not matter).
COUNT_FIELDS = ("numeric", "specials")
COUNT_LIMITS = {
    "numeric": sum(hi - lo + 1 for lo, hi in DECK.values.values()),  # 102: each numeric card once
    "specials": sum(DECK.specials.values()) + sum(DECK.actions.values()),  # 17: 7 specials, 10 actions
}
# How the messages name each count (as the entry form labels it).
COUNT_NAMES = {
    "numeric": N_("numeric cards"),
    "specials": N_("special and action cards"),
}

# The other shapes of an entry, as a message names them.
OTHER_ENTRIES = {
    "cards": N_("the cards"),
    "points": N_("the points"),
}


def scoring_of(options):
    """Return the scoring a sheet's options mean: ``scoring`` may be None (classic, competition in Speed-Game)."""
    options = options if isinstance(options, dict) else {}
    if options.get("scoring"):
        return options["scoring"]
    return "competition" if options.get("mode") == "speedgame" else "classic"


def counted(numeric, specials, lang="fr"):
    """Return (points, details) of cards left counted, not named (classic scoring: 1 a numeric card, 2 a special)."""
    items = []
    if numeric:
        items.append(_count_detail("malus_numeric", numeric, numeric, lang))
    if specials:
        items.append(_count_detail("malus_special", specials, 2 * specials, lang, each=2))
    if not numeric and not specials:
        items.append(detail("went_out", [], 0, lang))
    return numeric + 2 * specials, items


def _count_detail(rule, count, points, lang, **params):
    """Return the detail line of cards counted: the same rule as named cards give, with no cards."""
    return {
        "rule": rule,
        "cards": [],
        "points": points,
        "text": t(f"d.{rule}_counted", lang, count=count, points=points, **params),
    }


def parse_counts(entry, path, name, scoring, problems):
    """Parse a {"numeric": n, "specials": m} entry; return (n, m), or None with the issues recorded.

    Every message names the player. Counts are only taken under classic scoring, where a
    card's value does not matter.
    """
    before = len(problems)
    mixed = [key for key in ("cards", "points") if key in entry]
    if mixed:
        problems.add(path, "counts_mixed", name=name, field=OTHER_ENTRIES[mixed[0]])
    for key in entry:
        if key not in COUNT_FIELDS and key not in ("cards", "points"):
            problems.add(f"{path}.{shown(key)}", "counts_field_unknown", name=name, field=shown(key))
    if len(problems) > before:
        return None
    if scoring != "classic":
        problems.add(path, "counts_competition", name=name)
        return None
    values = []
    for field in COUNT_FIELDS:
        fpath = f"{path}.{field}"
        what = COUNT_NAMES[field]
        if field not in entry:
            problems.add(fpath, "count_missing", name=name, what=what, field=field)
            continue
        value = entry[field]
        if not is_int(value):
            problems.add(fpath, "count_type", name=name, what=what, value=shown(value))
        elif value < 0:
            problems.add(fpath, "count_negative", name=name, what=what, value=value)
        elif value > COUNT_LIMITS[field]:
            problems.add(fpath, "count_above_deck", name=name, what=what, value=value, max=COUNT_LIMITS[field])
        else:
            values.append(value)
    if len(problems) > before:
        return None
    return tuple(values)


def check_round_counts(counts, hands, path, problems):
    """Check the round's cards left against the deck: counted and named cards together, per kind of count.

    ``counts`` is [(name, (numeric, specials))] and ``hands`` [(name, path, cards)]; an issue
    points at the last player whose count passes the deck and names every player counted.
    """
    for i, field in enumerate(COUNT_FIELDS):
        named = [(n, sum(1 for c in cards if (c.value is not None) == (field == "numeric"))) for n, _p, cards in hands]
        given = [(n, c[i]) for n, c in counts if c[i]] + [(n, k) for n, k in named if k]
        total = sum(k for _n, k in given)
        limit = COUNT_LIMITS[field]
        if total > limit and any(c[i] for _n, c in counts):
            last = [n for n, c in counts if c[i]][-1]
            problems.add(
                f"{path}.entries.{last}.{field}",
                "count_round_total",
                name=last,
                names=[n for n, _k in given],
                what=COUNT_NAMES[field],
                count=total,
                max=limit,
            )


def malus(cards, scoring, lang="fr"):
    """Return (points, details) of the cards left to a player at the end of a round."""
    numeric = sorted((c for c in cards if c.value is not None), key=lambda c: c.sort_key())
    others = sorted((c for c in cards if c.value is None), key=lambda c: c.sort_key())
    items = []
    total = 0
    if numeric:
        pts = len(numeric) if scoring == "classic" else sum(c.value for c in numeric)
        items.append(detail("malus_numeric", numeric, pts, lang, count=len(numeric)))
        total += pts
    if others:
        each = 2 if scoring == "classic" else 5
        pts = each * len(others)
        items.append(detail("malus_special", others, pts, lang, count=len(others), each=each))
        total += pts
    if not cards:
        items.append(detail("went_out", [], 0, lang))
    return total, items


def _cards_row(label, cards):
    """Return a row of the penalty table: what ``cards`` left in hand cost in each scoring."""
    return (
        label,
        {"example": {"cards": cards, "scoring": "classic"}},
        {"example": {"cards": cards, "scoring": "competition"}},
    )


# The scoring reference of the short rules (001): the penalty tables, the modes and the end rule.
RULES = (
    {
        "title": N_("Penalties"),
        "text": (
            N_(
                "At the end of a round every card left in a player's hand and on their plateau is a "
                "penalty. The player who went out has none. In classic scoring the values do not matter: "
                "count the cards (numeric cards, specials and actions). In competition scoring, enter the "
                "cards, or type the points."
            ),
        ),
        "table": {
            "head": (
                N_("Card"),
                N_("Classic scoring"),
                N_("Competition scoring"),
            ),
            "rows": (
                (
                    N_("numeric 0–16 (all six families)"),
                    N_("1 point"),
                    N_("face value"),
                ),
                (N_("special or action"), "2", "5"),
                _cards_row(N_("e.g. 12🔵"), "12🔵"),
                _cards_row(N_("e.g. Joker"), "Joker"),
                _cards_row(N_("e.g. Bombe-X"), "bombe-x"),
            ),
        },
        "examples": (
            {
                "label": N_("Classic: 3🔴 14🌈 Joker Block"),
                "input": {"cards": "3🔴 14🌈 Joker block", "scoring": "classic"},
                "points": 6,
            },
            {
                "label": N_("Competition: 3🔴 14🌈 Joker Block"),
                "input": {"cards": "3🔴 14🌈 Joker block", "scoring": "competition"},
                "points": 27,
            },
        ),
    },
    {
        "title": N_("Game modes"),
        "table": {
            "head": (
                N_("Mode"),
                N_("Cards dealt"),
                N_("Rounds"),
                N_("Scoring"),
            ),
            "rows": (
                (MODES["family"], "13", N_("chosen end"), SCORING["classic"]),
                (MODES["speedrun"], "13", N_("chosen end"), SCORING["classic"]),
                (MODES["speedgame"], "10", "2", SCORING["competition"]),
            ),
        },
    },
    {
        "title": N_("End of the game and winning"),
        "text": (
            N_(
                "Family and Speed Run: “classic end”, the game stops after the round in which any total "
                "reaches 30 or more; or “fixed”, after 5 rounds. The lowest total wins; equal totals share "
                "the win."
            ),
        ),
    },
)


class NumXMalus(Game):
    """Num-X short rules: cards left in hand and on the plateau are penalty points."""

    slug = "numx-malus"
    name: ClassVar[str] = N_("Num-X (short rules, penalties)")
    min_players = 2
    max_players = 8
    wins = "lowest"
    entry = "cards"
    lone_empty_unusual = False  # the player who went out has no cards left
    modes: ClassVar[dict] = MODES
    options_spec = (
        Option(
            "mode",
            "choice",
            N_("Game mode"),
            "speedrun",
            MODES,
        ),
        Option(
            "scoring",
            "choice",
            N_("Scoring (default: competition in Speed-Game, else classic)"),
            None,
            SCORING,
        ),
        Option(
            "end",
            "choice",
            N_("End of game (Speed-Game: always 2 rounds)"),
            None,
            ENDS,
        ),
    )
    summary: ClassVar[str] = N_(
        "At the end of a round every card left in hand or on the plateau is a penalty: 1 point "
        "(classic) or its face value (competition), 2 or 5 points for a special or action card. The "
        "game stops at 30 points (or after 5 rounds, 2 in Speed-Game) and the lowest total wins."
    )
    card_kinds = DECK.kinds
    decks = (DECK,)
    entry_field_schemas: ClassVar[dict] = {
        field: {
            "type": "integer",
            "minimum": 0,
            "maximum": COUNT_LIMITS[field],
            "description": "Classic scoring: cards left, counted.",
        }
        for field in COUNT_FIELDS
    }
    card_actions = DECK.action_names
    # An example request of the score endpoint (the API documentation shows it).
    api_example: ClassVar[dict] = {
        "players": ["Elya", "Sasha"],
        "options": {"mode": "speedrun", "scoring": "classic", "end": "threshold"},
        "rounds": [
            {"entries": {"Elya": {"cards": [{"kind": "blue", "value": 3}, {"kind": "joker"}]}, "Sasha": {"cards": []}}}
        ],
    }
    RULES = RULES
    # An entry with nothing to score is "not yet" in a round in progress, as with cards or points.
    INCOMPLETE = Game.INCOMPLETE | {"entry_cards_points_or_counts"}

    def entry_kind(self, options):
        """Classic scoring counts the cards left (values do not matter): steppers; competition needs the cards."""
        return "counts" if scoring_of(options) == "classic" else "cards"

    def count_limits(self, options):
        """Return the deck's limits of a player's counts: 102 numeric cards, 17 specials and actions."""
        return dict(COUNT_LIMITS)

    def empty_rule(self, options):
        """An entry is empty when it holds no card, no points and counts of 0 (the player went out)."""
        rule = super().empty_rule(options)
        rule["blank"] = {**rule["blank"], "numeric": [0, None], "specials": [0, None]}
        return rule

    def form_entry(self, options, entry):
        """Return a stored entry as the sheet's entry form shows it: a hand counted on a counts form."""
        if (
            self.entry_kind(options) != "counts"
            or not isinstance(entry, dict)
            or not isinstance(entry.get("cards"), list)
        ):
            return entry
        cards = [c for c in entry["cards"] if isinstance(c, dict)]
        numeric = sum(1 for c in cards if "value" in c)
        return {"numeric": numeric, "specials": len(cards) - numeric}

    def example(self, given, lang="fr"):
        """Score a worked example: {"cards" (as text), "scoring"}."""
        return malus(cards_from_text(given["cards"]), given["scoring"], lang)

    def _check_options(self, players, opts, given, problems):
        mode = opts["mode"]
        if opts["scoring"] is None:
            opts["scoring"] = "competition" if mode == "speedgame" else "classic"
        if mode == "speedgame":
            if opts["end"] == "threshold" and given.get("end") == "threshold":
                problems.add("options.end", "end_speedgame", value="threshold")
            opts["end"] = "fixed"
        elif opts["end"] is None:
            opts["end"] = "threshold"

    def planned_rounds(self, opts):
        """Return the fixed number of rounds, or None when the threshold decides."""
        if opts["mode"] == "speedgame":
            return SPEEDGAME_ROUNDS
        return FIXED_ROUNDS if opts["end"] == "fixed" else None

    def _score(self, players, opts, rounds, lang, problems):
        scoring = opts["scoring"]
        planned = self.planned_rounds(opts)
        if planned is not None and len(rounds) > planned:
            self._too_many(rounds, planned, problems)
        totals = {p: 0 for p in players}
        results = []
        ended_at = None  # 1-based round after which the threshold ended the game
        for i, rnd in enumerate(rounds):
            path = f"rounds[{i}]"
            rnd = self._round_dict(rnd, path, {"entries"}, problems)
            if rnd is None:
                continue
            entries = check_entries(rnd, path, players, players, problems)
            hands = []
            typed = {}
            counts = []
            for name in players:
                if name in entries:
                    ppath = f"{path}.entries.{name}"
                    entry = entries[name]
                    if any(key in entry for key in COUNT_FIELDS):
                        given = parse_counts(entry, ppath, name, scoring, problems)
                        if given is not None:
                            counts.append((name, given))
                        continue
                    if not entry:
                        problems.add(ppath, "entry_cards_points_or_counts", name=name)
                        continue
                    cards, pts = parse_entry(entry, ppath, name, DECK, problems)
                    if pts is not None:
                        typed[name] = pts
                    elif cards is not None:
                        hands.append((name, f"{ppath}.cards", cards))
            DECK.check_round(hands, problems)
            if counts:
                check_round_counts(counts, hands, path, problems)
            if problems:
                continue
            points = {}
            details = {}
            for name, _path, cards in hands:
                points[name], details[name] = malus(cards, scoring, lang)
            for name, (numeric, specials) in counts:
                points[name], details[name] = counted(numeric, specials, lang)
            for name, pts in typed.items():
                points[name] = pts
                details[name] = [typed_detail(pts, lang)]
            results.append(
                {
                    "points": {p: points[p] for p in players},
                    "details": {p: details[p] for p in players},
                }
            )
            for p in players:
                totals[p] += points[p]
            if planned is None and ended_at is None and max(totals.values()) >= THRESHOLD:
                ended_at = i + 1
                if len(rounds) > ended_at:
                    self._too_many(rounds, ended_at, problems)
        if problems:
            return {}
        if planned is not None:
            finished = len(results) >= planned
        else:
            finished = ended_at is not None
        return {
            "rounds": results,
            "bonuses": {p: 0 for p in players},
            "totals": totals,
            "teams": None,
            "winners": leaders(totals, self.wins) if results else [],
            "finished": finished,
            "next_round": None if finished else next_round(len(results) + 1, players),
        }
