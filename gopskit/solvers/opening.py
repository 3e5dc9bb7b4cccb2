"""Opening books: the top layers of a solved deck, small enough to ship with the package.

The whole 13-card solution is gigabytes, but the first turns of a game need
only the values of the positions one and two turns ahead: hands of 13, 12
and 11 cards, about 350,000 values (under 3 MB). An *opening book* keeps
those layers of a complete solve; loaded back it is a
:class:`~gopskit.solvers.exact.GoofspielSolution` that answers ``value``
for those hands and ``policy`` for the first two turns, exactly as the full
solution would (the same turn games, built from the same stored values).

The kit ships the book of the 13-card game (``points``, ties ``discard``),
made from a complete solve by::

    gopskit solve --cards 13 --checkpoint FOLDER
    python -m gopskit.solvers.opening FOLDER gopskit/data/goofspiel-13-points-discard-opening.npz

The file's header records the solve's statistics and the command, so its
provenance travels with it. :func:`first_turn_table` reads the first turn
off a book: the value of each turned prize and the optimal mixed bid.

>>> import tempfile, os
>>> from gopskit.solvers import solve_goofspiel
>>> path = os.path.join(tempfile.mkdtemp(), "book6.npz")
>>> full = solve_goofspiel(6)
>>> save_opening(full, path, depth=2)
>>> book = load_opening(path)
>>> book.plays(6), book.plays(5), book.plays(4)
(True, True, False)
>>> book.policy(range(1, 7), range(1, 7), range(1, 7), prize=6) == full.policy(range(1, 7), range(1, 7), range(1, 7), prize=6)
True
"""

from __future__ import annotations

import json
import os
import sys
from functools import lru_cache
from importlib import resources
from pathlib import Path

import numpy as np

from ..errors import GopsError
from ._exact_engine import LayeredSolution, SolveStats
from ._exact_tables import full_game_tables
from .exact import GoofspielSolution, check_options

FORMAT = "gopskit-goofspiel-opening"
FORMAT_VERSION = 1
SHIPPED = {(13, "points", "discard"): "goofspiel-13-points-discard-opening.npz"}


class OpeningBookError(GopsError):
    """An opening-book file is missing, damaged or of another version."""


def save_opening(solution: GoofspielSolution, path, depth: int = 2, command: str = "") -> None:
    """Write the top ``depth + 1`` layers of a complete whole-game ``solution`` to ``path`` (.npz).

    With ``depth`` turns covered, a book answers the policy of the first
    ``depth`` turns.
    """
    n = solution.num_cards
    if solution.engine.slack or solution.engine.tables.prize_values != tuple(range(1, n + 1)):
        raise OpeningBookError("an opening book is made from a whole-game solution (solve_goofspiel)")
    if not 1 <= depth <= n:
        raise OpeningBookError(f"depth must be 1 to {n} turns, not {depth}")
    lowest = n - depth
    meta = {"format": FORMAT, "version": FORMAT_VERSION, **solution.options(), "lowest": lowest,
            "stats": solution.stats.as_dict(), "command": command}
    arrays = {f"values_{j}": np.asarray(solution.engine.values[j]) for j in range(lowest, n + 1)}
    path = Path(path)
    tmp = path.with_name(path.name + ".tmp.npz")
    np.savez_compressed(tmp, meta=np.array(json.dumps(meta)), **arrays)
    os.replace(tmp, path)


def load_opening(path) -> GoofspielSolution:
    """Read an opening book written by :func:`save_opening`."""
    try:
        with np.load(path, allow_pickle=False) as archive:
            meta = json.loads(str(archive["meta"]))
            if meta.get("format") != FORMAT or meta.get("version") != FORMAT_VERSION:
                raise OpeningBookError(f"{path} is not a gopskit opening book of version {FORMAT_VERSION}")
            check_options(meta["num_cards"], meta["objective"], meta["ties"])
            n, lowest = int(meta["num_cards"]), int(meta["lowest"])
            engine = LayeredSolution(full_game_tables(n, lowest), meta["objective"], meta["ties"], allocate=False)
            sizes = engine.layer_sizes()
            for j in range(lowest, n + 1):
                values = archive[f"values_{j}"]
                if values.shape != (sizes[j],):
                    raise OpeningBookError(f"{path} is damaged: layer {j} has {values.shape} values, not {sizes[j]}")
                engine.values[j] = np.asarray(values, dtype=np.float64)
    except (OSError, ValueError, KeyError) as exc:
        raise OpeningBookError(f"cannot read opening book {path}: {exc}") from None
    engine.stats = SolveStats(**meta.get("stats", {}))
    book = GoofspielSolution(engine, n)
    book.provenance = meta
    return book


@lru_cache(maxsize=4)
def shipped_opening(num_cards: int, objective: str = "points", ties: str = "discard") -> GoofspielSolution | None:
    """The opening book the package ships for these options, or None."""
    return load_shipped(SHIPPED.get((int(num_cards), objective, ties)), load_opening)


def load_shipped(name: str | None, load):
    """``load(path)`` of the package's data file ``name``; None when there is no such file (or no name)."""
    if name is None:
        return None
    resource = resources.files("gopskit") / "data" / name
    if not resource.is_file():
        return None
    with resources.as_file(resource) as path:
        return load(path)


def first_turn_table(book: GoofspielSolution) -> list[dict]:
    """For each prize that can be turned first: its value to the holder and the optimal mixed bid.

    Rows ``{"prize", "value", "policy"}``, ``policy`` mapping card -> probability
    (cards never bid left out). The game's value is the mean of the values, 0
    by symmetry.
    """
    full = range(1, book.num_cards + 1)
    rows = []
    for prize in full:
        policy = book.policy(full, full, full, prize=prize)
        rows.append({"prize": prize, "value": book.value(full, full, full, prize=prize),
                     "policy": {card: p for card, p in policy.items() if p > 1e-12}})
    return rows


def parity_summary(rows: list[dict]) -> list[dict]:
    """Per prize: the chance the optimal first bid is an odd card, and that it is the top card."""
    top = max(card for row in rows for card in row["policy"])
    return [{"prize": row["prize"], "odd": sum(p for card, p in row["policy"].items() if card % 2),
             "top": row["policy"].get(top, 0.0)} for row in rows]


def first_turn_markdown(book: GoofspielSolution) -> str:
    """The first-turn table of a book as a Markdown table (docs/solver.md shows the 13-card one).

    Every first turn is worth 0 (both hold the same cards), so the table
    shows the bids only.
    """
    rows = first_turn_table(book)
    parity = {row["prize"]: row for row in parity_summary(rows)}
    lines = ["| prize turned | optimal first bid (card: chance) | odd card | top card |",
             "|---|---|---|---|"]
    for row in rows:
        bids = ", ".join(f"{card}: {p:.1%}" for card, p in sorted(row["policy"].items(), key=lambda cp: -cp[1]))
        lines.append(f"| {row['prize']} | {bids} | {parity[row['prize']]['odd']:.0%} | {parity[row['prize']]['top']:.0%} |")
    return "\n".join(lines)


def main(argv=None) -> int:
    """``python -m gopskit.solvers.opening SOLUTION_FOLDER OUT.npz [DEPTH]``: write a book from a solve."""
    from .layer_folder import open_layer_folder

    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) not in (2, 3):
        print("usage: python -m gopskit.solvers.opening SOLUTION_FOLDER OUT.npz [DEPTH]", file=sys.stderr)
        return 2
    solution = open_layer_folder(args[0])
    depth = int(args[2]) if len(args) == 3 else 2
    n = solution.num_cards
    save_opening(solution, args[1], depth, command=f"gopskit solve --cards {n} --objective {solution.objective} "
                                                    f"--ties {solution.ties} --checkpoint FOLDER")
    print(f"wrote {args[1]}: hands of {n - depth} to {n} cards, {Path(args[1]).stat().st_size / 2**20:.1f} MiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())

__all__ = ["OpeningBookError", "first_turn_markdown", "first_turn_table", "parity_summary", "load_opening", "save_opening", "shipped_opening"]
