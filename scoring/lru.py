"""A small per-process cache for what a sheet's version determines (results, rendered parts)."""

import re
import threading
from collections import OrderedDict
from typing import NamedTuple

from django.http import HttpResponse
from django.utils.cache import patch_vary_headers
from django.utils.text import compress_string

accepts_gzip = re.compile(r"\bgzip\b")


class VersionedParts:
    """Keep the last `size` values by key; keys hold the sheet's version, so none goes stale.

    Every write bumps the sheet's version, so a value computed for (sheet, version, …)
    stays right for as long as it is kept. Each process keeps its own.
    """

    def __init__(self, size: int = 256):
        self.size = size
        self._items: OrderedDict = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key):
        with self._lock:
            value = self._items.get(key)
            if value is not None:
                self._items.move_to_end(key)
            return value

    def put(self, key, value) -> None:
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def get_or_make(self, key, make):
        value = self.get(key)
        if value is None:
            value = make()
            self.put(key, value)
        return value

    def clear(self) -> None:
        with self._lock:
            self._items.clear()


class Body(NamedTuple):
    """A response body kept with its gzip form, so a kept body is compressed once."""

    raw: bytes
    gz: bytes

    @classmethod
    def of(cls, raw: bytes) -> "Body":
        return cls(raw, compress_string(raw))

    def response(self, request, **kwargs) -> HttpResponse:
        """Answer with the compressed form when the client takes gzip (as GZipMiddleware would)."""
        if accepts_gzip.search(request.headers.get("Accept-Encoding", "")) and len(self.gz) < len(self.raw):
            response = HttpResponse(self.gz, **kwargs)
            response["Content-Encoding"] = "gzip"
        else:
            response = HttpResponse(self.raw, **kwargs)
        patch_vary_headers(response, ("Accept-Encoding",))
        return response
