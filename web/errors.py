"""The API's one error shape, {"detail": ..., "errors": [{"path", "code", "message"}]}: its body,
for the API's exception handler (scoring/api/errors.py) and the project's own 403/404/500/503
answers under /api/ (web/views.py)."""

from django.http import JsonResponse
from django.utils.translation import gettext as _


def error_body(errors: list[dict], detail: str = "") -> dict:
    """Return the error shape's body: `detail` says it in one sentence (the one error's message by default)."""
    if not detail:
        detail = errors[0]["message"] if len(errors) == 1 else _("%(n)d problems in the request.") % {"n": len(errors)}
    return {"detail": detail, "errors": errors}


def error_json(status: int, code: str, message: str) -> JsonResponse:
    """Return one error, in the error shape, as a JSON response of `status` (outside DRF's views)."""
    body = error_body([{"path": "", "code": code, "message": message}], message)
    return JsonResponse(body, status=status, json_dumps_params={"ensure_ascii": False, "separators": (",", ":")})
