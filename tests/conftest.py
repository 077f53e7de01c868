import pytest
from django.core.cache import cache


@pytest.fixture(autouse=True)
def _fresh_cache():
    # Throttle counters live in the cache; each test starts from zero.
    cache.clear()
    yield


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    # Tests log in often; the real hasher is slow by design.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
