"""The games of the kit: rules engines only (no I/O, no UI, no global randomness).

Every game speaks the protocol of :mod:`gopskit.games.base`. Look a game up by
the name its records carry:

>>> from gopskit.games import make_rules
>>> rules = make_rules("goofspiel", num_cards=5)
>>> state = rules.new_game(seed=1)
>>> state.to_move()
(0, 1)
"""

from __future__ import annotations

import importlib
import importlib.util
import json
from collections.abc import Mapping

from ..errors import OptionError, RecordError
from .base import GameState, MatchState, Observation, Rules, make_rng

# record name -> (module, rules class). Each module holds one game.
GAME_MODULES: dict[str, tuple[str, str]] = {
    "goofspiel": ("gopskit.games.goofspiel", "Goofspiel"),
    "gops-for-three": ("gopskit.games.gops_for_three", "GopsForThree"),
    "throps": ("gopskit.games.throps", "Throps"),
    "gooseberry-fool": ("gopskit.games.gooseberry_fool", "GooseberryFool"),
    "divide-and-conquer": ("gopskit.games.divide_and_conquer", "DivideAndConquer"),
    "raj": ("gopskit.games.raj", "Raj"),
}


def available_games() -> list[str]:
    """Names of the games whose modules are present, in the kit's order."""
    return [name for name, (module, _) in GAME_MODULES.items() if importlib.util.find_spec(module)]


def rules_class(name: str) -> type[Rules]:
    """Return the rules class of the game called ``name`` in records."""
    games = available_games()
    if name not in games:
        raise OptionError(f"unknown game {name!r}; the kit plays: {', '.join(games)}")
    module, cls = GAME_MODULES[name]
    return getattr(importlib.import_module(module), cls)


def make_rules(name: str, **options) -> Rules:
    """Return the rules of game ``name`` with the given options (others default)."""
    return rules_class(name).from_options(options)


def load_record(source) -> dict:
    """Read a record from a path, a JSON string or a dict, and check its outer shape."""
    if isinstance(source, Mapping):
        record = dict(source)
    else:
        text = str(source)
        if not text.lstrip().startswith("{"):
            try:
                with open(text, encoding="utf-8") as handle:
                    text = handle.read()
            except OSError as exc:
                raise RecordError(f"cannot read record file {source!r}: {exc.strerror}") from None
        try:
            record = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordError(f"the record is not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})") from None
    if not isinstance(record, dict):
        raise RecordError("a record is a JSON object with keys 'game', 'options' and the game's moves")
    if "game" not in record:
        raise RecordError("the record has no 'game' key; it should name the game, e.g. \"goofspiel\"")
    options = record.get("options", {})
    if not isinstance(options, dict):
        raise RecordError("the record's 'options' must be an object of option names and values")
    return record


def rules_from_record(record: Mapping) -> Rules:
    """Return the rules a record was played under."""
    try:
        return rules_class(record["game"]).from_options(record.get("options", {}))
    except OptionError as exc:
        raise RecordError(f"bad options: {exc}") from None
    except TypeError as exc:  # a wrongly typed option value
        raise RecordError(f"bad options: {exc}") from None


def replay_record(source) -> GameState:
    """Rebuild the game a record describes, checking every move against the rules."""
    record = load_record(source)
    return rules_from_record(record).replay(record)


__all__ = [
    "GAME_MODULES", "GameState", "MatchState", "Observation", "Rules", "available_games",
    "load_record", "make_rng", "make_rules", "replay_record", "rules_class", "rules_from_record",
]
