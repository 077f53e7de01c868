"""Num Win (rule book 002): lowest total wins, tie-break rounds on a tie."""

from typing import ClassVar

from .base import (
    Game,
    Option,
    check_entries,
    check_teams,
    detail,
    detail_rules,
    leaders,
    next_round,
    shown,
)
from .cards import Deck, cards_from_text, parse_entry, typed_detail
from .i18n import N_, _

MODES = {
    "classic": N_("Classic (5 cards)"),
    "speedwin": N_("Speed Win (4 cards)"),
    "hardcore": N_("Hardcore (no card looked at)"),
}
HAND = {"classic": 5, "speedwin": 4, "hardcore": 5}
DISCARD_ERRORS = 10  # each discard error adds a card; more than 10 in one round is not a game
PENALTY = 20

DECK = Deck(
    "Num Win",
    specials={"infini": 4},
    actions={"swipe": 2, "flip": 2, "tornade": 2, "block": 3, "eclair": 2},
)


def hand_points(cards, lang="fr"):
    """Return (points, details) of one Num Win hand (before any Num Win penalty)."""
    rainbows = {}
    shadows = {}
    classics = []
    actions = []
    infinis = []
    for card in cards:
        kind = card.kind
        if kind == "rainbow":
            rainbows[card.value] = card
        elif kind == "shadow":
            shadows[card.value] = card
        elif card.value is not None:
            classics.append(card)
        elif kind == "action":
            actions.append(card)
        else:
            infinis.append(card)
    items = []
    total = 0
    for v in sorted(rainbows.keys() & shadows.keys()):
        # Neutralised: both 0, and they take no further part in the hand.
        items.append(detail("neutralised", [rainbows.pop(v), shadows.pop(v)], 0, lang))
    faces = sorted(classics + list(shadows.values()), key=lambda c: c.sort_key())
    if faces:
        pts = sum(c.value for c in faces)
        items.append(detail("face_value", faces, pts, lang))
        total += pts
    if rainbows:
        classic_values = {c.value for c in classics}
        # Remaining shadows all differ in value from the remaining rainbows.
        shared = len(rainbows) >= 2 or shadows or actions or infinis
        active = []
        idle = []
        for v in sorted(rainbows):
            (active if shared or v in classic_values else idle).append(rainbows[v])
        if active:
            pts = sum(c.value for c in active)
            items.append(detail("rainbow_active", active, pts, lang))
            total += pts
        if idle:
            items.append(detail("rainbow_inactive", idle, 0, lang))
    if actions:
        actions.sort(key=lambda c: c.sort_key())
        items.append(detail("action", actions, 0, lang))
    if len(infinis) >= 2:
        items.append(detail("infini_many", infinis, 40, lang))
        total += 40
    elif infinis:
        if actions or rainbows:
            items.append(detail("infini_trap", infinis, 20, lang))
            total += 20
        else:
            items.append(detail("infini_alone", infinis, -10, lang))
            total -= 10
    return total, items


def _ex(label, cards, points):
    """Return one worked example: the rule book's hand, the cards it means, and its points."""
    return {"label": label, "input": cards, "points": points}


# The scoring reference of the rule book (002), rule by rule, each with its worked examples.
RULES = (
    {
        "title": N_("Hand points"),
        "text": (
            N_(
                "A hand normally holds 5 cards (4 in Speed Win); each discard error adds one. No joker and "
                "no Num-X card in this game."
            ),
        ),
    },
    {
        "title": N_("1. Rainbow and shadow neutralised"),
        "text": (
            N_(
                "A rainbow and a shadow of the same value both score 0 and take no further part: they "
                "neither activate a rainbow nor trap an Infini."
            ),
        ),
        "examples": (_ex("🌑10 🌈10", "10🌑 10🌈", 0),),
    },
    {
        "title": N_("2. Card values"),
        "text": (N_("Classic cards and shadows: their face value. Action cards: 0."),),
    },
    {
        "title": N_("3. An activated rainbow"),
        "text": (
            N_(
                "A lone rainbow scores 0; it scores its value when activated by another rainbow, a classic "
                "card of the same value, a shadow of another value, an action card or an Infini "
                "(neutralised cards don't count)."
            ),
        ),
        "examples": (
            _ex("🌈5 🌑8", "5🌈 8🌑", 13),
            _ex("🌈10 🌈2", "10🌈 2🌈", 12),
            _ex("🌈5 5🟢", "5🌈 5🟢", 10),
            _ex("🌈3 🌑10", "3🌈 10🌑", 13),
            _ex(N_("🌈12 + action"), "12🌈 block", 12),
            _ex(N_("🌈7 alone"), "7🌈", 0),
        ),
    },
    {
        "title": N_("4. The special cards: Infini"),
        "text": (
            N_(
                "A single Infini scores −10, or +20 when the hand also holds an action card or a rainbow "
                "(“trap”). Two Infini or more score +40 in all."
            ),
        ),
        "table": {
            "head": (N_("Infini"), N_("Points")),
            "rows": (
                (N_("∞ alone"), {"example": "∞"}),
                (
                    N_("∞ trapped (action or rainbow)"),
                    {"example": "∞ flip", "plus": True},
                ),
                (N_("∞ ∞ (two or more)"), {"example": "∞ ∞", "plus": True}),
            ),
        },
        "examples": (
            _ex(N_("∞ + action + 0 0 0"), "∞ block 0🔴 0🔵 0🟢", 20),
            _ex("∞ ∞", "∞ ∞", 40),
            _ex("∞ 🌈12", "∞ 12🌈", 32),
        ),
    },
    {
        "title": N_("The round: calling “Num Win”"),
        "text": (
            N_(
                "The player who calls “Num Win” takes +20 unless their hand is the lowest of the round; a "
                "tie for the lowest is not a failure. With no call (Speed Win ends by itself when a player "
                "is down to 2 cards) nobody takes +20."
            ),
        ),
    },
    {
        "title": N_("The game and the tie-break"),
        "text": (
            N_(
                "As many rounds as players (each deals once). The lowest total wins. A tie for the lowest "
                "total after the last round opens a tie-break round: only the tied players play it, the "
                "lowest hand wins, and its points enter neither the totals nor the chart; tied again, "
                "another tie-break."
            ),
        ),
    },
    {
        "title": N_("Variants"),
        "table": {
            "head": (N_("Variant"), N_("Rule")),
            "rows": (
                (
                    N_("Teams"),
                    N_("2 v 2: team score = sum of the partners; a member's failed Num Win costs the team +20"),
                ),
                (MODES["speedwin"], N_("4-card hands")),
                (MODES["hardcore"], N_("scoring unchanged")),
            ),
        },
    },
)


class NumWin(Game):
    """Num Win: keep a low hand; a failed "Num Win" call costs 20 points."""

    slug = "numwin"
    name: ClassVar[str] = N_("Num Win")
    min_players = 2
    max_players = 10
    wins = "lowest"
    entry = "cards"
    declarer_question: ClassVar[str] = N_("Who declared “Num Win”?")
    preview_options: ClassVar[dict] = {"rounds": 1}  # the round alone, not round 1 of a longer game
    draft_fields = ("declarer",)
    # Lowest wins: a failed call and a trapped Infini cost points, a lone Infini saves some;
    # a tie-break round's hand decides without counting.
    detail_marks: ClassVar[dict] = {
        "declarer_failed": "penalty",
        "infini_trap": "penalty",
        "infini_many": "penalty",
        "infini_alone": "bonus",
        "tiebreak": "tiebreak",
    }
    round_field_schemas: ClassVar[dict] = {
        "declarer": {
            "type": "string",
            "pattern": "^[^\\x00]*$",
            "nullable": True,
            "description": "Who declared; null: nobody.",
        }
    }
    modes: ClassVar[dict] = MODES
    options_spec = (
        Option("mode", "choice", N_("Variant"), "classic", MODES),
        Option(
            "rounds",
            "int",
            N_("Number of rounds (default: one per player)"),
            None,
            lo=1,
            hi=20,
        ),
        Option(
            "teams",
            "teams",
            N_("Teams: 2 v 2, team score = sum of the partners"),
        ),
    )
    summary: ClassVar[str] = N_(
        "Every card scores its face value; a lone rainbow is 0, a rainbow and a shadow of the same "
        "value cancel, one Infini is −10 but +20 when trapped and +40 for two. Whoever calls “Num "
        "Win” without the lowest hand takes +20. The lowest total after one round per player wins."
    )
    card_kinds = DECK.kinds
    decks = (DECK,)
    card_actions = DECK.action_names
    # An example request of the score endpoint (the API documentation shows it).
    api_example: ClassVar[dict] = {
        "players": ["Elya", "Sasha"],
        "options": {"mode": "classic"},
        "rounds": [
            {
                "declarer": "Elya",
                "entries": {
                    "Elya": {"cards": [{"kind": "rainbow", "value": 5}, {"kind": "shadow", "value": 8}]},
                    "Sasha": {"points": 4},
                },
            }
        ],
    }
    RULES = RULES

    def example(self, given, lang="fr"):
        """Score a worked example: a hand written as text."""
        return hand_points(cards_from_text(given), lang)

    records_shown: ClassVar[tuple] = (
        {
            "key": "failed_declarations",
            "label": N_("Failed “Num Win”"),
            "combine": "sum",
        },
        {"key": "infini_alone", "label": N_("Lone Infini (−10)"), "combine": "sum"},
    )

    def seat_records(self, result, name):
        """Return the seat's declarations of "Num Win" that failed and the hands whose lone Infini took 10 off."""
        rules = detail_rules(result, name)
        return {"failed_declarations": rules.count("declarer_failed"), "infini_alone": rules.count("infini_alone")}

    def _check_options(self, players, opts, given, problems):
        if players is None:
            return
        if opts["rounds"] is None:  # absent or null: one round per player
            opts["rounds"] = len(players)
        if opts["teams"] is not None:
            opts["teams"] = check_teams(players, opts["teams"], problems, size=2, count=2)

    def _score(self, players, opts, rounds, lang, problems):
        planned = opts["rounds"]
        teams = opts["teams"]
        hand = HAND[opts["mode"]]
        max_cards = hand + DISCARD_ERRORS
        totals = {p: 0 for p in players}
        results = []
        # Sides are what wins: teams when there are teams, else players.
        sides = teams if teams else {p: [p] for p in players}
        contenders = None  # sides still tied, once a tie-break is under way
        finished = False
        known = set(players)
        broken = False  # an earlier round could not be scored: later state is unknown
        for i, rnd in enumerate(rounds):
            path = f"rounds[{i}]"
            if finished:
                # The game ended at the previous round: what follows cannot be played.
                self._too_many(rounds, i, problems)
                break
            tiebreak = i >= planned
            if tiebreak and not broken and contenders is None:
                contenders = leaders(_side_totals(sides, totals), self.wins)
            if broken:
                expected = None
            elif tiebreak:
                expected = [p for side in contenders for p in sides[side]]
            else:
                expected = players
            rnd = self._round_dict(rnd, path, {"entries", "declarer"}, problems)
            if rnd is None:
                broken = True
                continue
            entries = check_entries(rnd, path, expected, known, problems)
            playing = expected if expected is not None else [p for p in players if p in entries]
            declarer = rnd.get("declarer")
            if declarer is not None:
                if not isinstance(declarer, str):
                    problems.add(f"{path}.declarer", "declarer_type", value=shown(declarer))
                elif declarer not in known:
                    problems.add(f"{path}.declarer", "unknown_player", name=declarer)
                elif declarer not in playing:
                    problems.add(f"{path}.declarer", "not_in_tiebreak", name=declarer)
            hands = []
            typed = {}
            for name in playing:
                if name not in entries:
                    continue
                ppath = f"{path}.entries.{name}"
                raw_cards = entries[name].get("cards")
                if isinstance(raw_cards, list) and len(raw_cards) > max_cards:
                    problems.add(
                        f"{ppath}.cards",
                        "hand_size",
                        count=len(raw_cards),
                        max=max_cards,
                        hand=hand,
                    )
                    continue
                cards, pts = parse_entry(entries[name], ppath, name, DECK, problems)
                if pts is not None:
                    typed[name] = pts
                elif cards is not None:
                    hands.append((name, f"{ppath}.cards", cards))
            DECK.check_round(hands, problems)
            if problems:
                broken = True
                continue
            result = self._score_round(playing, hands, typed, declarer, teams, tiebreak, lang)
            results.append(result)
            if tiebreak:
                round_sides = {s: result_side(sides[s], result["points"]) for s in contenders}
                contenders = leaders(round_sides, self.wins)
                finished = len(contenders) == 1
                result["outcome"] = tiebreak_outcome(contenders, round_sides, lang)
            else:
                for p in players:
                    totals[p] += result["points"][p]
                if i + 1 == planned:
                    contenders = leaders(_side_totals(sides, totals), self.wins)
                    finished = len(contenders) == 1
        if problems:
            return {}
        side_totals = _side_totals(sides, totals)
        if contenders is not None:
            winners = list(contenders)
        elif results:
            winners = leaders(side_totals, self.wins)
        else:
            winners = []
        if finished:
            upcoming = None
        else:
            number = len(results) + 1
            if number > planned:
                tied = [p for side in contenders for p in sides[side]]
                upcoming = next_round(number, tied, tiebreak=True)
            else:
                upcoming = next_round(number, players)
        return {
            "rounds": results,
            "bonuses": {p: 0 for p in players},
            "totals": totals,
            "teams": ({t: {"members": list(m), "total": side_totals[t]} for t, m in teams.items()} if teams else None),
            "winners": winners,
            "finished": finished,
            "next_round": upcoming,
        }

    def _score_round(self, playing, hands, typed, declarer, teams, tiebreak, lang):
        points = {}
        details = {}
        for name, _path, cards in hands:
            points[name], details[name] = hand_points(cards, lang)
        for name, pts in typed.items():
            points[name] = pts
            details[name] = [typed_detail(pts, lang)]
        if declarer is not None:
            # A tie for the lowest hand is not a failure.
            if points[declarer] > min(points.values()):
                points[declarer] += PENALTY
                details[declarer].append(detail("declarer_failed", [], PENALTY, lang))
            else:
                details[declarer].append(detail("declarer_ok", [], 0, lang))
        result = {
            "points": {p: points[p] for p in playing},
            "details": {p: details[p] for p in playing},
            "declarer": declarer,
            "tiebreak": tiebreak,
        }
        if tiebreak:
            for p in playing:
                details[p].append(detail("tiebreak", [], 0, lang))
        if teams:
            result["teams"] = {
                t: sum(points[m] for m in members) for t, members in teams.items() if all(m in points for m in members)
            }
        return result


def tiebreak_outcome(contenders, round_sides, lang):
    """Return what a tie-break round decided: {"winners", "text"} ("Hugo gagne le départage (3 contre 24)")."""
    if len(contenders) == 1:
        winner = contenders[0]
        others = [str(pts) for side, pts in round_sides.items() if side != winner]
        said = _(lang, N_("{winner} wins the tie-break ({mine} to {others})"))
        text = said.format(winner=winner, mine=round_sides[winner], others=", ".join(others))
    else:
        points = ", ".join(f"{side} {round_sides[side]}" for side in contenders)
        said = _(lang, N_("Tied again ({points}): another tie-break round"))
        text = said.format(names=", ".join(contenders), points=points)
    return {"winners": list(contenders), "text": text}


def _side_totals(sides, totals):
    return {side: sum(totals[p] for p in members) for side, members in sides.items()}


def result_side(members, points):
    """Return a side's points on one round (sum of its members)."""
    return sum(points[m] for m in members)
