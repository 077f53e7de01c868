"""Num King (rule book 004): bid your tricks; highest total wins."""

from typing import ClassVar

from .base import (
    Game,
    Issue,
    Option,
    Problems,
    ScoringError,
    check_entries,
    check_fields,
    check_int,
    check_players,
    check_teams,
    detail,
    detail_rules,
    is_int,
    leaders,
    next_round,
    shown,
)
from .i18n import N_, Phrase
from .numking_referee import TRICK_SCHEMA, check_hand, check_trick, referee_cards, resolve, resolve_hand

MODES = {
    "classic": N_("Classic (growing rounds)"),
    "binomes": N_("Pairs (6 cards, 5 rounds)"),
}
DECK = 36
EXTRA_DECK = 52  # an extra colour family 1-16, from 7 players
EXTRA_FROM = 7
BINOME_CARDS = 6
BINOME_ROUNDS = 5
STREAK_BONUS = {2: 5, 3: 10, 4: 15}
STREAK_TOP = 40  # 5 or more in a row


def round_points(bid, tricks, cards):
    """Return (points, rule) of one player's round."""
    if bid == 0:
        if tricks == 0:
            return 20 + 2 * cards, "zero_exact"
        return -(10 + 5 * tricks), "zero_missed"
    if tricks == bid:
        return 10 + 3 * bid, "bid_exact"
    return -3 * abs(bid - tricks), "bid_missed"


def streak_bonus(longest):
    """Return the bonus of a longest run of exact bids."""
    if longest >= 5:
        return STREAK_TOP
    return STREAK_BONUS.get(longest, 0)


def schedule(opts, n_players):
    """Return the list of cards dealt per round."""
    if opts["mode"] == "binomes":
        return [BINOME_CARDS] * BINOME_ROUNDS
    deck = EXTRA_DECK if opts["extra_family"] else DECK
    return list(range(opts["start"], deck // n_players + 1))


def _round(label, bid, tricks, cards, points):
    """Return one worked example of a round result."""
    return {"label": label, "input": {"bid": bid, "tricks": tricks, "cards": cards}, "points": points}


def _streak(run):
    """Return the streak table's row for a longest run of ``run`` exact bids (5 stands for 5 or more)."""
    label = N_("{run} exact rounds in a row or more") if run >= 5 else N_("{run} exact rounds in a row")
    return (Phrase(label, run=run), {"example": {"streak": run}, "plus": True})


# The scoring reference of the rule book (004), with its formulas, examples and streak table.
RULES = (
    {
        "title": N_("The deck and the rounds"),
        "text": (
            N_(
                "36 cards: rainbow 1–16, shadow 1–16, Num-X, Flash, Flip, Quantique; with 7 players or more "
                "an extra colour family 1–16 may be added (52 cards). Round k deals (start + k − 1) cards "
                "to each player; the last deals as many as possible: ⌊deck ÷ players⌋."
            ),
            N_(
                "Before the round everyone bids their tricks (0 … cards); after it, the tricks taken are "
                "entered (they add up to at most the cards dealt). The first dealer is chosen when the "
                "sheet is made, then the deal goes clockwise."
            ),
        ),
        "table": {
            "head": (N_("Players"), N_("Rounds (start 1)")),
            "rows": tuple((str(n), {"example": {"rounds": n}}) for n in (2, 3, 4, 5, 6)),
        },
    },
    {
        "title": N_("Round points"),
        "table": {
            "head": (N_("Result"), N_("Points")),
            "rows": (
                (N_("bid b > 0, taken = b"), "10 + 3 × b"),
                (N_("bid b > 0, taken ≠ b"), "−3 × |b − pris|"),
                (
                    N_("bid 0, taken 0"),
                    N_("20 + 2 × cards"),
                ),
                (N_("bid 0, taken t > 0"), "−(10 + 5 × t)"),
            ),
        },
        "examples": (
            _round(N_("Bid 3, took 3"), 3, 3, 3, 19),
            _round(N_("Bid 0 on 5 cards, took 0"), 0, 0, 5, 30),
            _round(N_("Bid 3, took 1"), 3, 1, 3, -6),
        ),
    },
    {
        "title": N_("Streak bonus"),
        "text": (
            N_(
                "An exact round (taken = bid, bid 0 included) extends the streak, any other resets it. The "
                "bonus is given once, at the end of the game, for the player's longest streak; during the "
                "game the sheet shows it as provisional."
            ),
        ),
        "table": {
            "head": (N_("Longest streak"), N_("Bonus")),
            "rows": tuple(_streak(n) for n in (2, 3, 4, 5)),
        },
    },
    {
        "title": N_("Pairs and winning"),
        "text": (
            N_(
                "Pairs: 6 cards every round, 5 rounds, each player scored as above; the team's total is the "
                "sum of its two players. The highest total wins; equal totals share the win."
            ),
        ),
    },
)


class NumKing(Game):
    """Num King: each round, bid the tricks you will take, then score the result."""

    slug = "numking"
    name: ClassVar[str] = N_("Num King")
    min_players = 2
    max_players = 12
    wins = "highest"
    entry = "bid_tricks"
    cell = "bid_tricks"
    has_bonus_row = True  # the longest exact streak's bonus
    # The round in progress may hold the hand's tricks as the referee resolved them (tricks_played).
    draft_fields = ("cards", "tricks_played")
    entry_field_schemas: ClassVar[dict] = {
        "bid": {"type": "integer", "minimum": 0, "description": "At most the cards dealt."},
        "tricks": {"type": "integer", "minimum": 0, "description": "At most the cards dealt."},
    }
    round_field_schemas: ClassVar[dict] = {
        "cards": {"type": "integer", "minimum": 1, "description": "The cards dealt: the schedule's (a check)."},
        "tricks_played": {
            "type": "array",
            "description": "The round in progress only: the hand's tricks, in the order played.",
            "items": TRICK_SCHEMA,
        },
    }
    draft_only_fields = ("tricks_played",)
    public_entry_fields = ("bid",)
    lone_empty_unusual = False  # bidding 0 and taking nothing is part of the game

    def empty_rule(self, options):
        """Return "nothing entered" for Num King: every bid and every trick left at 0."""
        return {"scope": "entries", "blank": {"bid": [0, None], "tricks": [0, None]}, "named": False}

    modes: ClassVar[dict] = MODES
    options_spec = (
        Option("mode", "choice", N_("Game mode"), "classic", MODES),
        Option(
            "start",
            "int",
            N_("Cards in the first round"),
            1,
            lo=1,
            hi=EXTRA_DECK // 2,
        ),
        Option(
            "extra_family",
            "bool",
            N_("Extra colour family (7 players or more, 52 cards)"),
            False,
        ),
        Option(
            "dealer",
            "seat",
            N_("First dealer"),
            0,
            lo=0,
            hi=11,
        ),
        Option(
            "teams",
            "teams",
            N_("Pairs: teams of two players"),
        ),
    )
    summary: ClassVar[str] = N_(
        "Before each round everyone bids their tricks. An exact bid scores 10 + 3 per trick (a made "
        "bid of 0: 20 + 2 per card); a missed one −3 per trick off (a failed 0: −10 − 5 per trick). "
        "The longest run of exact bids earns a bonus at the end and the highest total wins."
    )
    card_kinds = ("rainbow", "shadow", "numx", "action")
    card_actions = ("flash", "flip", "quantique")
    # An example request of the score endpoint (the API documentation shows it).
    api_example: ClassVar[dict] = {
        "players": ["Elya", "Sasha", "Mendy", "Noa"],
        "options": {"start": 1},
        "rounds": [
            {
                "cards": 1,
                "entries": {
                    "Elya": {"bid": 1, "tricks": 1},
                    "Sasha": {"bid": 0, "tricks": 0},
                    "Mendy": {"bid": 0, "tricks": 0},
                    "Noa": {"bid": 1, "tricks": 0},
                },
            }
        ],
    }
    RULES = RULES

    def example(self, given, lang="fr"):
        """Compute a worked example: a round {"bid", "tricks", "cards"}, a {"streak"} or a {"rounds"} count."""
        if "streak" in given:
            return streak_bonus(given["streak"]), []
        if "rounds" in given:
            plan = schedule({"mode": "classic", "extra_family": False, "start": 1}, given["rounds"])
            return len(plan), []
        bid, took, cards = given["bid"], given["tricks"], given["cards"]
        pts, rule = round_points(bid, took, cards)
        return pts, [detail(rule, [], pts, lang, bid=bid, tricks=took, dealt=cards, gap=abs(bid - took))]

    referee = True
    # The trick of the spec's example (shared/spec/api.md): Num-X played after Flip takes it.
    trick_example: ClassVar[dict] = {
        "players": ["A", "B", "C", "D"],
        "options": {"extra_family": False},
        "plays": [
            {"player": "A", "card": {"kind": "rainbow", "value": 9}},
            {"player": "B", "card": {"kind": "action", "name": "flip"}},
            {"player": "C", "card": {"kind": "shadow", "value": 4}},
            {"player": "D", "card": {"kind": "numx", "as": 17}},
        ],
        "played": [],
    }

    def trick(self, players, options, plays, played=None, lang="fr"):
        """Resolve one trick (the referee, numking_referee.py); return its result or raise ScoringError.

        ``players`` are the game's players (their number decides Quantique's parity),
        ``options`` the game's options (``extra_family`` allows the ``family`` cards),
        ``plays`` one {"player", "card"} per player in the order played, ``played`` the
        cards of the round's earlier tricks (None: none). As for ``score``, the players
        and the options are checked first; the cards only when both are sound.
        """
        problems = Problems()
        players = check_players(players, self.min_players, self.max_players, problems)
        opts = self._options(players, options, problems)
        problems.raise_if_any()
        trick = check_trick(players, opts["extra_family"], plays, played, problems)
        problems.raise_if_any()
        return resolve(players, trick, lang)

    # -- the hand's tricks, in the round in progress (draft field "tricks_played") --------

    def _hand(self, players, options, rounds):
        """Return (options, cards dealt) of the round after ``rounds``; (None, None) for a broken sheet or a game over."""
        try:
            opts = self.normalize_options(players, options)
        except ScoringError:
            return None, None  # score() says what is wrong with them
        plan = schedule(opts, len(players))
        if not isinstance(rounds, list) or len(rounds) >= len(plan):
            return None, None  # the game is over: score() refuses a new round
        return opts, plan[len(rounds)]

    def _checked_hand(self, players, options, rounds, tricks, problems):
        """Return (checked tricks, cards dealt) of a hand (check_hand), or (None, None) when it cannot be checked."""
        opts, cards = self._hand(players, options, rounds)
        if cards is None:
            return None, None
        return check_hand(players, opts["extra_family"], tricks, cards, problems, "fields.tricks_played"), cards

    def check_draft_fields(self, players, options, rounds, fields, problems):
        """Check the hand's tricks as the referee does: each trick whole, no card twice, at most one trick a card."""
        if "tricks_played" in fields:
            self._checked_hand(players, options, rounds, fields["tricks_played"], problems)

    def _counted(self, players, options, rounds, fields):
        """Return {player: tricks taken} once every trick of the hand is played and sound, else None."""
        if not isinstance(fields, dict) or "tricks_played" not in fields:
            return None
        problems = Problems()
        checked, cards = self._checked_hand(players, options, rounds, fields["tricks_played"], problems)
        if cards is None or problems or len(checked) != cards:
            return None
        return resolve_hand(players, checked)["counted"]

    def fill_draft(self, players, options, rounds, entries, fields, before_fields):
        """After the hand's last trick, each player's tricks are the referee's count.

        Only when ``tricks_played`` changed and holds the whole hand, and only for the
        players who have bid (a bid may change until the tricks are in: the referee never
        locks a bid nobody heard). A value typed by hand since the referee last counted,
        one that differs from that count, wins: it is kept as typed.
        """
        fields = fields if isinstance(fields, dict) else {}
        before_fields = before_fields if isinstance(before_fields, dict) else {}
        if not isinstance(entries, dict) or fields.get("tricks_played") == before_fields.get("tricks_played"):
            return entries
        now = self._counted(players, options, rounds, fields)
        if now is None:
            return entries
        was = self._counted(players, options, rounds, before_fields)
        out = dict(entries)
        for name in players:
            entry = out.get(name)
            if not isinstance(entry, dict) or "bid" not in entry:
                continue
            typed = entry.get("tricks")
            if was is not None and typed is not None and typed != was.get(name):
                continue  # typed by hand after the referee's count: it wins
            out[name] = {**entry, "tricks": now[name]}
        return out

    def draft_referee(self, players, options, rounds, fields, lang="fr"):
        """Return the hand of the round in progress as the referee sees it, for the pages.

        {"cards": tricks in the hand, "tricks": each resolved trick (resolve_hand), "counted":
        {player: tricks taken so far}, "complete": every trick played, "next_leader": who
        leads the next trick (None before the first), "first_leader": who the pages offer to
        lead the first trick (the player after the dealer), "picker": the cards a trick is
        tapped from (referee_cards)}; None once the game is over.
        """
        fields = fields if isinstance(fields, dict) else {}
        problems = Problems()
        checked, cards = self._checked_hand(players, options, rounds, fields.get("tricks_played") or [], problems)
        if cards is None:
            return None
        opts = self.normalize_options(players, options)
        hand = resolve_hand(players, checked, lang)
        tricks = hand["tricks"]
        dealer = self.dealer(players, opts, len(rounds))
        return {
            "cards": cards,
            "tricks": tricks,
            "counted": hand["counted"],
            "complete": len(tricks) == cards,
            "next_leader": tricks[-1]["leads_next"] if tricks else None,
            "first_leader": players[(players.index(dealer) + 1) % len(players)],
            "picker": referee_cards(opts["extra_family"], lang),
        }

    def _check_options(self, players, opts, given, problems):
        if players is None:
            return
        n = len(players)
        if opts["dealer"] is not None and opts["dealer"] >= n:
            problems.add("options.dealer", "out_of_range", value=opts["dealer"], min=0, max=n - 1)
        binomes = opts["mode"] == "binomes"
        if opts["extra_family"] and n < EXTRA_FROM:
            problems.add("options.extra_family", "extra_family_players", count=n)
            opts["extra_family"] = False
        deck = EXTRA_DECK if opts["extra_family"] else DECK
        if binomes:
            if opts["teams"] is None:
                problems.add("options.teams", "teams_required", mode=MODES["binomes"])
            else:
                opts["teams"] = check_teams(players, opts["teams"], problems, size=2)
            if BINOME_CARDS * n > deck:
                problems.add("players", "binomes_deck", count=n, deck=deck)
        else:
            if opts["teams"] is not None:
                problems.add(
                    "options.teams",
                    "teams_not_allowed",
                    mode=MODES[opts["mode"] or "classic"],
                )
            top = deck // n
            if opts["start"] is not None and opts["start"] > top:
                problems.add("options.start", "out_of_range", value=opts["start"], min=1, max=top)

    records_shown: ClassVar[tuple] = (
        {
            "key": "longest_streak",
            "label": N_("Longest exact streak"),
            "combine": "max",
        },
        {"key": "exact_bids", "label": N_("Exact bids"), "combine": "sum", "of": "bids"},
    )

    def seat_records(self, result, name):
        """Return the seat's longest exact streak and its exact bids out of its bids."""
        exact = sum(1 for rule in detail_rules(result, name) if rule in ("bid_exact", "zero_exact"))
        bids = sum(1 for r in result["rounds"] if name in r["points"])
        return {"longest_streak": result.get("streaks", {}).get(name, 0), "exact_bids": exact, "bids": bids}

    def dealer(self, players, opts, index):
        """Return who deals round ``index`` (0-based): the first dealer chosen at creation, then clockwise."""
        return players[((opts.get("dealer") or 0) + index) % len(players)]

    def draft_change_issues(self, before, after):
        """A bid may change until its player's tricks are entered: it was announced to the table."""
        issues = []
        for name, old in before.items():
            new = after.get(name)
            if isinstance(old, dict) and "tricks" in old and isinstance(new, dict) and new.get("bid") != old.get("bid"):
                issues.append(Issue(f"entries.{name}.bid", "bid_locked", {"name": name, "bid": old.get("bid")}))
        return issues

    def _score(self, players, opts, rounds, lang, problems):
        plan = schedule(opts, len(players))
        if len(rounds) > len(plan):
            self._too_many(rounds, len(plan), problems)
        known = set(players)
        results = []
        exact_rows = []
        for i, rnd in enumerate(rounds):
            path = f"rounds[{i}]"
            rnd = self._round_dict(rnd, path, {"entries", "cards"}, problems)
            if rnd is None or i >= len(plan):
                continue
            cards = plan[i]
            given = rnd.get("cards")
            if given is not None and (isinstance(given, bool) or given != cards):
                problems.add(
                    f"{path}.cards",
                    "cards_schedule",
                    expected=cards,
                    value=shown(given),
                )
            entries = check_entries(rnd, path, players, known, problems)
            bids = {}
            tricks = {}
            for name in players:
                entry = entries.get(name)
                if entry is None:
                    continue
                epath = f"{path}.entries.{name}"
                check_fields(entry, epath, ("bid", "tricks"), problems)
                for field, store in (("bid", bids), ("tricks", tricks)):
                    if field not in entry:
                        problems.add(f"{epath}.{field}", "field_required", name=field)
                        continue
                    value = entry[field]
                    if not is_int(value) or value < 0:
                        check_int(value, f"{epath}.{field}", 0, cards, problems)
                        continue
                    if value > cards:
                        code = "bid_above_cards" if field == "bid" else "tricks_above_cards"
                        problems.add(
                            f"{epath}.{field}",
                            code,
                            bid=value,
                            tricks=value,
                            cards=cards,
                        )
                        continue
                    store[name] = value
            if len(tricks) == len(players):
                taken = sum(tricks.values())
                if taken > cards:
                    problems.add(path, "tricks_sum", total=taken, cards=cards)
            if problems:
                continue
            points = {}
            details = {}
            exact = {}
            for name in players:
                bid, took = bids[name], tricks[name]
                pts, rule = round_points(bid, took, cards)
                points[name] = pts
                exact[name] = took == bid
                gap = abs(bid - took)
                details[name] = [detail(rule, [], pts, lang, bid=bid, tricks=took, dealt=cards, gap=gap)]
            # What each cell shows besides the points: the bid, the tricks, and who dealt (clockwise).
            facts = {name: {"bid": bids[name], "tricks": tricks[name], "exact": exact[name]} for name in players}
            results.append(
                {
                    "points": points,
                    "details": details,
                    "cards": cards,
                    "number": i + 1,
                    "of": len(plan),
                    "dealer": self.dealer(players, opts, i),
                    "facts": facts,
                }
            )
            exact_rows.append(exact)
        if problems:
            return {}
        finished = len(results) >= len(plan)
        streaks = {}
        bonuses = {}
        bonus_details = {}
        for name in players:
            run = best = 0
            best_end = 0
            for k, row in enumerate(exact_rows, start=1):
                run = run + 1 if row[name] else 0
                if run > best:
                    best, best_end = run, k
            streaks[name] = best
            bonuses[name] = streak_bonus(best)
            if bonuses[name]:
                # The run that earns it, so that the sheet can say where the bonus comes from.
                code = "streak" if finished else "streak_provisional"
                line = detail(code, [], bonuses[name], lang, first=best_end - best + 1, last=best_end, run=best)
                bonus_details[name] = [line]
        totals = {p: bonuses[p] + sum(r["points"][p] for r in results) for p in players}
        teams = opts["teams"]
        out = {
            "rounds": results,
            "bonuses": bonuses,
            "totals": totals,
            "teams": None,
            "winners": [],
            "finished": finished,
            "next_round": (None if finished else next_round(len(results) + 1, players, cards=plan[len(results)])),
            # The deal as the sheet shows it: how many rounds in all, and who deals the next one.
            "schedule": {
                "rounds": len(plan),
                "next_dealer": None if finished else self.dealer(players, opts, len(results)),
            },
            "streaks": streaks,
            "bonus_details": bonus_details,
        }
        side_totals = totals
        if teams:
            out["teams"] = {t: {"members": list(m), "total": sum(totals[p] for p in m)} for t, m in teams.items()}
            side_totals = {t: v["total"] for t, v in out["teams"].items()}
            for r in results:
                r["teams"] = {t: sum(r["points"][p] for p in m) for t, m in teams.items()}
        if results:
            out["winners"] = leaders(side_totals, self.wins)
        return out


def resolve_trick(players, options, plays, played=None, lang="fr"):
    """Resolve one Num King trick: who takes it, who leads next, and why (see NumKing.trick)."""
    return NumKing().trick(players, options, plays, played, lang)
