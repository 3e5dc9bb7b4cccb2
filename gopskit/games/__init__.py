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
import os
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
        raise OptionError(f"unknown game {_short(name)}; the kit plays: {', '.join(games)}")
    module, cls = GAME_MODULES[name]
    return getattr(importlib.import_module(module), cls)


def make_rules(name: str, **options) -> Rules:
    """Return the rules of game ``name`` with the given options (others default)."""
    return rules_class(name).from_options(options)


MAX_RECORD_BYTES = 4_000_000  # a 20-hand match of 13 cards is a few kilobytes


def load_record(source) -> dict:
    """Read a record from a path, a JSON string or a dict, and check its outer shape.

    A string that starts with ``{`` is the record itself; any other string is
    a file name. Every failure (no such file, not UTF-8, not JSON, too deep,
    a number too long to read) is a :class:`RecordError` with one line.
    """
    if isinstance(source, Mapping):
        return _check_shape(dict(source))
    if isinstance(source, (bytes, bytearray)):
        return parse_record(decode_record(bytes(source)))
    text = str(source)
    if text.lstrip().startswith("{") and not _is_file(text):  # a file called "{...}.json" is still a file
        return parse_record(text)
    return parse_record(decode_record(_read_file(text)))


def _is_file(text: str) -> bool:
    try:
        return len(text) < 4096 and "\n" not in text and os.path.isfile(text)
    except (OSError, ValueError):
        return False


def _read_file(path: str) -> bytes:
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_RECORD_BYTES + 1)
    except (OSError, ValueError) as exc:  # ValueError: a NUL byte in the name
        reason = getattr(exc, "strerror", None) or "not a usable file name"
        raise RecordError(f"cannot read record file {_short(path)}: {reason}") from None
    if len(data) > MAX_RECORD_BYTES:
        raise RecordError(f"record file {_short(path)} is over {MAX_RECORD_BYTES:,} bytes; a game record is a few kilobytes")
    return data


def decode_record(data: bytes) -> str:
    """The text of a record read as bytes (from a file or standard input): UTF-8, or a RecordError."""
    if len(data) > MAX_RECORD_BYTES:
        raise RecordError(f"the record is over {MAX_RECORD_BYTES:,} bytes; a game record is a few kilobytes")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise RecordError(f"the record is not UTF-8 text (byte {exc.start + 1} is {data[exc.start]:#04x}); "
                          "a record is a JSON file") from None


def parse_record(text: str) -> dict:
    """Parse the JSON text of a record (never a file name) and check its outer shape."""
    try:
        record = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(f"the record is not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})") from None
    except RecursionError:
        raise RecordError("the record is nested too deeply to be a game record") from None
    except ValueError as exc:  # e.g. an integer of more than 4300 digits
        raise RecordError(f"the record holds a value JSON cannot read here: {str(exc).split(';')[0]}") from None
    return _check_shape(record)


def _check_shape(record) -> dict:
    if not isinstance(record, dict):
        raise RecordError("a record is a JSON object with keys 'game', 'options' and the game's moves")
    if "game" not in record:
        raise RecordError("the record has no 'game' key; it should name the game, e.g. \"goofspiel\"")
    if not isinstance(record["game"], str):
        raise RecordError(f"the record's 'game' is a name such as \"goofspiel\", not {_short(record['game'])}")
    options = record.get("options", {})
    if not isinstance(options, dict):
        raise RecordError("the record's 'options' must be an object of option names and values")
    return record


def _short(value, limit: int = 60) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


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
    "decode_record", "load_record", "make_rng", "make_rules", "parse_record", "replay_record", "rules_class",
    "rules_from_record",
]
