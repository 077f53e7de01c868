"""The API's answers, each described once: the serializer that renders it is the one the schema documents.

A sheet, the list of one's sheets and the round in progress are rendered by their
serializer from the model (`SheetSerializer(sheet, context=…).data`): a field leaves only if
it is declared here. What the engine computes (a game's result, a trick, the catalogue)
is the engine's own answer, given as it is and documented by the serializers below
(`ResultSerializer`…); a game may add fields of its own to its result (docs/api.md).
The request bodies are scoring/api/inputs.py's.
"""

from rest_framework import serializers

from scoring import services
from scoring.access import EDITOR
from scoring.games import GAMES
from scoring.games.cards import ALL_KINDS
from scoring.games.numking_referee import ACTION_NAMES
from web.fields import Link, Moment


class CanEdit(serializers.BooleanField):
    """Whether the request may write the sheet (its role, in the context)."""

    def __init__(self, **kwargs):
        super().__init__(source="*", **kwargs)

    def to_representation(self, sheet):
        return self.context["role"] == EDITOR


class EditToken(serializers.CharField):
    """The sheet's edit token, in the context of the call that made it (the only time it is said)."""

    def __init__(self, **kwargs):
        super().__init__(source="*", **kwargs)

    def to_representation(self, sheet):
        return self.context["edit_token"]


class EditLink(EditToken):
    def to_representation(self, sheet):
        return self.context["request"].build_absolute_uri(sheet.edit_path(self.context["edit_token"]))


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


# The refusals of a request with a body: invalid (400), not found (404), too large (413).
BODY_REFUSED = {400: ErrorSerializer, 404: ErrorSerializer, 413: ErrorSerializer}


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


# The round in progress of a sheet (the instance), as every phone reads and writes it. (Comments, not
# docstrings, on the rendering serializers: a docstring would be the schema's description.)
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

    def to_representation(self, sheet):
        return super().to_representation({**sheet.draft_state(), "version": sheet.version})


# A sheet (the instance) for a request (`context`: `request`, `role`, `lang`, `edit_token` once). Its own
# fields are rendered from the model; the result's are the engine's, as the scoring endpoint gives them
# (with each round's `number` and `entry`, the round as stored).
class SheetSerializer(ResultSerializer):
    id = serializers.CharField(source="pk")
    game = serializers.CharField()
    players = serializers.ListField(child=serializers.CharField())
    version = serializers.IntegerField()
    created_at = Moment()
    updated_at = Moment()
    expires_at = Moment(allow_null=True)
    can_edit = CanEdit()
    url = Link(source="page_path")
    draft = DraftSerializer(source="*", help_text="The round in progress.")
    share_url = Link(source="share_path", required=False)
    seat_urls = serializers.DictField(
        child=Link(),
        source="seat_paths",
        required=False,
        help_text="Editor only: each player's own entry link.",
    )
    edit_token = EditToken(required=False, help_text="Returned once, by the create call.")
    # Opening this link in a browser lets that browser edit (and save) the sheet.
    edit_url = EditLink(required=False, help_text="Returned once: the page that lets a browser edit the sheet.")

    # Only for the editor; only in the create call's answer (its edit token); the engine's.
    EDITOR_ONLY = ("share_url", "seat_urls")
    ONCE = ("edit_token", "edit_url")
    RESULT = tuple(ResultSerializer._declared_fields)

    def get_fields(self):
        fields = super().get_fields()
        if "role" not in self.context:  # the schema: every field
            return fields
        drop = [
            *self.RESULT,
            *(() if self.context.get("edit_token") else self.ONCE),
            *(() if self.context["role"] == EDITOR else self.EDITOR_ONLY),
        ]
        return {name: field for name, field in fields.items() if name not in drop}

    def to_representation(self, sheet):
        result, datas = services.sheet_state(sheet, self.context["lang"])  # may move `sheet` to a newer version
        for number, (out, stored) in enumerate(zip(result["rounds"], datas), start=1):
            out["number"] = number
            out["entry"] = stored
        own = list(super().to_representation(sheet).items())
        at = [name for name, _value in own].index("draft")
        # The sheet's own fields, its result, then the round in progress and the links.
        return {**dict(own[:at]), **result, **dict(own[at:])}


class SeatTotals(serializers.DictField):
    """Each player's total, from the sheet's seats (prefetched)."""

    def __init__(self, **kwargs):
        super().__init__(child=serializers.IntegerField(), source="*", **kwargs)

    def to_representation(self, sheet):
        return super().to_representation({seat.name: seat.total for seat in sheet.seats.all()})


# A sheet (the instance, its seats prefetched) as the list of one's sheets shows it.
class SheetSummarySerializer(serializers.Serializer):
    id = serializers.CharField(source="pk")
    game = serializers.CharField()
    players = serializers.ListField(child=serializers.CharField())
    totals = SeatTotals()
    finished = serializers.BooleanField()
    rounds = serializers.IntegerField(source="round_count")
    updated_at = Moment()
    expires_at = Moment(allow_null=True)
    url = Link("api-sheet", source="pk")
