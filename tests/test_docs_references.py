"""The docs stand alone and match the code.

No reference to design notes that live outside the project, and every stale
reference a machine can catch is caught: a ``gopskit`` option its ``--help``
does not list, a command's list of actions, a benchmark or ``python -m``
module and its options, a project path or link, a kit name in backticks, the
size quoted for a shipped data file, and a section said to be above or below.
"""

from __future__ import annotations

import argparse
import builtins
import functools
import importlib
import importlib.util
import re
import subprocess
from pathlib import Path

import pytest

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


# --------------------------------------------------------------------------
# Stale references a machine can catch: every doc's commands, options, paths,
# names, file sizes and cross-references are checked against the code as it is.
# --------------------------------------------------------------------------
DOCS = ["README.md", "lessons/README.md", *sorted(str(p.relative_to(ROOT)) for p in (ROOT / "docs").rglob("*.md")),
        *sorted(str(p.relative_to(ROOT)) for p in (ROOT / "examples").glob("*/README.md")),
        *sorted(str(p.relative_to(ROOT)) for p in (ROOT / "binder").iterdir() if p.is_file())]
PROJECT_DIRS = ("benchmarks", "tests", "gopskit", "examples", "notebooks", "lessons", "docs", "binder")
PLACEHOLDERS = re.compile(r"\b(?:NN|NAME|CODE|FOLDER|FILE|OWNER)\b|[<>]|__pycache__")  # made up or made at run time


def _text(doc: str) -> str:
    return (ROOT / doc).read_text(encoding="utf-8")


def _doc_ids(docs):
    return [d.replace("/", "_") for d in docs]


@functools.lru_cache(maxsize=1)
def _cli_options() -> dict[tuple[str, ...], set[str]]:
    """Every ``gopskit`` command path (``("classroom", "check")``) with the options its ``--help`` lists."""
    from gopskit.cli import build_parser

    found: dict[tuple[str, ...], set[str]] = {}

    def walk(parser: argparse.ArgumentParser, path: tuple[str, ...]):
        found[path] = {s for a in parser._actions if a.help != argparse.SUPPRESS for s in a.option_strings}
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    walk(sub, (*path, name))

    walk(build_parser(), ())
    return found


def _options_in(segment: str) -> list[str]:
    return re.findall(r"(?<![\w-])(--[a-z][a-z0-9-]*)", segment)


def _command_segments(text: str):
    """``(words, options)`` for each ``gopskit ...`` command line or inline command in ``text``."""
    for match in re.finditer(r"(?<![\w.-])gopskit ([a-z][a-z-]*)((?: [^\s`#]+)*)", text):  # .venv/bin/gopskit too
        words = [match.group(1)] + match.group(2).split()
        yield words, _options_in(match.group(2))


@pytest.mark.parametrize("doc", DOCS, ids=_doc_ids(DOCS))
def test_every_gopskit_command_and_option_in_the_docs_exists(doc):
    commands = _cli_options()
    wrong = []
    for words, options in _command_segments(_text(doc)):
        if (words[0],) not in commands:
            continue  # "gopskit serve" is a command; "gopskit is" is a sentence
        path = (words[0],)
        if len(words) > 1 and (words[0], words[1]) in commands:
            path = (words[0], words[1])
        missing = [o for o in options if o not in commands[path]]
        if missing:
            wrong.append(f"gopskit {' '.join(path)}: {', '.join(missing)} (its --help lists {sorted(commands[path])})")
    assert not wrong, f"{doc}: options that --help does not list: " + "; ".join(wrong)


@pytest.mark.parametrize("doc", DOCS, ids=_doc_ids(DOCS))
def test_a_commands_listed_actions_are_the_ones_its_help_lists(doc):
    """"`gopskit classroom --help` lists ... (`create`, `status`, ...)" names every action, and only those."""
    commands = _cli_options()
    for match in re.finditer(r"`gopskit ([a-z]+) --help` lists[^(]*\(([^)]*)\)", _text(doc)):
        listed = set(re.findall(r"`([a-z-]+)`", match.group(2)))
        actual = {path[1] for path in commands if len(path) == 2 and path[0] == match.group(1)}
        assert listed == actual, f"{doc}: gopskit {match.group(1)} has {sorted(actual)}, the page lists {sorted(listed)}"


def _script_options(path) -> set[str]:
    return set(re.findall(r"""add_argument\(\s*["'](--[a-z][a-z0-9-]*)""", path.read_text(encoding="utf-8")))


@pytest.mark.parametrize("doc", DOCS, ids=_doc_ids(DOCS))
def test_every_benchmark_and_module_command_exists_with_its_options(doc):
    text, wrong = _text(doc), []
    for match in re.finditer(r"(?<![\w/])(benchmarks/\w+\.py)([^`\n#]*)", text):
        script = ROOT / match.group(1)
        if not script.is_file():
            wrong.append(f"{match.group(1)} does not exist")
            continue
        options = _script_options(script)
        wrong += [f"{match.group(1)} has no {o}" for o in _options_in(match.group(2)) if o not in options]
    for match in re.finditer(r"python -m (gopskit(?:\.\w+)+)([^`\n#]*)", text):
        spec = importlib.util.find_spec(match.group(1))
        if spec is None:
            wrong.append(f"python -m {match.group(1)}: no such module")
            continue
        source = Path(spec.origin)
        options = _script_options(source)
        if "__main__" not in source.read_text(encoding="utf-8"):
            wrong.append(f"python -m {match.group(1)}: the module does nothing when run")
        wrong += [f"python -m {match.group(1)} has no {o}" for o in _options_in(match.group(2)) if o not in options]
    assert not wrong, f"{doc}: " + "; ".join(wrong)


@pytest.mark.parametrize("doc", DOCS, ids=_doc_ids(DOCS))
def test_every_project_path_and_link_in_the_docs_exists(doc):
    text, wrong = _text(doc), []
    for match in re.finditer(rf"(?<![\w/.~-])((?:{'|'.join(PROJECT_DIRS)})/[\w./*-]*\w)", text):
        path = match.group(1)
        if PLACEHOLDERS.search(path) or re.search(r"https?://\S*$", text[max(0, match.start() - 200):match.start()]):
            continue
        if not (list(ROOT.glob(path)) if "*" in path else (ROOT / path).exists()):
            wrong.append(path)
    here = (ROOT / doc).parent
    for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text):
        if not target.startswith(("http:", "https:", "mailto:")) and not (here / target).exists():
            wrong.append(f"link {target}")
    assert not wrong, f"{doc} names files that do not exist: {', '.join(wrong)}"


def _resolve(dotted: str):
    """The object a dotted name such as ``gopskit.cards.card_name`` names (ImportError/AttributeError if none)."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        module_name = ".".join(parts[:cut])
        try:
            obj = importlib.import_module(module_name)
        except ModuleNotFoundError:
            continue
        for attr in parts[cut:]:
            obj = getattr(obj, attr)
        return obj
    raise ImportError(dotted)


@functools.lru_cache(maxsize=1)
def _defined_names() -> set[str]:
    """Every function, class, method and module-level name defined in the package (and the lessons' own functions)."""
    names = set()
    for path in [*(ROOT / "gopskit").rglob("*.py"), *(ROOT / "lessons" / "teacher").glob("*.ipynb")]:
        source = path.read_text(encoding="utf-8")
        names |= set(re.findall(r"^\s*\"?(?:async\s+)?(?:def|class)\s+(\w+)", source, flags=re.M))
        names |= set(re.findall(r"^(\w+)\s*(?::[^=\n]*)?=", source, flags=re.M))
        names |= set(re.findall(r"^\s+(\w+)\s*:\s*[\w\[\]|. ]+(?:=|$)", source, flags=re.M))  # dataclass fields
    return names


@pytest.mark.parametrize("doc", DOCS, ids=_doc_ids(DOCS))
def test_every_kit_name_in_backticks_exists(doc):
    """`gopskit.x.y` must import; a `name(...)` called in backticks must be defined in the package (or be Python's)."""
    text, wrong = _text(doc), []
    for span in re.findall(r"`([^`\n]+)`", text):
        if "var(--" in span:
            continue  # CSS, not Python
        for dotted in re.findall(r"(?<![\w/.])(gopskit(?:\.\w+)+)", span):
            try:
                _resolve(dotted)
            except (ImportError, AttributeError):
                wrong.append(dotted)
        for name in re.findall(r"(?<![\w])([a-z_][a-z0-9_]*)\(", span):
            if name not in _defined_names() and not hasattr(builtins, name) and name not in {"np", "dict"}:
                wrong.append(f"{name}()")
    assert not wrong, f"{doc} names what the package does not define: {', '.join(sorted(set(wrong)))}"


_UNITS = {"KiB": 2**10, "MiB": 2**20, "GiB": 2**30, "kB": 1e3, "MB": 1e6, "GB": 1e9}


@pytest.mark.parametrize("doc", DOCS, ids=_doc_ids(DOCS))
def test_the_size_quoted_for_a_shipped_file_is_its_size(doc):
    """"`goofspiel-...-layer10.npz` (4.3 MiB)" and "(1.7 MiB, `gopskit/data/...`)" match the file, to the digits shown."""
    text, wrong = _text(doc), []
    size = r"(\d+(?:\.\d+)?) (KiB|MiB|GiB|kB|MB|GB)"
    for data in (ROOT / "gopskit" / "data").iterdir():
        name = re.escape(data.name)
        quoted = [m.groups() for m in re.finditer(rf"`(?:[\w/]+/)?{name}`,? \({size}", text)]
        quoted += [m.groups() for m in re.finditer(rf"\({size}, `(?:[\w/]+/)?{name}`", text)]
        for number, unit in quoted:
            decimals = len(number.partition(".")[2])
            actual = round(data.stat().st_size / _UNITS[unit], decimals)
            if actual != float(number):
                wrong.append(f"{data.name} is {actual:.{decimals}f} {unit}, not {number} {unit}")
    assert not wrong, f"{doc}: " + "; ".join(wrong)


@pytest.mark.parametrize("doc", DOCS, ids=_doc_ids(DOCS))
def test_a_section_said_to_be_above_or_below_is_there(doc):
    """'see "Endgames" below' names a heading of the same page, and it is below."""
    lines = _text(doc).splitlines()
    headings = {}
    for number, line in enumerate(lines):
        if line.startswith("#"):
            headings.setdefault(line.lstrip("#").strip(), number)
    wrong = []
    for number, line in enumerate(lines):
        for title, where in re.findall(r'"([A-Z][^"]{2,60})"[,)]? (below|above)', line):
            at = next((n for heading, n in headings.items() if heading == title or heading.startswith(title)), None)
            if at is None:
                wrong.append(f'line {number + 1}: no heading "{title}"')
            elif (at > number) != (where == "below"):
                wrong.append(f'line {number + 1}: "{title}" is {"below" if at > number else "above"}, not {where}')
    assert not wrong, f"{doc}: " + "; ".join(wrong)
