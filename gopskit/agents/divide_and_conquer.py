"""Divide and Conquer bots. Both hands are open, so a bot sees the whole position.

==============  ==============================================================
name            how it plays
==============  ==============================================================
random          a card from its hand, uniformly at random (any game)
dc-greedy       the card that beats the most of the opponent's cards now
dc-counter-     expects dc-greedy and plays the cheapest card that beats its
greedy          choice
dc-equilibrium  a mixed equilibrium of the half being played, found by
                backward induction with one small linear program per position
==============  ==============================================================
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from ..games.divide_and_conquer import beats
from . import register
from .base import Agent

GAME = ("divide-and-conquer",)


@register
class Greedy(Agent):
    """Plays the card that beats the most cards the opponent could play now.

    Against an opponent who picks uniformly, that card has the best chance of
    taking this trick: a sensible one-step reply. Ties go to the card that is
    beaten by the fewest opponent cards (it is safest), then to the lower card
    (keep the big ones). It ignores later tricks, which is its weakness.

    >>> from gopskit.games import make_rules
    >>> state = make_rules("divide-and-conquer", deal=[[2, 5, 7, 9, 12], [3, 4, 6, 8, 10]]).new_game()
    >>> Greedy().act(state.observation(0))
    2
    """

    name = "dc-greedy"
    classifier = {"stochastic": False, "memory": "none", "uses_opponent_bids": False, "games": GAME}

    def act(self, obs):
        return greedy_card(obs.legal_moves, obs.opponent_hand)


def greedy_card(mine, theirs) -> int:
    """The card of ``mine`` that beats the most of ``theirs`` (ties: the lower card)."""
    return min(mine, key=lambda card: (-sum(beats(card, other) for other in theirs), card))


@register
class CounterGreedy(Agent):
    """Expects the opponent to play dc-greedy and takes that card cheaply.

    It works out the card greedy would play from the opponent's hand, then
    plays, of its own cards that beat it, the one that beats the fewest
    other opponent cards (so its all-round cards stay for later); if none
    beats it, it throws the card that beats the fewest. It crushes greedy and
    is itself easy to read: the lesson that every fixed way of playing an
    open-handed simultaneous game has a counter, hence mixed strategies.
    """

    name = "dc-counter-greedy"
    classifier = {"stochastic": False, "memory": "none", "uses_opponent_bids": False, "games": GAME}

    def act(self, obs):
        theirs = obs.opponent_hand
        expected = greedy_card(theirs, obs.hand)
        reach = {card: sum(beats(card, other) for other in theirs) for card in obs.legal_moves}
        takers = [c for c in obs.legal_moves if beats(c, expected)]
        return min(takers or obs.legal_moves, key=lambda c: (reach[c], c))


@lru_cache(maxsize=None)
def solve_half(mine: frozenset, theirs: frozenset) -> tuple[float, tuple[float, ...]]:
    """Value and equilibrium mix of the rest of a half, for the player holding ``mine``.

    The value is the expected number of tricks won minus tricks lost from
    here to the end of the half when both sides play an equilibrium; the
    mix gives a probability to each card of ``sorted(mine)``. Because the
    value is a sum over tricks, each position is a small zero-sum matrix
    game whose entries are "this trick (+1 or -1) plus the value of what is
    left", solved as a linear program (scipy's HiGHS):

    1. build ``M[i, j]`` for my card ``i`` against their card ``j``;
    2. if some row is a pure saddle point, play it;
    3. otherwise maximise ``v`` subject to ``sum_i x_i M[i, j] >= v`` for every ``j``,
       ``sum x = 1``, ``x >= 0``.

    >>> value, mix = solve_half(frozenset({2}), frozenset({8}))
    >>> value, mix
    (1.0, (1.0,))
    """
    a, b = sorted(mine), sorted(theirs)
    if not a:
        return 0.0, ()
    matrix = np.array([[(1.0 if beats(x, y) else -1.0) + solve_half(mine - {x}, theirs - {y})[0] for y in b] for x in a])
    saddle = _pure_saddle(matrix)
    if saddle is not None:
        return float(matrix[saddle].min()), tuple(float(i == saddle) for i in range(len(a)))
    return _solve_matrix(matrix)


def _pure_saddle(matrix: np.ndarray) -> int | None:
    """The row of a pure equilibrium (its worst entry is the best any column allows), or None."""
    row = int(matrix.min(axis=1).argmax())
    if np.isclose(matrix[row].min(), matrix.max(axis=0).min()):
        return row
    return None


def _solve_matrix(matrix: np.ndarray) -> tuple[float, tuple[float, ...]]:
    """Value and optimal mix of the row player of a zero-sum matrix game, by linear programming."""
    from scipy.optimize import linprog  # loaded on first use: listing the bots stays fast

    n, m = matrix.shape
    cost = np.zeros(n + 1)
    cost[-1] = -1.0  # maximise v
    upper = np.hstack([-matrix.T, np.ones((m, 1))])  # v - sum_i x_i M[i, j] <= 0
    equal = np.hstack([np.ones((1, n)), np.zeros((1, 1))])
    result = linprog(cost, A_ub=upper, b_ub=np.zeros(m), A_eq=equal, b_eq=[1.0],
                     bounds=[(0, None)] * n + [(None, None)], method="highs")
    mix = np.clip(result.x[:n], 0.0, None)
    mix /= mix.sum()
    return round(float(result.x[-1]), 9), tuple(float(round(p, 9)) for p in mix)


@register
class Equilibrium(Agent):
    """Plays an equilibrium mix of the current half (stochastic).

    Why it is reasonable: with open hands and simultaneous play, any fixed
    choice can be read and punished (greedy is), so good play is mixed, as in
    matching pennies. This bot maximises the expected number of tricks won
    minus lost in the half being played (see :func:`solve_half`); no mix
    does better against a best-replying opponent. It targets the trick
    difference, not the chance of winning the game, a close but not equal aim.
    """

    name = "dc-equilibrium"
    classifier = {"stochastic": True, "memory": "none", "uses_opponent_bids": False, "games": GAME}

    def policy(self, obs):
        cards = sorted(obs.legal_moves)
        _, mix = solve_half(frozenset(cards), frozenset(obs.opponent_hand))
        return {card: p for card, p in zip(cards, mix)}

    def act(self, obs):
        policy = self.policy(obs)
        cards = list(policy)
        weights = np.array([policy[c] for c in cards])
        return cards[int(self.rng.choice(len(cards), p=weights / weights.sum()))]
