"""Saving, loading and caching exact Goofspiel solutions.

A solution file is a numpy ``.npz`` archive: one array of values per hand
size (``values_0`` .. ``values_N``) and a JSON header ``meta`` with the
format name, its version, the options (cards, objective, tie rule) and the
solve's statistics. The hand-pattern tables are not stored: they follow from
the number of cards and are rebuilt on load, and every array's length is
checked against them.

Loading refuses, with a :class:`SolutionFileError` that says why, a file of
another format or version, and a file solved for other options than asked.

:func:`cached_solution` keeps solutions in a user cache folder
(``$GOPSKIT_CACHE``, else ``~/.cache/gopskit``), so each deck is solved once
per machine.

Nothing here imports numba: a saved solution of a small deck is loaded,
and played, with numpy alone (:mod:`._small_layers`).

>>> import tempfile, os
>>> from gopskit.solvers import solve_goofspiel
>>> path = os.path.join(tempfile.mkdtemp(), "gops4.npz")
>>> save_solution(solve_goofspiel(num_cards=4), path)
>>> load_solution(path, num_cards=4, objective="points").value([1, 4], [2, 3], [1, 4])
3.0
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np

from ..errors import GopsError
from ._small import game_tables
from ._small_layers import LayeredSolution, SolveStats
from .exact import GoofspielSolution, check_options, solve_goofspiel

FORMAT = "gopskit-goofspiel-solution"
FORMAT_VERSION = 1


class SolutionFileError(GopsError):
    """A solution file is missing, damaged, of another version or for other options."""


def save_solution(solution: GoofspielSolution, path) -> None:
    """Write ``solution`` to ``path`` (a ``.npz`` file; the folder must exist)."""
    if not isinstance(solution, GoofspielSolution) or solution.engine.slack:
        raise SolutionFileError("only whole-game solutions from solve_goofspiel can be saved")
    meta = {"format": FORMAT, "version": FORMAT_VERSION, **solution.options(), "stats": solution.stats.as_dict()}
    write_npz(path, meta, **{f"values_{j}": v for j, v in enumerate(solution.engine.values)})


def write_npz(path, meta: dict, compress: bool = True, **arrays) -> None:
    """Write ``meta`` (as JSON) and ``arrays`` to the ``.npz`` file ``path`` at once: a reader never sees half a file."""
    path = Path(path)
    tmp = path.with_name(path.name + ".tmp.npz")
    (np.savez_compressed if compress else np.savez)(tmp, meta=np.array(json.dumps(meta)), **arrays)
    os.replace(tmp, path)


def _read_meta(archive, path) -> dict:
    try:
        meta = json.loads(str(archive["meta"]))
    except (KeyError, ValueError) as exc:
        raise SolutionFileError(f"{path} is not a gopskit solution file (no readable header: {exc})") from None
    if meta.get("format") != FORMAT:
        raise SolutionFileError(f"{path} is not a gopskit Goofspiel solution (format {meta.get('format')!r})")
    if meta.get("version") != FORMAT_VERSION:
        raise SolutionFileError(
            f"{path} has solution format version {meta.get('version')!r}; this gopskit reads version "
            f"{FORMAT_VERSION}: solve again with 'gopskit solve'"
        )
    return meta


def _check_wanted(meta: dict, path, **wanted) -> None:
    for key, value in wanted.items():
        if value is not None and meta.get(key) != value:
            raise SolutionFileError(
                f"{path} solves {meta.get('num_cards')} cards, objective={meta.get('objective')!r}, "
                f"ties={meta.get('ties')!r}; asked for {key}={value!r}"
            )


def load_solution(path, num_cards=None, objective=None, ties=None) -> GoofspielSolution:
    """Read a solution saved by :func:`save_solution`.

    Any option given (``num_cards``, ``objective``, ``ties``) must match the
    file's, otherwise :class:`SolutionFileError` is raised.
    """
    path = Path(path)
    try:
        archive = np.load(path, allow_pickle=False)
    except (OSError, ValueError) as exc:
        raise SolutionFileError(f"cannot read solution file {path}: {exc}") from None
    with archive:
        meta = _read_meta(archive, path)
        _check_wanted(meta, path, num_cards=num_cards, objective=objective, ties=ties)
        check_options(meta["num_cards"], meta["objective"], meta["ties"])
        engine = LayeredSolution(game_tables(meta["num_cards"]), meta["objective"], meta["ties"])
        values = []
        for j, base in enumerate(engine.bases):
            key = f"values_{j}"
            if key not in archive or archive[key].shape != (int(base[-1]),):
                raise SolutionFileError(f"{path} is damaged: array {key} is missing or has the wrong size")
            values.append(np.asarray(archive[key], dtype=np.float64))
    engine.values = values
    engine.stats = SolveStats(**meta.get("stats", {}))
    return GoofspielSolution(engine, meta["num_cards"])


def cache_dir() -> Path:
    """The folder of cached solutions: ``$GOPSKIT_CACHE`` or ``~/.cache/gopskit``."""
    return Path(os.environ.get("GOPSKIT_CACHE") or Path.home() / ".cache" / "gopskit")


def solution_filename(num_cards: int, objective: str, ties: str) -> str:
    """The file name a solution is cached under, e.g. ``goofspiel-8-points-discard-v1.npz``."""
    return f"goofspiel-{num_cards}-{objective}-{ties}-v{FORMAT_VERSION}.npz"


def layer_folder_name(num_cards: int, objective: str, ties: str) -> str:
    """The cache folder a checkpointed solve writes its layers to (:mod:`.layer_folder`)."""
    return f"goofspiel-{num_cards}-{objective}-{ties}-layers"


_MEMORY: dict[tuple, GoofspielSolution] = {}


def cached_solution(num_cards: int, objective: str = "points", ties: str = "discard",
                    *, progress: bool = False, use_disk: bool = True) -> GoofspielSolution:
    """The solution for these options: from this process, else the cache folder, else solved now.

    A fresh solve is written to the cache folder when it can be (a
    read-only home is no error: the solution then lives for this process).
    """
    check_options(num_cards, objective, ties)
    key = (int(num_cards), objective, ties)
    if key in _MEMORY:
        return _MEMORY[key]
    path = cache_dir() / solution_filename(*key)
    solution = None
    if use_disk:
        solution = _from_layer_folder(cache_dir() / layer_folder_name(*key), key)
    if use_disk and solution is None and path.exists():
        try:
            solution = load_solution(path, *key)
        except SolutionFileError:
            solution = None  # a damaged or stale cache file is solved again
    if solution is None:
        solution = solve_goofspiel(*key, progress=progress)
        if use_disk:
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                save_solution(solution, path)
            except OSError:
                pass
    _MEMORY[key] = solution
    return solution


def find_solution(num_cards: int, objective: str = "points", ties: str = "discard") -> GoofspielSolution | None:
    """The solution for these options if this process or the cache folder already has it, else None (no solving)."""
    key = (int(num_cards), objective, ties)
    if key in _MEMORY:
        return _MEMORY[key]
    solution = _from_layer_folder(cache_dir() / layer_folder_name(*key), key)
    path = cache_dir() / solution_filename(*key)
    if solution is None and path.exists():
        try:
            solution = load_solution(path, *key)
        except SolutionFileError:
            return None
    if solution is not None:
        _MEMORY[key] = solution
    return solution


def _from_layer_folder(folder: Path, key: tuple) -> GoofspielSolution | None:
    """A complete layer folder's solution, mapped from disk; None if absent or unfinished."""
    from .layer_folder import LayerFolderError, open_layer_folder

    if not (folder / "meta.json").exists():
        return None
    try:
        return open_layer_folder(folder, *key)
    except LayerFolderError:
        return None


__all__ = ["SolutionFileError", "find_solution", "layer_folder_name", "cache_dir", "cached_solution", "load_solution", "save_solution", "solution_filename",
           "write_npz"]
