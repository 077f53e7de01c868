"""Django's database sessions, reading only session keys made like Django makes them.

The session cookie is looked up in the database: a key holding a NUL byte made
PostgreSQL refuse the query (a 500). Keys are 32 characters of [a-z0-9]; any other
cookie value is no session, as an unknown key is.
"""

from django.contrib.sessions.backends.db import SessionStore as DatabaseSessionStore


class SessionStore(DatabaseSessionStore):
    def _validate_session_key(self, key):
        return bool(super()._validate_session_key(key)) and key.isascii() and key.isalnum()
