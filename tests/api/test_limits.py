import pytest

from scoring.api.throttles import FailOpenScopedThrottle

BODY = {"players": ["A", "B"], "rounds": [{"entries": {"A": {"points": 1}, "B": {"points": 2}}}]}


@pytest.fixture
def tight(monkeypatch):
    monkeypatch.setattr(
        FailOpenScopedThrottle, "THROTTLE_RATES", {**FailOpenScopedThrottle.THROTTLE_RATES, "score": "2/min"}
    )


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


def test_it_lets_requests_through_when_the_cache_is_down(client, tight, monkeypatch):
    from django.core.cache import cache

    def down(*args, **kwargs):
        raise ConnectionError("cache unreachable")

    monkeypatch.setattr(cache, "get", down)
    for _ in range(4):
        assert score(client).status_code == 200


def test_it_refuses_a_body_over_the_size_limit(client, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 2048
    big = {"players": ["A" * 30] * 2, "rounds": [{"entries": {}}] * 200}
    r = client.post("/api/v1/games/numx/score/", big, content_type="application/json")
    assert r.status_code in (400, 413)
    assert r["Content-Type"].startswith("application/json")
