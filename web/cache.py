"""Django's Redis cache, failing open: while Redis is down or hung it acts as an empty cache that accepts every write.

Nothing is added to Django's RedisCache: each of its operations is wrapped, and the ones
BaseCache builds on them (get_or_set, decr, incr_version, the async ones) follow. The cache
holds rate-limit counters (DRF throttles for the API and the pages, web/ratelimit.py;
allauth's): a Redis outage must not stop a game at the table, nor refuse a login. Every
fallback below is chosen so that a rate limit *allows* the request while Redis is away:

- `add` answers True (an empty cache adds any key). allauth's limiter takes a lock with
  `while not cache.add(lock)` for one second and then refuses the request; so does every
  wrapper that answers None or False for a failed add. django-redis with IGNORE_EXCEPTIONS
  answers None: with it, logging in, signing up and asking for a password reset while Redis
  is down answered 429 (tests/test_faults.py, measured with django-redis 7.0.0), which is
  why this module is not replaced by it.
- `get` answers the default (no history, no hits), `set`/`set_many`/`delete` do nothing,
  `incr` answers the delta (a first hit), `has_key` answers False.

A call that fails (connection refused, or no answer within the client's half-second
timeouts) marks this Redis as down for RETRY_AFTER seconds in this thread: meanwhile
calls answer their fallback at once, so a hung Redis costs one timeout every few seconds,
not one per call. Each failure logs one warning (docs/security.md, "Redis down").
"""

import logging
import time

from django.core.cache import cache
from django.core.cache.backends.redis import RedisCache
from django.db import transaction
from redis.exceptions import RedisError

log = logging.getLogger("web.cache")
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


# Every operation of Django's RedisCache, and what it answers while Redis is away
# (tests/test_faults.py checks that this names each one RedisCache defines).
FALLBACKS = {
    "get": lambda key, default=None, *a, **k: default,
    "set": None,
    "add": True,
    "touch": False,
    "delete": False,
    "get_many": lambda *a, **k: {},
    "set_many": lambda *a, **k: [],
    "delete_many": None,
    "has_key": False,
    "incr": lambda key, delta=1, *a, **k: delta,
    "clear": None,
}


class FailOpenRedisCache(RedisCache):
    # Until when (time.monotonic()) calls skip Redis. Django keeps one cache object per
    # thread for the life of the process, so this is per worker thread.
    down_until = 0.0

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


for _name, _fallback in FALLBACKS.items():
    setattr(FailOpenRedisCache, _name, _fail_open(_name, _fallback))


def keep_after_commit(key: str, value, timeout: int) -> None:
    """Put `value` in Django's default cache once the current transaction commits (at once outside one).

    What is kept was computed from the database: kept before the commit, it would outlive
    a rollback (a refused write's own request renders the version it then abandons).
    """
    transaction.on_commit(lambda: cache.set(key, value, timeout))
