"""The app under ASGI (uvicorn: `make run`, the Procfile): pages and API as usual, and the live table's streams.

uvicorn's access log names each request's path: its lines go through the same filter as
Django's own, so a token in a query (`?seat=`, `?share=`, `?edit=`) or in a link's path is
never written (numapp/accesslog.py).
"""

import logging
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "numapp.settings")
application = get_asgi_application()

from numapp.accesslog import RedactURLFilter  # noqa: E402 (needs the settings loaded above)

logging.getLogger("uvicorn.access").addFilter(RedactURLFilter())
