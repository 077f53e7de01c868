"""Request and response shapes for the OpenAPI schema.

The game engine validates every field itself (with paths and plain-language
messages); these serializers document the shapes.
"""

from rest_framework import serializers

from scoring.games import GAMES
from scoring.games.cards import ALL_KINDS
from scoring.games.numking_referee import ACTION_NAMES, KINDS, NUMX_VALUES, VALUES

NAMES_RULE = (
    "Each name is 1 to 40 characters as sent and still 1 to 40 once cleaned (Unicode NFC, every run of spaces "
    "made one space, ends trimmed). A name may not hold a control, format or surrogate character (NUL, C1 "
    "controls, zero-width spaces, bidi overrides…), except the zero-width joiner inside an emoji. Two names "
    "equal once cleaned, ignoring case and compatibility forms, are the same player: refused. "
    "A sheet keeps the cleaned names; the scoring endpoint answers with the names as sent."
)


class CardSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=ALL_KINDS)
    value = serializers.IntegerField(min_value=0, max_value=16, required=False)
    name = serializers.CharField(required=False, help_text="Action name (kind=action).")
    visible = serializers.BooleanField(required=False, help_text="Num-X score cards only; never changes points.")


class EntrySerializer(serializers.Serializer):
    cards = CardSerializer(many=True, required=False, help_text="Games entered by cards (catalogue `entry`: cards).")
    points = serializers.IntegerField(required=False, help_text="Points typed by hand instead of cards.")
    numeric = serializers.IntegerField(
        required=False,
        min_value=0,
        max_value=102,
        help_text="numx-malus, classic scoring only: numeric cards left, counted (with `specials`, instead of cards).",
    )
    specials = serializers.IntegerField(
        required=False,
        min_value=0,
        max_value=17,
        help_text="numx-malus, classic scoring only: special and action cards left, counted.",
    )
    bid = serializers.IntegerField(required=False, min_value=0, help_text="Bid-and-tricks games (`entry`: bid_tricks).")
    tricks = serializers.IntegerField(required=False, min_value=0, help_text="Bid-and-tricks games.")
    placed = serializers.IntegerField(required=False, min_value=0, help_text="A player's own result: cards placed.")
    eliminated = serializers.BooleanField(required=False, help_text="A player's own result: eliminated.")


class RoundSerializer(serializers.Serializer):
    number = serializers.IntegerField(
        required=False, min_value=1, help_text="Adding: the round you mean to add (409 if another client added it)."
    )
    entries = serializers.DictField(child=EntrySerializer(), required=False, help_text="Player name → entry.")
    declarer = serializers.CharField(
        required=False, allow_null=True, help_text="Games with a declarer: who declared the round's end."
    )
    cards = serializers.IntegerField(required=False, help_text="Bid-and-tricks games: cards dealt (a check).")
    placed = serializers.IntegerField(required=False, help_text="The table's one result: cards it placed.")


class ScoreRequestSerializer(serializers.Serializer):
    players = serializers.ListField(child=serializers.CharField(max_length=40), help_text=NAMES_RULE)
    options = serializers.DictField(required=False, allow_null=True, help_text="null counts as no option.")
    rounds = RoundSerializer(many=True, required=False, allow_null=True, help_text="Absent or null: no round yet.")


class DetailSerializer(serializers.Serializer):
    rule = serializers.CharField()
    cards = CardSerializer(many=True)
    points = serializers.IntegerField()
    text = serializers.CharField(help_text="How the number was reached, in the request's language.")


class ResultRoundSerializer(serializers.Serializer):
    number = serializers.IntegerField(required=False)
    points = serializers.DictField(child=serializers.IntegerField())
    details = serializers.DictField(child=DetailSerializer(many=True))


class TeamSerializer(serializers.Serializer):
    members = serializers.ListField(child=serializers.CharField())
    total = serializers.IntegerField()


class ResultSerializer(serializers.Serializer):
    rounds = ResultRoundSerializer(many=True)
    bonuses = serializers.DictField(child=serializers.IntegerField())
    totals = serializers.DictField(child=serializers.IntegerField())
    teams = serializers.DictField(child=TeamSerializer(), allow_null=True)
    winners = serializers.ListField(child=serializers.CharField())
    finished = serializers.BooleanField()
    options = serializers.DictField()
    next_round = serializers.DictField(allow_null=True)
    summary = serializers.DictField(required=False)


class ErrorItemSerializer(serializers.Serializer):
    path = serializers.CharField(help_text='Where the problem is, e.g. "rounds[0].entries.Elya.cards[2]".')
    code = serializers.CharField()
    message = serializers.CharField(help_text="What is wrong, in the request's language.")


class ErrorSerializer(serializers.Serializer):
    detail = serializers.CharField()
    errors = ErrorItemSerializer(many=True)


class GameSerializer(serializers.Serializer):
    slug = serializers.CharField()
    name = serializers.DictField(child=serializers.CharField())
    players = serializers.DictField(child=serializers.IntegerField())
    wins = serializers.ChoiceField(choices=())

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["wins"].choices = list(dict.fromkeys(game.wins for game in GAMES.values()))

    modes = serializers.ListField(child=serializers.DictField())
    options = serializers.DictField()
    cards = serializers.DictField()
    entry = serializers.CharField()
    summary = serializers.CharField()


class TrickCardSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=KINDS, help_text="`family`: the extra colour family (`extra_family`).")
    value = serializers.IntegerField(
        min_value=VALUES[0], max_value=VALUES[1], required=False, help_text="rainbow, shadow, family: the value."
    )
    name = serializers.ChoiceField(choices=ACTION_NAMES, required=False, help_text="kind=action: the action.")

    def get_fields(self):
        fields = super().get_fields()
        # "as" is a Python keyword: the field cannot be declared as an attribute.
        fields["as"] = serializers.ChoiceField(
            choices=NUMX_VALUES, required=False, help_text="kind=numx (required): the value declared when it is played."
        )
        return fields


class TrickPlaySerializer(serializers.Serializer):
    player = serializers.CharField(help_text="One of `players`.")
    card = TrickCardSerializer()


class TrickRequestSerializer(serializers.Serializer):
    players = serializers.ListField(
        child=serializers.CharField(max_length=40),
        help_text="The game's players: their number decides Quantique's parity. " + NAMES_RULE,
    )
    options = serializers.DictField(
        required=False,
        allow_null=True,
        help_text="The game's options, checked as for scoring: `extra_family` (7 players or more) allows `family` cards.",
    )
    plays = TrickPlaySerializer(many=True, help_text="One card per player, each player once, in the order played.")
    played = TrickCardSerializer(
        many=True,
        required=False,
        allow_null=True,
        help_text="The cards of the round's earlier tricks: a card played again is refused. Absent or null: none.",
    )


class TrickSerializer(serializers.Serializer):
    winner = serializers.CharField(allow_null=True, help_text="Who takes the trick; null: nobody.")
    leads_next = serializers.CharField(help_text="Who leads the next trick.")
    active = serializers.ChoiceField(
        choices=[*ACTION_NAMES, "numx"], allow_null=True, help_text="The action in force: the last action card played."
    )
    cancelled = serializers.ListField(
        child=serializers.CharField(), help_text="The players whose cards were cancelled, in the order played."
    )
    valid = serializers.ListField(
        child=serializers.CharField(), help_text="The players whose cards stayed valid, in the order played."
    )
    details = serializers.ListField(
        child=serializers.CharField(), help_text="Each step of the resolution, in the request's language."
    )


class SheetCreateSerializer(serializers.Serializer):
    game = serializers.ChoiceField(choices=(), help_text="A game's slug (the catalogue's).")
    players = serializers.ListField(child=serializers.CharField(max_length=40), help_text=NAMES_RULE)
    options = serializers.DictField(required=False, allow_null=True, help_text="null counts as no option.")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["game"].choices = list(GAMES)  # the registry as it is, games added after import too


class DraftSerializer(serializers.Serializer):
    number = serializers.IntegerField(help_text="The round being entered (the next one).")
    entries = serializers.DictField(
        child=serializers.DictField(), help_text="Player name → entry, each possibly partial."
    )
    fields = serializers.DictField(
        help_text=(
            "Round-level fields: `cards` dealt, `declarer`, the table's `placed`; Num King's `tricks_played`, "
            'the hand\'s tricks so far: [{"leader", "plays": [{"player", "card"}]}] in the order played '
            "(the round in progress only: a saved round does not keep them)."
        )
    )
    entered = serializers.ListField(child=serializers.CharField(), help_text="The players whose entry is complete.")
    version = serializers.IntegerField(help_text="The sheet's version (its ETag).")


class DraftWriteSerializer(serializers.Serializer):
    entries = serializers.DictField(child=EntrySerializer(), required=False, help_text="Player name → entry.")
    fields = serializers.DictField(
        required=False, help_text="Round-level fields (Num King: `cards`, `tricks_played`); see the read shape."
    )
    number = serializers.IntegerField(min_value=1, required=False, help_text="The round this is meant for.")


class DraftEntrySerializer(EntrySerializer):
    number = serializers.IntegerField(min_value=1, required=False, help_text="The round this entry is meant for.")


class SheetSerializer(ResultSerializer):
    id = serializers.CharField()
    game = serializers.CharField()
    players = serializers.ListField(child=serializers.CharField())
    version = serializers.IntegerField()
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()
    expires_at = serializers.DateTimeField(allow_null=True)
    can_edit = serializers.BooleanField()
    url = serializers.CharField()
    share_url = serializers.CharField(required=False)
    draft = DraftSerializer(help_text="The round in progress.")
    seat_urls = serializers.DictField(
        child=serializers.CharField(), required=False, help_text="Editor only: each player's own entry link."
    )
    edit_token = serializers.CharField(required=False, help_text="Returned once, by the create call.")
    edit_url = serializers.CharField(
        required=False, help_text="Returned once: the page that lets a browser edit the sheet."
    )


class SheetSummarySerializer(serializers.Serializer):
    id = serializers.CharField()
    game = serializers.CharField()
    players = serializers.ListField(child=serializers.CharField())
    totals = serializers.DictField(child=serializers.IntegerField())
    finished = serializers.BooleanField()
    rounds = serializers.IntegerField()
    updated_at = serializers.DateTimeField()
    expires_at = serializers.DateTimeField(allow_null=True)
    url = serializers.CharField()
