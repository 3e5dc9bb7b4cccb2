"""The end-of-game chart: a whole title, end labels apart, round ticks and turn ticks (audit item 4).

Geometry is read two ways: from the SVG's own numbers (parsed; text widths at a generous 0.62 em a
character, since fonts differ between machines), and as Chromium lays it out here (getBBox).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from gopskit.viz.svg import points_chart_svg
from gopskit.widgets.boards import make_board

from screens_visual_static import SIZES, browser, open_page, page_html  # noqa: F401

NS = "{http://www.w3.org/2000/svg}"
TITLES = ("Points after each trick (the middling bonus at the end)", "Score after each trick (as if the deal ended there)",
          "Score after each bid (as if the deal ended there)")
CLOSE = [[0, 10, 20, 30, 40, 52], [0, 12, 22, 31, 41, 53], [0, 9, 19, 28, 39, 52.5], [0, -1, -2, -3, -3, -3]]


def _parse(svg: str):
    root = ET.fromstring(svg)
    return root, [float(v) for v in root.get("viewBox").split()]


def _board_chart(game: str) -> str:
    seats = len(make_board(game, seed=5).seats)
    board = make_board(game, seats=["random"] * seats, seed=5)
    return re.search(r"<svg class=\"gopskit-svgchart\".*?</svg>", board._summary.value, re.S).group(0)


def test_end_labels_are_a_line_apart_even_one_point_apart():
    svg = points_chart_svg(CLOSE, ["Player 1", "Player 2", "Player 3", "Player 4"], title=TITLES[0], axis="trick")
    root, (_, _, _, height) = _parse(svg)
    labels = root.findall(f"{NS}text[@class='gopskit-end-label']")
    ys = sorted(float(t.get("y")) for t in labels)
    size = float(labels[0].get("font-size"))
    assert len(ys) == 4 and all(b - a >= size for a, b in zip(ys, ys[1:])), ys
    assert ys[0] - size >= 0 and ys[-1] <= height


@pytest.mark.parametrize("title", TITLES)
def test_the_title_wraps_inside_the_chart(title):
    svg = points_chart_svg(CLOSE[:3], ["Player 1", "Player 2", "Player 3"], title=title, axis="trick")
    root, (_, _, width, _) = _parse(svg)
    heading = root.find(f"{NS}text[@class='gopskit-chart-title']")
    lines = [t.text for t in heading.findall(f"{NS}tspan")]
    assert " ".join(lines) == title
    size = float(heading.get("font-size"))
    assert all(6 + len(line) * size * 0.62 <= width for line in lines), lines


def test_ticks_are_round_and_every_turn_is_marked():
    svg = points_chart_svg([[0, 20, 40, 82], [0, -3, 10, 30]], ["a", "b"], axis="turn")
    root, _ = _parse(svg)
    ticks = [t for t in root.findall(f"{NS}text[@class='gopskit-tick']")]
    values = [float(t.text) for t in ticks if t.get("text-anchor") == "end"]
    turns = [int(t.text) for t in ticks if t.get("text-anchor") == "middle"]
    step = values[1] - values[0]
    assert step in (1, 2, 5, 10, 20, 50) and all(v % step == 0 for v in values) and len(values) >= 3
    assert values[0] <= -3 and values[-1] >= 82 and 0 in values
    assert turns == [0, 1, 2, 3]
    svg = points_chart_svg([list(range(14))], ["a"], axis="trick")
    assert [int(t.text) for t in _parse(svg)[0].findall(f"{NS}text[@class='gopskit-tick']")
            if t.get("text-anchor") == "middle"] == list(range(14))


@pytest.mark.parametrize("game", ["gooseberry-fool", "throps", "gops-for-three", "raj"])
def test_on_a_page_nothing_is_clipped_and_no_labels_overlap(browser, game):  # noqa: F811
    svg = _board_chart(game)
    close = points_chart_svg(CLOSE[:3], ["Player 1", "Player 2", "Player 3"], title=TITLES[1], axis="trick")
    body = f'<div class="gopskit-summary">{svg}{close}</div>'
    for size in SIZES:
        page = open_page(browser, page_html(body), size)
        found = page.evaluate("""() => Array.from(document.querySelectorAll('svg.gopskit-svgchart')).map(svg => {
            const vb = svg.viewBox.baseVal, out = [], ends = [];
            for (const t of svg.querySelectorAll('text')) {
              const b = t.getBBox();
              if (b.x < vb.x - 0.5 || b.y < vb.y - 0.5 || b.x + b.width > vb.x + vb.width + 0.5 || b.y + b.height > vb.y + vb.height + 0.5)
                out.push(t.textContent);
              if (t.hasAttribute('fill')) ends.push([b.x, b.y, b.x + b.width, b.y + b.height, t.textContent]);
            }
            const overlaps = [];
            for (let i = 0; i < ends.length; i++) for (let j = i + 1; j < ends.length; j++) {
              const a = ends[i], b = ends[j];
              if (a[0] < b[2] && b[0] < a[2] && a[1] < b[3] - 1 && b[1] < a[3] - 1) overlaps.push(a[4] + ' / ' + b[4]);
            }
            return {clipped: out, overlaps};
        })""")
        page.close()
        for chart in found:
            assert not chart["clipped"] and not chart["overlaps"], (game, size, chart)
