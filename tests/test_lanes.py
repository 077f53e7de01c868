"""Each request's synchronous code runs in one of a few long-lived threads (web/lanes.py, LaneHandler).

The requests go through the handler as uvicorn hands them over (an ASGI call), to views of
this module that say which thread answered and which database connection it used.
"""

import asyncio
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection, connections
from django.http import HttpResponse
from django.test import override_settings
from django.urls import path

from web.lanes import Lane, LaneHandler

both_inside = threading.Barrier(2, timeout=20)


def thread(request):
    return HttpResponse(threading.current_thread().name)


def database(request):
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()" if connection.vendor == "postgresql" else "SELECT 1")
        pid = cursor.fetchone()[0] if connection.vendor == "postgresql" else id(connection.connection)
    return HttpResponse(f"{threading.current_thread().name} {pid}")


entered = threading.Semaphore(0)
release = threading.Event()


def block(request):
    # Holds its lane until the test releases it (a slow request: a lock waited for, a mail sent).
    entered.release()
    assert release.wait(20)
    return HttpResponse(threading.current_thread().name)


def meet(request):
    # Returns only once two requests are inside at the same time.
    both_inside.wait()
    return HttpResponse(threading.current_thread().name)


urlpatterns = [path("thread/", thread), path("database/", database), path("meet/", meet), path("block/", block)]


async def call(handler, path_: str) -> str:
    """Send one GET through `handler` as an ASGI server does; return the body (and check the 200)."""
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path_,
        "raw_path": path_.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"testserver")],
        "client": ("127.0.0.1", 50000),
        "server": ("testserver", 80),
    }
    sent = []
    received = asyncio.Event()

    async def receive():
        if not received.is_set():
            received.set()
            return {"type": "http.request", "body": b"", "more_body": False}
        await asyncio.Event().wait()  # the client stays connected

    async def send(message):
        sent.append(message)

    await handler(scope, receive, send)
    start = next(m for m in sent if m["type"] == "http.response.start")
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body").decode()
    assert start["status"] == 200, body
    return body


def run(coroutine):
    """Run `coroutine` on an event loop of its own, in a thread of its own (the browser tests keep one in this thread)."""
    with ThreadPoolExecutor(max_workers=1) as thread:
        return thread.submit(asyncio.run, coroutine).result()


@pytest.fixture
def lanes():
    """Make LaneHandlers; at the end, close each lane's database connection and stop its thread."""
    made = []
    yield lambda n, **options: made.append(LaneHandler(lanes=n, **options)) or made[-1]
    for handler in made:
        for lane in handler.lanes:
            lane.submit(connections.close_all).result()
            lane.shutdown()


@override_settings(ROOT_URLCONF=__name__)
def test_request_after_request_runs_on_the_same_few_threads(lanes):
    handler = lanes(2)
    names = [run(call(handler, "/thread/")) for _ in range(6)]
    # Stock Django starts a thread for each request: six names. Here the lanes serve them all.
    assert set(names) <= {"lane-0_0", "lane-1_0"}, names


@override_settings(ROOT_URLCONF=__name__)
def test_requests_at_the_same_time_take_different_lanes(lanes):
    handler = lanes(2)

    async def two_at_once():
        return await asyncio.gather(call(handler, "/meet/"), call(handler, "/meet/"))

    # Each request waits inside its view for the other: on one lane they would wait forever.
    assert sorted(run(two_at_once())) == ["lane-0_0", "lane-1_0"]


@pytest.mark.django_db(transaction=True)
@override_settings(ROOT_URLCONF=__name__)
def test_a_lane_keeps_its_database_connection_from_request_to_request(lanes):
    handler = lanes(1)
    answers = [run(call(handler, "/database/")) for _ in range(5)]
    # One lane, one connection (one PostgreSQL session), however many requests it serves.
    assert len(set(answers)) == 1, answers


@override_settings(ROOT_URLCONF=__name__)
def test_a_request_never_waits_behind_lanes_held_by_slow_requests(lanes):
    handler = lanes(2, stuck_after=0)  # any running call counts as slow here: no clock in the test
    release.clear()

    async def scenario():
        slow = [asyncio.ensure_future(call(handler, "/block/")) for _ in range(2)]
        for _ in slow:  # both lanes now run a call that waits for the test
            assert await asyncio.to_thread(entered.acquire, timeout=20)
        fast = await call(handler, "/thread/")
        release.set()
        return fast, sorted(await asyncio.gather(*slow))

    fast, held = run(scenario())
    assert held == ["lane-0_0", "lane-1_0"]
    # Answered while both lanes were held, in a thread of its own (Django's way), not behind them.
    assert not fast.startswith("lane-"), fast


def test_a_call_cancelled_before_it_ran_is_not_counted_as_waiting():
    # A request that went away while its call was queued must not make its lane look busy for ever
    # (new requests would then queue behind a slow call on the other lane).
    lane = Lane("lane-test")
    started, go_on = threading.Event(), threading.Event()
    try:
        running = lane.submit(lambda: started.set() or go_on.wait(20))
        assert started.wait(20)
        queued = lane.submit(lambda: None)
        assert lane.waiting == 2
        assert queued.cancel()
        assert lane.waiting == 1
        go_on.set()
        running.result(20)
        # The count is taken off by the future's callback, just after its result is set.
        deadline = time.monotonic() + 20
        while lane.waiting and time.monotonic() < deadline:
            time.sleep(0.001)
        assert lane.waiting == 0
    finally:
        go_on.set()
        lane.shutdown()
