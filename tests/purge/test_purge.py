"""The 48-hour purge, through a real Celery worker on the configured broker."""

import threading
import time
from datetime import timedelta

import pytest
from celery.contrib.testing.worker import start_worker
from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.utils import timezone

from numapp.celery import app
from scoring import services
from scoring.models import Player, Round, Sheet, delete_expired_batch
from scoring.tasks import purge_expired_sheets

KING = ["Elya", "Sasha"]


def make_sheet(age: timedelta, *, user=None) -> Sheet:
    """Create a Num King sheet with one round, as if created `age` ago."""
    created = services.sheet_create(game="numking", players=KING, options={}, owner_key="k", user=user)
    services.round_add(
        sheet=created.sheet, data={"entries": {"Elya": {"bid": 1, "tricks": 1}, "Sasha": {"bid": 0, "tricks": 0}}}
    )
    born = timezone.now() - age
    Sheet.objects.filter(pk=created.sheet.pk).update(
        created_at=born, expires_at=None if user else born + timedelta(hours=48)
    )
    return created.sheet


def wait_until(predicate, timeout=20.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.1)
    return False


@pytest.fixture
def worker(transactional_db):
    with start_worker(
        app, perform_ping_check=False, pool="solo", concurrency=1, loglevel="WARNING", shutdown_timeout=10
    ):
        yield


def test_it_purges_through_a_real_worker(worker):
    young = make_sheet(timedelta(hours=47, minutes=59))
    old = make_sheet(timedelta(hours=48, minutes=1))
    owner = get_user_model().objects.create_user("owner", "owner@example.org", "pw-123456789")
    owned = make_sheet(timedelta(days=30), user=owner)

    purge_expired_sheets.delay()

    assert wait_until(lambda: not Sheet.objects.filter(pk=old.pk).exists())
    assert not Round.objects.filter(sheet_id=old.pk).exists()
    assert not Player.objects.filter(sheet_id=old.pk).exists()
    assert Sheet.objects.filter(pk__in=[young.pk, owned.pk]).count() == 2
    assert Round.objects.filter(sheet_id=young.pk).count() == 1
    assert Player.objects.filter(sheet_id=owned.pk).count() == 2


@pytest.mark.django_db
def test_it_deletes_nothing_the_second_time():
    make_sheet(timedelta(hours=49))
    make_sheet(timedelta(hours=1))
    assert Sheet.objects.purge_expired() == 1
    assert Sheet.objects.purge_expired() == 0
    assert Sheet.objects.count() == 1


@pytest.mark.django_db
def test_it_purges_in_batches():
    for _ in range(7):
        make_sheet(timedelta(hours=50))
    assert Sheet.objects.purge_expired(batch_size=3) == 7
    assert Round.objects.count() == 0 and Player.objects.count() == 0


@pytest.mark.django_db
def test_it_never_deletes_a_sheet_claimed_between_select_and_delete():
    sheet = make_sheet(timedelta(hours=50))
    other = make_sheet(timedelta(hours=50))
    owner = get_user_model().objects.create_user("late", "late@example.org", "pw-123456789")
    cutoff = timezone.now()
    with transaction.atomic():
        ids = Sheet.objects.expired_ids(cutoff, limit=10)
        assert sorted(ids) == sorted([sheet.pk, other.pk])
        # The claim lands after the batch was selected: the DELETE re-checks.
        Sheet.objects.filter(pk=sheet.pk).update(user=owner, expires_at=None)
        assert delete_expired_batch(ids, cutoff) == 1
    assert Sheet.objects.filter(pk=sheet.pk, user=owner).exists()
    assert Round.objects.filter(sheet_id=sheet.pk).count() == 1
    assert Player.objects.filter(sheet_id=sheet.pk).count() == 2
    assert not Sheet.objects.filter(pk=other.pk).exists()


@pytest.mark.skipif(connection.vendor != "postgresql", reason="concurrent transactions need PostgreSQL")
@pytest.mark.django_db(transaction=True)
def test_it_skips_a_sheet_being_claimed_while_a_batch_runs_and_keeps_it():
    """A claim holds its row while the purge runs from another connection: nothing is lost."""
    claimed, doomed = make_sheet(timedelta(hours=50)), make_sheet(timedelta(hours=50))
    owner = get_user_model().objects.create_user("racer", "racer@example.org", "pw-123456789")
    locked, release = threading.Event(), threading.Event()

    def claim():
        try:
            with transaction.atomic():
                Sheet.objects.select_for_update().filter(pk=claimed.pk).update(user=owner, expires_at=None)
                locked.set()
                release.wait(10)
        finally:
            connection.close()

    thread = threading.Thread(target=claim)
    thread.start()
    assert locked.wait(10)
    try:
        assert Sheet.objects.purge_expired() == 1  # the other sheet; the claimed one is skipped
        assert thread.is_alive()  # the purge did not wait for the claim to finish
    finally:
        release.set()
        thread.join(10)
    assert Sheet.objects.filter(pk=claimed.pk, user=owner).exists()
    assert Round.objects.filter(sheet_id=claimed.pk).count() == 1
    assert Player.objects.filter(sheet_id=claimed.pk).count() == 2
    assert not Sheet.objects.filter(pk=doomed.pk).exists()
    assert Sheet.objects.purge_expired() == 0
