"""Inline SVG charts drawn on the server (no chart library, no CDN)."""

from django.utils.html import escape

from scoring.games.base import signed as minus_signed

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


def chart_series(players: list[str], result: dict) -> list[dict]:
    """Return what the chart plots: each side's running total after each counted round, bonuses last.

    Sides are the teams when teams decide, else the players; a tie-break round decides
    among the tied and adds to no total, so it is left out; bonuses (Num King streaks)
    are a last step, so that the chart ends on the totals the sheet shows.
    """
    if result.get("summary"):
        return []  # a session (coop) is a list of games: running sums across games mean nothing
    rounds = [r for r in result["rounds"] if not r.get("tiebreak")]
    bonuses = result.get("bonuses") or {}
    teams = result.get("teams")
    if teams:
        sides = [(team, t["members"]) for team, t in teams.items()]
    else:
        sides = [(name, [name]) for name in players]
    with_bonus = any(bonuses.values())
    series = []
    for i, (side, members) in enumerate(sides):
        total, points = 0, [0]
        for r in rounds:
            if teams and side in (r.get("teams") or {}):
                total += r["teams"][side]
            else:
                total += sum(r["points"].get(m, 0) for m in members)
            points.append(total)
        if with_bonus:
            points.append(total + sum(bonuses.get(m, 0) for m in members))
        seat = i if teams else players.index(side)
        series.append(
            {
                "name": side,
                "seat": seat,
                "colour": PALETTE[seat % len(PALETTE)],
                "points": points,
                "rounds": len(rounds),
            }
        )
    return series


def progression_svg(series: list[dict], *, width: int = 340, height: int = 180) -> str:
    """Return an SVG line chart of the ``chart_series`` (running totals after each step)."""
    if not series or len(series[0]["points"]) < 2:
        return ""
    lo = min(min(s["points"]) for s in series)
    hi = max(max(s["points"]) for s in series)
    lo, hi = min(lo, 0), max(hi, 0)
    span = (hi - lo) or 1
    pad_l, pad_r, pad_t, pad_b = 34, 8, 8, 20
    steps = len(series[0]["points"]) - 1
    # The last tick names the last round (a bonus step, after it, is no round of its own).
    last = series[0].get("rounds", steps)

    def x(i):
        return pad_l + (width - pad_l - pad_r) * i / steps

    def y(v):
        return pad_t + (height - pad_t - pad_b) * (hi - v) / span

    parts = [
        f'<svg class="chart" viewBox="0 0 {width} {height}" role="img" aria-labelledby="chart-title">',
        '<title id="chart-title">Progression</title>',
        f'<line x1="{pad_l}" y1="{y(0):.1f}" x2="{width - pad_r}" y2="{y(0):.1f}" class="axis"/>',
        f'<text x="2" y="{y(hi) + 4:.1f}" class="tick">{minus_signed(hi)}</text>',
        f'<text x="2" y="{y(lo) + 4:.1f}" class="tick">{minus_signed(lo)}</text>',
        f'<text x="{x(last) - 4:.1f}" y="{height - 4}" class="tick" text-anchor="end">{last}</text>',
    ]
    for s in series:
        coords = " ".join(f"{x(k):.1f},{y(v):.1f}" for k, v in enumerate(s["points"]))
        parts.append(
            f'<polyline points="{coords}" fill="none" stroke="{s["colour"]}" stroke-width="2.5" data-total="{s["points"][-1]}">'
            f"<title>{escape(s['name'])}: {minus_signed(s['points'][-1])}</title></polyline>"
        )
    parts.append("</svg>")
    return "".join(parts)
