"""The numbers behind the explorers, as pure functions (no ipywidgets, no plotting).

The explorers (:mod:`gopskit.widgets.explorers`) only arrange controls and
call these; tests call them directly.

>>> parse_matrix("1 -1\\n-1 1").tolist()
[[1.0, -1.0], [-1.0, 1.0]]
>>> report = matrix_report(PRESETS["Matching Pennies"][0])
>>> round(report.value, 6) + 0, report.row_mix.round(2).tolist()
(0.0, [0.5, 0.5])
"""

from __future__ import annotations

import dataclasses
import functools
from html import escape

import numpy as np

from ..errors import GopsError
from ..solvers import learning, matrix

PRESETS = {
    "Matching Pennies": ([[1, -1], [-1, 1]], ("heads", "tails"), ("heads", "tails")),
    "Rock-Paper-Scissors": ([[0, -1, 1], [1, 0, -1], [-1, 1, 0]], ("rock", "paper", "scissors"), ("rock", "paper", "scissors")),
    "Dominated strategies fall away": ([[4, 1, 3], [2, 3, 4], [1, 0, 2]], ("top", "middle", "bottom"), ("left", "centre", "right")),
    "Biased Rock-Paper-Scissors": ([[0, -1, 2], [1, 0, -1], [-2, 1, 0]], ("rock", "paper", "scissors"), ("rock", "paper", "scissors")),
}
GOOFSPIEL_TURN = "A Goofspiel turn (3 cards, prize 3)"


def parse_matrix(text: str) -> np.ndarray:
    """Read a payoff matrix typed as rows of numbers (spaces or commas), one row a line."""
    rows = [line.replace(",", " ").split() for line in str(text).strip().splitlines() if line.strip()]
    try:
        values = [[float(x) for x in row] for row in rows]
    except ValueError:
        raise GopsError("type the row player's payoffs as numbers, one row a line, e.g. '1 -1' then '-1 1'") from None
    if not values or len({len(r) for r in values}) != 1:
        raise GopsError("every row needs the same number of payoffs (at least one)")
    if len(values) > 8 or len(values[0]) > 8:
        raise GopsError("the explorer shows games up to 8 x 8")
    return np.array(values)


def preset(name: str):
    """``(payoffs, row labels, column labels)`` of a named game."""
    if name == GOOFSPIEL_TURN:
        game = matrix.goofspiel_turn_matrix([1, 2, 3], [1, 2, 3], [1, 2, 3], prize=3)
        return game.payoffs, tuple(map(str, game.row_labels)), tuple(map(str, game.col_labels))
    if name not in PRESETS:
        raise GopsError(f"unknown game {name!r}; choose one of {', '.join(preset_names())}")
    payoffs, rows, cols = PRESETS[name]
    return np.array(payoffs, float), rows, cols


def preset_names() -> list[str]:
    return [*PRESETS, GOOFSPIEL_TURN]


@dataclasses.dataclass
class MatrixReport:
    """Everything the matrix explorer shows about one zero-sum game."""

    payoffs: np.ndarray
    steps: list
    rows: list[int]
    cols: list[int]
    value: float
    row_mix: np.ndarray
    col_mix: np.ndarray


def matrix_report(payoffs) -> MatrixReport:
    """Dominance steps, survivors, value and one equilibrium of a zero-sum game."""
    A = np.asarray(payoffs, float)
    elimination = matrix.eliminate_dominated(A)
    value, x, y = matrix.solve_zero_sum(A)
    return MatrixReport(A, list(elimination.steps), elimination.rows, elimination.cols, float(value), x, y)


def render_matrix_html(report: MatrixReport, row_labels, col_labels, shown_steps: int) -> str:
    """The matrix as a table; strategies struck out in the first ``shown_steps`` steps are crossed out."""
    gone_rows = {s.strategy for s in report.steps[:shown_steps] if s.player == "row"}
    gone_cols = {s.strategy for s in report.steps[:shown_steps] if s.player != "row"}
    head = "".join(f'<th class="{"gopskit-gone" if j in gone_cols else ""}">{escape(str(c))}</th>' for j, c in enumerate(col_labels))
    body = []
    for i, label in enumerate(row_labels):
        cells = "".join(
            f'<td class="{"gopskit-gone" if i in gone_rows or j in gone_cols else ""}">{v:g}</td>'
            for j, v in enumerate(report.payoffs[i])
        )
        body.append(f'<tr><th class="{"gopskit-gone" if i in gone_rows else ""}">{escape(str(label))}</th>{cells}</tr>')
    steps = "".join(f"<li>{escape(s.explain(row_labels, col_labels))}</li>" for s in report.steps[:shown_steps])
    return (f'<table class="gopskit-history gopskit-matrix"><thead><tr><th></th>{head}</tr></thead>'
            f'<tbody>{"".join(body)}</tbody></table><ol class="gopskit-steps">{steps}</ol>')


def mix_text(mix, labels) -> str:
    """A mixed strategy in words: ``'heads 0.5, tails 0.5'`` (zero weights left out)."""
    return ", ".join(f"{label} {p:.3g}" for label, p in zip(labels, mix) if p > 1e-9)


# ----------------------------------------------------- strategy explorer ---
@functools.lru_cache(maxsize=6)
def goofspiel_solution(num_cards: int, objective: str, ties: str):
    """The exact solution of ``num_cards``-card Goofspiel (solved once per process)."""
    from ..solvers import solve_goofspiel

    return solve_goofspiel(num_cards=num_cards, objective=objective, ties=ties)


def parse_cards(text: str, num_cards: int, what: str) -> tuple[int, ...]:
    """Read cards typed as numbers (``"1 2 5"``) or ``"all"``; each from 1 to ``num_cards``."""
    text = str(text).strip().lower()
    if text in ("", "all"):
        return tuple(range(1, num_cards + 1))
    try:
        cards = sorted({int(x) for x in text.replace(",", " ").split()})
    except ValueError:
        raise GopsError(f"{what}: type card numbers 1 to {num_cards} separated by spaces, or 'all'") from None
    if not cards or cards[0] < 1 or cards[-1] > num_cards:
        raise GopsError(f"{what}: every card is a number from 1 to {num_cards}")
    return tuple(cards)


def bid_table(solution, hand, opp_hand, prizes, lead: int = 0, pot: int = 0):
    """``(probabilities[bid, prize], values per prize, value before the turn)`` at one position."""
    hand, prizes = tuple(sorted(hand)), tuple(sorted(prizes))
    if not len(hand) == len(opp_hand) == len(prizes):
        raise GopsError(f"both hands and the prizes left must have the same number of cards; "
                        f"got {len(hand)}, {len(opp_hand)} and {len(prizes)}")
    table = np.zeros((len(hand), len(prizes)))
    values = []
    for j, prize in enumerate(prizes):
        policy = solution.policy(hand, opp_hand, prizes, prize, lead=lead, pot=pot)
        table[:, j] = [policy.get(card, 0.0) for card in hand]
        values.append(solution.value(hand, opp_hand, prizes, prize, lead=lead, pot=pot))
    return table, values, solution.value(hand, opp_hand, prizes, None, lead=lead, pot=pot)


# ----------------------------------------------------- learning explorer ---
ALGORITHMS = ("fictitious play", "regret matching", "regret matching+", "CFR+ on 3-card Goofspiel", "CFR+ on 4-card blind Goofspiel")


@dataclasses.dataclass
class LearningTrace:
    """Iterations, the exploitability (NashConv) at each, and the row player's mix (or ``None``)."""

    iterations: np.ndarray
    exploitability: np.ndarray
    strategies: np.ndarray | None
    labels: tuple


def learning_trace(algorithm: str, payoffs=None, labels=(), iterations: int = 300) -> LearningTrace:
    """Run one learning algorithm and keep what the animation draws."""
    if algorithm.startswith("CFR"):
        return _cfr_trace(algorithm, iterations)
    if algorithm not in ALGORITHMS:
        raise GopsError(f"unknown algorithm {algorithm!r}; choose one of {', '.join(ALGORITHMS)}")
    if algorithm == "fictitious play":
        steps = list(learning.fictitious_play(payoffs, iterations=iterations))
        mixes = [s.row_strategy for s in steps]
    else:
        steps = list(learning.regret_matching(payoffs, iterations=iterations, plus=algorithm.endswith("+")))
        mixes = [s.row_average for s in steps]
    return LearningTrace(np.array([s.iteration for s in steps]), np.array([s.nash_conv for s in steps]),
                         np.array(mixes), tuple(labels))


def _cfr_trace(algorithm: str, iterations: int) -> LearningTrace:
    from ..games.goofspiel import Goofspiel
    from ..solvers.cfr import cfr

    rules = Goofspiel(num_cards=3) if "3-card" in algorithm else Goofspiel(num_cards=4, blind=True)
    every = max(1, iterations // 60)
    points = [(s.iteration, s.exploitability) for s in cfr(rules, iterations, every=every) if s.exploitability is not None]
    t, e = zip(*points)
    return LearningTrace(np.array(t), np.array(e), None, ())
