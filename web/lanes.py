"""Each request's synchronous code in one of a few long-lived threads: the ASGI handler numapp/asgi.py serves."""

from concurrent.futures import ThreadPoolExecutor

from asgiref.sync import ThreadSensitiveContext
from django.core.handlers.asgi import ASGIHandler


class LaneHandler(ASGIHandler):
    """Django's ASGI handler, with each request's synchronous code in one of a few long-lived threads.

    Stock Django runs a request's synchronous part (middleware, view, templates) in a thread
    started for that request and joined after it. Under uvicorn that costs the event loop a
    thread start and join per request, leaves each thread's database connection behind (a
    new PostgreSQL session for every request), and lets a burst of requests' threads fight
    over the GIL with the loop (docs/performance.md, « Results, 2026-12-07 »). Here a
    request takes the least busy of `lanes` threads (a lane) for its whole life, so its
    thread-sensitive calls stay on one thread as Django requires, and a lane, with its
    connection, serves request after request. Two requests on one lane take turns; a
    transaction never spans two turns (it runs within one synchronous call).
    """

    def __init__(self, lanes: int):
        super().__init__()
        self.lanes = [ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"lane-{i}") for i in range(lanes)]
        self.busy = [0] * lanes

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            raise ValueError(f"Django can only handle ASGI/HTTP connections, not {scope['type']}.")
        lane = min(range(len(self.lanes)), key=self.busy.__getitem__)
        self.busy[lane] += 1
        try:
            async with ThreadSensitiveContext(executor=self.lanes[lane]):
                await self.handle(scope, receive, send)
        finally:
            self.busy[lane] -= 1
