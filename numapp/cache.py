"""A Redis cache that fails open: when Redis is unreachable it behaves as an empty cache.

The cache holds only rate-limit counters (DRF throttles, allauth): a Redis outage
must not stop a game at the table. Each call gives up after the client's short
timeouts and logs a warning (docs/security.md, "Redis down").
"""

import logging

from django.core.cache.backends.redis import RedisCache
from redis.exceptions import RedisError

log = logging.getLogger("scoring.cache")
FAILURES = (RedisError, OSError)


def _fail_open(name, fallback):
    def method(self, *args, **kwargs):
        try:
            return getattr(super(FailOpenRedisCache, self), name)(*args, **kwargs)
        except FAILURES as exc:
            log.warning("cache %s skipped, Redis unavailable: %s", name, exc.__class__.__name__)
            return fallback(*args, **kwargs) if callable(fallback) else fallback

    method.__name__ = name
    return method


class FailOpenRedisCache(RedisCache):
    get = _fail_open("get", lambda key, default=None, *a, **k: default)
    set = _fail_open("set", None)
    add = _fail_open("add", False)
    touch = _fail_open("touch", False)
    delete = _fail_open("delete", False)
    get_many = _fail_open("get_many", {})
    set_many = _fail_open("set_many", [])
    delete_many = _fail_open("delete_many", None)
    has_key = _fail_open("has_key", False)
    incr = _fail_open("incr", lambda key, delta=1, *a, **k: delta)
    clear = _fail_open("clear", None)

    def hit(self, key: str, timeout: int) -> int:
        """Add one to the counter `key` and return it; the first hit sets its expiry.

        One round trip per request (two for a window's first): Django's add-then-incr
        costs three (SET NX, EXISTS, INCRBY), and a rate limit counts every request.
        """
        key = self.make_and_validate_key(key)
        try:
            client = self._cache.get_client(key, write=True)
            count = client.incr(key)
            if count == 1:
                client.expire(key, timeout)
            return count
        except FAILURES as exc:
            log.warning("cache hit skipped, Redis unavailable: %s", exc.__class__.__name__)
            return 1
