"""The explorers' screen oracle: every number and sentence they render agrees with an independent solution.

Nothing here trusts the kit's solvers: values and equilibria are recomputed
with scipy's linear programming (and, for Goofspiel, a small backward
induction written in this file); what the explorer shows is read back from
its HTML, its status line and its figures' text, the way a student reads it.
"""

from __future__ import annotations

import functools
import html
import itertools
import re
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scipy.optimize import linprog

from gopskit.cards import rank_name
from gopskit.widgets import explore_data as data
from gopskit.widgets import explorers as ex

NOISE = re.compile(r"\d\.0*[1-9]\d{4,}|\d[eE][-+]?\d|(?<![\w.])-0(?![\d./])|\bnan\b|\binf\b")


# ------------------------------------------------------ independent maths ---
def lp_value(A: np.ndarray) -> float:
    """The value of the zero-sum game A (row player maximises), by scipy's HiGHS."""
    m, n = A.shape
    cost = np.r_[np.zeros(m), -1.0]
    upper = np.c_[-A.T, np.ones(n)]  # v - x.A[:, j] <= 0
    equal = np.r_[np.ones(m), 0.0][None, :]
    res = linprog(cost, A_ub=upper, b_ub=np.zeros(n), A_eq=equal, b_eq=[1.0],
                  bounds=[(0, None)] * m + [(None, None)], method="highs")
    assert res.status == 0
    return -res.fun


def read_number(text: str) -> float:
    return float(Fraction(text.replace("+", "")))


def tolerance(text: str) -> float:
    """How far a written number may be from the truth: exact for whole numbers and fractions."""
    return 1e-9 if "." not in text else 0.5 * 10 ** -len(text.split(".")[1]) + 1e-9


def read_mix(text: str, labels) -> tuple[np.ndarray, float]:
    """``'rock 1/3, paper 2/3'`` or ``'always rock'`` back into a vector, with its rounding tolerance."""
    mix, tol = np.zeros(len(labels)), 1e-9
    if text.startswith("always "):
        mix[list(labels).index(text[len("always "):])] = 1.0
        return mix, tol
    for part in text.split(", "):
        label, _, written = part.rpartition(" ")
        mix[list(labels).index(label.removesuffix(":"))] = read_number(written)
        tol = max(tol, tolerance(written))
    return mix, tol


def plain(markup: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "\n", markup))


def capture_figures(monkeypatch) -> list:
    """Keep every figure an explorer draws (the SVG holds glyph outlines, not text)."""
    figures = []
    original = ex._svg

    def keep(fig):
        figures.append(fig)
        return original(fig)

    monkeypatch.setattr(ex, "_svg", keep)
    return figures


def figure_texts(fig) -> list[str]:
    texts = [t.get_text() for t in fig.findobj(lambda a: hasattr(a, "get_text"))]
    return [t for t in texts if t]


# ------------------------------------------------------ matrix explorer ---
def check_matrix_screen(explorer: ex.MatrixExplorer, A: np.ndarray, figures: list) -> None:
    rows, cols = explorer.labels
    summary = plain(explorer._summary.value)
    # the value
    written = re.search(r"Value (\S+)", summary).group(1)
    assert abs(read_number(written) - lp_value(A)) <= tolerance(written) * max(1, np.abs(A).max())
    # each player's mix is optimal: it guarantees the value against every reply
    v = lp_value(A)
    x, tx = read_mix(re.search(r"Row player plays: (.+)", summary).group(1).strip(), rows)
    y, ty = read_mix(re.search(r"Column player plays: (.+)", summary).group(1).strip(), cols)
    slack = (tx + ty) * len(x) * (np.abs(A).max() + 1) + 1e-7
    assert abs(x.sum() - 1) <= tx * len(x) + 1e-9 and abs(y.sum() - 1) <= ty * len(y) + 1e-9
    assert (x @ A >= v - slack).all() and (A @ y <= v + slack).all()
    # the steps: each named strategy is strictly dominated, in the game left at that point, by the one named
    report = explorer.report
    for shown in range(len(report.steps) + 1):
        explorer.steps.value = shown
        table, status = explorer._table.value, explorer.status
        assert not NOISE.search(status + plain(table)), status
        gone_rows = set(re.findall(r'<tr><th class="gopskit-gone">([^<]*)</th>', table))
        head = re.search(r"<thead>(.*)</thead>", table).group(1)
        gone_cols = set(re.findall(r'<th class="gopskit-gone">([^<]*)</th>', head))
        live_rows = [i for i, r in enumerate(rows) if html.escape(str(r)) not in gone_rows]
        live_cols = [j for j, c in enumerate(cols) if html.escape(str(c)) not in gone_cols]
        counts = re.search(r"(\d+) rows? and (\d+) columns?", status)
        assert counts and (int(counts.group(1)), int(counts.group(2))) == (len(live_rows), len(live_cols)), status
        if report.steps:
            assert (f"{shown} of {len(report.steps)}" in status) == (0 < shown < len(report.steps))
        steps = re.findall(r"<li>(.*?)</li>", table)
        assert len(steps) == shown
        for k, step in enumerate(steps):
            who, loser, _, winner = re.match(r"(row|column) (.+) is (strictly) dominated by (.+)",
                                             html.unescape(step)).groups()
            before_rows, before_cols = data.survivors_after(report, k)
            if who == "row":
                i, j = rows.index(loser), rows.index(winner)
                assert (A[j, before_cols] > A[i, before_cols]).all()
            else:
                i, j = cols.index(loser), cols.index(winner)
                assert (A[before_rows, j] < A[before_rows, i]).all()
        # the cells of the table are the payoffs
        cells = [read_number(c) for c in re.findall(r"<td[^>]*>([^<]*)</td>", table)]
        assert np.allclose(np.reshape(cells, A.shape), A, atol=5e-5)
        # the picture is of the game as it stands now: bars or lines of these strategies
        fig = figures[-1]
        texts = figure_texts(fig)
        assert not any(NOISE.search(t) for t in texts), texts
        row_ax = fig.axes[0]
        ticks = [t.get_text() for t in row_ax.get_xticklabels()]
        if len(live_cols) == 2:
            lines = row_ax.get_lines()
            assert [line.get_label() for line in lines[:len(live_rows)]] == [rows[i] for i in live_rows]
            for line, i in zip(lines, live_rows):  # payoff when the other plays its first column with chance q
                q, gain = line.get_xdata(), line.get_ydata()
                assert np.allclose(gain, A[i, live_cols[0]] * q + A[i, live_cols[1]] * (1 - q))
            share = report.col_mix[live_cols[0]] / report.col_mix[live_cols].sum()
            assert any(np.allclose(line.get_xdata(), share) for line in lines)  # the other's equilibrium mix
        else:
            assert ticks == [rows[i] for i in live_rows]
            sub = A[np.ix_(live_rows, live_cols)]
            col_mix = report.col_mix[live_cols] / report.col_mix[live_cols].sum()
            heights = [patch.get_height() for patch in row_ax.patches]
            assert np.allclose(heights, sub @ col_mix, atol=1e-9)
    # nothing left is strictly dominated, and the summary counts what is left
    live_rows, live_cols = data.survivors_after(report, len(report.steps))
    sub = A[np.ix_(live_rows, live_cols)]
    for a, b in itertools.permutations(range(len(live_rows)), 2):
        assert not (sub[b] > sub[a]).all()
    for a, b in itertools.permutations(range(len(live_cols)), 2):
        assert not (sub[:, b] < sub[:, a]).all()
    left = re.search(r"(\d+) rows? × (\d+) columns?", summary)
    assert (int(left.group(1)), int(left.group(2))) == (len(live_rows), len(live_cols))
    assert not NOISE.search(summary), summary


@pytest.mark.parametrize("game", data.preset_names())
def test_every_preset_agrees_with_the_lp(game, monkeypatch):
    figures = capture_figures(monkeypatch)
    explorer = ex.MatrixExplorer(game=game)
    assert explorer.last_error is None
    check_matrix_screen(explorer, data.preset(game)[0], figures)


def test_rock_paper_scissors_reads_as_people_write_it(monkeypatch):
    explorer = ex.MatrixExplorer(game="Rock-Paper-Scissors")
    summary = plain(explorer._summary.value)
    assert "Value 0\n" in summary and "rock 1/3, paper 1/3, scissors 1/3" in summary
    turn = ex.MatrixExplorer(game=data.GOOFSPIEL_TURN)
    assert "Row player plays: always bid 3" in plain(turn._summary.value)
    assert turn.status.startswith("The whole game (3 rows and 3 columns in play)")


matrices = st.tuples(st.integers(2, 3), st.integers(2, 4)).flatmap(
    lambda shape: st.lists(st.lists(st.integers(-6, 6), min_size=shape[1], max_size=shape[1]),
                           min_size=shape[0], max_size=shape[0]))


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(payoffs=matrices)
def test_typed_matrices_agree_with_the_lp(payoffs, monkeypatch):
    figures = capture_figures(monkeypatch)
    explorer = ex.MatrixExplorer(game="Matching Pennies")
    explorer.text.value = "\n".join(" ".join(map(str, row)) for row in payoffs)
    explorer.refresh(custom=True)
    assert explorer.last_error is None and explorer.game.value == "Type your own"
    check_matrix_screen(explorer, np.array(payoffs, float), figures)


def test_type_your_own_keeps_the_names():
    explorer = ex.MatrixExplorer(game="Rock-Paper-Scissors")
    explorer.text.value = explorer.text.value.replace("-1", "-2", 1)  # edit one payoff of the labelled text
    explorer.refresh(custom=True)
    assert explorer.labels == (("rock", "paper", "scissors"),) * 2 and explorer.report.payoffs[0, 1] == -2
    explorer.text.value = "0 -1 1\n1 0 -1\n-1 1 0"  # plain numbers, same shape: the names stay
    explorer.refresh(custom=True)
    assert explorer.labels[0] == ("rock", "paper", "scissors")
    explorer.text.value = ": L R\nup 3 0\ndown 5 1"
    explorer.refresh(custom=True)
    assert explorer.labels == (("up", "down"), ("L", "R")) and "always down" in plain(explorer._summary.value)


def test_an_error_replaces_the_old_picture():
    explorer = ex.MatrixExplorer()
    explorer.text.value = "1 2\n3"
    explorer.refresh(custom=True)
    assert "same number" in explorer.status
    assert explorer._picture.value == explorer._table.value == explorer._summary.value == ""
    strategy = ex.StrategyExplorer(num_cards=3)
    assert "<svg" in strategy._picture.value
    strategy.hand.value = "9"
    strategy.refresh()
    assert "A (or 1) to 3" in strategy.status and strategy._picture.value == "" and strategy.table is None


def assert_labels_inside_and_apart(fig, name: str) -> None:
    """Every title, axis label and visible tick label lies inside the figure, and no two overlap."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    canvas = FigureCanvasAgg(fig)
    canvas.draw()  # the layout engine places the labels when the figure is drawn
    renderer, box, labels = canvas.get_renderer(), fig.bbox, []
    for ax in fig.axes:
        low, high = sorted(ax.get_xlim())
        ticks = [t.label1 for t in ax.xaxis.get_major_ticks() if low - 1e-9 <= t.get_loc() <= high + 1e-9]
        for text in (ax.title, ax.xaxis.label, ax.yaxis.label, *ticks):
            if text.get_text():
                extent = text.get_window_extent(renderer)
                assert extent.x0 >= box.x0 - 1 and extent.x1 <= box.x1 + 1, (name, text.get_text())
                assert extent.y0 >= box.y0 - 1 and extent.y1 <= box.y1 + 1, (name, text.get_text())
                labels.append((text.get_text(), extent))
    for (a, ea), (b, eb) in itertools.combinations(labels, 2):
        assert not ea.overlaps(eb), (name, a, b)


def test_the_explorers_figures_keep_every_label_inside_and_apart():
    from gopskit.viz.figures import convergence_figure, heatmap_figure, payoff_lines_figure

    for game in data.preset_names():
        A, rows, cols = data.preset(game)
        report = data.matrix_report(A)
        assert_labels_inside_and_apart(payoff_lines_figure(A, -A, rows, cols, report.row_mix, report.col_mix), game)
    for n in (1, 2, 5, 8, 13):
        cards = list(range(1, n + 1))
        assert_labels_inside_and_apart(heatmap_figure(np.full((n, n), 1 / n), cards, cards), f"{n} cards")
    trace = data.learning_trace("fictitious play", *data.preset("Biased Rock-Paper-Scissors")[:2], iterations=40)
    assert_labels_inside_and_apart(convergence_figure(trace.iterations, trace.exploitability, trace.strategies,
                                                      trace.labels, title="fictitious play"), "learning")


# ----------------------------------------------------- strategy explorer ---
@functools.lru_cache(maxsize=None)
def goofspiel_value(hand: tuple, opp: tuple, prizes: tuple, prize=None, lead: int = 0, objective: str = "points") -> float:
    """Backward induction with an LP per turn, ties discarded (independent of the kit's solver).

    "points": the expected point difference still to come; "win": the chance
    of winning minus the chance of losing, given the ``lead`` so far.
    """
    if not prizes:
        return float(np.sign(lead)) if objective == "win" else 0.0
    if prize is None:
        return float(np.mean([goofspiel_value(hand, opp, prizes, p, lead, objective) for p in prizes]))
    return lp_value(turn_matrix(hand, opp, prizes, prize, lead, objective))


def turn_matrix(hand, opp, prizes, prize, lead=0, objective="points") -> np.ndarray:
    rest = tuple(p for p in prizes if p != prize)

    def after(a, b):
        won = np.sign(a - b) * prize
        later = goofspiel_value(tuple(c for c in hand if c != a), tuple(c for c in opp if c != b), rest,
                                None, lead + int(won), objective)
        return later if objective == "win" else won + later

    return np.array([[after(a, b) for b in opp] for a in hand])


POSITIONS = [("all", "all", "all", 0, "points"), ("2 3", "1 3", "1 2", 0, "points"),
             ("1 3", "2 3", "2 3", 0, "points"), ("3", "1", "2", 0, "points"), ("1 2", "2 3", "1 3", 0, "points"),
             ("all", "all", "all", 0, "win"), ("1 2", "1 3", "2 3", 1, "win"), ("2 3", "1 3", "1 3", -2, "win")]


@pytest.mark.parametrize("hand, opp, prizes, lead, objective", POSITIONS)
def test_strategy_explorer_agrees_with_backward_induction(hand, opp, prizes, lead, objective, monkeypatch):
    check_strategy_explorer(3, hand, opp, prizes, lead, objective, monkeypatch)


# Late positions of the full deck, which the explorer solves on the spot (the same induction checks them).
FULL_DECK_POSITIONS = [("2 9 13", "5 9 12", "1 7 13", 0, "points"), ("1 4 8 11", "3 4 10 13", "2 5 6 12", 0, "points"),
                       ("6 12", "7 11", "4 9", 3, "win"), ("1 8 13", "2 9 10", "3 11 13", -4, "win")]


@pytest.mark.parametrize("hand, opp, prizes, lead, objective", FULL_DECK_POSITIONS)
def test_strategy_explorer_on_the_full_deck_agrees_with_backward_induction(hand, opp, prizes, lead, objective,
                                                                           monkeypatch):
    source = check_strategy_explorer(13, hand, opp, prizes, lead, objective, monkeypatch)
    assert source == "the rest of this hand, solved exactly just now.)"


def check_strategy_explorer(n, hand, opp, prizes, lead, objective, monkeypatch) -> str:
    """Set the strategy explorer to a position of the ``n``-card game; check its status and heat map."""
    figures = capture_figures(monkeypatch)
    explorer = ex.StrategyExplorer(num_cards=n)
    explorer.objective.value = objective
    explorer.hand.value, explorer.opp_hand.value, explorer.prizes.value = hand, opp, prizes
    explorer.lead.value = lead
    explorer.refresh()
    assert explorer.last_error is None and "gopskit-error" not in explorer._status.value, explorer.status
    H, O, P = (data.parse_cards(t, n, "x") for t in (hand, opp, prizes))
    truth = functools.partial(goofspiel_value, lead=lead, objective=objective)
    status, _, source = explorer.status.partition(" (From ")  # the full deck says where its numbers come from
    assert not NOISE.search(status), status
    assert ("expected points ahead" in status) == (objective == "points")
    worth = re.search(r"Worth (\S+) to you", status).group(1)
    assert abs(read_number(worth) - truth(H, O, P)) <= tolerance(worth)
    if "stays worth 0" in status:
        assert all(abs(truth(H, O, P, p)) < 1e-9 for p in P)
        assert ("symmetry" in status) == (H == O and lead == 0)
    else:
        parts = status.split("turned: ")[1].rstrip(".").split(", ")
        shown = dict(part.split(" ")[1:] for part in parts)
        assert set(shown) == {rank_name(p) for p in P}  # the boards' card names: A, 2, ..., J, Q, K
        for p in P:
            assert abs(read_number(shown[rank_name(p)]) - truth(H, O, P, p)) <= tolerance(shown[rank_name(p)])
    # the heat map: each column is an optimal mixed bid for that prize, as the cells print it
    fig = figures[-1]
    ax = fig.axes[0]
    printed = np.zeros((len(H), len(P)))
    for text in ax.texts:
        x, y = text.get_position()
        printed[int(round(y)), int(round(x))] = read_number(text.get_text())
    assert [t.get_text() for t in ax.get_xticklabels()] == [rank_name(p) for p in P]
    for j, p in enumerate(P):
        M = turn_matrix(H, O, P, p, lead, objective)
        assert abs(printed[:, j].sum() - 1) < 0.02
        assert (printed[:, j] @ M >= lp_value(M) - 0.02 * (np.abs(M).max() + 1)).all()
    return source


# ----------------------------------------------------- learning explorer ---
@pytest.mark.parametrize("algorithm", ["fictitious play", "regret matching", "regret matching+"])
def test_learning_explorer_shows_the_exploitability_of_the_mix_it_names(algorithm, monkeypatch):
    from gopskit.solvers import learning

    figures = capture_figures(monkeypatch)
    explorer = ex.LearningExplorer(game="Biased Rock-Paper-Scissors", algorithm=algorithm, iterations=60)
    A, labels, _ = data.preset("Biased Rock-Paper-Scissors")
    if algorithm == "fictitious play":
        steps = [(s.row_strategy, s.col_strategy) for s in learning.fictitious_play(A, iterations=60)]
    else:
        steps = [(s.row_average, s.col_average) for s in
                 learning.regret_matching(A, iterations=60, plus=algorithm.endswith("+"))]
    for frame in (1, 13, 40):
        explorer.frame.value = frame
        status = explorer.status
        assert not NOISE.search(status), status
        iteration = int(re.search(r"iteration (\d+)", status).group(1))
        x, y = steps[iteration - 1]
        # exploitability: the average of what each side could gain by deviating (half the NashConv, as in CFR+)
        exploitability = ((A @ y).max() - (x @ A).min()) / 2
        written = re.search(r"exploitability (\S+?)[;,]", status + ";").group(1)
        assert read_number(written) == pytest.approx(exploitability, rel=0.006, abs=1e-9)
        mix, tol = read_mix(status.split("row player's mix: ")[1], labels)
        assert np.allclose(mix, x, atol=tol)
        # the picture ends where the status line is: the last point of each curve
        mix_ax, exploit_ax = figures[-1].axes[:2]
        assert exploit_ax.get_lines()[0].get_xdata()[-1] == iteration
        assert exploit_ax.get_lines()[0].get_ydata()[-1] == pytest.approx(exploitability, rel=1e-6, abs=1e-12)
        assert [line.get_ydata()[-1] for line in mix_ax.get_lines()] == pytest.approx(list(x))


@pytest.mark.parametrize("typed", ["1000 0\n0 1", "0.1 0.2\n0.3 0.4", "5", "1 2 3", "1/3 0\n0 2/3"])
def test_awkward_typed_games_agree_with_the_lp(typed, monkeypatch):
    """Tiny weights stay visible (1/1001 is not '0'), tenths stay decimals, a single cell is a game."""
    figures = capture_figures(monkeypatch)
    explorer = ex.MatrixExplorer(game="Matching Pennies")
    explorer.text.value = typed
    explorer.refresh(custom=True)
    assert explorer.last_error is None and explorer.game.value == "Type your own", explorer.status
    check_matrix_screen(explorer, data.parse_matrix(typed), figures)
    summary = plain(explorer._summary.value)
    assert not re.search(r"\w+ 0(,|\n|$)", summary.split("plays:")[-1]), summary  # no strategy played 'with chance 0'
