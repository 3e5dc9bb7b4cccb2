"""Errors raised by gopskit.

Every error is a :class:`ValueError` subclass, so ``except ValueError`` keeps
working, and every message says what was wrong *and* what is allowed.
"""

from __future__ import annotations


MAX_MESSAGE = 600  # characters: a message is read by a person, on a status line or a terminal


class GopsError(ValueError):
    """Base class of every error gopskit raises on bad input.

    A message that quotes a huge input (a 100,000-card "bid", a megabyte of
    text as a name) keeps its start and its end, which say what was wrong and
    what is allowed, and drops the middle:

    >>> len(str(GopsError("bid " + "9" * 10_000 + " is not a card"))) <= MAX_MESSAGE
    True
    >>> str(GopsError("bid " + "9" * 10_000 + " is not a card")).endswith("99 is not a card")
    True
    """

    def __init__(self, *args):
        if len(args) == 1 and isinstance(args[0], str) and len(args[0]) > MAX_MESSAGE:
            text = args[0]
            args = (f"{text[:380]} [...] {text[-(MAX_MESSAGE - 387):]}",)
        super().__init__(*args)


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
