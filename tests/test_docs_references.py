"""The project points at its own docs: no reference to design notes that live outside it."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUTSIDE = re.compile(r"DESIGN\.md|STYLE\.md|GAMES\.md|\.\./shared|/work/shared")


def tracked_text_files() -> list[Path]:
    names = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    keep = (".py", ".md", ".ipynb", ".txt", ".toml", ".cfg", ".j2", ".html", ".sh", ".json")
    return [ROOT / n for n in names if n.endswith(keep) and n != "tests/test_docs_references.py"]


def test_no_file_cites_design_notes_outside_the_project():
    found = []
    for path in tracked_text_files():
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        found += [f"{path.relative_to(ROOT)}:{text.count(chr(10), 0, m.start()) + 1}" for m in OUTSIDE.finditer(text)]
    assert not found, "point these at docs/architecture.md instead: " + ", ".join(found)


def test_the_architecture_page_covers_the_interfaces_others_rely_on():
    page = (ROOT / "docs" / "architecture.md").read_text()
    for needed in ("## Layers", "## The game protocol", "## Game records", "solve_goofspiel", ".value(", ".policy(",
                   "play_many", "gopskit-card", "gopskit-status", "gopskit-new-game", "gopskit-confirm"):
        assert needed in page, needed
