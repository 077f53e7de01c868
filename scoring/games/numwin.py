"""Num Win (rule book 002): lowest total wins, tie-break rounds on a tie."""

from typing import ClassVar

from .base import (
    Game,
    Option,
    check_entries,
    check_teams,
    detail,
    leaders,
    next_round,
    shown,
)
from .cards import Deck, parse_entry, typed_detail

MODES = {
    "classic": {"fr": "Classique (5 cartes)", "en": "Classic (5 cards)"},
    "speedwin": {"fr": "Speed Win (4 cartes)", "en": "Speed Win (4 cards)"},
    "hardcore": {
        "fr": "Hardcore (aucune carte regardée)",
        "en": "Hardcore (no card looked at)",
    },
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


class NumWin(Game):
    """Num Win: keep a low hand; a failed "Num Win" call costs 20 points."""

    slug = "numwin"
    name: ClassVar[dict] = {"fr": "Num Win", "en": "Num Win"}
    min_players = 2
    max_players = 10
    wins = "lowest"
    entry = "cards"
    draft_fields = ("declarer",)
    modes: ClassVar[dict] = MODES
    options_spec = (
        Option("mode", "choice", {"fr": "Variante", "en": "Variant"}, "classic", MODES),
        Option(
            "rounds",
            "int",
            {
                "fr": "Nombre de manches (par défaut : une par joueur)",
                "en": "Number of rounds (default: one per player)",
            },
            None,
            lo=1,
            hi=20,
        ),
        Option(
            "teams",
            "teams",
            {
                "fr": "Équipes : 2 contre 2, score d'équipe = somme des partenaires",
                "en": "Teams: 2 v 2, team score = sum of the partners",
            },
        ),
    )
    summary: ClassVar[dict] = {
        "fr": (
            "Chaque carte compte sa valeur ; une Rainbow seule vaut 0, Rainbow et Shadow de même "
            "valeur s'annulent, un Infini seul vaut −10 mais +20 piégé et +40 à deux. Celui qui "
            "annonce « Num Win » sans avoir la main la plus basse prend +20. Le plus petit total "
            "après une manche par joueur gagne."
        ),
        "en": (
            "Every card scores its face value; a lone rainbow is 0, a rainbow and a shadow of the "
            "same value cancel, one Infini is −10 but +20 when trapped and +40 for two. Whoever "
            "calls “Num Win” without the lowest hand takes +20. The lowest total after one round "
            "per player wins."
        ),
    }
    card_kinds = DECK.kinds
    card_actions = DECK.action_names

    def _check_options(self, players, opts, given, problems):
        if players is None:
            return
        if opts["rounds"] is None and "rounds" not in given:
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


def _side_totals(sides, totals):
    return {side: sum(totals[p] for p in members) for side, members in sides.items()}


def result_side(members, points):
    """Return a side's points on one round (sum of its members)."""
    return sum(points[m] for m in members)
