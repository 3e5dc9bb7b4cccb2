"""Students' strategies written as plain Python functions, and quick trials against the bots.

A strategy is a function ``strategy(observation) -> card`` (the same shape a
tournament entry has, see :mod:`gopskit.arena.entries`). :func:`as_agent`
turns it into an agent the engine can seat; :func:`trial` plays it against
some bots and returns a small table; :func:`strategy_problem` plays one game
and explains the first thing that went wrong, in a sentence for a beginner.

>>> def copycat(observation):
...     return observation.prize
>>> table = trial(copycat, ["random"], num_cards=5, games=50, seed=1)
>>> table.rows[0]["opponent"], table.rows[0]["mean difference"] > 0
('random', True)
"""

from __future__ import annotations

import contextlib
import dataclasses
import itertools
import random
from html import escape
from typing import NamedTuple

import numpy as np

from ..agents import make_agent
from ..agents.base import Agent
from ..arena.batch import play_many
from ..arena.results import mean_interval
from ..errors import AgentError
from ..games.goofspiel import Goofspiel, GoofspielState


class FunctionAgent(Agent):
    """Seat a function ``strategy(observation) -> card`` as an agent.

    A bad answer (an exception, ``None``, a card not in the hand) raises
    :class:`~gopskit.errors.AgentError` with a sentence saying what happened.
    """

    name = "your strategy"
    classifier = {"stochastic": True, "memory": "game", "uses_opponent_bids": True, "games": ("goofspiel",)}

    def __init__(self, strategy, name: str | None = None):
        super().__init__()
        if not callable(strategy):
            raise AgentError(f"a strategy is a function that takes an observation and returns a card, not {strategy!r}")
        self.strategy = strategy
        self.name = name or getattr(strategy, "__name__", "your strategy")

    def act(self, observation):
        try:
            move = self.strategy(observation)
        except Exception as exc:  # the student's code: report it, never crash the lesson
            raise AgentError(f"on turn {observation.turn + 1} your function raised {type(exc).__name__}: {exc}") from None
        legal = list(observation.legal_moves)
        if move is None:
            raise AgentError("your function returned None: it must `return` a card from observation.legal_moves")
        if isinstance(move, bool) or not isinstance(move, (int, np.integer)) or int(move) not in legal:
            prize = f"the prize was {observation.prize}, " if observation.prize is not None else ""
            raise AgentError(f"on turn {observation.turn + 1} ({prize}your hand {legal}) your function returned "
                             f"{move!r}, which is not a card in your hand")
        return int(move)


def as_agent(strategy, name: str | None = None) -> Agent:
    """An agent for ``strategy``: a function, an agent object or a bot name."""
    if isinstance(strategy, (Agent, str)):
        return strategy
    return FunctionAgent(strategy, name)


def strategy_problem(strategy, num_cards: int = 5, seed: int = 0, opponent="random", **options) -> str | None:
    """Play one game with ``strategy`` in seat 1; return what went wrong, or None if it played cleanly.

    ``options`` are further Goofspiel options (``hidden_bids=True``, ...).
    """
    try:
        rules = Goofspiel(num_cards=num_cards, **options)
        play_many(rules, [as_agent(strategy), opponent], games=1, seed=seed, method="loop")
    except AgentError as exc:
        return str(exc)
    return None


def try_against(strategy, opponents, num_cards: int = 5, games: int = 200, seed: int = 0, **options):
    """Like :func:`trial`, but safe for a notebook: a blank or broken strategy gives a sentence, not an error."""
    from .feedback import Feedback, is_blank

    if is_blank(strategy):
        return Feedback("Trial", "blank", "write your strategy function first, then run this cell again")
    if not callable(strategy):
        return Feedback("Trial", "wrong", f"a strategy is a function of an observation, not {strategy!r}")
    problem = strategy_problem(strategy, num_cards=num_cards, seed=seed, **options)
    if problem:
        return Feedback("Trial", "wrong", problem, "return one of the cards in observation.legal_moves")
    return trial(strategy, opponents, num_cards=num_cards, games=games, seed=seed, **options)


@dataclasses.dataclass
class TrialTable:
    """Results of :func:`trial`: one row per opponent (mean points each, mean difference, games won)."""

    title: str
    rows: list[dict]

    def text(self) -> str:
        lines = [self.title, f"{'opponent':<14}{'you':>7}{'them':>7}{'diff':>7}{'won':>6}{'lost':>6}"]
        for row in self.rows:
            lines.append(f"{row['opponent']:<14}{row['your points']:>7.2f}{row['their points']:>7.2f}"
                         f"{row['mean difference']:>+7.2f}{row['won']:>6.0%}{row['lost']:>6.0%}")
        return "\n".join(lines)

    __repr__ = text

    def _repr_html_(self) -> str:
        head = "".join(f"<th>{h}</th>" for h in ("opponent", "your points", "their points", "difference", "won", "lost"))
        body = "".join(
            f"<tr><td>{escape(r['opponent'])}</td><td>{r['your points']:.2f}</td><td>{r['their points']:.2f}</td>"
            f"<td><b>{r['mean difference']:+.2f}</b></td><td>{r['won']:.0%}</td><td>{r['lost']:.0%}</td></tr>"
            for r in self.rows)
        return f"<b>{escape(self.title)}</b><table><tr>{head}</tr>{body}</table>"


def trial(strategy, opponents, num_cards: int = 5, games: int = 200, seed: int = 0, **options) -> TrialTable:
    """Play ``strategy`` (seat 1) against each opponent ``games`` times; return the averages.

    ``options`` are further Goofspiel options (``ties="carry"``,
    ``hidden_bids=True``, ...). Raises :class:`~gopskit.errors.AgentError`
    with a readable message if the strategy misbehaves (use
    :func:`strategy_problem` first to get it as text).
    """
    rules = Goofspiel(num_cards=num_cards, **options)
    rows = []
    for opponent in opponents:
        points = play_many(rules, [as_agent(strategy), opponent], games=games, seed=seed)
        diff = points[:, 0] - points[:, 1]
        label = opponent if isinstance(opponent, str) else getattr(opponent, "name", "opponent")
        rows.append({"opponent": label, "your points": float(points[:, 0].mean()),
                     "their points": float(points[:, 1].mean()), "mean difference": float(diff.mean()),
                     "won": float((diff > 0).mean()), "lost": float((diff < 0).mean())})
    name = getattr(strategy, "__name__", strategy if isinstance(strategy, str) else "your strategy")
    variant = "".join(f", {k.replace('_', ' ')}" + ("" if v is True else f" {v}") for k, v in options.items())
    return TrialTable(f"{name}: {games} games of {num_cards}-card Gops{variant} against each bot", rows)


class Lead(NamedTuple):
    """How far a strategy leads an opponent per game, and how that was found.

    ``exact`` is true when the lead was computed over every prize order and
    every move of the opponent, weighted by its probabilities (the strategy
    never used randomness): then ``low == mean == high``. Otherwise ``mean``
    is the average over ``games`` sampled games and ``low``/``high`` its 95 %
    confidence interval (Student's t).
    """

    mean: float
    low: float
    high: float
    exact: bool
    games: int

    @property
    def clearly_positive(self) -> bool:
        """True when the lead is above 0 beyond doubt: exactly, or with the whole interval above 0."""
        return self.low > 1e-9

    def text(self) -> str:
        if self.exact:
            return f"{self.mean:+.2f} points a game (exact: every prize order, every reply)"
        return (f"{self.mean:+.2f} points a game over {self.games} games "
                f"(95% interval {self.low:+.2f} to {self.high:+.2f})")


class _NotDeterministic(Exception):
    """The strategy gave two different cards in the same position."""


class _DeterministicOpponent(FunctionAgent):
    """A function seated as the opponent of :func:`exact_lead`: its policy is the one card it bids."""

    def policy(self, observation):
        card = self.act(observation)
        if self.act(observation) != card:
            raise _NotDeterministic
        return {card: 1.0}


def exact_lead(strategy, opponent="random", num_cards: int = 4, *, games: int = 4000, seed: int = 0,
               **options) -> Lead:
    """Expected points a game by which ``strategy`` (seat 1) leads ``opponent``, without sampling noise.

    Steps: for every order of the prize deck (all ``num_cards!`` of them,
    equally likely), walk the game tree; at each turn ask the strategy for its
    card twice (a function that answers differently uses randomness) and the
    opponent for its policy (its probability of each card; the random bot's is
    uniform; a function given as the opponent must not use randomness),
    and weight each branch by that probability. A strategy that uses
    randomness cannot be enumerated this way: it is played ``games`` times
    instead, and the answer is a mean with a 95 % interval.

    >>> def copycat(observation):
    ...     return observation.prize
    >>> def strongest(observation):
    ...     return max(observation.legal_moves)
    >>> exact_lead(copycat, "random").mean > 0, round(exact_lead(strongest, "random").mean, 12) + 0
    (True, 0.0)
    """
    if num_cards > 5:
        raise AgentError(f"exact leads are for up to 5 cards (the tree grows fast), not {num_cards}")
    rules = Goofspiel(num_cards=num_cards, **options)
    agent = as_agent(strategy)
    if isinstance(opponent, str):
        other = make_agent(opponent)
    else:
        other = opponent if isinstance(opponent, Agent) else _DeterministicOpponent(opponent)
    other.reset(rules, 1)
    if isinstance(agent, Agent):
        agent.reset(rules, 0)
    try:
        decks = list(itertools.permutations(range(1, num_cards + 1)))
        total = sum(_walk(GoofspielState(rules, deck), agent, other) for deck in decks) / len(decks)
        return Lead(total, total, total, True, 0)
    except _NotDeterministic:
        with _seeded_globals(seed):  # a student's function draws from Python's (or numpy's) global generator
            points = play_many(rules, [agent, other], games=games, seed=seed)
        row = mean_interval(points[:, 0] - points[:, 1])
        return Lead(row["mean"], row["low"], row["high"], False, games)


@contextlib.contextmanager
def _seeded_globals(seed: int):
    """Seed the ``random`` module and numpy's legacy global generator, then put both back as they were.

    So a check of a function that calls ``random.choice`` gives the same
    verdict every time it is run, and the student's own random stream is
    left where it was.
    """
    saved_random, saved_numpy = random.getstate(), np.random.get_state()
    random.seed(seed)
    np.random.seed(seed)
    try:
        yield
    finally:
        random.setstate(saved_random)
        np.random.set_state(saved_numpy)


def _walk(state, agent, other) -> float:
    """Expected (seat 1 − seat 2) points from ``state`` on, the opponent's policy weighting its moves."""
    if state.is_terminal():
        scores = state.scores()
        return float(scores[0] - scores[1])
    seen = state.observation(0)
    mine = agent.act(seen)
    if agent.act(seen) != mine:
        raise _NotDeterministic
    value = 0.0
    for card, probability in other.policy(state.observation(1)).items():
        if probability > 0:
            child = state.clone()
            child.apply([mine, card])
            value += probability * _walk(child, agent, other)
    return value


__all__ = ["FunctionAgent", "Lead", "TrialTable", "as_agent", "exact_lead", "strategy_problem", "trial",
           "try_against"]
