"""How long a class tournament with student code takes (a figure, never pass/fail).

The issue's target: 30 student entries, 100 games per seating of each pair
(435 pairs x 2 seats x 100 = 87,000 games), 13 cards, in under 5 minutes.
The entries are simple strategy files (six copies each of five styles), so
the figure measures the tournament machinery: sandboxes, batching, the engine.

    .venv/bin/python benchmarks/bench_tournament.py            # the full target
    .venv/bin/python benchmarks/bench_tournament.py --entries 10 --games 20 --hostile

``--hostile`` adds the broken entries of ``tests/data/students`` (they raise,
sleep, exit, bid 99, ...), to see what a class with broken code costs, and,
under bubblewrap only, the attacks of ``tests/data/hostile`` (escapes, bombs;
never run those with the fence alone). ``benchmarks/bench_sandbox.py``
reports the attacks one by one.

Measured on the development machine (2 cores shared with other jobs):

    30 student entries, 100 games per seating, 13 cards: 87000 games (0 forfeited)
    in 127.0 s wall (685 games/s), 160.4 s CPU over all processes;
    2 helper process(es), 2 cores, load average 6.1 before / 7.8 after

An earlier run under a heavier load (8.7) took 254 s wall, 199 s CPU. On an
idle two-core machine the wall time is about half the CPU time.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import platform
import resource
import tempfile
import time

from gopskit.arena.sandbox import isolation, isolation_report
from gopskit.arena.tournament import Tournament
from gopskit.games.goofspiel import Goofspiel

STYLES = {
    "copycat": "def strategy(observation):\n    return observation.prize\n",
    "one_higher": (
        "def strategy(observation):\n"
        "    higher = [c for c in observation.hand if c > observation.prize]\n"
        "    return min(higher) if higher else min(observation.hand)\n"
    ),
    "lucky": "import random\n\ndef strategy(observation):\n    return random.choice(observation.legal_moves)\n",
    "big_spender": "def strategy(observation):\n    return max(observation.hand)\n",
    "counter": (
        "class Strategy:\n"
        "    def reset(self):\n"
        "        self.turns = 0\n"
        "    def strategy(self, observation):\n"
        "        self.turns += 1\n"
        "        hand = observation.hand\n"
        "        return hand[min(len(hand) - 1, observation.prize * len(hand) // 14)]\n"
    ),
}


HOSTILE = pathlib.Path(__file__).parents[1] / "tests" / "data" / "students"
ATTACKS = pathlib.Path(__file__).parents[1] / "tests" / "data" / "hostile"
GOOD_TEST_FILES = {"copycat.py", "one_higher.py", "remembers.py", "lucky.py"}


def write_class(folder: pathlib.Path, entries: int, hostile: bool = False) -> None:
    styles = list(STYLES.items())
    for k in range(entries):
        name, code = styles[k % len(styles)]
        (folder / f"{name}_{k:02d}.py").write_text(code, encoding="utf-8")
    if hostile:
        for path in sorted(HOSTILE.glob("*.py")):
            if path.name not in GOOD_TEST_FILES:
                (folder / f"broken_{path.name}").write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
        if isolation() == "bubblewrap":
            for path in sorted(ATTACKS.glob("*.py")):
                (folder / path.name).write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
        else:
            print("The attacks of tests/data/hostile are left out: no bubblewrap here, and the fence alone "
                  "would let them loose on this machine.")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--entries", type=int, default=30)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--cards", type=int, default=13)
    parser.add_argument("--processes", type=int, default=None, help="helper processes (default: one per core, up to 4)")
    parser.add_argument("--hostile", action="store_true", help="add the broken entries of tests/data/students")
    args = parser.parse_args()
    print(f"Isolation: {isolation_report()}")
    with tempfile.TemporaryDirectory() as tmp:
        folder = pathlib.Path(tmp) / "class"
        folder.mkdir()
        write_class(folder, args.entries, args.hostile)
        tournament = Tournament.from_folder(folder, Goofspiel(num_cards=args.cards), games=args.games, seed=1,
                                            processes=args.processes, exploitability=False)
        load_before, cpu_before = os.getloadavg()[0], _cpu_seconds()
        start = time.perf_counter()
        results = tournament.run(out=pathlib.Path(tmp) / "out", progress=False)
        elapsed = time.perf_counter() - start
        cpu = _cpu_seconds() - cpu_before
    games = len(results.games)
    forfeits = sum(bool(g["forfeits"]) for g in results.games)
    print(f"{len(tournament.entries)} student entries, {args.games} games per seating, {args.cards} cards: "
          f"{games} games ({forfeits} forfeited) in {elapsed:.1f} s wall "
          f"({games / elapsed:.0f} games/s), {cpu:.1f} s CPU over all processes; "
          f"{tournament.processes} helper process(es), {os.cpu_count()} cores, "
          f"load average {load_before:.1f} before / {os.getloadavg()[0]:.1f} after; "
          f"Python {platform.python_version()}, {platform.machine()}")


def _cpu_seconds() -> float:
    """CPU time of this process and every finished child (helpers, sandboxes)."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


if __name__ == "__main__":
    main()
