"""Lesson 2 (mixed equilibria): small games written out, solved by hand and by machine.

* :func:`endgame` is the smallest Goofspiel position with no pure solution:
  I hold 2 and 3, you hold 1 and 3, the prizes 3 (turned) and 2 are left.
  :func:`solve_two_by_two` solves any 2 x 2 zero-sum game with no saddle
  point by the *indifference* rule, the hand method the lesson checks the
  linear program against.
* :func:`first_turn_policy`: the exact solver's optimal bid for each prize
  on the first turn of an ``n``-card game (a heat map's numbers);
  :func:`parity_split` how that mass divides between odd and even bids
  (Rhoads & Bartholdi's parity effect); :func:`modes` counts the peaks.
* :func:`positions_without_saddle`: every turn of an ``n``-card game
  (any hands, any prizes left) whose matrix has no saddle point; with 3
  cards there are such turns, but none where the two hands are equal, so
  none while both players match the prize. Matching still guarantees the
  value, 0 (it is an equilibrium strategy of 3-card Gops); what it is not is
  best after a deviation, in a turn without a saddle point. :data:`LP_POSITION` is the 3 x 3 turn the
  students solve as a linear program.
* :func:`learning_curves`: fictitious play, regret matching and RM+ on
  one matrix, their exploitability per iteration (half the NashConv).

>>> game = endgame()
>>> game.payoffs.tolist()
[[3.0, -1.0], [1.0, 2.0]]
>>> hand = solve_two_by_two(game.payoffs)
>>> hand.row_mix, hand.col_mix, hand.value
(Fraction(1, 5), Fraction(3, 5), Fraction(7, 5))
"""

from __future__ import annotations

import functools
from fractions import Fraction
from typing import NamedTuple

import numpy as np

from ..errors import OptionError
from ..solvers.learning import fictitious_play, nash_conv_trace, regret_matching
from ..solvers.matrix import LabelledMatrix, goofspiel_turn_matrix, maximin_minimax, pure_saddle_points

ENDGAME = {"hand": (2, 3), "opp_hand": (1, 3), "prizes": (2, 3), "prize": 3}


def endgame() -> LabelledMatrix:
    """The turn matrix of :data:`ENDGAME`: rows my bid (2, 3), columns yours (1, 3), my point difference."""
    return goofspiel_turn_matrix(**ENDGAME, num_cards=3)


# both of you bid the 4 on prize 1 (a tie); the 3 is turned next
LP_POSITION = {"hand": (1, 2, 3), "opp_hand": (1, 2, 3), "prizes": (2, 3, 4), "prize": 3}


def lp_game() -> LabelledMatrix:
    """The turn matrix of :data:`LP_POSITION` (4-card Gops): 3 x 3, no saddle point, every bid used."""
    return goofspiel_turn_matrix(**LP_POSITION, num_cards=4)


def turn_positions(num_cards: int):
    """Every turn of ``n``-card Gops with a choice: ``(my hand, their hand, prizes left, prize)``, hands of 2+ cards.

    Any hands and prizes of equal size, whether or not good play reaches them.
    """
    import itertools

    cards = range(1, num_cards + 1)
    for size in range(num_cards, 1, -1):
        for hand in itertools.combinations(cards, size):
            for other in itertools.combinations(cards, size):
                for prizes in itertools.combinations(cards, size):
                    for prize in prizes:
                        yield hand, other, prizes, prize


def positions_without_saddle(num_cards: int) -> list[tuple]:
    """The turns of :func:`turn_positions` whose matrix (exact continuation values) has no saddle point.

    >>> len(positions_without_saddle(2)), len(positions_without_saddle(3))
    (0, 20)
    >>> (ENDGAME["hand"], ENDGAME["opp_hand"], ENDGAME["prizes"], ENDGAME["prize"]) in positions_without_saddle(3)
    True
    """
    solution = _solution(num_cards, "points", "discard")
    return [position for position in turn_positions(num_cards)
            if not pure_saddle_points(goofspiel_turn_matrix(*position, solution=solution).payoffs)]


class HandSolution(NamedTuple):
    """A 2 x 2 game solved by hand: the row player's chance of the first row, the column player's of the
    first column, and the value (exact fractions when the entries are whole numbers)."""

    row_mix: Fraction
    col_mix: Fraction
    value: Fraction


def solve_two_by_two(payoffs) -> HandSolution:
    """Solve ``[[a, b], [c, d]]`` (no saddle point) by making the opponent indifferent.

    Steps: the row player picks ``p`` so that both columns pay the same,
    ``p a + (1 - p) c = p b + (1 - p) d``, so ``p = (d - c) / (a - b - c + d)``;
    the column player picks ``q`` so that both rows pay the same,
    ``q = (d - b) / (a - b - c + d)``; the value is ``p a + (1 - p) c``.
    """
    A = np.asarray(payoffs, dtype=float)
    if A.shape != (2, 2):
        raise OptionError(f"solve_two_by_two takes a 2 x 2 matrix, not shape {A.shape}")
    if pure_saddle_points(A):
        raise OptionError("this game has a saddle point: a pure strategy solves it, no mixing needed")
    a, b, c, d = (Fraction(x).limit_denominator(10**6) for x in A.ravel())
    denominator = a - b - c + d
    p, q = (d - c) / denominator, (d - b) / denominator
    return HandSolution(p, q, p * a + (1 - p) * c)


LARGEST_SOLVED_IN_CLASS = 10  # seconds at most; bigger decks come from the shipped opening book


@functools.lru_cache(maxsize=16)
def _solution(num_cards: int, objective: str, ties: str):
    """The exact solution for a lesson: solved on the spot up to 10 cards, else the shipped opening book."""
    from ..solvers.exact import solve_goofspiel

    if num_cards <= LARGEST_SOLVED_IN_CLASS:
        return solve_goofspiel(num_cards=num_cards, objective=objective, ties=ties)
    from ..errors import GopsError
    from ..solvers.opening import shipped_opening

    book = shipped_opening(num_cards, objective, ties, deep=False)  # the first turns: the book alone
    if book is None:
        raise GopsError(f"{num_cards} cards is too big to solve during a lesson; the kit ships the first turns "
                        "of the 13-card game (points, ties discard) only")
    return book


def first_turn_policy(num_cards: int, ties: str = "discard", objective: str = "points") -> np.ndarray:
    """``P[prize - 1, bid - 1]``: the optimal first bid for each prize (full hands), from the exact solver."""
    return _first_turn_policy(num_cards, ties, objective).copy()


@functools.lru_cache(maxsize=16)
def _first_turn_policy(num_cards: int, ties: str, objective: str) -> np.ndarray:
    solution = _solution(num_cards, objective, ties)
    cards = tuple(range(1, num_cards + 1))
    rows = []
    for prize in cards:
        policy = solution.policy(cards, cards, cards, prize=prize)
        rows.append([policy.get(bid, 0.0) for bid in cards])
    return np.array(rows)


def first_turn_games(num_cards: int) -> list[dict]:
    """For each prize of an ``n``-card game's first turn: the turn matrix's saddle point (or None),
    the pure security levels and the value (points, ties discard)."""
    cards = tuple(range(1, num_cards + 1))
    rows = []
    for prize in cards:
        game = goofspiel_turn_matrix(cards, cards, cards, prize=prize, solution=_solution(num_cards, "points", "discard"))
        saddles = pure_saddle_points(game.payoffs)
        low, high = maximin_minimax(game.payoffs)
        rows.append({"prize": prize, "saddle": (cards[saddles[0][0]], cards[saddles[0][1]]) if saddles else None,
                     "maximin": low, "minimax": high})
    return rows


class DuelResult(NamedTuple):
    """The endgame played again and again: what you bid, what the learner bid, your average result."""

    your_bids: list[int]
    their_bids: list[int]
    average: float


def duel(your_bids, seed: int = 0) -> DuelResult:
    """Play :data:`ENDGAME` once per bid in ``your_bids`` against a learner (fictitious play).

    The learner bids the card that does best against the frequencies of
    your past bids (the first time: at random, with ``seed``). Your result
    each round is the endgame's payoff: what you win from the two prizes
    minus what it wins.
    """
    game = endgame()
    rows, cols = list(game.row_labels), list(game.col_labels)
    bids = list(your_bids)
    odd = [b for b in bids if isinstance(b, bool) or not isinstance(b, (int, np.integer))]
    if odd:
        raise OptionError(f"every bid is a card, {rows[0]} or {rows[1]}: a whole number, not {odd[0]!r}")
    bids = [int(b) for b in bids]
    bad = [b for b in bids if b not in rows]
    if bad:
        raise OptionError(f"in the endgame you hold {rows[0]} and {rows[1]}; {bad[0]} is not one of them")
    rng = np.random.default_rng(seed)
    counts = np.zeros(len(rows))
    theirs, results = [], []
    for bid in bids:
        if counts.sum() == 0:
            column = int(rng.integers(len(cols)))
        else:
            column = int(np.argmin((counts / counts.sum()) @ game.payoffs))  # the column that hurts you most
        theirs.append(cols[column])
        results.append(game.payoffs[rows.index(bid), column])
        counts[rows.index(bid)] += 1
    return DuelResult(bids, theirs, float(np.mean(results)) if results else 0.0)


def duel_text(your_bids, seed: int = 0) -> str:
    """The duel's result as lesson 2 prints it, or a sentence saying what is wrong with the list of bids.

    The lesson invites students to edit the lists: a card they do not hold, a
    word, or an empty list must not end the cell with a traceback.

    >>> duel_text([3, 3, 3], seed=1), duel_text([3, 4])
    ('average result +1.00 points per round', 'cannot play this list: in the endgame you hold 2 and 3; 4 is not one of them')
    """
    from .feedback import describe

    example = "such as [3, 2, 3]"
    if isinstance(your_bids, (str, bytes, dict)) or not hasattr(your_bids, "__iter__"):
        return f"cannot play this: write a list of bids, {example}, not {describe(your_bids)}"
    bids = list(your_bids)
    if not bids:
        return f"no bids to play: write a list of bids, {example}"
    odd = [b for b in bids if not isinstance(b, (int, np.integer)) or isinstance(b, bool)]
    if odd:  # a word, None, or 3.5: a card is a whole number (3.5 used to play as 3)
        return f"cannot play this list: every bid is a card, 2 or 3, {example}; {describe(odd[0])} is not"
    try:
        return f"average result {duel(bids, seed=seed).average:+.2f} points per round"
    except OptionError as exc:
        return f"cannot play this list: {exc}"


def parity_split(policy: np.ndarray) -> np.ndarray:
    """For each prize (row), the chance of an odd bid and of an even bid: shape ``(n, 2)``."""
    policy = np.asarray(policy, dtype=float)
    return np.stack([policy[:, 0::2].sum(axis=1), policy[:, 1::2].sum(axis=1)], axis=1)


def modes(probabilities, tol: float = 1e-6) -> int:
    """The number of peaks of a distribution over bids 1..n (1 for a unimodal one).

    A peak is a run of (nearly) equal positive values higher than both
    neighbouring values.

    >>> modes([0.2, 0.0, 0.5, 0.3]), modes([0.1, 0.3, 0.6]), modes([0.5, 0.5])
    (2, 1, 1)
    """
    runs: list[float] = []
    for value in np.r_[0.0, np.asarray(probabilities, dtype=float), 0.0]:
        if not runs or abs(value - runs[-1]) > tol:
            runs.append(float(value))
    return sum(1 for i in range(1, len(runs) - 1) if runs[i] > tol and runs[i] > runs[i - 1] and runs[i] > runs[i + 1])


def learning_curves(payoffs, iterations: int = 1000) -> dict[str, np.ndarray]:
    """Exploitability of the average strategies, per iteration, for three learning rules.

    The exploitability of a pair of mixes is the *average* of what the two
    players could gain by switching to a best reply, ``nash_conv / 2``
    (``nash_conv`` is the sum): the same measure as lesson 3's CFR curves and
    lesson 5's exploitability of one strategy (there, the mean over its two
    seats of what a best reply gains against it).
    """
    return {
        "fictitious play": nash_conv_trace(fictitious_play(payoffs, iterations=iterations)) / 2,
        "regret matching": nash_conv_trace(regret_matching(payoffs, iterations=iterations)) / 2,
        "regret matching+": nash_conv_trace(regret_matching(payoffs, iterations=iterations, plus=True)) / 2,
    }


__all__ = ["DuelResult", "ENDGAME", "LP_POSITION", "lp_game", "positions_without_saddle", "turn_positions", "HandSolution", "duel", "duel_text", "endgame", "first_turn_games", "first_turn_policy", "learning_curves", "modes", "parity_split",
           "solve_two_by_two"]
