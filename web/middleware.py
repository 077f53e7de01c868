"""Headers every response carries, the request id on every response and log line, the app's own error pages."""

import contextvars
import logging
import re
import uuid

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.core.signals import request_finished
from django.http import Http404
from django.middleware.gzip import GZipMiddleware as DjangoGZipMiddleware
from django.urls import Resolver404, is_valid_path, resolve

from web import diskfull, views

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; worker-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'self'; "
    "object-src 'none'"
)
# The in-page engine's worker compiles Pyodide's WebAssembly: only the worker's own script
# (a worker's policy is the one its script is served with) may do it, never a page.
WORKER_CSP = CSP.replace("script-src 'self'", "script-src 'self' 'wasm-unsafe-eval'")
WORKER_PATH = settings.STATIC_URL + "js/engine-worker."


class GZipMiddleware(DjangoGZipMiddleware):
    """Django's gzip, except for event streams: gzip holds small writes back, and an event must leave at once."""

    def process_response(self, request, response):
        if response.get("Content-Type", "").startswith("text/event-stream"):
            return response
        return super().process_response(request, response)


class SecurityHeadersMiddleware:
    """Add the Content-Security-Policy (no inline script) and a permissions policy."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if request.path.startswith("/api/v1/docs/"):
            # The Swagger page runs its own bundled scripts, served from our host only.
            response.setdefault(
                "Content-Security-Policy",
                CSP.replace("script-src 'self'", "script-src 'self' 'unsafe-inline'").replace(
                    "style-src 'self'", "style-src 'self' 'unsafe-inline'"
                ),
            )
        if request.path.startswith(WORKER_PATH):
            response.setdefault("Content-Security-Policy", WORKER_CSP)
        response.setdefault("Content-Security-Policy", CSP)
        response.setdefault("Permissions-Policy", "camera=(), microphone=(), geolocation=()")
        return response


# The request id of the request this thread or task is serving, for every log line it writes.
request_id = contextvars.ContextVar("request_id", default="-")
# An incoming X-Request-ID is kept only if it is short and plain (no spaces, quotes or
# newlines that could forge a log line); otherwise the request gets a fresh one.
SANE_REQUEST_ID = re.compile(r"[A-Za-z0-9._:@/+=-]{1,128}")


class RequestIDMiddleware:
    """Give each request an id: the proxy's `X-Request-ID` when sane, else a new one.

    The id goes back in the response's `X-Request-ID` header and on every log line written
    while the request is served (RequestIDFilter), the traceback of a 500 included, so an
    operator finds the error a user or the access log points at.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        incoming = request.headers.get("X-Request-ID", "")
        request.request_id = incoming if SANE_REQUEST_ID.fullmatch(incoming) else uuid.uuid4().hex
        # Kept until the response is closed (forget_request_id), not reset on the way out:
        # Django logs a 5xx answer after the middleware has returned.
        request_id.set(request.request_id)
        response = self.get_response(request)
        response["X-Request-ID"] = request.request_id
        return response


def forget_request_id(**kwargs):
    request_id.set("-")


request_finished.connect(forget_request_id, dispatch_uid="web.middleware.forget_request_id")


class RequestIDFilter(logging.Filter):
    """Put the current request id on each record as `request_id` ("-" outside a request)."""

    def filter(self, record):
        record.request_id = request_id.get()
        return True


class OwnErrorPagesMiddleware:
    """Answer errors with the app's own pages (404, 403, 500) with DEBUG on too.

    With DEBUG off Django already uses the handlers of numapp/urls.py; with it on
    (`make run`, where a table may well play) it would show its technical pages.
    The traceback of a 500 still goes to the log (django.request), as in production.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if settings.DEBUG:
            try:
                resolve(request.path_info)
            except Resolver404:
                slash = request.path_info + "/"
                if not (settings.APPEND_SLASH and not request.path_info.endswith("/") and is_valid_path(slash)):
                    return views.not_found(request)
        return self.get_response(request)

    def process_exception(self, request, exception):
        if not settings.DEBUG:
            return None
        if isinstance(exception, Http404):
            return views.not_found(request, exception)
        if isinstance(exception, PermissionDenied):
            return views.forbidden(request, exception)
        logging.getLogger("django.request").error(
            "Internal Server Error: %s", request.path, exc_info=(type(exception), exception, exception.__traceback__)
        )
        return views.server_error(request)


class DiskFullMiddleware:
    """Answer a write the database refused for a full disk with a 503 that says so (pages and API).

    The innermost middleware, so its `process_exception` sees the view's exception first
    (an API view re-raises what its handler does not know). What fails after the view (the
    session saved on the way out) reaches `web.views.server_error`, which answers the same.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if not diskfull.is_disk_full(exception):
            return None
        diskfull.note(request, exception)
        return views.unavailable(request)
