"""A small per-process cache for what a sheet's version determines (results, rendered parts)."""

import threading
from collections import OrderedDict


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
