"""QR codes of the app's links, drawn as inline SVG by a pure-Python library."""

import functools

import segno


@functools.lru_cache(maxsize=256)
def qr_svg(url: str) -> str:
    """Return the QR code of a URL as inline SVG (the same link always draws the same code).

    Drawn in a viewBox without a fixed size, so the page can show it as large as the screen allows.
    """
    return segno.make(url, error="m").svg_inline(scale=3, dark="#111", light="#fff", omitsize=True)
