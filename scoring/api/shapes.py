"""The JSON Schema of what the request bodies carry, read from the engines: what each game accepts, said once.

The engines validate every request (scoring/games/); this module describes the same
rules for the OpenAPI schema from the engines' own data (player counts, options,
decks, entry and round fields), so that a game or an option added to an engine is
documented without another copy. The bodies themselves (their keys, which ones are
needed, `number`) are scoring/api/inputs.py's, whose fields take these schemas. Every
object is closed (`additionalProperties: false`): the engines refuse unknown fields.

What JSON Schema cannot say stays the engines' and is listed in `GAME_RULES`: how
one field depends on another (each player has an entry, a card held once, a bid
within the cards dealt, an option's range that depends on the players or the mode),
and the names rule (Unicode categories, NFC, equal names ignoring case).
"""

from scoring.games.base import MAX_ROUNDS_PER_REQUEST, TYPED_MAX, TYPED_MIN
from scoring.games.cards import ALL_KINDS, NUMERIC
from scoring.games.names import MAX_NAME
from scoring.games.numking_referee import CARD_SCHEMA, PLAY_SCHEMA

# The refusal codes of a well-formed request that breaks a rule of the game (docs/api.md,
# "What the schema cannot say"): a request the schema accepts may still get 400 with these.
GAME_RULES = {
    # the names rule and how names relate to each other
    "player_name_invalid": "a name that is only spaces",
    "player_name_long": "a name longer than 40 characters once in Unicode NFC",
    "player_name_control": "a control, format or blank character (Unicode categories) in a name",
    "player_duplicate": "two players whose names are equal ignoring case and compatibility forms",
    "team_name_invalid": "a team name that is only spaces",
    "team_name_control": "a control or format character in a team name",
    "team_duplicate": "two teams named alike",
    "unknown_player": "an entry, a declarer, a team member or a play naming someone not among the players",
    "players_count_mode": "a player count the chosen mode does not allow",
    # options that depend on the players or on each other
    "team_too_small": "a team too small",
    "team_size": "teams of the wrong size for the game",
    "team_count": "too few or too many teams",
    "team_count_exact": "not the number of teams the mode needs",
    "player_in_two_teams": "a player in two teams",
    "player_without_team": "a player in no team",
    "teams_not_allowed": "teams in a mode without teams",
    "teams_required": "no teams in a mode played in teams",
    "extra_family_players": "the extra family with fewer than 7 players",
    "binomes_deck": "pairs with a player count the deck does not allow",
    "end_speedgame": "an end rule Speed-Game does not take",
    "decouverte_adversaire": "Découverte in Versus",
    # what a round holds, given the players, the options and the rounds before it
    "entry_missing": "a player without an entry",
    "entry_cards_or_points": "an entry with both cards and points, or neither",
    "field_required": "a field the game or mode needs (Num King's bid and tricks, the cooperative game's placed)",
    "entries_not_allowed": "entries in the cooperative mode (one result for the table)",
    "entries_type": "no entries in Versus (the cooperative game's rounds have none)",
    "invalid_character": (
        "a NUL in a player's or a team's name used as a key (entries, teams): a name, as in `players`; "
        "or in a form's field name"
    ),
    "field_unknown": "a field of another game or mode (the sheet's game decides; a card's field for its kind)",
    "counts_mixed": "counted cards mixed with cards or points",
    "counts_competition": "counted cards under competition scoring",
    "count_missing": "one of the two counts without the other",
    "count_round_total": "more counted cards than the deck holds, every player together",
    "count_above_deck": "more counted cards than the deck holds",
    "too_many_rounds": "a round after the game ended",
    "not_in_tiebreak": "an entry of a player not in the tie-break",
    "card_not_in_game": "a card the mode's deck does not hold (Num-X Family has no action)",
    "duplicate_card": "the same card twice in a hand",
    "duplicate_card_other": "the same card in two hands",
    "too_many_copies": "more copies of a card than the deck holds",
    "out_of_range": "a number beyond what the options allow (cards dealt, placed cards, the dealer's seat)",
    "bid_above_cards": "a bid above the cards dealt",
    "tricks_above_cards": "tricks above the cards dealt",
    "tricks_sum": "more tricks than cards dealt, every player together",
    "cards_schedule": "cards dealt other than the schedule's",
    "bid_locked": "a bid changed after its tricks are in",
    "adversaire_two_complete": "two players who placed every card",
    # a round given as its entry form's fields (`{"form": …}`): what the text of a field says
    "form_not_a_number": "a form's number field whose text is not a whole number",
    "form_too_large": "a form's number field with more than 9 digits",
    "form_bid_missing": "a bid left empty in a form",
    "form_tricks_missing": "the tricks left empty in a form",
    "form_cards_unreadable": "a form's cards field that is not JSON",
    "form_cards_and_points": "a form with both cards picked and points typed for one player",
    "form_counts_and_points": "a form with both cards counted and points typed for one player",
    "empty_round": "a form with nothing entered, without `confirm_empty` (the question the pages ask)",
    "tiebreak_won": "a tie-break round after the tie was broken",
    "tiebreak_tied": "a tie-break still tied",
    # the Num King referee
    "trick_player_twice": "a player who plays twice in a trick",
    "trick_player_missing": "a player who does not play in a trick",
    "trick_card_twice": "the same card twice in a trick",
    "card_already_played": "a card played in an earlier trick",
    "extra_family_off": "a family card without the extra family",
    "numx_as_missing": "a Num-X played without the value it stands for",
    "tricks_played_count": "more tricks than cards dealt",
    "trick_leader": "a trick whose leader's card is not first",
    "trick_number": "a trick stored after a gap in the hand (the next one, or one stored already)",
    "hand_size": "a hand larger than the round's cards and the discard errors the options allow",
    # the body as a whole
    "too_large": "a body over 64 KiB (413)",
    # the sheet's state
    "round_saved": "an entry for a round saved meanwhile",
    "stale": "an If-Match naming another version",
    "idempotency_mismatch": "an Idempotency-Key reused with another body",
}

NAMES_RULE = (
    "Each name is 1 to 40 characters as sent and still 1 to 40 once cleaned (Unicode NFC, every run of spaces "
    "made one space, ends trimmed). A name may not hold a control, format or surrogate character (NUL, C1 "
    "controls, zero-width spaces, bidi overrides…), except the zero-width joiner inside an emoji. Two names "
    "equal once cleaned, ignoring case and compatibility forms, are the same player: refused. "
    "A sheet keeps the cleaned names; the scoring endpoint answers with the names as sent."
)
# A name: 1 to 40 characters, no control character but the typed spaces (tab, line breaks: made
# spaces), something besides spaces (scoring/games/names.py). The format characters and blank letters
# it may not hold, and the names equal once cleaned, are for the engine to refuse (GAME_RULES).
_CHAR = "[^\\x00-\\x08\\x0e-\\x1f\\x7f-\\x9f]"
_SEEN = "[^\\s\\x00-\\x08\\x0e-\\x1f\\x7f-\\x9f]"
NAME = {"type": "string", "minLength": 1, "maxLength": MAX_NAME, "pattern": f"^{_CHAR}*{_SEEN}{_CHAR}*$"}
ROUND_NUMBER = {
    "type": "integer",
    "minimum": 1,
    "description": "The round this write is meant for (409 if saved meanwhile).",
}


def closed(properties: dict, required=(), **extra) -> dict:
    """Return an object schema with only these properties."""
    schema = {"type": "object", "properties": properties, "additionalProperties": False, **extra}
    if required:
        schema["required"] = list(required)
    return schema


def nullable(schema: dict) -> dict:
    return {**schema, "nullable": True}


def option_schema(option) -> dict:
    """Return one engine option's schema (null: the default)."""
    if option.kind == "choice":
        return {"type": "string", "enum": [*option.choices, None], "nullable": True}
    if option.kind == "bool":
        return {"type": "boolean", "nullable": True}
    if option.kind in ("int", "seat"):
        return {"type": "integer", "minimum": option.lo, "maximum": option.hi, "nullable": True}
    # teams: team name → its players
    return nullable({"type": "object", "additionalProperties": {"type": "array", "items": NAME}, "minProperties": 1})


def options_schema(game) -> dict:
    described = game.describe("en")["options"]
    properties = {o.name: {**option_schema(o), "description": described[o.name]["label"]} for o in game.options_spec}
    return nullable(closed(properties, description="The game's options; null or absent: the defaults."))


def players_schema(game) -> dict:
    return {
        "type": "array",
        "items": NAME,
        "minItems": game.min_players,
        "maxItems": game.max_players,
        "description": "The players, in seat order. " + NAMES_RULE,
    }


def card_schema(decks) -> dict:
    """Return a card of these decks: a numeric card with its value, a special, an action with its name."""
    numeric = [k for k in NUMERIC if any(k in d.numeric for d in decks)]
    specials = [k for k in ALL_KINDS if any(k in d.specials for d in decks)]
    actions = list(dict.fromkeys(a for d in decks for a in d.action_names))
    lo = min(d.values[k][0] for d in decks for k in d.numeric)
    hi = max(d.values[k][1] for d in decks for k in d.numeric)
    visible = {"visible": {"type": "boolean"}} if any(d.visible for d in decks) else {}
    shapes = [
        closed(
            {"kind": {"enum": numeric}, "value": {"type": "integer", "minimum": lo, "maximum": hi}, **visible},
            ("kind", "value"),
        )
    ]
    if specials:
        shapes.append(closed({"kind": {"enum": specials}, **visible}, ("kind",)))
    if actions:
        shapes.append(closed({"kind": {"enum": ["action"]}, "name": {"enum": actions}, **visible}, ("kind", "name")))
    return {"oneOf": shapes}


def entry_schema(game) -> dict:
    """Return one player's entry in a round of this game (the fields the engine takes)."""
    fields = {}
    if game.decks:
        max_cards = max(d.max_cards for d in game.decks)
        fields["cards"] = {"type": "array", "items": card_schema(game.decks), "maxItems": max_cards}
        fields["points"] = {
            "type": "integer",
            "minimum": TYPED_MIN,
            "maximum": TYPED_MAX,
            "description": "Typed by hand.",
        }
    fields.update(game.entry_field_schemas)
    return closed(fields)


def round_schema(game) -> dict:
    """Return a round of this game: the entries (player name → entry) and the round's own fields."""
    kept = [f for f in game.draft_fields if f not in game.draft_only_fields]
    entries = {"type": "object", "additionalProperties": entry_schema(game)}
    properties = {"entries": nullable(entries) if game.entries_optional else entries}
    properties.update({f: game.round_field_schemas[f] for f in kept})
    return closed(properties, () if game.entries_optional else ("entries",))


def game_slug(game) -> dict:
    return {"type": "string", "enum": [game.slug]}


# A round given as its entry form's fields, as the pages post them (scoring/games/form.py reads them).
FORM_SCHEMA = {
    "type": "object",
    # Text without NUL, as every string of a body (a field's name: the engine's to refuse, GAME_RULES).
    "additionalProperties": {"type": "string", "pattern": "^[^\\x00]*$"},
    "description": (
        "The entry form's fields as the page posts them: text by field name (`points-0`, `cards-1` as JSON, "
        "`bid-2`, `numeric-0`, `declarer`, `confirm_empty`…; fields are named by seat). The engine reads "
        "them as a round of this game, exactly as the pages' own post."
    ),
}
FORM_ROUND = closed({"form": FORM_SCHEMA}, ("form",))


def rounds_schema(game) -> dict:
    items = {"anyOf": [round_schema(game), FORM_ROUND]}
    return nullable({"type": "array", "items": items, "maxItems": MAX_ROUNDS_PER_REQUEST})


def plays_schema(game) -> dict:
    return {"type": "array", "items": PLAY_SCHEMA, "minItems": 1, "maxItems": game.max_players}


def played_schema(game) -> dict:
    return nullable({"type": "array", "items": CARD_SCHEMA})


def draft_entries_schema(game) -> dict:
    """Return the entries of the round in progress: any of an entry's fields, each checked as far as it goes."""
    return {"type": "object", "additionalProperties": entry_schema(game)}


def draft_fields_schema(game) -> dict:
    """Return the round-level fields of the round in progress (Num King's hand of tricks too)."""
    return closed({f: game.round_field_schemas[f] for f in game.draft_fields})
