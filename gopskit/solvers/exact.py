"""Exact two-player Goofspiel: the value and an optimal policy of every position.

Two players hold the same cards 1..N; a prize card is turned from a shuffled
pile, both bid a card at once, the higher bid takes the prize and bid cards
are spent. Each turn is a simultaneous-move game, so optimal play is mixed
and the game is solved by **backward induction over subgames with a
zero-sum matrix game at every turned prize** (Rhoads & Bartholdi, *Computer
solution to the game of pure strategy*, Games 3(4), 2012). The steps:

1. A position before a prize is turned is the prize set still to come, the
   two hands and, where the objective needs them, the lead and the carried
   pot. Only the *relative order* of the two hands' cards decides who wins a
   bid, so hands are stored as patterns (:mod:`._exact_tables`).
2. Hands of ``j`` cards are solved from hands of ``j - 1`` cards (a
   *layer*, solved as one compiled batch over every prize set and pattern).
3. For each prize that can turn, the ``j x j`` turn matrix is "points won
   now + value of the position reached" ("points"), or the value reached
   with the lead moved ("win"). Its value comes from a compiled solver that
   tries a pure saddle point first and a small simplex otherwise
   (:mod:`._exact_lp`). The position's value is the mean over the prize.
4. Swapping the hands negates the value (and the lead), so only one of each
   mirror pair is solved.

Policies are not stored: :meth:`GoofspielSolution.policy` solves the one
turn game asked for from the stored values of the layer below.

Small decks never load the compiled engine: importing numba and loading its
kernels costs about half a second, more than their whole solve, so
:func:`solve_goofspiel` hands them to :mod:`._small`, which gives the same
values and counts with numpy alone (docs/solver.md, "Start-up time").

>>> sol = solve_goofspiel(num_cards=3)
>>> sol.value([1, 2, 3], [1, 2, 3], [1, 2, 3])
0.0
>>> round(sol.value([2, 3], [1, 3], [2, 3]), 12)  # one card better: worth 1.4 points
1.4
>>> {card: round(p, 12) for card, p in sol.policy([2, 3], [1, 3], [2, 3], prize=3).items()}
{2: 0.2, 3: 0.8}
"""

from __future__ import annotations

import dataclasses
import numbers
import warnings
from collections.abc import Iterable

import numpy as np

from ..errors import GopsError, OptionError
from ._small_layers import LayeredSolution, SolveStats, total_work

_ENGINE_NAMES = ("solve_layers",)  # of the compiled engine, imported on first use (numba)

OBJECTIVES = ("points", "win")
TIE_RULES = ("discard", "carry")
MAX_CARDS = 13
# An endgame's layers have few prize sets: solved as one run each, the threads splitting the patterns, its memo of
# supports is never cleared within a layer (measured: 5-8 % faster than runs of 16 prize sets on 10-card endgames).
ENDGAME_MEMO_RUN = 1 << 30


class PositionError(GopsError):
    """A Goofspiel position handed to a solution is impossible or malformed."""


def check_options(num_cards, objective, ties) -> None:
    """Raise :class:`~gopskit.errors.OptionError` unless the solver options are valid."""
    if isinstance(num_cards, bool) or not isinstance(num_cards, numbers.Integral) or not 1 <= num_cards <= MAX_CARDS:
        raise OptionError(f"num_cards must be a whole number from 1 to {MAX_CARDS}, not {num_cards!r}")
    if objective not in OBJECTIVES:
        raise OptionError(f"unknown objective {objective!r}; allowed: {', '.join(OBJECTIVES)}")
    if ties not in TIE_RULES:
        raise OptionError(f"the exact solver handles ties {' or '.join(TIE_RULES)}, not {ties!r}")


def _whole(name: str, value) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or float(value) != int(value):
        raise PositionError(f"{name} must be a whole number of points, not {value!r}")
    return int(value)


def _card_set(name: str, cards, allowed: Iterable[int]) -> tuple[int, ...]:
    if isinstance(cards, (str, bytes)) or not isinstance(cards, Iterable):
        raise PositionError(f"{name} must be a collection of card values, not {cards!r}")
    cards = list(cards)
    allowed = set(allowed)
    for card in cards:
        if isinstance(card, bool) or not isinstance(card, numbers.Integral) or int(card) not in allowed:
            raise PositionError(f"{name} holds {card!r}; allowed cards: {', '.join(map(str, sorted(allowed)))}")
    if len(set(cards)) != len(cards):
        raise PositionError(f"{name} lists a card twice: {sorted(cards)}")
    return tuple(sorted(int(c) for c in cards))


def as_policy(cards, x) -> dict[int, float]:
    """A solver's mixed strategy ``x`` over ``cards`` as {card: probability}: rounding dust below 1e-12 is 0."""
    x = np.where(np.asarray(x) < 1e-12, 0.0, x)
    return {card: float(p) for card, p in zip(cards, x / x.sum())}


class GoofspielSolution:
    """Every position's value under one objective and tie rule (docs/architecture.md, the exact solver).

    Build it with :func:`solve_goofspiel` (the whole game) or
    :func:`solve_endgame` (the rest of one game); load a saved one with
    :func:`gopskit.solvers.storage.load_solution`. ``stats`` says what the
    solve did (positions stored, turn games solved, seconds).
    """

    def __init__(self, engine: LayeredSolution, num_cards: int, hands: tuple | None = None):
        self.engine = engine
        self.num_cards = num_cards
        self.objective, self.ties = engine.objective, engine.ties
        self._prize_index = {v: i for i, v in enumerate(engine.tables.prize_values)}
        full = tuple(range(1, num_cards + 1))
        self._my_cards, self._opp_cards = hands if hands is not None else (full, full)
        self.hard_turns = None  # an opening book's stored exact mixes (gopskit.solvers.hard_turns), if it has any

    @property
    def stats(self) -> SolveStats:
        return self.engine.stats

    def options(self) -> dict:
        """The options this solution was solved for."""
        return {"num_cards": self.num_cards, "objective": self.objective, "ties": self.ties}

    def __repr__(self) -> str:
        return f"<GoofspielSolution {self.num_cards} cards, objective={self.objective!r}, ties={self.ties!r}>"

    # -- positions ---------------------------------------------------------
    def _locate(self, hand, opp_hand, prizes, lead, pot):
        """Check a position and return ``(hand, opp, j, q, pattern, prize indices, lead, pot)``."""
        hand = _card_set("hand", hand, self._my_cards)
        opp = _card_set("opp_hand", opp_hand, self._opp_cards)
        prize_cards = _card_set("prizes", prizes, self._prize_index)
        if not len(hand) == len(opp) == len(prize_cards):
            raise PositionError(
                f"both hands and the prizes still to win must be equally many cards; got "
                f"{len(hand)}, {len(opp)} and {len(prize_cards)}"
            )
        lead, pot = _whole("lead", lead), _whole("pot", pot)
        j = len(hand)
        if self.engine.tables.layers[j] is None or self.engine.values[j] is None:
            raise PositionError(f"this solution holds only hands of {self.hand_sizes()} cards, not {j}")
        indices = [self._prize_index[c] for c in prize_cards]
        q = self.engine.tables.prize_rank(indices)
        self._check_extras(j, q, lead, pot)
        pattern = self.engine.tables.pattern_index(hand, opp)
        return hand, opp, j, q, pattern, lead if self.objective == "win" else 0, pot

    def _check_extras(self, j, q, lead, pot):
        turned = self.engine.turned_points(j, q)
        if self.ties == "discard" and pot != 0:
            raise PositionError(f"when a tie discards the prize (ties='discard') nothing is carried over: "
                                f"pot must be 0, not {pot}")
        if not 0 <= pot <= turned:
            if turned == 0:
                raise PositionError(f"no prize has been turned yet, so the pot is empty: pot must be 0, not {pot}")
            raise PositionError(f"the pot holds prizes already turned: 0 to {turned} points here, not {pot}")
        if self.objective == "win" and abs(lead) + pot > turned:
            raise PositionError(
                f"lead {lead} is impossible: only {turned} points were turned before these prizes"
                + (f", {pot} of them in the pot" if pot else "")
            )

    def _prize_position(self, prize, prize_cards_indices):
        if isinstance(prize, bool) or not isinstance(prize, numbers.Integral) or int(prize) not in self._prize_index:
            raise PositionError(f"prize {prize!r} is not one of the prize cards still to win")
        index = self._prize_index[int(prize)]
        if index not in prize_cards_indices:
            raise PositionError(f"prize {prize!r} is not one of the prize cards still to win")
        return index

    def value(self, hand, opp_hand, prizes, prize=None, lead=0, pot=0) -> float:
        """The holder's value of a position under optimal play by both.

        "points": the expected point difference still to come (the lead
        does not matter); "win": the chance of winning minus the chance of
        losing the hand. ``prizes`` are the prize cards not yet won, the
        turned one included; ``prize=None`` values the position before the
        next prize is turned (the mean over the shuffled pile).

        >>> sol = solve_goofspiel(num_cards=3, objective="win")
        >>> round(sol.value([2, 3], [1, 3], [2, 3], lead=-1), 12)
        0.333333333333
        """
        hand, opp, j, q, pattern, lead, pot = self._locate(hand, opp_hand, prizes, lead, pot)
        if prize is None or j == 0:
            if prize is not None:
                raise PositionError(f"prize {prize!r} is not one of the prize cards still to win")
            return self.engine.stored_value(j, q, pattern, lead, pot) + 0.0
        index = self._prize_position(prize, self._indices(q, j))
        self._turn_layer(j)
        return self.engine.turn_game(j, q, pattern, index, lead, pot)[0] + 0.0

    def policy(self, hand, opp_hand, prizes, prize, lead=0, pot=0) -> dict[int, float]:
        """An optimal mixed bid for the holder once ``prize`` is turned: card -> probability.

        >>> sol = solve_goofspiel(num_cards=2)
        >>> sol.policy([1, 2], [1, 2], [1, 2], prize=2)
        {1: 0.0, 2: 1.0}
        """
        hand, opp, j, q, pattern, lead, pot = self._locate(hand, opp_hand, prizes, lead, pot)
        if j == 0:
            raise PositionError("the hand is over: there is no bid to make")
        if prize is None:
            raise PositionError("a bid is made once the prize is turned: give prize=<card>")
        index = self._prize_position(prize, self._indices(q, j))
        self._turn_layer(j)
        _value, x, _y = self.engine.turn_game(j, q, pattern, index, lead, pot)
        return as_policy(hand, x)

    def turn_matrix(self, hand, opp_hand, prizes, prize, lead=0, pot=0) -> np.ndarray:
        """The turn's payoff matrix for the holder: rows are ``sorted(hand)``, columns ``sorted(opp_hand)``.

        Each entry is what the holder gets from then on under optimal play;
        a lesson can hand it to any matrix-game solver.
        """
        hand, opp, j, q, pattern, lead, pot = self._locate(hand, opp_hand, prizes, lead, pot)
        if j == 0 or prize is None:
            raise PositionError("a turn needs cards in hand and a turned prize")
        index = self._prize_position(prize, self._indices(q, j))
        self._turn_layer(j)
        return self.engine.turn_matrix(j, q, pattern, index, lead, pot)

    def hand_sizes(self) -> str:
        """The hand sizes this solution stores values for, e.g. ``"0 to 8"`` (an opening book: ``"11 to 13"``)."""
        sizes = [j for j, v in enumerate(self.engine.values) if v is not None]
        return f"{sizes[0]} to {sizes[-1]}" if len(sizes) > 1 else str(sizes[0])

    def plays(self, hand_size: int) -> bool:
        """True when this solution can give the policy of a turn with ``hand_size`` cards in each hand."""
        layers, values = self.engine.tables.layers, self.engine.values
        return (1 <= hand_size < len(layers) and layers[hand_size] is not None
                and layers[hand_size].child is not None and values[hand_size - 1] is not None)

    def _turn_layer(self, j: int) -> None:
        if not self.plays(j):
            raise PositionError(f"this solution cannot play hands of {j} cards: it holds values for "
                                f"hands of {self.hand_sizes()} cards")

    def _indices(self, q: int, j: int) -> set[int]:
        mask = int(self.engine.tables.layers[j].masks[q])
        return {i for i in range(len(self.engine.tables.prize_values)) if mask >> i & 1}

    @property
    def game_value(self) -> float:
        """The value of the whole game from the deal (0 by symmetry, for both objectives)."""
        full = range(1, self.num_cards + 1)
        return self.value(full, full, full) if self._my_cards == tuple(full) else float("nan")


def solve_goofspiel(num_cards: int = 8, objective: str = "points", ties: str = "discard",
                    *, progress: bool = False, threads: int | None = None, checkpoint=None) -> GoofspielSolution:
    """Solve two-player Goofspiel with cards 1..``num_cards`` exactly.

    ``objective`` is "points" (expected point difference) or "win" (chance
    of winning minus chance of losing); ``ties`` is "discard" or "carry".
    ``progress=True`` shows a tqdm bar counted in positions; ``threads``
    caps the compiled solver's threads (default: all cores for big decks,
    one for small ones). Decks small enough (:func:`._small.small_enough`)
    are solved without numba when neither ``threads`` nor ``checkpoint``
    is given: same values, same statistics, a fraction of the start-up
    time. ``checkpoint`` names a folder where each finished
    layer is written at once (:mod:`.layer_folder`): a solve cut off at any
    point resumes there, and only one layer at a time is held in memory.
    Rough cost on
    two cores: 8 cards "points" well under a second, 10 cards a few
    seconds; "win" and "carry" store a value per lead and pot, so they grow
    faster with the deck.

    >>> sol = solve_goofspiel(num_cards=4, objective="points", ties="discard")
    >>> sol.value((1, 2, 3, 4), (1, 2, 3, 4), (1, 2, 3, 4))
    0.0
    >>> sol.stats.games > 0
    True
    """
    check_options(num_cards, objective, ties)
    from ._small import plain_game_tables, small_enough, solve_small

    small = threads is None and checkpoint is None and small_enough(int(num_cards), objective, ties)
    if small:
        tables = plain_game_tables(int(num_cards))
    else:
        from ._exact_tables import full_game_tables

        tables = full_game_tables(int(num_cards))
    store = None
    if checkpoint is not None:
        from .layer_folder import LayerFolder

        sizes = LayeredSolution(tables, objective, ties, allocate=False).layer_sizes()
        store = LayerFolder(checkpoint, int(num_cards), objective, ties, sizes)
    bar = None
    if progress:
        from tqdm.auto import tqdm

        bar = tqdm(total=total_work(LayeredSolution(tables, objective, ties, allocate=False)),
                   desc=f"Goofspiel {num_cards} cards, {objective}, {ties}",
                   bar_format="{desc}: {percentage:3.0f}%|{bar}| [{elapsed} elapsed, about {remaining} left]")
    try:
        if small:
            engine = solve_small(tables, objective, ties, progress=bar)
        else:
            engine = _engine("solve_layers")(tables, objective, ties, progress=bar, threads=threads, store=store)
    finally:
        if bar is not None:
            bar.close()
    _warn_uncertified(engine.stats)
    return GoofspielSolution(engine, int(num_cards))


def _engine(name: str):
    """A function of the compiled engine (:mod:`._exact_engine`), through this module so tests can replace it."""
    return globals()[name] if name in globals() else __getattr__(name)


def __getattr__(name: str):
    if name in _ENGINE_NAMES:  # importing the compiled engine imports numba: only when it is needed
        from . import _exact_engine

        globals()[name] = value = getattr(_exact_engine, name)
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _warn_uncertified(stats) -> None:
    if not stats.certified:
        warnings.warn(f"{stats.failed} turn games could not be certified; their values are estimates "
                      f"({stats.methods_line()})", RuntimeWarning, stacklevel=3)


class TooBigError(PositionError):
    """An endgame asked for with ``max_games`` would solve more turn games than that."""


class SolveCancelled(Exception):
    """A solve given a ``cancel`` event stopped because the event was set (nothing was kept)."""


class _CancelWatch:
    """The engine's progress hook, used to stop a solve between two calls of the compiled layer solver."""

    def __init__(self, cancel):
        self.cancel = cancel

    def update(self, _work) -> None:
        if self.cancel.is_set():
            raise SolveCancelled("the solve was cancelled")


def solve_endgame(hand, opp_hand, prizes, objective: str = "points", ties: str = "discard",
                  lead: int = 0, pot: int = 0, max_games: int | None = None) -> GoofspielSolution:
    """Solve the rest of one game from the given position (any deck up to 13 cards).

    The solution answers ``value``/``policy`` for every position that can
    follow: sub-hands of ``hand`` and ``opp_hand``, subsets of ``prizes``.
    Its tables hold only the hand patterns those sub-hands can form, so it
    costs about what the whole game of as many cards costs: on two cores,
    from a 13-card deal, 8 cards each about 0.1 s, 9 about 0.5 s, 10 about
    3 s, 11 about 17 s. ``max_games`` refuses (:class:`TooBigError`,
    before any solving) an endgame of more turn games than that.

    >>> end = solve_endgame([9, 12, 13], [10, 11, 13], [1, 7, 13])
    >>> round(end.value([9, 12, 13], [10, 11, 13], [1, 7, 13]), 6)
    5.578609
    >>> end.policy([9, 12, 13], [10, 11, 13], [1, 7, 13], prize=13)
    {9: 0.0, 12: 0.0, 13: 1.0}
    >>> round(end.value([12, 13], [10, 13], [7, 13]), 12)  # 127/20, worked out in docs/solver.md
    6.35
    """
    hand, opp, prize_cards, lead, pot = _endgame_position(hand, opp_hand, prizes, objective, ties, lead, pot)
    slack = (abs(lead) if objective == "win" else 0) + pot
    return _solve_rest(hand, opp, prize_cards, objective, ties, slack, max_games)


def _endgame_position(hand, opp_hand, prizes, objective, ties, lead, pot):
    """The checked ``(hand, opp, prize cards, lead, pot)`` of an endgame of the 13-card deck."""
    check_options(MAX_CARDS, objective, ties)
    deck = range(1, MAX_CARDS + 1)
    hand, opp = _card_set("hand", hand, deck), _card_set("opp_hand", opp_hand, deck)
    prize_cards = _card_set("prizes", prizes, deck)
    if not len(hand) == len(opp) == len(prize_cards):
        raise PositionError("both hands and the prizes still to win must be equally many cards")
    lead, pot = _whole("lead", lead), _whole("pot", pot)
    if pot < 0 or (ties == "discard" and pot):
        raise PositionError(f"pot must be 0 under ties='discard' and never negative, not {pot}")
    return hand, opp, prize_cards, lead, pot


def _solve_rest(hand, opp, prize_cards, objective, ties, slack, max_games, top=None,
                cancel=None) -> GoofspielSolution:
    """The endgame of ``hand`` against ``opp`` over ``prize_cards``, up to hands of ``top`` cards.

    Refuses (:class:`TooBigError`) before solving when that is more than
    ``max_games`` turn games; stops (:class:`SolveCancelled`) soon after
    the event ``cancel`` is set.
    """
    from ._exact_tables import build_tables

    tables = build_tables(prize_cards, len(set(hand) | set(opp)), top=top, hands=(hand, opp))
    if max_games is not None:
        from ._small_layers import turn_game_count

        games = turn_game_count(LayeredSolution(tables, objective, ties, slack, allocate=False))
        if games > max_games:
            raise TooBigError(f"solving the rest of this hand means {games:,} turn games, more than the "
                              f"{max_games:,} allowed here")
    if cancel is not None and cancel.is_set():
        raise SolveCancelled("the solve was cancelled")
    watch = _CancelWatch(cancel) if cancel is not None else None
    engine = _engine("solve_layers")(tables, objective, ties, slack=slack, progress=watch, memo_run=ENDGAME_MEMO_RUN)
    _warn_uncertified(engine.stats)
    return GoofspielSolution(engine, MAX_CARDS, hands=(hand, opp))


@dataclasses.dataclass(frozen=True)
class TurnEndgame:
    """One turned prize solved exactly, with the rest of the hand after it (:func:`solve_turn_endgame`).

    ``matrix`` is the turn's payoff matrix for the holder (rows ``hand``,
    columns ``opp_hand``, both sorted), ``value`` its value, ``policy`` the
    holder's optimal mixed bid and ``rest`` the solution of every position
    that can follow the turn.
    """

    hand: tuple
    opp_hand: tuple
    prizes: tuple
    prize: int
    lead: int
    pot: int
    matrix: np.ndarray
    value: float
    policy: dict
    rest: GoofspielSolution


def solve_turn_endgame(hand, opp_hand, prizes, prize, objective: str = "points", ties: str = "discard",
                       lead: int = 0, pot: int = 0, max_games: int | None = None, cancel=None) -> TurnEndgame:
    """Solve the turn just turned (``prize``) and the rest of the hand after it.

    Cheaper than :func:`solve_endgame` on the same position, which solves
    the turn for every prize that could have been turned: only the prize
    sets without ``prize`` are solved (from a 13-card deal, 10 cards each
    in about 0.8 s on two cores instead of 2.5 s), then the turn itself as
    one matrix game over the values it leads to. A solve worked out on the
    chance that it is needed is given a ``cancel`` event
    (:class:`threading.Event`): once set, the solve stops within a fraction
    of a second with :class:`SolveCancelled`.

    >>> turn = solve_turn_endgame([9, 12, 13], [10, 11, 13], [1, 7, 13], prize=13)
    >>> turn.policy, turn.value  # King ties King; then the 12 beats either card on the 7, the 9 loses the 1
    ({9: 0.0, 12: 0.0, 13: 1.0}, 6.0)
    >>> turn.rest.value([12, 13], [10, 13], [1, 7])  # every position after the turn is solved too
    1.0
    """
    hand, opp, prize_cards, lead, pot = _endgame_position(hand, opp_hand, prizes, objective, ties, lead, pot)
    if not hand:
        raise PositionError("the hand is over: a turn needs at least one card in each hand")
    if isinstance(prize, bool) or not isinstance(prize, numbers.Integral) or int(prize) not in prize_cards:
        raise PositionError(f"prize {prize!r} is not one of the prize cards still to win")
    prize = int(prize)
    win, carry = objective == "win", ties == "carry"
    rest_prizes = tuple(c for c in prize_cards if c != prize)
    offer = prize + pot if carry else prize
    # what the turn can add to the lead and the pot still to be stored below it
    slack = (abs(lead) + offer if win else 0) + (pot + prize if carry else 0)
    rest = _solve_rest(hand, opp, rest_prizes, objective, ties, slack, max_games, top=len(rest_prizes), cancel=cancel)
    M = np.empty((len(hand), len(opp)))
    for i, a in enumerate(hand):
        for k, b in enumerate(opp):
            won = int(np.sign(a - b))  # a tie moves no points: the lead stays, a carried pot grows
            after_pot = pot + prize if (carry and not won) else 0
            later = rest.value([c for c in hand if c != a], [c for c in opp if c != b], rest_prizes,
                               lead=lead + won * offer if win else 0, pot=after_pot)
            M[i, k] = later if win else won * offer + later
    from ._exact_engine import solve_certified

    value, x, _y, _method = solve_certified(M)
    return TurnEndgame(hand, opp, prize_cards, prize, lead, pot, M, float(value), as_policy(hand, x), rest)


__all__ = ["GoofspielSolution", "PositionError", "SolveCancelled", "TooBigError", "TurnEndgame", "solve_endgame", "solve_turn_endgame", "solve_goofspiel", "OBJECTIVES", "TIE_RULES"]
