"""``gopskit tournament``: a class tournament from the command line.

    gopskit tournament submissions/ --games 100 --cards 13

plays every strategy file of ``submissions/`` and the standard bots
(:data:`DEFAULT_BOTS`; choose others with ``--bots``, none with
``--bots none``) against each other, prints the submission checks, the ranking, the forfeits and how
each entry bids, and saves everything in ``--out`` (``tournament-results``).
An interrupted run carries on with ``--resume``. Bad options exit with
status 2 and one line on stderr.
"""

from __future__ import annotations

import argparse
import pathlib
import shutil

from ..errors import OptionError

DEFAULT_OUT = "tournament-results"
DEFAULT_BOTS = ("random", "match-prize", "one-higher", "greedy-high")
_OUR_FILES = ("tournament.json", "results.json", "games.csv", "ranking.csv", "tables", "plots")


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
    cmd.add_argument("--memory-limit", type=int, default=512, help="megabytes per strategy (default 512)")
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

    rules = _rules(args)
    tournament = Tournament(rules, _entries(args), games=args.games, seed=args.seed, limits=_limits(args),
                            seatings=args.seatings, bot_records=args.bot_records, processes=args.processes,
                            exploitability=_exploitability(args.exploitability_cards))
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
    _report(results)
    if args.plots:
        print(f"Plots: {_save_plots(results, out / 'plots')}")
    print(f"Seed: {results.seed} (replay this run with --seed {results.seed})")
    print(f"Saved in {out}/: results.json (every game), games.csv, ranking.csv")
    return 0


def _rules(args):
    from ..games import make_rules

    options = {}
    for text in args.option:
        name, sep, value = text.partition("=")
        if not sep:
            raise OptionError(f"--option takes NAME=VALUE, not {text!r}")
        options[name.strip().replace("-", "_")] = _value(value.strip())
    named = {"num_cards": args.cards, "players": args.players, "ties": args.ties, "prize_order": args.prize_order}
    options.update({k: v for k, v in named.items() if v is not None})
    for flag in ("ace_high", "blind", "hidden_bids", "face_down_trophies"):
        if getattr(args, flag):
            options[flag] = True
    return make_rules(args.game, **options)


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


def _entries(args) -> list:
    from .entries import bot_entry, entries_from_folder

    entries = entries_from_folder(args.folder) if args.folder else []
    entries += [bot_entry(name) for name in bot_names(args.bots, args.folder)]
    if not entries:
        raise OptionError("nothing to play: give a folder of strategy files and/or --bots")
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


def _report(results) -> None:
    checks = [(e["name"], e.get("check")) for e in results.entries if e.get("check")]
    if checks:
        print("Submission checks:")
        for name, check in checks:
            print(f"  {'OK  ' if check['ok'] else 'FAIL'} {name}: {check['message']}")
        print()
    print(results.ranking_text())
    neighbours = results.neighbours()
    if neighbours:
        print("\nEach entry against the next one down, head to head (the ranking is over the whole field, "
              "so an entry can rank above a neighbour it loses to):")
        for sentence in neighbours:
            print(f"  {sentence}")
    forfeits = results.forfeits()
    if forfeits:
        print("\nForfeits (the forfeiting entry scores 0, the others the whole hand):")
        for row in forfeits:
            print(f"  {row['entry']}: {row['count']} x {row['reason']} - {row['example']}")
    printed = [(e["name"], e["output"]) for e in results.entries if e.get("output")]
    if printed:
        print("\nPrinted output (kept in results.json):")
        for name, text in printed:
            first = text.strip().splitlines()[0] if text.strip() else ""
            print(f"  {name}: {len(text)} characters, starting {first[:60]!r}")
    print("\nHow each entry plays:")
    for name, sentence in results.play_summary().items():
        print(f"  {name}: {sentence}")


def _save_plots(results, folder: pathlib.Path) -> pathlib.Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from ..viz.tournament import SCREEN_DPI, plot_bidding_profiles, plot_distributions, plot_head_to_head

    folder.mkdir(parents=True, exist_ok=True)
    for name, plot in (("head_to_head", plot_head_to_head), ("distributions", plot_distributions),
                       ("bidding", plot_bidding_profiles)):
        figure = plot(results)
        figure.savefig(folder / f"{name}.png", dpi=SCREEN_DPI, bbox_inches="tight")  # as the app shows them
        plt.close(figure)
    return folder


__all__ = ["DEFAULT_BOTS", "DEFAULT_OUT", "bot_names", "register", "run_tournament"]
