"""The live table's event stream, served by uvicorn: who may listen, what each hears, resume, commits only."""

import time

import pytest
from django.contrib.auth import get_user_model
from django.db import transaction
from django.test import Client

from scoring import live, services
from scoring.models import Sheet
from tests.api.sheets import create
from tests.sse import Stream

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.timeout_sensitive]
KING = ["Léa", "Marc", "Nina"]


def make(players=KING, game="numking"):
    return create(game, players)


def share_token(sheet):
    return sheet["share_url"].rstrip("/").rsplit("/", 1)[1]


def seat_token(sheet, name):
    return sheet["seat_urls"][name].rstrip("/").rsplit("/", 1)[1]


def events_url(live_server, sheet, query=""):
    return f"{live_server.url}/api/v1/sheets/{sheet['id']}/events/{query}"


def put_entry(sheet, name, entry):
    r = Client().put(
        f"/api/v1/sheets/{sheet['id']}/draft/entries/{name}/",
        entry,
        content_type="application/json",
        HTTP_X_SEAT_TOKEN=seat_token(sheet, name),
    )
    assert r.status_code == 200, r.content
    return r.json()


def add_round(sheet, round_):
    r = Client().post(
        f"/api/v1/sheets/{sheet['id']}/rounds/", round_, content_type="application/json",
        HTTP_X_EDIT_TOKEN=sheet["edit_token"],
    )  # fmt: skip
    assert r.status_code == 201, r.content
    return r.json()


ROUND_1 = {
    "cards": 1,
    "entries": {"Léa": {"bid": 1, "tricks": 1}, "Marc": {"bid": 0, "tricks": 0}, "Nina": {"bid": 0, "tricks": 0}},
}


@pytest.fixture
def stream_of(live_server):
    opened = []

    def open_(sheet, query="", headers=None):
        s = Stream(events_url(live_server, sheet, query), headers)
        opened.append(s)
        return s

    yield open_
    for s in opened:
        s.close()


def test_the_editor_hears_the_current_version_then_each_committed_change(stream_of):
    sheet = make()
    s = stream_of(sheet, headers={"X-Edit-Token": sheet["edit_token"]})
    assert s.status == 200
    assert s.response.getheader("Content-Type").startswith("text/event-stream")
    assert s.response.getheader("Content-Encoding") is None
    first = s.sheet()
    assert first["version"] == 1 and first["rounds"] == 0 and first["draft"]["number"] == 1

    put_entry(sheet, "Léa", {"bid": 1})
    bid = s.sheet()
    assert bid["version"] == 2
    assert bid["draft"]["entries"] == {"Léa": {"bid": 1}}

    add_round(sheet, ROUND_1)
    saved = s.sheet()
    assert saved["version"] == 3 and saved["rounds"] == 1
    assert saved["draft"] == {"number": 2, "entries": {}, "fields": {}, "entered": []}


def test_an_announced_change_carries_its_commit_time(stream_of):
    sheet = make()
    s = stream_of(sheet, headers={"X-Edit-Token": sheet["edit_token"]})
    assert "at" not in s.sheet()  # the state on connect is no announcement
    before = time.time()
    put_entry(sheet, "Léa", {"bid": 1})
    after = time.time()
    bid = s.sheet()
    assert bid["version"] == 2
    assert round(before, 3) <= bid["at"] <= round(after, 3) + 0.001


def test_an_event_carries_the_version_as_its_id(stream_of):
    sheet = make()
    s = stream_of(sheet, headers={"X-Edit-Token": sheet["edit_token"]})
    first = s.next()
    assert first["event"] == "sheet" and first["id"] == "1"


def test_a_watcher_and_a_player_hear_the_bids_but_not_the_rest_of_an_entry(stream_of):
    sheet = make()
    watcher = stream_of(sheet, f"?share={share_token(sheet)}")
    player = stream_of(sheet, f"?seat={seat_token(sheet, 'Marc')}")
    by_header = stream_of(sheet, headers={"X-Seat-Token": seat_token(sheet, "Nina")})
    for s in (watcher, player, by_header):
        assert s.status == 200
        assert s.sheet()["version"] == 1
    put_entry(sheet, "Léa", {"bid": 1, "tricks": 0})
    for s in (watcher, player, by_header):
        heard = s.sheet()
        assert heard["version"] == 2
        assert heard["draft"]["entries"] == {"Léa": {"bid": 1}}
        assert heard["draft"]["entered"] == ["Léa"]


def test_a_hand_of_cards_stays_on_the_sheets_phone_until_the_round_is_saved(stream_of):
    sheet = make(["Ana", "Ben"], game="numx")
    watcher = stream_of(sheet, f"?share={share_token(sheet)}")
    assert watcher.sheet()["version"] == 1
    r = Client().put(
        f"/api/v1/sheets/{sheet['id']}/draft/entries/Ana/", {"points": 12}, content_type="application/json",
        HTTP_X_SEAT_TOKEN=seat_token(sheet, "Ana"),
    )  # fmt: skip
    assert r.status_code == 200, r.content
    heard = watcher.sheet()
    assert heard["draft"]["entries"] == {} and heard["draft"]["entered"] == ["Ana"]


@pytest.mark.parametrize(
    "query, headers",
    [
        ("", {}),
        ("?share=not-a-token", {}),
        ("?seat=not-a-token", {}),
        ("", {"X-Edit-Token": "not-a-token"}),
    ],
)
def test_a_stranger_gets_404(live_server, query, headers):
    sheet = make()
    s = Stream(events_url(live_server, sheet, query), headers)
    try:
        assert s.status == 404
    finally:
        s.close()


def test_an_unknown_sheet_is_404(live_server):
    s = Stream(f"{live_server.url}/api/v1/sheets/nosuchsheet/events/")
    try:
        assert s.status == 404
    finally:
        s.close()


def test_a_phone_that_resumes_gets_only_what_it_missed(stream_of):
    sheet = make()
    put_entry(sheet, "Léa", {"bid": 1})  # version 2
    current = stream_of(sheet, headers={"X-Edit-Token": sheet["edit_token"], "Last-Event-ID": "2"})
    behind = stream_of(sheet, headers={"X-Edit-Token": sheet["edit_token"], "Last-Event-ID": "1"})
    by_query = stream_of(sheet, "?since=2", headers={"X-Edit-Token": sheet["edit_token"]})
    assert behind.sheet()["version"] == 2  # at once: it missed version 2
    put_entry(sheet, "Marc", {"bid": 0})  # version 3
    # The phones that had version 2 hear 3 first: nothing was sent again.
    assert current.sheet()["version"] == 3
    assert by_query.sheet()["version"] == 3
    assert behind.sheet()["version"] == 3


def test_a_write_that_rolled_back_is_never_announced(stream_of):
    sheet = make()
    s = stream_of(sheet, headers={"X-Edit-Token": sheet["edit_token"]})
    assert s.sheet()["version"] == 1
    stored = Sheet.objects.get(pk=sheet["id"])
    with pytest.raises(RuntimeError), transaction.atomic():
        services.round_add(sheet=stored, data=ROUND_1, lang="fr")  # would be version 2, with a round
        raise RuntimeError("rolled back")
    put_entry(sheet, "Nina", {"bid": 0})  # the committed version 2: no round, one bid
    heard = s.sheet()
    assert heard["version"] == 2
    assert heard["rounds"] == 0 and heard["draft"]["entries"] == {"Nina": {"bid": 0}}


def test_an_edit_links_stream_ends_when_the_sheet_goes_into_an_account(stream_of):
    sheet = make()
    by_link = stream_of(sheet, headers={"X-Edit-Token": sheet["edit_token"]})
    watcher = stream_of(sheet, f"?share={share_token(sheet)}")
    assert by_link.sheet()["version"] == 1 and watcher.sheet()["version"] == 1
    user = get_user_model().objects.create_user("zoe", "zoe@example.org", "pw-long-enough-1")
    assert services.sheet_save_to_account(sheet=Sheet.objects.get(pk=sheet["id"]), user=user)
    with pytest.raises(EOFError):
        by_link.sheet()
    # The share link still reads the sheet: its stream goes on.
    assert watcher.sheet()["version"] == 2
    put_entry(sheet, "Léa", {"bid": 1})
    assert watcher.sheet()["version"] == 3


def test_an_idle_stream_gets_a_comment_line(stream_of, monkeypatch):
    monkeypatch.setattr(live, "HEARTBEAT_SECONDS", 0.2)
    sheet = make()
    s = stream_of(sheet, headers={"X-Edit-Token": sheet["edit_token"]})
    assert s.sheet()["version"] == 1
    line = s.response.readline()
    while line in (b"\n", b"retry: 2000\n"):
        line = s.response.readline()
    assert line.startswith(b": keep-alive")


def test_at_the_limit_a_new_stream_is_told_to_poll(live_server, settings):
    sheet = make()
    settings.LIVE_MAX_STREAMS = 1
    first = Stream(events_url(live_server, sheet), {"X-Edit-Token": sheet["edit_token"]})
    try:
        assert first.sheet()["version"] == 1
        second = Stream(events_url(live_server, sheet), {"X-Edit-Token": sheet["edit_token"]})
        try:
            assert second.status == 503
            assert second.response.getheader("Retry-After") == "30"
        finally:
            second.close()
    finally:
        first.close()


def test_new_links_end_the_streams_of_the_old_ones(stream_of):
    sheet = make()
    watcher = stream_of(sheet, f"?share={share_token(sheet)}")
    player = stream_of(sheet, f"?seat={seat_token(sheet, 'Marc')}")
    editor = stream_of(sheet, headers={"X-Edit-Token": sheet["edit_token"]})
    for s in (watcher, player, editor):
        assert s.sheet()["version"] == 1
    services.links_renew(sheet=Sheet.objects.get(pk=sheet["id"]))
    for s in (watcher, player):
        with pytest.raises(EOFError):
            s.sheet()
    # The editor's right is not a link's: its stream goes on.
    put_entry_by_editor = Client().put(
        f"/api/v1/sheets/{sheet['id']}/draft/entries/Léa/", {"bid": 1}, content_type="application/json",
        HTTP_X_EDIT_TOKEN=sheet["edit_token"],
    )  # fmt: skip
    assert put_entry_by_editor.status_code == 200
    assert editor.sheet()["version"] == 2
