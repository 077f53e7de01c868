import os
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.core.cache import caches
from hypothesis import settings as hypothesis_settings
from hypothesis.configuration import set_hypothesis_home_dir
from hypothesis.database import DirectoryBasedExampleDatabase

from tests.fuzzing import FUZZ

# Hypothesis keeps its files in var/ (ignored by git), never in the working tree.
HYPOTHESIS_HOME = Path(__file__).resolve().parent.parent / "var" / "hypothesis"
set_hypothesis_home_dir(HYPOTHESIS_HOME)
# make test: the same examples on every run, so a run never fails by chance (tests/fuzzing.py).
hypothesis_settings.register_profile("numapp", derandomize=True, database=None, deadline=None, print_blob=True)
# make fuzz: new examples each run; what failed is kept and tried first next time.
hypothesis_settings.register_profile(
    "fuzz", database=DirectoryBasedExampleDatabase(HYPOTHESIS_HOME / "examples"), deadline=None, print_blob=True
)
hypothesis_settings.load_profile("fuzz" if FUZZ else "numapp")


# `make test` runs the suite in several processes (pytest-xdist): each has its own test
# database (pytest-django suffixes its name with the worker id, gw0, gw1…) and, on a shared
# Redis (REDIS_URL), its own keys, so that one process's clearing leaves the others' alone.
XDIST_WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")
if XDIST_WORKER:
    django_settings.CACHES["default"]["KEY_PREFIX"] = XDIST_WORKER
    if django_settings.CACHES["default"]["BACKEND"] == "web.cache.FailOpenRedisCache":
        django_settings.CACHES["default"]["BACKEND"] = "tests.worker_cache.WorkerRedisCache"


def pytest_collection_modifyitems(config, items):
    """Run the browser tests first: the longest ones start early, and the quick ones fill the
    processes' last minutes instead of one process finishing a long test alone."""
    items.sort(key=lambda item: item.get_closest_marker("browser") is None)


@pytest.fixture(autouse=True)
def _fresh_cache():
    # Throttle counters live in the cache; each test starts from zero.
    caches["default"].clear()  # on a shared Redis, only this process's keys (tests/worker_cache.py)
    yield


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    # Tests log in often; the real hasher is slow by design.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def redis_server():
    """Start a redis-server of the test's own on a free port; kill it (and resume it if paused) after."""
    from tests.redis_server import RedisServer, require_redis_server

    server = RedisServer(require_redis_server()).start()
    try:
        yield server
    finally:
        server.close()


@pytest.fixture
def redis_cache(redis_server, settings):
    """Point the default cache at the test's own Redis, as production points it at REDIS_URL."""
    settings.CACHES = {
        "default": {
            "BACKEND": "web.cache.FailOpenRedisCache",
            "LOCATION": redis_server.url(),
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        }
    }
    return redis_server


@pytest.fixture
def redis_broker(redis_server, settings):
    """Point Celery's broker at the test's own Redis (numapp/celery.py follows the settings)."""
    settings.CELERY_BROKER_URL = redis_server.url(1)
    settings.CELERY_BROKER_TRANSPORT_OPTIONS = {}
    return redis_server


@pytest.fixture(scope="session")
def live_server(django_db_setup, django_db_blocker):
    """The app under uvicorn, as production runs it (tests/asgi_server.py), for the whole session."""
    from tests.asgi_server import AsgiLiveServer

    server = AsgiLiveServer()
    try:
        yield server
    finally:
        server.stop()
        _close_the_servers_connections(django_db_blocker)


def _close_the_servers_connections(django_db_blocker):
    """Close what the stopped server's threads kept open (DB_CONN_MAX_AGE), so that the test
    database can be dropped: on PostgreSQL, the other sessions of this process's own test
    database are ended (each process has a database of its own; nothing else connects to it)."""
    from django.db import connection

    if connection.vendor != "postgresql":
        return
    with django_db_blocker.unblock(), connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
