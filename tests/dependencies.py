"""What a request asks of the parts it depends on, counted rather than timed.

A fault test that asserts "this answered within 2 s" passes or fails with the machine's
load. What makes a request quick while Redis is down or hung is countable instead: how
many calls reached Redis (each costs at most one half-second timeout, web/cache.py), how
many sockets were opened and with which timeouts, how many queries ran.
"""

import socket
from contextlib import contextmanager
from unittest import mock

from django.db import connection

from web import cache as fail_open


@contextmanager
def dependency_calls(monkeypatch=None):
    """Count, while the block runs: `redis` (cache calls that reached Redis), `redis_failed`, `sockets`, `queries`.

    `sockets` lists the timeout of each socket connected (None: it would wait forever).
    With `monkeypatch`, a Redis marked down stays skipped for the whole block, so that the
    counts do not depend on how long the block takes (RETRY_AFTER is a wall-clock window).
    """
    seen = {"redis": 0, "redis_failed": 0, "sockets": [], "queries": 0}
    skipping = fail_open.FailOpenRedisCache.skipping
    mark_down = fail_open.FailOpenRedisCache.mark_down
    connect = socket.socket.connect

    def counted_skipping(self):
        skipped = skipping(self)
        seen["redis"] += not skipped
        return skipped

    def counted_mark_down(self, name, exc):
        seen["redis_failed"] += 1
        mark_down(self, name, exc)

    def counted_query(execute, sql, params, many, context):
        seen["queries"] += 1
        return execute(sql, params, many, context)

    def counted_connect(sock, address):
        if sock.family in (socket.AF_INET, socket.AF_INET6, socket.AF_UNIX):
            seen["sockets"].append(sock.gettimeout())
        return connect(sock, address)

    if monkeypatch is not None:
        monkeypatch.setattr(fail_open, "RETRY_AFTER", 3600.0)
    with (
        mock.patch.object(fail_open.FailOpenRedisCache, "skipping", counted_skipping),
        mock.patch.object(fail_open.FailOpenRedisCache, "mark_down", counted_mark_down),
        mock.patch.object(socket.socket, "connect", counted_connect),
        connection.execute_wrapper(counted_query),
    ):
        yield seen


def assert_asks_nothing(seen):
    """The block reached no Redis, opened no socket and ran no query."""
    assert (seen["redis"], seen["sockets"], seen["queries"]) == (0, [], 0), seen


def assert_one_redis_timeout_at_most(seen):
    """Redis was tried once and skipped afterwards: a request pays one timeout at most, not one per call."""
    assert seen["redis"] <= 1 and seen["redis_failed"] <= 1, seen


# The readiness probe's budget (web/health.py): one connection to the broker, one of its
# own to the cache's Redis, and the cache's own (the database check reads the disk-full
# notes kept there, web/diskfull.py), each giving up after half a second.
PROBE_SOCKETS = 3
PROBE_TIMEOUT = 0.5


def assert_probes_give_up_quickly(seen):
    """The readiness probe opened PROBE_SOCKETS sockets at most, each with a timeout of half a second at most."""
    timeouts = seen["sockets"]
    assert len(timeouts) <= PROBE_SOCKETS, seen
    assert all(t is not None and 0 < t <= PROBE_TIMEOUT for t in timeouts), seen
    assert_one_redis_timeout_at_most(seen)
