import logging

from rest_framework.throttling import ScopedRateThrottle

log = logging.getLogger(__name__)


class FailOpenScopedThrottle(ScopedRateThrottle):
    """Rate-limit by scope; when the cache (Redis) is unreachable, let the request through.

    Scores at the table matter more than rate limits: a Redis outage must not
    stop a game (docs/deployment.md).
    """

    def allow_request(self, request, view):
        try:
            return super().allow_request(request, view)
        except Exception as exc:  # the cache client's connection errors vary by backend
            log.warning("rate limit skipped, cache unavailable: %s", exc.__class__.__name__)
            return True
