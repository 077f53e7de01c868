"""The access log without the secrets that travel in URLs: the ASGI app's (`AccessLog`, numapp/asgi.py)
and gunicorn's (gunicorn.conf.py, for the benchmarks that run the app under WSGI).

Edit links carry the edit token in the query (`?edit=…`), share links and seat links
carry a token in the path (`/w/<id>/<token>/`, `/seat/<id>/<seat>/<token>/`, a player's entry link `/p/<id>/<seat>/<token>/`), and a
page's links send those URLs on as `Referer`. The log keeps the path, never the query,
and puts `-` where a token was. The client's address is the one the rate limits count
(web/clientip.py), read from the same `TRUSTED_PROXIES`.
"""

import logging
import re
import time

from gunicorn.glogging import Logger

from web.clientip import client_address
from web.env import env_int

# The one format, also usable without this class: %(U)s is the path without the query.
ACCESS_LOG_FORMAT = '%(h)s %(l)s %(u)s %(t)s "%(m)s %(U)s %(H)s" %(s)s %(b)s "%(f)s" "%(a)s" %(M)sms'

TOKEN_PATHS = [
    (re.compile(r"^(/w/[^/]+/)[^/]+"), r"\1-"),
    (re.compile(r"^(/seat/[^/]+/[^/]+/)[^/]+"), r"\1-"),
    (re.compile(r"^(/p/[^/]+/[^/]+/)[^/]+"), r"\1-"),
]
URL = re.compile(r"^(?P<origin>[a-zA-Z][a-zA-Z0-9+.-]*://[^/?#]*)?(?P<path>[^?#]*)")


def redact(url: str) -> str:
    """Return `url` (a path or an absolute URL) without its query and fragment, its token segments as `-`."""
    if not url or url == "-":
        return url
    match = URL.match(url)
    path = match["path"]
    for pattern, replacement in TOKEN_PATHS:
        path = pattern.sub(replacement, path)
    return (match["origin"] or "") + path


class RedactURLFilter(logging.Filter):
    """Take tokens and queries out of the paths Django's own log lines name ("Internal Server Error: /w/…")."""

    def filter(self, record):
        if isinstance(record.args, tuple):
            record.args = tuple(_redact_arg(a) for a in record.args)
        return True


REQUEST_LINE = re.compile(r"^([A-Z]+ )(/\S*)( HTTP/[0-9.]+)$")


def _redact_arg(value):
    """Redact a path ("/w/…") or a request line ("GET /w/… HTTP/1.1", the development server's)."""
    if not isinstance(value, str):
        return value
    if value.startswith("/"):
        return redact(value)
    line = REQUEST_LINE.match(value)
    return f"{line[1]}{redact(line[2])}{line[3]}" if line else value


class RedactingLogger(Logger):
    """gunicorn's logger whose request atoms carry no query and no token."""

    def __init__(self, cfg):
        super().__init__(cfg)
        self.trusted_proxies = env_int("TRUSTED_PROXIES", 0)

    def atoms(self, resp, req, environ, request_time):
        """Return gunicorn's atoms with every URL redacted and the client's address as `h`."""
        atoms = super().atoms(resp, req, environ, request_time)
        path = redact(environ.get("PATH_INFO", ""))
        referer = redact(environ.get("HTTP_REFERER", "-"))
        atoms["U"] = path
        atoms["q"] = ""
        atoms["r"] = f"{environ.get('REQUEST_METHOD')} {path} {environ.get('SERVER_PROTOCOL')}"
        atoms["f"] = referer
        # The same values under the names a custom format could use to reach them raw.
        for key in ("{referer}i", "{http_referer}e"):
            if key in atoms:
                atoms[key] = referer
        for key in ("{raw_uri}e", "{path_info}e", "{request_uri}e"):
            if key in atoms:
                atoms[key] = path
        if "{query_string}e" in atoms:
            atoms["{query_string}e"] = ""
        atoms["h"] = client_address(
            environ.get("REMOTE_ADDR", "-"), environ.get("HTTP_X_FORWARDED_FOR", ""), self.trusted_proxies
        )
        return atoms


access_log = logging.getLogger("numapp.access")


class AccessLog:
    """ASGI middleware: one line per request, in gunicorn's format (ACCESS_LOG_FORMAT), written when it ends.

    The path and the referrer are redacted, and the client is the address the rate limits
    count. An event stream's line is written when the phone leaves, with how long it stayed.
    """

    def __init__(self, app):
        self.app = app
        self.trusted_proxies = env_int("TRUSTED_PROXIES", 0)

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        started = time.monotonic()
        answer = {"status": 0, "size": 0}

        async def send_and_count(message):
            if message["type"] == "http.response.start":
                answer["status"] = message["status"]
            elif message["type"] == "http.response.body":
                answer["size"] += len(message.get("body", b""))
            await send(message)

        try:
            await self.app(scope, receive, send_and_count)
        finally:
            headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
            peer = (scope.get("client") or ("-",))[0]
            client = client_address(peer, headers.get("x-forwarded-for", ""), self.trusted_proxies)
            access_log.info(
                '%s - - [%s] "%s %s HTTP/%s" %s %s "%s" "%s" %dms',
                client,
                time.strftime("%d/%b/%Y:%H:%M:%S %z"),
                scope.get("method", "-"),
                redact(scope.get("path", "")),
                scope.get("http_version", "1.1"),
                answer["status"],
                answer["size"],
                redact(headers.get("referer", "-")),
                headers.get("user-agent", "-").replace('"', "'"),
                (time.monotonic() - started) * 1000,
            )
