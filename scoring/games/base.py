"""Shared machinery of the scoring engines: errors, validation helpers, the Game base class.

Plain Python: no Django here, the engines must run anywhere (tests, bench, API).
"""

import json
from typing import ClassVar

from . import names as _names
from .form import is_form_round, read_entry, read_round
from .i18n import N_, Nn_, _, card_picker, in_languages, n_, ordinal, pN_, t
from .names import MAX_NAME, NameRefused, clean_name, name_key, names_are_kept
from .problems import Issue, Problems, ScoringError, render, shown

MAX_ROUNDS_PER_REQUEST = 500  # rounds one call of the engine scores: bounds the work of one request
TYPED_MIN, TYPED_MAX = -1000, 1000
# The values a numeric card takes, lowest and highest, in every deck of the family.
VALUES = (0, 16)


def is_int(value):
    """Tell whether ``value`` is a JSON integer (booleans are not numbers here)."""
    return isinstance(value, int) and not isinstance(value, bool)


def check_int(value, path, lo, hi, problems):
    """Return ``value`` if it is an int in lo..hi, else record the issue and return None."""
    if not is_int(value):
        problems.add(path, "int_type", value=shown(value))
        return None
    if not lo <= value <= hi:
        problems.add(path, "out_of_range", value=value, min=lo, max=hi)
        return None
    return value


def check_bool(value, path, problems):
    """Return ``value`` if it is a boolean, else record the issue and return None."""
    if not isinstance(value, bool):
        problems.add(path, "bool_type", value=shown(value))
        return None
    return value


def check_fields(obj, path, allowed, problems):
    """Record an issue for each key of ``obj`` that is not in ``allowed``."""
    for key in obj:
        if key not in allowed:
            problems.add(f"{path}.{shown(key)}", "field_unknown", name=shown(key))


# NameRefused codes → the engine's message codes, for players and for teams.
_PLAYER_NAME_CODES = {"control": "player_name_control", "long": "player_name_long"}
_TEAM_NAME_CODES = {"control": "team_name_control"}


def check_name(name, path, problems, *, team=False):
    """Return the name cleaned by the names rule (scoring/games/names.py), or record why not and return None.

    A stored sheet's names (``names_are_kept``) were checked when it was made: they
    only need to be non-empty text, compared as they are.
    """
    try:
        if names_are_kept():
            if not isinstance(name, str) or not name.strip():
                raise NameRefused("type")
            return name
        return clean_name(name)
    except NameRefused as exc:
        if team:
            code = _TEAM_NAME_CODES.get(exc.code, "team_name_invalid")
            problems.add(path, code, **{"name": shown(name), "max": MAX_NAME, **exc.params})
        else:
            code = _PLAYER_NAME_CODES.get(exc.code, "player_name_invalid")
            problems.add(path, code, **{"name": shown(name), **exc.params})
        return None


def _same_name_key(cleaned):
    """Return the key duplicates are found by: the names rule's, or a kept name as it is."""
    return cleaned if names_are_kept() else name_key(cleaned)


def check_players(players, lo, hi, problems):
    """Validate the player list; return it, or None when it is unusable."""
    if not isinstance(players, list):
        problems.add("players", "players_type")
        return None
    ok = True
    seen = set()
    for i, name in enumerate(players):
        path = f"players[{i}]"
        cleaned = check_name(name, path, problems)
        if cleaned is None:
            ok = False
            continue
        key = _same_name_key(cleaned)
        if key in seen:
            problems.add(path, "player_duplicate", name=name)
            ok = False
        seen.add(key)
    if not lo <= len(players) <= hi:
        problems.add("players", "players_count", min=lo, max=hi, count=len(players))
        ok = False
    return players if ok else None


def check_teams(players, raw, problems, size=None, min_size=2, count=None):
    """Validate option ``teams``; return {team: [members]} or None.

    ``size`` forces an exact team size, ``count`` an exact number of teams;
    every player must be in exactly one team.
    """
    path = "options.teams"
    if not isinstance(raw, dict) or not raw:
        problems.add(path, "teams_type")
        return None
    before = len(problems)
    known = set(players)
    owner = {}
    seen_names = set()
    for team, members in raw.items():
        tpath = f"{path}.{shown(team)}"
        cleaned = check_name(team, tpath, problems, team=True)
        if cleaned is None:
            continue
        if _same_name_key(cleaned) in seen_names:
            problems.add(tpath, "team_duplicate", name=team)
        seen_names.add(_same_name_key(cleaned))
        if not isinstance(members, list):
            problems.add(tpath, "teams_type")
            continue
        for j, member in enumerate(members):
            mpath = f"{tpath}[{j}]"
            if not isinstance(member, str) or member not in known:
                problems.add(mpath, "unknown_player", name=shown(member))
            elif member in owner:
                problems.add(mpath, "player_in_two_teams", name=member)
            else:
                owner[member] = team
        if size is not None and len(members) != size:
            problems.add(tpath, "team_size", team=team, size=size, count=len(members))
        elif len(members) < min_size:
            problems.add(tpath, "team_too_small", team=team, count=len(members), min=min_size)
    for name in players:
        if name not in owner:
            problems.add(path, "player_without_team", name=name)
    if count is not None and len(raw) != count:
        problems.add(path, "team_count_exact", count_expected=count, count=len(raw))
    elif len(raw) < 2:
        problems.add(path, "team_count", min=2, count=len(raw))
    if len(problems) > before:
        return None
    # Teams in the order of their first player at the table: a database may keep the keys
    # of a JSON object in another order (PostgreSQL's jsonb sorts them), the table does not.
    seat = {name: i for i, name in enumerate(players)}
    return dict(sorted(raw.items(), key=lambda team: min(seat[m] for m in team[1])))


def check_rounds(rounds, problems):
    """Validate the outer shape of ``rounds``; return the list (possibly empty) or None."""
    if rounds is None:
        return []
    if not isinstance(rounds, list):
        problems.add("rounds", "rounds_type")
        return None
    if len(rounds) > MAX_ROUNDS_PER_REQUEST:
        problems.add("rounds", "rounds_limit", count=len(rounds), max=MAX_ROUNDS_PER_REQUEST)
        return None
    return rounds


def check_entries(rnd, path, expected, players, problems):
    """Validate ``rnd["entries"]``: one dict per expected player, nothing else.

    Return {player: entry dict} for the entries that have the right shape.
    ``expected`` is the list of players who must give an entry; None means
    "unknown" (an earlier error): then only the given entries are checked.
    """
    epath = f"{path}.entries"
    entries = rnd.get("entries")
    if not isinstance(entries, dict):
        problems.add(epath, "entries_type")
        return {}
    good = {}
    known = players if isinstance(players, set) else set(players)
    wanted = known if expected is None else set(expected)
    for name, entry in entries.items():
        ppath = f"{epath}.{shown(name)}"
        if not isinstance(name, str) or name not in known:
            problems.add(ppath, "unknown_player", name=shown(name))
        elif name not in wanted:
            problems.add(ppath, "not_in_tiebreak", name=name)
        elif not isinstance(entry, dict):
            problems.add(ppath, "entry_type", name=name)
        else:
            good[name] = entry
    if expected is not None:
        for name in expected:
            if name not in entries:
                problems.add(f"{epath}.{name}", "entry_missing", name=name)
    return good


def detail(rule, cards, points, lang, **params):
    """Return one explanation line of a score; ``cards`` are Card objects (echoed as dicts)."""
    return {
        "rule": rule,
        "cards": [c.raw for c in cards],
        "points": points,
        "text": t(
            "d." + rule,
            lang,
            cards=" ".join(c.short(lang) for c in cards),
            points=signed(points),
            **{k: render(v, lang) for k, v in params.items()},
        ),
    }


def signed(points):
    """Return points as text, with a real minus sign for negatives."""
    return f"−{-points}" if points < 0 else str(points)


def leaders(totals, wins):
    """Return the names sharing the best total (highest or lowest), in input order."""
    if not totals:
        return []
    best = max(totals.values()) if wins == "highest" else min(totals.values())
    return [name for name, total in totals.items() if total == best]


# What a round's cell marks (Game.cell_marks), by kind.
MARKS = {"penalty": N_("penalty"), "bonus": N_("bonus"), "tiebreak": N_("tie-break")}
# How a winner is decided by the totals (Game.wins), said before the margin.
WIN_RULES = {"highest": N_("Highest total wins"), "lowest": N_("Lowest total wins")}


class Option:
    """Describe one game option: its kind, allowed values and default."""

    def __init__(self, name, kind, label, default=None, choices=None, lo=None, hi=None):
        self.name = name
        self.kind = kind  # "choice", "bool", "int", "seat" (a player's place, 0 = first) or "teams"
        self.label = label
        self.default = default
        self.choices = choices  # for "choice": {slug: its name, N_("…")}
        self.lo = lo
        self.hi = hi

    def describe(self, lang):
        """Return the catalogue entry of this option."""
        entry = {"default": self.default, "label": _(lang, self.label)}
        if self.kind == "choice":
            entry["choices"] = list(self.choices)
            # The engine names its choices in each language; pages show these names, never the slugs.
            entry["choice_labels"] = {slug: _(lang, label) for slug, label in self.choices.items()}
        else:
            entry["type"] = self.kind
            if self.kind in ("int", "seat"):
                entry["min"] = self.lo
                entry["max"] = self.hi
        return entry

    def check(self, value, problems):
        """Return the value if it is acceptable for this option, else record it and return None."""
        path = f"options.{self.name}"
        if self.kind == "choice":
            if not isinstance(value, str) or value not in self.choices:
                code = "mode_unknown" if self.name == "mode" else "choice_unknown"
                problems.add(
                    path,
                    code,
                    option=self.name,
                    value=shown(value),
                    choices=list(self.choices),
                )
                return None
            return value
        if self.kind == "bool":
            return check_bool(value, path, problems)
        if self.kind in ("int", "seat"):
            return check_int(value, path, self.lo, self.hi, problems)
        return value  # "teams": checked by the game, which knows its team rules


class Game:
    """Base of every game engine; subclasses fill the class attributes and ``_score``."""

    slug = ""
    name: ClassVar[str] = ""  # N_("…"): said in the reader's language
    min_players = 2
    max_players = 2
    wins = "highest"
    entry = "cards"
    modes: ClassVar[dict] = {}  # slug -> its name, N_("…")
    options_spec = ()  # Option instances, "mode" first
    summary: ClassVar[str] = ""
    card_kinds = ()
    # The decks a hand of cards is read with ({"cards": [...]} entries); none: the game takes no cards.
    decks: ClassVar[tuple] = ()
    # The JSON Schema of each entry field besides cards and points, and of each round-level
    # field (``draft_fields``): what the API's schema says a request may hold (scoring/api/shapes.py).
    # Bounds that depend on the options or the players are the engine's to check.
    entry_field_schemas: ClassVar[dict] = {}
    # Whether a round may come without entries (a mode where the table has one result).
    entries_optional = False
    round_field_schemas: ClassVar[dict] = {}
    card_actions = ()
    card_values = VALUES  # (lowest, highest) value of a numeric card: the picker's rows
    # An example request of the score endpoint: {"players", "options", "rounds"} (the API documentation shows it).
    api_example: ClassVar[dict] = {}
    # Which partial shows a round's cell (templates/scoring/cells/<cell>.html), from the round's "facts".
    cell = "points"
    # A sheet is a session of many games that the rules never finish: each seat's records
    # count its games and wins, and its stats are the table's win rates, not scores.
    session = False
    # A card round names who declared its end: the entry form asks this question (N_("…")).
    declarer_question: ClassVar[str | None] = None
    # Bonuses added to the totals get a row of their own under the rounds.
    has_bonus_row = False
    # What one row of a sheet is, singular and plural (English, translated by the catalogues): a
    # round of the game, or a game of a session. The pages, the scripts and the messages say it
    # with this noun (the French phrases around it take a feminine noun: « la manche 3 », « la partie 3 »).
    round_noun: ClassVar[tuple] = Nn_("round", "rounds")
    # The detail rules that a round's cell marks, by kind ("penalty", "bonus", "tiebreak"): a number
    # that carries one says so in the cell itself, not only in its explanation.
    detail_marks: ClassVar[dict] = {}

    # The options a preview of one round alone sets (the entry form scores the round being typed).
    preview_options: ClassVar[dict] = {}
    # Whether the engine referees one trick at the table (``trick``): the trick endpoint serves it.
    referee = False
    # With a referee, an example request of the trick endpoint (the API documentation shows it).
    trick_example: ClassVar[dict] = {}

    # -- how the pages enter and show a sheet's rounds ------------------------

    def entry_kind(self, options):
        """Return the kind of entry form a sheet with these options uses (per game: the mode may change it).

        "cards": a hand per player; "bid_tricks": each player's bid and tricks taken;
        "table_result": one result for the whole table, won or lost; "seat_result":
        each player's own result (cards placed, eliminated); "counts": how many cards of
        each kind each player has left (numeric, specials), counted, not named.
        """
        return self.entry

    # The entry fields the whole table knows before the round is saved (a bid is said aloud):
    # the live table shows them on every phone, and keeps the rest of an entry to the sheet's phone.
    public_entry_fields: tuple[str, ...] = ()

    def entry_form(self, options):
        """Return what the pages need to enter and show a sheet's rounds: the engine decides, never the slug.

        ``template`` is the entry partial of the sheet's phone, ``seat_template`` that of a
        player's own phone; ``declarer``: the question asking who declared the round's end
        (in every language, {"fr": ..., "en": ...}), or None; ``own_entry``: each player can send their own entry from
        their phone; ``table_result``: the table saves
        one result, won or lost; ``bonus_row`` and ``total_row``: the rows under the rounds
        (a session, shown with its summary, has no total row: its games are not added up);
        ``summary_template``: the partial of a session's summary (None without one);
        ``count_limits``: on a counts form, the most cards of each count ({"numeric", "specials"}).
        """
        kind = self.entry_kind(options if isinstance(options, dict) else {})
        table_result = kind == "table_result"
        summary = self.summary_template(options)
        return {
            "kind": kind,
            "template": f"scoring/entry/{kind}.html",
            "seat_template": f"scoring/seat_entry/{kind}.html",
            "declarer": in_languages(self.declarer_question) if self.declarer_question else None,
            "own_entry": not table_result,
            "table_result": table_result,
            "bonus_row": self.has_bonus_row,
            "total_row": not table_result and summary is None,
            "summary_template": summary,
            "count_limits": self.count_limits(options) if kind == "counts" else None,
        }

    def count_limits(self, options):
        """Return the most cards of each count one player can have left ({"numeric", "specials"}), for a counts form."""
        return None

    def form_entry(self, options, entry):
        """Return a stored entry as the sheet's entry form shows it (per game: a form may show a hand another way)."""
        return entry

    def summary_template(self, options):
        """Return the partial showing a session's summary (templates/scoring/summary/), or None."""
        return None

    # -- what a seat counts for in the stats and the leaderboards --------------

    def seat_records(self, result, name):
        """Return this game's own records of one seat (X-Trems, streaks…), kept with the seat for the stats."""
        return {}

    def seat_games(self, winner, records):
        """Return (games, wins) one seat counts for: its sheet is one game, won or not; a session counts its games."""
        if self.session:
            return (records or {}).get("games", 0), (records or {}).get("wins", 0)
        return 1, int(winner)

    # The records of ``seat_records`` the stats show, in order: {"key", "label": N_("…"),
    # "combine": "sum" (added over games) or "max" (the best game), "of": the key it is out of, if any}.
    records_shown: ClassVar[tuple] = ()

    def combine_records(self, records) -> dict:
        """Return one player's records over many seats: each key summed, or its best kept (``records_shown``)."""
        best = {r["key"] for r in self.records_shown if r.get("combine") == "max"}
        out = {}
        for rec in records:
            for key, value in (rec or {}).items():
                if not is_int(value):
                    continue
                if key in best:
                    out[key] = max(out.get(key, value), value)
                else:
                    out[key] = out.get(key, 0) + value
        return out

    def record_lines(self, records, lang="fr") -> list:
        """Return the records the stats show, in ``lang``: [{"key", "label", "value", "of"}] (a record never held is left out)."""
        lines = []
        for shown_record in self.records_shown:
            key = shown_record["key"]
            if key not in (records or {}):
                continue
            of = shown_record.get("of")
            lines.append(
                {"key": key, "label": _(lang, shown_record["label"]), "value": records[key], "of": records.get(of)}
            )
        return lines

    # Whether a finished sheet of this game ranks its seats for the table's ratings (a session never finishes).
    @property
    def rated(self) -> bool:
        return not self.session and self.wins in ("highest", "lowest")

    def ranked_sides(self, options, seats) -> list:
        """Return the sides of a finished game with their places: [(members, place)], 1 first, ties sharing a place.

        ``seats`` is [(name, total, winner)] as the sheet keeps them. The sides are the teams
        when the game is played in teams (a team's members share its place), else the players.
        The winners come first (a tie-break may have decided among equal totals); the others
        follow by their side's total, best first, equal totals sharing a place. A team's total
        is its members' totals added: exact for the winners and for two teams, the order of the
        losing teams beyond two as near as the seats tell it. Empty for a game that is not rated.
        """
        if not self.rated:
            return []
        teams = (options or {}).get("teams") if isinstance(options, dict) else None
        by_name = {name: (total, winner) for name, total, winner in seats}
        if teams:
            sides = [[m for m in members if m in by_name] for members in teams.values()]
            sides = [side for side in sides if side]
        else:
            sides = [[name] for name in by_name]
        sign = -1 if self.wins == "highest" else 1

        def key(side):
            won = any(by_name[m][1] for m in side)
            return (0, 0) if won else (1, sign * sum(by_name[m][0] for m in side))

        keys = [key(side) for side in sides]
        return [(side, 1 + sum(1 for other in keys if other < side_key)) for side, side_key in zip(sides, keys)]

    def seat_ranks(self, options, seats) -> dict:
        """Return each seat's place at the end of a finished game ({name: place}, see ``ranked_sides``)."""
        return {member: place for side, place in self.ranked_sides(options, seats) for member in side}

    def session_rates(self, sheets, lang="fr"):
        """Return a session game's win rates per table, from one player's seats' (players, options, records).

        Each row: {"table": how the table was set, "games", "rate", "reference": the rule
        book's rate or None}. Games that are not sessions have none.
        """
        return []

    # -- words and marks ------------------------------------------------------

    def round_words(self, lang="fr") -> dict:
        """Return the noun of one row of a sheet in ``lang``: {"one": "manche", "other": "manches"}."""
        return {"one": n_(lang, *self.round_noun, 1), "other": n_(lang, *self.round_noun, 2)}

    def cell_marks(self, details, lang="fr") -> list:
        """Return the marks of a round's cell from its detail lines: [{"kind", "label", "text"}], one per line marked.

        ``label`` names the kind ("pénalité"), ``text`` is the line it marks, ``said`` both, in the
        language's way (the mark's accessible name: « pénalité : … », "penalty: …").
        """
        marks = []
        for line in details or ():
            kind = self.detail_marks.get(line.get("rule"))
            if kind:
                label, text = _(lang, MARKS[kind]), line.get("text", "")
                # A mark's accessible name: its kind, then the line it marks.
                said = _(lang, N_("{label}: {text}")).format(label=label, text=text)
                marks.append({"kind": kind, "label": label, "text": text, "said": said})
        return marks

    # -- a finished game's ranking -----------------------------------------------

    def ranking(self, result, lang="fr"):
        """Return how a finished game ended: {"places": [...], "decided": [lines]}, or None (not finished, a session).

        Each place is {"place", "place_text" ("1er", "2e ex æquo"), "side" (a player or a
        team), "members", "total", "gap" (points behind the winner), "gap_text"}: the winners
        first (a tie-break may have decided among equal totals), then the others by total,
        best first, equal totals sharing a place. ``decided`` says how the winner was
        decided (the winning rule and the margin, a tie-break, a shared win) and the
        bonuses that counted.
        """
        if not result.get("finished") or not self.rated:
            return None
        teams = result.get("teams")
        if teams:
            sides = {team: (list(v["members"]), v["total"]) for team, v in teams.items()}
        else:
            sides = {name: ([name], total) for name, total in result["totals"].items()}
        winners = [w for w in result.get("winners", []) if w in sides]
        sign = -1 if self.wins == "highest" else 1

        def key(side):
            return (0, 0) if side in winners else (1, sign * sides[side][1])

        order = sorted(sides, key=key)
        best = sides[winners[0]][1] if winners else None
        keys = [key(side) for side in order]
        places = []
        for side, side_key in zip(order, keys):
            place = 1 + sum(1 for other in keys if other < side_key)
            shared = keys.count(side_key) > 1
            gap = abs(sides[side][1] - best) if best is not None else 0
            places.append(
                {
                    "place": place,
                    "place_text": ordinal(place, lang, shared),
                    "side": side,
                    "members": sides[side][0],
                    "total": sides[side][1],
                    "gap": gap,
                    "gap_text": n_(lang, "{gap} point behind", "{gap} points behind", gap).format(gap=gap)
                    if gap
                    else "",
                }
            )
        return {"places": places, "decided": self._decided(result, sides, winners, places, lang)}

    def _decided(self, result, sides, winners, places, lang):
        """Return the lines saying how the winner was decided and which bonuses counted."""
        lines = []
        outcomes = [r["outcome"]["text"] for r in result.get("rounds", ()) if r.get("outcome")]
        total = signed(sides[winners[0]][1]) if winners else ""
        if outcomes and len(winners) == 1:
            said = _(lang, N_("Equal totals ({total}), decided by the tie-break round: {outcome}."))
            lines.append(said.format(total=total, outcome=outcomes[-1]))
        elif len(winners) > 1:
            said = _(lang, N_("Equal totals ({total}): {names} share the win."))
            lines.append(said.format(total=total, names=", ".join(winners)))
        elif winners:
            others = [p for p in places if p["side"] not in winners]
            if others:
                second = [p["side"] for p in others if p["place"] == others[0]["place"]]
                rule = _(lang, WIN_RULES[self.wins])
                gap = others[0]["gap"]
                said = n_(
                    lang,
                    "{rule}: {winner}, {gap} point ahead of {second}.",
                    "{rule}: {winner}, {gap} points ahead of {second}.",
                    gap,
                )
                lines.append(said.format(rule=rule, winner=winners[0], gap=gap, second=", ".join(second)))
        for name, details in (result.get("bonus_details") or {}).items():
            if result.get("bonuses", {}).get(name):
                lines.extend(_(lang, N_("{name}'s bonus: {text}")).format(name=name, text=d["text"]) for d in details)
        return lines

    # -- catalogue ---------------------------------------------------------

    def title(self, lang="fr"):
        """Return the game's name in ``lang``."""
        return _(lang, self.name)

    def describe(self, lang="fr"):
        """Return this game's catalogue entry (JSON-serialisable) in ``lang``."""
        return {
            "slug": self.slug,
            "name": in_languages(self.name),
            "players": {"min": self.min_players, "max": self.max_players},
            "wins": self.wins,
            "modes": [{"slug": s, "name": _(lang, n)} for s, n in self.modes.items()],
            "options": {o.name: o.describe(lang) for o in self.options_spec},
            "cards": self.cards_for({}, lang),
            "entry": self.entry,
            "cell": self.cell,
            "summary": _(lang, self.summary),
            "round_noun": self.round_words(lang),
        }

    def card_set(self, options):
        """Return (kinds, actions): the cards a hand may hold with these options (per game: a mode may remove some)."""
        return self.card_kinds, self.card_actions

    def cards_for(self, options, lang="fr"):
        """Return the cards of a sheet with these options: kinds, actions and the entry form's picker in ``lang``.

        The picker offers only what the engine accepts (Num-X Family has no action card).
        """
        kinds, actions = self.card_set(options if isinstance(options, dict) else {})
        return {
            "kinds": list(kinds),
            "actions": list(actions),
            # The entry form's card picker, named in ``lang``: the pages and app.js show these names.
            "picker": card_picker(kinds, actions, lang, self.card_values),
        }

    # -- lists of sheets ------------------------------------------------------------

    def list_line(self, options, seats, lang="fr"):
        """Return how a list of sheets (the history) sums up a sheet, or None to show its players' totals.

        ``seats`` is [(name, total, records)] in seat order, ``records`` as kept with each
        seat (scoring/stats.py).
        """
        return None

    # -- the rules page ------------------------------------------------------------

    # The game's scoring reference, from its rule book: sections {"title", "text": [...],
    # "table": {"head", "rows"}, "examples": [...]} of texts N_("…") (said in the reader's language). An example is
    # {"label", "input", "points"}: the page shows what ``example(input)`` computes when
    # it renders, and "points" is the rule book's number (a test checks they agree). A
    # table cell may be {"example": input} too: the engine computes it the same way.
    RULES: ClassVar[tuple] = ()

    def example(self, given, lang="fr"):
        """Return (points, details) of one worked example's input (per game)."""
        raise NotImplementedError

    def reference(self, lang="fr"):
        """Return the rules page's sections in ``lang``, every example computed by this engine."""
        sections = []
        for section in self.RULES:
            table = section.get("table")
            sections.append(
                {
                    "title": _text(section["title"], lang),
                    "text": [_text(p, lang) for p in section.get("text", ())],
                    "table": {
                        "head": [_text(h, lang) for h in table["head"]],
                        "rows": [[self._cell(c, lang) for c in row] for row in table["rows"]],
                    }
                    if table
                    else None,
                    "examples": [self._example(ex, lang) for ex in section.get("examples", ())],
                }
            )
        return sections

    def _cell(self, cell, lang):
        if isinstance(cell, dict) and "example" in cell:
            points, _details = self.example(cell["example"], lang)
            return _points_text(points, cell.get("plus", False), lang)
        return _text(cell, lang)

    def _example(self, ex, lang):
        points, details = self.example(ex["input"], lang)
        return {
            "label": _text(ex["label"], lang),
            "points": points,
            "text": _points_text(points, ex.get("plus", False), lang),
            "expected": ex["points"],
            "details": [d["text"] for d in details],
        }

    # -- options -------------------------------------------------------------

    def normalize_options(self, players, options):
        """Return ``options`` with defaults filled; raise ScoringError on bad options."""
        problems = Problems()
        players = check_players(players, self.min_players, self.max_players, problems)
        opts = self._options(players, options, problems)
        problems.raise_if_any()
        return opts

    def _options(self, players, options, problems):
        """Validate options into a new dict (None values for the broken ones)."""
        if options is None:
            options = {}
        if not isinstance(options, dict):
            problems.add("options", "options_type")
            options = {}
        spec = {o.name: o for o in self.options_spec}
        for key in options:
            if key not in spec:
                problems.add(
                    f"options.{shown(key)}",
                    "option_unknown",
                    name=shown(key),
                    choices=list(spec),
                )
        opts = {}
        for name, option in spec.items():
            if name in options and options[name] is not None:
                opts[name] = option.check(options[name], problems)
            else:
                opts[name] = option.default
        self._check_options(players, opts, options, problems)
        return opts

    def _check_options(self, players, opts, given, problems):
        """Fill computed defaults and check option combinations (per game).

        ``players`` is None when the player list itself is broken: skip what depends on it.
        """

    # -- scoring ---------------------------------------------------------------

    def score(self, players, options, rounds, lang="fr", *, kept_names=False):
        """Validate and score a whole game; return the result dict or raise ScoringError.

        ``kept_names``: the players and teams are a stored sheet's, checked by the names
        rule when it was made (an older rule may have let through a name today's
        refuses): the sheet stays readable.
        """
        with _names.kept_names(kept_names):
            return self._validate_and_score(players, options, rounds, lang)

    def trick(self, players, options, plays, played=None, lang="fr"):
        """Resolve one trick played at the table; return who takes it, or raise ScoringError (games with a referee)."""
        raise NotImplementedError

    def kept(self):
        """Return this engine for a stored sheet: its score() takes the names as kept."""
        return KeptNames(self)

    def _validate_and_score(self, players, options, rounds, lang):
        problems = Problems()
        players = check_players(players, self.min_players, self.max_players, problems)
        opts = self._options(players, options, problems)
        rounds = check_rounds(rounds, problems)
        if problems:
            # Rounds cannot be checked against broken players or options.
            problems.raise_if_any()
        rounds = self._read_forms(players, opts, rounds, problems)
        result = self._score(players, opts, rounds, lang, problems)
        problems.raise_if_any()
        result["options"] = opts
        result["ranking"] = self.ranking(result, lang)
        return result

    # -- the entry form ----------------------------------------------------------

    def read_form(self, players, options, fields, *, complete=True):
        """Return the round the entry form's fields describe (form.py); raise ScoringError, paths of the round."""
        return read_round(self, players, options if isinstance(options, dict) else {}, fields, complete=complete)

    def read_form_asking(self, players, options, fields, lang="fr"):
        """Return the round the entry form describes and what the pages ask before saving it ("" for nothing).

        A round with nothing entered is asked about (``empty_question``) unless the form says
        ``confirm_empty`` (« Enregistrer quand même »): the server and the device ask the same.
        """
        rnd = self.read_form(players, options, fields)
        if fields.get("confirm_empty") == "1":
            return rnd, ""
        return rnd, self.empty_question(players, options, rnd, lang)

    def read_seat_form(self, players, options, seat, fields):
        """Return one player's entry from their own phone's form fields (partial is fine)."""
        return read_entry(self, players, options if isinstance(options, dict) else {}, seat, fields)

    def _read_forms(self, players, opts, rounds, problems):
        """Return ``rounds`` with each round given as its entry form (``{"form": …}``) read as a round."""
        if not any(is_form_round(rnd) for rnd in rounds):
            return rounds
        read = []
        for index, rnd in enumerate(rounds):
            if is_form_round(rnd):
                try:
                    rnd = self.read_form(players, opts, rnd["form"])
                except ScoringError as exc:
                    problems.issues.extend(Issue(f"rounds[{index}].{e.path}", e.code, e.params) for e in exc.errors)
            read.append(rnd)
        problems.raise_if_any()
        return read

    # -- the round in progress ------------------------------------------------

    # What a round in progress may still lack: these issues say "not yet", not "wrong".
    INCOMPLETE = frozenset({"entry_missing", "field_required", "entry_cards_or_points"})
    # Round-level fields a round in progress may hold (besides the entries).
    draft_fields: ClassVar[tuple] = ()
    # Of those, the ones that belong to the round in progress only: checked by
    # ``check_draft_fields``, never part of the round that is saved (Num King's tricks played).
    draft_only_fields: ClassVar[tuple] = ()

    def draft_change_issues(self, before: dict, after: dict) -> list:
        """Return the issues of changing the round in progress from `before` to `after` entries (per game)."""
        return []

    def round_of_draft(self, fields, entries):
        """Return the round a round in progress stands for: its round fields and its entries (no draft-only field)."""
        fields = fields if isinstance(fields, dict) else {}
        kept = {k: v for k, v in fields.items() if k not in self.draft_only_fields}
        return {**kept, "entries": dict(entries) if isinstance(entries, dict) else entries}

    def check_draft_fields(self, players, options, rounds, fields, problems):
        """Record the issues of the round in progress's draft-only fields, paths "fields.<name>…" (per game)."""

    def fill_draft(self, players, options, rounds, entries, fields, before_fields):
        """Return the entries of a round in progress once its own fields changed from ``before_fields`` (per game).

        A game whose draft-only fields decide part of the entries (Num King: the tricks
        the referee counted) fills them here; the result is then checked as any entry.
        Nothing is raised: what is wrong is ``check_draft``'s to say.
        """
        return entries

    def draft_referee(self, players, options, rounds, fields, lang="fr"):
        """Return the round in progress's tricks as the referee resolved them, for the pages (None: no referee)."""
        return None

    def check_draft(self, players, options, rounds, entries, fields, *, last=None, before=None):
        """Validate a round in progress as far as it goes; return the players whose entry is complete.

        ``entries`` may lack players and each entry may lack fields: only what is
        wrong with what is there raises ScoringError, its paths relative to the
        round ("entries.Léa.bid"). ``last`` is the player who wrote last: the
        others are checked first, so that a card held twice is refused to the
        second one who picked it, naming the first.
        """
        problems = Problems()
        if not isinstance(fields, dict):
            problems.add("fields", "draft_fields_type")
            fields = {}
        for key in fields:
            if key not in self.draft_fields:
                problems.add(f"fields.{shown(key)}", "field_unknown", name=shown(key))
        if not isinstance(entries, dict):
            problems.add("entries", "entries_type")
            entries = {}
        if isinstance(before, dict):
            problems.issues.extend(self.draft_change_issues(before, entries))
        problems.raise_if_any()
        self.check_draft_fields(players, options, rounds, fields, problems)
        order = list(players) if last not in players else [p for p in players if p != last] + [last]
        prefix = f"rounds[{len(rounds)}]"
        issues = []
        try:
            self.score(order, options, [*rounds, self.round_of_draft(fields, entries)])
        except ScoringError as exc:
            issues = exc.errors
        wrong = list(problems.issues)
        incomplete = set()
        for issue in issues:
            path = issue.path
            if path != prefix and not path.startswith(prefix + "."):
                wrong.append(issue)  # the game itself refuses a new round (it is over)
                continue
            path = path[len(prefix) + 1 :] or "round"
            if issue.code in self.INCOMPLETE:
                incomplete.update(p for p in players if path == f"entries.{p}" or path.startswith(f"entries.{p}."))
                continue
            wrong.append(Issue(path, issue.code, issue.params))
        if wrong:
            raise ScoringError(wrong)
        return [p for p in players if p in entries and p not in incomplete]

    # -- empty entries -----------------------------------------------------------

    # Whether one player with nothing entered is unusual enough to be named when
    # the pages ask before saving (a hand of cards is never empty in Num-X; in the
    # malus game the player who went out has none).
    lone_empty_unusual = True

    def empty_rule(self, options):
        """Return what "nothing entered" means in a round of this game, as data a client can apply.

        ``scope`` is "entries" (each player's entry) or "round" (the round's own
        fields); ``blank`` maps each field to the values that mean it was left
        empty (a missing field counts as null); something is empty when all its
        fields are blank. ``named`` tells whether a single empty player is named.
        """
        return {"scope": "entries", "blank": {"cards": [[], None], "points": [None]}, "named": self.lone_empty_unusual}

    def empty_entries(self, players, options, rnd):
        """Return who entered nothing in ``rnd``: {"nobody": bool, "players": [names to name]}.

        ``nobody`` is true when nothing at all was entered; ``players`` lists the
        players left empty where that is unusual (see ``empty_rule``). The engine
        still scores such a round: asking is the pages' choice.
        """
        rule = self.empty_rule(options if isinstance(options, dict) else {})
        if not isinstance(rnd, dict):
            return {"nobody": False, "players": []}
        if rule["scope"] == "round":
            return {"nobody": _is_blank(rnd, rule["blank"]), "players": []}
        entries = rnd.get("entries")
        if not isinstance(entries, dict) or not entries:
            return {"nobody": False, "players": []}
        order = [p for p in players if p in entries] if isinstance(players, list) else list(entries)
        empty = [name for name in order if isinstance(entries[name], dict) and _is_blank(entries[name], rule["blank"])]
        if len(empty) == len(entries):
            return {"nobody": True, "players": []}
        return {"nobody": False, "players": empty if rule["named"] else []}

    def empty_question(self, players, options, rnd, lang="fr") -> str:
        """Return what the pages ask before saving ``rnd`` with nothing entered (see ``empty_rule``), or ""."""
        empty = self.empty_entries(players, options, rnd)
        if empty["nobody"]:
            return t("empty_round", lang)
        if empty["players"]:
            return t("empty_players", lang, names=", ".join(empty["players"]))
        return ""

    def _score(self, players, opts, rounds, lang, problems):
        raise NotImplementedError

    # -- shared pieces ---------------------------------------------------------

    def _round_dict(self, rnd, path, allowed, problems):
        """Return ``rnd`` if it is a dict with only ``allowed`` keys (issues recorded)."""
        if not isinstance(rnd, dict):
            problems.add(path, "round_type")
            return None
        check_fields(rnd, path, allowed, problems)
        return rnd

    def _too_many(self, rounds, finished_after, problems):
        """Record that rounds exist after the one that ended the game."""
        problems.add("rounds", "too_many_rounds", finished=finished_after, count=len(rounds))


def detail_rules(result, name):
    """Return the rules of every detail line of one player's rounds (what their records count)."""
    return [d["rule"] for r in result["rounds"] for d in r["details"].get(name, [])]


def _text(value, lang):
    """Return a text of the rules data in ``lang`` (plain strings are the same in every language)."""
    return value.render(lang) if hasattr(value, "render") else str(value)


DECIMAL_POINT = pN_("decimal separator", ".")


def _points_text(points, plus=False, lang="fr"):
    """Return a figure as the rules page shows it: "−6", "+40" for a bonus, "52,0 %" for a rate."""
    if points is None:
        return "—"
    if isinstance(points, float):
        text = f"{points:.1f}"
        return text.replace(".", _(lang, DECIMAL_POINT)) + "\u00a0%"
    return f"+{points}" if plus and points >= 0 else signed(points)


def _is_blank(obj, blank):
    """Tell whether every field of ``obj`` named in ``blank`` holds one of its blank values (JSON equality)."""
    return all(json.dumps(obj.get(f)) in {json.dumps(v) for v in values} for f, values in blank.items())


class KeptNames:
    """A game engine for a stored sheet: the same engine, scoring with ``kept_names=True``."""

    def __init__(self, game):
        self._game = game

    def __getattr__(self, attr):
        return getattr(self._game, attr)

    def score(self, players, options, rounds, lang="fr"):
        """Score a stored sheet's game (see Game.score)."""
        return self._game.score(players, options, rounds, lang, kept_names=True)


def next_round(number, players, cards=None, tiebreak=False):
    """Return the ``next_round`` object."""
    return {
        "number": number,
        "cards": cards,
        "tiebreak": tiebreak,
        "players": list(players),
    }
