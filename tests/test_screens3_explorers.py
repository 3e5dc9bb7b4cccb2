"""Explorer screens after the third screen audit: every number and sentence true, every label legible.

Each test drives an explorer (or a figure) without a browser and fails on what the audit saw.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

from gopskit.widgets import explore_data as data
from gopskit.widgets.explorers import LearningExplorer, MatrixExplorer, StrategyExplorer


# ------------------------------------------------- strategy explorer: lead ---
def test_a_lead_under_most_points_is_added_to_the_expected_finish():
    """Lead 4 (from prizes 4 and 5 already turned) was silently dropped: 'Worth 0 ... (expected points ahead)'."""
    explorer = StrategyExplorer(num_cards=5)
    explorer.hand.value = explorer.opp_hand.value = explorer.prizes.value = "1 2 3"
    explorer.lead.value = 4
    explorer.refresh()
    assert explorer.last_error is None and "gopskit-error" not in explorer._status.value, explorer.status
    sol = data.goofspiel_solution(5, "points", "discard")
    rest = sol.value((1, 2, 3), (1, 2, 3), (1, 2, 3))
    assert rest == pytest.approx(0, abs=1e-9)
    assert "expected points ahead from the prizes left" in explorer.status
    assert explorer.status.endswith("You are 4 points ahead now, so you expect to finish 4 ahead: "
                                    "under this aim a lead changes no bid."), explorer.status
    explorer.hand.value = "1 2 5"  # an edge over the rest: the finish is the lead plus that edge
    explorer.lead.value = -3
    explorer.refresh()
    edge = sol.value((1, 2, 5), (1, 2, 3), (1, 2, 3))
    worth = re.search(r"Worth (\S+) to you", explorer.status).group(1)
    finish = re.search(r"expect to finish (\S+) (ahead|behind)", explorer.status)
    assert float(worth) == pytest.approx(edge, abs=0.005)
    assert (float(finish.group(1)) * (1 if finish.group(2) == "ahead" else -1)) == pytest.approx(edge - 3, abs=0.005)
    assert "You are 3 points behind now" in explorer.status


@pytest.mark.parametrize("objective", ["points", "win"])
def test_an_impossible_lead_is_refused_under_either_aim(objective):
    """'win the game' refused lead 5 with nothing turned; 'most points' took it and answered."""
    explorer = StrategyExplorer(num_cards=5)
    explorer.objective.value = objective
    explorer.lead.value = 5
    explorer.refresh()
    assert explorer.status == "Your lead (points): 5 is impossible: only 0 points were turned before these prizes"
    assert "gopskit-error" in explorer._status.value and explorer.table is None and explorer._picture.value == ""
    explorer.prizes.value = explorer.hand.value = explorer.opp_hand.value = "1 2 3 4"  # the 5 was turned
    explorer.refresh()
    assert explorer.last_error is None and "gopskit-error" not in explorer._status.value, explorer.status
    explorer.lead.value = -6
    explorer.refresh()
    assert explorer.status == "Your lead (points): -6 is impossible: only 5 points were turned before these prizes"


# ------------------------------------------- strategy explorer: card names ---
def test_the_strategy_explorer_names_cards_as_the_boards_do(monkeypatch):
    """The heat map and the status said 1 and 13 where the boards say A and K."""
    from gopskit.viz import figures

    drawn = []
    monkeypatch.setattr(figures, "heatmap_figure", lambda table, bids, prizes, **kw: drawn.append((bids, prizes)) or
                        figures.Figure())
    explorer = StrategyExplorer(num_cards=3)
    explorer.hand.value, explorer.opp_hand.value, explorer.prizes.value = "A 3", "2 3", "a, 2"  # names are typed too
    explorer.refresh()
    assert explorer.last_error is None, explorer.status
    assert drawn[-1] == (["A", "3"], ["A", "2"])
    assert "Once the prize is turned: prize A " in explorer.status and "prize 1 " not in explorer.status
    explorer.hand.value = explorer.opp_hand.value = explorer.prizes.value = "all"
    explorer.num_cards.value = 13
    assert drawn[-1] == (["A", *map(str, range(2, 11)), "J", "Q", "K"],) * 2
    explorer.hand.value = "K Q 14"
    explorer.refresh()
    assert explorer.status == "Your hand: every card is one of A (or 1) to K (or 13)"
    assert data.parse_cards("q k 1", 13, "x") == (1, 12, 13)


# ------------------------------------------------ matrix explorer: bars ---
def test_a_best_reply_worth_zero_is_visible_and_named():
    """'A Goofspiel turn': bid 3 is best and worth 0, so its bar had no height and the promised blue was nowhere."""
    from matplotlib.colors import to_hex

    from gopskit.viz.figures import payoff_lines_figure
    from gopskit.viz.svg import PALETTE

    payoffs, rows, cols = data.preset(data.GOOFSPIEL_TURN)
    report = data.matrix_report(payoffs)
    fig = payoff_lines_figure(report.payoffs, -report.payoffs, rows, cols, report.row_mix, report.col_mix)
    for ax in fig.axes:
        heights = [bar.get_height() for bar in ax.patches]
        assert heights[2] == 0 and heights[:2] == pytest.approx([-2 / 3, -2])  # bid 3 is the best reply, worth 0
        assert ax.get_xlabel().endswith("(best, in solid blue: bid 3)"), ax.get_xlabel()
        flat = [line for line in ax.lines if line.get_gid() == "gopskit-flat-bar"]
        assert len(flat) == 1 and to_hex(flat[0].get_color()) == PALETTE[0].lower()
        bar = ax.patches[2]
        assert sorted(flat[0].get_xdata()) == pytest.approx([bar.get_x(), bar.get_x() + bar.get_width()])
        assert flat[0].get_linewidth() >= 4 and list(flat[0].get_ydata()) == [0, 0]


# ------------------------------------------- strategy explorer: type size ---
SMALLEST_LABEL = 16.0  # tests/test_browser_layout.py: no text on screen under 16 px


@pytest.mark.parametrize("cards", range(5, 14))
def test_the_heat_map_text_shows_at_16_px_or_more_for_every_deck(cards):
    """The 13-card map grew to 11.55 inches while its box stayed 1040 px: 12 pt type showed at 15 px (14 at 1024)."""
    from matplotlib.text import Text

    from gopskit.cards import rank_name
    from gopskit.viz.figures import FIGURE_BOXES, displayed_px, figure_to_svg, heatmap_figure

    names = [rank_name(c) for c in range(1, cards + 1)]
    fig = heatmap_figure(np.full((cards, cards), 1 / cards), names, names)
    figure_to_svg(fig)  # drawn as the page draws it: every tick label made
    texts = [t for t in fig.findobj(Text) if t.get_visible() and t.get_text().strip()]
    assert len(texts) > cards * cards + 2 * cards  # the cells, both axes' ticks, the titles
    size = tuple(fig.get_size_inches())
    for box in ((1040, 900), (960, 900), *FIGURE_BOXES):  # 1280 and 1024 wide; laptops and small projectors
        for text in texts:
            px = displayed_px(text.get_fontsize(), size, box)
            assert px >= SMALLEST_LABEL, f"{text.get_text()!r} shows at {px:.1f} px in a {box} box"
    # the old figure at 13 cards: 12 pt type in an 11.55-inch figure, 1040 px wide
    assert displayed_px(12, (11.55, 8.55), (1040, 900)) < SMALLEST_LABEL


# ------------------------------------------------------ learning explorer ---
def test_the_learning_status_names_the_slider_frame_and_writes_the_mix_in_one_format():
    """The slider read 'Frame 1' beside 'iteration 8', and the mix read 'bid 1 1/8' (one and an eighth?) beside
    'bid 1 0.00333'."""
    explorer = LearningExplorer(game=data.GOOFSPIEL_TURN)
    trace = explorer.trace
    for frame in (1, 20, explorer.frames):
        explorer.frame.value = frame
        upto = max(1, round(len(trace.iterations) * frame / explorer.frames))
        assert explorer.frame.description == "Frame"
        heading = f"Fictitious play on {data.GOOFSPIEL_TURN}: "
        assert explorer.status.startswith(f"{heading}iteration {trace.iterations[upto - 1]} of 300 "
                                          f"(frame {frame} of {explorer.frames}), exploitability "), explorer.status
        mix = explorer.status.split("row player's mix: ")[1].split(", ")
        assert len(mix) == 3 and all(re.fullmatch(r"bid [123]: [01]\.\d{3}", part) for part in mix), mix
        written = [float(part.split(": ")[1]) for part in mix]
        assert written == pytest.approx(list(trace.strategies[upto - 1]), abs=0.0005 + 1e-12)
    assert explorer.status.split("row player's mix: ")[1] == "bid 1: 0.003, bid 2: 0.003, bid 3: 0.993"


# -------------------------------------------- matrix explorer: Payoffs box ---
@pytest.mark.parametrize("game", data.preset_names())
def test_the_payoffs_box_is_laid_out_and_labelled_as_the_table(game):
    """The box began with a bare ':' and said 'bid_1' where the table said 'bid 1'."""
    explorer = MatrixExplorer(game=game)
    rows, cols = explorer.labels
    lines = explorer.text.value.splitlines()
    assert not lines[0].strip().startswith(":") and "_" not in explorer.text.value, explorer.text.value
    assert re.split(r"\s{2,}", lines[0].strip()) == list(cols)  # the head line: the table's column labels
    for line, label in zip(lines[1:], rows):
        assert line.startswith(label + "  ")  # each row: the table's row label, then its payoffs
    table = re.findall(r"<th[^>]*>([^<]*)</th>", explorer._table.value)
    assert table == ["", *cols, *rows]
    before = explorer.report.payoffs
    explorer.refresh(custom=True)  # the box read back: the same game under the same names
    assert explorer.game.value == "Type your own" and explorer.labels == (tuple(rows), tuple(cols))
    assert np.allclose(explorer.report.payoffs, before) and explorer.last_error is None


def test_the_old_layout_of_the_payoffs_box_is_still_read():
    assert data.parse_labelled_matrix(": bid_1 R\nbid_1 3 0\ndown 5 1")[1:] == (("bid 1", "down"), ("bid 1", "R"))
    assert data.parse_labelled_matrix("up 3 0\ndown 5 1")[1:] == (("up", "down"), ("c1", "c2"))
    assert data.parse_labelled_matrix("1 -1\n-1 1")[1:] == (None, None)


# ------------------------------------------------ Raj's points chart ticks ---
def _bottom_labels(svg: str):
    from gopskit.viz.svg import CHAR_EM, TICK_PX

    found = re.findall(r'<text class="gopskit-tick" x="([\d.]+)" y="[\d.]+" font-size="\d+" '
                       r'text-anchor="middle">(\d+)</text>', svg)
    return [(float(x) - len(t) * TICK_PX * CHAR_EM / 2, float(x) + len(t) * TICK_PX * CHAR_EM / 2, int(t))
            for x, t in found]


@pytest.mark.parametrize("turns", [13, 15, 16, 20, 27, 40])
def test_the_turn_labels_of_a_points_chart_stay_apart(turns):
    """Raj's end chart (15 turns): '14' and '15' nearly touched along the bottom."""
    from gopskit.viz.svg import TICK_GAP, points_chart_svg, turn_ticks

    series = [[0] + [k % 7 for k in range(1, turns + 1)], [0] * (turns + 1), [0] + [-k for k in range(1, turns + 1)]]
    svg = points_chart_svg(series, ["Player 1", "Player 2", "Player 3"])
    labels = _bottom_labels(svg)
    assert labels[0][2] == 0 and labels[-1][2] == turns  # the start and the end are always named
    for (_, right, a), (left, _, b) in zip(labels, labels[1:]):
        assert left - right >= TICK_GAP >= 8, f"turn {a}'s label ends {left - right:.1f} px before turn {b}'s"
    assert svg.count('stroke="#444"/>') - 2 == len(turn_ticks(turns))  # every tick mark stays (minus the 2 axes)


def test_raj_end_chart_drops_the_label_of_turn_14_not_15():
    from gopskit.viz.svg import points_chart_svg

    series = [[0, -2, -5, -5, -2, -2, -1, -1, -1, -1, 5, 5, 13, 18, 18, 18],
              [0, 0, 0, 0, 0, -1, 8, 15, 19, 19, 21, 21, 21, 16, 16, 26], [0, 0, 0, -4] + [-4] * 12]
    labels = [t for _, _, t in _bottom_labels(points_chart_svg(series, ["Player 1", "Player 2", "Player 3"]))]
    assert labels == [0, 2, 4, 6, 8, 10, 12, 15]
