"""The suite's processes share one Redis: a test that clears the cache empties its own process's keys only."""

from tests.worker_cache import WorkerRedisCache


def test_clearing_one_processs_cache_leaves_the_others_keys(redis_server):
    gw0, gw1 = (WorkerRedisCache(redis_server.url(), {"KEY_PREFIX": name}) for name in ("gw0", "gw1"))
    gw0.set("figures", 1)
    gw1.set("figures", 2)
    gw0.clear()
    assert (gw0.get("figures"), gw1.get("figures")) == (None, 2)
