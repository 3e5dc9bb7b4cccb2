"""Compile the exact solver's kernels ahead of use: ``python -m gopskit.solvers.precompile``.

numba compiles each kernel the first time it runs and keeps the machine code
on disk (next to the package, or in the user's cache when that is
read-only); from then on a process loads it in a fraction of a second. On a
fresh install that first time falls on somebody: measured here, in the first
13-card game after installing, the person's first bid waited 8.3 s for the
equilibrium bot and the fourth 7.7 s (the kernels were compiling); once
compiled, no bid waited. ``make setup`` and Binder's ``postBuild`` run this
module once after installing, and ``gopskit serve`` starts it in the
background when the kernels are not compiled yet.

It runs every kind of solve the kit makes on a tiny deck (both objectives,
both tie rules, whole games and turn endgames, a lone matrix game), which
compiles every kernel for every argument type those solves use. About 20 s
on two cores the first time; a second or so once compiled.
"""

from __future__ import annotations

import argparse
import sys
import time


def precompile() -> float:
    """Compile (or load) every kernel of the exact solver; the seconds it took."""
    started = time.perf_counter()
    import numpy as np

    from ._exact_lp import matrix_game
    from .exact import OBJECTIVES, TIE_RULES, solve_goofspiel, solve_turn_endgame

    matrix_game(np.array([[1.0, -1.0], [-1.0, 1.0]]))
    for objective in OBJECTIVES:
        for ties in TIE_RULES:
            solve_goofspiel(4, objective, ties, threads=1)  # the compiled engine, not the small decks' numpy one
            solve_turn_endgame([1, 2, 4], [1, 3, 4], [1, 2, 4], 4, objective, ties)
    from .opening import shipped_opening

    book = shipped_opening(13)  # a third turn from the shipped book's deep layer (decoded into the cache, once)
    if book is not None:
        eleven = list(range(3, 14))
        book.turn_matrix(eleven, eleven, eleven, 13)
    return time.perf_counter() - started


def compiled() -> bool:
    """Whether the kernels are compiled already: the layer solver's index file is in numba's cache folder.

    That folder is next to the package, or numba's own one in the user's
    cache when the package's is read-only; numba says which.
    """
    from pathlib import Path

    from ._exact_kernel import solve_layer

    folder = getattr(getattr(solve_layer, "_cache", None), "_cache_path", None) or Path(__file__).parent / "__pycache__"
    return any(Path(folder).glob("_exact_kernel.solve_layer-*.nbi"))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m gopskit.solvers.precompile",
                                     description="compile the exact solver's kernels once, ahead of use")
    parser.add_argument("--quiet", action="store_true", help="say nothing")
    args = parser.parse_args(argv)
    say = (lambda text: None) if args.quiet else (lambda text: print(f"gopskit: {text}", flush=True))
    if compiled():
        say("the exact solver is compiled already; loading it to check.")
    else:
        say("compiling the exact solver (once after installing; about 20 s)...")
    seconds = precompile()
    say(f"the exact solver is ready ({seconds:.0f} s).")
    return 0


if __name__ == "__main__":
    sys.exit(main())
