"""Opening books: the top layers of a solved deck, small enough to ship with the package.

The whole 13-card solution is gigabytes, but the first turns of a game need
only the values of the positions one and two turns ahead: hands of 13, 12
and 11 cards, about 350,000 values (under 3 MB). An *opening book* keeps
those layers of a complete solve; loaded back it is a
:class:`~gopskit.solvers.exact.GoofspielSolution` that answers ``value``
for those hands and ``policy`` for the first two turns, exactly as the full
solution would (the same turn games, built from the same stored values).

The kit ships the book of the 13-card game (``points``, ties ``discard``),
and its *deep layer*, the 10-card values rounded to 0.0001 points
(:func:`save_deep_layer`: 7.4 MiB instead of 86 MiB), with which the book plays
the third turn too: its turn games are then known to within
:func:`turn_radius` an entry, from which :mod:`gopskit.solvers.certified`
draws exact equilibrium bids, and the exact mixes of the few third turns
where it cannot (:mod:`gopskit.solvers.hard_turns`). All three are made
from a complete solve by::

    gopskit solve --cards 13 --checkpoint FOLDER
    cd gopskit/data && python -m gopskit.solvers.opening FOLDER goofspiel-13-points-discard-opening.npz \
        --deep goofspiel-13-points-discard-layer10.npz --hard goofspiel-13-points-discard-hard-turns.npz

Each file's header records the solve's statistics and the command, so its
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

import contextlib
import fcntl
import hashlib
import json
import lzma
import os
import sys
import warnings
from functools import lru_cache
from importlib import resources
from pathlib import Path

import numpy as np

from ..errors import GopsError
from ._exact_engine import LayeredSolution, SolveStats
from ._exact_tables import full_game_tables
from .exact import GoofspielSolution, check_options
from .storage import cache_dir, write_npz

FORMAT = "gopskit-goofspiel-opening"
FORMAT_VERSION = 1
SHIPPED = {(13, "points", "discard"): "goofspiel-13-points-discard-opening.npz"}
DEEP_FORMAT = "gopskit-goofspiel-deep-layer"
DEEP_STEP = 1e-4  # a deep layer's values are stored to the nearest multiple of this (points)
# How far a complete solve's stored values may be from another exact solve's of the same position: each turn game is
# certified to 1e-10 of its size (a few dozen points at most), and errors add up over the ten layers below.
SOLVER_SLACK = 1e-7
SHIPPED_DEEP = {(13, "points", "discard"): "goofspiel-13-points-discard-layer10.npz"}
SHIPPED_HARD = {(13, "points", "discard"): "goofspiel-13-points-discard-hard-turns.npz"}  # gopskit.solvers.hard_turns


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
    write_npz(path, meta, **{f"values_{j}": np.asarray(solution.engine.values[j]) for j in range(lowest, n + 1)})


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


def with_deep_layer(book: GoofspielSolution, path) -> GoofspielSolution:
    """The book with the layer below it from a :func:`save_deep_layer` file: it plays one more turn."""
    n, low = book.num_cards, int(book.provenance["lowest"]) - 1
    engine = LayeredSolution(full_game_tables(n, low), book.objective, book.ties, allocate=False)
    for j in range(low + 1, n + 1):
        engine.values[j] = book.engine.values[j]
    engine.values[low], deep = load_deep_layer(path, engine, low)
    engine.stats = book.engine.stats
    deeper = GoofspielSolution(engine, n)
    deeper.provenance = {**book.provenance, "deep": deep}
    return deeper


def turn_radius(solution: GoofspielSolution, hand_size: int) -> float:
    """How far each entry of ``solution``'s turn games with ``hand_size`` cards may be from the exact one.

    0 where the turn is built from exact values; for the turn a rounded deep
    layer plays (:func:`with_deep_layer`), the layer's largest rounding
    plus :data:`SOLVER_SLACK`. :mod:`gopskit.solvers.certified` turns such
    a game into exact bids.
    """
    deep = (getattr(solution, "provenance", None) or {}).get("deep")
    if deep and int(deep["layer"]) == hand_size - 1:
        return float(deep["largest_rounding"]) + SOLVER_SLACK
    return 0.0


def save_deep_layer(solution: GoofspielSolution, path, j: int, step: float = DEEP_STEP, command: str = "") -> dict:
    """Write layer ``j`` of a complete "points", ties-discard solve, each value rounded to a multiple of ``step``.

    Below an opening book of hands of ``j + 1`` cards and more, it lets the
    book play the turn with ``j + 1`` cards as well: that turn's games are
    built from layer ``j``. Rounded, a turn game's entries are each within
    ``step / 2`` of the truth, so its optimal bid is within ``step`` points
    of the equilibrium's guarantee. The file keeps one value per pattern
    and its mirror (the mirror's is the negation), as differences from the
    same pattern's value in the previous prize set, compressed with LZMA:
    for the 13-card game's 10-card layer that is 7.4 MiB for 10.7 million
    values at the default ``step`` (:data:`DEEP_STEP`, 0.0001 points).
    Returns the file's header.
    """
    engine = solution.engine
    if (solution.objective, solution.ties) != ("points", "discard") or engine.slack:
        raise OpeningBookError("a deep layer is made from a whole-game solve for points with ties discarded")
    layer = engine.tables.layers[j]
    values = np.asarray(engine.values[j], dtype=np.float64).reshape(layer.num_prize_sets, layer.num_patterns)
    canonical = layer.swap >= np.arange(layer.num_patterns)
    steps = np.round(values[:, canonical] / step).astype(np.int64)
    error = float(np.abs(steps * step - values[:, canonical]).max())
    deltas = np.diff(steps, axis=0, prepend=0)
    if np.abs(deltas).max() >= 2**31:
        raise OpeningBookError(f"a step of {step} is too fine for these values")
    blob = lzma.compress(deltas.astype("<i4").tobytes(), preset=9)
    meta = {"format": DEEP_FORMAT, "version": FORMAT_VERSION, **solution.options(), "layer": j, "step": step,
            "shape": list(deltas.shape), "largest_rounding": error, "stats": solution.stats.as_dict(), "command": command,
            "digest": hashlib.sha256(blob).hexdigest()[:16]}
    write_npz(path, meta, compress=False, blob=np.frombuffer(blob, dtype=np.uint8))  # already compressed
    return meta


def load_deep_layer(path, engine: LayeredSolution, j: int) -> tuple[np.ndarray, dict]:
    """``(values, header)`` of a :func:`save_deep_layer` file, as layer ``j`` of ``engine``.

    The decoded layer (86 MB for the 13-card game's 10-card layer) is kept
    in the solution cache folder and mapped from there, so every process
    of a classroom server shares one copy; if that folder cannot be
    written, it stays in this process's memory. Processes that open it at
    the same moment take turns (a file lock): the first decodes it, the
    others map its file, so a class starting together never holds thirty
    decoded copies at once.
    """
    layer = engine.tables.layers[j]
    try:
        with np.load(path, allow_pickle=False) as archive:
            meta = json.loads(str(archive["meta"]))
            if meta.get("format") != DEEP_FORMAT or meta.get("version") != FORMAT_VERSION:
                raise OpeningBookError(f"{path} is not a gopskit deep layer of version {FORMAT_VERSION}")
            if (meta["layer"], meta["num_cards"], meta["objective"], meta["ties"]) != (
                    j, len(engine.tables.prize_values), engine.objective, engine.ties):
                raise OpeningBookError(f"{path} holds layer {meta['layer']} of another game")
            blob = archive["blob"].tobytes()
    except (OSError, ValueError, KeyError) as exc:
        raise OpeningBookError(f"cannot read deep layer {path}: {exc}") from None
    cached = cache_dir() / f"deep-{meta['num_cards']}-{meta['objective']}-{meta['ties']}-{j}-{meta['digest']}.npy"
    with _taking_turns(cached.with_suffix(".lock")):
        try:
            values = np.load(cached, mmap_mode="r")
            if values.shape == (layer.num_prize_sets * layer.num_patterns,):
                return values, meta
        except (OSError, ValueError):
            pass  # not there yet (or damaged): decode it
        return _kept_on_disk(_decoded(path, meta, blob, layer), cached), meta


def _decoded(path, meta: dict, blob: bytes, layer) -> np.ndarray:
    """The whole layer from a deep file's compressed differences (mirror images filled in)."""
    from ._exact_tables import mirror_patterns

    swap = mirror_patterns(layer.codes)
    canonical = swap >= np.arange(layer.num_patterns)
    try:
        deltas = np.frombuffer(lzma.decompress(blob), dtype="<i4")
        rounded = np.cumsum(deltas.reshape(meta["shape"]), axis=0, dtype=np.int64) * float(meta["step"])
    except (ValueError, KeyError, lzma.LZMAError) as exc:
        raise OpeningBookError(f"cannot read deep layer {path}: {exc}") from None
    if rounded.shape != (layer.num_prize_sets, int(canonical.sum())):
        raise OpeningBookError(f"{path} is damaged: {rounded.shape} values, not {(layer.num_prize_sets, int(canonical.sum()))}")
    values = np.empty((layer.num_prize_sets, layer.num_patterns))
    values[:, canonical] = rounded
    mirrors = np.flatnonzero(~canonical)
    values[:, mirrors] = -values[:, swap[mirrors]]
    return values.ravel()


@contextlib.contextmanager
def _taking_turns(lock_path: Path):
    """Hold an exclusive lock on ``lock_path`` (waiting for it); no lock if the folder cannot be written."""
    try:
        lock_path.parent.mkdir(parents=True, exist_ok=True)
        handle = open(lock_path, "a+b")  # noqa: SIM115  (closed below)
    except OSError:
        yield
        return
    try:
        fcntl.flock(handle, fcntl.LOCK_EX)
        yield
    finally:
        handle.close()  # releases the lock


def _kept_on_disk(values: np.ndarray, path: Path) -> np.ndarray:
    """``values`` written to ``path`` and mapped back (shared between processes); the array itself if that fails."""
    tmp = path.with_name(f"{path.stem}.{os.getpid()}.tmp.npy")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        np.save(tmp, values)
        os.replace(tmp, path)
        return np.load(path, mmap_mode="r")
    except OSError:
        tmp.unlink(missing_ok=True)
        return values


def shipped_opening(num_cards: int, objective: str = "points", ties: str = "discard",
                    deep: bool = True) -> GoofspielSolution | None:
    """The opening book the package ships for these options, or None.

    With ``deep`` (the default), with its deep layer when one is shipped
    (the 13-card book then plays three turns instead of two) and its hard
    turns (``book.hard_turns``, :mod:`gopskit.solvers.hard_turns`). Opening the
    book alone takes about 0.3 s, the deep layer about 1 s more the first time
    on a machine (decoding it into the cache folder) and little after: the
    equilibrium bot opens the book alone for its first move and the deep
    layer when the third turn comes.
    """
    return _shipped((int(num_cards), objective, ties), bool(deep))


@lru_cache(maxsize=8)
def _shipped(key: tuple, deep: bool) -> GoofspielSolution | None:
    if not deep:
        return load_shipped(SHIPPED.get(key), load_opening)
    book = _shipped(key, False)
    if book is None:
        return None
    try:
        deeper = load_shipped(SHIPPED_DEEP.get(key), lambda path: with_deep_layer(book, path))
    except OpeningBookError as exc:  # a damaged install: the book still plays its own turns
        warnings.warn(f"{exc}; the opening book plays one turn fewer without it", stacklevel=3)
        deeper = None
    if deeper is None:
        return book
    from .hard_turns import attach_hard_turns

    try:
        load_shipped(SHIPPED_HARD.get(key), lambda path: attach_hard_turns(deeper, path))
    except OpeningBookError as exc:  # still exact: those turns are solved when they come
        warnings.warn(f"{exc}; the bot solves its hardest third turns on the spot without it", stacklevel=3)
    return deeper


shipped_opening.cache_clear = _shipped.cache_clear


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
    """``python -m gopskit.solvers.opening SOLUTION_FOLDER OUT.npz [DEPTH] [--deep LAYER.npz [--hard HARD.npz]]``.

    Writes a book from a solve. ``--deep`` also writes the layer below the
    book, rounded (:func:`save_deep_layer`), and ``--hard`` the exact mixes
    of the turns that layer cannot settle
    (:func:`gopskit.solvers.hard_turns.save_hard_turns`).
    """
    import argparse

    from .layer_folder import open_layer_folder

    parser = argparse.ArgumentParser(prog="python -m gopskit.solvers.opening", description="write an opening book")
    parser.add_argument("folder", help="a complete solve's layer folder (gopskit solve --checkpoint FOLDER)")
    parser.add_argument("out", help="the book's .npz file")
    parser.add_argument("depth", nargs="?", type=int, default=2, help="turns the book plays by itself (2)")
    parser.add_argument("--deep", help="also write the layer below the book, rounded, to this .npz file")
    parser.add_argument("--hard", help="with --deep, also write the exact mixes of the turns the rounded layer cannot "
                                       "settle (gopskit.solvers.hard_turns) to this .npz file")
    parser.add_argument("--step", type=float, default=DEEP_STEP,
                        help=f"the deep layer's values are rounded to multiples of this many points ({DEEP_STEP:g})")
    args = parser.parse_args(argv)
    solution = open_layer_folder(args.folder)
    n = solution.num_cards
    command = f"gopskit solve --cards {n} --objective {solution.objective} --ties {solution.ties} --checkpoint FOLDER"
    save_opening(solution, args.out, args.depth, command=command)
    print(f"wrote {args.out}: hands of {n - args.depth} to {n} cards, {Path(args.out).stat().st_size / 2**20:.1f} MiB")
    if args.deep:
        if not 0 < args.step <= 1:
            parser.error(f"--step must be above 0 and at most 1 point, not {args.step:g}")
        meta = save_deep_layer(solution, args.deep, n - args.depth - 1, step=args.step, command=command)
        print(f"wrote {args.deep}: hands of {meta['layer']} cards to the nearest {meta['step']:g} "
              f"(largest rounding {meta['largest_rounding']:.1e}), {Path(args.deep).stat().st_size / 2**20:.1f} MiB")
    if args.hard:
        if not args.deep:
            parser.error("--hard needs --deep: the hard turns are those of the rounded layer")
        from .hard_turns import save_hard_turns

        shipped = with_deep_layer(load_opening(args.out), args.deep)  # the files as they ship, read back
        meta = save_hard_turns(shipped, solution, args.hard, command=command)
        print(f"wrote {args.hard}: {meta['hard']:,} of {meta['reachable']:,} reachable turns with {meta['hand_size']} "
              f"cards need their exact mix, {Path(args.hard).stat().st_size / 2**10:.0f} KiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())

__all__ = ["OpeningBookError", "first_turn_markdown", "first_turn_table", "load_deep_layer", "load_opening", "parity_summary",
           "save_deep_layer", "save_opening", "shipped_opening", "turn_radius"]
