"""The page and API limits: DRF's throttle on any Django cache, open when the cache's server is away."""

import types

import pytest
from django.core.cache import caches
from django.test import Client, RequestFactory, override_settings
from rest_framework.throttling import ScopedRateThrottle

from scoring.models import Sheet
from web.ratelimit import PageThrottle

pytestmark = pytest.mark.django_db

DEAD_REDIS = {
    "default": {
        "BACKEND": "web.cache.FailOpenRedisCache",
        "LOCATION": "redis://127.0.0.1:1/0",  # nothing listens on port 1
        "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
    }
}


def using(caches_setting):
    caches._settings = None  # let the handler read the overridden settings
    return override_settings(CACHES=caches_setting)


@pytest.fixture(autouse=True)
def _default_cache_again():
    yield
    caches._settings = None


@pytest.fixture
def tight(monkeypatch):
    monkeypatch.setattr(
        ScopedRateThrottle, "THROTTLE_RATES", {**ScopedRateThrottle.THROTTLE_RATES, "sheet_create": "2/min"}
    )


def test_it_counts_on_any_django_cache(tight, monkeypatch):
    clock = types.SimpleNamespace(now=120.0)
    monkeypatch.setattr(PageThrottle, "timer", lambda self: clock.now)
    request = RequestFactory().post("/new/coop/", REMOTE_ADDR="192.0.2.1")
    request.user = types.SimpleNamespace(is_authenticated=False)
    view = types.SimpleNamespace(throttle_scope="sheet_create")
    with using({"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "rl"}}):
        throttle = PageThrottle()
        assert [throttle.allow_request(request, view) for _ in range(4)] == [True, True, False, False]
        assert throttle.wait() == 60.0
        clock.now = 180.0  # a minute after the first two: they no longer count
        assert throttle.allow_request(request, view)


def test_it_lets_requests_through_when_the_cache_fails(tight):
    with using(DEAD_REDIS):
        client = Client()
        codes = [client.post("/new/coop/", {"player": ["A", "B"]}).status_code for _ in range(3)]
        assert codes == [302, 302, 302]
    assert Sheet.objects.count() == 3
