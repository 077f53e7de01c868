"""A replayed idempotent answer is the first answer again: status, body and headers."""

import pytest
from django.test import Client

from scoring.models import Round

pytestmark = pytest.mark.django_db
ROUND = {"cards": 1, "entries": {"A": {"bid": 1, "tricks": 1}, "B": {"bid": 0, "tricks": 0}}}


def test_it_replays_the_first_answer_with_its_etag_and_no_store():
    api = Client()
    sheet = api.post("/api/v1/sheets/", {"game": "numking", "players": ["A", "B"]}, content_type="application/json")
    sheet = sheet.json()

    def send():
        return api.post(
            f"/api/v1/sheets/{sheet['id']}/rounds/",
            ROUND,
            content_type="application/json",
            HTTP_X_EDIT_TOKEN=sheet["edit_token"],
            HTTP_IDEMPOTENCY_KEY="table-7-round-1",
        )

    first, again = send(), send()
    assert first.status_code == again.status_code == 201
    assert again.json() == first.json()
    assert first["ETag"] == f'"{first.json()["version"]}"'
    assert again["ETag"] == first["ETag"]
    assert first["Cache-Control"] == again["Cache-Control"] == "no-store"
    assert again["Idempotent-Replayed"] == "true" and "Idempotent-Replayed" not in first
    assert Round.objects.filter(sheet_id=sheet["id"]).count() == 1
    # Nothing changed since: the replayed ETag is the sheet's current one.
    r = api.get(f"/api/v1/sheets/{sheet['id']}/", HTTP_X_EDIT_TOKEN=sheet["edit_token"])
    assert r["ETag"] == again["ETag"]
