"""One error shape for the whole API: {"detail": ..., "errors": [{"path", "code", "message"}]}."""

from django.core.exceptions import RequestDataTooBig
from django.http import Http404
from django.utils.translation import gettext as _
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.settings import api_settings

from scoring.api.parsers import BodyRefused
from scoring.exceptions import ServiceError
from web.errors import error_body


def error_response(errors: list[dict], http_status: int = status.HTTP_400_BAD_REQUEST, detail: str = "") -> Response:
    """Return the API's error response."""
    return Response(error_body(errors, detail), status=http_status)


def refused_error(refused) -> dict:
    """Return the error item for a JSON body the parser refused (too deep, or a character never allowed)."""
    if refused.code == "too_deep":
        message = _("The request body nests arrays and objects more than %(max)d levels deep.") % refused.params
        return {"path": "", "code": "too_deep", "message": message}
    message = _("%(path)s: the text holds a character that is never allowed (%(char)s, a NUL or a lone surrogate).") % {
        "path": refused.path or _("the body"),
        "char": refused.params["char"],
    }
    return {"path": refused.path, "code": "invalid_character", "message": message}


def validation_errors(detail, path: str = "") -> list[dict]:
    """Return the error items of a DRF ValidationError's detail (an input envelope's refusal)."""
    if isinstance(detail, dict):
        items = []
        for key, value in detail.items():
            inner = "" if key == api_settings.NON_FIELD_ERRORS_KEY else str(key)
            items += validation_errors(value, f"{path}.{inner}" if path and inner else path or inner)
        return items
    if isinstance(detail, list):
        return [item for value in detail for item in validation_errors(value, path)]
    return [{"path": path, "code": getattr(detail, "code", "invalid"), "message": str(detail)}]


def exception_handler(exc, context):
    """Turn the services' refusals, DRF's and Django's exceptions into the API's error shape, in the user's language.

    The one place where a refusal becomes a status and an error body: views raise, never translate.
    """
    if isinstance(exc, ServiceError):
        response = error_response(exc.errors, exc.status)
        for name, value in exc.headers().items():
            response[name] = value
        return response
    if isinstance(exc, exceptions.ValidationError):
        return error_response(validation_errors(exc.detail))
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    if isinstance(exc, RequestDataTooBig):
        message = _("The request body is too large.")
        return error_response([{"path": "", "code": "too_large", "message": message}], 413, message)
    if isinstance(exc, exceptions.NotFound):
        message = _("Not found.")
        code = "not_found"
    elif isinstance(exc, BodyRefused) and exc.refused.code != "invalid":
        return error_response([refused_error(exc.refused)])
    elif isinstance(exc, exceptions.ParseError):
        message = _("The request body is not valid JSON.")
        code = "parse_error"
    elif isinstance(exc, exceptions.UnsupportedMediaType):
        message = _("Send the request body as JSON (Content-Type: application/json).")
        code = "unsupported_media_type"
    elif isinstance(exc, exceptions.Throttled):
        wait = exc.wait or 1
        message = _("Too many requests: try again in %(s)d seconds.") % {"s": max(1, round(wait))}
        code = "throttled"
    elif isinstance(exc, exceptions.MethodNotAllowed):
        message = _("Method %(m)s is not allowed here.") % {"m": context["request"].method}
        code = "method_not_allowed"
    elif isinstance(exc, (exceptions.PermissionDenied, exceptions.NotAuthenticated)):
        message = str(exc.detail)
        code = "forbidden"
    elif isinstance(exc, exceptions.APIException):
        message = str(exc.detail) if isinstance(exc.detail, str) else _("Invalid request.")
        code = exc.default_code
    else:
        return None
    response = error_response([{"path": "", "code": code, "message": message}], exc.status_code, message)
    if isinstance(exc, exceptions.Throttled) and exc.wait:
        response["Retry-After"] = str(max(1, round(exc.wait)))
    return response
