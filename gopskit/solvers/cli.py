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
import os
import resource
import shutil
import sys
from pathlib import Path

from ..errors import GopsError
from ._small_layers import layer_value_counts

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


class SolveTooBigError(GopsError):
    """A solve that cannot fit in this machine's memory or on its disk (refused before any work)."""


def solve_needs(num_cards: int, objective: str, ties: str, checkpoint: bool) -> tuple[int, int]:
    """``(memory, disk)`` bytes a solve needs for its values.

    A checkpointed solve holds two layers at once and writes every layer to
    disk; otherwise every layer stays in memory (and the saved file is
    compressed, so smaller than the values). Measured peaks add about half
    a GiB of tables and interpreter: 13 cards "points" 2.16 GiB against
    1.71 GiB of values here, 11 cards "win" 4.1 against 3.7.
    """
    counts = layer_value_counts(num_cards, objective, ties)
    if not checkpoint:
        return 8 * sum(counts), 0
    return 8 * max(counts[j] + counts[j - 1] for j in range(1, len(counts))), 8 * sum(counts)


def _fits_memory(need: int, memory: int) -> bool:
    """The values plus half a GiB of tables and interpreter, within 90 % of the memory (the rest for the system)."""
    return need + 2**29 <= 0.9 * memory


def _gib(n: float) -> str:
    return f"{n / 2**40:,.1f} TiB" if n >= 2**40 else f"{n / 2**30:,.1f} GiB"


def check_fits(options: tuple, checkpoint: Path | None, memory: int | None = None, disk: int | None = None) -> None:
    """Refuse (:class:`SolveTooBigError`) a solve that cannot fit this machine, saying what would.

    ``memory`` is the physical memory and ``disk`` the free space where the
    layer folder goes (default: this machine's, measured now); a folder
    already holding finished layers needs only the rest.
    """
    need_memory, need_disk = solve_needs(*options, checkpoint is not None)
    memory = _physical_memory() if memory is None else memory
    if checkpoint is not None and disk is None:
        existing = sum(f.stat().st_size for f in Path(checkpoint).glob("*")) if Path(checkpoint).is_dir() else 0
        disk = shutil.disk_usage(_existing_parent(Path(checkpoint))).free + existing
    short = []
    if not _fits_memory(need_memory, memory):
        short.append(f"{_gib(need_memory)} of memory at once for its values (this machine has {_gib(memory)})")
    if checkpoint is not None and need_disk > disk:
        short.append(f"{_gib(need_disk)} on disk ({_gib(disk)} free for {checkpoint})")
    if not short:
        return
    num_cards, objective, ties = options

    def fits(n: int) -> bool:
        memory_n, disk_n = solve_needs(n, objective, ties, checkpoint is not None)
        return _fits_memory(memory_n, memory) and (checkpoint is None or disk_n <= disk)

    fitting = next((n for n in range(num_cards - 1, 0, -1) if fits(n)), None)
    advice = (f"the largest deck that fits here under these options is {fitting} cards"
              if fitting else "no deck fits here under these options")
    raise SolveTooBigError(f"{num_cards} cards, objective={objective}, ties={ties} needs " + " and ".join(short)
                           + f"; {advice} (13 cards, points, ties discard needs 1.7 GiB of memory and 2.5 GiB on disk)")


def _physical_memory() -> int:
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")  # no import: this runs before small solves
    except (AttributeError, ValueError, OSError):  # pragma: no cover - a system without sysconf
        import psutil

        return int(psutil.virtual_memory().total)


def _existing_parent(path: Path) -> Path:
    while not path.exists() and path != path.parent:
        path = path.parent
    return path


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
    check_fits(options, Path(checkpoint) if checkpoint is not None else None)
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
