"""The cooperative climbing game (rule book 003): a session of games, never finished."""

from typing import ClassVar

from .base import (
    Game,
    Option,
    check_bool,
    check_entries,
    check_fields,
    check_int,
    detail,
    leaders,
    next_round,
)
from .i18n import N_, Nn_, n_

MODES = {
    "cooperatif": N_("Cooperative (whole table)"),
    "adversaire": N_("Versus (one colour each)"),
}
PLAYERS = {"cooperatif": (2, 5), "adversaire": (2, 4)}
COLOUR_CARDS = 17  # one classic family, 0-16
DECOUVERTE_REMOVED = 17  # one family left out

# Rule book simulations, in percent: players -> (normal, expert, decouverte).
REFERENCE = {
    2: (52.0, 52.7, 60.7),
    3: (39.5, 32.7, 34.7),
    4: (20.0, 15.3, 30.7),
    5: (16.0, 4.7, 18.7),
}


def deck_size(n_players, decouverte=False):
    """Return the Coopératif deck size: 93 cards with 2 players, 96 with 3+, minus Découverte."""
    size = 93 if n_players == 2 else 96
    return size - DECOUVERTE_REMOVED if decouverte else size


def reference_rate(n_players, expert=False, decouverte=False):
    """Return the rule book's simulated win rate (percent), None when it was not simulated."""
    row = REFERENCE.get(n_players)
    if row is None or (expert and decouverte):
        return None
    if expert:
        return row[1]
    if decouverte:
        return row[2]
    return row[0]


def _rate(n, **mode):
    return {"example": {"rate": n, **mode}}


# The reference of the rule book (003): modes, deck sizes and the simulated win rates.
RULES = (
    {
        "title": N_("What the sheet keeps"),
        "text": (
            N_(
                "The app keeps the table's results; it does not referee play. A sheet is a session: each "
                "row is one game played, and the table closes the session."
            ),
        ),
    },
    {
        "title": N_("Cooperative mode (2–5 players)"),
        "text": (
            N_(
                "The whole table plays on the piles; the game is won when the whole deck is placed. Enter "
                "the cards placed (0 … deck). Découverte option (3 families): 17 cards fewer; Expert option "
                "(no ±10 rule): same deck."
            ),
        ),
        "table": {
            "head": (
                N_("Players"),
                N_("Deck"),
                N_("Découverte deck"),
            ),
            "rows": tuple(
                (str(n), {"example": {"deck": n}}, {"example": {"deck": n, "decouverte": True}}) for n in (2, 3, 4, 5)
            ),
        },
    },
    {
        "title": N_("Reference win rates"),
        "text": (N_("The rule book's simulations, in percent; the sheet shows the table's own rate beside them."),),
        "table": {
            "head": (
                N_("Players"),
                N_("Normal"),
                N_("Expert (before action cards)"),
                N_("Découverte"),
            ),
            "rows": tuple(
                (str(n), _rate(n), _rate(n, expert=True), _rate(n, decouverte=True)) for n in sorted(REFERENCE)
            ),
        },
    },
    {
        "title": N_("Versus mode (2–4 players)"),
        "text": (
            N_(
                "Everyone owns a colour: enter the own-colour cards placed (0–17) and whether they were "
                "eliminated. A player placing all 17 wins; otherwise the most cards placed wins, eliminated "
                "or not, ties shared. The session summary counts each player's game wins."
            ),
        ),
    },
)


class Coop(Game):
    """The climbing game: the sheet records each game of a session and the table's record."""

    slug = "coop"
    name: ClassVar[str] = N_("Cooperative climbing game")
    min_players = 2
    max_players = 5
    wins = "coop"
    entry = "coop"
    cell = "coop"
    session = True
    # A sheet is a session: each row is one game played.
    round_noun: ClassVar[tuple] = Nn_("game", "games")
    draft_fields = ("placed",)
    entries_optional = True  # the cooperative mode: one result for the whole table
    entry_field_schemas: ClassVar[dict] = {
        "placed": {"type": "integer", "minimum": 0, "maximum": COLOUR_CARDS, "description": "Versus: cards placed."},
        "eliminated": {"type": "boolean", "description": "Versus: eliminated."},
    }
    round_field_schemas: ClassVar[dict] = {
        "placed": {
            "type": "integer",
            "minimum": 0,
            "description": "Cooperative: the cards the table placed (at most the deck).",
        }
    }
    lone_empty_unusual = False  # in Adversaire a player may place nothing

    def entry_kind(self, options):
        """Return "seat_result" in Adversaire (each player's cards placed), else "table_result" (the table's)."""
        return "seat_result" if options.get("mode") == "adversaire" else "table_result"

    def summary_template(self, options):
        """Return the session's summary: each player's wins (Adversaire), else the table's win rate."""
        return "scoring/summary/wins.html" if options.get("mode") == "adversaire" else "scoring/summary/rate.html"

    records_shown: ClassVar[tuple] = (
        {
            "key": "best",
            "label": N_("Best climb (cards placed)"),
            "combine": "max",
        },
    )

    def seat_records(self, result, name):
        """Return the session's games and the ones won: the table's (Coopératif) or the seat's (Adversaire).

        In Coopératif, ``best`` is the table's best climb of the session: the most cards it placed in one game.
        """
        summary = result.get("summary") or {}
        wins = summary.get("wins", 0)
        records = {"games": summary.get("games", 0), "wins": wins.get(name, 0) if isinstance(wins, dict) else wins}
        if summary.get("best") is not None:
            records["best"] = summary["best"]
        return records

    def session_rates(self, sheets, lang="fr"):
        """Return the table's win rate per player count and options (Coopératif), beside the rule book's."""
        groups = {}
        for players, options, records in sheets:
            options = options or {}
            if options.get("mode", "cooperatif") != "cooperatif":
                continue
            key = (len(players), bool(options.get("expert")), bool(options.get("decouverte")))
            games_wins = groups.setdefault(key, [0, 0])
            games_wins[0] += (records or {}).get("games", 0)
            games_wins[1] += (records or {}).get("wins", 0)
        return [
            {
                "table": " · ".join(
                    [n_(lang, "{count} player", "{count} players", n).format(count=n)]
                    + ["Expert"] * expert
                    + ["Découverte"] * decouverte
                ),
                "games": games,
                "rate": round(100 * wins / games, 1) if games else None,
                "reference": reference_rate(n, expert, decouverte),
            }
            for (n, expert, decouverte), (games, wins) in sorted(groups.items())
        ]

    def empty_rule(self, options):
        """Return "nothing entered": no card placed by the table (Coopératif) or by anyone (Adversaire)."""
        if options.get("mode") == "adversaire":
            return {"scope": "entries", "blank": {"placed": [0, None], "eliminated": [False, None]}, "named": False}
        return {"scope": "round", "blank": {"placed": [0, None]}, "named": False}

    modes: ClassVar[dict] = MODES
    options_spec = (
        Option(
            "mode",
            "choice",
            N_("Game mode"),
            "cooperatif",
            MODES,
        ),
        Option(
            "expert",
            "bool",
            N_("Expert mode (no ±10 rule)"),
            False,
        ),
        Option(
            "decouverte",
            "bool",
            N_("Découverte mode (3 families, 17 cards fewer)"),
            False,
        ),
    )
    summary: ClassVar[str] = N_(
        "In Cooperative mode the whole table plays on rising and falling piles: the game is won "
        "when the whole deck is placed, otherwise the cards placed are the score to beat. In Versus "
        "mode everyone completes their own colour: 17 cards placed wins, else the most cards "
        "placed."
    )
    card_kinds = (
        "red",
        "blue",
        "green",
        "yellow",
        "shadow",
        "rainbow",
        "joker",
        "action",
    )
    card_actions = ("flip", "flash", "simple", "passe")
    # An example request of the score endpoint (the API documentation shows it).
    api_example: ClassVar[dict] = {
        "players": ["Elya", "Sasha", "Mendy"],
        "options": {"mode": "cooperatif"},
        "rounds": [{"placed": 96}, {"placed": 71}],
    }
    RULES = RULES

    def example(self, given, lang="fr"):
        """Compute a reference figure: a {"deck": players} size or a {"rate": players} win rate."""
        if "deck" in given:
            return deck_size(given["deck"], given.get("decouverte", False)), []
        return reference_rate(given["rate"], given.get("expert", False), given.get("decouverte", False)), []

    def list_line(self, options, seats, lang="fr"):
        """Return a session as a list of sheets shows it: "Léa, Paul · 3 parties, 2 gagnées".

        A running total of cards placed across games means nothing: the session's games
        and wins do (Adversaire: each player's wins).
        """
        records = [(name, rec or {}) for name, _total, rec in seats]
        first = records[0][1] if records else {}
        games = first.get("games", 0)
        played = n_(lang, "{count} game", "{count} games", games).format(count=games)
        if (options or {}).get("mode") == "adversaire":
            wins = [
                n_(lang, "{name} {count} win", "{name} {count} wins", rec.get("wins", 0)).format(
                    name=name, count=rec.get("wins", 0)
                )
                for name, rec in records
            ]
            return f"{played} · {', '.join(wins)}"
        names = ", ".join(name for name, _rec in records)
        won = first.get("wins", 0)
        won_said = n_(lang, "{count} won", "{count} won", won).format(count=won)
        return f"{names} · {played}, {won_said}"

    def _check_options(self, players, opts, given, problems):
        mode = opts["mode"]
        if mode == "adversaire" and opts["decouverte"]:
            problems.add("options.decouverte", "decouverte_adversaire")
        if players is not None and mode in PLAYERS:
            lo, hi = PLAYERS[mode]
            if not lo <= len(players) <= hi:
                problems.add(
                    "players",
                    "players_count_mode",
                    mode=MODES[mode],
                    min=lo,
                    max=hi,
                    count=len(players),
                )

    def _score(self, players, opts, rounds, lang, problems):
        if opts["mode"] == "adversaire":
            return self._adversaire(players, rounds, lang, problems)
        return self._cooperatif(players, opts, rounds, lang, problems)

    def _cooperatif(self, players, opts, rounds, lang, problems):
        deck = deck_size(len(players), opts["decouverte"])
        results = []
        for i, rnd in enumerate(rounds):
            path = f"rounds[{i}]"
            rnd = self._round_dict(rnd, path, {"entries", "placed"}, problems)
            if rnd is None:
                continue
            if rnd.get("entries") not in (None, {}):  # absent, null or empty: the table has one result
                problems.add(f"{path}.entries", "entries_not_allowed")
            if "placed" not in rnd:
                problems.add(f"{path}.placed", "field_required", name="placed")
                continue
            placed = check_int(rnd["placed"], f"{path}.placed", 0, deck, problems)
            if placed is None or problems:
                continue
            rule = "coop_won" if placed == deck else "coop_lost"
            line = detail(rule, [], placed, lang, placed=placed, deck=deck)
            results.append(
                {
                    "points": {p: placed for p in players},
                    "details": {p: [line] for p in players},
                    "placed": placed,
                    "won": placed == deck,
                    # What a game's cell shows: the cards placed over the deck, won or lost.
                    "facts": {p: {"placed": placed, "deck": deck, "won": placed == deck} for p in players},
                }
            )
        if problems:
            return {}
        wins = sum(1 for r in results if r["won"])
        games = len(results)
        summary = {
            "mode": "cooperatif",
            "games": games,
            "wins": wins,
            "win_rate": round(100 * wins / games, 1) if games else None,
            "best": max((r["placed"] for r in results), default=None),
            "deck": deck,
            "reference_win_rate": reference_rate(len(players), opts["expert"], opts["decouverte"]),
        }
        winners = list(players) if results and results[-1]["won"] else []
        return self._session(players, results, winners, summary, entry_players=[])

    def _adversaire(self, players, rounds, lang, problems):
        known = set(players)
        results = []
        for i, rnd in enumerate(rounds):
            path = f"rounds[{i}]"
            rnd = self._round_dict(rnd, path, {"entries"}, problems)
            if rnd is None:
                continue
            entries = check_entries(rnd, path, players, known, problems)
            placed = {}
            eliminated = {}
            for name in players:
                entry = entries.get(name)
                if entry is None:
                    continue
                epath = f"{path}.entries.{name}"
                check_fields(entry, epath, ("placed", "eliminated"), problems)
                if "placed" not in entry:
                    problems.add(f"{epath}.placed", "field_required", name="placed")
                else:
                    value = check_int(entry["placed"], f"{epath}.placed", 0, COLOUR_CARDS, problems)
                    if value is not None:
                        placed[name] = value
                out = entry.get("eliminated", False)
                if check_bool(out, f"{epath}.eliminated", problems) is not None:
                    eliminated[name] = out
            complete = [p for p in players if placed.get(p) == COLOUR_CARDS]
            if len(complete) > 1:
                # The first to place all 17 wins at once, so a second one cannot follow.
                problems.add(path, "adversaire_two_complete", names=complete)
            if problems:
                continue
            details = {}
            for p in players:
                rule = "adversaire_eliminated" if eliminated[p] else "adversaire"
                details[p] = [detail(rule, [], placed[p], lang, placed=placed[p])]
            game_winners = complete or leaders(placed, "highest")
            results.append(
                {
                    "points": dict(placed),
                    "details": details,
                    "eliminated": dict(eliminated),
                    "winners": game_winners,
                    "facts": {
                        p: {"winner": p in game_winners, "complete": p in complete, "eliminated": eliminated[p]}
                        for p in players
                    },
                }
            )
        if problems:
            return {}
        wins = {p: sum(1 for r in results if p in r["winners"]) for p in players}
        summary = {"mode": "adversaire", "games": len(results), "wins": wins}
        winners = list(results[-1]["winners"]) if results else []
        out = self._session(players, results, winners, summary, entry_players=players)
        # The session's leaders as its summary counts them (most games won): the sheet highlights them.
        out["session_leaders"] = leaders(wins, "highest") if results else []
        return out

    def _session(self, players, results, winners, summary, entry_players):
        totals = {p: sum(r["points"][p] for r in results) for p in players}
        return {
            "rounds": results,
            "bonuses": {p: 0 for p in players},
            "totals": totals,
            "teams": None,
            "winners": winners,
            # The rules never close a session: the table does.
            "finished": False,
            "next_round": next_round(len(results) + 1, entry_players),
            "summary": summary,
        }
