"""Retries and concurrent writes: Idempotency-Key, If-Match, one round per key."""

import threading

import pytest
from django.db import connection
from django.test import Client

from scoring.models import IdempotentRequest, Round
from tests.api.sheets import create as create_sheet

# Threads writing at once need a real server database: SQLite's shared in-memory test
# database has table locks and no busy wait.
needs_postgres = pytest.mark.skipif(connection.vendor != "postgresql", reason="concurrent writers need PostgreSQL")

ROUND = {"cards": 1, "entries": {"A": {"bid": 1, "tricks": 1}, "B": {"bid": 0, "tricks": 0}}}


def create(api):
    return create_sheet("numking", ["A", "B"], client=api)


def add(api, sheet, body, key):
    return api.post(
        f"/api/v1/sheets/{sheet['id']}/rounds/",
        body,
        content_type="application/json",
        HTTP_X_EDIT_TOKEN=sheet["edit_token"],
        HTTP_IDEMPOTENCY_KEY=key,
    )


def at_once(count, send):
    """Call `send()` from `count` threads started together; return what each returned."""
    results = []

    def run():
        try:
            results.append(send())
        finally:
            connection.close()  # each thread has its own database connection

    threads = [threading.Thread(target=run) for _ in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results


@pytest.mark.django_db
def test_it_makes_one_round_for_a_key_sent_three_times():
    api = Client()
    sheet = create(api)
    answers = [add(api, sheet, ROUND, "retry-1") for _ in range(3)]
    assert [a.status_code for a in answers] == [201, 201, 201]
    assert answers[0].json() == answers[1].json() == answers[2].json()
    assert answers[2]["Idempotent-Replayed"] == "true"
    assert Round.objects.filter(sheet_id=sheet["id"]).count() == 1


@pytest.mark.django_db
def test_it_refuses_the_same_key_with_another_body():
    api = Client()
    sheet = create(api)
    assert add(api, sheet, ROUND, "k").status_code == 201
    other = {**ROUND, "entries": {"A": {"bid": 0, "tricks": 0}, "B": {"bid": 1, "tricks": 1}}}
    r = add(api, sheet, other, "k")
    assert r.status_code == 422
    assert r.json()["errors"][0]["path"] == "Idempotency-Key"
    assert Round.objects.count() == 1


@needs_postgres
@pytest.mark.django_db(transaction=True)
def test_it_makes_one_round_for_a_key_sent_concurrently():
    api = Client()
    sheet = create(api)
    results = at_once(3, lambda: add(Client(), sheet, ROUND, "same"))
    assert sorted(r.status_code for r in results) == [201, 201, 201]
    assert results[0].json() == results[1].json() == results[2].json()
    assert Round.objects.filter(sheet_id=sheet["id"]).count() == 1
    assert IdempotentRequest.objects.count() == 1


@needs_postgres
@pytest.mark.django_db(transaction=True)
def test_it_never_gives_a_500_when_two_phones_add_at_once():
    api = Client()
    sheet = create(api)
    results = at_once(
        2,
        lambda: (
            Client()
            .post(
                f"/api/v1/sheets/{sheet['id']}/rounds/",
                ROUND,
                content_type="application/json",
                HTTP_X_EDIT_TOKEN=sheet["edit_token"],
                HTTP_IF_MATCH='"1"',
            )
            .status_code
        ),
    )
    # Both asked for version 1: one wins, the other is told the sheet changed.
    assert sorted(results) == [201, 412]
    assert Round.objects.filter(sheet_id=sheet["id"]).count() == 1


@pytest.mark.django_db
def test_it_answers_409_when_the_round_was_added_by_another_phone():
    api = Client()
    sheet = create(api)
    first = add(api, sheet, {**ROUND, "number": 1}, "")
    assert first.status_code == 201
    again = add(api, sheet, {**ROUND, "number": 1}, "")
    assert again.status_code == 409
    assert again.json()["errors"][0]["code"] == "conflict"
    assert add(api, sheet, {**ROUND, "number": 0}, "").status_code == 400
    assert Round.objects.filter(sheet_id=sheet["id"]).count() == 1


@needs_postgres
@pytest.mark.django_db(transaction=True)
def test_it_gives_one_201_and_one_409_when_two_phones_add_the_same_round():
    api = Client()
    sheet = create(api)
    results = at_once(2, lambda: add(Client(), sheet, {**ROUND, "number": 1}, "").status_code)
    assert sorted(results) == [201, 409]
    assert Round.objects.filter(sheet_id=sheet["id"]).count() == 1
