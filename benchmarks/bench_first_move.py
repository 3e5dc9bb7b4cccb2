"""How soon a board's equilibrium bot answers, from a fresh process: figures, never a pass/fail test.

A board starts a game (which resets the bots: the equilibrium bot begins
opening or solving its exact solution in a background thread), the person
looks at the board for a while, bids, and the bot must answer. Each line is
one fresh Python process, as a new app kernel would be:

* "board ready": from the process start to the game started (imports,
  rules, bots);
* "answer": from the person's bid to the bot's bid, after the person
  looked for 0 s (an instant click) or 2 s.

Run with an empty solution cache (``$GOPSKIT_CACHE`` pointed at a new
folder: the first game on a fresh machine, so decks up to the bot's
``exact_up_to`` are solved on the spot) and again with the cache that first
run filled. For 13 cards the bot plays from the opening book the package
ships unless a complete solution is in the cache.

    python benchmarks/bench_first_move.py                 # 6, 8, 9 and 13 cards
    python benchmarks/bench_first_move.py --cards 8 13
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

CHILD = r"""
import json, sys, time
started = time.perf_counter()
cards, look = int(sys.argv[1]), float(sys.argv[2])
from gopskit.agents import make_agent
from gopskit.arena.match import start_game
from gopskit.games.goofspiel import Goofspiel
bot = make_agent("equilibrium")
bot.progress = False
state = start_game(Goofspiel(num_cards=cards), [make_agent("random"), bot], seed=1)
ready = time.perf_counter()
time.sleep(look)
bid = time.perf_counter()
bot.act(state.observation(1))
print(json.dumps({"ready": ready - started, "answer": time.perf_counter() - bid, "source": bot.source}))
"""


def one(cards: int, look: float, cache: str) -> dict:
    env = {**os.environ, "GOPSKIT_CACHE": cache}
    out = subprocess.run([sys.executable, "-c", CHILD, str(cards), str(look)], env=env, check=True,
                         capture_output=True, text=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, nargs="+", default=[6, 8, 9, 13])
    args = parser.parse_args(argv)
    print(f"Equilibrium bot's first answer, fresh processes, {os.cpu_count()} cores, "
          f"load average {os.getloadavg()[0]:.1f}")
    print(f"{'cards':>5} {'cache':>6} {'looked':>6} {'board ready':>11} {'answer':>8}  played from")
    with tempfile.TemporaryDirectory(prefix="gopskit-cache-") as cache:
        for cards in args.cards:
            for label in ("empty", "filled"):
                for look in ((0.0, 2.0) if label == "empty" else (0.0,)):
                    if label == "empty":
                        for name in os.listdir(cache):  # every empty-cache line starts from nothing
                            path = os.path.join(cache, name)
                            if os.path.isfile(path):
                                os.remove(path)
                    r = one(cards, look, cache)
                    print(f"{cards:>5} {label:>6} {look:>5.0f}s {r['ready']:>10.2f}s {r['answer']:>7.2f}s  {r['source']}",
                          flush=True)
            time.sleep(0.1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
