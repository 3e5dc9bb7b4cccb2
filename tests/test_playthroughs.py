"""Every saved playthrough still plays out line for line."""

import difflib
import pathlib

import pytest

from gopskit.games.playthrough import read_header, render_playthrough

FILES = sorted((pathlib.Path(__file__).parent / "playthroughs").glob("*.txt"))


def test_there_are_playthroughs():
    assert len(FILES) >= 3


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_playthrough_unchanged(path):
    saved = path.read_text(encoding="utf-8").splitlines()
    fresh = render_playthrough(*read_header(path))
    if fresh != saved:
        diff = "\n".join(list(difflib.unified_diff(saved, fresh, "saved", "now", lineterm=""))[:60])
        pytest.fail(f"{path.name} changed (regenerate with --update if the change is intended):\n{diff}")
