"""The request bodies, each described once: small DRF serializers the views read a body with
and the OpenAPI schema documents (scoring/api/schema.py `BodySchema`).

Each body checks that it is a JSON object, that it has no key besides its fields, and that
`number` (the round a write is meant for) is a whole number from 1. The values themselves
(players, options, rounds, entries) pass through as sent: the game engine validates them,
with paths and messages a player understands. Refusals reach the API's exception handler as
DRF's ValidationError (scoring/api/errors.py).

Each field carries the JSON Schema of its value (`schema`: a schema, or a function of the
game giving one, from scoring/api/shapes.py), and `needed` when the engine refuses a body
without it; a body's schema is drawn from its fields (`Envelope.json_schema`), closed as the
body is. The bodies a sheet's write takes depend on the sheet's game: their schema is any of
the games' shapes.
"""

from collections.abc import Mapping

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from rest_framework import serializers
from rest_framework.exceptions import ErrorDetail, ValidationError
from rest_framework.settings import api_settings

from scoring.api import shapes
from scoring.games import GAMES
from scoring.games.numking_referee import TRICK_SCHEMA


class Documented:
    """A body field's documentation: the JSON Schema of its value, and whether the body needs it."""

    def __init__(self, schema, needed: bool = False, **kwargs):
        super().__init__(**kwargs)
        self.schema = schema
        self.needed = needed

    def value_schema(self, game) -> dict:
        return self.schema(game) if callable(self.schema) else self.schema


class Value(Documented, serializers.JSONField):
    """Any JSON value, null included: the engine says what is wrong with it."""

    def __init__(self, schema, needed: bool = False):
        super().__init__(schema, needed, required=False, allow_null=True)


class Checked(Documented, serializers.Field):
    """A field whose one message names it and says what it takes (missing, null or of the wrong kind):
    `accepts` tells a value it takes."""

    def __init__(self, schema, message, *, accepts, allow_null=False, needed=True):
        messages = {"required": message, "null": message, "invalid": message}
        super().__init__(schema, needed, required=needed, allow_null=allow_null, error_messages=messages)
        self.accepts = accepts

    def to_internal_value(self, data):
        if not self.accepts(data):
            self.fail("invalid")
        return data

    def to_representation(self, value):
        return value


def round_number(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 1


class RoundNumber(Checked):
    """The round a write is meant for: an integer from 1 (not a string, a float or a boolean); may be left out."""

    def __init__(self):
        message = gettext_lazy("number: the round number must be a whole number from 1.")
        super().__init__(shapes.ROUND_NUMBER, message, accepts=round_number, needed=False)

    def validate_empty_values(self, data):
        if data is None:  # refused as a value of the wrong kind (`invalid`), not as a null
            self.fail("invalid")
        return super().validate_empty_values(data)


class Envelope(serializers.Serializer):
    """A JSON object with only the declared keys (`open`: the other keys are the engine's, kept in `rest`,
    and `rest_schema`, a function of the game, documents them)."""

    default_error_messages = {"invalid": gettext_lazy("The request body must be a JSON object.")}
    # Where a body that is not an object is refused ("": the body itself).
    refused_path = api_settings.NON_FIELD_ERRORS_KEY
    open = False
    rest_schema = None
    # The body's keys and values depend on the sheet's game (documented as any of the games' shapes).
    per_game = True
    # The engine's part may come as the entry form posts it instead: {"form": {field: text}} (and `number`).
    takes_form = False

    def validate_empty_values(self, data):
        if data is None:  # a JSON null is no more an object than a list is
            self._refuse()
        return super().validate_empty_values(data)

    def _refuse(self):
        detail = ErrorDetail(str(self.error_messages["invalid"]), code="invalid")
        raise ValidationError({self.refused_path: [detail]})

    def to_internal_value(self, data):
        if not isinstance(data, Mapping):
            self._refuse()
        if not self.open:
            unknown = sorted(set(data) - set(self.fields))
            if unknown:
                raise ValidationError(
                    {k: [ErrorDetail(_("Unknown field: %(f)s.") % {"f": k}, code="unknown_field")] for k in unknown}
                )
        values = super().to_internal_value(data)
        if self.open:
            values["rest"] = {k: v for k, v in data.items() if k not in self.fields}
        return values

    @classmethod
    def shape(cls, game, names=None, **extra) -> dict:
        """Return this body's JSON Schema for one game (`names`: only these fields)."""
        properties, required = {}, []
        if cls.open:
            rest = cls.rest_schema(game)
            properties.update(rest["properties"])
            required += rest.get("required", [])
        for name, field in cls().fields.items():
            if names is None or name in names:
                properties[name] = field.value_schema(game)
                required += [name] if field.needed else []
        return shapes.closed(properties, required, **extra)

    @classmethod
    def json_schema(cls, game=None) -> dict:
        """Return the body's JSON Schema: for one game, or (no game, a sheet's write) any of the games'."""
        if not cls.per_game or (game is not None and not cls.takes_form):
            return cls.shape(game)
        games = [game] if game is not None else GAMES.values()
        return {"anyOf": [*(cls.shape(g) for g in games), *cls.form_shapes()]}

    @classmethod
    def form_shapes(cls) -> list:
        """Return the body given as the entry form (`{"form": …}`, with `number` where the body has one), if it may be."""
        if not cls.takes_form:
            return []
        fields = cls().fields
        number = {"number": fields["number"].value_schema(None)} if "number" in fields else {}
        return [shapes.closed({"form": shapes.FORM_SCHEMA, **number}, ["form"])]


class ScoreBody(Envelope):
    players = Value(shapes.players_schema, needed=True)
    options = Value(shapes.options_schema)
    rounds = Value(shapes.rounds_schema)


class TrickBody(Envelope):
    players = Value(shapes.players_schema, needed=True)
    options = Value(shapes.options_schema)
    plays = Value(shapes.plays_schema, needed=True)
    played = Value(shapes.played_schema)


class SheetBody(Envelope):
    """A sheet to create: one shape per game, told apart by `game`."""

    game = Value(shapes.game_slug, needed=True)
    players = Value(shapes.players_schema, needed=True)
    options = Value(shapes.options_schema)

    @classmethod
    def json_schema(cls, game=None) -> dict:
        return {"oneOf": [cls.shape(g, title=f"{slug} sheet") for slug, g in GAMES.items()]}


class RoundBody(Envelope):
    """A round that replaces a sheet's round: its game's round (its fields are the engine's), or `{"form": …}`,
    the entry form's fields that the engine reads as one."""

    default_error_messages = {"invalid": gettext_lazy("A round must be a JSON object.")}
    refused_path = "round"
    open = True
    rest_schema = staticmethod(shapes.round_schema)
    takes_form = True


class RoundAddBody(Envelope):
    """A round to add (its fields are the engine's) with `number`; or `{"from_draft": true}`, the round in
    progress as it stands, with `number`."""

    open = True
    rest_schema = staticmethod(shapes.round_schema)
    takes_form = True
    number = RoundNumber()
    from_draft = Value({"type": "boolean", "enum": [True]}, needed=True)

    def validate(self, attrs):
        if "from_draft" in attrs and (attrs["from_draft"] is not True or attrs["rest"]):
            message = _('from_draft: send {"from_draft": true} alone to save the round in progress.')
            raise ValidationError({"from_draft": [ErrorDetail(message, code="invalid")]})
        return attrs

    @classmethod
    def json_schema(cls, game=None) -> dict:
        fields = cls().fields
        games = [game] if game is not None else GAMES.values()
        rounds = [cls.shape(g, names={"number"}) for g in games]
        alone = {name: fields[name].value_schema(None) for name in ("from_draft", "number")}
        return {"anyOf": [*rounds, *cls.form_shapes(), shapes.closed(alone, ["from_draft"])]}


class DraftBody(Envelope):
    entries = Value(shapes.draft_entries_schema)
    fields = Value(shapes.draft_fields_schema)
    number = RoundNumber()


class DraftTrickBody(Envelope):
    """One trick of the hand (`leader`, `plays`: the referee checks them) and `number` beside it."""

    per_game = False
    leader = Value(TRICK_SCHEMA["properties"]["leader"], needed=True)
    plays = Value(TRICK_SCHEMA["properties"]["plays"], needed=True)
    number = RoundNumber()


class DraftEntryBody(Envelope):
    """One player's entry (its keys are the engine's), or `{"form": …}`, their own phone's form fields that the
    engine reads as their entry; and `number` beside it."""

    open = True
    rest_schema = staticmethod(shapes.entry_schema)
    takes_form = True
    number = RoundNumber()


def parsed(body_class: type[Envelope], data) -> dict:
    """Return the body's envelope values, or raise ValidationError naming what is wrong."""
    body = body_class(data=data)
    body.is_valid(raise_exception=True)
    return body.validated_data
