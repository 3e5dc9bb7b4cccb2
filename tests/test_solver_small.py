"""The numba-free solver for small decks gives the compiled engine's solution, and the cold start stays cold.

``gopskit solve`` on a small deck must never load numba (half a second, more
than the solve): these tests compare the small path with the compiled
engine value by value and count by count, and run the command in a fresh
process to check what it imported.
"""

from __future__ import annotations

import doctest
import json
import re
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from gopskit.solvers import _small, _small_lp
from gopskit.solvers._exact_engine import solve_layers
from gopskit.solvers._exact_lp import solve_game_gap
from gopskit.solvers._exact_tables import full_game_tables
from gopskit.solvers._small import plain_game_tables, solve_small, turn_games
from gopskit.solvers._small_layers import LayeredSolution
from gopskit.solvers.exact import solve_goofspiel
from gopskit.solvers.storage import load_solution

OPTIONS = [(o, t) for o in ("points", "win") for t in ("discard", "carry")]
COUNTS = ("positions", "games", "pure", "simplex", "highs", "exact", "failed")
# Every objective and tie rule up to 6 cards; at 7 all but win/carry (5 million turn games: seconds of numpy,
# and solve_goofspiel sends it to the compiled engine anyway); at 8 the one solve_goofspiel sends here.
CASES = [(n, o, t) for n in range(1, 7) for o, t in OPTIONS] + [
    (7, "points", "discard"), (7, "points", "carry"), (7, "win", "discard"), (8, "points", "discard")]


def _assert_same_solution(small, compiled):
    assert len(small.values) == len(compiled.values)
    for j, (u, v) in enumerate(zip(small.values, compiled.values)):
        assert u.shape == v.shape and not np.isnan(u).any(), j
        np.testing.assert_allclose(u, v, rtol=0, atol=1e-12, err_msg=f"layer {j}")
    for name in COUNTS:
        assert getattr(small.stats, name) == getattr(compiled.stats, name), name
    assert small.stats.settled == compiled.stats.settled


@pytest.mark.parametrize("cards, objective, ties", CASES)
def test_the_small_path_gives_the_compiled_values_and_counts(cards, objective, ties):
    small = solve_small(plain_game_tables(cards), objective, ties)
    compiled = solve_layers(full_game_tables(cards), objective, ties, threads=1)
    _assert_same_solution(small, compiled)
    assert small.stats.games > 0 or cards == 1


@pytest.mark.parametrize("cards", range(1, 10))
def test_tables_built_without_numba_are_the_compiled_ones(cards):
    plain, compiled = plain_game_tables(cards), full_game_tables(cards)
    assert plain.prize_values == compiled.prize_values and plain.max_length == compiled.max_length
    np.testing.assert_array_equal(plain.rank_of_mask, compiled.rank_of_mask)
    for a, b in zip(plain.layers, compiled.layers):
        for field in ("codes", "child", "outcome", "swap", "masks", "prize_sums"):
            x, y = getattr(a, field), getattr(b, field)
            assert x.dtype == y.dtype, field
            np.testing.assert_array_equal(x, y, err_msg=field)


@pytest.mark.parametrize("cards, objective, ties", [(4, "points", "discard"), (4, "win", "carry"),
                                                    (4, "points", "carry"), (3, "win", "discard")])
@pytest.mark.parametrize("methods", [("highs", "exact"), ("exact",)])
def test_a_forced_certificate_failure_goes_down_the_chain_counted_as_the_compiled_engine(
        cards, objective, ties, methods):
    """A negative gap fails every simplex certificate (as tests/test_solver_certify.py forces the compiled one)."""
    small = solve_small(plain_game_tables(cards), objective, ties, gap=-1.0, methods=methods)
    compiled = solve_layers(full_game_tables(cards), objective, ties, gap=-1.0, methods=methods, threads=1)
    _assert_same_solution(small, compiled)
    normal = solve_small(plain_game_tables(cards), objective, ties)
    assert small.stats.simplex == 0 and small.stats.certified
    assert getattr(small.stats, methods[0]) > 0 and small.stats.highs + small.stats.exact >= normal.stats.simplex
    assert small.stats.settled[0][-1] == methods[0]


@pytest.mark.parametrize("size", range(1, 8))
def test_the_batched_simplex_repeats_the_compiled_solver(size):
    rng = np.random.default_rng(size)
    stacks = [rng.normal(size=(300, size, size)),
              rng.integers(-2, 3, size=(300, size, size)).astype(float)]  # degenerate: ties everywhere
    for M in stacks:
        for gap in (1e-10, -1.0):
            value, status, x, y = _small_lp.solve_games(M, gap)
            for g in range(len(M)):
                xx, yy = np.zeros(size), np.zeros(size)
                T, labels = np.zeros((size + 1, size + 1)), np.zeros(2 * size, dtype=np.int64)
                v, s = solve_game_gap(M[g], size, size, xx, yy, T, labels, gap)
                assert s == status[g]
                if s != _small_lp.STATUS_FAILED:
                    assert abs(v - value[g]) <= 1e-12 and np.abs(xx - x[g]).max() <= 1e-12
                    assert np.abs(yy - y[g]).max() <= 1e-12


def test_a_turn_game_without_numba_is_the_compiled_one():
    engine = solve_small(plain_game_tables(5), "win", "carry")
    for j, q, pattern, t, lead, pot in [(5, 0, 0, 4, 0, 0), (3, 4, 7, 2, 2, 1), (2, 3, 1, 1, -3, 2)]:
        if not int(engine.tables.layers[j].masks[q]) >> t & 1:
            continue
        plain = engine._turn_matrix(j, q, pattern, t, lead, pot, compiled=False)
        compiled = engine._turn_matrix(j, q, pattern, t, lead, pot, compiled=True)
        np.testing.assert_array_equal(plain, compiled)
        value, x, y, method = _small_lp.solve_certified(plain)
        lower, upper = float((x @ plain).min()), float((plain @ y).max())
        assert method == "compiled" and lower - 1e-12 <= value <= upper + 1e-12


def test_solve_goofspiel_takes_the_small_path_only_where_it_is_faster():
    assert _small.small_enough(6, "points", "discard") and _small.small_enough(6, "win", "discard")
    assert _small.small_enough(8, "points", "discard") and not _small.small_enough(13, "points", "discard")
    assert not _small.small_enough(6, "win", "carry") and not _small.small_enough(7, "points", "carry")
    for cards, objective, ties in [(5, "win", "carry"), (6, "points", "discard")]:
        small = solve_goofspiel(cards, objective, ties)  # the small path (no threads, no checkpoint)
        compiled = solve_goofspiel(cards, objective, ties, threads=1)  # threads asked: the compiled engine
        _assert_same_solution(small.engine, compiled.engine)
        full = range(1, cards + 1)
        assert small.policy(full, full, full, prize=cards) == pytest.approx(
            compiled.policy(full, full, full, prize=cards), abs=1e-12)


def test_the_estimate_of_turn_games_is_close_to_the_count():
    for cards, objective, ties in CASES[::5]:
        counted = solve_small(plain_game_tables(cards), objective, ties).stats.games
        assert counted <= turn_games(cards, objective, ties) <= 1.2 * counted + 20


@pytest.mark.parametrize("engine", ["numpy", "compiled"])
def test_work_reported_to_a_progress_bar_adds_up_to_the_total(engine):
    from gopskit.solvers._exact_engine import solve_layers
    from gopskit.solvers._exact_tables import full_game_tables
    from gopskit.solvers._small_layers import total_work

    class Counter:
        done = 0

        def update(self, work):
            self.done += work

    tables = plain_game_tables(5) if engine == "numpy" else full_game_tables(5)
    solve = solve_small if engine == "numpy" else solve_layers
    counter = Counter()
    solve(tables, "win", "discard", progress=counter)
    assert counter.done == total_work(LayeredSolution(tables, "win", "discard", allocate=False)) > 0


def test_docstring_examples():
    assert doctest.testmod(_small_lp).failed == 0


# ------------------------------------------------------- a fresh process ---
_DRIVER = textwrap.dedent("""
    import json, sys
    from gopskit.cli import main
    code = main(sys.argv[1:])
    watched = ("numba", "scipy", "tqdm", "llvmlite", "gopskit.solvers._exact_kernel", "gopskit.solvers._exact_lp",
               "gopskit.solvers._exact_engine", "gopskit.classroom", "gopskit.arena", "psycopg")
    print(json.dumps({"code": code, "loaded": sorted(m for m in watched if m in sys.modules)}))
""")


def _run_cli(*args, env_cache):
    env = {**__import__("os").environ, "GOPSKIT_CACHE": str(env_cache)}
    result = subprocess.run([sys.executable, "-c", _DRIVER, *args], capture_output=True, text=True, env=env,
                            timeout=300)
    assert result.returncode == 0, result.stderr
    *lines, last = result.stdout.strip().splitlines()
    return lines, json.loads(last)


_COUNTS_LINE = r"  positions: ([\d,]+)  turn games: ([\d,]+) \(pure saddle ([\d,]+), (?:simplex|mixed) ([\d,]+)"


def _report(lines):
    """The report lines that do not depend on the clock, the machine's memory or how mixed games were solved.

    The counts line keeps its numbers: the compiled engine also says how many mixed games it
    settled on a neighbour's support (``SolveStats.support``), which the small path never tries.
    """
    kept = []
    for line in lines:
        if "seconds solving" in line:
            continue
        counts = re.match(_COUNTS_LINE, line)
        kept.append(counts.groups() if counts else line)
    return kept


@pytest.mark.parametrize("cards, objective, ties", [(6, "points", "discard"), (5, "win", "carry")])
def test_gopskit_solve_on_a_small_deck_never_loads_numba_and_reports_what_the_compiled_engine_does(
        tmp_path, cards, objective, ties):
    small_file, compiled_file = tmp_path / "small.npz", tmp_path / "compiled.npz"
    common = ["solve", "--cards", str(cards), "--objective", objective, "--ties", ties, "--quiet"]
    lines, seen = _run_cli(*common, "--out", str(small_file), env_cache=tmp_path)
    assert seen == {"code": 0, "loaded": []}, f"the small path imported {seen['loaded']}"
    compiled_lines, seen = _run_cli(*common, "--threads", "1", "--out", str(compiled_file), env_cache=tmp_path)
    assert "numba" in seen["loaded"]  # --threads asks for the compiled engine: the check above can fail
    assert _report(lines) == _report([line.replace("compiled.npz", "small.npz") for line in compiled_lines])
    assert re.fullmatch(r"  positions: [\d,]+  turn games: [\d,]+ \(pure saddle [\d,]+, simplex [\d,]+\)", lines[1])
    small, compiled = load_solution(small_file), load_solution(compiled_file)
    _assert_same_solution(small.engine, compiled.engine)
    with np.load(small_file) as a, np.load(compiled_file) as b:
        assert sorted(a.files) == sorted(b.files)
        meta_a, meta_b = json.loads(str(a["meta"])), json.loads(str(b["meta"]))
        for meta in (meta_a, meta_b):
            for key in ("seconds", "wall_seconds", "support"):
                meta["stats"].pop(key)
        assert meta_a == meta_b


def test_a_saved_small_solution_is_loaded_and_played_without_numba(tmp_path):
    path = tmp_path / "gops5.npz"
    _lines, seen = _run_cli("solve", "--cards", "5", "--quiet", "--out", str(path), env_cache=tmp_path)
    assert seen["loaded"] == []
    script = textwrap.dedent(f"""
        import json, sys
        from gopskit.solvers import load_solution
        sol = load_solution({str(path)!r})
        policy = sol.policy([1, 3, 5], [2, 4, 5], [1, 2, 5], prize=5)
        print(json.dumps({{"policy": policy, "numba": "numba" in sys.modules, "scipy": "scipy" in sys.modules}}))
    """)
    out = json.loads(subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                                    check=True, timeout=120).stdout)
    assert out["numba"] is False and out["scipy"] is False
    expected = solve_goofspiel(5, threads=1).policy([1, 3, 5], [2, 4, 5], [1, 2, 5], prize=5)
    assert {int(k): v for k, v in out["policy"].items()} == pytest.approx(expected, abs=1e-12)


def test_the_cli_registers_only_the_plugin_a_command_needs_yet_help_lists_them_all():
    from gopskit.cli import build_parser

    full = build_parser()
    commands = set(full._subparsers._group_actions[0].choices)
    assert {"serve", "replay", "play", "solve"} <= commands and len(commands) > 4
    script = ("import sys; from gopskit.cli import build_parser; "
              "p = build_parser('solve'); print('gopskit.classroom' in sys.modules, 'gopskit.arena' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=60)
    assert out.stdout.split() == ["False", "False"]


def test_a_solution_asked_many_turn_games_switches_to_the_compiled_kernels_with_the_same_answers(monkeypatch):
    """Past ``_PLAIN_TURN_GAMES`` turn games (a bot playing on) the compiled kernels are worth loading."""
    from gopskit.solvers import _small_layers

    sol = solve_goofspiel(4, "win", "discard")
    position = ([1, 3, 4], [2, 3, 4], [1, 2, 4])
    monkeypatch.setattr(_small_layers, "kernels_loaded", lambda: False)
    monkeypatch.setattr(_small_layers, "_plain_calls", 0)
    plain = sol.policy(*position, prize=4, lead=1)
    assert _small_layers._plain_calls == 1
    monkeypatch.setattr(_small_layers, "_plain_calls", _small_layers._PLAIN_TURN_GAMES)
    compiled = sol.policy(*position, prize=4, lead=1)
    assert _small_layers._use_compiled()
    assert plain == pytest.approx(compiled, abs=1e-12) and sum(plain.values()) == pytest.approx(1.0)
