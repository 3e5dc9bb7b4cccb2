"""Cold start of ``gopskit solve``: whole processes, start to exit, as a user runs them.

Figures only, never a pass/fail test. For each deck, ``gopskit solve --cards N
--quiet`` runs in a fresh process (best of ``--repeat``, default 5) twice:
as a user runs it (small decks take the numba-free path of
``gopskit/solvers/_small.py``) and with ``--threads 1``, which asks for the
compiled engine (numba loaded from its cache), so the two paths can be
compared on the same machine at the same load. Then the import-only times:
Python alone, Python with numpy, and ``import gopskit.cli``. Where we have
the peer's figure, the ratio to GOPSsolver (C++ with GLPK, the best public
exact solver we know), measured on this kind of machine.

    python benchmarks/bench_cold_start.py                      # 2..9 cards, points, discard
    python benchmarks/bench_cold_start.py --cards 5-7 --objective win --ties carry
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_solver import PEER_SECONDS, _deck_range  # noqa: E402  (the peer's figures and deck ranges, kept in one place)

# GOPSsolver's whole run for 6 cards, "points" (the issue on gopskit solve's start-up; bench_solver.py
# keeps the solve figures from 8 cards up).
PEER_SECONDS_SMALL = {(6, "points", "discard"): 0.10}


def _gopskit_command() -> list[str]:
    """The ``gopskit`` script beside this Python (as a user types it), else ``python -m gopskit.cli``."""
    script = Path(sys.executable).with_name("gopskit")
    return [str(script)] if script.exists() else [sys.executable, "-m", "gopskit.cli"]


def best_of(command: list[str], repeat: int) -> float:
    """The shortest wall time of ``repeat`` runs of ``command`` (each must succeed)."""
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True)
        best = min(best, time.perf_counter() - started)
    return best


def solve_times(cards: int, objective: str, ties: str, repeat: int) -> tuple[float, float]:
    """``(as a user runs it, with the compiled engine)`` seconds for one deck."""
    with tempfile.TemporaryDirectory() as tmp:
        command = _gopskit_command() + ["solve", "--cards", str(cards), "--objective", objective, "--ties", ties,
                                        "--quiet", "--out", str(Path(tmp) / "s.npz")]
        return best_of(command, repeat), best_of(command + ["--threads", "1"], repeat)


def _peer(cards: int, objective: str, ties: str, seconds: float) -> str:
    peer = {**PEER_SECONDS, **PEER_SECONDS_SMALL}.get((cards, objective, ties))
    return f"{peer:>6g} s  {seconds / peer:5.2f}x" if peer else ""


def _path_taken(cards: int, objective: str, ties: str) -> str:
    from gopskit.solvers._small import small_enough, turn_games

    games = turn_games(cards, objective, ties)
    return f"{'numpy' if small_enough(cards, objective, ties) else 'compiled':>8} {games:>12,}"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", default="2-9", help="decks, e.g. 2-9 (default)")
    parser.add_argument("--objective", default="points", choices=("points", "win"))
    parser.add_argument("--ties", default="discard", choices=("discard", "carry"))
    parser.add_argument("--repeat", type=int, default=5, help="runs per figure, the best is printed (default 5)")
    args = parser.parse_args(argv)
    print(f"Whole 'gopskit solve --cards N --objective {args.objective} --ties {args.ties} --quiet' processes, "
          f"best of {args.repeat}; {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}")
    print(f"{'cards':>5} {'path':>8} {'turn games':>12} {'as run':>8} {'compiled':>9}   GOPSsolver  ratio")
    for cards in _deck_range(args.cards):
        plain, compiled = solve_times(cards, args.objective, args.ties, args.repeat)
        print(f"{cards:>5} {_path_taken(cards, args.objective, args.ties)} {plain:>7.2f}s {compiled:>8.2f}s   "
              f"{_peer(cards, args.objective, args.ties, plain)}", flush=True)
    print(f"\nImport only, best of {args.repeat}:")
    for label, code in [("python alone", "pass"), ("python + numpy", "import numpy"),
                        ("import gopskit.cli", "import gopskit.cli"),
                        ("import gopskit.solvers.exact", "import gopskit.solvers.exact")]:
        print(f"  {label:<30} {best_of([sys.executable, '-c', code], args.repeat):6.3f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
