"""Errors raised by gopskit.

Every error is a :class:`ValueError` subclass, so ``except ValueError`` keeps
working, and every message says what was wrong *and* what is allowed.
"""

from __future__ import annotations


class GopsError(ValueError):
    """Base class of every error gopskit raises on bad input."""


class OptionError(GopsError):
    """A game option is unknown or out of range."""


class IllegalMoveError(GopsError):
    """A move was rejected; the game state is unchanged."""


class RecordError(GopsError):
    """A game record is malformed or inconsistent with the rules.

    ``turn`` is the 1-based turn at fault, or ``None`` when the fault is not
    tied to one turn (a missing key, an unknown game).
    """

    def __init__(self, message: str, turn: int | None = None):
        self.turn = turn
        prefix = f"turn {turn}: " if turn is not None else ""
        super().__init__(prefix + message)


class AgentError(GopsError):
    """An agent (a bot or a student's strategy) misbehaved."""
