"""Readiness of the parts the app needs: the database (and whether it can write), the Celery broker and the cache.

Each check gives up quickly (the broker, the cache and the disk-full notes kept in the
cache after about half a second each; tests/dependencies.py counts them),
so that `/readyz` answers 503 within about two seconds even when Redis accepts
connections but never answers (a hung or frozen server), instead of holding a request
until the balancer gives up on it.
"""

import logging
import re
import shutil
from pathlib import Path

import redis
from django.conf import settings
from django.db import connection

from web import diskfull

log = logging.getLogger("web.health")

# Seconds for the broker's TCP connect and for each of its replies; one attempt, no retry.
BROKER_TIMEOUT = 0.5
# Seconds for the cache's Redis to accept the probe's connection and to answer its PING.
CACHE_TIMEOUT = 0.5


class DiskFull(Exception):
    """The database cannot write for want of disk space."""


def _database() -> None:
    """Reach the database, and fail while it cannot write for want of space.

    Two cheap signs, no write of the probe's own (it would queue behind the players'
    writes for SQLite's lock): a write refused for a full disk in the last
    `diskfull.HOLD_SECONDS`, by any process (web/diskfull.py); and with SQLite, less
    than DATABASE_MIN_FREE_MB free on the database file's file system.
    """
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    cause = diskfull.recently_full()
    if cause:
        raise DiskFull(f"a write was refused: {cause}")
    if connection.vendor == "sqlite":
        name = str(connection.settings_dict["NAME"])
        # An in-memory database (the tests') writes its journal nowhere: VAR_DIR stands in.
        where = Path(name).parent if Path(name).is_absolute() else Path(settings.VAR_DIR)
        free = shutil.disk_usage(where).free
        if free < settings.DATABASE_MIN_FREE_MB * 1024 * 1024:
            raise DiskFull(f"{free // (1024 * 1024)} MB free on {where}, less than DATABASE_MIN_FREE_MB")


def _broker() -> None:
    # The project's Celery app (numapp/celery.py, loaded with the project) is the current one.
    from celery import current_app

    conn = current_app.connection_for_write(
        connect_timeout=BROKER_TIMEOUT,
        transport_options={"socket_connect_timeout": BROKER_TIMEOUT, "socket_timeout": BROKER_TIMEOUT},
    )
    with conn:
        # max_retries=0: a single attempt; kombu's default retries would multiply the timeout.
        conn.ensure_connection(max_retries=0)


def _cache() -> None:
    from django.core.cache import caches
    from django.core.cache.backends.redis import RedisCache

    # The Redis cache fails open (web/cache.py), so a get or set would hide an outage:
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
