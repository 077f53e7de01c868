"""What one rate-limit check costs: DRF's scoped throttle against a counter per window.

Run from the repo root: ``python bench/throttle.py`` (local-memory cache), or with
``REDIS_URL=redis://127.0.0.1:6379/<db>`` for the Redis cache as production configures it
(the db is flushed first: use one of your own). About 10 seconds.

DRF's throttle keeps, per client and scope, the list of its request times within the
period and writes it back on each allowed request (a GET and a SET of a pickled list); a
fixed-window counter costs one INCR. The check is measured with N times already in the
list (N = the client's requests in the period: 120 is a client at the API's limit of
120/min), in µs per request, beside the counter.
"""

import os
import pathlib
import sys
import time
import types

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "numapp.settings")

import django  # noqa: E402

django.setup()

from django.core.cache import caches  # noqa: E402
from django.core.cache.backends.redis import RedisCache  # noqa: E402
from django.test import RequestFactory  # noqa: E402

from web.ratelimit import ClientRateThrottle  # noqa: E402

SECONDS = 1.0  # per measurement
VIEW = types.SimpleNamespace(throttle_scope="bench")
cache = caches["default"]


def per_call_us(call) -> float:
    calls = 0
    start = time.perf_counter()
    while (now := time.perf_counter()) < start + SECONDS:
        call()
        calls += 1
    return (now - start) / calls * 1e6


def drf(history: int) -> float:
    """µs per allowed check of a client that already has `history` requests in its period."""
    clock = {"t": 1_000_000.0}

    class Throttle(ClientRateThrottle):
        cache = caches["default"]
        THROTTLE_RATES = {"bench": f"{history + 1}/s"}
        timer = staticmethod(lambda: clock["t"])

    request = RequestFactory().post("/", REMOTE_ADDR="192.0.2.1")
    request.user = types.SimpleNamespace(is_authenticated=False)
    cache.clear()

    def call():
        clock["t"] += 1 / history  # the oldest time leaves as a new one comes: the list keeps its length
        assert Throttle().allow_request(request, VIEW)

    for _ in range(history):
        call()
    return per_call_us(call)


def counter() -> float:
    """µs per check of a counter per window (one INCR on Redis; add then incr elsewhere)."""
    cache.clear()
    redis = cache._cache if isinstance(cache, RedisCache) else None

    def call():
        key = "rl:bench:192.0.2.1:1"
        if redis is not None:
            client = redis.get_client(key, write=True)
            if client.incr(key) == 1:
                client.expire(key, 60)
        elif not cache.add(key, 1, 60):
            cache.incr(key)

    return per_call_us(call)


def main() -> None:
    backend = type(cache).__name__
    print(f"rate-limit check, {backend}, µs per request (median of 3)")
    print("| check | µs |\n|---|---:|")
    rows = [("counter per window (INCR)", counter)]
    rows += [(f"DRF throttle, {n} in the period", lambda n=n: drf(n)) for n in (1, 30, 120)]
    for label, fn in rows:
        runs = sorted(fn() for _ in range(3))
        print(f"| {label} | {runs[1]:.0f} |", flush=True)
    cache.clear()


if __name__ == "__main__":
    main()
