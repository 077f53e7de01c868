"""SQLite, with write transactions queued on a file lock.

Every transaction here starts with BEGIN IMMEDIATE (settings), so only one runs
at a time across the web processes and the worker. When the database is busy,
SQLite's own wait polls with growing sleeps (1, 2, 5, 10 … 100 ms): a waiting
writer wakes late and is often overtaken by the next one, which shows as a long
latency tail under load. Taking an exclusive `flock` on `<database>.lock` first
queues the writers in the kernel, which wakes the next one as soon as the lock is
released. The lock is held only from BEGIN to COMMIT or ROLLBACK; reads outside a
transaction never take it. In-memory databases (the tests) live in one process
and are left as they are.
"""

import fcntl
import os

from django.db.backends.sqlite3 import base


class DatabaseWrapper(base.DatabaseWrapper):
    _lock_fd = None

    def _queue_lock(self) -> None:
        if self.is_in_memory_db():
            return
        if self._lock_fd is None:
            self._lock_fd = os.open(f"{self.settings_dict['NAME']}.lock", os.O_RDWR | os.O_CREAT, 0o600)
        fcntl.flock(self._lock_fd, fcntl.LOCK_EX)

    def _queue_unlock(self) -> None:
        if self._lock_fd is not None:
            fcntl.flock(self._lock_fd, fcntl.LOCK_UN)

    def _start_transaction_under_autocommit(self):
        self._queue_lock()
        try:
            super()._start_transaction_under_autocommit()
        except BaseException:
            self._queue_unlock()
            raise

    def _commit(self):
        try:
            return super()._commit()
        finally:
            self._queue_unlock()

    def _rollback(self):
        try:
            return super()._rollback()
        finally:
            self._queue_unlock()

    def _close(self):
        try:
            return super()._close()
        finally:
            if self._lock_fd is not None:
                os.close(self._lock_fd)  # closing the descriptor releases its lock too
                self._lock_fd = None
