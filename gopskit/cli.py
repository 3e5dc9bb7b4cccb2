"""The ``gopskit`` command.

``gopskit serve``   serve the apps with Voila (http://localhost:8866)
``gopskit replay``  print a game record turn by turn (``--json`` for data)
``gopskit play``    a quick game of Goofspiel in the terminal against a bot

Other parts of the kit add subcommands (``solve``, ``tournament``, ...)
through a ``register(subparsers)`` function in the modules of ``_PLUGINS``.
A command is looked up in the plugins in order and the search stops at the
plugin that has it, so ``gopskit solve`` never imports the classroom's
database driver (``--help`` and an unknown command still see them all).
Bad input exits with status 2 and one line on stderr, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import sys

from .errors import GopsError

_PLUGINS = ("gopskit.solvers.cli", "gopskit.arena.cli", "gopskit.classroom.cli")


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, status 2, like every bad input
        self.exit(2, f"gopskit: {message} (see gopskit --help)\n")


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The ``gopskit`` parser; with ``command``, plugins are registered only until one adds that command."""
    from .serve import add_host_name_option, add_passcode_options, add_tls_options  # shared with python -m gopskit.serve

    parser = _Parser(prog="gopskit", description="Game theory through Goofspiel: apps, games, solvers.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    serve = sub.add_parser("serve", help="serve the apps with Voila")
    serve.add_argument("--port", type=int, default=8866, help="port to listen on (default 8866)")
    serve.add_argument("--no-browser", action="store_true", help="do not open a browser window")
    serve.add_argument("--host", default="localhost",
                       help="address to listen on: localhost (default) or 0.0.0.0 to serve a classroom network")
    serve.add_argument("--max-kernels", type=int, default=None, metavar="N",
                       help="apps open at once across all browsers; a page beyond gets 'the room is full' "
                            "(default: sized from this computer's memory)")
    serve.add_argument("--kernel-memory", type=int, default=2048, metavar="MB",
                       help="memory one open app may use, in MB (default 2048)")
    serve.add_argument("--kernels-per-client", type=int, default=4, metavar="N",
                       help="apps one computer (network address) may have open at once; a page beyond gets "
                            "'close another tab'; this computer itself is not limited (default 4)")
    add_host_name_option(serve)
    add_passcode_options(serve)
    add_tls_options(serve)
    serve.set_defaults(func=_serve)

    replay = sub.add_parser("replay", help="replay a game record (JSON file)")
    replay.add_argument("file", help="a game record, e.g. one saved by a board; '-' reads standard input")
    replay.add_argument("--json", action="store_true", help="print the result as JSON")
    replay.set_defaults(func=_replay)

    play = sub.add_parser("play", help="play Goofspiel against a bot in the terminal")
    play.add_argument("--cards", type=int, default=13, help="cards per suit (1-13, default 13)")
    play.add_argument("--bot", default="match-prize", help="the bot to play (default match-prize)")
    play.add_argument("--ties", default="discard", help="tie rule: discard, carry, unique or rebid")
    play.add_argument("--seed", type=int, default=None, help="seed for a repeatable game")
    play.set_defaults(func=_play)

    for module in _PLUGINS:
        if command is not None and command in sub.choices:
            break
        if _module_exists(module):
            importlib.import_module(module).register(sub)
    return parser


def _command_of(argv) -> str | None:
    """The subcommand named on the command line (the first word not an option), if any."""
    words = sys.argv[1:] if argv is None else list(argv)
    return next((word for word in words if not word.startswith("-")), None)


def _module_exists(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except ModuleNotFoundError:  # its parent package is not there either
        return False


def main(argv=None) -> int:
    parser = build_parser(_command_of(argv))
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 0
    try:
        return int(args.func(args) or 0)
    except GopsError as exc:
        print(f"gopskit: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("gopskit: interrupted", file=sys.stderr)
        return 130


# ----------------------------------------------------------------- serve ---
def _serve(args) -> int:
    from .serve import limits_from, serve  # the Voila launcher lives beside the apps' code

    return serve(port=args.port, open_browser=not args.no_browser, host=args.host, limits=limits_from(args),
                 passcode=args.teacher_passcode, no_passcode=args.no_teacher_passcode, certfile=args.certfile,
                 keyfile=args.keyfile)


# ---------------------------------------------------------------- replay ---
def _replay(args) -> int:
    from .games import MAX_RECORD_BYTES, decode_record, load_record, parse_record, replay_record

    if args.file == "-":  # standard input is the record's text, never a file name
        record = parse_record(decode_record(sys.stdin.buffer.read(MAX_RECORD_BYTES + 1)))
    else:
        record = load_record(args.file)
    state = replay_record(record)
    if args.json:
        result = {
            "game": record["game"],
            "options": state.rules.options(),
            "scores": state.scores(),
            "winners": [p + 1 for p in state.winners()],
            "finished": state.is_terminal(),
            "cut_off": _cut_off(state),
            "record": state.record(),
        }
        print(json.dumps(result))
        return 0
    for line in state.log():
        print(line)
    print(_summary(state))
    return 0


def _cut_off(state) -> bool:
    """True for a match that hit its cap of hands before anyone reached the target."""
    return bool(getattr(state, "cut_off", None) and state.cut_off())


def _summary(state) -> str:
    """The last line of ``gopskit replay``: who won, the scores, and a cut-off match said as such.

    Players are named as the boards name them ("Player 2"); a match's parts
    are hands in Goofspiel and deals in the other games.
    """
    from .cards import and_list, counted

    scores = ", ".join(f"Player {p + 1} {s:g}" for p, s in enumerate(state.scores()))
    if not state.is_terminal():
        return f"Unfinished game. Scores so far: {scores}."
    winners = state.winners()
    who = (f"Player {winners[0] + 1} wins" if len(winners) == 1
           else "Tie between " + and_list(f"Player {w + 1}" for w in winners))
    if _cut_off(state):
        part = "hand" if state.rules.name == "goofspiel" else "deal"
        return (f"The match was cut off at its cap of {counted(len(state.hands), part)}, before anyone reached the "
                f"target of {state.rules.target}: {who} on the totals so far. Final scores: {scores}.")
    return f"{who}. Final scores: {scores}."


# ------------------------------------------------------------------ play ---
def _play(args) -> int:
    from .terminal import play_in_terminal

    return play_in_terminal(cards=args.cards, bot=args.bot, ties=args.ties, seed=args.seed)


if __name__ == "__main__":
    sys.exit(main())
