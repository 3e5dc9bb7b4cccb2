"""A fresh environment built from ``binder/`` the way repo2docker builds it runs a lesson.

repo2docker, for a repository with ``binder/requirements.txt`` and
``binder/postBuild``, starts from its base Python environment (Python from
``runtime.txt``, with pip, setuptools and wheel), installs the requirements,
then runs ``postBuild``. This test does the same, honestly:

1. a new virtual environment **without** the system's or the kit's packages;
2. the base tools repo2docker's image has (``setuptools>=68``, ``wheel``);
3. ``pip install -r binder/requirements.txt`` (from the configured package
   index and local wheels: no packages are borrowed from ``.venv``);
4. ``binder/postBuild`` in a copy of the working tree, with that
   environment first on ``PATH``;
5. a lesson notebook executed top to bottom by that environment's own
   Jupyter kernel, from a folder where ``gopskit`` can only come from the
   installed package (so package data and the sandbox's worker script are
   checked too).

It takes one to three minutes, most of it in pip; it is marked ``slow``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LESSON = "05-class-tournament.ipynb"  # the lesson that needs the most of the package: data file, sandbox, solvers
IGNORE = shutil.ignore_patterns(".venv", ".git", "__pycache__", ".pytest_cache", ".hypothesis", "*.egg-info",
                                "build", "dist", "test-artifacts", "solutions-cache", ".ipynb_checkpoints")

pytestmark = pytest.mark.slow


def _run(command, cwd, env, timeout, what):
    result = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    if result.returncode != 0:
        tail = "\n".join((result.stdout + result.stderr).splitlines()[-30:])
        pytest.fail(f"{what} failed (exit {result.returncode}):\n{tail}", pytrace=False)
    return result.stdout


def test_fresh_binder_environment_runs_a_lesson(tmp_path):
    venv = tmp_path / "venv"
    python = venv / "bin" / "python"
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME")}
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    env["GOPSKIT_CACHE"] = str(tmp_path / "cache")  # solutions are solved afresh, as on a new Binder
    env["JUPYTER_PLATFORM_DIRS"] = "1"

    _run([sys.executable, "-m", "venv", str(venv)], tmp_path, env, 120, "creating the virtual environment")
    _run([str(python), "-m", "pip", "install", "--quiet", "setuptools>=68", "wheel"], tmp_path, env, 600,
         "installing repo2docker's base tools")
    _run([str(python), "-m", "pip", "install", "--quiet", "-r", str(ROOT / "binder" / "requirements.txt")],
         tmp_path, env, 900, "pip install -r binder/requirements.txt")

    repo = tmp_path / "repo"
    shutil.copytree(ROOT, repo, ignore=IGNORE)
    _run(["bash", str(repo / "binder" / "postBuild")], repo, env, 600, "binder/postBuild")

    outside = tmp_path / "elsewhere"
    outside.mkdir()
    where = _run([str(python), "-c", "import gopskit; print(gopskit.__file__)"], outside, env, 120, "import gopskit")
    assert str(venv) in where, f"gopskit was imported from {where.strip()}, not from the fresh environment"
    assert "--system-site-packages" not in (venv / "pyvenv.cfg").read_text()
    assert "include-system-site-packages = false" in (venv / "pyvenv.cfg").read_text()

    notebook = shutil.copy(repo / "lessons" / LESSON, outside / LESSON)
    script = textwrap.dedent(f"""
        import nbformat
        from nbclient import NotebookClient
        nb = nbformat.read({str(notebook)!r}, as_version=4)
        nb.cells.append(nbformat.v4.new_code_cell("import sys, gopskit; print('kernel:', sys.executable, gopskit.__file__)"))
        NotebookClient(nb, timeout=300, kernel_name="python3", resources={{"metadata": {{"path": {str(outside)!r}}}}}).execute()
        errors = [o for c in nb.cells for o in c.get("outputs", []) if o.get("output_type") == "error"]
        assert not errors, errors
        print("cells run:", sum(c.cell_type == "code" for c in nb.cells))
        print(nb.cells[-1].outputs[0]["text"])
    """)
    out = _run([str(python), "-c", script], outside, env, 600, f"running lessons/{LESSON}")
    kernel_line = next(line for line in out.splitlines() if line.startswith("kernel:"))
    assert str(venv) in kernel_line, f"the lesson ran in another Python: {kernel_line}"
    assert kernel_line.count(str(venv)) == 2, f"gopskit came from elsewhere: {kernel_line}"
