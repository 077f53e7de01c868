"""Each request's synchronous code in one of a few long-lived threads: the ASGI handler numapp/asgi.py serves."""

import threading
import time
from concurrent.futures import Executor, ThreadPoolExecutor

from asgiref.sync import ThreadSensitiveContext
from django.core.handlers.asgi import ASGIHandler

# A lane whose call has run this long is held by a slow request (a lock waited for, a mail
# sent): a request that finds every lane so held gets a thread of its own instead.
STUCK_AFTER = 0.1


class Lane(Executor):
    """One long-lived thread that runs the calls given to it one at a time, and knows how busy it is."""

    def __init__(self, name: str):
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix=name)
        self._lock = threading.Lock()
        self.waiting = 0  # calls given and not finished, the running one included
        self.requests = 0  # requests given this lane and not finished (an event stream's for hours)
        self._started: float | None = None  # when the running call started (time.monotonic)

    def submit(self, fn, /, *args, **kwargs):
        with self._lock:
            self.waiting += 1

        def run():
            self._started = time.monotonic()
            try:
                return fn(*args, **kwargs)
            finally:
                self._started = None

        future = self._thread.submit(run)
        # Counted off when the call ends or is cancelled before it ran (its request went away).
        future.add_done_callback(self._done)
        return future

    def _done(self, _future) -> None:
        with self._lock:
            self.waiting -= 1

    def held_for(self) -> float:
        """Return how long the running call has run (0 when the lane is idle)."""
        started = self._started
        return time.monotonic() - started if started is not None else 0.0

    def shutdown(self, wait=True, *, cancel_futures=False):
        self._thread.shutdown(wait=wait, cancel_futures=cancel_futures)


class LaneHandler(ASGIHandler):
    """Django's ASGI handler, with each request's synchronous code in one of a few long-lived threads.

    Stock Django runs a request's synchronous part (middleware, view, templates) in a thread
    started for that request and joined after it. Under uvicorn that costs the event loop a
    thread start and join per request, leaves each thread's database connection behind (a
    new PostgreSQL session for every request), and lets a burst of requests' threads fight
    over the GIL with the loop (docs/performance.md, « Results, 2026-12-07 »). Here a
    request takes the lane (a long-lived thread) with the fewest calls waiting (then the
    fewest requests), for its whole life, so its thread-sensitive calls stay on one thread as Django requires, and a lane,
    with its connection, serves request after request. Two requests on one lane take turns;
    a transaction never spans two turns (it runs within one synchronous call). When every
    lane is held by a call older than `stuck_after` seconds (a slow request), the request
    gets a thread of its own, as with Django's handler, rather than wait behind it.
    """

    def __init__(self, lanes: int, *, stuck_after: float = STUCK_AFTER):
        super().__init__()
        self.lanes = [Lane(f"lane-{i}") for i in range(lanes)]
        self.stuck_after = stuck_after

    def lane(self) -> Lane | None:
        """Return the lane for a new request, or None when every lane is held by a slow call."""
        lane = min(self.lanes, key=lambda lane: (lane.waiting, lane.requests))
        if lane.waiting and all(other.held_for() >= self.stuck_after for other in self.lanes):
            return None
        return lane

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            raise ValueError(f"Django can only handle ASGI/HTTP connections, not {scope['type']}.")
        lane = self.lane()
        if lane is None:
            async with ThreadSensitiveContext():
                await self.handle(scope, receive, send)
            return
        lane.requests += 1
        try:
            async with ThreadSensitiveContext(executor=lane):
                await self.handle(scope, receive, send)
        finally:
            lane.requests -= 1
