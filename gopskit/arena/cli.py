"""``gopskit tournament``: a class tournament from the command line.

    gopskit tournament submissions/ --games 100 --cards 13

plays every strategy file of ``submissions/`` and the standard bots
(:data:`DEFAULT_BOTS`; choose others with ``--bots``, none with
``--bots none``) against each other, prints the submission checks, the ranking, the forfeits and how
each entry bids, and saves everything in ``--out`` (``tournament-results``).
An interrupted run carries on with ``--resume``. Bad options exit with
status 2 and one line on stderr that names the flag as it was typed
(``--cards``, not the game's ``num_cards``) and says what it takes.

What it prints names bots as the boards do ("One-higher bot"), with one
line that pairs each label with the name ``--bots`` takes; the files in
``--out`` keep the names (outside tools read them).
"""

from __future__ import annotations

import argparse
import pathlib
import shutil

import re
import textwrap

from ..cards import counted
from ..errors import OptionError

DEFAULT_OUT = "tournament-results"
DEFAULT_BOTS = ("random", "match-prize", "one-higher", "greedy-high")
_OUR_FILES = ("tournament.json", "results.json", "games.csv", "ranking.csv", "tables", "plots")
# the game options this command has a flag for: option -> flag (any other option goes by --option NAME=VALUE)
FLAGS = {"num_cards": "--cards", "players": "--players", "ties": "--ties", "prize_order": "--prize-order",
         "ace_high": "--ace-high", "blind": "--blind", "hidden_bids": "--hidden-bids",
         "face_down_trophies": "--face-down-trophies"}


def register(subparsers) -> None:
    """Add the ``tournament`` subcommand to the ``gopskit`` command."""
    cmd = subparsers.add_parser(
        "tournament", help="round robin of students' strategy files and bots",
        description="Play every strategy file of FOLDER and the standard bots (or the ones --bots names) against "
                    "each other, from every seat; print the checks, the ranking with 95% intervals and its rule, "
                    "the forfeits and how each entry bids; save everything in --out.")
    cmd.add_argument("folder", nargs="?", default=None, help="folder of strategy files (*.py); optional with --bots")
    cmd.add_argument("--bots", default=None,
                     help=f"bots to enter, comma separated (default with a folder: {','.join(DEFAULT_BOTS)}; "
                          f"'none': no bots)")
    cmd.add_argument("--game", default="goofspiel", help="the game (default goofspiel)")
    cmd.add_argument("--cards", type=int, default=None, help="Goofspiel cards per suit, 1-13 (default 13)")
    cmd.add_argument("--players", type=int, default=None, help="players per table (default 2)")
    cmd.add_argument("--ties", default=None, help="Goofspiel tie rule: discard, carry, unique or rebid")
    cmd.add_argument("--prize-order", default=None, help="shuffled, ascending or descending")
    for flag in ("ace-high", "blind", "hidden-bids", "face-down-trophies"):
        cmd.add_argument(f"--{flag}", action="store_true", help=f"Goofspiel variant: {flag.replace('-', ' ')}")
    cmd.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                     help="any other game option (repeatable), e.g. --option target=92")
    cmd.add_argument("--games", type=int, default=100, help="games per seating of every table (default 100)")
    cmd.add_argument("--seed", type=int, default=None,
                     help="seed: the same seed replays the same tournament (default: a secret random one, "
                          "printed and saved with the results)")
    cmd.add_argument("--seatings", default="rotations", help="rotations (default) or permutations (3+ players)")
    cmd.add_argument("--time-limit", type=float, default=1.0, help="seconds per move (default 1)")
    cmd.add_argument("--memory-limit", type=int, default=512, help="megabytes per strategy, 64 or more (default 512; "
                                                                      "0: no limit)")
    cmd.add_argument("--memory-budget", type=int, default=None, metavar="MB",
                     help="megabytes all the strategies may hold together; over it, the one holding the most is "
                          "stopped and forfeits (default: half the memory free, at least 100 MB a strategy; "
                          "0: no budget)")
    cmd.add_argument("--max-timeouts", type=int, default=5,
                     help="timed-out games before an entry is withdrawn (default 5; 0: never)")
    cmd.add_argument("--out", default=DEFAULT_OUT, help=f"results folder (default {DEFAULT_OUT})")
    cmd.add_argument("--resume", action="store_true", help="carry on an interrupted run in --out")
    cmd.add_argument("--overwrite", action="store_true", help="replace an earlier tournament in --out")
    cmd.add_argument("--bot-records", action="store_true", help="keep records of bot-only games too (slower)")
    cmd.add_argument("--plots", action="store_true", help="also save the plots as PNG files in --out/plots")
    cmd.add_argument("--check", action="store_true", help="only check the submissions and print the verdicts")
    cmd.add_argument("--processes", type=int, default=None, help="helper processes (default: one per core, up to 4)")
    cmd.add_argument("--exploitability-cards", type=int, default=None, metavar="N",
                     help="compute exploitability up to N cards (default: as far as each entry allows - "
                          "deterministic bots 7, random bots 6, bots with memory 5, files 4; 0: never)")
    cmd.add_argument("--quiet", action="store_true", help="no progress bar")
    cmd.set_defaults(func=run_tournament)


def run_tournament(args: argparse.Namespace) -> int:
    """Build the tournament from ``args``, run it, print the tables; return the exit status."""
    from .tournament import Tournament

    _check_numbers(args)
    rules = _rules(args)
    tournament = Tournament(rules, _entries(args, rules), games=args.games, seed=args.seed, limits=_limits(args),
                            seatings=args.seatings, bot_records=args.bot_records, processes=args.processes,
                            exploitability=_exploitability(args.exploitability_cards),
                            memory_budget=_memory_budget(args.memory_budget))
    if tournament.isolation in ("bubblewrap", "fence"):
        from .sandbox import isolation_report

        print(f"Isolation: {isolation_report()}")
    if args.check:
        checks = tournament.check()
        for check in checks:
            print(check)
        return 0 if all(c.ok for c in checks) else 1
    out = pathlib.Path(args.out)
    if args.overwrite and not args.resume:
        _clear(out)
    results = tournament.run(out=out, resume=args.resume, progress=not args.quiet)
    labels = results.labels()
    _report(results, labels)
    if args.plots:
        print(f"Plots: {_save_plots(results, out / 'plots', labels)}")
    print(f"Seed: {results.seed} (replay this run with --seed {results.seed})")
    print(f"Saved in {out}/: results.json (every game), games.csv, ranking.csv")
    return 0


def _check_numbers(args) -> None:
    """The numbers the command takes, refused with the flag's name and what it takes."""
    for flag, value, low, what in (("--games", args.games, 1, "games per seating, 1 or more"),
                                   ("--max-timeouts", args.max_timeouts, 0, "timed-out games, 0 or more (0: never "
                                                                            "withdraw an entry)"),
                                   ("--processes", args.processes, 1, "helper processes, 1 or more")):
        if value is not None and value < low:
            raise OptionError(f"{flag} takes a whole number of {what}, not {value}")
    if not args.time_limit > 0:
        raise OptionError(f"--time-limit takes seconds per move, more than 0 (e.g. 0.5), not {args.time_limit:g}")
    if args.memory_limit and not args.memory_limit >= 64:
        raise OptionError(f"--memory-limit takes megabytes per strategy, 64 or more (0: no limit), "
                          f"not {args.memory_limit}")
    if args.memory_budget is not None and args.memory_budget != 0 and not args.memory_budget >= 64:
        raise OptionError(f"--memory-budget takes megabytes for all the strategies together, 64 or more "
                          f"(0: no budget), not {args.memory_budget}")


def _memory_budget(megabytes):
    """``--memory-budget``: None (the flag not given) is the automatic budget, 0 none."""
    if megabytes is None:
        return "auto"
    return megabytes * 2**20 if megabytes else None


def _rules(args):
    from ..games import make_rules, rules_class
    from ..games.wording import game_title

    options, given = {}, {}
    for text in args.option:
        name, sep, value = text.partition("=")
        name = name.strip().replace("-", "_")
        if not sep or not name:
            raise OptionError(f"--option takes NAME=VALUE, such as --option target=92, not {text!r}")
        options[name], given[name] = _value(value.strip()), f"--option {name}"
    named = {"num_cards": args.cards, "players": args.players, "ties": args.ties, "prize_order": args.prize_order}
    for flag in ("ace_high", "blind", "hidden_bids", "face_down_trophies"):
        if getattr(args, flag):
            named[flag] = True
    for name, value in named.items():
        if value is not None:
            options[name], given[name] = value, FLAGS[name]
    known = rules_class(args.game).option_names()  # an unknown game is refused here, with the games there are
    unknown = [given[name] for name in options if name not in known]
    if unknown:
        raise OptionError(f"{game_title(args.game)} takes no {' or '.join(unknown)}; its options: "
                          f"{game_options(args.game)}")
    try:
        return make_rules(args.game, **options)
    except OptionError as exc:  # the game names its options as Python does: say the flag the teacher typed
        raise OptionError(in_flags(str(exc), given)) from None


def in_flags(message: str, flags: dict) -> str:
    """An engine message with each "option NAME" it names said as the flag a command takes for it (``flags``:
    option name to flag); a name without a flag is left as it is.

    >>> in_flags("option num_cards must be a whole number from 1 to 13, not 20", {"num_cards": "--cards"})
    '--cards must be a whole number from 1 to 13, not 20'
    """
    return re.sub(r"\boption (\w+)", lambda m: flags.get(m.group(1), m.group(0)), message)


def game_options(game: str) -> str:
    """The options of ``game`` as this command takes them: its flags, then any other with ``--option``.

    >>> game_options("raj")
    '--players, --prize-order, and --option NAME=VALUE for carry_decides, rounds'
    >>> game_options("gops-for-three")
    '--option NAME=VALUE for aces_pair, bottom_joker, deals, target, max_deals'
    """
    from ..games import rules_class

    names = rules_class(game).option_names()
    flags = [FLAGS[name] for name in FLAGS if name in names]
    others = [name for name in names if name not in FLAGS]
    rest = f"--option NAME=VALUE for {', '.join(others)}" if others else ""
    return ", ".join(flags) + (", and " if flags and rest else "") + rest


def _value(text: str):
    lowered = text.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    if lowered in ("none", "null"):
        return None
    try:
        return int(text)
    except ValueError:
        return text


def _exploitability(cards: int | None) -> bool | int:
    if cards is None:
        return True
    if cards < 0:
        raise OptionError(f"--exploitability-cards takes a number of cards, 0 or more, not {cards}")
    return cards or False


def bot_names(text: str | None, folder) -> list[str]:
    """The bots ``--bots`` asks for: the standard ones by default when a folder is given, none with ``none``."""
    if text is None:
        return list(DEFAULT_BOTS) if folder else []
    if text.strip().lower() == "none":
        return []
    return [name.strip() for name in text.split(",") if name.strip()]


def _entries(args, rules) -> list:
    from ..agents import agent_names
    from ..games.wording import game_title
    from .entries import bot_entry, entries_from_folder

    bots = bot_names(args.bots, args.folder)
    playing = agent_names(rules)
    every = agent_names()
    unknown = [name for name in bots if name not in every]
    wrong = [name for name in bots if name in every and name not in playing]
    title = game_title(rules.name)
    if unknown:
        raise OptionError(f"unknown bot {unknown[0]!r} in --bots; the bots that play {title} with these options: "
                          f"{', '.join(playing)}")
    if wrong and args.bots is None:
        raise OptionError(f"the standard bots include {wrong[0]!r}, which does not play {title}; choose bots with "
                          f"--bots (those that play it with these options: {', '.join(playing)}) or --bots none")
    if wrong:
        raise OptionError(f"--bots: {wrong[0]!r} does not play {title} with these options; the bots that do: "
                          f"{', '.join(playing)}")
    entries = entries_from_folder(args.folder) if args.folder else []
    entries += [bot_entry(name) for name in bots]
    if not entries:
        raise OptionError("nothing to play: give a folder of strategy files and/or --bots")
    if len(entries) < rules.num_players:
        raise OptionError(f"{title} with these options seats {rules.num_players} players, so a tournament needs "
                          f"at least {rules.num_players} entries, not {len(entries)}: add strategy files or --bots")
    return entries


def _limits(args):
    from .sandbox import Limits

    return Limits(time_limit=args.time_limit, memory_limit=args.memory_limit * 2**20 if args.memory_limit else None,
                  max_timeouts=args.max_timeouts or None)


def _clear(out: pathlib.Path) -> None:
    for name in _OUR_FILES:
        path = out / name
        if path.is_dir():
            shutil.rmtree(path)
        elif path.exists():
            path.unlink()


def _report(results, labels: dict) -> None:
    """Everything the command prints after the games, entries named by ``labels`` (:meth:`ResultSet.labels`)."""
    checks = [(e["name"], e.get("check")) for e in results.entries if e.get("check")]
    if checks:
        print("Submission checks:")
        for name, check in checks:
            print(f"  {'OK  ' if check['ok'] else 'FAIL'} {name}: {check['message']}")
        print()
    table = results.ranking_text(labels)
    print(table)
    bots = [f"{labels[e['name']]} = {e['name']}" for e in results.entries if labels[e["name"]] != e["name"]]
    if bots:
        width = len(table.splitlines()[0])
        print("\n" + textwrap.fill("Bots by the names --bots and the saved files use: " + ", ".join(bots), width=width,
                                  break_on_hyphens=False))
    neighbours = results.neighbours(labels=labels)
    if neighbours:
        print("\nEach entry against the next one down, head to head (the ranking is over the whole field, "
              "so an entry can rank above a neighbour it loses to):")
        for sentence in neighbours:
            print(f"  {sentence}")
    forfeits = results.forfeits()
    if forfeits:
        print("\nForfeits (the forfeiting entry scores 0, the others the whole hand):")
        for row in forfeits:
            print(f"  {labels.get(row['entry'], row['entry'])}: {row['count']} x {row['reason']} - {row['example']}")
    printed = [(e["name"], e["output"]) for e in results.entries if e.get("output")]
    if printed:
        print("\nPrinted output (kept in results.json):")
        for name, text in printed:
            first = text.strip().splitlines()[0] if text.strip() else ""
            print(f"  {labels.get(name, name)}: {counted(len(text), 'character')}, starting {first[:60]!r}")
    print("\nHow each entry plays:")
    for name, sentence in results.play_summary().items():
        print(f"  {labels.get(name, name)}: {sentence}")


def _save_plots(results, folder: pathlib.Path, labels: dict | None = None) -> pathlib.Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from ..viz.tournament import SCREEN_DPI, plot_bidding_profiles, plot_distributions, plot_head_to_head

    folder.mkdir(parents=True, exist_ok=True)
    for name, plot in (("head_to_head", plot_head_to_head), ("distributions", plot_distributions),
                       ("bidding", plot_bidding_profiles)):
        figure = plot(results, labels=labels)
        figure.savefig(folder / f"{name}.png", dpi=SCREEN_DPI, bbox_inches="tight")  # as the app shows them
        plt.close(figure)
    return folder


__all__ = ["DEFAULT_BOTS", "DEFAULT_OUT", "FLAGS", "bot_names", "game_options", "in_flags", "register", "run_tournament"]
