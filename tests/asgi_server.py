"""The app under a real ASGI server (uvicorn, as in production), in a thread of the test process.

It stands in for pytest-django's `live_server` (tests/conftest.py): the pages' event streams
need ASGI, and the same server answers every other request. The test database is a file
(numapp/settings.py, DATABASES TEST NAME), so the server's threads and the test share it.
"""

import socket
import threading
import time
import urllib.request

import uvicorn
from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler
from django.test.utils import modify_settings

from web.lanes import LaneHandler


class InFlight:
    """An ASGI app that counts the HTTP requests it is answering (event streams included)."""

    def __init__(self, app):
        self.app = app
        self.count = 0
        self._changed = threading.Condition()

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        with self._changed:
            self.count += 1
        try:
            return await self.app(scope, receive, send)
        finally:
            with self._changed:
                self.count -= 1
                self._changed.notify_all()

    def wait_idle(self, timeout: float) -> bool:
        """Wait until no request is being answered; False if some still are after `timeout` seconds."""
        with self._changed:
            return self._changed.wait_for(lambda: self.count == 0, timeout)


class AsgiLiveServer:
    """uvicorn serving the Django app on a free loopback port until `stop()`."""

    def __init__(self, host: str = "localhost"):
        self.host = host
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        # The app's own handler, as uvicorn runs it (numapp/asgi.py), without its access log.
        self.requests = InFlight(ASGIStaticFilesHandler(LaneHandler(lanes=2)))
        config = uvicorn.Config(
            self.requests,
            lifespan="off",
            log_level="warning",
            access_log=False,
            timeout_graceful_shutdown=1,
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True)
        # pytest-django's _live_server_helper enables this around each test that uses the server.
        self._live_server_modified_settings = modify_settings(ALLOWED_HOSTS={"append": host})
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("uvicorn did not start")
            time.sleep(0.01)
        # The first request imports the views and compiles the templates: done here, once, it
        # does not eat into the first browser test's timeouts.
        urllib.request.urlopen(f"http://127.0.0.1:{self.port}/", timeout=60).close()

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def __str__(self) -> str:
        return self.url

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(10)
        self.sock.close()
