"""The API's output shapes, one function per resource (documented by scoring/api/serializers.py)."""

from django.urls import reverse

from scoring import services
from scoring.access import EDITOR
from scoring.models import Sheet


def sheet_payload(request, sheet: Sheet, role: str, *, lang: str, edit_token: str = "") -> dict:
    """Return a sheet with the same result fields as the scoring endpoint."""
    result, datas = services.sheet_state(sheet, lang)
    for number, (out, stored) in enumerate(zip(result["rounds"], datas), start=1):
        out["number"] = number
        out["entry"] = stored
    payload = {
        "id": sheet.pk,
        "game": sheet.game,
        "players": sheet.players,
        "version": sheet.version,
        "created_at": sheet.created_at,
        "updated_at": sheet.updated_at,
        "expires_at": sheet.expires_at,
        "can_edit": role == EDITOR,
        "url": request.build_absolute_uri(sheet.page_path()),
        **result,
    }
    payload["draft"] = services.draft_payload(sheet)
    if role == EDITOR:
        payload["share_url"] = request.build_absolute_uri(sheet.share_path())
        payload["seat_urls"] = {
            name: request.build_absolute_uri(sheet.seat_path(seat)) for seat, name in enumerate(sheet.players)
        }
    if edit_token:
        payload["edit_token"] = edit_token
        # Opening this link in a browser lets that browser edit (and save) the sheet.
        payload["edit_url"] = request.build_absolute_uri(sheet.edit_path(edit_token))
    return payload


def sheet_summary(request, sheet: Sheet) -> dict:
    """Return a sheet as the list of one's sheets shows it (its seats prefetched)."""
    return {
        "id": sheet.pk,
        "game": sheet.game,
        "players": sheet.players,
        "totals": {seat.name: seat.total for seat in sheet.seats.all()},
        "finished": sheet.finished,
        "rounds": sheet.round_count,
        "updated_at": sheet.updated_at,
        "expires_at": sheet.expires_at,
        "url": request.build_absolute_uri(reverse("api-sheet", args=[sheet.pk])),
    }
