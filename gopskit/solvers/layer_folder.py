"""A solution kept as a folder of layers: the checkpoint of a long solve, and a solution read in place.

A big solve (11 to 13 cards: minutes, gigabytes) writes every finished
layer (hands of ``j`` cards) to its own ``values_J.npy`` file in a folder,
next to a ``meta.json`` that names the options, the layers done and the
statistics so far. A solve cut off at any moment (Ctrl-C, a closed laptop,
a killed process) starts again from the first layer that is not on disk:
every file is written under a temporary name and renamed, so a layer is
either wholly there or not at all.

The same folder, once complete, is the solution: :func:`open_layer_folder`
maps the layers into memory instead of reading them (``numpy.load`` with
``mmap_mode``), so opening the 13-card solution costs nothing and several
processes (a classroom's kernels) share one copy in the page cache.

While solving, only the layer below the one being solved is held in
memory; finished layers above it are mapped from disk.

>>> import tempfile
>>> from gopskit.solvers import solve_goofspiel
>>> folder = tempfile.mkdtemp()
>>> sol = solve_goofspiel(5, checkpoint=folder)
>>> again = open_layer_folder(folder, num_cards=5, objective="points", ties="discard")
>>> again.value([1, 4], [2, 3], [1, 4]) == sol.value([1, 4], [2, 3], [1, 4])
True
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np

from ..errors import GopsError

FORMAT = "gopskit-goofspiel-layers"
FORMAT_VERSION = 1


class LayerFolderError(GopsError):
    """A layer folder belongs to other options, is damaged or is incomplete."""


class LayerFolder:
    """The files of one solve: ``meta.json`` and ``values_J.npy`` per finished layer."""

    def __init__(self, path, num_cards: int, objective: str, ties: str, sizes: list[int]):
        self.path = Path(path)
        self.options = {"num_cards": int(num_cards), "objective": objective, "ties": ties}
        self.sizes = [int(s) for s in sizes]
        self.meta = self._read_or_create()

    def _meta_path(self) -> Path:
        return self.path / "meta.json"

    def _read_or_create(self) -> dict:
        if self._meta_path().exists():
            try:
                meta = json.loads(self._meta_path().read_text())
            except (OSError, ValueError) as exc:
                raise LayerFolderError(f"{self.path} has no readable meta.json ({exc})") from None
            if meta.get("format") != FORMAT or meta.get("version") != FORMAT_VERSION:
                raise LayerFolderError(f"{self.path} is not a gopskit layer folder of version {FORMAT_VERSION}")
            theirs = {k: meta.get(k) for k in self.options}
            if theirs != self.options:
                raise LayerFolderError(f"{self.path} holds a solve of {theirs}, not {self.options}: "
                                       "use another folder or delete this one")
            return meta
        try:
            self.path.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise LayerFolderError(f"cannot create {self.path}: {exc.strerror or exc}") from None
        meta = {"format": FORMAT, "version": FORMAT_VERSION, **self.options, "layers_done": 0,
                "layers": len(self.sizes), "stats": {}, "layer_seconds": []}
        self._write_meta(meta)
        return meta

    def _write_meta(self, meta: dict) -> None:
        tmp = self._meta_path().with_suffix(".json.tmp")
        tmp.write_text(json.dumps(meta, indent=1))
        os.replace(tmp, self._meta_path())

    def _layer_path(self, j: int) -> Path:
        return self.path / f"values_{j}.npy"

    @property
    def layers_done(self) -> int:
        """How many layers, from the empty hands up, are on disk whole."""
        done = 0
        for j in range(min(int(self.meta.get("layers_done", 0)), len(self.sizes))):
            if not self._layer_path(j).exists():
                break
            done = j + 1
        return done

    @property
    def complete(self) -> bool:
        return self.layers_done == len(self.sizes)

    def load(self, j: int, in_memory: bool = False) -> np.ndarray:
        """Layer ``j``'s values: read into memory, or mapped read-only from the file."""
        try:
            values = np.load(self._layer_path(j), mmap_mode=None if in_memory else "r", allow_pickle=False)
        except (OSError, ValueError) as exc:
            raise LayerFolderError(f"{self._layer_path(j)} is damaged ({exc}): delete it to solve it again") from None
        if values.shape != (self.sizes[j],) or values.dtype != np.float64:
            raise LayerFolderError(f"{self._layer_path(j)} has {values.shape} {values.dtype} values, "
                                   f"not {self.sizes[j]} float64: delete it to solve it again")
        return np.asarray(values)

    def write(self, j: int, values: np.ndarray, stats: dict, seconds: float) -> None:
        """Store finished layer ``j`` (atomically) and the statistics so far."""
        tmp = self.path / f"values_{j}.tmp.npy"
        np.save(tmp, np.ascontiguousarray(values, dtype=np.float64))
        os.replace(tmp, self._layer_path(j))
        layer_seconds = list(self.meta.get("layer_seconds", []))[:j] + [round(float(seconds), 3)]
        self.meta.update(layers_done=j + 1, stats=stats, layer_seconds=layer_seconds)
        self._write_meta(self.meta)


_LAYER_ARRAYS = ("codes", "child", "outcome", "swap", "masks", "prize_sums")


def save_tables(path, tables) -> None:
    """Store the index tables beside the values, so opening the solution need not rebuild them.

    Rebuilding the 13-card tables takes seconds; mapping them from these
    files takes none (the bot's first move must come within a second).
    """
    path = Path(path)
    for layer in tables.layers:
        for name in _LAYER_ARRAYS:
            tmp = path / f"tables_{layer.hand_size}_{name}.tmp.npy"
            np.save(tmp, getattr(layer, name))
            os.replace(tmp, path / f"tables_{layer.hand_size}_{name}.npy")
    np.save(path / "tables_rank_of_mask.tmp.npy", tables.rank_of_mask)
    os.replace(path / "tables_rank_of_mask.tmp.npy", path / "tables_rank_of_mask.npy")


def _stored_tables(path: Path, num_cards: int):
    """The tables saved by :func:`save_tables`, mapped from disk; None if any file is missing or wrong."""
    from ._exact_tables import Layer, Tables

    try:
        layers = []
        for j in range(num_cards + 1):
            arrays = {name: np.asarray(np.load(path / f"tables_{j}_{name}.npy", mmap_mode="r", allow_pickle=False))
                      for name in _LAYER_ARRAYS}
            if arrays["child"].shape[0] != len(arrays["codes"]) or len(arrays["masks"]) != len(arrays["prize_sums"]):
                return None
            layers.append(Layer(j, **arrays))
        rank = np.asarray(np.load(path / "tables_rank_of_mask.npy", mmap_mode="r", allow_pickle=False))
    except (OSError, ValueError):
        return None
    return Tables(tuple(range(1, num_cards + 1)), num_cards, tuple(layers), rank)


def _unfinished(path: Path, done: int, layers: int, num_cards: int) -> LayerFolderError:
    return LayerFolderError(f"{path} is an unfinished solve ({done} of {layers} layers): "
                            f"run 'gopskit solve --cards {num_cards} --checkpoint {path}' to finish it")


def open_layer_folder(path, num_cards=None, objective=None, ties=None):
    """The complete solution in ``path``, its layers mapped from disk (a :class:`GoofspielSolution`)."""
    from ._exact_engine import LayeredSolution, SolveStats
    from ._exact_tables import full_game_tables
    from .exact import GoofspielSolution, check_options

    path = Path(path)
    try:
        meta = json.loads((path / "meta.json").read_text())
    except (OSError, ValueError) as exc:
        raise LayerFolderError(f"{path} is not a solution folder (no readable meta.json: {exc})") from None
    for key, wanted in (("num_cards", num_cards), ("objective", objective), ("ties", ties)):
        if wanted is not None and meta.get(key) != wanted:
            raise LayerFolderError(f"{path} solves {meta.get('num_cards')} cards, objective={meta.get('objective')!r}, "
                                   f"ties={meta.get('ties')!r}; asked for {key}={wanted!r}")
    check_options(meta.get("num_cards"), meta.get("objective"), meta.get("ties"))
    layers = meta["num_cards"] + 1
    if int(meta.get("layers_done", 0)) < layers:  # refused before any table is built (a minute or more at 13 cards)
        raise _unfinished(path, int(meta.get("layers_done", 0)), layers, meta["num_cards"])
    tables = _stored_tables(path, meta["num_cards"])
    if tables is None:
        tables = full_game_tables(meta["num_cards"])
        try:
            save_tables(path, tables)
        except OSError:
            pass  # a read-only folder: rebuild the tables each time
    engine = LayeredSolution(tables, meta["objective"], meta["ties"], allocate=False)
    folder = LayerFolder(path, meta["num_cards"], meta["objective"], meta["ties"], engine.layer_sizes())
    if not folder.complete:
        raise _unfinished(path, folder.layers_done, len(folder.sizes), meta["num_cards"])
    engine.values = [folder.load(j) for j in range(len(folder.sizes))]
    engine.stats = SolveStats(**meta.get("stats", {}))
    return GoofspielSolution(engine, meta["num_cards"])


__all__ = ["LayerFolder", "LayerFolderError", "open_layer_folder", "save_tables"]
