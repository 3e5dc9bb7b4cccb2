"""Benchmark of the exact two-player Goofspiel solver: figures, never a pass/fail test.

Each solve runs in a fresh child process, so its peak memory is its own
(``ru_maxrss``: the whole process, Python, numpy and numba included, about
150-200 MiB before any solve). Nothing else is measured inside the timed
region: no tracemalloc, no profiler. Compilation is done (or read from
numba's cache) before the clock starts, by a 3-card solve.

Printed per row: turn games solved and how (share settled by a pure saddle,
by a neighbour's support ("guess"), by the compiled simplex, and the count
sent to the certifying fallbacks), solve seconds, CPU seconds of all threads,
microseconds per turn game, peak memory and threads; then, for the decks
given with ``--scaling``, the speed-up of two threads over one (the same
solve run back to back). Where we have the peer's figure, the ratio to the
best public exact solver we know (GOPSsolver, C++ with GLPK) measured on
this kind of machine: 8 cards "points" about 7 s, 8 cards "win" about 64 s,
9 cards "win" about 10 minutes.

Large decks are solved with a checkpoint folder (``--checkpoint-dir``), so a
13-card run cut off resumes where it stopped when run again; its time is
then the sum over the runs (``seconds`` in the solve statistics).

    python benchmarks/bench_solver.py                         # points, 6..10 cards; scaling at 10
    python benchmarks/bench_solver.py --cards 6-13 --scaling 11
    python benchmarks/bench_solver.py --objective win --cards 6-10
    python benchmarks/bench_solver.py --cold                  # whole 'gopskit solve' processes vs the peer
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PEER_SECONDS = {(8, "points", "discard"): 7.0, (8, "win", "discard"): 64.0, (9, "win", "discard"): 600.0}
CHECKPOINT_FROM = 11


def _cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def solve_one(cards: int, objective: str, ties: str, threads: int, checkpoint: str | None) -> dict:
    """Solve once (after a warm-up) and return the figures."""
    from gopskit.solvers import solve_goofspiel

    solve_goofspiel(3, objective, ties, threads=threads)  # compile, or load numba's cache
    cpu_before = _cpu_seconds()
    started = time.perf_counter()
    solution = solve_goofspiel(cards, objective, ties, threads=threads, checkpoint=checkpoint)
    seconds = time.perf_counter() - started
    cpu = _cpu_seconds() - cpu_before
    stats = solution.stats
    return {"cards": cards, "objective": objective, "ties": ties, "threads": threads, "positions": stats.positions,
            "games": stats.games, "pure": stats.pure, "simplex": stats.simplex, "support": stats.support,
            "highs": stats.highs,
            "exact": stats.exact, "failed": stats.failed, "seconds": seconds, "solve_seconds": stats.seconds,
            "resumed_from": stats.resumed_from, "cpu_seconds": cpu,
            "rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}


def run_child(cards, objective, ties, threads, checkpoint=None) -> dict:
    cmd = [sys.executable, __file__, "--one", str(cards), objective, ties, "--threads", str(threads)]
    if checkpoint:
        cmd += ["--checkpoint-dir", str(checkpoint)]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


HEADER = (f"{'cards':>5} {'obj':>6} {'ties':>7} {'turn games':>14} {'pure':>5} {'guess':>5} {'simplex':>7} "
          f"{'fallback':>8} {'seconds':>9} "
          f"{'CPU s':>8} {'us/game':>8} {'peak MiB':>9} {'threads':>7}  vs GOPSsolver")


def print_row(r: dict) -> None:
    peer = PEER_SECONDS.get((r["cards"], r["objective"], r["ties"]))
    seconds = r["solve_seconds"] if r["resumed_from"] else r["seconds"]
    ratio = f"{peer / seconds:6.0f}x faster" if peer else ""
    per_game = 1e6 * seconds * r["threads"] / max(r["games"], 1)
    note = f"  (resumed at layer {r['resumed_from']}: solve time over all runs)" if r["resumed_from"] else ""
    games = max(r["games"], 1)
    print(f"{r['cards']:>5} {r['objective']:>6} {r['ties']:>7} {r['games']:>14,} {r['pure'] / games:>5.0%} "
          f"{r['support'] / games:>5.0%} {(r['simplex'] - r['support']) / games:>7.0%} "
          f"{r['highs'] + r['exact'] + r['failed']:>8,} {seconds:>9.2f} {r['cpu_seconds']:>8.1f} {per_game:>8.2f} "
          f"{r['rss_mib']:>9.0f} {r['threads']:>7}  {ratio}{note}", flush=True)


def cold_starts(cards_list) -> None:
    """Whole ``gopskit solve`` processes, start to exit, as a user runs them."""
    print("\nWhole 'gopskit solve --cards N --quiet' processes (start-up included), best of 3:")
    for cards in cards_list:
        best = float("inf")
        for _ in range(3):
            with tempfile.TemporaryDirectory() as tmp:
                started = time.perf_counter()
                subprocess.run([sys.executable, "-m", "gopskit.cli", "solve", "--cards", str(cards), "--quiet",
                                "--out", str(Path(tmp) / "s.npz")], check=True, capture_output=True)
                best = min(best, time.perf_counter() - started)
        peer = PEER_SECONDS.get((cards, "points", "discard"))
        ratio = f"  {best / peer:.2f} of GOPSsolver's {peer:g} s" if peer else ""
        print(f"  {cards:>2} cards: {best:6.2f} s{ratio}", flush=True)


def _deck_range(text: str) -> list[int]:
    low, _, high = text.partition("-")
    return list(range(int(low), int(high or low) + 1))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", default="6-10", help="decks to solve, e.g. 6-13 (default 6-10)")
    parser.add_argument("--objective", default="points", choices=("points", "win"))
    parser.add_argument("--ties", default="discard", choices=("discard", "carry"))
    parser.add_argument("--threads", type=int, default=2, help="compiled solver threads (default 2)")
    parser.add_argument("--scaling", type=int, default=None, help="deck to solve with 1 and with 2 threads (default: the largest up to 11)")
    parser.add_argument("--checkpoint-dir", default=None, help="folder for the layer checkpoints of decks of 11+ cards")
    parser.add_argument("--cold", action="store_true", help="only time whole 'gopskit solve' processes for 6 and 8 cards")
    parser.add_argument("--one", nargs=3, metavar=("CARDS", "OBJECTIVE", "TIES"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.one:
        print(json.dumps(solve_one(int(args.one[0]), args.one[1], args.one[2], args.threads, args.checkpoint_dir)))
        return 0
    if args.cold:
        cold_starts([6, 8])
        return 0
    decks = _deck_range(args.cards)
    print(f"Exact two-player Goofspiel, {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}, "
          f"Python {sys.version.split()[0]}")
    print(HEADER)
    base = Path(args.checkpoint_dir or tempfile.mkdtemp(prefix="gopskit-bench-"))
    for cards in decks:
        folder = base / f"{cards}-{args.objective}-{args.ties}" if cards >= CHECKPOINT_FROM else None
        print_row(run_child(cards, args.objective, args.ties, args.threads, folder))
    scaling = args.scaling or max((n for n in decks if n <= 11), default=None)
    if scaling:
        one = run_child(scaling, args.objective, args.ties, 1)
        two = run_child(scaling, args.objective, args.ties, 2)
        print(f"\nTwo threads against one at {scaling} cards: {one['seconds']:.2f} s -> {two['seconds']:.2f} s, "
              f"speed-up {one['seconds'] / two['seconds']:.2f}x (load average {os.getloadavg()[0]:.1f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
