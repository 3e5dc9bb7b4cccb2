"""Keep the lesson notebooks in a stable form and derive each student version from its teacher version.

The teacher notebooks (``lessons/teacher/*.ipynb``) are the source. Their
cells may carry these tags:

* ``answer``: a worked answer. In the student version the cell becomes a
  blank to fill in: every top-level ``name = value`` becomes
  ``name = ...  # your answer here`` and every function keeps its signature
  and docstring with ``...`` as its body; comment lines above the first
  statement (the question) are kept, everything else goes.
* ``check``: the call to an exercise's checker, right after its answer
  cell. The teacher version marks it ``# NBVAL_CHECK_OUTPUT`` so that nbval
  proves the worked answer is accepted; the student version drops the
  marker and the stored output.
* ``teacher``: notes for the teacher only; left out of the student version.

Stable form (so diffs stay readable): only cells marked
``# NBVAL_CHECK_OUTPUT`` keep their outputs (deterministic numbers that nbval
compares) and an execution count (their place among the code cells: nbval
skips cells that were never run); every other count and output is cleared;
cell metadata keeps only tags, and the notebook metadata is the plain
``python3`` kernel.

Command line (the lessons' maintenance tool)::

    python -m gopskit.course.sync            # rewrite every student notebook
    python -m gopskit.course.sync --execute  # first re-run the teachers, storing checked outputs
    python -m gopskit.course.sync --check    # exit 1 if any stored notebook is out of date
    python -m gopskit.course.sync --execute lessons/teacher/02-*.ipynb   # only these

>>> print(answer_stub("# How many points?\\nanswer = 3 + 4  # seven\\n"))
# How many points?
answer = ...  # your answer here
"""

from __future__ import annotations

import argparse
import ast
import copy
import hashlib
import pathlib
import sys

import nbformat

CHECK_MARKER = "# NBVAL_CHECK_OUTPUT"
TAG_ANSWER, TAG_CHECK, TAG_TEACHER, TAG_EXERCISE = "answer", "check", "teacher", "exercise"
BLANK = "# your answer here"
ROOT = pathlib.Path(__file__).resolve().parents[2]
LESSONS = ROOT / "lessons"
TEACHER = LESSONS / "teacher"
NOTEBOOK_METADATA = {
    "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
    "language_info": {"name": "python"},
}


# ----------------------------------------------------------- answer stubs --
def answer_stub(source: str) -> str:
    """The blank a student sees in place of a worked answer cell (see the module docstring)."""
    tree = ast.parse(source)
    lines = source.splitlines()
    first = tree.body[0].lineno - 1 if tree.body else len(lines)
    question = [line for line in lines[:first] if line.strip().startswith("#")]
    blanks = [stub for node in tree.body if (stub := _stub(node, lines))]
    body = blanks or [BLANK]
    return "\n".join(question + body)


def _stub(node: ast.stmt, lines: list[str]) -> str | None:
    if isinstance(node, (ast.Assign, ast.AnnAssign)):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        names = [t.id for t in targets if isinstance(t, ast.Name)]
        return f"{' = '.join(names)} = ...  {BLANK}" if names else None
    if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
        header_end = node.body[0].lineno - 1
        start = min([d.lineno for d in node.decorator_list] + [node.lineno]) - 1
        header = lines[start:header_end]
        doc = ast.get_docstring(node, clean=False)
        indent = " " * node.body[0].col_offset
        kept = lines[node.body[0].lineno - 1: node.body[0].end_lineno] if doc is not None else []
        return "\n".join(header + kept + [f"{indent}...  {BLANK}"])
    return None


# ------------------------------------------------------------ stable form --
def _tags(cell) -> list[str]:
    return list(cell.get("metadata", {}).get("tags", []))


def is_checked(cell) -> bool:
    """True for a code cell whose output nbval compares (``# NBVAL_CHECK_OUTPUT``)."""
    return cell.cell_type == "code" and any(line.strip() == CHECK_MARKER for line in cell.source.splitlines())


def _clean_output(output, count: int):
    output = copy.deepcopy(output)
    if "execution_count" in output:
        output["execution_count"] = count
    if "metadata" in output:
        output["metadata"] = {}
    return output


def _merge_streams(outputs: list) -> list:
    """Join consecutive pieces of one stream: how printed text is split depends on timing, not on the cell."""
    merged: list = []
    for output in outputs:
        last = merged[-1] if merged else None
        if (last is not None and output.get("output_type") == "stream" and last.get("output_type") == "stream"
                and output.get("name") == last.get("name")):
            last["text"] = "".join(last["text"]) + "".join(output["text"])
        else:
            merged.append(output)
    return merged


def clean_notebook(nb) -> nbformat.NotebookNode:
    """A copy of ``nb`` in the stored form (see the module docstring)."""
    nb = copy.deepcopy(nb)
    nb.metadata = nbformat.from_dict(copy.deepcopy(NOTEBOOK_METADATA))
    nb.nbformat, nb.nbformat_minor = 4, 5
    seen: set[str] = set()
    count = 0
    for index, cell in enumerate(nb.cells):
        tags = _tags(cell)
        cell.metadata = nbformat.from_dict({"tags": tags} if tags else {})
        cell.source = cell.source.rstrip("\n") if isinstance(cell.source, str) else "".join(cell.source).rstrip("\n")
        cell.id = _cell_id(cell, index, seen)
        if cell.cell_type == "code":
            count += 1
            checked = is_checked(cell) and bool(cell.outputs)
            # nbval compares only cells that were run: a checked cell keeps a count (its place among code cells)
            cell.execution_count = count if checked else None
            cell.outputs = _merge_streams([_clean_output(o, count) for o in cell.outputs]) if checked else []
        if cell.cell_type != "markdown":
            cell.pop("attachments", None)
    return nb


def _cell_id(cell, index: int, seen: set[str]) -> str:
    cell_id = cell.get("id") or hashlib.sha1(f"{index}:{cell.source}".encode()).hexdigest()[:8]
    while cell_id in seen:
        cell_id = hashlib.sha1(cell_id.encode()).hexdigest()[:8]
    seen.add(cell_id)
    return cell_id


def notebook_text(nb) -> str:
    """The exact text a notebook is stored as (nbformat's JSON, one trailing newline)."""
    return nbformat.writes(clean_notebook(nb)).rstrip("\n") + "\n"


# -------------------------------------------------------- student version --
def student_notebook(teacher) -> nbformat.NotebookNode:
    """Derive the student version of a teacher notebook (see the module docstring)."""
    student = copy.deepcopy(clean_notebook(teacher))
    cells = []
    for cell in student.cells:
        tags = _tags(cell)
        if TAG_TEACHER in tags:
            continue
        if TAG_ANSWER in tags:
            cell.source = answer_stub(cell.source)
            cell.outputs = []
            cell.metadata = nbformat.from_dict({"tags": [TAG_EXERCISE]})
        elif TAG_CHECK in tags:
            cell.source = "\n".join(line for line in cell.source.splitlines() if line.strip() != CHECK_MARKER)
            cell.outputs = []
        cells.append(cell)
    student.cells = cells
    return clean_notebook(student)


def exercises(nb) -> list[tuple[str, str]]:
    """Every exercise of a teacher notebook: ``(answer source, check source)`` pairs.

    An exercise is an ``answer`` cell followed by a ``check`` cell (markdown
    cells may sit between them).
    """
    pairs, pending = [], None
    for cell in nb.cells:
        tags = _tags(cell)
        if TAG_ANSWER in tags:
            pending = cell.source
        elif TAG_CHECK in tags and pending is not None:
            pairs.append((pending, cell.source))
            pending = None
        elif cell.cell_type == "code":
            pending = None
    return pairs


def teacher_notebooks() -> list[pathlib.Path]:
    """The teacher notebooks, in lesson order."""
    return sorted(TEACHER.glob("[0-9][0-9]-*.ipynb"))


def student_path(teacher_path: pathlib.Path) -> pathlib.Path:
    """``lessons/teacher/01-x.ipynb`` -> ``lessons/01-x.ipynb``."""
    return pathlib.Path(teacher_path).resolve().parent.parent / pathlib.Path(teacher_path).name


def read(path) -> nbformat.NotebookNode:
    return nbformat.read(str(path), as_version=4)


def execute(path, timeout: int = 300) -> nbformat.NotebookNode:
    """Run a notebook top to bottom in a fresh kernel (in its own folder) and return it."""
    from nbclient import NotebookClient

    nb = read(path)
    NotebookClient(nb, timeout=timeout, kernel_name="python3",
                   resources={"metadata": {"path": str(pathlib.Path(path).parent)}}).execute()
    return nb


def sync(execute_teachers: bool = False, check_only: bool = False, only=()) -> list[str]:
    """Bring every stored notebook to its stable form; return the files that were (or would be) changed.

    ``only`` limits the work to these teacher notebooks (paths or names).
    """
    changed = []
    wanted = {pathlib.Path(name).name for name in only}
    for teacher in teacher_notebooks():
        if wanted and teacher.name not in wanted:
            continue
        nb = execute(teacher) if execute_teachers else read(teacher)
        for path, text in ((teacher, notebook_text(nb)), (student_path(teacher), notebook_text(student_notebook(nb)))):
            old = path.read_text(encoding="utf-8") if path.exists() else None
            if old != text:
                changed.append(str(path.relative_to(ROOT)))
                if not check_only:
                    path.write_text(text, encoding="utf-8")
    return changed


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m gopskit.course.sync", description=__doc__.split("\n")[0])
    parser.add_argument("--execute", action="store_true", help="re-run the teacher notebooks first")
    parser.add_argument("--check", action="store_true", help="change nothing; exit 1 if a notebook is out of date")
    parser.add_argument("notebooks", nargs="*", help="only these teacher notebooks (default: all)")
    args = parser.parse_args(argv)
    changed = sync(execute_teachers=args.execute, check_only=args.check, only=args.notebooks)
    for name in changed:
        print(("out of date: " if args.check else "wrote: ") + name)
    return 1 if (args.check and changed) else 0


if __name__ == "__main__":
    sys.exit(main())
