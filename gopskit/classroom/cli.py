"""``gopskit classroom ...``: run a room from a terminal (the teacher's app does the same with buttons).

=================================  ===============================================
``gopskit classroom check``        open the store, make it if new, print where it is
``gopskit classroom create``       open a room; prints its code and the teacher key
``gopskit classroom status KEY``   students, tables and leaderboard of a room
``gopskit classroom pair KEY``     seat the waiting students now
``gopskit classroom end KEY``      end the room
``gopskit classroom close-idle``   end every room nobody has used for a while
``gopskit classroom export KEY``   write the room's zip (records, bids.csv)
``gopskit classroom compare ZIP``  the class's bids next to the equilibrium and bots
``gopskit classroom simulate CODE`` simulated students join a room and play
=================================  ===============================================

Every command takes ``--db URL`` (a path or ``postgresql://...``), else
``GOPSKIT_CLASSROOM_DB``, else the user's default store.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

from ..cards import counted
from ..errors import OptionError


def register(subparsers) -> None:
    """Add ``gopskit classroom`` and its commands to the ``gopskit`` parser."""
    parser = subparsers.add_parser("classroom", help="classroom play: rooms for a class on their own laptops")
    sub = parser.add_subparsers(dest="classroom_command", metavar="ACTION", parser_class=type(parser))
    parser.set_defaults(func=lambda args: parser.print_help() or 0)

    check = _command(sub, "check", "open the store (create and migrate it if new) and say where it is", _check)
    check.add_argument("--rounds", type=int, default=20, help="round trips to time (default 20)")
    create = _command(sub, "create", "open a room and print its code and teacher key", _create)
    create.add_argument("--game", default="goofspiel", help="the game (default goofspiel): goofspiel, gops-for-three, "
                                                             "throps, gooseberry-fool, divide-and-conquer or raj")
    create.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="a game option, e.g. --option num_cards=5 (repeat for more)")
    create.add_argument("--pairing", default="random", help="random, round-robin or challenge")
    create.add_argument("--bot", default=None, help="the bot for empty seats and absent students")
    create.add_argument("--timeout", type=float, default=60.0, help="seconds away before the bot stands in")
    for name, helptext, func in (("status", "students, tables and leaderboard", _status),
                                 ("pair", "seat the waiting students now (bots fill a short table)", _pair),
                                 ("end", "end the room: unfinished games stop", _end)):
        _command(sub, name, helptext, func).add_argument("key", help="the room's teacher key")
    idle = _command(sub, "close-idle", "end every open room nobody has used for a while (no student's page open, "
                                       "no turn begun)", _close_idle)
    idle.add_argument("--minutes", type=int, default=None,
                      help="how long a room must have been unused (default: 12 hours, as opening a room does)")
    export = _command(sub, "export", "write the room's export zip", _export)
    export.add_argument("key", help="the room's teacher key")
    export.add_argument("--out", default=".", help="a folder or a .zip path (default: here)")
    compare = _command(sub, "compare", "compare a room's bids with the equilibrium and bots", _compare, db=False)
    compare.add_argument("zip", help="an export zip")
    compare.add_argument("--bots", default="match-prize,random",
                         help="the bots to compare with, comma separated (default: match-prize,random)")
    simulate = _command(sub, "simulate", "simulated students join a room and play until it ends", _simulate)
    simulate.add_argument("code", help="the room code")
    simulate.add_argument("--students", type=int, default=4, help="how many simulated students (default 4)")
    simulate.add_argument("--think", type=float, default=2.0, help="longest thinking time per move (s)")


def _command(sub, name, helptext, func, db=True):
    parser = sub.add_parser(name, help=helptext)
    if db:
        parser.add_argument("--db", default=None, help="the store: a path or postgresql://... URL")
    parser.set_defaults(func=func)
    return parser


def _store(args):
    from .store import ClassroomStore

    return ClassroomStore(args.db)


def parse_option(text: str) -> tuple[str, object]:
    """``NAME=VALUE`` with VALUE read as JSON when it can be (``5``, ``true``, ``[3,1,2]``), else as text.

    >>> parse_option("num_cards=5"), parse_option("ties=carry")
    (('num_cards', 5), ('ties', 'carry'))
    """
    if "=" not in text:
        raise OptionError(f"an option is NAME=VALUE, like num_cards=5, not {text!r}")
    name, value = text.split("=", 1)
    try:
        return name.strip(), json.loads(value)
    except json.JSONDecodeError:
        return name.strip(), value


def _check(args) -> int:
    store = _store(args)
    started = time.perf_counter()
    for _ in range(args.rounds):
        store.db.run(lambda tx: tx.one("SELECT COUNT(*) AS n FROM rooms"), write=False)
    each = (time.perf_counter() - started) / max(1, args.rounds) * 1000
    print(f"store: {store.db!r}\nschema version: {store.schema}\nread round trip: {each:.2f} ms")
    return 0


def _create(args) -> int:
    from .tokens import shown_code  # the code as every page writes it; joining takes either form

    options = dict(parse_option(o) for o in args.option)
    if args.bot is not None:
        _check_bot(args.bot, args.game, options)
    room = _store(args).create_room(args.game, options, pairing=args.pairing, bot=args.bot, timeout=args.timeout)
    print(f"room code: {shown_code(room.code)}\nteacher key (keep it secret): {room.teacher_key}")
    return 0


def _check_bot(bot: str, game: str, options: dict) -> None:
    """A --bot that is no bot at all is refused with the bots of the room's game (not every game's)."""
    from ..agents import agent_names
    from ..games import make_rules
    from ..games.wording import game_title

    if bot not in agent_names():
        rules = make_rules(game, **options)  # a bad game or option is refused here, in the game's words
        raise OptionError(f"unknown bot {bot!r} in --bot; the bots that play {game_title(game)} with these options: "
                          f"{', '.join(agent_names(rules))}")


def _status(args) -> int:
    from ..agents.labels import bot_label
    from ..games.wording import describe_game  # the pages' words for the game, without their UI
    from .html import _number, _state_word, code_text, pairing_words, shared_wins_note, wins_text

    overview = _store(args).overview(args.key)
    settings = overview.settings
    print(f"room {code_text(overview.code)} ({overview.status}): {describe_game(overview.game, overview.options)}")
    pairing = pairing_words(settings["pairing"])
    rounds = f", round {overview.round} of {overview.rounds}" if overview.rounds else ""
    print(f"pairing: {pairing}{rounds}; the {bot_label(str(settings['bot']))} stands in after "
          f"{_number(settings['timeout'])} s")
    students = ", ".join(f"{p['name']} ({_state_word(p)})" for p in overview.players)
    print(f"students ({len(overview.players)}): {students or 'nobody has joined yet'}")
    print("tables:" if overview.tables else "tables: none yet")
    for t in overview.tables:
        print(f"  table {t['number']}: {_table_line(t)}")
    print("leaderboard:" if overview.leaderboard else "leaderboard: empty until a game finishes")
    for row in overview.leaderboard:
        wins = f"{wins_text(row['wins'])} {'win' if 0 < row['wins'] <= 1 else 'wins'}"
        print(f"  {row['place']}. {row['name']}: {wins} in {counted(row['games'], 'game')}, "
              f"{row['points_per_game']:.1f} points per game")
    note = shared_wins_note(overview.leaderboard)  # equal records share a place (1, 1, 3); a shared win is a share
    if note:
        print(f"  ({note})")
    return 0


def _table_line(table: dict) -> str:
    """One table as the teacher's page shows it: who sits there, the scores the players see, the turn.

    >>> _table_line({"names": ["Ann", "Random bot"], "kinds": ["student", "bot"], "scores": [3, 1.5],
    ...              "status": "playing", "turn": 2, "waiting_for": ["Ann"], "winners": []})
    'Ann 3, Random bot (bot) 1.5; turn 3, waiting for Ann'
    """
    from .html import SEAT_KIND_WORDS, _number

    scores = table["scores"]
    seats = ", ".join(name + (f" ({SEAT_KIND_WORDS[kind]})" if kind in SEAT_KIND_WORDS else "") + ("" if scores is None else f" {_number(scores[seat])}")
                      for seat, (name, kind) in enumerate(zip(table["names"], table["kinds"])))
    if scores is None:
        seats += " (scores hidden until the end)"
    if table["status"] == "playing":
        state = f"turn {table['turn'] + 1}, waiting for {', '.join(table['waiting_for']) or 'the reveal'}"
    elif table["status"] == "finished":
        won = [table["names"][seat] for seat in table["winners"]]
        state = ("finished" if not won else f"finished, {won[0]} won" if len(won) == 1
                 else f"finished, {' and '.join(won)} shared first place")
    else:
        state = "stopped when the room ended"
    return f"{seats}; {state}"


def _pair(args) -> int:
    print(counted(len(_store(args).pair_waiting(args.key)), "new table"))
    return 0


def _end(args) -> int:
    print(f"room ended; {counted(_store(args).end_room(args.key), 'unfinished game')} stopped")
    return 0


def _close_idle(args) -> int:
    from .tokens import shown_code

    codes = _store(args).close_idle_rooms(args.minutes)
    print(f"{counted(len(codes), 'room')} ended" + (": " + ", ".join(map(shown_code, codes)) if codes else ""))
    return 0


def _export(args) -> int:
    path = _store(args).export(args.key).write(Path(args.out))
    print(path)
    return 0


def _compare(args) -> int:
    from ..agents import agent_names
    from ..agents.labels import bot_label
    from ..games.goofspiel import Goofspiel
    from .analysis import load_and_compare

    bots = tuple(b.strip() for b in args.bots.split(",") if b.strip())
    if "equilibrium" in bots:
        raise OptionError("--bots: leave out 'equilibrium': the equilibrium has a column of its own")
    allowed = [b for b in agent_names(Goofspiel()) if b != "equilibrium"]
    wrong = [b for b in bots if b not in allowed]
    if wrong:
        raise OptionError(f"--bots: {', '.join(repr(b) for b in wrong)} cannot bid in two-player Goofspiel, which "
                          f"the comparison is about; the bots that can: {', '.join(allowed)}")
    result = load_and_compare(args.zip, bots=bots)
    labels = [bot_label(b) for b in result.bots]
    labels = [f"{label} ({b})" if labels.count(label) > 1 else label for label, b in zip(labels, result.bots)]
    keys = ["prize", "bids", "class_mean", "equilibrium_mean", *result.bots]
    heads = ["prize", "student bids", "class mean", "equilibrium mean", *labels]
    widths = [max(len(h), 6) for h in heads]
    print("Mean bid at each prize value (student bids: how many bids the class made at that prize):")
    print("  ".join(f"{h:>{w}}" for h, w in zip(heads, widths)))
    for row in result.by_prize:
        print("  ".join(f"{_fmt(row.get(k)):>{w}}" for k, w in zip(keys, widths)))
    if result.support_share is not None:
        print(f"share of student bids the equilibrium plays: {result.support_share:.0%}")
    if result.note:
        print(f"note: {result.note}")
    return 0


def _fmt(value) -> str:
    return "-" if value is None else (f"{value:.2f}" if isinstance(value, float) else str(value))


def _simulate(args) -> int:
    import tempfile

    from .db import default_url
    from .simulate import run_students
    from .tokens import shown_code

    if args.students < 1:
        raise OptionError(f"--students takes a whole number of simulated students, 1 or more, not {args.students}")
    if not args.think >= 0:
        raise OptionError(f"--think takes the longest thinking time per move in seconds, 0 or more, not {args.think:g}")
    folder = tempfile.mkdtemp(prefix="gopskit-simulated-")
    pool, result = run_students(args.db or default_url(), args.code, args.students, folder, think=args.think)
    print(f"{counted(args.students, 'simulated student')} joined room {shown_code(args.code)}; logs in {folder}. "
          "Ctrl-C stops them.")
    try:
        result.get()
    finally:
        pool.terminate()
    return 0


__all__ = ["parse_option", "register"]
