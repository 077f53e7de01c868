"""The app under ASGI (uvicorn: `make run`, the Procfile): pages and API as usual, and the live table's streams.

Each request is logged by `AccessLog` (uvicorn's own access log is off): paths without their
query and without the tokens of share and seat links, the client as the rate limits count it
(web/accesslog.py). Each request's synchronous code runs in one of `WEB_THREADS`
long-lived threads (web/lanes.py, `LaneHandler`).
"""

import gc
import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "numapp.settings")
django.setup(set_prefix=False)

from web.accesslog import AccessLog  # noqa: E402 (needs the settings loaded above)
from web.env import env_int  # noqa: E402
from web.lanes import LaneHandler  # noqa: E402

application = AccessLog(LaneHandler(env_int("WEB_THREADS", 2, minimum=1)))

# What the app holds from its start (Django, the apps, the engines) is never garbage: leave
# it out of the collector's full passes, which otherwise stop every request of the process
# for tens of milliseconds (docs/performance.md, « Results, 2026-12-07 »).
gc.collect()  # what loading made and dropped is not kept frozen
gc.freeze()
