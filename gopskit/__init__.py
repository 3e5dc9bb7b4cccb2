"""gopskit: game theory taught through Goofspiel (Gops) and its relatives.

The layers (imports flow one way): ``cards``, ``games`` -> ``agents``,
``solvers`` -> ``arena`` -> ``viz``, ``widgets`` -> notebooks and lessons.
Importing :mod:`gopskit` loads the engine, the bots and batch play, never a
UI library.

>>> import gopskit
>>> rules = gopskit.Goofspiel(num_cards=13, players=2, ties="discard")
>>> gopskit.play_many(rules, ["random", "match-prize"], games=1000, seed=1).shape
(1000, 2)
"""

from .arena import play_game
from .arena.batch import play_many
from .errors import AgentError, GopsError, IllegalMoveError, OptionError, RecordError
from .games import make_rules, replay_record
from .games.goofspiel import Goofspiel

__version__ = "0.1.0"

__all__ = [
    "AgentError", "Goofspiel", "GopsError", "IllegalMoveError", "OptionError", "RecordError",
    "make_rules", "play_game", "play_many", "replay_record",
]
