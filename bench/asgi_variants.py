"""The ASGI apps `bench/bursts.py` compares with numapp.asgi: Django's own handler, and lanes without gc.freeze.

numapp.asgi is imported first: it sets Django up as the Procfile's app does, and freezes what
the process holds (gc.freeze), which these variants undo.
"""

import gc

from django.core.handlers.asgi import ASGIHandler

import numapp.asgi  # noqa: F401
from web.accesslog import AccessLog
from web.lanes import LaneHandler

gc.unfreeze()

# Django's own handler: a thread started and joined for each request.
stock = AccessLog(ASGIHandler())
# Long-lived threads, full collections as Python makes them.
lanes_unfrozen = AccessLog(LaneHandler(2))
