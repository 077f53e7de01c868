"""Faults the app must ride out: Redis down or hung, an unexpected error in production.

The Redis tests start a redis-server of their own (tests/redis_server.py) and stop or
freeze only that one; they skip when redis-server is not installed (and fail in CI).
"""

import os
import re
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.db import connection
from django.test import Client

from tests.accounts import PASSWORD, verified_user
from tests.dependencies import (
    assert_asks_nothing,
    assert_one_redis_timeout_at_most,
    assert_probes_give_up_quickly,
    dependency_calls,
)


def within(seconds, fn):
    """Run fn in a thread and return its result; fail if it has not answered after `seconds`.

    A regression that hangs on a frozen Redis fails the test instead of hanging the suite
    (the thread is freed when the teardown kills that Redis). What keeps the answer quick
    is counted, not timed (tests/dependencies.py).
    """
    done = {}

    def run():
        try:
            with dependency_calls() as seen:
                done["result"] = fn()
            done["seen"] = seen
        finally:
            connection.close()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    assert "result" in done, f"no answer within {seconds} s"
    return done["result"], done["seen"]


def log_in(client, email="lou@example.org"):
    return client.post("/accounts/login/", {"login": email, "password": PASSWORD})


# --- Redis down: logins, sign-ups and resets are not rate-limited away -------------------


@pytest.mark.django_db
def test_it_logs_in_while_redis_is_down(redis_cache, monkeypatch):
    user = verified_user("lou@example.org")
    assert log_in(Client()).status_code == 302  # Redis up: the limiter counts in it
    redis_cache.stop()
    client = Client()
    with dependency_calls(monkeypatch) as seen:
        r = log_in(client)
    assert r.status_code == 302 and r.url == "/"
    assert client.get("/sheets/").wsgi_request.user == user
    assert_one_redis_timeout_at_most(seen)


@pytest.mark.django_db
def test_it_logs_in_quickly_while_redis_hangs(redis_cache, monkeypatch):
    verified_user("lou@example.org")
    redis_cache.pause()
    client = Client()
    with dependency_calls(monkeypatch) as seen:
        r = log_in(client)
    assert r.status_code == 302 and r.url == "/"
    assert client.get("/sheets/").wsgi_request.user.is_authenticated
    # One half-second timeout, then the cache skips Redis (web/cache.py, RETRY_AFTER).
    assert_one_redis_timeout_at_most(seen)


@pytest.mark.django_db
def test_it_signs_up_while_redis_is_down(redis_cache, monkeypatch):
    redis_cache.stop()
    with dependency_calls(monkeypatch) as seen:
        r = Client().post(
            "/accounts/signup/", {"email": "new@example.org", "password1": PASSWORD, "password2": PASSWORD}
        )
    assert r.status_code == 302 and r.url == "/accounts/confirm-email/"
    assert get_user_model().objects.filter(email="new@example.org").exists()
    assert len(mail.outbox) == 1 and "new@example.org" in mail.outbox[0].to
    assert_one_redis_timeout_at_most(seen)


@pytest.mark.django_db
def test_it_sends_a_password_reset_while_redis_is_down(redis_cache, monkeypatch):
    verified_user("lou@example.org")
    redis_cache.stop()
    with dependency_calls(monkeypatch) as seen:
        r = Client().post("/accounts/password/reset/", {"email": "lou@example.org"})
    assert r.status_code == 302 and r.url == "/accounts/password/reset/done/"
    assert len(mail.outbox) == 1 and "lou@example.org" in mail.outbox[0].to
    assert_one_redis_timeout_at_most(seen)


@pytest.mark.django_db
def test_it_still_limits_failed_logins_while_redis_is_up(redis_cache, settings):
    # The fallbacks only apply to an outage: with Redis up, the limit holds.
    settings.ACCOUNT_RATE_LIMITS = {"login_failed": "2/m/ip"}
    verified_user("lou@example.org")
    client = Client()
    for _ in range(2):
        wrong = client.post("/accounts/login/", {"login": "lou@example.org", "password": "not-the-pass-phrase"})
        assert wrong.status_code == 200 and "Trop de tentatives" not in wrong.content.decode()
    refused = log_in(client)
    assert refused.status_code == 200
    assert "Trop de tentatives de connexion" in refused.content.decode()
    assert not client.get("/sheets/").wsgi_request.user.is_authenticated


def test_every_operation_of_the_redis_cache_fails_open_while_redis_is_down(redis_server, monkeypatch):
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    from django.core.cache.backends.redis import RedisCache

    from web.cache import FALLBACKS, FailOpenRedisCache

    # Each operation Django's RedisCache implements has its fallback; BaseCache builds the others on them.
    own = {name for name, value in vars(RedisCache).items() if callable(value) and not name.startswith("_")}
    assert own - {"get_backend_timeout"} == set(FALLBACKS)
    cache = FailOpenRedisCache(redis_server.url(), {"OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5}})
    cache.set("k", "stored")
    assert cache.get("k") == "stored"  # Redis up: a real cache
    redis_server.stop()
    with dependency_calls(monkeypatch) as seen:
        # Redis away: an empty cache that accepts every write, and counters at their first hit.
        assert cache.get("k", "default") == "default"
        assert cache.get_many(["k", "j"]) == {}
        assert cache.add("k", 1) is True
        assert cache.get_or_set("k", 5) == 5
        assert cache.set("k", 1) is None
        assert cache.set_many({"k": 1}) == []
        assert cache.touch("k") is False
        assert cache.delete("k") is False
        assert cache.delete_many(["k"]) is None
        assert cache.has_key("k") is False and "k" not in cache
        assert (cache.incr("n"), cache.incr("n", 5), cache.decr("n")) == (1, 5, -1)
        with pytest.raises(ValueError):  # as on an empty cache: no such key
            cache.incr_version("k")
        assert cache.clear() is None
        with ThreadPoolExecutor(1) as pool:  # a loop of its own: this thread may hold one (the browser tests')
            assert pool.submit(asyncio.run, cache.aget("k", "default")).result() == "default"
            assert pool.submit(asyncio.run, cache.aadd("k", 1)).result() is True
    # The first call found Redis away; every later one answered its fallback without trying.
    assert_one_redis_timeout_at_most(seen)


# --- Health: liveness never waits on a dependency; readiness answers quickly ---------------


@pytest.mark.django_db
def test_it_reports_ready_when_every_part_answers(redis_cache, redis_broker):
    r = Client().get("/readyz")
    assert r.status_code == 200
    assert r.json() == {"database": "ok", "broker": "ok", "cache": "ok", "ok": True}


@pytest.mark.django_db
def test_it_answers_health_at_once_and_readiness_503_quickly_while_redis_hangs(redis_cache, redis_broker):
    redis_broker.pause()  # SIGSTOP: connections are accepted, nothing is ever answered
    client = Client()
    live, seen = within(10, lambda: client.get("/healthz"))
    assert live.status_code == 200 and live.json() == {"ok": True}
    assert_asks_nothing(seen)
    for url in ("/readyz", "/healthz?deep=1"):
        ready, seen = within(10, lambda url=url: client.get(url))
        assert ready.status_code == 503, url
        report = ready.json()
        assert report["ok"] is False and report["database"] == "ok"
        assert report["broker"].startswith("error") and report["cache"].startswith("error"), report
        assert_probes_give_up_quickly(seen)


@pytest.mark.django_db
def test_it_reports_not_ready_while_redis_is_down(redis_cache, redis_broker):
    redis_broker.stop()
    assert Client().get("/healthz").status_code == 200
    ready = Client().get("/readyz")
    assert ready.status_code == 503
    assert ready.json()["broker"].startswith("error") and ready.json()["cache"].startswith("error")


# --- Production errors: a 500 leaves its traceback and request id on stderr ---------------

PRODUCTION_REQUEST = """
import django
django.setup()
from django.test import Client, override_settings
with override_settings(ROOT_URLCONF="tests.failing_urls"):
    r = Client(raise_request_exception=False).get("/fail/", secure=True, headers={"X-Request-ID": %r})
print(r.status_code, r.headers.get("X-Request-ID", "-"))
"""


def production_request(tmp_path, request_id):
    """Serve one failing request in a process started as production starts it (DEBUG=0)."""
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL", "LOG_LEVEL")}
    env.update(
        DEBUG="0",
        SECRET_KEY="a-production-like-secret-key-" + "x" * 40,
        ALLOWED_HOSTS="testserver",
        VAR_DIR=str(tmp_path),
        DJANGO_SETTINGS_MODULE="numapp.settings",
    )
    done = subprocess.run(
        [sys.executable, "-c", PRODUCTION_REQUEST % request_id],
        cwd=Path(__file__).resolve().parent.parent,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    status, header = done.stdout.split()
    return int(status), header, done.stderr


def test_it_logs_a_500_with_its_traceback_and_request_id_on_stderr_with_debug_off(tmp_path):
    status, header, stderr = production_request(tmp_path, "lb-7f3a-42")
    assert status == 500 and header == "lb-7f3a-42"
    lines = [line for line in stderr.splitlines() if "Internal Server Error: /fail/" in line]
    assert lines, f"no 500 logged on stderr: {stderr!r}"
    assert "ERROR django.request [request_id=lb-7f3a-42]" in lines[0]
    assert "Traceback (most recent call last)" in stderr
    assert "tests.failing_urls.ScoresTableOnFire: the scores table caught fire" in stderr


def test_it_replaces_an_unsafe_incoming_request_id_in_the_header_and_the_log(tmp_path):
    status, header, stderr = production_request(tmp_path, 'x" forged=1')
    assert status == 500 and re.fullmatch(r"[0-9a-f]{32}", header)
    assert f"[request_id={header}] Internal Server Error: /fail/" in stderr
    assert "forged" not in stderr


def test_it_gives_every_response_a_request_id(client):
    first, second = client.get("/healthz"), client.get("/healthz")
    assert re.fullmatch(r"[0-9a-f]{32}", first["X-Request-ID"])
    assert first["X-Request-ID"] != second["X-Request-ID"]
    assert client.get("/healthz", headers={"X-Request-ID": "abc-123"})["X-Request-ID"] == "abc-123"
    assert len(client.get("/healthz", headers={"X-Request-ID": "a" * 129})["X-Request-ID"]) == 32
