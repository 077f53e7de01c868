"""Real outages, run by .ci/run with CHAOS=1: Redis stopped and started, PostgreSQL connections killed.

These stop shared services, so they only run when asked to.
"""

import os
import subprocess
import time
import urllib.request
from datetime import timedelta

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client
from django.utils import timezone

from scoring import services
from scoring.models import Sheet

pytestmark = pytest.mark.skipif(os.environ.get("CHAOS") != "1", reason="set CHAOS=1 to stop and start real services")

REDIS_START = [
    "redis-server",
    "--daemonize",
    "yes",
    "--bind",
    "127.0.0.1",
    "-::1",
    "--port",
    "6379",
    "--save",
    "",
    "--appendonly",
    "no",
    "--dir",
    "/var/lib/redis",
    "--logfile",
    "/var/log/redis/ci.log",
]
KING = {"cards": 1, "entries": {"A": {"bid": 1, "tricks": 1}, "B": {"bid": 0, "tricks": 0}}}


def redis_up() -> bool:
    return (
        subprocess.run(["redis-cli", "-h", "127.0.0.1", "ping"], capture_output=True, text=True).stdout.strip()
        == "PONG"
    )


@pytest.fixture
def redis_stopped():
    assert settings.REDIS_URL, "the outage test needs REDIS_URL"
    subprocess.run(["redis-cli", "-h", "127.0.0.1", "shutdown", "nosave"], capture_output=True)
    deadline = time.monotonic() + 10
    while redis_up() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not redis_up()
    try:
        yield
    finally:
        if not redis_up():
            subprocess.run(REDIS_START, check=True)
        deadline = time.monotonic() + 10
        while not redis_up() and time.monotonic() < deadline:
            time.sleep(0.1)


def timed(fn):
    started = time.monotonic()
    result = fn()
    return result, time.monotonic() - started


@pytest.mark.django_db(transaction=True)
def test_it_keeps_scoring_while_redis_is_down_and_purges_when_it_returns(redis_stopped):
    api = Client()
    created, took = timed(
        lambda: api.post("/api/v1/sheets/", {"game": "numking", "players": ["A", "B"]}, content_type="application/json")
    )
    assert created.status_code == 201 and took < 2
    sheet = created.json()
    added, took = timed(
        lambda: api.post(
            f"/api/v1/sheets/{sheet['id']}/rounds/",
            KING,
            content_type="application/json",
            HTTP_X_EDIT_TOKEN=sheet["edit_token"],
        )
    )
    assert added.status_code == 201 and took < 2
    read, took = timed(lambda: api.get(f"/api/v1/sheets/{sheet['id']}/", HTTP_X_EDIT_TOKEN=sheet["edit_token"]))
    assert read.status_code == 200 and took < 2
    page = Client()
    made, took = timed(lambda: page.post("/new/coop/", {"player": ["A", "B"]}))
    assert made.status_code == 302 and took < 2
    viewed, took = timed(lambda: page.get(made.url))
    assert viewed.status_code == 200 and took < 2
    health = api.get("/healthz")
    assert health.status_code == 503 and health.json()["broker"].startswith("error")

    # Redis returns: the purge runs through a real worker and catches up.
    subprocess.run(REDIS_START, check=True)
    deadline = time.monotonic() + 10
    while not redis_up() and time.monotonic() < deadline:
        time.sleep(0.1)
    Sheet.objects.filter(pk=sheet["id"]).update(expires_at=timezone.now() - timedelta(minutes=1))
    from celery.contrib.testing.worker import start_worker

    from numapp.celery import app
    from scoring.tasks import purge_expired_sheets

    with start_worker(app, perform_ping_check=False, pool="solo", loglevel="WARNING"):
        purge_expired_sheets.delay()
        deadline = time.monotonic() + 20
        while Sheet.objects.filter(pk=sheet["id"]).exists() and time.monotonic() < deadline:
            time.sleep(0.2)
    assert not Sheet.objects.filter(pk=sheet["id"]).exists()
    assert api.get("/healthz").status_code == 200


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
