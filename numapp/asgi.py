"""The app under ASGI (uvicorn: `make run`, the Procfile): pages and API as usual, and the live table's streams.

Each request is logged by `AccessLog` (uvicorn's own access log is off): paths without their
query and without the tokens of share and seat links, the client as the rate limits count it
(numapp/accesslog.py).
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "numapp.settings")
django_application = get_asgi_application()

from numapp.accesslog import AccessLog  # noqa: E402 (needs the settings loaded above)

application = AccessLog(django_application)
