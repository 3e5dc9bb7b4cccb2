"""A human at a board is just another agent (docs/architecture.md, layers).

:class:`HumanSeat` speaks the agent protocol of :mod:`gopskit.agents`, so the
board plays every seat, human or bot, through the same loop
(:func:`gopskit.arena.match.step`). Its :meth:`~HumanSeat.act` returns the
card the person committed with a click; the board asks it only when
:attr:`~HumanSeat.ready` is true.

>>> from gopskit.games.goofspiel import Goofspiel
>>> state = Goofspiel(num_cards=3).new_game(seed=0)
>>> seat = HumanSeat()
>>> seat.reset(state.rules, 0)
>>> seat.commit(2, state.observation(0))
>>> seat.ready, seat.act(state.observation(0)), seat.ready
(True, 2, False)
"""

from __future__ import annotations

from ..agents.base import Agent
from ..errors import AgentError, IllegalMoveError

from ..agents.labels import BOT_LABELS, bot_label  # noqa: F401  (boards and panels name bots through it)


class HumanSeat(Agent):
    """A seat played by a person: holds the move they chose until the board asks for it."""

    name = "human"
    classifier = {"stochastic": False, "memory": "game", "uses_opponent_bids": True, "games": ("*",)}

    def __init__(self):
        super().__init__()
        self._pending = None
        self._has_move = False

    def supports(self, rules) -> bool:
        return True

    def reset(self, rules, player, rng=None):
        super().reset(rules, player, rng)
        self.withdraw()

    @property
    def ready(self) -> bool:
        """True when the person has committed a move the board has not used yet."""
        return self._has_move

    def commit(self, move, observation) -> None:
        """Commit ``move`` for the next turn; it must be one of ``observation.legal_moves``."""
        legal = list(observation.legal_moves)
        if move not in legal:
            raise IllegalMoveError(
                f"player {self.player + 1} cannot play {move!r} now; allowed: {', '.join(map(str, legal)) or 'nothing'}"
            )
        self._pending, self._has_move = move, True

    def withdraw(self) -> None:
        """Forget a committed move (a new game, or the person changed their mind)."""
        self._pending, self._has_move = None, False

    def act(self, observation):
        if not self._has_move:
            raise AgentError(f"player {self.player + 1} is a person who has not chosen a move yet")
        move = self._pending
        self.withdraw()
        return move
