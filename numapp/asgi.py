"""The app under ASGI (uvicorn: `make run`, the Procfile): pages and API as usual, and the live table's streams.

Each request is logged by `AccessLog` (uvicorn's own access log is off): paths without their
query and without the tokens of share and seat links, the client as the rate limits count it
(numapp/accesslog.py). Each request's synchronous code runs in one of `WEB_THREADS`
long-lived threads (`LaneHandler`).
"""

import gc
import os
from concurrent.futures import ThreadPoolExecutor

import django
from asgiref.sync import ThreadSensitiveContext
from django.core.handlers.asgi import ASGIHandler

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "numapp.settings")
django.setup(set_prefix=False)

from numapp.accesslog import AccessLog  # noqa: E402 (needs the settings loaded above)
from numapp.env import env_int  # noqa: E402


class LaneHandler(ASGIHandler):
    """Django's ASGI handler, with each request's synchronous code in one of a few long-lived threads.

    Stock Django runs a request's synchronous part (middleware, view, templates) in a thread
    started for that request and joined after it. Under uvicorn that costs the event loop a
    thread start and join per request, leaves each thread's database connection behind (a
    new PostgreSQL session for every request), and lets a burst of requests' threads fight
    over the GIL with the loop (docs/performance.md, « One thread per request »). Here a
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


application = AccessLog(LaneHandler(env_int("WEB_THREADS", 2, minimum=1)))

# What the app holds from its start (Django, the apps, the engines) is never garbage: leave
# it out of the collector's full passes, which otherwise stop every request of the process
# for tens of milliseconds (docs/performance.md, « Full garbage collections »).
gc.freeze()
