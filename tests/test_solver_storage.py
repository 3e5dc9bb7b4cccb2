"""Saving, loading and caching exact solutions; the ``gopskit solve`` command."""

from __future__ import annotations

import doctest
import json

import numpy as np
import pytest

from gopskit.cli import main
from gopskit.solvers import solve_goofspiel, storage
from gopskit.solvers.storage import SolutionFileError, cached_solution, load_solution, save_solution


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("GOPSKIT_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(storage, "_MEMORY", {})
    return tmp_path / "cache"


@pytest.mark.parametrize("objective,ties", [("points", "discard"), ("win", "carry")])
def test_a_saved_solution_loads_identical(tmp_path, objective, ties):
    sol = solve_goofspiel(5, objective, ties)
    path = tmp_path / "five.npz"
    save_solution(sol, path)
    back = load_solution(path, num_cards=5, objective=objective, ties=ties)
    assert back.options() == sol.options()
    for a, b in zip(sol.engine.values, back.engine.values):
        np.testing.assert_array_equal(a, b)
    assert back.policy([1, 4, 5], [2, 3, 5], [1, 2, 5], 5) == sol.policy([1, 4, 5], [2, 3, 5], [1, 2, 5], 5)
    assert back.stats.games == sol.stats.games


@pytest.mark.parametrize("asked", [{"num_cards": 6}, {"objective": "win"}, {"ties": "carry"}])
def test_loading_for_other_options_is_refused(tmp_path, asked):
    path = tmp_path / "four.npz"
    save_solution(solve_goofspiel(4), path)
    with pytest.raises(SolutionFileError, match="solves 4 cards, objective='points', ties='discard'; asked for"):
        load_solution(path, **asked)


def _rewrite_meta(path, **changes):
    with np.load(path) as archive:
        arrays = {k: archive[k] for k in archive.files}
    meta = json.loads(str(arrays["meta"]))
    meta.update(changes)
    arrays["meta"] = np.array(json.dumps(meta))
    np.savez(path, **arrays)


def test_other_versions_and_damaged_files_are_refused(tmp_path):
    path = tmp_path / "three.npz"
    save_solution(solve_goofspiel(3), path)
    _rewrite_meta(path, version=99)
    with pytest.raises(SolutionFileError, match="version 99"):
        load_solution(path)
    _rewrite_meta(path, version=1, num_cards=4)  # arrays of 3 cards claimed as 4
    with pytest.raises(SolutionFileError, match="damaged"):
        load_solution(path)
    (tmp_path / "junk.npz").write_bytes(b"not a zip")
    with pytest.raises(SolutionFileError, match="cannot read"):
        load_solution(tmp_path / "junk.npz")
    with pytest.raises(SolutionFileError, match="cannot read"):
        load_solution(tmp_path / "missing.npz")


def test_the_cache_solves_once_then_reads_the_file(cache, monkeypatch):
    first = cached_solution(4, "win", "discard")
    assert (cache / "goofspiel-4-win-discard-v1.npz").exists()
    assert cached_solution(4, "win", "discard") is first
    monkeypatch.setattr(storage, "_MEMORY", {})
    monkeypatch.setattr(storage, "solve_goofspiel", lambda *a, **k: pytest.fail("solved again"))
    again = cached_solution(4, "win", "discard")
    np.testing.assert_array_equal(again.engine.values[4], first.engine.values[4])


def test_a_damaged_cache_file_is_solved_again(cache):
    cache.mkdir(parents=True)
    (cache / "goofspiel-3-points-discard-v1.npz").write_bytes(b"garbage")
    assert cached_solution(3).value([1, 3], [2, 3], [1, 2]) == pytest.approx(-1.0)


def test_gopskit_solve_writes_a_loadable_file(tmp_path, capsys):
    out = tmp_path / "g5.npz"
    assert main(["solve", "--cards", "5", "--objective", "win", "--out", str(out), "--quiet"]) == 0
    printed = capsys.readouterr().out
    assert "positions:" in printed and "turn games:" in printed and f"Saved to {out}" in printed
    assert load_solution(out, num_cards=5, objective="win", ties="discard").game_value == pytest.approx(0.0, abs=1e-12)


def test_gopskit_solve_defaults_to_the_cache(cache, capsys):
    assert main(["solve", "--cards", "3", "--ties", "carry", "--quiet"]) == 0
    assert (cache / "goofspiel-3-points-carry-v1.npz").exists()


@pytest.mark.parametrize("argv,message", [
    (["--cards", "14"], "from 1 to 13"),
    (["--objective", "lose"], "allowed: points, win"),
    (["--ties", "unique"], "discard or carry"),
    (["--out", "/no/such/folder/x.npz"], "does not exist"),
])
def test_gopskit_solve_bad_input_exits_2_with_one_line(argv, message, capsys):
    assert main(["solve", "--quiet", "--cards", "3", *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


def test_a_solve_too_big_for_the_machine_is_refused_before_any_work(tmp_path, capsys):
    """13 cards "win" with ties carried stores 473 billion values: no machine here holds them."""
    folder = tmp_path / "layers"
    argv = ["solve", "--quiet", "--cards", "13", "--objective", "win", "--ties", "carry", "--checkpoint", str(folder)]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("gopskit: 13 cards, objective=win, ties=carry needs ")
    assert "TiB of memory at once for its values" in err and "TiB on disk" in err and "the largest deck that fits" in err
    assert err.count("\n") == 1 and "Traceback" not in err and not folder.exists()


def test_what_a_solve_needs_is_its_layers_values(tmp_path):
    from gopskit.solvers._small import plain_game_tables
    from gopskit.solvers._small_layers import LayeredSolution, layer_value_counts
    from gopskit.solvers.cli import SolveTooBigError, check_fits, solve_needs

    for n, objective, ties in [(5, "points", "discard"), (6, "win", "carry"), (7, "win", "discard"), (8, "points", "carry")]:
        sizes = LayeredSolution(plain_game_tables(n), objective, ties, allocate=False).layer_sizes()
        assert layer_value_counts(n, objective, ties) == sizes
        assert solve_needs(n, objective, ties, checkpoint=False) == (8 * sum(sizes), 0)
        assert solve_needs(n, objective, ties, checkpoint=True) == (8 * max(map(sum, zip(sizes, sizes[1:]))), 8 * sum(sizes))
    gib = 2**30
    check_fits((13, "points", "discard"), None, memory=4 * gib)  # without a layer folder every layer is in memory
    with pytest.raises(SolveTooBigError, match=r"needs 2.5 GiB of memory at once for its values \(this machine has 2.0 GiB\)"):
        check_fits((13, "points", "discard"), None, memory=2 * gib)
    with pytest.raises(SolveTooBigError, match=r"1.7 GiB of memory.*the largest deck that fits here under these options is 12 cards"):
        check_fits((13, "points", "discard"), tmp_path, memory=2 * gib, disk=10 * gib)
    with pytest.raises(SolveTooBigError, match=r"needs 2.5 GiB on disk \(1.0 GiB free for"):
        check_fits((13, "points", "discard"), tmp_path, memory=8 * gib, disk=1 * gib)
    check_fits((13, "points", "discard"), tmp_path, memory=8 * gib, disk=3 * gib)


def test_docstring_examples():
    assert doctest.testmod(storage).failed == 0
