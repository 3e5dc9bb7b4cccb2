"""The project points at its own docs: no reference to design notes that live outside it."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUTSIDE = re.compile(r"DESIGN\.md|STYLE\.md|GAMES\.md|\.\./shared|/work/shared")


def tracked_text_files() -> list[Path]:
    """The project's text files: git's list, or (outside a git checkout) a walk that skips build folders."""
    keep = (".py", ".md", ".ipynb", ".txt", ".toml", ".cfg", ".j2", ".html", ".sh", ".json")
    listed = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True)
    if listed.returncode == 0:
        names = listed.stdout.split()
    else:
        skip = {".git", ".venv", "node_modules", "build", "dist", "__pycache__", ".ipynb_checkpoints"}
        names = [str(p.relative_to(ROOT)) for p in ROOT.rglob("*")
                 if p.is_file() and not skip & set(p.relative_to(ROOT).parts) and not p.name.endswith(".egg-info")]
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
