import sys

from django.conf import settings
from django.http import HttpResponse, HttpResponseServerError, JsonResponse
from django.template import loader
from django.templatetags.static import static
from django.utils.translation import gettext as _
from django.views.defaults import page_not_found, permission_denied

from web import diskfull, health
from web.errors import error_json


def not_found(request, exception=None):
    """Answer 404 in JSON under /api/ (the API's error shape), as a page elsewhere."""
    if request.path.startswith("/api/"):
        return error_json(404, "not_found", _("Not found."))
    return page_not_found(request, exception)


def forbidden(request, exception=None):
    """Answer 403 in JSON under /api/, as the app's own page (403.html) elsewhere."""
    if request.path.startswith("/api/"):
        return error_json(403, "forbidden", _("Not allowed."))
    return permission_denied(request, exception)


def _css() -> str:
    try:
        return static("css/app.css")
    except Exception:  # a missing static manifest must not hide the page itself
        return settings.STATIC_URL + "css/app.css"


# A full disk is not fixed in a second: the phone's outbox tries again after this.
RETRY_AFTER_FULL_DISK = 60


def saving_impossible() -> str:
    return _(
        "Saving is impossible for now: the server has no room left to write. "
        "What you typed stays on this phone; try again in a moment."
    )


def unavailable(request):
    """Answer a write the database refused for a full disk: 503, saying so in the user's language.

    The page, like the 500 page, is rendered without the request; the API answers its error
    shape (code `disk_full`). `Retry-After` tells the phone's outbox when to send again.
    """
    message = saving_impossible()
    if request.path.startswith("/api/"):
        response = error_json(503, "disk_full", message)
    else:
        try:
            body = loader.get_template("503.html").render({"css": _css(), "message": message})
        except Exception:
            body = f"<!doctype html><title>503</title><h1>Num scores</h1><p>{message}</p>"
        response = HttpResponse(body, status=503)
    response["Retry-After"] = str(RETRY_AFTER_FULL_DISK)
    response["Cache-Control"] = "no-store"
    return response


def server_error(request):
    """Answer 500 with the app's own page, rendered without the request (whatever broke may be in it).

    A write refused for a full disk outside a view (the session saved after it) is the 503 of
    `unavailable` instead: Django calls this handler while handling the exception.
    """
    exc = sys.exc_info()[1]
    if exc is not None and diskfull.is_disk_full(exc):
        diskfull.note(request, exc)
        return unavailable(request)
    if request.path.startswith("/api/"):
        return error_json(500, "server_error", _("The server could not answer. Try again in a moment."))
    try:
        body = loader.get_template("500.html").render({"css": _css()})
    except Exception:
        body = "<!doctype html><title>500</title><h1>Num scores</h1><p>Server error.</p>"
    return HttpResponseServerError(body)


def healthz(request):
    """Answer 200 while this process serves requests (liveness: what a load balancer asks).

    It asks no database, broker or cache: an outage of one of them must not take every
    web process out of the balancer, and a hung dependency must not hang the probe.
    `?deep=1` is `/readyz`.
    """
    if request.GET.get("deep") == "1":
        return readyz(request)
    response = JsonResponse({"ok": True})
    response["Cache-Control"] = "no-store"
    return response


def readyz(request):
    """Report the database, the broker and the cache (readiness); 503 names what failed."""
    report = health.check()
    response = JsonResponse(report, status=200 if report["ok"] else 503)
    response["Cache-Control"] = "no-store"
    return response
