"""A small Server-Sent Events client for the tests: one stream, read event by event."""

import http.client
import json
from urllib.parse import urlsplit


class Stream:
    """`GET url` as an event stream; `next()` returns each event as a dict (id, event, data)."""

    def __init__(self, url: str, headers: dict | None = None, timeout: float = 5.0):
        parts = urlsplit(url)
        self.conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=timeout)
        path = parts.path + (f"?{parts.query}" if parts.query else "")
        self.conn.request("GET", path, headers={"Accept": "text/event-stream", **(headers or {})})
        self.response = self.conn.getresponse()
        self.status = self.response.status
        self.comments = 0

    def next(self) -> dict:
        """Return the next event (comments are counted, not returned); raise TimeoutError if none comes in time."""
        event: dict = {}
        while True:
            try:
                raw = self.response.readline()
            except TimeoutError:
                raise TimeoutError("no event in time") from None
            if not raw:
                raise EOFError("the stream ended")
            line = raw.decode().rstrip("\r\n")
            if not line:
                if "data" in event or "event" in event:
                    if "data" in event:
                        event["data"] = json.loads(event["data"])
                    return event
                continue
            if line.startswith(":"):
                self.comments += 1
                continue
            name, _, value = line.partition(":")
            event[name] = value[1:] if value.startswith(" ") else value

    def sheet(self) -> dict:
        """Return the data of the next `sheet` event."""
        while True:
            found = self.next()
            if found.get("event") == "sheet":
                return found["data"]
            if found.get("event") == "gone":
                raise EOFError("the stream said the sheet is gone")

    def close(self) -> None:
        self.conn.close()
