"""The page and API limits on any Django cache: counted with add/incr, open when the cache fails."""

import pytest
from django.core.cache import caches
from django.core.cache.backends.locmem import LocMemCache
from django.test import Client, override_settings

from numapp import ratelimit
from scoring.models import Sheet

pytestmark = pytest.mark.django_db


class BrokenCache(LocMemCache):
    """A cache whose server is away: every write raises, as a client library's would."""

    def add(self, *args, **kwargs):
        raise ConnectionError("cache server away")

    def incr(self, *args, **kwargs):
        raise ConnectionError("cache server away")


def using(backend):
    caches._settings = None  # let the handler read the overridden settings
    return override_settings(CACHES={"default": {"BACKEND": backend, "LOCATION": "ratelimit-test"}})


@pytest.fixture(autouse=True)
def _default_cache_again():
    yield
    caches._settings = None


def test_it_counts_with_add_and_incr_on_a_cache_without_hit():
    with using("django.core.cache.backends.locmem.LocMemCache"):
        assert not hasattr(caches["default"], "hit")
        allowed = [ratelimit.count_hit("k", 2, 60, now=120.0)[0] for _ in range(4)]
        assert allowed == [True, True, False, False]
        assert ratelimit.count_hit("k", 2, 60, now=180.0) == (True, 60.0)  # the next window starts afresh


def test_it_lets_requests_through_when_the_cache_fails(monkeypatch):
    monkeypatch.setitem(ratelimit.LIMITS, "sheet_create", (1, 60))
    with using("tests.web.test_ratelimit_cache.BrokenCache"):
        client = Client()
        codes = [client.post("/new/coop/", {"player": ["A", "B"]}).status_code for _ in range(3)]
        assert codes == [302, 302, 302]
        assert ratelimit.count_hit("k", 1, 60, now=120.0) == (True, 60.0)
    assert Sheet.objects.count() == 3
