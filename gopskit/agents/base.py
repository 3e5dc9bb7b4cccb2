"""What every agent (bot, human seat, student strategy) looks like.

An agent is a small named class (Axelrod's shape): a ``name``, a
``classifier`` that says what kind of player it is, and :meth:`Agent.act`,
which picks one move from an observation. Agents never see the full game
state: only the observation the rules give their seat.

The match owns the randomness: :meth:`Agent.reset` hands every agent its own
:class:`numpy.random.Generator` at the start of each game.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from ..errors import AgentError


class Agent:
    """Base class of every agent.

    ``classifier`` keys (all agents give all of them):

    * ``stochastic``: does it use its random generator?
    * ``memory``: ``"none"`` (looks at the current position only: hands,
      prizes, the prize, scores) or ``"game"`` (uses the history of the game);
    * ``uses_opponent_bids``: does it look at what the others bid?
    * ``games``: the names of the games it can play.
    """

    name: ClassVar[str] = "agent"
    classifier: ClassVar[dict[str, Any]] = {
        "stochastic": False, "memory": "none", "uses_opponent_bids": False, "games": (),
    }

    def __init__(self):
        self.rng = np.random.default_rng(0)
        self.player = 0
        self.rules = None

    def reset(self, rules, player: int, rng: np.random.Generator | None = None) -> None:
        """Start a new game in seat ``player`` (called by the match before the first move)."""
        self.rules = rules
        self.player = player
        self.rng = rng if rng is not None else np.random.default_rng()

    def supports(self, rules) -> bool:
        """True when the agent can play a game under these rules."""
        return rules.name in self.classifier["games"]

    def act(self, observation):
        """Return one move from ``observation.legal_moves``."""
        raise NotImplementedError

    def seat_note(self, rules, short: bool = False) -> str | None:
        """A sentence on how this bot plays under ``rules``, when its name alone would mislead; else None.

        Boards show it under their seat choosers, and ``short`` (one line,
        the why left out) under the game's title while the bot is seated:
        the equilibrium bot says which of its bids are estimates.
        """
        return None

    def policy(self, observation) -> dict:
        """The probability of each move at ``observation``.

        Solvers (exact best response, exploitability) need it. A deterministic
        agent gets it for free from :meth:`act`; a stochastic agent overrides
        it. Kit bots derive any memory from ``observation.history``, so this
        and :meth:`act` may be asked about any position in any order.
        """
        if self.classifier.get("stochastic"):
            raise NotImplementedError(f"{self.name} is stochastic and does not state its policy")
        return {self.act(observation): 1.0}

    def choose(self, moves):
        """Pick one of ``moves`` uniformly with the agent's own generator."""
        moves = list(moves)
        if not moves:
            raise AgentError(f"{self.name} was asked to move with no legal moves")
        return moves[int(self.rng.integers(len(moves)))]

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"


class RandomAgent(Agent):
    """Plays a legal move chosen uniformly at random. Works for every game."""

    name = "random"
    classifier = {"stochastic": True, "memory": "none", "uses_opponent_bids": False, "games": ("*",)}

    def supports(self, rules) -> bool:
        return True

    def act(self, observation):
        return self.choose(observation.legal_moves)

    def policy(self, observation):
        moves = list(observation.legal_moves)
        return {m: 1.0 / len(moves) for m in moves}
