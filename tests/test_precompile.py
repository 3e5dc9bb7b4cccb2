"""Compiling the exact solver's kernels ahead of use (gopskit.solvers.precompile), as make, Binder and serve do."""

from __future__ import annotations

import subprocess
import sys

from gopskit import serve
from gopskit.solvers import precompile


def test_the_module_compiles_or_loads_every_kernel_and_says_so():
    done = subprocess.run([sys.executable, "-m", "gopskit.solvers.precompile"], capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 2 and lines[-1].startswith("gopskit: the exact solver is ready (")
    assert precompile.compiled()
    quiet = subprocess.run([sys.executable, "-m", "gopskit.solvers.precompile", "--quiet"], capture_output=True,
                           text=True, timeout=600)
    assert (quiet.returncode, quiet.stdout, quiet.stderr) == (0, "", "")


def test_serve_compiles_in_the_background_only_when_nothing_is_compiled(monkeypatch):
    monkeypatch.setattr(precompile, "compiled", lambda: True)
    assert serve.precompile_in_background() is None
    monkeypatch.setattr(precompile, "compiled", lambda: False)  # as after `pip install gopskit`
    process = serve.precompile_in_background()
    assert process is not None and process.args[1:] == ["-m", "gopskit.solvers.precompile", "--quiet"]
    assert process.wait(timeout=600) == 0


def test_compiled_looks_where_numba_keeps_its_cache(tmp_path, monkeypatch):
    """A read-only package folder makes numba cache elsewhere: compiled() asks numba where, not the package."""
    from gopskit.solvers._exact_kernel import solve_layer

    monkeypatch.setattr(solve_layer._cache, "_cache_path", str(tmp_path))
    assert not precompile.compiled()
    (tmp_path / "_exact_kernel.solve_layer-203.py311.nbi").write_bytes(b"")
    assert precompile.compiled()
