"""Num King's referee: who takes one trick, and who leads the next.

The rule book's « Résolution d'un pli » (004) as ``shared/spec/scoring.md`` reads it,
section « Who takes the trick (the referee) ». ``check_trick`` validates the cards
of one trick and of the round's earlier tricks; ``resolve`` applies the five steps
(cancellations, the active action, the valid cards, the winner, who leads next) and
explains each one. ``NumKing.trick`` (numking.py) checks the players and the options
first. Plain Python like every engine: the device runs it too (Pyodide).
"""

from .base import Issue, Problems, check_fields, is_int, shown
from .i18n import ACTIONS, CARD_LABELS, N_, _

COLOURS = ("rainbow", "shadow", "family")  # "family": the extra colour family (option extra_family)
KINDS = (*COLOURS, "numx", "action")
ACTION_NAMES = ("flash", "flip", "quantique")
VALUES = (1, 16)  # a colour card's values
NUMX_VALUES = (0, 17)  # what a Num-X is declared to be worth when it is played

# The same rules as JSON Schema, for the API's documentation (scoring/api/shapes.py): a colour
# card with its value, a Num-X with the value it stands for, an action with its name.
_NAME_SCHEMA = {"type": "string", "pattern": "^[^\\x00]*$"}
CARD_SCHEMA = {
    "oneOf": [
        {
            "type": "object",
            "properties": {
                "kind": {"enum": list(COLOURS)},
                "value": {"type": "integer", "minimum": VALUES[0], "maximum": VALUES[1]},
            },
            "required": ["kind", "value"],
            "additionalProperties": False,
        },
        {
            "type": "object",
            "properties": {"kind": {"enum": ["numx"]}, "as": {"type": "integer", "enum": list(NUMX_VALUES)}},
            "required": ["kind", "as"],
            "additionalProperties": False,
        },
        {
            "type": "object",
            "properties": {"kind": {"enum": ["action"]}, "name": {"enum": list(ACTION_NAMES)}},
            "required": ["kind", "name"],
            "additionalProperties": False,
        },
    ]
}
PLAY_SCHEMA = {
    "type": "object",
    "properties": {"player": _NAME_SCHEMA, "card": CARD_SCHEMA},
    "required": ["player", "card"],
    "additionalProperties": False,
}
TRICK_SCHEMA = {
    "type": "object",
    "properties": {"leader": _NAME_SCHEMA, "plays": {"type": "array", "items": PLAY_SCHEMA}},
    "required": ["leader", "plays"],
    "additionalProperties": False,
}
# The most cards a list may hold: the largest deck (52 cards, with the extra family).
MAX_CARDS = 52


class TrickCard:
    """One card of a trick: a colour card, a Num-X with its declared value, or Flash, Flip, Quantique."""

    __slots__ = ("kind", "name", "value")

    def __init__(self, kind, value=None, name=None):
        self.kind = kind
        self.value = value  # a colour card's value, a Num-X's declared one; None for Flash, Flip, Quantique
        self.name = name  # an action card's name

    def __repr__(self):
        return f"TrickCard({self.render('en')})"

    def key(self):
        """Return what identifies the card in the deck, which holds each card once (Num-X whatever it declares)."""
        if self.kind in COLOURS:
            return (self.kind, self.value)
        return (self.kind, self.name)

    def is_action(self):
        """Tell whether the card is an action card, Num-X counted (step 2)."""
        return self.kind in ("numx", "action")

    def effect(self):
        """Return the action this card makes active: "flash", "flip", "quantique" or "numx"."""
        return self.name if self.kind == "action" else self.kind

    def render(self, lang="fr"):
        """Return the card's name in ``lang``: "Rainbow 12", "Famille 3", "⚡ Num-X 17", "Flip"."""
        if self.kind == "action":
            return _(lang, ACTIONS[self.name])
        return f"{_(lang, CARD_LABELS[self.kind]['label'])} {self.value}"


def _kinds(extra_family):
    return [k for k in KINDS if k != "family" or extra_family]


def parse_card(raw, path, extra_family, problems):
    """Parse one card of a trick; return a TrickCard, or None (issue recorded at ``path``)."""
    if not isinstance(raw, dict) or "kind" not in raw:
        problems.add(path, "card_type", value=shown(raw))
        return None
    kind = raw["kind"]
    if not isinstance(kind, str) or kind not in KINDS:
        problems.add(f"{path}.kind", "card_kind_unknown", kind=shown(kind), choices=_kinds(extra_family))
        return None
    field = "value" if kind in COLOURS else "as" if kind == "numx" else "name"
    before = len(problems)
    check_fields(raw, path, ("kind", field), problems)
    if kind in COLOURS:
        value = raw.get("value")
        if not is_int(value):
            problems.add(f"{path}.value", "int_type", value=shown(value))
            return None
        if not VALUES[0] <= value <= VALUES[1]:
            problems.add(f"{path}.value", "out_of_range", value=value, min=VALUES[0], max=VALUES[1])
            return None
        card = TrickCard(kind, value)
        if kind == "family" and not extra_family:
            problems.add(path, "extra_family_off", card=card)
            return None
    elif kind == "numx":
        if "as" not in raw:
            problems.add(f"{path}.as", "numx_as_missing")
            return None
        declared = raw["as"]
        if not is_int(declared) or declared not in NUMX_VALUES:
            problems.add(f"{path}.as", "numx_as", value=shown(declared))
            return None
        card = TrickCard(kind, declared)
    else:
        name = raw.get("name")
        if not isinstance(name, str) or name not in ACTION_NAMES:
            problems.add(f"{path}.name", "action_unknown", name=shown(name), choices=list(ACTION_NAMES))
            return None
        card = TrickCard(kind, name=name)
    return card if len(problems) == before else None


def _card_list(raw, path, problems, most):
    """Return ``raw`` if it is a list of at most MAX_CARDS items, else record why not and return None."""
    if not isinstance(raw, list):
        problems.add(path, "cards_type")
        return None
    if len(raw) > MAX_CARDS:
        problems.add(path, "too_many_cards", count=len(raw), max=most)
        return None
    return raw


def check_trick(players, extra_family, plays, played, problems):
    """Validate one trick; return its [(player, TrickCard)] in the order played (issues recorded).

    ``plays``: one {"player", "card"} per player of ``players``, each player once.
    ``played`` (None: none): the cards of the round's earlier tricks. Each card of the
    deck exists once: a card twice in ``plays`` + ``played`` is named, at the second one.
    """
    played = [] if played is None else _card_list(played, "played", problems, MAX_CARDS) or []
    plays = _card_list(plays, "plays", problems, len(players))
    seen = {}  # the key of each card met so far → who played it (None: an earlier trick)
    for j, raw in enumerate(played):
        card = parse_card(raw, f"played[{j}]", extra_family, problems)
        if card is None:
            continue
        if card.key() in seen:
            problems.add(f"played[{j}]", "duplicate_card", card=card)
            continue
        seen[card.key()] = None
    if plays is None:
        return []
    known = set(players)
    trick = []
    given = set()
    for i, play in enumerate(plays):
        path = f"plays[{i}]"
        if not isinstance(play, dict):
            problems.add(path, "play_type")
            continue
        check_fields(play, path, ("player", "card"), problems)
        name = play.get("player")
        if "player" not in play:
            problems.add(f"{path}.player", "field_required", name="player")
            name = None
        elif not isinstance(name, str) or name not in known:
            problems.add(f"{path}.player", "unknown_player", name=shown(name))
            name = None
        elif name in given:
            problems.add(f"{path}.player", "trick_player_twice", name=name)
        else:
            given.add(name)
        if "card" not in play:
            problems.add(f"{path}.card", "field_required", name="card")
            continue
        card = parse_card(play["card"], f"{path}.card", extra_family, problems)
        if card is None:
            continue
        key = card.key()
        if key in seen:
            other = seen[key]
            if other is None:
                problems.add(f"{path}.card", "card_already_played", card=card)
            else:
                problems.add(f"{path}.card", "trick_card_twice", card=card, other=other)
            continue
        seen[key] = name if name is not None else shown(play.get("player"))
        if name is not None:
            trick.append((name, card))
    for name in players:
        if name not in given:
            problems.add("plays", "trick_player_missing", name=name)
    return trick


# What the action in force does (Card.effect()), said after the card.
EFFECTS = {
    "flash": N_("the trick is cancelled, nobody takes it"),
    "flip": N_("the lowest valid card wins"),
    "quantique": N_("{count} players, the highest valid {parity} card wins"),
    "numx": N_("the highest valid card wins"),
}
PARITIES = {"even": N_("even"), "odd": N_("odd")}
AND = N_("and")  # the last two items of a list: "A, B and C"


def _and(items, lang):
    """Return items joined as a sentence says them: "A", "A et B", "A, B et C"."""
    if len(items) < 2:
        return "".join(items)
    return f"{', '.join(items[:-1])} {_(lang, AND)} {items[-1]}"


def resolve(players, trick, lang="fr"):
    """Resolve a checked trick ([(player, TrickCard)] in the order played, one per player of ``players``).

    Return {"winner", "leads_next", "active", "cancelled", "valid", "details"}: the
    winner or None, who leads the next trick, the action in force ("flash", "flip",
    "quantique", "numx" or None), the players whose cards were cancelled and those whose
    cards stayed valid (in the order played), and one line per step in ``lang``.
    """
    details = []

    def say(text, **params):
        details.append(_(lang, text).format(**params))

    def named(cards):
        return _and([c.render(lang) for _p, c in cards], lang)

    # 1. Cancellations: a value played by two or more colour families leaves the trick, every card of it.
    by_value = {}
    for player, card in trick:
        if card.kind in COLOURS:
            by_value.setdefault(card.value, []).append((player, card))
    gone = {v for v, cards in by_value.items() if len({c.kind for _p, c in cards}) >= 2}
    for value in dict.fromkeys(c.value for _p, c in trick if c.value in gone and c.kind in COLOURS):
        say(N_("{cards} cancel each other out"), cards=named(by_value[value]))
    if not gone:
        say(N_("No cancellation: no value played by two families"))
    cancelled = [p for p, c in trick if c.kind in COLOURS and c.value in gone]

    # 2. The active action: the last action card played, Num-X counted; it replaces the ones before it.
    actions = [c for _p, c in trick if c.is_action()]
    active = actions[-1].effect() if actions else None
    n = len(players)
    parity = "even" if n % 2 == 0 else "odd"
    if active is None:
        say(N_("No action card: the highest valid card wins"))
    else:
        effect = _(lang, EFFECTS[active]).format(count=n, parity=_(lang, PARITIES[parity]))
        card = actions[-1].render(lang)
        if len(actions) > 1:
            before = _and([a.render(lang) for a in actions[:-1]], lang)
            say(N_("{card} played after {before}: {effect}"), card=card, before=before, effect=effect)
        else:
            say(N_("{card}: {effect}"), card=card, effect=effect)

    # 3. The valid cards: the colour cards left and the Num-X at its declared value, whatever the action.
    valid = [(p, c) for p, c in trick if c.value is not None and not (c.kind in COLOURS and c.value in gone)]
    if valid:
        say(N_("Valid cards: {cards}"), cards=named(valid))
    else:
        say(N_("No valid card is left"))

    # 4. The winner (valid cards never tie: a value held by two families was cancelled).
    winner = None
    if active != "flash" and valid:
        if active == "flip":
            winner = min(valid, key=lambda pc: pc[1].value)
        elif active == "quantique":
            rest = 0 if parity == "even" else 1
            matching = [(p, c) for p, c in valid if c.value % 2 == rest]
            if not matching:
                say(
                    N_("No valid {parity} card: Quantique has no effect, the highest valid card wins"),
                    parity=_(lang, PARITIES[parity]),
                )
            winner = max(matching or valid, key=lambda pc: pc[1].value)
        else:
            winner = max(valid, key=lambda pc: pc[1].value)
    if winner is not None:
        say(N_("{player} takes the trick with {card}"), player=winner[0], card=winner[1].render(lang))
    else:
        say(N_("Nobody takes the trick"))

    # 5. Who leads next: the winner; else the highest value other than Flash (cancelled cards
    # included), the first played of a tie; else the player who led this trick.
    if winner is not None:
        leads = winner[0]
        say(N_("{player} leads the next trick"), player=leads)
    else:
        valued = [(p, c) for p, c in trick if c.value is not None]
        if valued:
            top = max(c.value for _p, c in valued)
            tied = [(p, c) for p, c in valued if c.value == top]
            leads, first = tied[0]
            if len(tied) > 1:
                say(
                    N_(
                        "{player} leads the next trick: {cards} tie as the highest cards other than Flash, "
                        "and {card} was played first"
                    ),
                    player=leads,
                    cards=named(tied),
                    card=first.render(lang),
                )
            else:
                say(
                    N_("{player} leads the next trick: {card} is the highest card other than Flash"),
                    player=leads,
                    card=first.render(lang),
                )
        else:
            leads = trick[0][0]
            say(N_("No card has a value: {player}, who led this trick, leads the next one too"), player=leads)

    return {
        "winner": winner[0] if winner is not None else None,
        "leads_next": leads,
        "active": active,
        "cancelled": cancelled,
        "valid": [p for p, _c in valid],
        "details": details,
    }


# --- a whole hand: the tricks of the round in progress ------------------------------------


def referee_cards(extra_family, lang="fr"):
    """Return the cards a trick is tapped from, named in ``lang``: the colours 1–16, Num-X, the actions."""
    return {
        "colours": [
            {"kind": k, "label": _(lang, CARD_LABELS[k]["label"])} for k in COLOURS if k != "family" or extra_family
        ],
        "values": list(range(VALUES[0], VALUES[1] + 1)),
        "numx": _(lang, CARD_LABELS["numx"]["label"]),
        "actions": [{"name": a, "label": _(lang, ACTIONS[a])} for a in ACTION_NAMES],
    }


def check_hand(players, extra_family, tricks, most, problems, path="tricks_played"):
    """Validate the tricks of one hand, in the order played; return them checked, one item per trick.

    ``tricks``: a list of at most ``most`` tricks (the cards dealt to each player), each
    {"leader", "plays"}: ``plays`` as for one trick (every player of ``players`` once),
    the leader's card first; each card of the deck at most once in the whole hand (the
    referee's ``card_already_played`` at the trick that plays it again). Issues are
    recorded under ``path`` ("tricks_played[1].plays[2].card"). Each item returned is
    (leader, [(player, TrickCard)]), or None for a trick with an issue.
    """
    if not isinstance(tricks, list):
        problems.add(path, "tricks_played_type")
        return []
    if len(tricks) > most:
        problems.add(path, "tricks_played_count", count=len(tricks), cards=most)
        return []
    known = set(players)
    played = []  # the cards of the earlier tricks without an issue, as given
    checked = []
    for k, raw in enumerate(tricks):
        tpath = f"{path}[{k}]"
        if not isinstance(raw, dict):
            problems.add(tpath, "trick_type")
            checked.append(None)
            continue
        before = len(problems)
        check_fields(raw, tpath, ("leader", "plays"), problems)
        leader = raw.get("leader")
        if "leader" not in raw:
            problems.add(f"{tpath}.leader", "field_required", name="leader")
        elif not isinstance(leader, str) or leader not in known:
            problems.add(f"{tpath}.leader", "unknown_player", name=shown(leader))
        if "plays" not in raw:
            problems.add(f"{tpath}.plays", "field_required", name="plays")
            checked.append(None)
            continue
        own = Problems()
        trick = check_trick(players, extra_family, raw["plays"], played, own)
        for issue in own.issues:
            problems.issues.append(Issue(f"{tpath}.{issue.path}", issue.code, issue.params))
        if len(problems) == before and trick and trick[0][0] != leader:
            problems.add(f"{tpath}.leader", "trick_leader", number=k + 1, leader=leader, first=trick[0][0])
        if len(problems) > before:
            checked.append(None)
            continue
        played.extend(play["card"] for play in raw["plays"])
        checked.append((leader, trick))
    return checked


def resolve_hand(players, checked, lang="fr"):
    """Resolve the checked tricks of one hand (``check_hand``): each trick's result, and who took how many.

    Return {"tricks": [...], "counted": {player: tricks taken}}; each trick is its
    ``resolve`` result with "number" (from 1), "leader", "plays" ([{"player", "card"}],
    the card named in ``lang``) and "expected_leader": who the previous trick's result
    says leads it (None for the first trick, or when it is the leader). Tricks with an
    issue (None) end the list: the ones after them cannot be told apart from a mistake.
    """
    counted = dict.fromkeys(players, 0)
    out = []
    leads = None
    for k, item in enumerate(checked):
        if item is None:
            break
        leader, trick = item
        result = resolve(players, trick, lang)
        if result["winner"] is not None:
            counted[result["winner"]] += 1
        out.append(
            {
                "number": k + 1,
                "leader": leader,
                "plays": [{"player": p, "card": c.render(lang)} for p, c in trick],
                "expected_leader": leads if leads is not None and leads != leader else None,
                **result,
            }
        )
        leads = result["leads_next"]
    return {"tricks": out, "counted": counted}
