"""An anonymous sheet is kept 48 hours after its last change (docs/rules.md, "Score sheets").

A round saved, edited or removed, an entry of the round in progress or a restore moves
its expiry forward, in the change's own transaction: a table that plays for days never
loses its sheet, and the banner's « jusqu'au … » follows.
"""

import html
import re
import threading
import types
from datetime import timedelta

import pytest
from django.db import connection
from django.test import Client
from django.utils import formats, timezone, translation

from scoring import services, tokens
from scoring.models import Round, Sheet
from tests.web.test_pages import start

pytestmark = pytest.mark.django_db
TTL = timedelta(hours=48)


@pytest.fixture
def clock(monkeypatch):
    """Stand in for the wall clock: every `timezone.now()` of the app reads `clock.now`."""
    state = types.SimpleNamespace(now=timezone.now())
    monkeypatch.setattr(timezone, "now", lambda: state.now)
    return state


def expiry(sheet) -> timezone.datetime:
    return Sheet.objects.get(pk=sheet.pk).expires_at


def until(when) -> str:
    """Return the banner's « jusqu'au … » date as the French page writes it."""
    with translation.override("fr"):
        return formats.date_format(timezone.localtime(when), "SHORT_DATETIME_FORMAT")


def test_it_keeps_a_sheet_48_hours_after_its_last_change_and_every_round_played_across_the_mark(client, clock):
    sheet = start(client, "numx-malus", ["Léa", "Tom"], scoring="competition")
    born = clock.now
    assert expiry(sheet) == born + TTL

    def just_before_the_mark():
        """Move the clock to one minute before the sheet would go: the table plays on then."""
        clock.now = expiry(sheet) - timedelta(minutes=1)
        return clock.now

    # A round saved from the page, 47 h 59 after the sheet was made.
    changed = just_before_the_mark()
    r = client.post(f"/sheets/{sheet.pk}/rounds/", {"number": "1", "points-0": "3", "points-1": "0"})
    assert r.status_code == 302
    assert expiry(sheet) == changed + TTL
    # A minute past the first mark the sheet still answers, and takes round 2 through the API.
    clock.now = born + TTL + timedelta(minutes=1)
    assert client.get(f"/sheets/{sheet.pk}/").status_code == 200
    changed = clock.now
    r = client.post(
        f"/api/v1/sheets/{sheet.pk}/rounds/",
        {"entries": {"Léa": {"points": 2}, "Tom": {"points": 0}}, "number": 2},
        content_type="application/json",
    )
    assert r.status_code == 201, r.content
    assert r.json()["expires_at"] is not None
    assert expiry(sheet) == changed + TTL
    # An entry of the round in progress, from a player's own phone.
    changed = just_before_the_mark()
    seat = f"/p/{sheet.pk}/1/{tokens.entry_token(sheet.pk, 1)}/"
    assert client.post(seat, {"number": "3", "points-1": "1"}).status_code == 302
    assert expiry(sheet) == changed + TTL
    # A round edited.
    changed = just_before_the_mark()
    r = client.post(f"/sheets/{sheet.pk}/rounds/1/edit/", {"points-0": "5", "points-1": "0"})
    assert r.status_code == 302
    assert expiry(sheet) == changed + TTL
    # A round removed, then put back.
    changed = just_before_the_mark()
    assert client.post(f"/sheets/{sheet.pk}/undo/").status_code == 302
    assert expiry(sheet) == changed + TTL
    page = client.get(f"/sheets/{sheet.pk}/").content.decode()
    restore = re.search(r'name="token" value="([^"]+)"', page)[1]
    changed = just_before_the_mark()
    assert client.post(f"/sheets/{sheet.pk}/restore/", {"token": restore}).status_code == 302
    assert expiry(sheet) == changed + TTL
    # A refused write changes nothing, its expiry included.
    clock.now += timedelta(minutes=30)
    r = client.post(f"/sheets/{sheet.pk}/rounds/", {"number": "3", "points-0": "abc", "points-1": "1"})
    assert r.status_code == 400
    assert expiry(sheet) == changed + TTL

    # More than four days after the sheet was made, 47 hours after its last change:
    # the purge keeps it, and every round is there.
    clock.now = changed + TTL - timedelta(hours=1)
    assert clock.now - born > timedelta(days=4)
    assert Sheet.objects.purge_expired() == 0
    assert list(Round.objects.filter(sheet=sheet).values_list("number", flat=True)) == [1, 2]
    assert [r.data["entries"]["Léa"] for r in Round.objects.filter(sheet=sheet)] == [{"points": 5}, {"points": 2}]
    page = html.unescape(client.get(f"/sheets/{sheet.pk}/").content.decode())
    assert f"(jusqu'au {until(changed + TTL)})" in page
    # 48 hours after the last change, with nothing played since, it goes.
    clock.now = changed + TTL + timedelta(minutes=1)
    assert client.get(f"/sheets/{sheet.pk}/").status_code == 404
    assert Sheet.objects.purge_expired() == 1


@pytest.mark.parametrize(
    ("hours", "french", "english"),
    [
        (48, "Scores conservés 48 heures après la dernière modification", "Scores kept 48 hours after the last change"),
        (1, "Scores conservés 1 heure après la dernière modification", "Scores kept 1 hour after the last change"),
        (72, "Scores conservés 72 heures après la dernière modification", "Scores kept 72 hours after the last change"),
    ],
)
def test_it_says_the_real_time_a_sheet_is_kept(settings, hours, french, english):
    settings.ANONYMOUS_SHEET_TTL = timedelta(hours=hours)
    client = Client()
    sheet = start(client, "numx", ["Léa", "Tom"])
    assert expiry(sheet) - sheet.created_at == timedelta(hours=hours)
    for path in (f"/sheets/{sheet.pk}/", "/sheets/"):
        assert french in html.unescape(client.get(path).content.decode())
        assert english in client.get(path, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    gone = html.unescape(client.get("/sheets/not-a-sheet/").content.decode())
    plural = "s" if hours > 1 else ""
    assert f"une feuille sans compte est gardée {hours} heure{plural} après sa dernière modification" in gone


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="a purge beside a writer needs two connections")
def test_it_keeps_a_sheet_whose_round_is_being_saved_while_the_purge_runs_past_its_mark(monkeypatch):
    """The round's transaction holds the sheet while the purge looks past the old mark: the sheet stays."""
    created = services.sheet_create(game="numx-malus", players=["Léa", "Tom"], options={"scoring": "competition"})
    sheet = created.sheet
    mark = timezone.now() + timedelta(seconds=30)
    Sheet.objects.filter(pk=sheet.pk).update(expires_at=mark)
    storing, release = threading.Event(), threading.Event()
    store = services._store

    def slow_store(*args):
        store(*args)
        storing.set()
        release.wait(10)

    monkeypatch.setattr(services, "_store", slow_store)

    def play():
        try:
            services.round_add(sheet=sheet, data={"entries": {"Léa": {"points": 3}, "Tom": {"points": 0}}})
        finally:
            connection.close()

    thread = threading.Thread(target=play)
    thread.start()
    assert storing.wait(10)
    try:
        assert Sheet.objects.purge_expired(now=mark + timedelta(minutes=1)) == 0  # locked by the round: skipped
    finally:
        release.set()
        thread.join(10)
    assert Sheet.objects.purge_expired(now=mark + timedelta(minutes=1)) == 0  # its expiry moved with the round
    assert Sheet.objects.get(pk=sheet.pk).expires_at > mark + timedelta(hours=47)
    assert Round.objects.filter(sheet_id=sheet.pk).count() == 1
