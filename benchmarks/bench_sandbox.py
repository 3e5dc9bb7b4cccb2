"""The sandbox under attack: a tournament with every hostile entry, and what isolation costs.

    .venv/bin/python benchmarks/bench_sandbox.py            # hostile tournament + cost of isolation
    .venv/bin/python benchmarks/bench_sandbox.py --quick    # hostile tournament only

Prints:

1. which isolation this machine gives (bubblewrap, or the fence only);
2. a 4-card tournament of every file in ``tests/data/hostile/`` with four
   honest students and the random bot: forfeits by entry and reason, whether
   the honest games are identical to a run without the attackers, anything
   left on the host, and the wall time of both runs;
3. the cost of the boundary: starting a sandbox, and a 13-card honest class
   tournament, under bubblewrap and under the fence (the peer).
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import pathlib
import statistics
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data"
GOOD = ["copycat", "one_higher", "remembers", "lucky"]


def honest(results, keep):
    return sorted(json.dumps({k: v for k, v in g.items() if k != "table"}, sort_keys=True)
                  for g in results.games if set(g["seats"]) <= keep)


def left_on_host() -> list[str]:
    found = [str(p) for p in pathlib.Path("/tmp").glob("gopskit-entry-*")]
    found += [p for p in ("/tmp/gopskit-hostile-marker-fork-exec", "/tmp/gopskit-hostile-marker-system",
                          "/dev/shm/gopskit-hostile-shm") if os.path.exists(p)]
    return found


def hostile_tournament() -> None:
    from gopskit.arena.entries import bot_entry, entries_from_folder, student_entry
    from gopskit.arena.sandbox import Limits
    from gopskit.arena.tournament import Tournament
    from gopskit.games.goofspiel import Goofspiel

    limits = Limits(time_limit=0.5, load_time_limit=2, max_timeouts=2)
    good = [student_entry(DATA / "students" / f"{n}.py") for n in GOOD] + [bot_entry("random")]
    hostile = entries_from_folder(DATA / "hostile")
    before = left_on_host()

    def run(entries):
        start = time.perf_counter()
        results = Tournament(Goofspiel(num_cards=4), entries, games=2, seed=11, limits=limits, processes=1,
                             exploitability=False).run(progress=False)
        return results, time.perf_counter() - start

    attacked, attacked_time = run(hostile + good)
    clean, clean_time = run(good)
    print(f"\nTournament with {len(hostile)} hostile entries, {len(GOOD)} honest students and the random bot "
          f"(4 cards, 2 games a seating, limit 0.5 s a move): {len(attacked.games)} games")
    by_entry = collections.defaultdict(collections.Counter)
    for row in attacked.forfeits():
        by_entry[row["entry"]][row["reason"]] += row["count"]
    for name in attacked.names:
        if name in by_entry:
            reasons = ", ".join(f"{count} {reason}" for reason, count in sorted(by_entry[name].items()))
            print(f"  {name:30s} {reasons}")
        elif name in {e.name for e in hostile}:
            print(f"  {name:30s} no forfeit (plays; learns nothing)")
    totals = collections.Counter()
    for counts in by_entry.values():
        totals.update(counts)
    print("  forfeits by reason: " + ", ".join(f"{r} {c}" for r, c in sorted(totals.items())))
    keep = set(GOOD) | {"random"}
    same = honest(attacked, keep) == honest(clean, keep)
    print(f"  honest games identical to the run without attackers: {same} ({len(honest(clean, keep))} games)")
    print(f"  left on the host: {sorted(set(left_on_host()) - set(before)) or 'nothing'}")
    print(f"  wall time: {attacked_time:.1f} s with the attackers, {clean_time:.1f} s without")


def isolation_cost() -> None:
    from gopskit.arena.entries import bot_entry, student_entry
    from gopskit.arena.sandbox import Limits, SandboxWorker
    from gopskit.arena.tournament import Tournament
    from gopskit.games.goofspiel import Goofspiel

    print("\nCost of the boundary (peer: the in-process fence, GOPSKIT_SANDBOX=fence)")
    observation = {"prize": 4, "hand": [1, 4, 6], "legal_moves": [1, 4, 6]}
    rows = {}
    for mode in ("bubblewrap", "fence"):
        os.environ["GOPSKIT_SANDBOX"] = mode
        try:
            starts = []
            for _ in range(8):
                begin = time.perf_counter()
                with SandboxWorker(DATA / "students" / "copycat.py", Limits()) as worker:
                    worker.play([("g", 1, observation)])
                starts.append(time.perf_counter() - begin)
            entries = [student_entry(DATA / "students" / f"{n}.py") for n in GOOD] + [bot_entry("random")]
            begin = time.perf_counter()
            results = Tournament(Goofspiel(num_cards=13), entries, games=20, seed=3, processes=1,
                                 exploitability=False).run(progress=False)
            rows[mode] = (statistics.median(starts), time.perf_counter() - begin, len(results.games))
        except Exception as exc:  # noqa: BLE001 - a machine without bubblewrap still gets the fence figures
            print(f"  {mode}: not available ({exc})")
        finally:
            del os.environ["GOPSKIT_SANDBOX"]
    for mode, (start, wall, games) in rows.items():
        print(f"  {mode:10s} start + first move {start * 1000:6.0f} ms (median of 8); "
              f"13-card class tournament: {games} games in {wall:5.2f} s")
    if len(rows) == 2:
        print(f"  ratio bubblewrap/fence: start x{rows['bubblewrap'][0] / rows['fence'][0]:.2f}, "
              f"tournament x{rows['bubblewrap'][1] / rows['fence'][1]:.2f}")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="the hostile tournament only")
    args = parser.parse_args(argv)
    from gopskit.arena.sandbox import isolation_report

    print(f"Isolation here: {isolation_report()}")
    hostile_tournament()
    if not args.quick:
        isolation_cost()
    return 0


if __name__ == "__main__":
    sys.exit(main())
