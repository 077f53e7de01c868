"""Response shapes for the OpenAPI schema (the request bodies' are scoring/api/shapes.py).

The payloads are built in scoring/api/payloads.py; these serializers document them.
"""

from rest_framework import serializers

from scoring.games import GAMES
from scoring.games.cards import ALL_KINDS
from scoring.games.numking_referee import ACTION_NAMES


class CardSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=ALL_KINDS)
    value = serializers.IntegerField(min_value=0, max_value=16, required=False)
    name = serializers.CharField(required=False, help_text="Action name (kind=action).")
    visible = serializers.BooleanField(required=False, help_text="Num-X score cards only; never changes points.")


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


class PlaceSerializer(serializers.Serializer):
    place = serializers.IntegerField(help_text="1 first; sides with equal totals share a place.")
    place_text = serializers.CharField(help_text='The place in words: "1er", "2e ex æquo"; "1st", "2nd, tied".')
    side = serializers.CharField(help_text="A player, or a team when teams are played.")
    members = serializers.ListField(child=serializers.CharField())
    total = serializers.IntegerField()
    gap = serializers.IntegerField(help_text="Points behind the winner (0 for the winners).")
    gap_text = serializers.CharField(help_text='"5 points d\'écart" / "5 points behind", empty for the winners.')


class RankingSerializer(serializers.Serializer):
    places = PlaceSerializer(many=True)
    decided = serializers.ListField(
        child=serializers.CharField(),
        help_text="How the winner was decided (the rule and the margin, a tie-break, a shared win) and the "
        "bonuses that counted, in the request's language.",
    )


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
    ranking = RankingSerializer(
        allow_null=True,
        help_text="How a finished game ended (null until then, and for a session): its places and how the winner "
        "was decided.",
    )


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
    round_noun = serializers.DictField(
        child=serializers.CharField(),
        help_text='What one row of a sheet is called, singular and plural: {"one": "manche", "other": "manches"} '
        '(a session of the cooperative game counts "parties").',
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
