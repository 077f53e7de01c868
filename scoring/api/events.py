"""`GET /api/v1/sheets/{id}/events/`: the sheet's changes, pushed as Server-Sent Events (docs/api.md).

An async view: an open stream costs a coroutine and a mailbox (scoring/live.py), not a
thread. Who may listen is who may read the sheet, checked again whenever the sheet changes
hands; an `EventSource` sends no headers, so share and seat tokens may come in the query
(`?share=`, `?seat=`; the access log never shows a query).
"""

import json

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import close_old_connections
from django.http import Http404, HttpResponse, StreamingHttpResponse
from django.utils.translation import gettext as _

from scoring import live
from scoring.access import EDITOR, PLAYER, role_for, seat_of
from scoring.models import Sheet
from web.parsing import parse_int


def _reader_message(request, sheet_id: str) -> tuple[dict, str, tuple] | None:
    """Return the sheet's message as this request may see it, its role and the public entry fields; None if it may not read."""
    # A stream's reads run on asyncio's threads, outside any request's cycle: the connection is
    # closed after the read as a request's would be (kept while CONN_MAX_AGE allows).
    close_old_connections()
    try:
        return _message_for(request, sheet_id)
    finally:
        close_old_connections()


def _message_for(request, sheet_id: str) -> tuple[dict, str, tuple] | None:
    sheet = Sheet.objects.read_alive(sheet_id)
    if sheet is None:
        return None
    role = role_for(request, sheet, share=request.GET.get("share", ""))
    if role is None and seat_of(request, sheet, token=request.GET.get("seat", "")) is not None:
        role = PLAYER
    if role is None:
        return None
    public = sheet.engine.public_entry_fields
    return live.for_reader(live.sheet_message(sheet), editor=role == EDITOR, public=public), role, public


async def sheet_events(request, sheet_id):
    if request.method != "GET":
        return HttpResponse(status=405, headers={"Allow": "GET"})
    if live.HUB.count >= settings.LIVE_MAX_STREAMS:
        # The page falls back to asking now and then (static/js/live.js).
        body = {"detail": _("Too many live connections on this server: the page will check for changes instead.")}
        return HttpResponse(
            json.dumps(body), status=503, content_type="application/json", headers={"Retry-After": "30"}
        )
    read = sync_to_async(_reader_message, thread_sensitive=False)
    found = await read(request, sheet_id)
    if found is None:
        raise Http404
    _message, role, public = found

    async def current():
        again = await read(request, sheet_id)
        # A reader whose right changed (an edit link retired when the sheet went into an account) stops here.
        return again[0] if again is not None and again[1] == role else None

    def view(announced):
        return live.for_reader(announced, editor=role == EDITOR, public=public)

    last = parse_int(request.headers.get("Last-Event-ID", "")) or parse_int(request.GET.get("since", ""))
    response = StreamingHttpResponse(
        live.stream(sheet_id, current, last, view=view), content_type="text/event-stream; charset=utf-8"
    )
    response["Cache-Control"] = "no-cache, no-transform"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each event on as it comes
    return response
