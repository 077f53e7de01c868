"""A small fixed-window rate limit for the pages (the API uses DRF's throttles)."""

import functools
import logging
import time

from django.core.cache import cache
from django.shortcuts import render
from django.utils.translation import gettext as _

from numapp.clientip import client_ip

log = logging.getLogger("scoring.cache")

# scope → (requests, seconds), per client address.
LIMITS = {
    "sheet_create": (30, 60),
    "round_write": (120, 60),
    "admin_login": (10, 300),
}


def count_hit(key: str, limit: int, period: int, now: float | None = None) -> tuple[bool, float]:
    """Count one hit in the current window of `key`; return (allowed, seconds to the next window).

    One counter per window (INCR on Redis: one round trip, constant size). Any other
    Django cache counts with add then incr; a cache that fails lets the request
    through (docs/security.md, "fail open").
    """
    now = time.time() if now is None else now
    window = int(now // period)
    retry = (window + 1) * period - now
    bucket = f"rl:{key}:{window}"
    if hasattr(cache, "hit"):  # Redis (numapp/cache.py): INCR and EXPIRE in one round trip
        return cache.hit(bucket, period) <= limit, retry
    try:
        if cache.add(bucket, 1, period):
            return True, retry
        try:
            count = cache.incr(bucket)
        except ValueError:  # the window expired between add and incr
            cache.add(bucket, 1, period)
            return True, retry
    except Exception as exc:  # whatever the backend raises when its server is away
        log.warning("rate limit skipped, cache unavailable: %s", exc.__class__.__name__)
        return True, retry
    return count <= limit, retry


def allowed(request, scope: str) -> bool:
    """Count this request in its window; tell whether it stays within the limit."""
    limit, period = LIMITS[scope]
    return count_hit(f"{scope}:{client_ip(request)}", limit, period)[0]


def limit_posts(scope: str):
    """Refuse POSTs past the scope's limit with a 429 page in the user's language."""

    def decorate(view):
        @functools.wraps(view)
        def wrapped(request, *args, **kwargs):
            if request.method == "POST" and not allowed(request, scope):
                message = _("Too many attempts: wait a minute and try again.")
                return render(request, "429.html", {"message": message}, status=429)
            return view(request, *args, **kwargs)

        return wrapped

    return decorate
