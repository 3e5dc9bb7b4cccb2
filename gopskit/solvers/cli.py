"""The ``gopskit solve`` subcommand: solve two-player Goofspiel exactly and save it.

``gopskit solve --cards 8 --objective points --ties discard --out gops8.npz``
solves with a progress bar, prints what the solve did and an optimal first
bid, and writes the solution (load it with
:func:`gopskit.solvers.storage.load_solution`). Without ``--out`` the
solution goes to the user cache, where the equilibrium bot finds it.

Start-up matters here: up to 8 cards ("points") the whole command takes
less time than loading numba, so nothing on this path imports numba, scipy
or tqdm unless it is needed (the deck is big, ``--threads`` or
``--checkpoint`` asks for the compiled engine, or a bar is shown); see
:mod:`._small` and ``benchmarks/bench_cold_start.py``.
"""

from __future__ import annotations

import argparse
import resource
import sys
from pathlib import Path

CHECKPOINT_FROM = 11  # decks this big are solved into a layer folder (minutes, gigabytes)


def register(subparsers) -> None:
    """Add ``solve`` to the ``gopskit`` command's subparsers."""
    solve = subparsers.add_parser(
        "solve", help="solve two-player Goofspiel exactly and save the solution",
        description="Solve two-player Goofspiel exactly (backward induction, a matrix game per turn).",
    )
    solve.add_argument("--cards", type=int, default=8, help="cards per player, 1-13 (default 8; 10 takes seconds)")
    solve.add_argument("--objective", default="points", help="points (expected point difference) or win (default points)")
    solve.add_argument("--ties", default="discard", help="tie rule: discard or carry (default discard)")
    solve.add_argument("--out", default=None, help="file to write (.npz); default: the user cache folder")
    solve.add_argument("--checkpoint", default=None, metavar="FOLDER",
                       help="write each finished layer to FOLDER and resume from it if cut off "
                            f"(default for {CHECKPOINT_FROM} cards and more: a folder in the user cache)")
    solve.add_argument("--threads", type=int, default=None, help="threads for the compiled solver (default: all cores)")
    solve.add_argument("--quiet", action="store_true", help="no progress bar")
    solve.set_defaults(func=run_solve)


def _peak_memory_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _opening_line(solution) -> str:
    n = solution.num_cards
    full = range(1, n + 1)
    policy = solution.policy(full, full, full, prize=n)
    bids = ", ".join(f"{card}: {p:.3f}" for card, p in policy.items() if p > 0)
    return f"Optimal first bid when the {n} is turned: {bids}"


def run_solve(args: argparse.Namespace) -> int:
    """Solve, report and save; return the exit code."""
    from .exact import check_options, solve_goofspiel  # numpy; numba only for a deck too big for ._small
    from .storage import SolutionFileError, cache_dir, layer_folder_name, save_solution, solution_filename

    check_options(args.cards, args.objective, args.ties)
    if args.threads is not None and args.threads < 1:
        raise SolutionFileError(f"--threads must be at least 1, not {args.threads}")
    options = (args.cards, args.objective, args.ties)
    checkpoint = args.checkpoint
    if checkpoint is None and args.cards >= CHECKPOINT_FROM and not args.out:
        checkpoint = cache_dir() / layer_folder_name(*options)
    out = Path(args.out) if args.out else (None if checkpoint else cache_dir() / solution_filename(*options))
    if args.out and not out.parent.is_dir():
        raise SolutionFileError(f"cannot write {out}: folder {out.parent} does not exist")
    solution = solve_goofspiel(*options, progress=not args.quiet, threads=args.threads, checkpoint=checkpoint)
    stats = solution.stats
    print(f"Solved {args.cards}-card Goofspiel, objective={args.objective}, ties={args.ties}")
    if stats.resumed_from:
        print(f"  resumed at hands of {stats.resumed_from} cards from {checkpoint}")
    print(f"  positions: {stats.positions:,}  turn games: {stats.games:,} ({stats.methods_line()})")
    if not stats.certified:
        print(f"gopskit: WARNING: {stats.failed:,} turn games could not be certified by any method; "
              "their values are the best estimates found and are marked in the saved file", file=sys.stderr)
    print(f"  seconds solving: {stats.seconds:.2f} (this run {stats.wall_seconds:.2f})  "
          f"peak memory: {_peak_memory_mib():.0f} MiB")
    print(f"  {_opening_line(solution)}")
    if checkpoint is not None:
        print(f"Solution folder: {checkpoint}")
    if out is not None:
        try:
            out.parent.mkdir(parents=True, exist_ok=True)
            save_solution(solution, out)
        except OSError as exc:
            raise SolutionFileError(f"cannot write {out}: {exc.strerror or exc}") from None
        print(f"Saved to {out}")
    sys.stdout.flush()
    return 0
