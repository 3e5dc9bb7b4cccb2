"""Small charts drawn as SVG strings: data in, picture out, no plotting library.

Boards show a chart at the end of every game; drawing it by hand keeps the
board fast (no matplotlib import on a click) and crisp on a projector.

>>> svg = points_chart_svg([[0, 3, 3], [0, 0, 5]], ["Player 1", "Player 2"])
>>> svg.startswith("<svg") and svg.count("<polyline") == 2
True
"""

from __future__ import annotations

from html import escape

# Okabe-Ito colours: told apart by people with every common colour-vision deficiency.
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000")
DASHES = ("", "6 3", "2 3", "8 3 2 3", "1 2", "4 4", "10 2")


def points_chart_svg(series, labels, *, width: int = 420, height: int = 220, title: str = "Points over the turns",
                     axis: str = "turn") -> str:
    """A line chart of each player's running points, one line per player.

    ``series[p][t]`` is player ``p``'s total after turn ``t`` (``t = 0`` is
    the start). Lines differ in colour *and* dash pattern, and each ends with
    the player's label, so the chart reads without colour. ``axis`` names
    the steps along the bottom (``"turn"``, ``"trick"``); each line keeps
    its numbers in ``data-values`` for tests and screen readers.
    """
    series = [list(map(float, s)) for s in series]
    if not series or any(len(s) != len(series[0]) for s in series):
        raise ValueError("series must be a non-empty list of equally long lists of numbers")
    if len(labels) != len(series):
        raise ValueError(f"expected {len(series)} labels, one per line, got {len(labels)}")
    left, right, top, bottom = 40, 90, 28, 30
    turns = max(len(series[0]) - 1, 1)
    high = max(max(max(s) for s in series), 1.0)
    low = min(min(min(s) for s in series), 0.0)

    def x(t):
        return left + (width - left - right) * t / turns

    def y(v):
        return top + (height - top - bottom) * (high - v) / (high - low)

    parts = [f'<svg class="gopskit-svgchart" viewBox="0 0 {width} {height}" xmlns="http://www.w3.org/2000/svg" role="img" aria-label="{escape(title)}">',
             f'<text x="{left}" y="18" font-size="14" font-weight="bold">{escape(title)}</text>',
             _axes(left, top, width - right, height - bottom, high, low, turns, y, axis)]
    for p, (s, label) in enumerate(zip(series, labels)):
        colour, dash = PALETTE[p % len(PALETTE)], DASHES[p % len(DASHES)]
        points = " ".join(f"{x(t):.1f},{y(v):.1f}" for t, v in enumerate(s))
        values = " ".join(f"{v:g}" for v in s)
        parts.append(f'<polyline points="{points}" data-values="{values}" fill="none" stroke="{colour}" '
                     f'stroke-width="3" stroke-dasharray="{dash}"/>')
        parts.append(f'<text x="{x(len(s) - 1) + 6:.1f}" y="{y(s[-1]) + 5 + 14 * _nudge(series, p):.1f}" font-size="13" fill="{colour}">{escape(label)} {s[-1]:g}</text>')
    parts.append("</svg>")
    return "".join(parts)


def _nudge(series, p) -> int:
    """Shift a line's end label down when earlier lines end at the same value."""
    return sum(1 for q in range(p) if series[q][-1] == series[p][-1])


def _axes(x0, y0, x1, y1, high, low, turns, y, axis) -> str:
    ticks = "".join(
        f'<text x="{x0 - 6}" y="{y(v) + 4:.1f}" font-size="11" text-anchor="end">{v:g}</text>'
        for v in sorted({low, round((low + high) / 2) if high - low >= 4 else low, high})  # whole points: no 11.5 tick
    )
    return (
        f'<line x1="{x0}" y1="{y1}" x2="{x1}" y2="{y1}" stroke="#444"/>'
        f'<line x1="{x0}" y1="{y0}" x2="{x0}" y2="{y1}" stroke="#444"/>{ticks}'
        f'<text x="{(x0 + x1) / 2:.0f}" y="{y1 + 22}" font-size="12" text-anchor="middle">{escape(axis)} (0 to {turns})</text>'
    )
