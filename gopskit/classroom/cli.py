"""``gopskit classroom ...``: run a room from a terminal (the teacher's app does the same with buttons).

=================================  ===============================================
``gopskit classroom check``        open the store, make it if new, print where it is
``gopskit classroom create``       open a room; prints its code and the teacher key
``gopskit classroom status KEY``   students, tables and leaderboard of a room
``gopskit classroom pair KEY``     seat the waiting students now
``gopskit classroom end KEY``      end the room
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
    create.add_argument("--game", default="goofspiel")
    create.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="a game option, e.g. --option num_cards=5 (repeat for more)")
    create.add_argument("--pairing", default="random", help="random, round-robin or challenge")
    create.add_argument("--bot", default=None, help="the bot for empty seats and absent students")
    create.add_argument("--timeout", type=float, default=60.0, help="seconds away before the bot stands in")
    for name, helptext, func in (("status", "students, tables and leaderboard", _status),
                                 ("pair", "seat the waiting students now (bots fill a short table)", _pair),
                                 ("end", "end the room: unfinished games stop", _end)):
        _command(sub, name, helptext, func).add_argument("key", help="the room's teacher key")
    export = _command(sub, "export", "write the room's export zip", _export)
    export.add_argument("key", help="the room's teacher key")
    export.add_argument("--out", default=".", help="a folder or a .zip path (default: here)")
    compare = _command(sub, "compare", "compare a room's bids with the equilibrium and bots", _compare, db=False)
    compare.add_argument("zip", help="an export zip")
    compare.add_argument("--bots", default="match-prize,random", help="comma-separated bot names")
    simulate = _command(sub, "simulate", "simulated students join a room and play until it ends", _simulate)
    simulate.add_argument("code", help="the room code")
    simulate.add_argument("--students", type=int, default=4)
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
    room = _store(args).create_room(args.game, options, pairing=args.pairing, bot=args.bot, timeout=args.timeout)
    print(f"room code: {shown_code(room.code)}\nteacher key (keep it secret): {room.teacher_key}")
    return 0


def _status(args) -> int:
    overview = _store(args).overview(args.key)
    from .html import game_line

    print(f"room {overview.code} ({overview.status}): {game_line(overview.game, overview.options)}")
    print("students: " + (", ".join(f"{p['name']} ({p['state']})" for p in overview.players) or "none"))
    for t in overview.tables:
        scores = "?" if t["scores"] is None else " - ".join(f"{s:g}" for s in t["scores"])
        print(f"  table {t['number']}: {' vs '.join(t['names'])}: {t['status']}, turn {t['turn']}, {scores}")
    for row in overview.leaderboard:
        wins = f"{row['wins']:g} win" + ("" if row["wins"] == 1 else "s")
        print(f"  {row['place']}. {row['name']}: {wins} in {counted(row['games'], 'game')}, "
              f"{row['points_per_game']:.1f} points per game")
    return 0


def _pair(args) -> int:
    print(counted(len(_store(args).pair_waiting(args.key)), "new table"))
    return 0


def _end(args) -> int:
    print(f"room ended; {counted(_store(args).end_room(args.key), 'unfinished game')} stopped")
    return 0


def _export(args) -> int:
    path = _store(args).export(args.key).write(Path(args.out))
    print(path)
    return 0


def _compare(args) -> int:
    from .analysis import load_and_compare

    result = load_and_compare(args.zip, bots=tuple(b for b in args.bots.split(",") if b))
    names = ["prize", "bids", "class_mean", "equilibrium_mean", *result.bots]
    print("  ".join(f"{n:>16}" for n in names))
    for row in result.by_prize:
        print("  ".join(f"{_fmt(row.get(n)):>16}" for n in names))
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

    folder = tempfile.mkdtemp(prefix="gopskit-simulated-")
    pool, result = run_students(args.db or default_url(), args.code, args.students, folder, think=args.think)
    print(f"{args.students} simulated students joined room {args.code}; logs in {folder}. Ctrl-C stops them.")
    try:
        result.get()
    finally:
        pool.terminate()
    return 0


__all__ = ["parse_option", "register"]
