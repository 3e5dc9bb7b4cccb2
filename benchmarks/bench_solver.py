"""Benchmark of the exact two-player Goofspiel solver: figures, never a pass/fail test.

Each (cards, objective, ties) is solved in a fresh child process, so its peak
memory is its own: the process's peak resident set (``ru_maxrss``, which
includes Python, numpy and numba, about 150-200 MiB before any solve) and
the solve's own peak allocations (``tracemalloc``, which sees numpy arrays).
Compilation is done (or read from numba's cache) before the clock starts, by
a 3-card solve.

Printed per row: positions stored, turn games solved (and how many had a pure
saddle point), wall-clock seconds, CPU seconds of all threads (on a machine
shared with other work, wall time exceeds CPU time / threads), peak memory,
and the wall-clock ratio to the figures of the best
public exact solver we know (C++ with GLPK) measured on this kind of machine:
8 cards "points" about 7 s, 8 cards "win" about 64 s, 9 cards "win" about
10 minutes.

    python benchmarks/bench_solver.py                 # the default table
    python benchmarks/bench_solver.py --points 10 --win 8 --carry 0 --threads 2
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
import tracemalloc

PEER_SECONDS = {(8, "points", "discard"): 7.0, (8, "win", "discard"): 64.0, (9, "win", "discard"): 600.0}


def _cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def solve_one(cards: int, objective: str, ties: str, threads: int) -> dict:
    """Solve once (after a warm-up) and return the figures."""
    from gopskit.solvers import solve_goofspiel

    solve_goofspiel(3, objective, ties, threads=threads)  # compile, or load numba's cache
    tracemalloc.start()
    cpu_before = _cpu_seconds()
    started = time.perf_counter()
    solution = solve_goofspiel(cards, objective, ties, threads=threads)
    seconds = time.perf_counter() - started
    cpu = _cpu_seconds() - cpu_before
    _current, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    stats = solution.stats
    return {"cards": cards, "objective": objective, "ties": ties, "positions": stats.positions,
            "games": stats.games, "pure": stats.pure, "failed": stats.failed, "seconds": seconds,
            "solve_seconds": stats.seconds, "cpu_seconds": cpu, "traced_mib": peak / 2**20,
            "rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
            "game_value": solution.game_value}


def run_child(cards, objective, ties, threads) -> dict:
    cmd = [sys.executable, __file__, "--one", str(cards), objective, ties, "--threads", str(threads)]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def print_row(r: dict) -> None:
    peer = PEER_SECONDS.get((r["cards"], r["objective"], r["ties"]))
    ratio = f"{peer / r['seconds']:8.0f}x faster" if peer else ""
    print(f"{r['cards']:>5} {r['objective']:>7} {r['ties']:>8} {r['positions']:>12,} {r['games']:>13,} "
          f"{r['pure'] / max(r['games'], 1):>6.0%} {r['seconds']:>9.3f} {r['cpu_seconds']:>8.2f} {r['rss_mib']:>9.0f} "
          f"{r['traced_mib']:>10.1f}  {ratio}", flush=True)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--points", type=int, default=10, help="largest deck for points/discard (default 10)")
    parser.add_argument("--win", type=int, default=9, help="largest deck for win/discard (default 9)")
    parser.add_argument("--carry", type=int, default=8, help="largest deck for points/carry (default 8)")
    parser.add_argument("--win-carry", type=int, default=7, help="largest deck for win/carry (default 7)")
    parser.add_argument("--threads", type=int, default=2, help="compiled solver threads (default 2)")
    parser.add_argument("--one", nargs=3, metavar=("CARDS", "OBJECTIVE", "TIES"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.one:
        print(json.dumps(solve_one(int(args.one[0]), args.one[1], args.one[2], args.threads)))
        return 0
    print(f"Exact two-player Goofspiel, {args.threads} threads, {os.cpu_count()} cores, Python {sys.version.split()[0]}")
    print(f"{'cards':>5} {'obj':>7} {'ties':>8} {'positions':>12} {'turn games':>13} {'pure':>6} "
          f"{'seconds':>9} {'CPU s':>8} {'RSS MiB':>9} {'alloc MiB':>10}  vs C++/GLPK")
    plan = [(n, "points", "discard") for n in range(2, args.points + 1)]
    plan += [(n, "win", "discard") for n in range(2, args.win + 1)]
    plan += [(n, "points", "carry") for n in range(2, args.carry + 1)]
    plan += [(n, "win", "carry") for n in range(2, args.win_carry + 1)]
    for cards, objective, ties in plan:
        print_row(run_child(cards, objective, ties, args.threads))
    return 0


if __name__ == "__main__":
    sys.exit(main())
