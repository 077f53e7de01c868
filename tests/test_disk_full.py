"""A full disk: every write answers 503 with what happened in the user's language, the log names
the cause, and /readyz fails while the database cannot write (docs/security.md, "a full disk").

The disk is not filled: a connection wrapper makes every write statement fail with the
driver's own error, as SQLite ("database or disk is full") and PostgreSQL ("could not extend
file …: No space left on device", SQLSTATE 53100) raise it, through Django's error wrapping.
"""

import logging
import sqlite3
from collections import namedtuple
from contextlib import contextmanager

import psycopg.errors
import pytest
from django.db import connection
from django.test import Client

from scoring.models import Round, Sheet
from tests.web.test_pages import start
from web import diskfull, health

pytestmark = pytest.mark.django_db
WRITES = ("INSERT", "UPDATE", "DELETE", "REPLACE")
FRENCH = "Impossible d'enregistrer pour l'instant"
ENGLISH = "Saving is impossible for now"


def driver_error() -> Exception:
    """Return the error the database's own driver raises when its disk is full."""
    if connection.vendor == "postgresql":
        return psycopg.errors.DiskFull('could not extend file "base/16384/16397": No space left on device')
    return sqlite3.OperationalError("database or disk is full")


@contextmanager
def full_disk():
    """Make every write on this thread's connection fail as on a full disk; reads go on."""

    def refuse_writes(execute, sql, params, many, context):
        if sql.lstrip().upper().startswith(WRITES):
            with context["connection"].wrap_database_errors:  # the driver's error, as Django wraps it
                raise driver_error()
        return execute(sql, params, many, context)

    with connection.execute_wrapper(refuse_writes):
        yield


def test_it_tells_the_page_that_saving_is_impossible_for_now_and_logs_the_cause(client, caplog):
    sheet = start(client, "numx-malus", ["Léa", "Tom"], scoring="competition")
    caplog.set_level(logging.ERROR)
    with full_disk():
        r = client.post(f"/sheets/{sheet.pk}/rounds/", {"number": "1", "points-0": "3", "points-1": "0"})
    assert r.status_code == 503
    assert r["Retry-After"] == "60"
    page = r.content.decode().replace("&#x27;", "'")
    assert FRENCH in page and "réessayez dans un moment" in page
    assert Round.objects.filter(sheet=sheet).count() == 0
    lines = [rec for rec in caplog.records if rec.name == "web.diskfull"]
    assert len(lines) == 1 and lines[0].levelname == "ERROR"
    assert "disk is full" in lines[0].getMessage() and f"POST /sheets/{sheet.pk}/rounds/" in lines[0].getMessage()
    assert ("database or disk is full" if connection.vendor == "sqlite" else "No space left") in lines[0].getMessage()
    # Once the disk has room again, the same round saves.
    r = client.post(f"/sheets/{sheet.pk}/rounds/", {"number": "1", "points-0": "3", "points-1": "0"})
    assert r.status_code == 302 and Round.objects.filter(sheet=sheet).count() == 1


@pytest.mark.parametrize(("lang", "said"), [("fr", FRENCH), ("en", ENGLISH)])
def test_it_answers_the_api_503_in_the_users_language_and_keeps_nothing(client, lang, said):
    sheet = start(client, "numx-malus", ["Léa", "Tom"], scoring="competition")
    body = {"entries": {"Léa": {"points": 3}, "Tom": {"points": 0}}, "number": 1}
    with full_disk():
        r = client.post(
            f"/api/v1/sheets/{sheet.pk}/rounds/",
            body,
            content_type="application/json",
            HTTP_ACCEPT_LANGUAGE=lang,
            HTTP_IDEMPOTENCY_KEY="round-1",
        )
    assert r.status_code == 503
    assert r["Retry-After"] == "60"
    assert r.json()["detail"].startswith(said)
    assert r.json()["errors"] == [{"path": "", "code": "disk_full", "message": r.json()["detail"]}]
    assert Round.objects.filter(sheet=sheet).count() == 0
    # The phone's outbox sends it again with the same key: saved once.
    r = client.post(
        f"/api/v1/sheets/{sheet.pk}/rounds/", body, content_type="application/json", HTTP_IDEMPOTENCY_KEY="round-1"
    )
    assert r.status_code == 201 and Round.objects.filter(sheet=sheet).count() == 1


def test_it_answers_503_when_only_the_session_cannot_be_saved():
    """An edit link writes nothing but the session, saved after the view: the same 503 page."""
    creator = Client()
    r = creator.post("/api/v1/sheets/", {"game": "coop", "players": ["A", "B"]}, content_type="application/json")
    token, sheet_id = r.json()["edit_token"], r.json()["id"]
    browser = Client(raise_request_exception=False)
    browser.get("/")  # a session to save
    with full_disk():
        r = browser.get(f"/sheets/{sheet_id}/?edit={token}")
    assert r.status_code == 503
    assert FRENCH in r.content.decode().replace("&#x27;", "'")


def test_it_fails_readiness_while_writes_fail_and_recovers_after(client, monkeypatch):
    sheet = start(client, "numx-malus", ["Léa", "Tom"], scoring="competition")
    assert client.get("/readyz").json()["database"] == "ok"
    with full_disk():
        client.post(f"/sheets/{sheet.pk}/rounds/", {"number": "1", "points-0": "3", "points-1": "0"})
    r = client.get("/readyz")
    assert r.status_code == 503
    assert r.json()["database"] == "error: DiskFull"
    # Every process sees it (it is kept in the shared cache) until the hold has passed without a failed write.
    later = diskfull.now() + diskfull.HOLD_SECONDS + 1
    monkeypatch.setattr(diskfull, "now", lambda: later)
    assert client.get("/readyz").json()["database"] == "ok"


@pytest.mark.skipif(connection.vendor != "sqlite", reason="the SQLite file's own file system")
def test_it_fails_readiness_when_the_sqlite_file_system_is_nearly_full(client, monkeypatch, settings):
    usage = namedtuple("usage", "total used free")
    settings.DATABASE_MIN_FREE_MB = 64
    monkeypatch.setattr(health.shutil, "disk_usage", lambda path: usage(10**10, 10**10 - 10**6, 10**6))
    r = client.get("/readyz")
    assert r.status_code == 503 and r.json()["database"] == "error: DiskFull"
    monkeypatch.setattr(health.shutil, "disk_usage", lambda path: usage(10**10, 10**9, 9 * 10**9))
    assert client.get("/readyz").json()["database"] == "ok"


def test_it_tells_a_full_disk_from_other_database_errors():
    from django.db import OperationalError

    for cause in (
        sqlite3.OperationalError("database or disk is full"),
        psycopg.errors.DiskFull("could not extend file"),
        OSError(28, "No space left on device"),
    ):
        wrapped = OperationalError(str(cause))
        wrapped.__cause__ = cause
        assert diskfull.is_disk_full(wrapped), cause
    for other in (sqlite3.OperationalError("database is locked"), OperationalError("server closed the connection")):
        assert not diskfull.is_disk_full(other)
    assert Sheet.objects.count() == 0
