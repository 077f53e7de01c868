"""Cards: parsing the JSON card objects, deck membership and per-round copy limits."""

from .base import TYPED_MAX, TYPED_MIN, VALUES, detail, is_int, shown
from .i18n import ACTIONS, COLOURS, EMOJI, N_, SPECIALS, SPECIALS_THE, _, pN_

CLASSIC = ("red", "blue", "green", "yellow")
NUMERIC = CLASSIC + ("rainbow", "shadow")
SPECIAL = ("joker", "infini", "numx")
ALL_KINDS = NUMERIC + SPECIAL + ("action",)
KIND_ORDER = {k: i for i, k in enumerate(ALL_KINDS)}


class Card:
    """One parsed card; ``raw`` is the caller's own dict, echoed back in details."""

    __slots__ = ("index", "kind", "name", "raw", "value")

    def __init__(self, kind, value=None, name=None, raw=None, index=0):
        self.kind = kind
        self.value = value  # int for numeric cards, else None
        self.name = name  # action name, else None
        self.raw = raw if raw is not None else self.as_dict()
        self.index = index  # position in the caller's list, for error paths

    def __repr__(self):
        return f"Card({self.short()})"

    def key(self):
        """Return what identifies one physical card kind in the deck."""
        if self.value is not None:
            return (self.kind, self.value)
        return (self.kind, self.name)

    def sort_key(self):
        """Return a key giving a stable order (value, then colour) whatever the input order."""
        return (
            self.value if self.value is not None else 99,
            KIND_ORDER[self.kind],
            self.name or "",
        )

    def as_dict(self):
        """Return the card as its JSON object."""
        if self.value is not None:
            return {"kind": self.kind, "value": self.value}
        if self.kind == "action":
            return {"kind": "action", "name": self.name}
        return {"kind": self.kind}

    def render(self, lang="fr"):
        """Return the card's name in ``lang``: "7 bleu" / "blue 7", "10 🌈", "Joker"."""
        if self.kind in COLOURS:
            return _(lang, COLOUR_CARD).format(colour=_(lang, COLOURS[self.kind]), value=self.value)
        if self.value is not None:
            return f"{self.value} {EMOJI[self.kind]}"
        if self.kind == "action":
            return _(lang, ACTIONS[self.name])
        return _(lang, SPECIALS[self.kind])

    def short(self, lang="fr"):
        """Return the compact emoji form used in score details: "7🔴", "10🌈", "∞"."""
        if self.value is not None:
            return f"{self.value}{EMOJI[self.kind]}"
        return self.render(lang)


# A colour card's name: "blue 7" (« 7 bleu »).
COLOUR_CARD = pN_("a colour card", "{colour} {value}")
# A card as the subject of a sentence: "The blue 7 card" (« La carte 7 bleu »).
THE_CARD = N_("The {card} card")
THE_ACTION_CARD = N_("The {card} action card")


class CardSubject:
    """A card named as the subject of a sentence ("Le joker", "La carte 7 bleu")."""

    __slots__ = ("card",)

    def __init__(self, card):
        self.card = card

    def render(self, lang="fr"):
        """Return the subject form of the card in ``lang``."""
        card = self.card
        if card.kind in SPECIALS_THE:
            return _(lang, SPECIALS_THE[card.kind])
        subject = THE_ACTION_CARD if card.kind == "action" else THE_CARD
        return _(lang, subject).format(card=card.render(lang))


class Deck:
    """What a game's deck holds: kinds, value ranges, copies of specials and actions."""

    def __init__(
        self,
        game_name,
        numeric=NUMERIC,
        values=None,
        specials=None,
        actions=None,
        unlimited_actions=(),
        visible=False,
        max_cards=120,
    ):
        self.game_name = game_name
        self.numeric = frozenset(numeric)
        # kind -> (lo, hi); default 0..16 for every numeric kind
        self.values = {k: VALUES for k in numeric} if values is None else values
        self.specials = specials or {}  # kind -> copies in the deck
        self.actions = actions or {}  # name -> copies in the deck
        self.unlimited_actions = frozenset(unlimited_actions)  # in the deck, count unknown
        self.action_names = list(self.actions) + [a for a in unlimited_actions if a not in actions]
        self.visible = visible
        self.max_cards = max_cards
        self.kinds = [k for k in ALL_KINDS if k in self.numeric or k in self.specials]
        if self.action_names:
            self.kinds.append("action")

    def parse(self, raw_cards, path, problems, max_cards=None):
        """Parse one hand; return its Card list (bad cards left out, issues recorded)."""
        if not isinstance(raw_cards, list):
            problems.add(path, "cards_type")
            return []
        limit = self.max_cards if max_cards is None else max_cards
        if len(raw_cards) > limit:
            problems.add(path, "too_many_cards", count=len(raw_cards), max=limit)
            return []
        hand = []
        seen = set()
        for i, raw in enumerate(raw_cards):
            card = self.parse_card(raw, f"{path}[{i}]", problems)
            if card is None:
                continue
            card.index = i
            if card.value is not None:
                key = (card.kind, card.value)
                if key in seen:
                    problems.add(f"{path}[{i}]", "duplicate_card", card=card)
                    continue
                seen.add(key)
            hand.append(card)
        return hand

    def parse_card(self, raw, path, problems):
        """Parse one card object; return a Card or None (issue recorded)."""
        if not isinstance(raw, dict) or "kind" not in raw:
            problems.add(path, "card_type", value=shown(raw))
            return None
        kind = raw["kind"]
        if not isinstance(kind, str) or kind not in KIND_ORDER:
            problems.add(
                f"{path}.kind",
                "card_kind_unknown",
                kind=shown(kind),
                choices=self.kinds,
            )
            return None
        allowed = {"kind", "visible"} if self.visible else {"kind"}
        if kind in NUMERIC:
            allowed.add("value")
        elif kind == "action":
            allowed.add("name")
        bad = False
        for key in raw:
            if key not in allowed:
                problems.add(f"{path}.{shown(key)}", "field_unknown", name=shown(key))
                bad = True
        if "visible" in raw and self.visible and not isinstance(raw["visible"], bool):
            problems.add(f"{path}.visible", "bool_type", value=shown(raw["visible"]))
            bad = True
        if kind in NUMERIC:
            value = raw.get("value")
            if not is_int(value):
                problems.add(f"{path}.value", "int_type", value=shown(value))
                return None
            if kind not in self.numeric:
                problems.add(
                    path,
                    "card_not_in_game",
                    card=CardSubject(Card(kind, value)),
                    game=self.game_name,
                )
                return None
            lo, hi = self.values[kind]
            if not lo <= value <= hi:
                problems.add(f"{path}.value", "out_of_range", value=value, min=lo, max=hi)
                return None
            return None if bad else Card(kind, value, None, raw)
        if kind == "action":
            name = raw.get("name")
            if not isinstance(name, str) or name not in ACTIONS:
                problems.add(
                    f"{path}.name",
                    "action_unknown",
                    name=shown(name),
                    choices=self.action_names,
                )
                return None
            if name not in self.actions and name not in self.unlimited_actions:
                problems.add(
                    path,
                    "card_not_in_game",
                    card=CardSubject(Card("action", None, name)),
                    game=self.game_name,
                )
                return None
            return None if bad else Card(kind, None, name, raw)
        if kind not in self.specials:
            problems.add(
                path,
                "card_not_in_game",
                card=CardSubject(Card(kind)),
                game=self.game_name,
            )
            return None
        return None if bad else Card(kind, None, None, raw)

    def check_round(self, hands, problems):
        """Check one round's hands together: each numeric card once, copies within the deck.

        ``hands`` is a list of (owner, path, cards); issues point at the offending card.
        """
        holder = {}
        counts = {}
        excess = {}  # key -> (path of the first copy too many, card)
        for owner, path, cards in hands:
            for card in cards:
                if card.value is not None:
                    key = (card.kind, card.value)
                    first = holder.get(key)
                    if first is not None and first != owner:
                        problems.add(
                            f"{path}[{card.index}]",
                            "duplicate_card_other",
                            card=card,
                            other=first,
                        )
                    else:
                        holder[key] = owner
                    continue
                if card.name is None:
                    limit = self.specials.get(card.kind)
                else:
                    limit = self.actions.get(card.name)
                if limit is None:
                    continue
                key = card.key()
                n = counts.get(key, 0) + 1
                counts[key] = n
                if n == limit + 1:
                    excess[key] = (f"{path}[{card.index}]", card, limit)
        for key, (path, card, limit) in excess.items():
            problems.add(path, "too_many_copies", card=card, count=counts[key], max=limit)


def parse_entry(entry, path, name, deck, problems, max_cards=None):
    """Parse a {"cards": [...]} or {"points": n} entry; return (cards, typed points).

    Exactly one of the two is not None when the entry is valid; both are None otherwise.
    """
    has_cards = "cards" in entry
    has_points = "points" in entry
    for key in entry:
        if key not in ("cards", "points"):
            problems.add(f"{path}.{shown(key)}", "field_unknown", name=shown(key))
    if has_cards == has_points:
        problems.add(path, "entry_cards_or_points", name=name)
        return None, None
    if has_points:
        points = entry["points"]
        if not is_int(points):
            problems.add(f"{path}.points", "int_type", value=shown(points))
            return None, None
        if not TYPED_MIN <= points <= TYPED_MAX:
            problems.add(
                f"{path}.points",
                "out_of_range",
                value=points,
                min=TYPED_MIN,
                max=TYPED_MAX,
            )
            return None, None
        return None, points
    return deck.parse(entry["cards"], f"{path}.cards", problems, max_cards), None


def typed_detail(points, lang):
    """Return the detail line of points typed by hand."""
    return detail("typed", [], points, lang)


_EMOJI_KINDS = {emoji: kind for kind, emoji in EMOJI.items()}
_TEXT_SPECIALS = {"∞": "infini", "joker": "joker", "⚡": "numx"}


def cards_from_text(text):
    """Return the Card objects written in ``text`` the way the rule books do: "7🔴 7🌈 ∞ block".

    Used by the worked examples of the rules pages, which the engines score like any hand.
    """
    cards = []
    for token in text.split():
        if token in _TEXT_SPECIALS or token.lower() in _TEXT_SPECIALS:
            cards.append(Card(_TEXT_SPECIALS.get(token) or _TEXT_SPECIALS[token.lower()]))
        elif token.lower() in ACTIONS:
            cards.append(Card("action", name=token.lower()))
        else:
            digits = token.rstrip("".join(_EMOJI_KINDS))
            cards.append(Card(_EMOJI_KINDS[token[len(digits) :]], int(digits)))
    return cards
