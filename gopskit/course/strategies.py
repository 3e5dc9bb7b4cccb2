"""Students' strategies written as plain Python functions, and quick trials against the bots.

A strategy is a function ``strategy(observation) -> card`` (the same shape a
tournament entry has, see :mod:`gopskit.arena.entries`). :func:`as_agent`
turns it into an agent the engine can seat; :func:`trial` plays it against
some bots and returns a small table; :func:`strategy_problem` plays a game
from each seat and explains the first thing that went wrong, in a sentence
for a beginner; :func:`exact_lead` and :func:`seat_leads` measure its lead
without sampling noise.

Every check plays the student's function from **both seats**: an
observation lists ``hands``, ``scores`` and the bids in ``history`` by seat,
the same tuples for both players, so a function that reads
``observation.hands[1]`` as "my opponent's cards" is right only in seat 1
(``observation.player`` is the seat it plays from).

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
from ..errors import AgentError, GopsError
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


SEATS = (0, 1)
SAMPLED_GAMES = 4000  # games from each seat for a strategy that uses randomness (it cannot be enumerated)


def strategy_problem(strategy, num_cards: int = 5, seed: int = 0, opponent="random", seats=SEATS,
                     **options) -> str | None:
    """Play one game with ``strategy`` in each of ``seats``; return what went wrong, or None if it played cleanly.

    ``options`` are further Goofspiel options (``hidden_bids=True``, ...).
    """
    rules = Goofspiel(num_cards=num_cards, **options)
    for seat in seats:
        line_up = [as_agent(strategy), opponent] if seat == 0 else [opponent, as_agent(strategy)]
        try:
            play_many(rules, line_up, games=1, seed=seed, method="loop")
        except AgentError as exc:
            return str(exc) if seat == 0 else f"playing from seat 2, {exc}"
    return None


def try_against(strategy, opponents, num_cards: int = 5, games: int = 200, seed: int = 0, **options):
    """Like :func:`trial`, but safe for a notebook: a blank or broken strategy gives a sentence, not an error."""
    from .feedback import Feedback, is_blank

    if is_blank(strategy):
        return Feedback("Trial", "blank", "write your strategy function first, then run this cell again")
    if not callable(strategy):
        return Feedback("Trial", "wrong", f"a strategy is a function of an observation, not {strategy!r}")
    if isinstance(opponents, str):
        opponents = [opponents]  # one bot's name, not a list of its letters
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        return Feedback("Trial", "wrong", f"games is how many games to play against each bot: a whole number, 1 or more, "
                                          f"not {games!r}")
    try:
        problem = strategy_problem(strategy, num_cards=num_cards, seed=seed, **options)
        if problem:
            return Feedback("Trial", "wrong", problem, "return one of the cards in observation.legal_moves")
        return trial(strategy, opponents, num_cards=num_cards, games=games, seed=seed, **options)
    except GopsError as exc:  # an unknown bot, a deck size the rules refuse: say so, no traceback
        return Feedback("Trial", "wrong", str(exc))


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


def trial(strategy, opponents, num_cards: int = 5, games: int = 200, seed: int = 0, seats=SEATS,
          **options) -> TrialTable:
    """Play ``strategy`` against each opponent ``games`` times, shared between ``seats``; return the averages.

    With both seats (the default) half the games are played from seat 1 and
    half from seat 2, on the same deals, so a strategy that only works from
    one seat shows it. ``options`` are further Goofspiel options
    (``ties="carry"``, ``hidden_bids=True``, ...). Raises
    :class:`~gopskit.errors.AgentError` with a readable message if the
    strategy misbehaves (use :func:`strategy_problem` first to get it as text).
    """
    rules = Goofspiel(num_cards=num_cards, **options)
    seats = tuple(seats)
    shares = [games // len(seats) + (k < games % len(seats)) for k in range(len(seats))]
    rows = []
    for opponent in opponents:
        mine, theirs = [], []
        for seat, count in zip(seats, shares):
            line_up = [as_agent(strategy), opponent] if seat == 0 else [opponent, as_agent(strategy)]
            points = play_many(rules, line_up, games=count, seed=seed)
            mine.append(points[:, seat])
            theirs.append(points[:, 1 - seat])
        mine, theirs = np.concatenate(mine), np.concatenate(theirs)
        diff = mine - theirs
        label = opponent if isinstance(opponent, str) else getattr(opponent, "name", "opponent")
        rows.append({"opponent": label, "your points": float(mine.mean()),
                     "their points": float(theirs.mean()), "mean difference": float(diff.mean()),
                     "won": float((diff > 0).mean()), "lost": float((diff < 0).mean())})
    name = getattr(strategy, "__name__", strategy if isinstance(strategy, str) else "your strategy")
    variant = "".join(f", {k.replace('_', ' ')}" + ("" if v is True else f" {v}") for k, v in options.items())
    where = " (half from each seat)" if len(seats) == 2 else f" (from seat {seats[0] + 1})"
    return TrialTable(f"{name}: {games} games of {num_cards}-card Gops{variant} against each bot{where}", rows)


class Lead(NamedTuple):
    """How far a strategy leads an opponent per game, and how that was found.

    ``exact`` is true when the lead was computed over every prize order and
    every move of the opponent, weighted by its probabilities (the strategy
    never used randomness): then ``low == mean == high``. Otherwise ``mean``
    is the average over ``games`` sampled games and ``low``/``high`` its 95 %
    confidence interval (Student's t). ``seats`` is 2 for a lead measured
    from both seats (:func:`seat_leads`).
    """

    mean: float
    low: float
    high: float
    exact: bool
    games: int
    seats: int = 1

    @property
    def clearly_positive(self) -> bool:
        """True when the lead is above 0 beyond doubt: exactly, or with the whole interval above 0."""
        return self.low > 1e-9

    def text(self) -> str:
        if self.exact:
            both = ", from both seats" if self.seats == 2 else ""
            return f"{self.mean:+.2f} points a game (exact: every prize order, every reply{both})"
        both = ", half from each seat" if self.seats == 2 else ""
        return (f"{self.mean:+.2f} points a game over {self.games} games{both} "
                f"(95% interval {self.low:+.2f} to {self.high:+.2f})")


class NotDeterministic(Exception):
    """The strategy gave two different cards in the same position: it uses randomness."""


class _DeterministicOpponent(FunctionAgent):
    """A function seated as the opponent of :func:`exact_lead`: its policy is the one card it bids."""

    def policy(self, observation):
        card = self.act(observation)
        if self.act(observation) != card:
            raise NotDeterministic
        return {card: 1.0}


def exact_lead(strategy, opponent="random", num_cards: int = 4, *, seat: int = 0, games: int = SAMPLED_GAMES, seed: int = 0,
               **options) -> Lead:
    """Expected points a game by which ``strategy`` (in ``seat``, 0 or 1) leads ``opponent``, without sampling noise.

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
    >>> exact_lead(copycat, "random", seat=1).mean == exact_lead(copycat, "random").mean   # the rules treat both seats alike
    True
    """
    if num_cards > 5:
        raise AgentError(f"exact leads are for up to 5 cards (the tree grows fast), not {num_cards}")
    if seat not in SEATS:
        raise AgentError(f"seat is 0 (first) or 1 (second), not {seat!r}")
    rules, agent, other = _seated(strategy, opponent, num_cards, seat, options)
    try:
        return _enumerated(rules, agent, other, seat)
    except NotDeterministic:
        diff = _sampled(rules, agent, other, seat, games, seed)
        row = mean_interval(diff)
        return Lead(row["mean"], row["low"], row["high"], False, games)


class SeatLeads(NamedTuple):
    """:func:`exact_lead` from each seat, and what they say together.

    ``overall`` is the lead over both seats (for a strategy that uses
    randomness: over all the games of both seats pooled). ``uneven`` is true
    when the two exact leads differ: the rules treat both seats alike, so a
    strategy whose own rule does not depend on its seat leads by the same
    amount from both; a difference means it reads something by seat number.
    """

    first: Lead
    second: Lead
    overall: Lead

    @property
    def uneven(self) -> bool:
        return self.first.exact and self.second.exact and abs(self.first.mean - self.second.mean) > 1e-9

    def uneven_text(self) -> str:
        """The sentence a check shows for an uneven strategy."""
        return (f"it leads by {self.first.mean:+.2f} points a game from seat 1 but {self.second.mean:+.2f} from seat 2. "
                "The rules are the same from both seats, so your function reads something by seat number: "
                "observation.hands, observation.scores and the bids in observation.history are listed by seat, "
                "the same for both players (hands[1] is your own hand when you sit second)")


SEAT_HINT = ("observation.player is your seat (0 or 1): your own entries are [observation.player], "
             "your opponent's [1 - observation.player]")


def seat_leads(strategy, opponent="random", num_cards: int = 4, *, games: int = SAMPLED_GAMES, seed: int = 0,
               **options) -> SeatLeads:
    """:func:`exact_lead` from seat 1 and from seat 2, and the lead over both (see :class:`SeatLeads`).

    A strategy that uses randomness is played ``games`` times from each seat
    (the same seeded deals) and the two samples are pooled for ``overall``.

    >>> def slip(observation):          # hands[1] is the opponent's hand only in seat 1
    ...     top = max(observation.hands[1])
    ...     return max(observation.legal_moves) if top > observation.prize else min(observation.legal_moves)
    >>> leads = seat_leads(slip, "one-higher")
    >>> leads.uneven, round(leads.first.mean, 2), round(leads.second.mean, 2)
    (True, -1.33, 0.33)
    """
    if num_cards > 5:
        raise AgentError(f"exact leads are for up to 5 cards (the tree grows fast), not {num_cards}")
    leads, samples = [], []
    for seat in SEATS:
        rules, agent, other = _seated(strategy, opponent, num_cards, seat, options)
        try:
            leads.append(_enumerated(rules, agent, other, seat))
        except NotDeterministic:
            leads.append(None)
            samples.append((rules, agent, other, seat))
    if not samples:
        first, second = leads
        mean = (first.mean + second.mean) / 2
        return SeatLeads(first, second, Lead(mean, mean, mean, True, 0, 2))
    # randomness: sample every seat (an enumerated seat too, so that the pooled games weigh both seats alike)
    pooled, by_seat = [], []
    for seat in SEATS:
        rules, agent, other = _seated(strategy, opponent, num_cards, seat, options)
        diff = _sampled(rules, agent, other, seat, games, seed)
        row = mean_interval(diff)
        by_seat.append(Lead(row["mean"], row["low"], row["high"], False, games))
        pooled.append(diff)
    row = mean_interval(np.concatenate(pooled))
    return SeatLeads(by_seat[0], by_seat[1], Lead(row["mean"], row["low"], row["high"], False, len(SEATS) * games, 2))


def _seated(strategy, opponent, num_cards, seat, options):
    """The rules, the strategy's agent and the opponent's, each reset for its seat."""
    rules = Goofspiel(num_cards=num_cards, **options)
    agent = as_agent(strategy)
    if isinstance(agent, str):
        agent = make_agent(agent)
    if isinstance(opponent, str):
        other = make_agent(opponent)
    else:
        other = opponent if isinstance(opponent, Agent) else _DeterministicOpponent(opponent)
    other.reset(rules, 1 - seat)
    agent.reset(rules, seat)
    return rules, agent, other


def _enumerated(rules, agent, other, seat) -> Lead:
    decks = list(itertools.permutations(range(1, rules.num_cards + 1)))
    total = sum(_walk(GoofspielState(rules, deck), agent, other, seat) for deck in decks) / len(decks)
    return Lead(total, total, total, True, 0)


def _sampled(rules, agent, other, seat, games, seed) -> np.ndarray:
    """The strategy's point difference in each of ``games`` seeded games from ``seat``."""
    line_up = [agent, other] if seat == 0 else [other, agent]
    with _seeded_globals(seed):  # a student's function draws from Python's (or numpy's) global generator
        points = play_many(rules, line_up, games=games, seed=seed)
    return points[:, seat] - points[:, 1 - seat]


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


def _walk(state, agent, other, seat: int = 0) -> float:
    """Expected (strategy's − opponent's) points from ``state`` on, the opponent's policy weighting its moves."""
    if state.is_terminal():
        scores = state.scores()
        return float(scores[seat] - scores[1 - seat])
    seen = state.observation(seat)
    mine = agent.act(seen)
    if agent.act(seen) != mine:
        raise NotDeterministic
    value = 0.0
    for card, probability in other.policy(state.observation(1 - seat)).items():
        if probability > 0:
            child = state.clone()
            child.apply([mine, card] if seat == 0 else [card, mine])
            value += probability * _walk(child, agent, other, seat)
    return value


__all__ = ["FunctionAgent", "Lead", "NotDeterministic", "SEAT_HINT", "SEATS", "SeatLeads", "TrialTable", "as_agent", "exact_lead",
           "seat_leads", "strategy_problem", "trial", "try_against"]
