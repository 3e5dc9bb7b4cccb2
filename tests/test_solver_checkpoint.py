"""Checkpointed solves: every finished layer on disk, a cut-off solve resumes, the folder is the solution."""

from __future__ import annotations

import doctest
import json
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

from gopskit.solvers import layer_folder, solve_goofspiel, storage
from gopskit.solvers.layer_folder import LayerFolderError, open_layer_folder


class _CutOff(Exception):
    pass


class _BarThatDies:
    """A progress bar that cuts the solve off after ``calls`` updates, like Ctrl-C would."""

    def __init__(self, calls):
        self.calls = calls

    def update(self, _work):
        self.calls -= 1
        if self.calls < 0:
            raise _CutOff


def _same_values(a, b):
    assert len(a.engine.values) == len(b.engine.values)
    for u, v in zip(a.engine.values, b.engine.values):
        np.testing.assert_array_equal(np.asarray(u), np.asarray(v))


@pytest.fixture(scope="module")
def fresh7():
    """The compiled engine's solve (a thread count given, so small decks do not take the numpy path)."""
    return solve_goofspiel(7, threads=1)


def test_a_solve_cut_off_resumes_and_finishes_identical(tmp_path, monkeypatch, fresh7):
    from gopskit.solvers import _exact_engine

    folder = tmp_path / "gops7"
    real = _exact_engine.solve_layers

    def cut_off_after(calls):
        def solve_layers(*args, **kwargs):
            return real(*args, **{**kwargs, "progress": _BarThatDies(calls)})
        return solve_layers

    from gopskit.solvers import exact
    monkeypatch.setattr(exact, "solve_layers", cut_off_after(4))
    with pytest.raises(_CutOff):
        solve_goofspiel(7, checkpoint=folder)
    meta = json.loads((folder / "meta.json").read_text())
    assert 1 <= meta["layers_done"] < 8 and len(meta["layer_seconds"]) == meta["layers_done"]
    done = meta["layers_done"]
    monkeypatch.setattr(exact, "solve_layers", real)
    resumed = solve_goofspiel(7, checkpoint=folder)
    assert resumed.stats.resumed_from == done
    _same_values(resumed, fresh7)
    assert resumed.stats.games == fresh7.stats.games and resumed.stats.pure == fresh7.stats.pure
    again = solve_goofspiel(7, checkpoint=folder)  # complete: nothing left to solve
    assert again.stats.resumed_from == 8 and again.stats.games == fresh7.stats.games


def test_the_folder_is_the_solution_mapped_from_disk(tmp_path, fresh7):
    folder = tmp_path / "gops7"
    solve_goofspiel(7, checkpoint=folder)
    sol = open_layer_folder(folder, num_cards=7, objective="points", ties="discard")
    assert isinstance(sol.engine.values[5].base, np.memmap) or not sol.engine.values[5].flags.owndata
    _same_values(sol, fresh7)
    position = ([1, 3, 6], [2, 4, 7], [3, 5, 6])
    assert sol.value(*position) == fresh7.value(*position)
    assert sol.policy(*position, prize=6) == fresh7.policy(*position, prize=6)


def test_opening_stores_the_index_tables_and_maps_them_next_time(tmp_path):
    from gopskit.solvers._exact_tables import full_game_tables

    folder = tmp_path / "gops6"
    solve_goofspiel(6, checkpoint=folder)
    assert not list(folder.glob("tables_*"))
    first = open_layer_folder(folder)
    assert (folder / "tables_6_child.npy").exists() and (folder / "tables_rank_of_mask.npy").exists()
    again = open_layer_folder(folder)
    built = full_game_tables(6)
    for mapped, fresh in zip(again.engine.tables.layers, built.layers):
        np.testing.assert_array_equal(mapped.child, fresh.child)
        np.testing.assert_array_equal(mapped.codes, fresh.codes)
    assert again.policy([1, 3, 6], [2, 4, 5], [1, 2, 6], prize=6) == first.policy([1, 3, 6], [2, 4, 5], [1, 2, 6], prize=6)
    np.save(folder / "tables_3_child.npy", np.zeros((2, 3, 3), dtype=np.int32))  # damaged: rebuilt, not trusted
    assert open_layer_folder(folder).value([1, 3, 6], [2, 4, 5], [1, 2, 6]) == first.value([1, 3, 6], [2, 4, 5], [1, 2, 6])


def test_a_folder_for_other_options_or_damaged_is_refused(tmp_path):
    folder = tmp_path / "gops4"
    solve_goofspiel(4, checkpoint=folder)
    with pytest.raises(LayerFolderError, match="holds a solve of .*'num_cards': 4.* not .*'num_cards': 5"):
        solve_goofspiel(5, checkpoint=folder)
    with pytest.raises(LayerFolderError, match="asked for objective='win'"):
        open_layer_folder(folder, objective="win")
    np.save(folder / "values_3.npy", np.zeros(7))
    with pytest.raises(LayerFolderError, match="values_3.npy has .* values, not .* float64: delete it"):
        open_layer_folder(folder)
    meta = json.loads((folder / "meta.json").read_text())
    meta["layers_done"] = 2
    (folder / "meta.json").write_text(json.dumps(meta))
    with pytest.raises(LayerFolderError, match="unfinished solve .*2 of 5 layers.*gopskit solve --cards 4 --checkpoint"):
        open_layer_folder(folder)


def test_an_unfinished_folder_is_refused_before_its_tables_are_built(tmp_path):
    folder = tmp_path / "gops5"
    solve_goofspiel(5, checkpoint=folder)
    for table in folder.glob("tables_*.npy"):
        table.unlink()
    meta = json.loads((folder / "meta.json").read_text())
    meta["layers_done"] = 3
    (folder / "meta.json").write_text(json.dumps(meta))
    with pytest.raises(LayerFolderError, match="unfinished solve .*3 of 6 layers"):
        open_layer_folder(folder)
    assert not list(folder.glob("tables_*.npy"))


def test_cli_killed_mid_solve_resumes_where_it_stopped(tmp_path, fresh7):
    folder = tmp_path / "gops9"
    command = [sys.executable, "-m", "gopskit.cli", "solve", "--cards", "9", "--quiet", "--checkpoint", str(folder)]
    child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 240

    def layers_done():  # meta.json is replaced atomically, after the layer's own file
        try:
            return json.loads((folder / "meta.json").read_text())["layers_done"]
        except (OSError, ValueError, KeyError):
            return 0

    while layers_done() < 6 and child.poll() is None and time.monotonic() < deadline:
        time.sleep(0.005)
    child.send_signal(signal.SIGKILL)
    child.communicate()
    done = json.loads((folder / "meta.json").read_text())["layers_done"]
    assert 6 <= done < 10, "the child was killed before or after the middle layers"
    finished = subprocess.run(command, capture_output=True, text=True, timeout=600)
    assert finished.returncode == 0, finished.stderr
    assert f"resumed at hands of {done} cards" in finished.stdout
    assert f"Solution folder: {folder}" in finished.stdout
    whole = solve_goofspiel(9)
    _same_values(open_layer_folder(folder), whole)


def test_cached_solution_finds_a_layer_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("GOPSKIT_CACHE", str(tmp_path))
    monkeypatch.setattr(storage, "_MEMORY", {})
    assert storage.find_solution(5) is None
    solve_goofspiel(5, checkpoint=tmp_path / storage.layer_folder_name(5, "points", "discard"))
    found = storage.find_solution(5)
    assert found is not None and found.value([2], [1], [4]) == 4.0
    assert storage.cached_solution(5) is found


def test_module_examples():
    assert doctest.testmod(layer_folder).failed == 0
