"""A database that cannot write for want of disk space: recognised, said, logged and remembered.

SQLite says "database or disk is full" (SQLITE_FULL); PostgreSQL "could not extend file …:
No space left on device" (SQLSTATE 53100, `DiskFull`); a file write ENOSPC. Django wraps
them in its own `OperationalError`, the driver's error as its cause. The request gets a
503 saying that saving is impossible for now (web/views.py `unavailable`), the log one
line naming the cause, and `/readyz` fails for every process (the failure is kept in the
shared cache; with Redis down the cache check fails readiness anyway) until HOLD_SECONDS
pass without another one (web/health.py).
"""

import errno
import logging
import sqlite3
import time

from django.core.cache import cache

log = logging.getLogger("web.diskfull")

# How long /readyz keeps failing after the last write a full disk refused.
HOLD_SECONDS = 60
CACHE_KEY = "numapp:disk-full"
POSTGRESQL_DISK_FULL = "53100"
MESSAGES = ("database or disk is full", "could not extend file", "no space left on device")


def now() -> float:
    return time.time()


def _causes(exc: BaseException):
    """Yield the exception and what it wraps (Django's database errors carry the driver's as `__cause__`)."""
    seen = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        yield exc
        exc = exc.__cause__ or exc.__context__


def is_disk_full(exc: BaseException) -> bool:
    """Tell whether `exc` is a write refused for want of disk space (by SQLite, PostgreSQL or the file system)."""
    for cause in _causes(exc):
        if getattr(cause, "sqlstate", None) == POSTGRESQL_DISK_FULL or getattr(cause, "pgcode", None) == (
            POSTGRESQL_DISK_FULL
        ):
            return True
        if getattr(cause, "sqlite_errorcode", None) == sqlite3.SQLITE_FULL:
            return True
        if isinstance(cause, OSError) and cause.errno == errno.ENOSPC:
            return True
        text = str(cause).lower()
        if isinstance(cause, (sqlite3.Error, OSError)) or type(cause).__module__.startswith(("django.db", "psycopg")):
            if any(message in text for message in MESSAGES):
                return True
    return False


def cause_of(exc: BaseException) -> str:
    """Return the driver's own words for the error (the innermost cause), for the log."""
    inner = list(_causes(exc))[-1]
    return f"{type(inner).__module__}.{type(inner).__name__}: {inner}"


def note(request, exc: BaseException) -> None:
    """Log the refused write with its cause, and remember it for /readyz (every process, through the cache)."""
    log.error(
        "cannot write, the database's disk is full: %s %s refused (%s)", request.method, request.path, cause_of(exc)
    )
    cache.set(CACHE_KEY, {"at": now(), "cause": cause_of(exc)}, HOLD_SECONDS)


def recently_full() -> str:
    """Return the cause of a write refused for a full disk less than HOLD_SECONDS ago, in any process, or ""."""
    seen = cache.get(CACHE_KEY) or {}
    return seen.get("cause", "") if now() - seen.get("at", 0) < HOLD_SECONDS else ""
