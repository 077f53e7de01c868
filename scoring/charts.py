"""Inline SVG charts drawn on the server (no chart library, no CDN)."""

from django.utils.html import escape

PALETTE = [
    "#e4572e",
    "#2e86de",
    "#17a34a",
    "#e0a100",
    "#8e44ad",
    "#00a8a8",
    "#d63384",
    "#6c757d",
    "#795548",
    "#3f51b5",
    "#009688",
    "#ff7043",
]


def progression_svg(players: list[str], rounds: list[dict], *, width: int = 340, height: int = 180) -> str:
    """Return an SVG line chart of each player's running total after each round."""
    if not rounds:
        return ""
    series = []
    for name in players:
        total, points = 0, [0]
        for r in rounds:
            total += r["points"].get(name, 0)
            points.append(total)
        series.append(points)
    lo = min(min(s) for s in series + [[0]])
    hi = max(max(s) for s in series + [[0]])
    span = (hi - lo) or 1
    pad_l, pad_r, pad_t, pad_b = 34, 8, 8, 20
    steps = len(rounds)

    def x(i):
        return pad_l + (width - pad_l - pad_r) * i / steps

    def y(v):
        return pad_t + (height - pad_t - pad_b) * (hi - v) / span

    parts = [
        f'<svg class="chart" viewBox="0 0 {width} {height}" role="img" aria-labelledby="chart-title">',
        '<title id="chart-title">Progression</title>',
        f'<line x1="{pad_l}" y1="{y(0):.1f}" x2="{width - pad_r}" y2="{y(0):.1f}" class="axis"/>',
        f'<text x="2" y="{y(hi) + 4:.1f}" class="tick">{hi}</text>',
        f'<text x="2" y="{y(lo) + 4:.1f}" class="tick">{lo}</text>',
        f'<text x="{x(steps) - 4:.1f}" y="{height - 4}" class="tick" text-anchor="end">{steps}</text>',
    ]
    for i, (name, points) in enumerate(zip(players, series)):
        colour = PALETTE[i % len(PALETTE)]
        coords = " ".join(f"{x(k):.1f},{y(v):.1f}" for k, v in enumerate(points))
        parts.append(
            f'<polyline points="{coords}" fill="none" stroke="{colour}" stroke-width="2.5">'
            f"<title>{escape(name)}: {points[-1]}</title></polyline>"
        )
    parts.append("</svg>")
    return "".join(parts)
