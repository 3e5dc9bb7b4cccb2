"""``gopskit serve``: where the apps are found and what Voila is told."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path

import nbformat
import pytest

from gopskit import serve
from gopskit.errors import GopsError
from gopskit.widgets.apps import APPS

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"


def test_notebooks_are_found_beside_the_package(monkeypatch):
    monkeypatch.delenv("GOPSKIT_NOTEBOOKS", raising=False)
    assert serve.notebooks_dir() == NOTEBOOKS


def test_the_environment_variable_wins(monkeypatch, tmp_path):
    (tmp_path / "index.ipynb").write_text("{}")
    monkeypatch.setenv("GOPSKIT_NOTEBOOKS", str(tmp_path))
    assert serve.notebooks_dir() == tmp_path


def test_missing_notebooks_say_where_they_were_looked_for(monkeypatch, tmp_path):
    monkeypatch.setenv("GOPSKIT_NOTEBOOKS", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(serve, "__file__", str(tmp_path / "pkg" / "serve.py"))
    with pytest.raises(GopsError, match="GOPSKIT_NOTEBOOKS"):
        serve.notebooks_dir()


def test_voila_hides_sources_and_tracebacks():
    argv = serve.voila_argv(NOTEBOOKS, port=9001, open_browser=False)
    assert argv[0] == str(NOTEBOOKS)
    for flag in ("--port=9001", "--strip_sources=True", "--show_tracebacks=False", "--Voila.open_browser=False"):
        assert flag in argv
    assert ("--preheat_kernel=True" in argv) == serve.PREHEAT
    assert "--preheat_kernel=True" not in serve.voila_argv(NOTEBOOKS, preheat=False)


@pytest.mark.parametrize("port", [0, 70000, "8866", True])
def test_bad_ports_are_refused(port):
    with pytest.raises(GopsError, match="port"):
        serve.voila_argv(NOTEBOOKS, port=port)


def test_every_app_has_a_notebook_and_the_index_links_it():
    names = {p.name for p in NOTEBOOKS.glob("*.ipynb")} - {"index.ipynb"}
    listed = {a.notebook for a in APPS}
    assert names <= listed, f"notebooks missing from the landing page: {names - listed}"
    mine = listed - {"tournament.ipynb"}  # the tournament app is written by its own module's owner
    assert mine <= names, f"apps without a notebook: {mine - names}"


@pytest.mark.parametrize("path", sorted(NOTEBOOKS.glob("*.ipynb")), ids=lambda p: p.name)
def test_notebooks_are_stored_clean_and_small(path):
    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None, "store notebooks without outputs"
            assert len(cell.source.splitlines()) <= 8, "notebooks arrange; logic lives in gopskit"


@pytest.mark.slow
def test_the_bare_address_redirects_to_the_index():
    with serve.background_server(preheat=False) as url:
        with urllib.request.urlopen(url + "/", timeout=30) as answer:
            assert answer.url.endswith("/voila/render/index.ipynb")
        with urllib.request.urlopen(url + "/voila/api/contents", timeout=10) as answer:
            listing = json.load(answer)
    assert any(item["name"] == "goofspiel.ipynb" for item in listing["content"])


def test_the_stored_index_matches_the_list_of_apps():
    from gopskit.widgets.apps import index_notebook

    stored = nbformat.read(NOTEBOOKS / "index.ipynb", as_version=4)
    assert stored.cells[0].source == index_notebook().cells[0].source, \
        "index.ipynb is out of date: run gopskit.widgets.apps.write_index('notebooks/index.ipynb')"


def test_serve_can_listen_on_the_classroom_network():
    from pathlib import Path

    from gopskit.serve import voila_argv

    assert "--Voila.ip=localhost" in voila_argv(Path("notebooks"), 8866, False)
    assert "--Voila.ip=0.0.0.0" in voila_argv(Path("notebooks"), 8866, False, host="0.0.0.0")
