"""HTML fragments kept in Django's cache, each named by everything it is drawn from.

A fragment's key is a digest of the values it is drawn from, with what draws it (the
template), the release and the language: the same key is the same HTML, whoever drew it and
when. Nothing is drawn from the database here, so no transaction can leave a drawing behind
(docs/performance.md, « The creator's page »).
"""

import hashlib
import json

from django.core.cache import cache
from django.utils.functional import Promise
from django.utils.translation import get_language

from web.release import release

# A card picker is kept this long in Django's cache: the same picker serves every hand of
# every sheet of a game with the same cards, in one language (docs/performance.md).
PICKER_KEEP = 24 * 3600
# Fragments named by their content (an entry form, the players' links, a row of the score
# table) are kept as long as a hand of a slow table may last: a key never names two drawings,
# so only memory bounds this (docs/performance.md).
FRAGMENT_KEEP = 30 * 60


def _json_value(value):
    """Return a lazy translation as the text it says in the active language (the key names the language)."""
    if isinstance(value, Promise):
        return str(value)
    raise TypeError(f"a kept fragment's values are JSON, not {type(value).__name__}")


def digest(values) -> str:
    """Return a digest of JSON `values`: the same values, the same digest, in any process."""
    body = json.dumps(values, sort_keys=True, default=_json_value, separators=(",", ":"), ensure_ascii=False)
    return hashlib.blake2b(body.encode(), digest_size=16).hexdigest()


def kept_html(name: str, values: dict, draw, keep: int = FRAGMENT_KEEP) -> str:
    """Return the HTML `draw()` makes from `values` alone, drawn once per content.

    The key names everything the HTML depends on: `name` (what is drawn), the release
    that draws it, the active language and a digest of `values`, which must be all that
    `draw` reads. The same key is the same HTML, whoever drew it and when; nothing here
    comes from the database, so no transaction can leave a drawing behind.
    """
    key = f"{name}:{release()}:{get_language()}:{digest(values)}"
    html = cache.get(key)
    if html is None:
        html = draw()
        cache.set(key, html, keep)
    return html
