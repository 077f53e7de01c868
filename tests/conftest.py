import pytest
from django.core.cache import cache


@pytest.fixture(autouse=True)
def _fresh_cache():
    # Throttle counters live in the cache; each test starts from zero.
    cache.clear()
    yield
