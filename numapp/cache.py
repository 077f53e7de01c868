"""A Redis cache that fails open: while Redis is down or hung it acts as an empty cache that accepts every write.

The cache holds only rate-limit counters (DRF throttles, allauth, numapp/ratelimit.py): a
Redis outage must not stop a game at the table, nor refuse a login. Every fallback below
is chosen so that a rate limit *allows* the request while Redis is away:

- `add` answers True (an empty cache adds any key). allauth's limiter takes a lock with
  `while not cache.add(lock)` for one second and then refuses the request; so does every
  wrapper that answers None or False for a failed add, django-redis's IGNORE_EXCEPTIONS
  included, which is why this module is not replaced by it.
- `get` answers the default (no history, no hits), `set`/`set_many`/`delete` do nothing,
  `incr` answers the delta (a first hit), `has_key` answers False.

A call that fails (connection refused, or no answer within the client's half-second
timeouts) marks this Redis as down for RETRY_AFTER seconds in this thread: meanwhile
calls answer their fallback at once, so a hung Redis costs one timeout every few seconds,
not one per call. Each failure logs one warning (docs/security.md, "Redis down").
"""

import logging
import time

from django.core.cache.backends.redis import RedisCache
from redis.exceptions import RedisError

log = logging.getLogger("numapp.cache")
FAILURES = (RedisError, OSError)
RETRY_AFTER = 5.0


def _fail_open(name, fallback):
    def method(self, *args, **kwargs):
        if self.skipping():
            return fallback(*args, **kwargs) if callable(fallback) else fallback
        try:
            return getattr(super(FailOpenRedisCache, self), name)(*args, **kwargs)
        except FAILURES as exc:
            self.mark_down(name, exc)
            return fallback(*args, **kwargs) if callable(fallback) else fallback

    method.__name__ = name
    return method


class FailOpenRedisCache(RedisCache):
    # Until when (time.monotonic()) calls skip Redis. Django keeps one cache object per
    # thread for the life of the process, so this is per worker thread.
    down_until = 0.0

    get = _fail_open("get", lambda key, default=None, *a, **k: default)
    set = _fail_open("set", None)
    add = _fail_open("add", True)
    touch = _fail_open("touch", False)
    delete = _fail_open("delete", False)
    get_many = _fail_open("get_many", {})
    set_many = _fail_open("set_many", [])
    delete_many = _fail_open("delete_many", None)
    has_key = _fail_open("has_key", False)
    incr = _fail_open("incr", lambda key, delta=1, *a, **k: delta)
    clear = _fail_open("clear", None)

    def skipping(self) -> bool:
        """Tell whether this Redis failed less than RETRY_AFTER seconds ago."""
        return self.down_until > time.monotonic()

    def mark_down(self, name: str, exc: BaseException) -> None:
        self.down_until = time.monotonic() + RETRY_AFTER
        log.warning(
            "cache %s skipped, Redis unavailable (%s); rate limits allow everything for %.0f s",
            name,
            exc.__class__.__name__,
            RETRY_AFTER,
        )

    def ping(self) -> None:
        """Ask Redis for PONG, raising its error: the readiness check, which must see an outage."""
        self._cache.get_client(write=True).ping()

    def hit(self, key: str, timeout: int) -> int:
        """Add one to the counter `key` and return it; the first hit sets its expiry.

        One round trip per request (two for a window's first): Django's add-then-incr
        costs three (SET NX, EXISTS, INCRBY), and a rate limit counts every request.
        Without Redis every hit is the first of its window.
        """
        if self.skipping():
            return 1
        key = self.make_and_validate_key(key)
        try:
            client = self._cache.get_client(key, write=True)
            count = client.incr(key)
            if count == 1:
                client.expire(key, timeout)
            return count
        except FAILURES as exc:
            self.mark_down("hit", exc)
            return 1
