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


CHAR_EM = 0.62  # a generous average width of a sans-serif character, in ems: text laid out with it fits
TITLE_PX, LABEL_PX, TICK_PX, AXIS_PX = 14, 13, 11, 12


def points_chart_svg(series, labels, *, width: int = 420, height: int = 220, title: str = "Points over the turns",
                     axis: str = "turn") -> str:
    """A line chart of each player's running points, one line per player.

    ``series[p][t]`` is player ``p``'s total after turn ``t`` (``t = 0`` is
    the start). Lines differ in colour *and* dash pattern, and each ends with
    the player's label, so the chart reads without colour. ``axis`` names
    the steps along the bottom (``"turn"``, ``"trick"``); each line keeps
    its numbers in ``data-values`` for tests and screen readers.

    The title wraps onto as many lines as it needs (the chart grows taller);
    end labels are spread at least a line apart; the points axis has round
    ticks (:func:`round_ticks`) and the bottom one a tick per turn
    (:func:`turn_ticks`).
    """
    series = [list(map(float, s)) for s in series]
    if not series or any(len(s) != len(series[0]) for s in series):
        raise ValueError("series must be a non-empty list of equally long lists of numbers")
    if len(labels) != len(series):
        raise ValueError(f"expected {len(series)} labels, one per line, got {len(labels)}")
    ends = [f"{label} {s[-1]:g}" for s, label in zip(series, labels)]
    turns = max(len(series[0]) - 1, 1)
    ticks = round_ticks(min(min(min(s) for s in series), 0.0), max(max(max(s) for s in series), 1.0))
    low, high = ticks[0], ticks[-1]
    left = 12 + max(len(f"{v:g}") for v in ticks) * TICK_PX * CHAR_EM
    right = max(90, 10 + max(len(e) for e in ends) * LABEL_PX * CHAR_EM)
    title_lines = wrap_words(title, int((width - 12) / (TITLE_PX * CHAR_EM)))
    top = 12 + 18 * len(title_lines)
    bottom = 44
    height = height + 18 * (len(title_lines) - 1)

    def x(t):
        return left + (width - left - right) * t / turns

    def y(v):
        return top + (height - top - bottom) * (high - v) / (high - low)

    heading = "".join(f'<tspan x="6" dy="{0 if k == 0 else 18}">{escape(line)}</tspan>' for k, line in enumerate(title_lines))
    parts = [f'<svg class="gopskit-svgchart" viewBox="0 0 {width} {height}" xmlns="http://www.w3.org/2000/svg" role="img" aria-label="{escape(title)}">',
             f'<text class="gopskit-chart-title" x="6" y="18" font-size="{TITLE_PX}" font-weight="bold">{heading}</text>',
             _axes(left, top, width - right, height - bottom, ticks, turns, x, y, axis)]
    label_ys = spread([y(s[-1]) + 5 for s in series], LABEL_PX + 2, top + 4, height - bottom + 10)
    for p, (s, end) in enumerate(zip(series, ends)):
        colour, dash = PALETTE[p % len(PALETTE)], DASHES[p % len(DASHES)]
        points = " ".join(f"{x(t):.1f},{y(v):.1f}" for t, v in enumerate(s))
        values = " ".join(f"{v:g}" for v in s)
        parts.append(f'<polyline points="{points}" data-values="{values}" fill="none" stroke="{colour}" '
                     f'stroke-width="3" stroke-dasharray="{dash}"/>')
        parts.append(f'<text class="gopskit-end-label" x="{x(len(s) - 1) + 6:.1f}" y="{label_ys[p]:.1f}" '
                     f'font-size="{LABEL_PX}" fill="{colour}">{escape(end)}</text>')
    parts.append("</svg>")
    return "".join(parts)


def wrap_words(text: str, chars: int) -> list[str]:
    """``text`` in lines of at most ``chars`` characters, broken between words (a longer word keeps a line).

    >>> wrap_words("Points after each trick (the middling bonus at the end)", 30)
    ['Points after each trick (the', 'middling bonus at the end)']
    """
    lines: list[str] = []
    for word in str(text).split():
        if lines and len(lines[-1]) + 1 + len(word) <= chars:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines or [""]


def spread(ys, gap: float, lowest: float, highest: float) -> list[float]:
    """Label positions as near ``ys`` as they can be, each at least ``gap`` from the next, within the bounds.

    >>> spread([100, 101, 150], 15, 0, 200)
    [100, 115, 150]
    >>> spread([199, 200], 15, 0, 200)
    [185, 200]
    """
    order = sorted(range(len(ys)), key=lambda i: (ys[i], i))
    placed = [float(ys[i]) for i in order]
    for k in range(len(placed)):
        placed[k] = max(placed[k], lowest if k == 0 else placed[k - 1] + gap)
    for k in reversed(range(len(placed))):
        placed[k] = min(placed[k], highest if k == len(placed) - 1 else placed[k + 1] - gap)
    out = [0.0] * len(ys)
    for k, i in enumerate(order):
        out[i] = round(placed[k], 1) if placed[k] != int(placed[k]) else int(placed[k])
    return out


def round_ticks(low: float, high: float, most: int = 6) -> list[float]:
    """Round numbers from at or below ``low`` to at or above ``high``, 1, 2 or 5 times a power of ten apart.

    >>> round_ticks(-3, 82)
    [-20, 0, 20, 40, 60, 80, 100]
    >>> round_ticks(0, 5)
    [0, 1, 2, 3, 4, 5]
    >>> round_ticks(0, 1)
    [0, 1]
    """
    import math

    span = max(high - low, 1.0)
    for power in range(int(math.floor(math.log10(span))) - 1, 20):
        for step in (1, 2, 5):
            size = step * 10 ** power
            if size < 1:
                continue
            first, last = math.floor(low / size), math.ceil(high / size)
            if last - first <= most:
                return [int(k * size) for k in range(first, last + 1)]
    return [low, high]


def turn_ticks(turns: int, most: int = 13) -> list[int]:
    """The turns to mark along the bottom: every one up to ``most`` turns, else a round step.

    >>> turn_ticks(13), turn_ticks(30)
    ([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13], [0, 5, 10, 15, 20, 25, 30])
    """
    step = next(s for s in (1, 2, 5, 10, 20, 50, 100, 10 ** 9) if turns / s <= most)
    marks = list(range(0, turns + 1, step))
    return marks if marks[-1] == turns else [*marks, turns]


TICK_GAP = 8  # the least room between two tick labels along the bottom (as CHAR_EM measures them, generously)


def labels_apart(marks, x, gap: float = TICK_GAP) -> list:
    """The tick marks to label: the first and the last, and between them each one whose label (centred at
    ``x(mark)``) keeps ``gap`` clear of its neighbours'; a crowded mark keeps its tick, unlabelled.

    With 15 turns in 300 px, turn 14's label nearly touched 15's:

    >>> labels_apart([0, 2, 4, 6, 8, 10, 12, 14, 15], lambda t: 20 * t)
    [0, 2, 4, 6, 8, 10, 12, 15]
    """
    def half(mark):
        return len(str(mark)) * TICK_PX * CHAR_EM / 2

    if len(marks) < 2:
        return list(marks)
    first, last = marks[0], marks[-1]
    kept = [first]
    for mark in marks[1:-1]:
        clear_before = x(mark) - half(mark) - (x(kept[-1]) + half(kept[-1])) >= gap
        clear_after = x(last) - half(last) - (x(mark) + half(mark)) >= gap
        if clear_before and clear_after:
            kept.append(mark)
    return [*kept, last]


def _axes(x0, y0, x1, y1, ticks, turns, x, y, axis) -> str:
    rows = "".join(
        f'<line x1="{x0}" y1="{y(v):.1f}" x2="{x1}" y2="{y(v):.1f}" stroke="{"#888" if v == 0 else "#e3e3e3"}"/>'
        f'<text class="gopskit-tick" x="{x0 - 5:.1f}" y="{y(v) + 4:.1f}" font-size="{TICK_PX}" text-anchor="end">{v:g}</text>'
        for v in ticks
    )
    marks = turn_ticks(turns)
    named = set(labels_apart(marks, x))
    columns = "".join(
        f'<line x1="{x(t):.1f}" y1="{y1}" x2="{x(t):.1f}" y2="{y1 + 4}" stroke="#444"/>' +
        (f'<text class="gopskit-tick" x="{x(t):.1f}" y="{y1 + 16}" font-size="{TICK_PX}" text-anchor="middle">{t}</text>'
         if t in named else "")
        for t in marks
    )
    return (
        f'{rows}<line x1="{x0}" y1="{y1}" x2="{x1}" y2="{y1}" stroke="#444"/>'
        f'<line x1="{x0}" y1="{y0}" x2="{x0}" y2="{y1}" stroke="#444"/>{columns}'
        f'<text x="{(x0 + x1) / 2:.0f}" y="{y1 + 36}" font-size="{AXIS_PX}" text-anchor="middle">{escape(axis)} (0 to {turns})</text>'
    )
