"""The app's Redis cache for one process of the suite: its `clear()` empties only this process's keys.

`make test` runs in several processes (pytest-xdist) that share one Redis (REDIS_URL), each
with its own key prefix (tests/conftest.py). Django's `RedisCache.clear()` flushes the whole
database: one process's test clearing the cache would empty the others' caches in the middle
of their tests. With this backend a test may call `cache.clear()` as it would on its own.
"""

from web.cache import FailOpenRedisCache


class WorkerRedisCache(FailOpenRedisCache):
    def clear(self) -> None:
        client = self._cache.get_client(write=True)
        keys = list(client.scan_iter(match=f"{self.key_prefix}:*", count=1000))
        if keys:
            client.delete(*keys)
