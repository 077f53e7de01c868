"""A small per-process cache for what a sheet's version determines (results, rendered parts)."""

import threading
from collections import OrderedDict
from typing import NamedTuple

from django.contrib import messages
from django.db import connection, transaction
from django.http import HttpResponse
from django.middleware.gzip import re_accepts_gzip
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.utils.text import compress_string


class VersionedParts:
    """Keep the last `size` values by key; keys hold the sheet's version, so none goes stale.

    Every write bumps the sheet's version, so a value computed for (sheet, version, …)
    stays right for as long as it is kept. Each process keeps its own.

    A value computed inside a transaction may come from writes that never commit:
    `put` keeps it only once that transaction has committed, and forgets it if it
    rolls back. Only what was committed is ever served.
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
        if connection.in_atomic_block:
            transaction.on_commit(lambda: self._keep(key, value))
        else:
            self._keep(key, value)

    def _keep(self, key, value) -> None:
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
        if re_accepts_gzip.search(request.headers.get("Accept-Encoding", "")) and len(self.gz) < len(self.raw):
            response = HttpResponse(self.gz, **kwargs)
            response["Content-Encoding"] = "gzip"
        else:
            response = HttpResponse(self.raw, **kwargs)
        patch_vary_headers(response, ("Accept-Encoding",))
        return response


# Pages that show nobody's own state, by what determines them (see shared_page).
SHARED_PAGES = VersionedParts(256)


def shared_page(request, key, render) -> HttpResponse:
    """Answer with a page that every visitor without an account or a waiting message sees alike.

    `key()` must name everything the page shows (a sheet's version and the
    reader's role, a board's rows); the language and the address are added here.
    It is asked again after `render()` (which returns the page's bytes), since
    rendering may read a newer version than the one first asked for. Such a page
    is rendered once and kept with its gzip form; anyone else gets a fresh render.
    """
    shared = not request.user.is_authenticated and not len(messages.get_messages(request))

    def full_key():
        return (*key(), translation.get_language(), request.get_full_path())

    body = SHARED_PAGES.get(full_key()) if shared else None
    if body is None:
        body = Body.of(render())
        if shared:
            SHARED_PAGES.put(full_key(), body)
    response = body.response(request)
    patch_vary_headers(response, ("Cookie",))  # the session and the language cookie change the page
    return response
