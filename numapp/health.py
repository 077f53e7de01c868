"""Readiness of the parts the app needs: the database, the Celery broker and the cache.

Each check gives up quickly (the broker and the cache after about half a second each),
so that `/readyz` answers 503 within about two seconds even when Redis accepts
connections but never answers (a hung or frozen server), instead of holding a worker
until gunicorn kills it.
"""

import logging
import re

import redis
from django.conf import settings
from django.db import connection

log = logging.getLogger("numapp.health")

# Seconds for the broker's TCP connect and for each of its replies; one attempt, no retry.
BROKER_TIMEOUT = 0.5
# Seconds for the cache's Redis to accept the probe's connection and to answer its PING.
CACHE_TIMEOUT = 0.5


def _database() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")


def _broker() -> None:
    from numapp.celery import app

    conn = app.connection_for_write(
        connect_timeout=BROKER_TIMEOUT,
        transport_options={"socket_connect_timeout": BROKER_TIMEOUT, "socket_timeout": BROKER_TIMEOUT},
    )
    with conn:
        # max_retries=0: a single attempt; kombu's default retries would multiply the timeout.
        conn.ensure_connection(max_retries=0)


def _cache() -> None:
    from django.core.cache import caches
    from django.core.cache.backends.redis import RedisCache

    # The Redis cache fails open (numapp/cache.py), so a get or set would hide an outage:
    # ask Redis itself, on a connection of the probe's own. The local-memory cache of a
    # single machine has nothing to check.
    if isinstance(caches["default"], RedisCache):
        location = settings.CACHES["default"]["LOCATION"]
        primary = re.split("[;,]", location)[0] if isinstance(location, str) else location[0]
        with redis.Redis.from_url(primary, socket_connect_timeout=CACHE_TIMEOUT, socket_timeout=CACHE_TIMEOUT) as r:
            r.ping()


CHECKS = {"database": _database, "broker": _broker, "cache": _cache}


def check() -> dict:
    """Return {"ok", "database", "broker", "cache"}: each part "ok" or the error that stopped it."""
    report = {}
    for name, part in CHECKS.items():
        try:
            part()
            report[name] = "ok"
        except Exception as exc:  # any failure is the report, not a crash
            report[name] = f"error: {exc.__class__.__name__}"
            log.warning("not ready: %s %s (%s)", name, report[name], exc)
    report["ok"] = all(report[name] == "ok" for name in CHECKS)
    return report
