"""Num-X score cards (rule book 000): highest total wins."""

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
)
from .cards import CLASSIC, Deck, cards_from_text, parse_entry, typed_detail
from .i18n import COLOURS_FEM, N_

MODES = {
    "speedrun": N_("Speed Run (1 round)"),
    "xgame": N_("X-Game (2 rounds)"),
    "family": N_("Family (simple rules)"),
}
ROUNDS = {"speedrun": 1, "xgame": 2, "family": 1}

SPECIALS = {"joker": 2, "infini": 4, "numx": 1}
# The rule book counts only the Malus cards ("5 cartes Malus différentes").
ACTIONS = {"malus": 5}
OTHER_ACTIONS = ("block", "flip", "swipe", "eclair", "quantique")

FULL_DECK = Deck(
    "Num-X",
    specials=SPECIALS,
    actions=ACTIONS,
    unlimited_actions=OTHER_ACTIONS,
    visible=True,
)
# Family: "0 carte Action (retirées du jeu)".
FAMILY_DECK = Deck("Num-X Family", specials=SPECIALS, visible=True)


def _sorted(cards):
    return sorted(cards, key=lambda c: c.sort_key())


def score_full(cards, lang="fr"):
    """Score score cards with the full rules; return (points, details)."""
    groups = {}  # value -> [classics, rainbow, shadow]
    others = []
    for card in cards:
        kind = card.kind
        if card.value is None:
            others.append(card)
            continue
        group = groups.get(card.value)
        if group is None:
            group = groups[card.value] = [[], None, None]
        if kind == "rainbow":
            group[1] = card
        elif kind == "shadow":
            group[2] = card
        else:
            group[0].append(card)
    items = []
    total = 0
    singles = []
    for v in sorted(groups):
        classics, rainbow, shadow = groups[v]
        classics.sort(key=lambda c: c.sort_key())
        n = len(classics)
        if n + (rainbow is not None) + (shadow is not None) >= 5:
            # X-Trem: 4 classics + rainbow or shadow, or 3 classics + both. With all six
            # cards the shadow joins the X-Trem and the rainbow stays (best for the player).
            if n == 4:
                used = classics + [shadow if shadow is not None else rainbow]
                rainbow = rainbow if shadow is not None else None
            else:
                used = classics + [rainbow, shadow]
                rainbow = None
            items.append(detail("xtrem", used, 100, lang))
            total += 100
            if rainbow is not None:
                items.append(detail("rainbow_alone", [rainbow], v, lang))
                total += v
            continue
        if rainbow is not None and shadow is not None:
            pair = [rainbow, shadow]
            items.append(detail("cancel", pair, 0, lang))
            rainbow = shadow = None
        if rainbow is not None:
            used = classics + [rainbow]
            if n:
                pts = v * (n + 1)
                items.append(detail("rainbow", used, pts, lang, value=v, count=n + 1))
            else:
                pts = v
                items.append(detail("rainbow_alone", used, pts, lang))
            total += pts
        elif n + (shadow is not None) >= 3:
            used = classics + ([shadow] if shadow is not None else [])
            pts = v * n
            items.append(
                detail(
                    "combo",
                    used,
                    pts,
                    lang,
                    size=len(used),
                    value=v,
                    count=n,
                )
            )
            total += pts
        elif n == 2:
            items.append(detail("pair", classics, 0, lang))
        else:
            if shadow is not None:
                items.append(detail("shadow_alone", [shadow], 0, lang))
            singles.extend(classics)
    total += _same_colour(singles, CLASSIC, items, lang)
    if others:
        others = _sorted(others)
        items.append(detail("non_numeric", others, 0, lang))
    return total, items


def _same_colour(singles, colours, items, lang):
    """Apply "same colour": per colour only the smallest single card counts; return points."""
    total = 0
    for colour in colours:
        mine = sorted((c for c in singles if c.kind == colour), key=lambda c: c.value)
        if not mine:
            continue
        low = mine[0]
        total += low.value
        if len(mine) == 1:
            items.append(detail("single", [low], low.value, lang))
            continue
        items.append(
            detail(
                "same_colour_kept",
                [low],
                low.value,
                lang,
                colour=COLOURS_FEM[colour],
            )
        )
        dropped = mine[1:]
        items.append(detail("same_colour_dropped", dropped, 0, lang))
    return total


def score_family(cards, same_colour=False, lang="fr"):
    """Score score cards with the Family rules (pairs and sets only); return (points, details)."""
    groups = {}
    others = []
    for card in cards:
        if card.value is None:
            others.append(card)
        else:
            groups.setdefault(card.value, []).append(card)
    items = []
    total = 0
    singles = []
    for v in sorted(groups):
        group = _sorted(groups[v])
        n = len(group)
        if n >= 3:
            pts = v * n
            items.append(detail("combo", group, pts, lang, size=n, value=v, count=n))
            total += pts
        elif n == 2:
            items.append(detail("pair", group, 0, lang))
        else:
            singles.append(group[0])
    if same_colour:
        # Family plays rainbow and shadow as ordinary colours, so they count as colours here.
        total += _same_colour(
            singles,
            ("red", "blue", "green", "yellow", "rainbow", "shadow"),
            items,
            lang,
        )
    else:
        for card in singles:
            items.append(detail("single", [card], card.value, lang))
            total += card.value
    if others:
        others = _sorted(others)
        items.append(detail("non_numeric", others, 0, lang))
    return total, items


def _ex(cards, points, label=None):
    """Return one worked example: score cards written as the rule book does, and its points."""
    return {"label": label or cards, "input": cards, "points": points}


# The scoring reference of the rule book (000), rule by rule, each with its worked examples.
RULES = (
    {
        "title": N_("Scoring a round"),
        "text": (N_("Each player scores the score cards in front of them, rule by rule, in this order."),),
    },
    {
        "title": N_("0. Non-numeric cards"),
        "text": (N_("Joker, Infini, Num-X and action cards score 0 and take part in no rule."),),
    },
    {
        "title": N_("1. X-Trem: 100 points"),
        "text": (
            N_(
                "Five or more cards of one value, at least one a rainbow or a shadow, score 100 (4 classics "
                "+ rainbow, 4 classics + shadow, 3 classics + rainbow + shadow)."
            ),
            N_(
                "Six cards (4 classics + rainbow + shadow): the X-Trem takes the classics and the shadow, "
                "the rainbow stays and scores its value (100 + v)."
            ),
        ),
        "examples": (_ex("12🔵 12🔴 12🟢 12🟡 12🌈", 100), _ex("9🔵 9🔴 9🟢 9🌈 9🌑", 100)),
    },
    {
        "title": N_("2. A shadow cancels a rainbow"),
        "text": (N_("A shadow and a rainbow of the same value cancel: both leave the count, 0 points."),),
        "examples": (_ex("10🌈 10🌑 10🔵", 10),),
    },
    {
        "title": N_("3. A rainbow adds up"),
        "text": (
            N_("A rainbow v with at least one classic v scores v × (classics + 1). A lone rainbow scores its value."),
        ),
        "examples": (_ex("7🔴 7🌈", 14), _ex("5🔵 5🟡 5🌈", 15), _ex("14🔵 14🟡 16🌈", 16)),
    },
    {
        "title": N_("4. Sets add up"),
        "text": (
            N_(
                "With no rainbow, three or more cards of one value (a shadow counts towards the three but "
                "adds 0) score value × classics: triplet, quadruplet."
            ),
        ),
        "examples": (_ex("12🔵 12🔴 12🟢", 36), _ex("8🔵 8🔴 8🟢 8🟡", 32), _ex("3🔵 3🔴 3🌑", 6)),
    },
    {
        "title": N_("5. Pairs cancel"),
        "text": (
            N_(
                "Exactly two classics of one value, nothing else of it: 0 points. A shadow with no rainbow "
                "of its value scores 0."
            ),
        ),
        "examples": (_ex("9🔵 9🔴", 0),),
    },
    {
        "title": N_("6. Same colour"),
        "text": (N_("Among the classic cards left alone of their value, each colour scores only its smallest card."),),
        "examples": (_ex("16🔵 13🔵 5🔵", 5), _ex("12🔵 8🔵 12🔴", 8)),
    },
    {
        "title": N_("A whole example"),
        "examples": (
            _ex(
                "6🔵 6🌈 5🌈 7🌑 3🌑 1🟢 13🟢 5🔵 16🔵 3🟢 7🟡 3🔵 7🔴 7🌈 5🟡",
                50,
                N_("Elya: 6🔵 6🌈 5🌈 7🌑 3🌑 1🟢 13🟢 5🔵 16🔵 3🟢 7🟡 3🔵 7🔴 7🌈 5🟡"),
            ),
        ),
    },
    {
        "title": N_("Game modes"),
        "table": {
            "head": (
                N_("Mode"),
                N_("Rounds"),
                N_("Scoring"),
            ),
            "rows": (
                (MODES["speedrun"], "1", N_("full rules")),
                (MODES["xgame"], "2", N_("full rules, totals added")),
                (MODES["family"], "1", N_("pairs and sets only")),
            ),
        },
        "text": (
            N_(
                "Family: every numeric card scores its value (rainbow and shadow as ordinary colours), two "
                "cards of one value score 0, three or more their sum; no X-Trem, no cancelling, no same "
                "colour (the “same colour” option adds it). No action cards."
            ),
        ),
        "examples": (
            {
                "label": N_("Family: 4🔵 4🔴 4🌈 9🟢 9🟡 2🌑"),
                "input": {"cards": "4🔵 4🔴 4🌈 9🟢 9🟡 2🌑", "mode": "family"},
                "points": 14,
            },
        ),
    },
    {
        "title": N_("Teams and winning"),
        "text": (
            N_(
                "In teams (2 players or more) the team's score is computed on its members' cards together, "
                "not on the sum of their scores: it decides. The highest total wins; equal totals share the "
                "win."
            ),
        ),
    },
)


class NumX(Game):
    """Num-X score cards: each player's score cards are scored at the end of each round."""

    slug = "numx"
    name: ClassVar[str] = N_("Num-X")
    min_players = 2
    max_players = 8
    wins = "highest"
    entry = "cards"
    # An X-Trem scores 100 at once.
    detail_marks: ClassVar[dict] = {"xtrem": "bonus"}
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
            "same_colour",
            "bool",
            N_("Family: add the “same colour” rule"),
            False,
        ),
        Option(
            "teams",
            "teams",
            N_("Teams (2 players or more): scored on the members' cards together"),
        ),
    )
    summary: ClassVar[str] = N_(
        "Each player scores their score cards: X-Trem 100, a shadow cancels a rainbow, a rainbow "
        "adds up, sets add up, pairs cancel, and per colour only the smallest single card counts. "
        "The highest total wins."
    )
    card_kinds = FULL_DECK.kinds
    decks = (FULL_DECK, FAMILY_DECK)
    card_actions = FULL_DECK.action_names
    # An example request of the score endpoint (the API documentation shows it).
    api_example: ClassVar[dict] = {
        "players": ["Elya", "Sasha"],
        "options": {"mode": "speedrun"},
        "rounds": [
            {
                "entries": {
                    "Elya": {"cards": [{"kind": "red", "value": 7}, {"kind": "rainbow", "value": 7}]},
                    "Sasha": {"cards": [{"kind": "blue", "value": 9}, {"kind": "red", "value": 9}]},
                }
            }
        ],
    }
    RULES = RULES

    def example(self, given, lang="fr"):
        """Score a worked example: score cards as text, or {"cards", "mode"}."""
        if isinstance(given, dict):
            return self.score_cards(cards_from_text(given["cards"]), given, lang)
        return score_full(cards_from_text(given), lang)

    def _check_options(self, players, opts, given, problems):
        if opts["teams"] is not None and players is not None:
            opts["teams"] = check_teams(players, opts["teams"], problems, min_size=2)

    def card_set(self, options):
        """Return the cards of the deck the mode plays: Family has no action card (its deck refuses them)."""
        deck = FAMILY_DECK if options.get("mode") == "family" else FULL_DECK
        return deck.kinds, deck.action_names

    records_shown: ClassVar[tuple] = ({"key": "xtrem", "label": N_("X-Trem"), "combine": "sum"},)

    def seat_records(self, result, name):
        """Return the X-Trems the seat scored."""
        return {"xtrem": detail_rules(result, name).count("xtrem")}

    def score_cards(self, cards, options, lang="fr"):
        """Score a list of Card objects under ``options``; return (points, details)."""
        if options.get("mode") == "family":
            return score_family(cards, options.get("same_colour", False), lang)
        return score_full(cards, lang)

    def _score(self, players, opts, rounds, lang, problems):
        mode = opts["mode"]
        deck = FAMILY_DECK if mode == "family" else FULL_DECK
        planned = ROUNDS[mode]
        teams = opts["teams"]
        if len(rounds) > planned:
            self._too_many(rounds, planned, problems)
        results = []
        for i, rnd in enumerate(rounds):
            path = f"rounds[{i}]"
            rnd = self._round_dict(rnd, path, {"entries"}, problems)
            if rnd is None:
                continue
            entries = check_entries(rnd, path, players, players, problems)
            hands = []
            typed = {}
            for name in players:
                if name not in entries:
                    continue
                ppath = f"{path}.entries.{name}"
                cards, points = parse_entry(entries[name], ppath, name, deck, problems)
                if points is not None:
                    typed[name] = points
                elif cards is not None:
                    hands.append((name, f"{ppath}.cards", cards))
            deck.check_round(hands, problems)
            if problems:
                continue  # nothing to score once anything is wrong
            results.append(self._score_round(players, opts, hands, typed, teams, lang))
        if problems:
            return {}
        return self._finish(players, teams, results, planned)

    def _score_round(self, players, opts, hands, typed, teams, lang):
        points = {}
        details = {}
        cards_of = {}
        for name, _path, cards in hands:
            cards_of[name] = cards
            points[name], details[name] = self.score_cards(cards, opts, lang)
        for name, pts in typed.items():
            points[name] = pts
            details[name] = [typed_detail(pts, lang)]
        result = {
            "points": {p: points[p] for p in players},
            "details": {p: details[p] for p in players},
        }
        if teams:
            team_points = {}
            team_details = {}
            for team, members in teams.items():
                union = [c for m in members if m in cards_of for c in cards_of[m]]
                pts, items = self.score_cards(union, opts, lang)
                for m in members:
                    if m in typed:
                        pts += typed[m]
                        items.append(typed_detail(typed[m], lang))
                team_points[team] = pts
                team_details[team] = items
            result["teams"] = team_points
            result["team_details"] = team_details
        return result

    def _finish(self, players, teams, results, planned):
        totals = {p: sum(r["points"][p] for r in results) for p in players}
        finished = len(results) >= planned
        out = {
            "rounds": results,
            "bonuses": {p: 0 for p in players},
            "totals": totals,
            "teams": None,
            "winners": [],
            "finished": finished,
            "next_round": None if finished else next_round(len(results) + 1, players),
        }
        if teams:
            out["teams"] = {
                team: {
                    "members": list(members),
                    "total": sum(r["teams"][team] for r in results),
                }
                for team, members in teams.items()
            }
            side_totals = {team: v["total"] for team, v in out["teams"].items()}
        else:
            side_totals = totals
        if results:
            out["winners"] = leaders(side_totals, self.wins)
        return out
