import pytest
from django.core.cache import caches
from django.test import override_settings
from rest_framework.throttling import ScopedRateThrottle

from tests.dependencies import assert_one_redis_timeout_at_most, dependency_calls

BODY = {"players": ["A", "B"], "rounds": [{"entries": {"A": {"points": 1}, "B": {"points": 2}}}]}


@pytest.fixture
def tight(monkeypatch):
    monkeypatch.setattr(ScopedRateThrottle, "THROTTLE_RATES", {**ScopedRateThrottle.THROTTLE_RATES, "score": "2/min"})


def score(client, lang="fr"):
    return client.post(
        "/api/v1/games/numx-malus/score/", BODY, content_type="application/json", HTTP_ACCEPT_LANGUAGE=lang
    )


def test_it_answers_429_with_a_clear_message_past_the_limit(client, tight):
    assert score(client).status_code == 200
    assert score(client).status_code == 200
    r = score(client)
    assert r.status_code == 429
    assert "Trop de demandes" in r.json()["detail"]
    assert int(r["Retry-After"]) >= 1
    assert "Too many requests" in score(client, "en").json()["detail"]


DEAD_REDIS = {
    "default": {
        "BACKEND": "web.cache.FailOpenRedisCache",
        "LOCATION": "redis://127.0.0.1:1/0",  # nothing listens on port 1
        "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
    }
}


def test_it_lets_requests_through_when_redis_is_unreachable(client, tight, monkeypatch):
    with override_settings(CACHES=DEAD_REDIS):
        caches._settings = None  # let the handler read the overridden settings
        try:
            with dependency_calls(monkeypatch) as seen:
                for _ in range(4):
                    assert score(client).status_code == 200
        finally:
            caches._settings = None
    # Past the limit of two, and Redis was tried once: each request did not wait on it.
    assert_one_redis_timeout_at_most(seen)


def test_it_refuses_a_body_over_the_size_limit(client, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 2048
    big = {"players": ["A" * 30] * 2, "rounds": [{"entries": {}}] * 200}
    r = client.post("/api/v1/games/numx/score/", big, content_type="application/json")
    assert r.status_code in (400, 413)
    assert r["Content-Type"].startswith("application/json")
