"""The request bodies' envelopes: small DRF serializers that validate what the engine does not.

Each checks that a body is a JSON object, that it has no key besides the documented
ones, and that `number` (the round a write is meant for) is a whole number from 1.
The values themselves (players, options, rounds, entries) pass through as sent: the
game engine validates them, with paths and messages a player understands. Refusals
reach the API's exception handler as DRF's ValidationError (scoring/api/errors.py).
"""

from collections.abc import Mapping

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from rest_framework import serializers
from rest_framework.exceptions import ErrorDetail, ValidationError
from rest_framework.settings import api_settings


class Value(serializers.JSONField):
    """Any JSON value, null included: the engine says what is wrong with it."""

    def __init__(self, **kwargs):
        super().__init__(required=False, allow_null=True, **kwargs)


class RoundNumber(serializers.Field):
    """The round a write is meant for: an integer from 1 (not a string, a float or a boolean)."""

    default_error_messages = {"invalid": gettext_lazy("number: the round number must be a whole number from 1.")}

    def __init__(self, **kwargs):
        super().__init__(required=False, **kwargs)

    def validate_empty_values(self, data):
        if data is None:
            self.fail("invalid")
        return super().validate_empty_values(data)

    def to_internal_value(self, data):
        if not isinstance(data, int) or isinstance(data, bool) or data < 1:
            self.fail("invalid")
        return data

    def to_representation(self, value):
        return value


class Envelope(serializers.Serializer):
    """A JSON object with only the declared keys (`open`: other keys are the engine's, kept in `rest`)."""

    default_error_messages = {"invalid": gettext_lazy("The request body must be a JSON object.")}
    open = False

    def validate_empty_values(self, data):
        if data is None:  # a JSON null is no more an object than a list is
            self._refuse()
        return super().validate_empty_values(data)

    def _refuse(self):
        detail = ErrorDetail(str(self.error_messages["invalid"]), code="invalid")
        raise ValidationError({api_settings.NON_FIELD_ERRORS_KEY: [detail]})

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


class ScoreBody(Envelope):
    players = Value()
    options = Value()
    rounds = Value()


class TrickBody(Envelope):
    players = Value()
    options = Value()
    plays = Value()
    played = Value()


class SheetBody(Envelope):
    game = Value()
    players = Value()
    options = Value()


class RoundAddBody(Envelope):
    """A round to add (its fields are the engine's), `number` and `from_draft` beside it."""

    open = True
    number = RoundNumber()
    from_draft = Value()

    def validate(self, attrs):
        if "from_draft" in attrs and (attrs["from_draft"] is not True or attrs["rest"]):
            message = _('from_draft: send {"from_draft": true} alone to save the round in progress.')
            raise ValidationError({"from_draft": [ErrorDetail(message, code="invalid")]})
        return attrs


class DraftBody(Envelope):
    entries = Value()
    fields = Value()
    number = RoundNumber()


class DraftTrickBody(Envelope):
    """One trick of the hand (`leader`, `plays`: the referee checks them) and `number` beside it."""

    leader = Value()
    plays = Value()
    number = RoundNumber()


class DraftEntryBody(Envelope):
    """One player's entry (its keys are the engine's) and `number` beside it."""

    open = True
    number = RoundNumber()


def parsed(body_class: type[Envelope], data) -> dict:
    """Return the body's envelope values, or raise ValidationError naming what is wrong."""
    body = body_class(data=data)
    body.is_valid(raise_exception=True)
    return body.validated_data
