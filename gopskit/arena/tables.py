"""Play many games at one table at once: bots in this process, students in sandboxes.

A *table* is a list of entries, one per seat. :func:`play_games` deals one
game per seed and advances all of them together: at every step it gathers
the observations each student entry must answer into **one message per
entry** (so a sandbox round trip serves a hundred games), lets the bots move
meanwhile, then applies the joint moves.

Forfeits (the rule is in ``docs/tournaments.md``): when a strategy raises,
runs out of time or memory, stops its process, or returns something that is
not a legal move, that game stops at once. The forfeiting player scores 0
and loses; every other player wins and scores the whole hand's prize points
(``rules.total_points()``: 91 with 13 cards; in match play, its match total
so far plus one whole hand). When several players forfeit on the same move,
they all score 0; if everyone does, nobody wins. The tournament itself never
stops: the reason is written into the game's result.

>>> from gopskit.games.goofspiel import Goofspiel
>>> from gopskit.arena.entries import bot_entry
>>> games = play_games(Goofspiel(num_cards=5), [bot_entry("random"), bot_entry("random")], [1, 2])
>>> [sum(game["points"]) <= 15 for game in games]
[True, True]
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
from collections.abc import Mapping, Sequence

import numpy as np

from ..agents import make_agent
from ..errors import IllegalMoveError
from ..games.base import MatchState
from .sandbox import Reply, collect_all, start_all

FORFEIT_KINDS = ("exception", "timeout", "memory", "malformed", "illegal", "crash", "load", "withdrawn")


@dataclasses.dataclass
class _Game:
    """One game in progress at a table."""

    key: str
    number: int
    seed: int
    entries: Sequence
    state: object
    bots: dict
    student_seeds: dict
    forfeits: list = dataclasses.field(default_factory=list)
    over: bool = False
    history: dict = dataclasses.field(default_factory=dict)  # seat -> (past turns, their data)
    sent: dict = dataclasses.field(default_factory=dict)  # seat -> (sandbox generation, turns it has)


def play_games(rules, entries: Sequence, seeds: Sequence[int], workers: Mapping | None = None,
               prefix: str = "") -> list[dict]:
    """Play one game per seed with ``entries[p]`` in seat ``p``; return one result per game.

    ``workers`` maps a student entry's name to its
    :class:`~gopskit.arena.sandbox.SandboxWorker`. Each result is JSON-ready:
    ``{"seats": names, "seed", "points", "winners", "forfeits", "record"}``
    with ``record`` in the game's record format (docs/architecture.md).
    Game ``k`` deals from ``seeds[k]`` exactly as :func:`gopskit.arena.play_game`
    does, so a bots-only game replays with ``play_game(rules, bots, seed)``.
    """
    return play_tables(rules, [(entries, seeds)], workers, prefix)[0]


def play_tables(rules, tables: Sequence, workers: Mapping | None = None, prefix: str = "",
                budget=None) -> list[list[dict]]:
    """Play several tables at once: ``tables`` holds ``(entries, seeds)`` pairs.

    All their games advance together, so while one sandbox thinks the
    others (and this process) keep working. Returns one list of results per
    table, as :func:`play_games` does. ``budget`` (a
    :class:`~.sandbox.MemoryBudget`) is checked on the sandboxes between moves.
    """
    workers = workers or {}
    tables = [(list(entries), list(seeds)) for entries, seeds in tables]
    games, number = [], 0
    for t, (entries, seeds) in enumerate(tables):
        games.append([])
        for g, seed in enumerate(seeds):
            games[-1].append(_deal(rules, entries, int(seed), f"{prefix}{t}.{g}", number))
            number += 1
    live = [game for table in games for game in table]
    while live:
        replies = _gather_moves(live, workers)
        for game in live:
            _advance(game, replies)
        live = [game for game in live if not game.over]
        if budget is not None:
            budget.check(workers.values())
    return [[_result(rules, game) for game in table] for table in games]


def _deal(rules, entries, seed, key, number=0) -> _Game:
    deal, *streams = np.random.SeedSequence(seed).spawn(1 + len(entries))
    state = rules.new_game(np.random.default_rng(deal))
    bots, student_seeds = {}, {}
    for seat, (entry, stream) in enumerate(zip(entries, streams)):
        if entry.kind == "bot":
            agent = make_agent(entry.bot)
            agent.reset(rules, seat, np.random.default_rng(stream))
            bots[seat] = agent
        else:
            student_seeds[seat] = student_seed(seed, seat)
    return _Game(key, number, seed, entries, state, bots, student_seeds)


def student_seed(game_seed: int, seat: int) -> int:
    """The seed a sandboxed strategy gets for its ``random`` in one game: a one-way hash.

    Strategies run untrusted code and can read anything in their process, so
    they are never handed the game's seed nor any generator state the deal or
    the bots use: only a keyed BLAKE2 hash of the game seed and the seat, from
    which neither can be worked back (the bots' generators are spawned from the
    game seed by NumPy's SeedSequence, which never sees this number).

    >>> student_seed(12345, 0) == student_seed(12345, 0) != student_seed(12345, 1)
    True
    """
    digest = hashlib.blake2b(f"{int(game_seed)}:{int(seat)}".encode(), digest_size=8,
                             key=b"gopskit student seed").digest()
    return int.from_bytes(digest, "big") >> 1


def _gather_moves(live, workers) -> dict:
    """Ask every player to move in every live game: ``{(game key, seat): Reply}``.

    Each student entry's batch is sent as soon as it is built, so it thinks
    while the next batch is prepared. The bots move once every student's
    answer is in: a student's time limit is wall-clock, and a bot thinking
    meanwhile in this process (the 13-card equilibrium bot's endgame solve
    takes both cores for a second) would eat into it.
    """
    requests: dict[str, list] = {}
    bot_turns = []
    for game in live:
        for seat in game.state.to_move():
            if seat in game.student_seeds:
                requests.setdefault(game.entries[seat].name, []).append((game, seat))
            else:
                bot_turns.append((game, seat))
    starting = [workers[name] for name in requests if name in workers and not workers[name].withdrawn]
    ready = dict(zip(map(id, starting), start_all(starting)))  # their Pythons boot side by side
    for name, asked in requests.items():
        worker = workers.get(name)
        generation = worker.generation if worker is not None and ready.get(id(worker)) else None
        items = [(game.number << 3 | seat, game.student_seeds[seat], _wire_data(game, seat, generation))
                 for game, seat in asked]
        if worker is not None:
            worker.send(items, plain=_plain_items)
    asking = [name for name in requests if name in workers]
    collected = dict(zip(asking, collect_all([workers[name] for name in asking])))
    replies = {(game.key, seat): _bot_move(game.bots[seat], game.state.observation(seat)) for game, seat in bot_turns}
    for name, asked in requests.items():
        answers = collected.get(name, {})
        for game, seat in asked:
            replies[game.key, seat] = answers.get(game.number << 3 | seat, Reply(error="load", detail="no sandbox"))
    return replies


def _plain_items(items) -> list:
    return [(key, seed, _wire(data)) for key, seed, data in items]


def _bot_move(agent, observation) -> Reply:
    try:
        return Reply(move=agent.act(observation))
    except Exception as exc:  # noqa: BLE001 - a broken bot forfeits like anyone else
        return Reply(error="exception", detail=f"{type(exc).__name__}: {exc}")


def _advance(game: _Game, replies) -> None:
    """Apply the joint move, or record the forfeits (the engine refuses illegal moves untouched)."""
    state = game.state
    movers = state.to_move()
    joint = {seat: replies[game.key, seat] for seat in movers}
    if all(reply.ok for reply in joint.values()):
        try:
            state.apply({seat: reply.move for seat, reply in joint.items()})
        except IllegalMoveError:
            pass  # someone's move is not legal: the judge below says whose and why
        else:
            game.over = state.is_terminal()
            return
    for seat, reply in joint.items():
        if reply.ok:
            reply = judge_move(reply.move, state.legal_moves(seat))
        if not reply.ok:
            game.forfeits.append({"seat": seat, "entry": game.entries[seat].name, "reason": reply.error,
                                  "detail": reply.detail, "turn": _turn(state)})
    game.over = True


def judge_move(move, legal: Sequence) -> Reply:
    """Accept ``move`` if it is one of ``legal`` (same kind of value), else say why not.

    >>> judge_move(14, [2, 5, 9]).detail
    'bid 14, which is not a card in the hand (cards left: 2, 5, 9)'
    >>> judge_move("5", [2, 5, 9]).error
    'malformed'
    """
    if type(move) is int and move in legal:
        return Reply(move=move)
    for option in legal:
        if _same_move(move, option):
            return Reply(move=option)
    numeric = all(isinstance(m, (int, np.integer)) and not isinstance(m, bool) for m in legal)
    shown = ", ".join(map(str, legal))
    if numeric and not (isinstance(move, (int, np.integer)) and not isinstance(move, bool)):
        return Reply(error="malformed", detail=f"returned {_short(move)}, which is not a card; "
                     f"a card is a whole number such as {legal[0] if legal else 1}")
    if numeric:
        return Reply(error="illegal", detail=f"bid {move}, which is not a card in the hand (cards left: {shown})")
    return Reply(error="illegal", detail=f"played {_short(move)}, which is not allowed now (allowed: {shown})")


def _same_move(move, option) -> bool:
    if isinstance(move, bool) or isinstance(option, bool):
        return False
    if isinstance(move, (int, np.integer)) and isinstance(option, (int, np.integer)):
        return int(move) == int(option)
    return type(move) is type(option) and move == option


def _short(value) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _turn(state) -> int:
    """The 1-based turn of the current hand (for forfeit reports)."""
    hand = state.hand if isinstance(state, MatchState) else state
    return len(getattr(hand, "events", ())) + 1


# --------------------------------------------------------------- scoring ---
def forfeit_points(rules, state, forfeiting: Sequence[int]) -> list[float]:
    """Points after a forfeit (see the module docstring for the rule).

    >>> from gopskit.games.goofspiel import Goofspiel
    >>> rules = Goofspiel(num_cards=13)
    >>> forfeit_points(rules, rules.new_game(1), [0])
    [0, 91]
    """
    total = rules.total_points() if hasattr(rules, "total_points") else None
    current = state.scores()
    points = []
    for seat in range(rules.num_players):
        if seat in forfeiting:
            points.append(0)
        elif total is None:
            points.append(current[seat])
        elif isinstance(state, MatchState):
            points.append(current[seat] + total)
        else:
            points.append(total)
    return points


def _result(rules, game: _Game) -> dict:
    state = game.state
    if game.forfeits:
        out = sorted({f["seat"] for f in game.forfeits})
        points = forfeit_points(rules, state, out)
        winners = [p for p in range(rules.num_players) if p not in out]
    else:
        points, winners = list(state.scores()), list(state.winners())
    return {
        "seats": [e.name for e in game.entries], "seed": game.seed,
        "points": [_number(p) for p in points], "winners": winners,
        "forfeits": game.forfeits, "record": state.record(),
    }


def _number(value):
    """numpy numbers to Python ones (whole numbers as ``int``); anything else unchanged."""
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, (float, np.floating)):
        value = float(value)
        return int(value) if value.is_integer() else value
    return value


# ------------------------------------------------------- observation data ---
_SCALARS = frozenset((int, str, bool, float, type(None)))


def observation_data(observation) -> dict:
    """``observation.to_dict()``, several times faster.

    Walks the dataclass fields once, descending only into containers and
    nested dataclasses; the result equals ``observation.to_dict()`` exactly
    (a property test checks it over every Goofspiel variant).
    """
    return {name: _plain(getattr(observation, name)) for name in _field_names(type(observation))}


def _plain(value):
    kind = type(value)
    if kind in _SCALARS:
        return value
    if kind is tuple or kind is list:
        if set(map(type, value)) <= _SCALARS:
            return list(value)
        return [_plain(v) for v in value]
    if kind is dict:
        return {k: _plain(v) for k, v in value.items()}
    if dataclasses.is_dataclass(value):
        return observation_data(value)
    return _numpy_scalar(value)


def _wire_data(game: _Game, seat: int, generation: int | None = None) -> dict:
    """The observation of ``seat`` as sent to a sandbox (``marshal`` data).

    The observation's fields go as they are (marshal sends tuples, numbers,
    text and ``None``; the worker shows every list as a tuple anyway), except
    the past turns, which are converted to dicts once: they never change and
    the engine hands out the same turn objects, so the converted history is
    kept per seat and extended (converted afresh if it ever differs). A field
    marshal cannot send (a numpy number, a nested dataclass) makes the whole
    batch go through :func:`_wire` instead (see ``SandboxWorker.send``).

    With ``generation`` (the sandbox process's start count) only the turns
    that process has not been sent yet go, with ``history_from`` saying where
    they start; the worker keeps the rest. A restarted process (a new
    generation) is sent the whole history again.
    """
    observation = game.state.observation(seat)
    try:
        data = dict(observation.__dict__)
    except AttributeError:  # a dataclass with __slots__
        data = {name: getattr(observation, name) for name in _field_names(type(observation))}
    value = data.get("history")
    if type(value) is tuple:
        turns, converted = game.history.get(seat, ((), []))
        if value[: len(turns)] != turns:
            turns, converted = (), []
        converted = converted + [_turn_data(turn) for turn in value[len(turns):]]
        game.history[seat] = (value, converted)
        data["history"] = converted
        if generation is not None:
            known_generation, known = game.sent.get(seat, (None, 0))
            start = known if known_generation == generation and known <= len(converted) else 0
            data["history"], data["history_from"] = converted[start:], start
            game.sent[seat] = (generation, len(converted))
    return data


def _turn_data(turn) -> dict:
    """One past turn as a dict of its fields (still marshal-checked when sent)."""
    try:
        return dict(turn.__dict__)
    except AttributeError:
        return _wire(turn)


def _wire(value):
    kind = type(value)
    if kind in _SCALARS:
        return value
    if kind is tuple or kind is list:
        if set(map(type, value)) <= _SCALARS:
            return tuple(value) if kind is list else value
        return [_wire(v) for v in value]
    if kind is dict:
        return {k: _wire(v) for k, v in value.items()}
    if dataclasses.is_dataclass(value):
        return {name: _wire(getattr(value, name)) for name in _field_names(type(value))}
    return _numpy_scalar(value)


def _numpy_scalar(value):
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.floating):
        return float(value)
    return value


@functools.cache
def _field_names(cls) -> tuple[str, ...]:
    return tuple(f.name for f in dataclasses.fields(cls))


__all__ = ["FORFEIT_KINDS", "forfeit_points", "judge_move", "observation_data", "play_games", "play_tables",
           "student_seed"]
