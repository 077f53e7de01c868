"""The engines' words: written in English in the code, said in other languages by gettext catalogues.

One way to translate, the standard library's ``gettext`` (no Django: the engines run in the browser
too, where the engine bundle carries the compiled catalogues, scoring/pwa.py). The English text is
the msgid; each other language is one catalogue of the ``engine`` domain,
``scoring/games/locale/<lang>/LC_MESSAGES/engine.po`` (compiled to ``engine.mo`` by `make messages`,
which also collects the texts marked below with xgettext). The language is always passed: the
engines are called per request, in the request's language; one without a catalogue is said in
French, the app's first language.

The markers xgettext reads (see the Makefile's ``messages``):

- ``_(lang, text)``: ``text`` in ``lang``; ``n_(lang, one, other, n)``: the plural form ``n`` asks for;
- ``N_(text)``: a text said later, in the reader's language (``N_("…").render(lang)`` or ``_(lang, …)``);
  ``pN_(context, text)`` the same with a context, for an English word French says two ways;
- ``Nn_(one, other)``: a text with plural forms, said later with ``n_`` (or ``t`` for ``MESSAGES``).

Every message is a ``str.format`` template (``_(lang, "{name} leads").format(name=…)``);
``t(code, lang, **params)`` renders the message of an error code or a detail rule, which the API
names (``MESSAGES``). An unknown code is said as the code itself.
"""

import gettext
import os

DOMAIN = "engine"
LOCALE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "locale")
SOURCE = "en"  # the language of the msgids: said without a catalogue
DEFAULT = "fr"  # the language of a reader whose language has no catalogue


class N_(str):
    """A text of the engines in English, said in the reader's language when rendered."""

    context = None

    def render(self, lang=DEFAULT):
        """Return this text in ``lang``."""
        return _(lang, self)


def pN_(context, text):
    """Return ``N_(text)`` translated under ``context`` (French says "blue" two ways: « bleu », « bleue »)."""
    said = N_(text)
    said.context = context
    return said


def Nn_(one, other):
    """Return a text with plural forms (English singular, English plural), said later with ``n_``."""
    return (N_(one), N_(other))


def _catalogue_of(lang):
    if lang == SOURCE:
        return gettext.NullTranslations()
    with open(os.path.join(LOCALE, lang, "LC_MESSAGES", DOMAIN + ".mo"), "rb") as mo:
        return gettext.GNUTranslations(mo)


# The languages the engines speak: English, and one per compiled catalogue.
LANGUAGES = (SOURCE,) + tuple(
    sorted(
        lang
        for lang in (os.listdir(LOCALE) if os.path.isdir(LOCALE) else ())
        if os.path.isfile(os.path.join(LOCALE, lang, "LC_MESSAGES", DOMAIN + ".mo"))
    )
)
CATALOGUES = {lang: _catalogue_of(lang) for lang in LANGUAGES}


def catalogue(lang):
    """Return the gettext catalogue of ``lang`` (French when ``lang`` has none)."""
    return CATALOGUES.get(lang) or CATALOGUES.get(DEFAULT) or CATALOGUES[SOURCE]


def _(lang, text):
    """Return ``text`` (English, as written in the code) in ``lang``."""
    if not text:
        return ""
    context = getattr(text, "context", None)
    said = catalogue(lang).pgettext(context, text) if context else catalogue(lang).gettext(text)
    return str(said)


def count_of(value):
    """Return the number a plural form is chosen by: ``value`` as a whole number, "−3" too; 2 (plural) if none."""
    try:
        return abs(int(str(value).replace("\u2212", "-")))
    except (TypeError, ValueError):
        return 2


def n_(lang, one, other, n):
    """Return the form of (``one``, ``other``) that the count ``n`` asks for in ``lang``.

    French counts 0 and 1 as singular ("0 carte", "1 carte"), English only 1: each catalogue's
    Plural-Forms says so.
    """
    return str(catalogue(lang).ngettext(one, other, count_of(n)))


def in_languages(text):
    """Return ``text`` in every language the engines speak: {"fr": ..., "en": ...} (the API's game names)."""
    return {lang: _(lang, text) for lang in (DEFAULT, *(lang for lang in LANGUAGES if lang != DEFAULT))}


COLOURS = {
    "red": N_("red"),
    "blue": N_("blue"),
    "green": N_("green"),
    "yellow": N_("yellow"),
}

# Colour names as adjectives after "carte" (feminine in French).
COLOURS_FEM = {
    "red": pN_("of a card", "red"),
    "blue": pN_("of a card", "blue"),
    "green": pN_("of a card", "green"),
    "yellow": pN_("of a card", "yellow"),
    "rainbow": pN_("of a card", "rainbow"),
    "shadow": pN_("of a card", "shadow"),
}

EMOJI = {
    "red": "🔴",
    "blue": "🔵",
    "green": "🟢",
    "yellow": "🟡",
    "rainbow": "🌈",
    "shadow": "🌑",
}

SPECIALS = {
    "joker": N_("Joker"),
    "infini": N_("∞"),
    "numx": N_("⚡ Num-X"),
}

# Specials with their article, used as the subject of a sentence.
SPECIALS_THE = {
    "joker": N_("The joker"),
    "infini": N_("The ∞ Infini card"),
    "numx": N_("The ⚡ Num-X card"),
}

ACTIONS = {
    "block": N_("Block"),
    "flip": N_("Flip"),
    "swipe": N_("Swipe"),
    "eclair": N_("Eclair"),
    "quantique": N_("Quantique"),
    "malus": N_("Malus"),
    "simple": N_("Simple"),
    "double": N_("Double"),
    "twister": N_("Twister"),
    "bombe-x": N_("Bombe-X"),
    "tornade": N_("Tornade"),
    "flash": N_("Flash"),
    "passe": N_("Passe"),
}

# The card picker's name of each card kind: the one table the pages and app.js read (in the
# game's catalogue, embedded in the page). A "colour" card takes a value (tap the colour, then
# the value, its chip shows the value); a "special" card is one tap, its chip shows its short
# name (SPECIALS); action cards are named by ACTIONS.
CARD_LABELS = {
    "red": {"group": "colour", "label": COLOURS["red"]},
    "blue": {"group": "colour", "label": COLOURS["blue"]},
    "green": {"group": "colour", "label": COLOURS["green"]},
    "yellow": {"group": "colour", "label": COLOURS["yellow"]},
    "rainbow": {"group": "colour", "label": N_("Rainbow")},
    "shadow": {"group": "colour", "label": N_("Shadow")},
    # Num King's extra colour family (option extra_family), named by its referee.
    "family": {"group": "colour", "label": N_("Family")},
    "joker": {"group": "special", "label": SPECIALS["joker"]},
    "infini": {"group": "special", "label": N_("∞ Infini")},
    "numx": {"group": "special", "label": SPECIALS["numx"]},
}


def card_picker(kinds, actions, lang, values=(0, 16)):
    """Return the card picker of a game's catalogue: its values, colours, specials and actions, named in ``lang``."""
    return {
        "values": list(range(values[0], values[1] + 1)),
        "colours": [
            {"kind": k, "label": _(lang, CARD_LABELS[k]["label"])}
            for k in kinds
            if CARD_LABELS.get(k, {}).get("group") == "colour"
        ],
        "specials": [
            {"kind": k, "label": _(lang, CARD_LABELS[k]["label"]), "chip": _(lang, SPECIALS[k])}
            for k in kinds
            if CARD_LABELS.get(k, {}).get("group") == "special"
        ],
        "actions": [{"name": a, "label": _(lang, ACTIONS[a])} for a in actions],
    }


# The message of each error code (the API's ``errors[].code``) and of each detail rule ("d." and the
# rule, a line's ``rule``): its English text, translated by the catalogues. The engines say every
# other text where they write it (``_(lang, "…")``).
MESSAGES = {
    # --- players -------------------------------------------------------
    "players_type": N_("Players must be a list of names."),
    "players_count": Nn_(
        "This game needs {min} to {max} players ({count} given).",
        "This game needs {min} to {max} players ({count} given).",
    ),
    "players_count_mode": Nn_(
        "Mode {mode} is played by {min} to {max} players ({count} given).",
        "Mode {mode} is played by {min} to {max} players ({count} given).",
    ),
    "player_name_invalid": N_("Invalid player name: {name} (a non-empty text is expected)."),
    "player_name_long": N_("Name too long: {name} ({length} characters, at most {max})."),
    "player_name_control": N_("Player name “{name}”: it holds an invisible or control character ({char}); remove it."),
    "player_duplicate": N_("Player listed twice: {name}."),
    "unknown_player": N_("Unknown player: {name}."),
    # --- options -------------------------------------------------------
    "options_type": N_("Options must be an object."),
    "option_unknown": N_("Unknown option: {name} ({choices})."),
    "mode_unknown": N_("Unknown mode: {value} ({choices})."),
    "choice_unknown": N_("Unknown value for {option}: {value} ({choices})."),
    "bool_type": N_("True or false expected: {value}."),
    "int_type": N_("Whole number expected: {value}."),
    "out_of_range": N_("Value out of range: {value} ({min} to {max})."),
    "teams_type": N_("Teams must map each team name to a list of players."),
    "team_name_invalid": N_("Invalid team name: {name} (non-empty text of at most {max} characters)."),
    "team_name_control": N_("Team name “{name}”: it holds an invisible or control character ({char}); remove it."),
    "team_duplicate": N_("Team listed twice: {name}."),
    "team_too_small": Nn_(
        "Team too small: {team} ({count} player, at least {min}).",
        "Team too small: {team} ({count} players, at least {min}).",
    ),
    "team_size": Nn_(
        "Team {team} must have exactly {size} players ({count} given).",
        "Team {team} must have exactly {size} players ({count} given).",
    ),
    "team_count": Nn_(
        "At least {min} teams are needed ({count} given).", "At least {min} teams are needed ({count} given)."
    ),
    "team_count_exact": Nn_(
        "Exactly {count_expected} teams are needed ({count} given).",
        "Exactly {count_expected} teams are needed ({count} given).",
    ),
    "player_in_two_teams": N_("Player in two teams: {name}."),
    "player_without_team": N_("Player without a team: {name}."),
    "teams_not_allowed": N_("Teams are not played in mode {mode}."),
    "teams_required": N_("Mode {mode} is played in teams of two: give the teams."),
    "extra_family_players": N_("The extra colour family needs at least 7 players ({count} here)."),
    "binomes_deck": N_("Too many players for pairs: {count} × 6 cards exceed the {deck}-card deck."),
    "end_speedgame": N_("A Speed-Game always ends after 2 rounds (no {value} end)."),
    "decouverte_adversaire": N_("Découverte is only played in Coopératif mode."),
    # --- rounds --------------------------------------------------------
    "rounds_type": N_("Rounds must be a list."),
    "rounds_limit": N_("Too many rounds: {count} (at most {max})."),
    "too_many_rounds": Nn_(
        "Too many rounds: the game is over after round {finished} ({count} given).",
        "Too many rounds: the game is over after round {finished} ({count} given).",
    ),
    "round_type": N_("A round must be an object."),
    "bid_locked": N_("{name}: the bid ({bid}) can no longer change once the tricks are in."),
    "draft_fields_type": N_("The fields of the round in progress must be a JSON object."),
    "field_unknown": N_("Unknown field: {name}."),
    "field_required": N_("Missing field: {name}."),
    "entries_type": N_("Entries must map each player to their entry."),
    "entry_missing": N_("The entry of {name} is missing."),
    "entry_type": N_("The entry of {name} must be an object."),
    "entry_cards_or_points": N_("The entry of {name} must give either the cards or the points."),
    "entry_cards_points_or_counts": N_(
        "The entry of {name} must give the cards, the points, or the cards left counted (numeric and specials)."
    ),
    # --- cards left counted (Num-X short rules, classic scoring) ---------------
    "counts_mixed": N_("{name}: give either the cards left counted (numeric, specials) or {field}, not both."),
    "counts_field_unknown": N_("{name}: unknown field “{field}” (cards left are counted with numeric and specials)."),
    "counts_competition": N_(
        "{name}: in competition scoring each card counts its face value; counting the cards is not "
        "enough: enter the cards or the points."
    ),
    "count_missing": N_("{name}: the number of {what} is missing ({field})."),
    "count_type": N_("{name}: the number of {what} must be a whole number ({value})."),
    "count_negative": N_("{name}: the number of {what} cannot be negative ({value})."),
    "count_above_deck": N_("{name}: {value} {what} is more than the deck holds ({max})."),
    "count_round_total": N_("{name}: {count} {what} left in the round in all ({names}), the deck holds only {max}."),
    "entries_not_allowed": N_(
        "In Coopératif mode only the cards placed by the table are entered (placed), no entry per player."
    ),
    "not_in_tiebreak": N_("{name} does not play the tie-break round."),
    "declarer_type": N_("The declarer must be a player name or nothing: {value}."),
    # --- the entry form's fields (form.py) --------------------------------
    "form_type": N_("The entry form must be an object of its fields (name → text)."),
    "form_field_type": N_("The form's field {name} must hold text."),
    "form_not_a_number": N_("{label}: “{value}” is not a whole number."),
    "form_too_large": N_("{label}: “{value}” is too large."),
    "form_bid_missing": N_("{name}: the bid is missing."),
    "form_tricks_missing": N_("{name}: the tricks taken are missing."),
    "form_cards_unreadable": N_("{name}: the cards could not be read."),
    "form_cards_and_points": N_(
        "{name}: cards picked and points typed, only one can count. Remove the cards or clear the points."
    ),
    "form_counts_and_points": N_(
        "{name}: cards counted and points typed, only one can count. Set the counts to 0 or clear the points."
    ),
    # --- asked before a round with nothing entered is saved -------------------
    "empty_round": N_("No cards entered — save anyway?"),
    "empty_players": N_("No cards entered for {names} — save anyway?"),
    # --- cards ---------------------------------------------------------
    "cards_type": N_("Cards must be a list."),
    "too_many_cards": N_("Too many cards: {count} (at most {max})."),
    "hand_size": N_("Hand of {count} cards: at most {max} ({hand} cards + 10 discard errors)."),
    "card_type": N_("Invalid card: {value} (an object with a “kind” is expected)."),
    "card_kind_unknown": N_("Unknown card kind: {kind} ({choices})."),
    "card_not_in_game": N_("{card} does not exist in {game}."),
    "action_unknown": N_("Unknown action: {name} ({choices})."),
    "duplicate_card": N_("Card given twice: {card}."),
    "duplicate_card_other": N_("Card given twice: {card} (also held by {other})."),
    "too_many_copies": N_("Too many copies of {card} in the round: {count} (the deck has {max})."),
    # --- Num King --------------------------------------------------------
    # Above the cards dealt, a bid (or tricks) is at least 2: only the cards need their plural.
    "bid_above_cards": Nn_(
        "Bid of {bid} tricks for {cards} card dealt.", "Bid of {bid} tricks for {cards} cards dealt."
    ),
    "tricks_above_cards": Nn_(
        "{tricks} tricks taken for {cards} card dealt.", "{tricks} tricks taken for {cards} cards dealt."
    ),
    "tricks_sum": N_("The tricks taken ({total}) exceed the cards dealt ({cards})."),
    "cards_schedule": N_("This round deals {expected} cards, not {value}."),
    # --- Num King's referee: the cards of one trick ----------------------------
    "play_type": N_("Each play must be an object with “player” and “card”."),
    "trick_player_twice": N_("{name} plays twice in this trick."),
    "trick_player_missing": N_("The card of {name} is missing from this trick."),
    "trick_card_twice": N_("{card} is played twice in this trick (already by {other})."),
    "card_already_played": N_("{card} was already played in an earlier trick of this round."),
    # --- Num King's referee: the tricks of the round in progress (draft field tricks_played) ---
    "tricks_played_type": N_("The tricks played must be a list of tricks."),
    "tricks_played_count": Nn_(
        "{count} tricks played for {cards} card dealt: a round has at most one trick per card.",
        "{count} tricks played for {cards} cards dealt: a round has at most one trick per card.",
    ),
    "trick_type": N_("Each trick must be an object with “leader” and “plays”."),
    "trick_leader": N_("Trick {number}: {leader} leads it, their card comes first (here {first}'s)."),
    "extra_family_off": N_("{card}: the extra family is only played with its option (7 players or more)."),
    "numx_as_missing": N_("Num-X: declare its value, 0 or 17 (as)."),
    "numx_as": N_("Num-X is worth 0 or 17 (as), not {value}."),
    # --- coop ----------------------------------------------------------
    "adversaire_two_complete": N_("Only one player can place all 17 cards in a game: {names}."),
    # --- detail lines (score explanations) -----------------------------
    "d.typed": N_("Points typed by hand: {points}"),
    "d.non_numeric": N_("{cards}: non-numeric cards → 0"),
    "d.xtrem": N_("{cards}: X-Trem! → 100"),
    "d.cancel": N_("{cards}: the shadow cancels the rainbow → 0"),
    "d.rainbow": N_("{cards}: the rainbow adds up → {value} × {count} = {points}"),
    "d.rainbow_alone": N_("{cards}: lone rainbow → {points}"),
    "d.combo": N_("{cards}: set of {size} → {value} × {count} = {points}"),
    "d.pair": N_("{cards}: pair cancelled → 0"),
    "d.shadow_alone": N_("{cards}: shadow without a rainbow → 0"),
    "d.single": N_("{cards}: single card → {points}"),
    "d.same_colour_kept": N_("{cards}: smallest {colour} card → {points}"),
    "d.same_colour_dropped": N_("{cards}: same colour, only the smallest counts → 0"),
    "d.malus_numeric": Nn_("{cards}: {count} numeric card → {points}", "{cards}: {count} numeric cards → {points}"),
    "d.malus_special": Nn_(
        "{cards}: {count} special or action card × {each} → {points}",
        "{cards}: {count} special or action cards × {each} → {points}",
    ),
    "d.malus_numeric_counted": Nn_("{count} numeric card → {points}", "{count} numeric cards → {points}"),
    "d.malus_special_counted": Nn_(
        "{count} special or action card × {each} → {points}", "{count} special or action cards × {each} → {points}"
    ),
    "d.went_out": N_("No card left → 0"),
    "d.neutralised": N_("{cards}: rainbow and shadow of the same value neutralised → 0"),
    "d.face_value": N_("{cards}: face value → {points}"),
    "d.rainbow_active": N_("{cards}: activated rainbow → {points}"),
    "d.rainbow_inactive": N_("{cards}: lone rainbow, not activated → 0"),
    "d.action": N_("{cards}: action cards → 0"),
    "d.infini_alone": N_("{cards}: lone Infini → −10"),
    "d.infini_trap": N_("{cards}: Infini trapped (action or rainbow in hand) → +20"),
    "d.infini_many": N_("{cards}: several Infini → +40 in all"),
    "d.declarer_ok": N_("Num Win declared with the lowest hand → no penalty"),
    "d.declarer_failed": N_("Failed Num Win (not the lowest hand) → +20"),
    "d.tiebreak": N_("Tie-break round: not added to the total"),
    "d.streak": N_("Rounds {first}–{last}: {run} exact bids in a row → +{points}"),
    "d.streak_provisional": N_(
        "Rounds {first}–{last}: {run} exact bids in a row → +{points} (provisional: the game goes on)"
    ),
    "d.bid_exact": Nn_(
        "Bid {bid}, {tricks} trick: made → 10 + 3 × {bid} = {points}",
        "Bid {bid}, {tricks} tricks: made → 10 + 3 × {bid} = {points}",
    ),
    "d.bid_missed": Nn_(
        "Bid {bid}, {tricks} trick: off by {gap} → −3 × {gap} = {points}",
        "Bid {bid}, {tricks} tricks: off by {gap} → −3 × {gap} = {points}",
    ),
    "d.zero_exact": Nn_(
        "Bid 0 made on {dealt} card → 20 + 2 × {dealt} = {points}",
        "Bid 0 made on {dealt} cards → 20 + 2 × {dealt} = {points}",
    ),
    "d.zero_missed": Nn_(
        "Bid 0, {tricks} trick: failed → −(10 + 5 × {tricks}) = {points}",
        "Bid 0, {tricks} tricks: failed → −(10 + 5 × {tricks}) = {points}",
    ),
    "d.coop_won": N_("{placed} of {deck} cards placed: the table wins"),
    "d.coop_lost": N_("{placed} of {deck} cards placed: the table loses"),
    "d.adversaire": Nn_("{placed} of 17 own-colour cards placed", "{placed} of 17 own-colour cards placed"),
    "d.adversaire_eliminated": Nn_(
        "{placed} of 17 own-colour cards placed, eliminated", "{placed} of 17 own-colour cards placed, eliminated"
    ),
}


# A place in words: "1st", "2nd" (« 1er », « 2e »), by the English suffix the number takes.
FIRST = pN_("place", "1st")
PLACES = {"st": N_("{n}st"), "nd": N_("{n}nd"), "rd": N_("{n}rd"), "th": N_("{n}th")}
TIED = N_("{place}, tied")


def ordinal(n, lang=DEFAULT, shared=False):
    """Return a place as words: "1er", "2e" ("2e ex æquo" when shared); "1st", "2nd" ("2nd, tied")."""
    if n == 1:
        place = _(lang, FIRST)
    else:
        suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
        place = _(lang, PLACES[suffix]).format(n=n)
    return _(lang, TIED).format(place=place) if shared else place


# Messages with plural forms: the parameter whose count picks the form (see `t`).
PLURALS = {
    "players_count": "count",
    "players_count_mode": "count",
    "team_size": "count",
    "team_count": "count",
    "team_count_exact": "count",
    "too_many_rounds": "count",
    "team_too_small": "count",
    "bid_above_cards": "cards",
    "tricks_above_cards": "cards",
    "tricks_played_count": "cards",
    "d.malus_numeric": "count",
    "d.malus_special": "count",
    "d.bid_exact": "tricks",
    "d.bid_missed": "tricks",
    "d.zero_exact": "dealt",
    "d.zero_missed": "tricks",
    "d.adversaire": "placed",
    "d.adversaire_eliminated": "placed",
}


def t(code, lang=DEFAULT, **params):
    """Render message ``code`` in ``lang`` with ``params`` (French when lang has no catalogue).

    A message with plural forms is said in the form that the parameter named for it in
    PLURALS asks for.
    """
    text = MESSAGES.get(code)
    if text is None:
        return code
    if isinstance(text, tuple):
        template = n_(lang, *text, params.get(PLURALS.get(code, "count")))
    else:
        template = _(lang, text)
    try:
        return template.format(**params)
    except (KeyError, IndexError, ValueError):
        # A missing parameter must never turn a user error into a crash.
        return template


class Phrase:
    """A text of the engines with its values, said later in the reader's language: ``Phrase(N_("{run} …"), run=3)``."""

    __slots__ = ("params", "text")

    def __init__(self, text, **params):
        self.text = text
        self.params = params

    def render(self, lang=DEFAULT):
        """Return the text in ``lang`` with its values."""
        return _(lang, self.text).format(**self.params)
