"""gopskit: game theory taught through Goofspiel (Gops) and its relatives.

The layers (imports flow one way): ``cards``, ``games`` -> ``agents``,
``solvers`` -> ``arena`` -> ``viz``, ``widgets`` -> notebooks and lessons.
Importing :mod:`gopskit` is cheap: the engine, the bots and batch play are
loaded when first named (``gopskit.play_many``), never a UI library.

>>> import gopskit
>>> rules = gopskit.Goofspiel(num_cards=13, players=2, ties="discard")
>>> gopskit.play_many(rules, ["random", "match-prize"], games=1000, seed=1).shape
(1000, 2)
"""

from .errors import AgentError, GopsError, IllegalMoveError, OptionError, RecordError

__version__ = "0.1.0"

# Loaded on first use, so that ``gopskit solve`` and other commands that need none of them start
# quickly (batch play alone imports tqdm and the arena): name -> the module that defines it.
_LAZY = {
    "Goofspiel": "gopskit.games.goofspiel", "make_rules": "gopskit.games", "replay_record": "gopskit.games",
    "play_game": "gopskit.arena", "play_many": "gopskit.arena.batch",
}


def __getattr__(name: str):
    if name in _LAZY:
        import importlib

        value = getattr(importlib.import_module(_LAZY[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'gopskit' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_LAZY))

__all__ = [
    "AgentError", "Goofspiel", "GopsError", "IllegalMoveError", "OptionError", "RecordError",
    "make_rules", "play_game", "play_many", "replay_record",
]
