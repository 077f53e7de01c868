"""Real outages, run by .ci/run with CHAOS=1: Redis stopped, frozen and started again, PostgreSQL connections killed.

The Redis is the test's own (tests/redis_server.py, on a free port): these tests never
touch a server they did not start. They start real processes and wait for them, so they
only run when asked to; the short Redis fault tests are in tests/test_faults.py.
"""

import os
import threading
import urllib.request
from datetime import timedelta

import pytest
from django.db import connection
from django.test import Client
from django.utils import timezone

from scoring import services
from scoring.models import Sheet
from tests.dependencies import (
    assert_asks_nothing,
    assert_one_redis_timeout_at_most,
    assert_probes_give_up_quickly,
    dependency_calls,
)

pytestmark = pytest.mark.skipif(
    os.environ.get("CHAOS") != "1",
    reason="set CHAOS=1 to run the outage tests (a redis-server and a worker of their own)",
)

KING = {"cards": 1, "entries": {"A": {"bid": 1, "tricks": 1}, "B": {"bid": 0, "tricks": 0}}}


def play_a_game_quickly(monkeypatch):
    """Create a sheet, add a round and read it through the API, and make and view one from the pages.

    Return the API sheet. The whole game tries Redis once (one half-second timeout at most
    while it hangs), then plays on without it.
    """
    api = Client()
    with dependency_calls(monkeypatch) as seen:
        created = api.post(
            "/api/v1/sheets/", {"game": "numking", "players": ["A", "B"]}, content_type="application/json"
        )
        assert created.status_code == 201
        sheet = created.json()
        added = api.post(
            f"/api/v1/sheets/{sheet['id']}/rounds/",
            KING,
            content_type="application/json",
            HTTP_X_EDIT_TOKEN=sheet["edit_token"],
        )
        assert added.status_code == 201
        read = api.get(f"/api/v1/sheets/{sheet['id']}/", HTTP_X_EDIT_TOKEN=sheet["edit_token"])
        assert read.status_code == 200
        assert len(read.json()["rounds"]) == 1
        page = Client()
        made = page.post("/new/coop/", {"player": ["A", "B"]})
        assert made.status_code == 302
        assert page.get(made.url).status_code == 200
    assert_one_redis_timeout_at_most(seen)
    return sheet


def assert_live_but_not_ready():
    with dependency_calls() as seen:
        live = Client().get("/healthz")
    assert live.status_code == 200
    assert_asks_nothing(seen)
    with dependency_calls() as seen:
        ready = Client().get("/readyz")
    assert ready.status_code == 503
    assert ready.json()["broker"].startswith("error") and ready.json()["cache"].startswith("error")
    assert_probes_give_up_quickly(seen)


@pytest.mark.django_db(transaction=True)
def test_it_keeps_scoring_while_redis_is_down_and_purges_when_it_returns(redis_cache, redis_broker, monkeypatch):
    redis_cache.stop()
    sheet = play_a_game_quickly(monkeypatch)
    assert_live_but_not_ready()

    # Redis returns: the purge runs through a real worker and catches up.
    redis_cache.start()
    assert Client().get("/readyz").status_code == 200
    Sheet.objects.filter(pk=sheet["id"]).update(expires_at=timezone.now() - timedelta(minutes=1))
    from celery.contrib.testing.worker import start_worker
    from celery.signals import task_postrun

    from numapp.celery import app
    from scoring.tasks import purge_expired_sheets

    # Wait for the task itself rather than polling the table the worker writes to
    # (SQLite's shared in-memory test database locks whole tables).
    purged = threading.Event()

    def on_task_done(sender=None, **kwargs):
        if sender is not None and sender.name == purge_expired_sheets.name:
            purged.set()

    task_postrun.connect(on_task_done, weak=False)
    try:
        with start_worker(app, perform_ping_check=False, pool="solo", loglevel="WARNING"):
            purge_expired_sheets.delay()
            assert purged.wait(20), "the worker did not run the purge within 20 s"
    finally:
        task_postrun.disconnect(on_task_done)
    assert not Sheet.objects.filter(pk=sheet["id"]).exists()


@pytest.mark.django_db(transaction=True)
def test_it_keeps_scoring_while_redis_hangs(redis_cache, redis_broker, monkeypatch):
    redis_cache.pause()  # SIGSTOP: connections are accepted and never answered
    play_a_game_quickly(monkeypatch)
    assert_live_but_not_ready()
    redis_cache.resume()
    assert Client().get("/readyz").status_code == 200


@pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL only")
@pytest.mark.django_db(transaction=True)
def test_it_recovers_when_postgresql_drops_every_connection(live_server):
    created = services.sheet_create(game="coop", players=["A", "B"], options={})
    url = f"{live_server.url}/api/v1/sheets/{created.sheet.pk}/"

    def get():
        req = urllib.request.Request(url, headers={"X-Edit-Token": created.edit_token})
        try:
            return urllib.request.urlopen(req, timeout=5).status
        except urllib.error.HTTPError as exc:
            return exc.code

    assert [get() for _ in range(3)] == [200, 200, 200]
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
    # The request in flight when the connection died may fail; the next ones succeed.
    statuses = [get() for _ in range(5)]
    assert statuses[1:] == [200, 200, 200, 200], statuses
    assert statuses[0] in (200, 500)
