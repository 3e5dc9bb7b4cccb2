"""The numbers behind the explorers, as pure functions (no ipywidgets, no plotting).

The explorers (:mod:`gopskit.widgets.explorers`) only arrange controls and
call these; tests call them directly.

>>> parse_matrix("1 -1\\n-1 1").tolist()
[[1.0, -1.0], [-1.0, 1.0]]
>>> report = matrix_report(PRESETS["Matching Pennies"][0])
>>> round(report.value, 6) + 0, report.row_mix.round(2).tolist()
(0.0, [0.5, 0.5])
>>> mix_text(report.row_mix, ("heads", "tails")), mix_text([0, 1], ("heads", "tails"))
('heads 1/2, tails 1/2', 'always tails')

Every number is written by :mod:`gopskit.numbers` (``1/3``, never
``0.333`` or ``-1.11e-16``).
"""

from __future__ import annotations

import dataclasses
import functools
import re
from fractions import Fraction
from html import escape

import numpy as np

from ..cards import parse_rank, rank_name
from ..errors import GopsError
from ..numbers import clean, fixed, number
from ..solvers import learning, matrix

PRESETS = {
    "Matching Pennies": ([[1, -1], [-1, 1]], ("heads", "tails"), ("heads", "tails")),
    "Rock-Paper-Scissors": ([[0, -1, 1], [1, 0, -1], [-1, 1, 0]], ("rock", "paper", "scissors"), ("rock", "paper", "scissors")),
    "Dominated strategies fall away": ([[4, 1, 3], [2, 3, 4], [1, 0, 2]], ("top", "middle", "bottom"), ("left", "centre", "right")),
    "Biased Rock-Paper-Scissors": ([[0, -1, 2], [1, 0, -1], [-2, 1, 0]], ("rock", "paper", "scissors"), ("rock", "paper", "scissors")),
}
GOOFSPIEL_TURN = "A Goofspiel turn (3 cards, prize 3)"
LARGEST_PAYOFF = 1e9  # the solvers' tolerances are absolute: bigger payoffs would drown them
EMPTY_MATRIX = ("the Payoffs box is empty: type the row player's payoffs, one row a line "
                "(e.g. '1 -1' then '-1 1'), then press 'Use my matrix'")


def parse_matrix(text: str) -> np.ndarray:
    """Read a payoff matrix typed as rows of numbers (spaces or commas), one row a line.

    Numbers may be whole, decimal or fractions (``2/3``), as the explorer writes them.
    """
    rows = [line.replace(",", " ").split() for line in str(text).strip().splitlines() if line.strip()]
    if not rows:
        raise GopsError(EMPTY_MATRIX)
    try:
        values = [[_read_number(x) for x in row] for row in rows]
    except GopsError:  # a GopsError is a ValueError: this one already says what is wrong
        raise
    except (ValueError, ZeroDivisionError):
        raise GopsError("type the row player's payoffs as numbers (like 3, -1.5 or 2/3), one row a line, "
                        "e.g. '1 -1' then '-1 1'") from None
    if not values or len({len(r) for r in values}) != 1:
        counts = ", ".join(str(len(r)) for r in values) or "none"
        raise GopsError(f"every row needs the same number of payoffs (at least one); the rows hold {counts}")
    if len(values) > 8 or len(values[0]) > 8:
        raise GopsError("the explorer shows games up to 8 x 8")
    return np.array(values)


def preset(name: str):
    """``(payoffs, row labels, column labels)`` of a named game."""
    if name == GOOFSPIEL_TURN:
        game = matrix.goofspiel_turn_matrix([1, 2, 3], [1, 2, 3], [1, 2, 3], prize=3)
        return (np.vectorize(clean)(game.payoffs), tuple(f"bid {x}" for x in game.row_labels),
                tuple(f"bid {x}" for x in game.col_labels))
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
    """Dominance steps, survivors, value and one equilibrium of a zero-sum game.

    The value and the mixes are cleaned of floating-point noise
    (:func:`gopskit.numbers.clean`): Rock-Paper-Scissors is worth 0, not
    ``-1.11e-16``.
    """
    A = np.asarray(payoffs, float)
    elimination = matrix.eliminate_dominated(A)
    value, x, y = matrix.solve_zero_sum(A)
    return MatrixReport(A, list(elimination.steps), elimination.rows, elimination.cols, clean(value),
                        _clean_mix(x), _clean_mix(y))


def _clean_mix(mix) -> np.ndarray:
    """A mixed strategy without noise: tiny weights are 0, the rest still sums to 1."""
    mix = np.where(np.abs(np.asarray(mix, float)) < 1e-7, 0.0, np.asarray(mix, float))  # below HiGHS's tolerance
    return mix / mix.sum()


def survivors_after(report: MatrixReport, shown_steps: int) -> tuple[list[int], list[int]]:
    """The rows and columns still in play after the first ``shown_steps`` steps of dominance."""
    gone_rows = {s.strategy for s in report.steps[:shown_steps] if s.player == "row"}
    gone_cols = {s.strategy for s in report.steps[:shown_steps] if s.player != "row"}
    m, n = report.payoffs.shape
    return [i for i in range(m) if i not in gone_rows], [j for j in range(n) if j not in gone_cols]


def steps_text(report: MatrixReport, shown_steps: int) -> str:
    """The status line of the dominance animation, true at every step."""
    total = len(report.steps)
    if total == 0:
        m, n = report.payoffs.shape
        every = "all " if m * n > 1 else ""
        return f"No strategy is strictly dominated here: {every}{_count(m, 'row')} and {_count(n, 'column')} stay in play."
    rows, cols = survivors_after(report, shown_steps)
    left = total - shown_steps
    now = f"{_count(len(rows), 'row')} and {_count(len(cols), 'column')} in play"
    if shown_steps == 0:
        return f"The whole game ({now}). {_count(total, 'dominated strategy', 'dominated strategies')} " \
               f"can be struck out: press play or drag the slider."
    if left:
        return f"Struck out {shown_steps} of {total} dominated strategies ({now}); {left} more to go."
    return f"All {total} dominated strategies struck out: {now}, none of them dominated."


def _count(k: int, one: str, many: str | None = None) -> str:
    return f"{k} {one if k == 1 else (many or one + 's')}"


def render_matrix_html(report: MatrixReport, row_labels, col_labels, shown_steps: int) -> str:
    """The matrix as a table; strategies struck out in the first ``shown_steps`` steps are crossed out."""
    gone_rows = {s.strategy for s in report.steps[:shown_steps] if s.player == "row"}
    gone_cols = {s.strategy for s in report.steps[:shown_steps] if s.player != "row"}
    head = "".join(f'<th class="{"gopskit-gone" if j in gone_cols else ""}">{escape(str(c))}</th>'
                   for j, c in enumerate(col_labels))
    body = []
    for i, label in enumerate(row_labels):
        cells = "".join(
            f'<td class="{"gopskit-gone" if i in gone_rows or j in gone_cols else ""}">{number(v, places=4)}</td>'
            for j, v in enumerate(report.payoffs[i])
        )
        body.append(f'<tr><th class="{"gopskit-gone" if i in gone_rows else ""}">{escape(str(label))}</th>{cells}</tr>')
    steps = "".join(f"<li>{escape(s.explain(row_labels, col_labels))}</li>" for s in report.steps[:shown_steps])
    return (f'<table class="gopskit-history gopskit-matrix"><thead><tr><th></th>{head}</tr></thead>'
            f'<tbody>{"".join(body)}</tbody></table><ol class="gopskit-steps">{steps}</ol>')


def mix_text(mix, labels, places: int | None = None) -> str:
    """A strategy in words: ``'heads 1/2, tails 1/2'`` (zero weights left out), or ``'always tails'``.

    With ``places``, every weight is a decimal with that many places after a colon, for
    mixes that are not exact fractions (a learner's): ``'bid 1: 0.125, bid 3: 0.003'``, never
    ``'bid 1 1/8'`` (one and an eighth?) beside ``'bid 3 0.00333'``.

    >>> mix_text([1 / 8, 0, 7 / 8], ("bid 1", "bid 2", "bid 3"), places=3)
    'bid 1: 0.125, bid 3: 0.875'
    """
    weights = [(label, clean(p)) for label, p in zip(labels, mix) if clean(p) > 1e-7]
    if len(weights) == 1:
        return f"always {weights[0][0]}"
    if places is not None:
        return ", ".join(f"{label}: {fixed(p, places)}" for label, p in weights)
    return ", ".join(f"{label} {number(p)}" for label, p in weights)


def matrix_text(payoffs, row_labels=None, col_labels=None) -> str:
    """The matrix as the explorer's text box shows it: laid out as the table, labels as the table writes them.

    Cells are set off by two spaces or more, so a label may hold a space (``bid 1``);
    the first line names the columns, each row starts with its name.

    >>> print(matrix_text([[0, -1], [1, 0]], ("rock", "paper"), ("rock", "paper")))
              rock  paper
    rock         0     -1
    paper        1      0
    """
    cells = [[number(v, places=4) for v in row] for row in np.asarray(payoffs, float)]
    if row_labels is None:
        return "\n".join(" ".join(row) for row in cells)
    left = max(len(str(r)) for r in row_labels) + 2
    width = max(2, *(len(str(c)) for c in col_labels), *(len(c) for row in cells for c in row)) + 2
    head = " " * left + "".join(str(c).rjust(width) for c in col_labels)
    body = [str(r).ljust(left) + "".join(c.rjust(width) for c in row) for r, row in zip(row_labels, cells)]
    return "\n".join([head, *body])


_GAP = re.compile(r"\t|,|\s{2,}")  # between the cells of a line: a tab, a comma or two spaces or more


def _cells(line: str) -> list[str]:
    return [cell.strip() for cell in _GAP.split(line.strip()) if cell.strip()]


def _not_a_payoff(word: str) -> bool:
    return word.lower().lstrip("+-") in ("nan", "inf", "infinity")


def _label_line(line: str) -> list[str] | None:
    """The column names a first line gives (the layout of :func:`matrix_text`, or words), or ``None`` for a row."""
    cells, words = _cells(line), line.replace(",", " ").split()
    if any(_not_a_payoff(w) for w in words) or any(all(_is_number(w) for w in cell.split()) for cell in cells):
        return None
    if len(cells) == 1 and any(_is_number(w) for w in words):  # 'up 3 0': a row named up
        return None
    return cells if len(cells) > 1 else words


def parse_labelled_matrix(text: str):
    """``(payoffs, row labels, column labels)`` from what the text box holds.

    Plain rows of numbers work (labels are then ``None``); so does the
    layout of :func:`matrix_text`: a first line of names only names the
    columns, and a row may start with a name. Cells set off by two spaces
    or more (or a tab, or a comma) may hold spaces (``bid 1``); in a line
    of single spaces a name is one word (``_`` stands for a space:
    ``bid_3`` is the label ``bid 3``). A first line starting with ``:``
    names the columns too.

    >>> payoffs, rows, cols = parse_labelled_matrix(": L R\\nup 3 0\\ndown 5 1")
    >>> payoffs.tolist(), rows, cols
    ([[3.0, 0.0], [5.0, 1.0]], ('up', 'down'), ('L', 'R'))
    >>> parse_labelled_matrix("       bid 1  bid 2\\nbid 1      0     -2\\nbid 2      2      0")[1:]
    (('bid 1', 'bid 2'), ('bid 1', 'bid 2'))
    """
    lines = [line for line in str(text).strip().splitlines() if line.strip()]
    if not lines:
        raise GopsError(EMPTY_MATRIX)
    cols = None
    if lines[0].lstrip().startswith(":"):
        cols = tuple(x.replace("_", " ") for x in lines[0].lstrip()[1:].replace(",", " ").split())
        lines = lines[1:]
    elif len(lines) > 1 and _label_line(lines[0]) is not None:
        cols = tuple(x.replace("_", " ") for x in _label_line(lines[0]))
        lines = lines[1:]
    names, numbers_only = [], []
    for line in lines:
        cells, parts = _cells(line), line.replace(",", " ").split()
        if parts and _not_a_payoff(parts[0]):
            raise GopsError(f"payoffs are ordinary numbers, not {parts[0]!r}")
        if len(cells) > 1 and not all(_is_number(w) for w in cells[0].split()):  # a name set off by two spaces
            names.append(cells[0].replace("_", " "))
            parts = " ".join(cells[1:]).split()
        elif parts and not _is_number(parts[0]):
            names.append(parts[0].replace("_", " "))
            parts = parts[1:]
        else:
            names.append(None)
        numbers_only.append(" ".join(parts))
    payoffs = parse_matrix("\n".join(numbers_only))
    m, n = payoffs.shape
    if cols is not None and len(cols) != n:
        raise GopsError(f"the label line names {len(cols)} columns but each row has {n} payoffs")
    rows = tuple(name or f"r{i + 1}" for i, name in enumerate(names)) if any(names) else None
    for labels, what in ((rows, "row"), (cols, "column")):  # the table, the bars and the mixes name them
        twice = sorted({label for label in labels or () if labels.count(label) > 1})
        if twice:
            raise GopsError(f"each {what} needs a name of its own: {', '.join(map(repr, twice))} names more than one {what}")
    if cols is not None and rows is None:
        rows = tuple(f"r{i + 1}" for i in range(m))
    if rows is not None and cols is None:
        cols = tuple(f"c{j + 1}" for j in range(n))
    return payoffs, rows, cols


def _read_number(text: str) -> float:
    """A payoff typed as ``3``, ``-1.5``, ``2/3`` or ``1e3``; one bigger than :data:`LARGEST_PAYOFF` is refused by name.

    >>> _read_number("2/3") == 2 / 3
    True
    >>> _read_number("1e10")
    Traceback (most recent call last):
    gopskit.errors.GopsError: payoffs are at most 1e9 (a billion) in size; 1e10 is too big
    """
    fraction = Fraction(text)
    if abs(fraction) > LARGEST_PAYOFF:  # before float(): 1e400 overflows a float
        raise GopsError(f"payoffs are at most 1e9 (a billion) in size; {text} is too big")
    value = float(fraction)
    if not np.isfinite(value):
        raise ValueError(text)
    if abs(value) > LARGEST_PAYOFF:
        raise GopsError(f"payoffs are at most 1e9 (a billion) in size; {text} is too big")
    return value


def _is_number(text: str) -> bool:
    """Whether ``text`` is written as a number (of any size: a too-big payoff is a number, not a row's name)."""
    try:
        Fraction(text)
    except (ValueError, ZeroDivisionError):
        return False
    return True


# ----------------------------------------------------- strategy explorer ---
@functools.lru_cache(maxsize=6)
def goofspiel_solution(num_cards: int, objective: str, ties: str):
    """The exact solution of ``num_cards``-card Goofspiel (solved once per process)."""
    from ..solvers import solve_goofspiel

    return solve_goofspiel(num_cards=num_cards, objective=objective, ties=ties)


FULL_DECK = 13
EXPLORER_MAX_GAMES = 12_000_000  # turn games solved on a click: about 3 s on two cores (9 cards each: 1-2 million)


def full_deck_solution(objective: str, ties: str, hand, opp_hand, prizes, lead: int = 0, pot: int = 0):
    """``(solution, where it comes from)`` for a position of the 13-card game, or :class:`GopsError` saying why not.

    The whole 13-card game cannot be solved on a click, so in this order:

    1. a complete solution already on this machine (``gopskit solve --cards 13``);
    2. the opening book the package ships (points, ties discard): hands of 11
       to 13 cards (with 11, the turn's entries come from values rounded to
       the deep layer's step, 0.0001 points);
    3. the rest of the hand from this position, solved exactly on the spot
       when that is at most :data:`EXPLORER_MAX_GAMES` turn games (9 or 10
       cards each for points and ties discard; fewer for the other rules).
    """
    from ..solvers.opening import shipped_opening
    from ..solvers.storage import find_solution

    full = find_solution(FULL_DECK, objective, ties)
    if full is not None:
        return full, "the complete 13-card solution on this machine"
    book = shipped_opening(FULL_DECK, objective, ties, deep=len(hand) < FULL_DECK - 1)  # the deep layer only if needed
    if book is not None and book.plays(len(hand)):
        deep = book.provenance.get("deep", {})
        rounded = deep.get("layer") == len(hand) - 1
        return book, "the kit's opening book of the 13-card game" + (
            f", with the values after this turn rounded to {deep.get('step', 0):g}" if rounded else "")
    return _endgame(objective, ties, tuple(sorted(hand)), tuple(sorted(opp_hand)), tuple(sorted(prizes)),
                    int(lead) if objective == "win" else 0, int(pot)), "the rest of this hand, solved exactly just now"


@functools.lru_cache(maxsize=8)
def _endgame(objective, ties, hand, opp_hand, prizes, lead, pot):
    from ..solvers.exact import TooBigError, solve_endgame

    advice = ("Take cards out of the hands and prizes (with points and ties discard, up to 10 each is solved on "
              "the spot), or run 'gopskit solve --cards 13' once (about 8 minutes and 2.7 GB on disk) to explore "
              "every position of the full deck")
    if len(hand) > _TRIED_UP_TO:  # even the tables of such an endgame take seconds to build, and it is far too big
        raise GopsError(f"13 cards, {len(hand)} in each hand: too big to solve on a click "
                        f"(the opening book covers {_book_rules()}). {advice}")
    try:
        return solve_endgame(hand, opp_hand, prizes, objective, ties, lead=lead, pot=pot, max_games=EXPLORER_MAX_GAMES)
    except TooBigError as exc:
        raise GopsError(f"13 cards, {len(hand)} in each hand: {exc}. {advice}") from None


_TRIED_UP_TO = 11  # hand size: bigger endgames are refused before their tables are built


def _book_rules() -> str:
    from ..solvers.opening import SHIPPED, shipped_opening

    rules = []
    for (n, objective, ties) in SHIPPED:
        book = shipped_opening(n, objective, ties) if n == FULL_DECK else None
        sizes = [k for k in range(1, n + 1) if book is not None and book.plays(k)]
        if sizes:
            rules.append(f"hands of {sizes[0]} to {sizes[-1]} cards under {objective}, ties {ties}")
    return " and ".join(rules) or "nothing"


def parse_cards(text: str, num_cards: int, what: str) -> tuple[int, ...]:
    """Read cards typed by their names or numbers (``"A 2 5"``, ``"1 2 5"``, ``"Q K"``) or ``"all"``.

    Each card is from 1 (the Ace, ``A``) to ``num_cards``, as the boards name them
    (:func:`gopskit.cards.rank_name`): ``J``, ``Q`` and ``K`` are 11, 12 and 13.

    >>> parse_cards("a 3, K", 13, "Your hand"), parse_cards("all", 3, "Your hand")
    ((1, 3, 13), (1, 2, 3))
    """
    text = str(text).strip().lower()
    if text in ("", "all"):
        return tuple(range(1, num_cards + 1))
    try:  # a number as typed (checked against the deck below), else a card's name: A, J, Q, K
        cards = sorted({int(x) if x.lstrip("+-").isdigit() else parse_rank(x) for x in text.replace(",", " ").split()})
    except GopsError:
        raise GopsError(f"{what}: type cards {_card_range(num_cards)} separated by spaces, or 'all'") from None
    if not cards or cards[0] < 1 or cards[-1] > num_cards:
        raise GopsError(f"{what}: every card is one of {_card_range(num_cards)}")
    return tuple(cards)


def _card_range(num_cards: int) -> str:
    """The cards of a deck in words, by the boards' names: ``'A (or 1) to 5'``, ``'A (or 1) to K (or 13)'``."""
    last = rank_name(num_cards)
    return f"A (or 1) to {last}" + (f" (or {num_cards})" if last != str(num_cards) else "")


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
    """Iterations, the exploitability at each, and the row player's mix (or ``None``).

    The exploitability is the average of what the two players would gain by
    switching to a best reply (half the NashConv, which is the sum), the
    measure the CFR+ curves and the lessons use too.

    ``algorithm``, ``game`` and ``runs`` say what was run (``game`` is ``""`` for CFR+, whose
    game is part of the algorithm's name): a screen names the run it draws from these, never
    from its controls, which may have changed since.
    """

    iterations: np.ndarray
    exploitability: np.ndarray
    strategies: np.ndarray | None
    labels: tuple
    algorithm: str = ""
    game: str = ""
    runs: int = 0

    def title(self) -> str:
        """What was run, in words: ``'regret matching+ on Matching Pennies'``, ``'CFR+ on 3-card Goofspiel'``."""
        return f"{self.algorithm} on {self.game}" if self.game else self.algorithm


def learning_trace(algorithm: str, payoffs=None, labels=(), iterations: int = 300, game: str = "") -> LearningTrace:
    """Run one learning algorithm and keep what the animation draws.

    ``game`` names the matrix game (kept in the trace; CFR+ ignores the matrix and the name).
    """
    if algorithm.startswith("CFR"):
        return dataclasses.replace(_cfr_trace(algorithm, iterations), algorithm=algorithm, runs=iterations)
    if algorithm not in ALGORITHMS:
        raise GopsError(f"unknown algorithm {algorithm!r}; choose one of {', '.join(ALGORITHMS)}")
    if algorithm == "fictitious play":
        steps = list(learning.fictitious_play(payoffs, iterations=iterations))
        mixes = [s.row_strategy for s in steps]
    else:
        steps = list(learning.regret_matching(payoffs, iterations=iterations, plus=algorithm.endswith("+")))
        mixes = [s.row_average for s in steps]
    return LearningTrace(np.array([s.iteration for s in steps]), np.array([s.nash_conv for s in steps]) / 2,
                         np.array(mixes), tuple(labels), algorithm, game, iterations)


def _cfr_trace(algorithm: str, iterations: int) -> LearningTrace:
    from ..games.goofspiel import Goofspiel
    from ..solvers.cfr import cfr

    rules = Goofspiel(num_cards=3) if "3-card" in algorithm else Goofspiel(num_cards=4, blind=True)
    every = max(1, iterations // 60)
    points = [(s.iteration, s.exploitability) for s in cfr(rules, iterations, every=every) if s.exploitability is not None]
    t, e = zip(*points)
    return LearningTrace(np.array(t), np.array(e), None, ())
