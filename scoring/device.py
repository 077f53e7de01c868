"""Whose data the phone keeps: the identities a page tells the device (docs/offline.md, « Who it belongs to »).

A page says which identities its browser holds on the server: the account that is logged
in, and the anonymous owner id of the browser's session (scoring/access.py). Each is an
opaque key (an HMAC, never the owner id itself, which is a credential). The page's scripts
tag what they keep (names, drafts, the outbox) with the first one and read or send only
what is tagged with one of them; the service worker shows a kept page offline only while
the browser still holds every identity the page was made for. When a logout or an account
deletion ends them, the next page names them once (`<meta name="num-forget">`) and the
device deletes what they kept.
"""

from django.contrib.auth import logout as django_logout
from django.utils.cache import add_never_cache_headers
from django.utils.crypto import salted_hmac

from scoring.access import OWNER_SESSION_KEY, owner_key

HEADER = "X-Num-Device"
FORGET_KEY = "device_forget"
SALT = "numapp.device"  # kept when the module moved: the identities phones hold stay the same


def _opaque(value: str) -> str:
    return salted_hmac(SALT, value).hexdigest()[:32]


def identities(request) -> list[str]:
    """Return the identities this request's browser holds: its account's first, then its anonymous owner id's."""
    held = []
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        held.append(_opaque(f"user:{user.pk}:{user.date_joined.isoformat()}"))
    session = getattr(request, "session", None)
    key = session.get(OWNER_SESSION_KEY, "") if session is not None else ""
    if key:
        held.append(_opaque(f"anon:{key}"))
    return held


def ensure(request) -> None:
    """Give an anonymous browser its owner id before its page stores anything on the device."""
    if not request.user.is_authenticated:
        owner_key(request, create=True)


def logout(request) -> None:
    """Log out (allauth's logout and the account deletion both come here); the next page has the device forget."""
    ended = identities(request)
    django_logout(request)
    if ended:
        request.session[FORGET_KEY] = ended


def _forget(request) -> str:
    """Return, once, the identities a logout ended (read by base.html only, so an API call never takes it)."""
    ended = request.session.pop(FORGET_KEY, None)
    if not ended:
        return ""
    request.device_forget = True
    return " ".join(ended)


def context(request) -> dict:
    """Give base.html the identities of the page and, once after a logout, those to forget (template context processor)."""
    return {
        "device_ids": lambda: " ".join(identities(request)),
        "device_forget": lambda: _forget(request) if hasattr(request, "session") else "",
    }


class DeviceMiddleware:
    """Say on each HTML page who it was made for (the service worker keeps it for them only).

    The page that makes the device forget is never kept: shown again offline, it would
    forget what the browser holds by then.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if response.get("Content-Type", "").startswith("text/html") and hasattr(request, "session"):
            response[HEADER] = " ".join(identities(request))
            if getattr(request, "device_forget", False):
                add_never_cache_headers(response)
        return response
