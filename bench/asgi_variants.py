"""The ASGI apps `bench/bursts.py` compares with numapp.asgi: Django's own handler, and lanes without gc.freeze.

Importing numapp.asgi freezes what the process holds (gc.freeze); each variant here undoes
what it does not measure.
"""

import gc

from django.core.handlers.asgi import ASGIHandler

from web.accesslog import AccessLog
from web.lanes import LaneHandler

gc.unfreeze()

# Django's own handler: a thread started and joined for each request.
stock = AccessLog(ASGIHandler())
# Long-lived threads, full collections as Python makes them.
lanes_unfrozen = AccessLog(LaneHandler(2))
