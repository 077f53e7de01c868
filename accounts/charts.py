"""The player's page chart: results over time, as inline SVG drawn on the server (no script, no library)."""

from django.utils import formats, timezone
from django.utils.html import escape


def results_svg(results: list, *, title: str, width: int = 340, height: int = 150) -> str:
    """Return a line chart of one player's totals, game after game, its wins marked; "" with fewer than one game.

    ``results`` is [(played_at, total, won)] in the order played. The first and last
    dates are written under the axis, the highest and lowest totals beside it.
    """
    if not results:
        return ""
    totals = [total for _when, total, _won in results]
    lo, hi = min(min(totals), 0), max(max(totals), 0)
    span = (hi - lo) or 1
    pad_l, pad_r, pad_t, pad_b = 34, 10, 10, 22
    steps = max(len(results) - 1, 1)

    def x(i):
        return pad_l + (width - pad_l - pad_r) * (i / steps if len(results) > 1 else 0.5)

    def y(v):
        return pad_t + (height - pad_t - pad_b) * (hi - v) / span

    def day(when):
        return formats.date_format(timezone.localtime(when), "SHORT_DATE_FORMAT") if when else ""

    parts = [
        f'<svg class="chart results" viewBox="0 0 {width} {height}" role="img" aria-label="{escape(title)}">',
        f"<title>{escape(title)}</title>",
        f'<line x1="{pad_l}" y1="{y(0):.1f}" x2="{width - pad_r}" y2="{y(0):.1f}" class="axis"/>',
        f'<text x="2" y="{y(hi) + 4:.1f}" class="tick">{hi}</text>',
        f'<text x="2" y="{y(lo) + 4:.1f}" class="tick">{lo}</text>',
        f'<text x="{pad_l}" y="{height - 4}" class="tick">{escape(day(results[0][0]))}</text>',
        f'<text x="{width - pad_r}" y="{height - 4}" class="tick" text-anchor="end">{escape(day(results[-1][0]))}</text>',
    ]
    if len(results) > 1:
        coords = " ".join(f"{x(i):.1f},{y(t):.1f}" for i, t in enumerate(totals))
        parts.append(f'<polyline points="{coords}" class="line" fill="none"/>')
    for i, (when, total, won) in enumerate(results):
        parts.append(
            f'<circle cx="{x(i):.1f}" cy="{y(total):.1f}" r="{5 if won else 3.5}" class="{"dot won" if won else "dot"}"'
            f' data-total="{total}"><title>{escape(day(when))}: {total}{" 🏆" if won else ""}</title></circle>'
        )
    parts.append("</svg>")
    return "".join(parts)
