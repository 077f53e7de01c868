"""QR codes of the app's links, drawn as inline SVG by a pure-Python library."""

import hashlib

import segno
from django.core.cache import cache

# A QR code never changes for its link; drawing one costs 5–10 ms of CPU and a creator's
# page shows several, at every round (docs/performance.md).
QR_KEEP = 48 * 3600


def qr_svg(url: str) -> str:
    """Return the QR code of a URL as inline SVG (the same link always draws the same code).

    Drawn in a viewBox without a fixed size, so the page can show it as large as the screen allows.
    """
    key = "qr:" + hashlib.sha256(url.encode()).hexdigest()
    return cache.get_or_set(key, lambda: _draw(url), QR_KEEP)


def _draw(url: str) -> str:
    return segno.make(url, error="m").svg_inline(scale=3, dark="#111", light="#fff", omitsize=True)
