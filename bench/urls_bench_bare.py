"""The bare app of bench/capacity.py: the table's requests and stream messages, with no app behind them.

T_bare is the most tables this carries: the same requests on the same paths (the app's
middleware, the same uvicorn), each answered by a small JSON object, and the same event
streams carrying the same messages through the live table's hub and, with `REDIS_URL`,
Redis pub/sub (scoring/live.py). A write announces a message shaped as the app's (a version,
the round in progress with the entry sent, `at`) to the sheet's streams; nothing is read
or stored in the database, no session is read.
"""

import json
import time

from django.http import HttpResponse, JsonResponse, StreamingHttpResponse
from django.urls import re_path
from django.views.decorators.csrf import csrf_exempt

from scoring import live
from web.parsing import parse_int


def bare(request, **kwargs):
    """A page or a board: a small JSON object."""
    return JsonResponse({"ok": True, "view": "bare"})


@csrf_exempt
def bare_write(request, sheet_id, **kwargs):
    """A write (an entry, the bids, a round): announce a message of the app's shape to the sheet's streams."""
    try:
        body = json.loads(request.body or b"{}") if request.content_type == "application/json" else {}
    except ValueError:
        body = {}
    player = kwargs.get("player")
    message = {
        "version": time.time_ns() // 1000,  # grows, across processes: no shared counter to keep
        "rounds": 0,
        "finished": False,
        "draft": {"number": 1, "entries": {player: body} if player else {}, "fields": {}, "entered": []},
        "at": live.committed_at(),
    }
    live.publish(sheet_id, message)
    return JsonResponse({"ok": True, "version": message["version"]})


async def bare_events(request, sheet_id):
    """A sheet's event stream, as the app's (scoring/live.py), with nothing to read or check."""
    since = parse_int(request.GET.get("since", "")) or 0

    async def read():
        return {"version": since, "rounds": 0, "finished": False, "draft": {}}

    response = StreamingHttpResponse(
        live.stream(sheet_id, read, since, view=lambda message: message),
        content_type="text/event-stream; charset=utf-8",
    )
    response["Cache-Control"] = "no-cache, no-transform"
    response["X-Accel-Buffering"] = "no"
    return response


def not_found(request):
    return HttpResponse(status=404)


SHEET = r"(?P<sheet_id>[A-Za-z0-9_-]+)"
urlpatterns = [
    re_path(rf"^api/v1/sheets/{SHEET}/events/$", bare_events),
    re_path(rf"^api/v1/sheets/{SHEET}/draft/entries/(?P<player>[^/]+)/$", bare_write),
    re_path(rf"^api/v1/sheets/{SHEET}/rounds/$", bare_write),
    re_path(rf"^sheets/{SHEET}/draft/$", bare_write),
    re_path(r"^(?:bench/bare|sheets/[^/]+/|p/[^/]+/[^/]+/[^/]+/|w/[^/]+/[^/]+/)$", bare),
    re_path(r"", not_found),
]
