"""What names this release of the app: a digest of its code, templates and translations.

Anything kept across processes (Django's cache on Redis outlives a deploy) and built
from the code carries it in its key, so a new release never serves what an old one made.
"""

import hashlib
from functools import cache
from pathlib import Path

from django.conf import settings

PARTS = ("numapp", "web", "scoring", "accounts", "templates", "locale")
SUFFIXES = {".py", ".html", ".mo", ".txt", ".json"}


@cache
def release() -> str:
    """Return the digest of the files the app renders with (read once per process)."""
    root = Path(settings.BASE_DIR)
    digest = hashlib.sha256()
    for part in PARTS:
        for path in sorted((root / part).rglob("*")):
            if path.suffix in SUFFIXES and "__pycache__" not in path.parts:
                digest.update(str(path.relative_to(root)).encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()[:16]
