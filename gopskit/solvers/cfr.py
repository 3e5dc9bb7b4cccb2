"""CFR and CFR+ for two-player Goofspiel hands whose players cannot see everything.

Counterfactual regret minimisation (Zinkevich et al., 2007) runs regret
matching in every *information state* at once: a state is everything one
player's :class:`~gopskit.games.goofspiel.GoofspielObservation` shows
(own hand, the prize if shown, the dealer's face-up bid, the history as
that player saw it). CFR+ (Tammelin, 2014) floors the regrets at zero,
updates the players in turn and weights later iterations more; it converges
much faster. The average strategy approaches a Nash equilibrium; its
*exploitability* (what a best responder gains over the game value, averaged
over the two seats) falls toward 0.

Variants: hidden bids, Blind Goofspiel, Defeat the Dealer (one hand with a
fixed dealer: the engine plays Defeat the Dealer as a match of one hand per
dealer, and the hands do not interact, so each dealer's hand is solved
alone) and plain Goofspiel, at 1 to 5 cards; ties ``discard`` or
``carry``. The whole tree is held in numpy arrays (see ``_cfr_tree``), so
3 and 4 cards solve in seconds.

>>> from gopskit.games.goofspiel import Goofspiel
>>> solution = solve_cfr(Goofspiel(num_cards=3, hidden_bids=True), iterations=300)
>>> exploitability(solution) < 0.01
True
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import NamedTuple

import numpy as np

from ..errors import AgentError, OptionError
from ._cfr_tree import GameTree, build_tree, observation_code

__all__ = [
    "CFRSolution", "CFRStep", "InfoStateStrategy", "TurnSeen", "best_response_value", "bid_given_prize",
    "cfr", "exploitability", "game_value", "low_prize_overbid_share", "solve_cfr",
    "strategy_exploitability", "strategy_table",
]


@dataclasses.dataclass
class CFRSolution:
    """The state of a CFR run: per decision level, regrets and the summed (average) strategy.

    :meth:`average` gives the average strategy (the approximate equilibrium),
    :meth:`policy` reads it at a real observation.
    """

    tree: GameTree
    regrets: list[np.ndarray | None]
    strategy_sums: list[np.ndarray | None]
    iterations: int = 0
    plus: bool = True

    def current(self) -> list[np.ndarray | None]:
        """The current strategy at every decision level (regret matching of the regrets)."""
        return [None if r is None else _matched(r) for r in self.regrets]

    def average(self) -> list[np.ndarray | None]:
        """The average strategy at every decision level (uniform where never reached)."""
        return [None if s is None else _normalised(s) for s in self.strategy_sums]

    def policy(self, observation) -> dict[int, float]:
        """The average strategy's bid probabilities at a real observation of this game."""
        hand = tuple(sorted(observation.hand))
        index = self.tree.decision_level(observation.turn, observation.player)
        if index is None:
            if len(hand) != 1:
                raise AgentError(f"no solved decision for player {observation.player + 1} on turn {observation.turn + 1}")
            return {hand[0]: 1.0}
        level = self.tree.levels[index]
        code = observation_code(observation, self.tree.radix)
        row = int(np.searchsorted(level.codes, code))
        if row >= level.codes.size or level.codes[row] != code:
            raise AgentError("this observation is not a position of the solved game (other rules or dealer?)")
        probabilities = _normalised(self.strategy_sums[index][row : row + 1])[0]
        return {card: float(p) for card, p in zip(hand, probabilities)}


class CFRStep(NamedTuple):
    """One iteration: its number, the exploitability of the average (None between checks), the live solution."""

    iteration: int
    exploitability: float | None
    solution: CFRSolution


def cfr(rules, iterations: int = 1000, *, plus: bool = True, dealer: int | None = None, objective: str = "points",
        every: int = 1) -> Iterator[CFRStep]:
    """Run CFR+ (``plus=True``) or plain CFR on one hand under ``rules``, yielding each iteration.

    Steps of one iteration (Zinkevich et al. 2007; Tammelin 2014 for CFR+):

    1. every information state plays regret matching on its cumulative regrets;
    2. a pass down the tree gives each node its reach probability for
       chance and each player; a pass up gives each node's expected value;
    3. each action's regret grows by (value of the action - value of the
       state), weighted by the chance of reaching the state when the player
       tries to; CFR+ floors regrets at 0 and updates player 0, then
       player 1 against player 0's new strategy;
    4. the average strategy accumulates the current one, weighted by the
       player's own reach (and by ``t`` in CFR+).

    ``exploitability`` is computed every ``every`` iterations and at the last.

    >>> from gopskit.games.goofspiel import Goofspiel
    >>> trace = [s.exploitability for s in cfr(Goofspiel(num_cards=3, blind=True), iterations=50, every=10)]
    >>> trace[9] > trace[49]
    True
    """
    _check_count("iterations", iterations)
    _check_count("every", every)
    tree = build_tree(rules, dealer, objective)
    solution = CFRSolution(tree, *_zero_tables(tree), plus=plus)
    for t in range(1, iterations + 1):
        if plus:
            for player in (0, 1):
                _iterate(solution, (player,), weight=t)
        else:
            _iterate(solution, (0, 1), weight=1)
        solution.iterations = t
        check = t % every == 0 or t == iterations
        yield CFRStep(t, exploitability(solution) if check else None, solution)


def solve_cfr(rules, iterations: int = 1000, *, plus: bool = True, dealer: int | None = None,
              objective: str = "points") -> CFRSolution:
    """Run :func:`cfr` to the end and return the solution (exploitability checked only at the end)."""
    step = None
    for step in cfr(rules, iterations, plus=plus, dealer=dealer, objective=objective, every=iterations):
        pass
    return step.solution


def _check_count(name, value):
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
        raise OptionError(f"{name} must be a whole number of at least 1, not {value!r}")


def _zero_tables(tree):
    shapes = [(lv.num_infosets, lv.branch) if lv.kind == "decision" else None for lv in tree.levels]
    return ([None if s is None else np.zeros(s) for s in shapes], [None if s is None else np.zeros(s) for s in shapes])


def _matched(regret: np.ndarray) -> np.ndarray:
    return _normalised(np.maximum(regret, 0.0))


def _normalised(weights: np.ndarray) -> np.ndarray:
    total = weights.sum(axis=1, keepdims=True)
    uniform = np.full_like(weights, 1.0 / weights.shape[1])
    return np.where(total > 0, weights / np.where(total > 0, total, 1.0), uniform)


# ---------------------------------------------------------------- passes --
def _reaches(tree: GameTree, strategies) -> list[np.ndarray]:
    """Per level, an array (3, nodes): reach of player 0, of player 1, of chance."""
    reach = np.ones((3, 1))
    out = []
    for index, level in enumerate(tree.levels):
        out.append(reach)
        reach = np.repeat(reach, level.branch, axis=1)
        if level.kind == "chance":
            reach[2] /= level.branch
        else:
            reach[level.player] *= strategies[index][level.infoset].ravel()
    return out


def _iterate(solution: CFRSolution, players: tuple[int, ...], weight: float) -> None:
    tree = solution.tree
    strategies = solution.current()
    reaches = _reaches(tree, strategies)
    values = tree.utility
    for index in range(len(tree.levels) - 1, -1, -1):
        level = tree.levels[index]
        q = values.reshape(-1, level.branch)
        if level.kind == "chance":
            values = q.mean(axis=1)
            continue
        sigma = strategies[index][level.infoset]
        values = (sigma * q).sum(axis=1)
        if level.player in players:
            _update_level(solution, index, level, q, values, reaches[index], strategies[index], weight)


def _update_level(solution, index, level, q, values, reach, strategy, weight):
    player = level.player
    sign = 1.0 if player == 0 else -1.0
    others = reach[1 - player] * reach[2]
    regret = level.members @ (others[:, None] * sign * (q - values[:, None]))
    solution.regrets[index] += regret
    if solution.plus:
        np.maximum(solution.regrets[index], 0.0, out=solution.regrets[index])
    solution.strategy_sums[index] += weight * strategy * (level.members @ reach[player])[:, None]


# -------------------------------------------------------- best responses --
def best_response_value(tree: GameTree, strategies, responder: int) -> float:
    """What ``responder`` expects (own utility) playing a best response to the other's ``strategies``.

    Bottom-up over the responder's information states: at each one, pick the
    bid with the highest counterfactual value (its value summed over the
    nodes of the state, each weighted by the chance of reaching it given
    chance and the opponent's strategy); deeper states are already decided.
    """
    reaches = _reaches(tree, strategies)
    sign = 1.0 if responder == 0 else -1.0
    values = sign * tree.utility
    for index in range(len(tree.levels) - 1, -1, -1):
        level = tree.levels[index]
        q = values.reshape(-1, level.branch)
        if level.kind == "chance":
            values = q.mean(axis=1)
        elif level.player != responder:
            values = (strategies[index][level.infoset] * q).sum(axis=1)
        else:
            others = reaches[index][1 - responder] * reaches[index][2]
            best = np.asarray((level.members @ (others[:, None] * q)).argmax(axis=1)).ravel()
            values = q[np.arange(q.shape[0]), best[level.infoset]]
    return float(values[0])


def strategy_exploitability(tree: GameTree, strategies) -> float:
    """Mean over the two seats of what a best response gains: ``(BR_0 + BR_1) / 2`` (0 at an equilibrium)."""
    return 0.5 * (best_response_value(tree, strategies, 0) + best_response_value(tree, strategies, 1))


def exploitability(solution: CFRSolution) -> float:
    """Exploitability of the solution's average strategy, in points (or win-minus-loss chance)."""
    return strategy_exploitability(solution.tree, solution.average())


def game_value(solution: CFRSolution) -> float:
    """Player 0's expected utility when both play the average strategy."""
    strategies = solution.average()
    values = solution.tree.utility
    for index in range(len(solution.tree.levels) - 1, -1, -1):
        level = solution.tree.levels[index]
        q = values.reshape(-1, level.branch)
        values = q.mean(axis=1) if level.kind == "chance" else (strategies[index][level.infoset] * q).sum(axis=1)
    return float(values[0])


from ._cfr_tables import InfoStateStrategy, TurnSeen, bid_given_prize, low_prize_overbid_share, strategy_table  # noqa: E402


def agent_strategies(tree: GameTree, agent) -> list[np.ndarray | None]:
    """Ask ``agent`` for its policy once per information state of ``tree`` (behaviour strategies).

    Each state is shown to the agent as the engine's observation at the first
    node of the state (replayed in the engine), so any agent that reads only
    its observation is tabulated exactly. Cost: one engine replay per state
    (thousands at 4 cards; use 3 or 4 cards).
    """
    from ._cfr_tree import replay_node

    out = []
    for index, level in enumerate(tree.levels):
        if level.kind != "decision":
            out.append(None)
            continue
        agent.reset(tree.rules, level.player, np.random.default_rng(0))
        _, first = np.unique(level.infoset, return_index=True)
        table = np.zeros((level.num_infosets, level.branch))
        for row, node in enumerate(first):
            obs = replay_node(tree, index, int(node)).observation(level.player)
            policy = agent.policy(obs)
            hand = tuple(sorted(obs.legal_moves))
            if set(policy) - set(hand) or abs(sum(policy.values()) - 1) > 1e-6:
                raise AgentError(f"{agent.name}'s policy {policy!r} is not a distribution over its hand {hand}")
            table[row] = [policy.get(card, 0.0) for card in hand]
        out.append(table)
    return out


def agent_tree_exploitability(agent, rules, *, dealer: int | None = None, objective: str = "points") -> float:
    """Exploitability of any agent in a hidden-information variant, exactly.

    The agent plays both seats of one hand (``dealer`` fixed in Defeat the
    Dealer); an exact best response over information states is computed
    against each seat, and the result is ``(BR_0 + BR_1) / 2``: 0 for an
    equilibrium strategy, positive for anything a perfect opponent can beat.

    >>> from gopskit.agents import make_agent
    >>> from gopskit.games.goofspiel import Goofspiel
    >>> round(agent_tree_exploitability(make_agent("random"), Goofspiel(num_cards=2, hidden_bids=True)), 6)
    0.5
    """
    tree = build_tree(rules, dealer, objective)
    return strategy_exploitability(tree, agent_strategies(tree, agent))


__all__ += ["agent_strategies", "agent_tree_exploitability"]
