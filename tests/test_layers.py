"""The layers of docs/architecture.md: the engine never pulls in a UI or plotting library."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

UI = ("ipywidgets", "matplotlib", "IPython.display", "voila")


def _modules_after(statement: str) -> set[str]:
    code = f"import sys, json; {statement}; print(json.dumps(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    return set(json.loads(out))


@pytest.mark.parametrize("statement", [
    "import gopskit.games",
    "import gopskit",
    "from gopskit.games import available_games, make_rules; [make_rules(g) for g in available_games()]",
])
def test_engine_imports_no_ui_library(statement):
    loaded = _modules_after(statement)
    leaked = sorted(m for m in loaded for ui in UI if m == ui or m.startswith(ui + "."))
    assert not leaked, f"`{statement}` imported {leaked}"


def test_rendering_functions_need_no_ipywidgets():
    loaded = _modules_after("import gopskit.widgets.cards, gopskit.widgets.views, gopskit.viz.svg")
    assert "ipywidgets" not in loaded and "matplotlib" not in loaded


def test_only_the_widgets_package_imports_ipywidgets():
    from pathlib import Path

    import gopskit

    root = Path(gopskit.__file__).parent
    offenders = [
        str(path.relative_to(root)) for path in root.rglob("*.py")
        if "import ipywidgets" in path.read_text(encoding="utf-8") and path.relative_to(root).parts[0] != "widgets"
    ]
    assert not offenders, f"ipywidgets imported outside gopskit/widgets: {offenders}"
