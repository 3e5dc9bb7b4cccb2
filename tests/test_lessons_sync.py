"""The lesson notebooks: stored in a stable form, student versions derived from the teacher versions.

Regenerating every student notebook from its teacher notebook must give
exactly the stored file; every lesson has at least three exercises, each an
answer cell followed by a check cell that calls one of the lesson's
registered checkers; the blanks students see hold no worked answer.
"""

from __future__ import annotations

import ast
import re

import nbformat
import pytest

from gopskit.course import sync
from gopskit.course.checks import checkers

TEACHERS = sync.teacher_notebooks()
LESSON_NUMBERS = [int(path.name[:2]) for path in TEACHERS]


def test_there_is_a_teacher_and_a_student_notebook_for_every_lesson():
    assert [p.name[:2] for p in TEACHERS] == ["01", "02", "03", "04", "05"]
    for teacher in TEACHERS:
        assert sync.student_path(teacher).exists(), f"no student version of {teacher.name}"
    students = sorted(p.name for p in sync.LESSONS.glob("[0-9][0-9]-*.ipynb"))
    assert students == [p.name for p in TEACHERS], "a student notebook has no teacher version"


@pytest.mark.parametrize("teacher", TEACHERS, ids=lambda p: p.name)
def test_stored_notebooks_are_in_stable_form_and_in_sync(teacher):
    stored_teacher = teacher.read_text(encoding="utf-8")
    assert sync.notebook_text(sync.read(teacher)) == stored_teacher, \
        f"{teacher.name} is not in stable form: run `python -m gopskit.course.sync`"
    student = sync.student_path(teacher)
    expected = sync.notebook_text(sync.student_notebook(sync.read(teacher)))
    assert student.read_text(encoding="utf-8") == expected, \
        f"lessons/{student.name} is out of date: run `python -m gopskit.course.sync`"


@pytest.mark.parametrize("teacher", TEACHERS, ids=lambda p: p.name)
def test_only_checked_cells_keep_outputs(teacher):
    for path in (teacher, sync.student_path(teacher)):
        for cell in sync.read(path).cells:
            if cell.cell_type == "code" and cell.outputs:
                assert sync.is_checked(cell), f"{path.name}: an unchecked cell stores outputs:\n{cell.source}"
                assert all(o.output_type != "error" for o in cell.outputs)
                assert all("image/png" not in o.get("data", {}) for o in cell.outputs), "checked cells print text only"


def _called_checker(check_source: str) -> str:
    calls = [node.func.id for node in ast.walk(ast.parse(check_source))
             if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)]
    assert len(calls) == 1, f"a check cell calls exactly one checker:\n{check_source}"
    return calls[0]


@pytest.mark.parametrize("teacher", TEACHERS, ids=lambda p: p.name)
def test_every_lesson_has_three_exercises_each_with_a_registered_checker(teacher):
    lesson = int(teacher.name[:2])
    pairs = sync.exercises(sync.read(teacher))
    assert len(pairs) >= 3, f"{teacher.name} has {len(pairs)} exercises; a lesson needs at least 3"
    registered = {f.__name__: f for f in checkers(lesson)}
    called = [_called_checker(check) for _answer, check in pairs]
    assert len(set(called)) == len(called), "two exercises share a checker"
    for name in called:
        assert name in registered, f"{name} is not a checker registered for lesson {lesson}"
    for _answer, check in pairs:
        assert sync.CHECK_MARKER in check, "the teacher's check cell proves (through nbval) that the answer passes"
    labels = [registered[name].exercise for name in called]
    assert labels == [f"Exercise {k}" for k in range(1, len(labels) + 1)], "exercises are numbered in order"


@pytest.mark.parametrize("teacher", TEACHERS, ids=lambda p: p.name)
def test_student_blanks_hold_no_answers_and_no_teacher_notes(teacher):
    student = sync.read(sync.student_path(teacher))
    blanks = [c for c in student.cells if "exercise" in c.metadata.get("tags", [])]
    assert len(blanks) == len(sync.exercises(sync.read(teacher)))
    for cell in blanks:
        tree = ast.parse(cell.source)  # a blank is valid Python, so the notebook runs top to bottom
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign):
                assert isinstance(node.value, ast.Constant) and node.value.value is Ellipsis
        assert sync.BLANK in cell.source
    for cell in student.cells:
        tags = cell.metadata.get("tags", [])
        assert "teacher" not in tags and "answer" not in tags
        assert not (cell.cell_type == "code" and "check" in tags and sync.CHECK_MARKER in cell.source)


def test_answer_stub_keeps_the_question_signature_and_docstring():
    source = ('# Exercise 9: write it.\n'
              'def strategy(observation):\n'
              '    """Return a card."""\n'
              '    return max(observation.legal_moves)\n'
              'helper = 3\n'
              'print(helper)\n')
    stub = sync.answer_stub(source)
    assert stub == ('# Exercise 9: write it.\n'
                    'def strategy(observation):\n'
                    '    """Return a card."""\n'
                    f'    ...  {sync.BLANK}\n'
                    f'helper = ...  {sync.BLANK}')
    namespace = {}
    exec(stub, namespace)  # noqa: S102 - the stub must run
    assert namespace["strategy"](None) is None and namespace["helper"] is Ellipsis


def test_student_version_drops_teacher_cells_and_blanks_answers():
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell("Intro"),
                nbformat.v4.new_markdown_cell("Say this in class", metadata={"tags": ["teacher"]}),
                nbformat.v4.new_code_cell("x = 41 + 1", metadata={"tags": ["answer"]}),
                nbformat.v4.new_code_cell(f"{sync.CHECK_MARKER}\ncheck(x)", metadata={"tags": ["check"]})]
    nb.cells[3].outputs = [nbformat.v4.new_output("stream", text="Exercise 1: correct.\n")]
    student = sync.student_notebook(nb)
    assert [c.source for c in student.cells] == ["Intro", f"x = ...  {sync.BLANK}", "check(x)"]
    assert student.cells[2].outputs == [] and student.cells[1].metadata["tags"] == ["exercise"]
    teacher = sync.clean_notebook(nb)
    assert teacher.cells[3].outputs and teacher.cells[3].execution_count == 2


def test_checked_outputs_are_printed_numbers_not_memory_addresses():
    for teacher in TEACHERS:
        for cell in sync.read(teacher).cells:
            for output in cell.get("outputs", []):
                text = output.get("text", "") + output.get("data", {}).get("text/plain", "")
                assert not re.search(r"0x[0-9a-f]{6,}", text), f"{teacher.name}: an address in a checked output"


@pytest.mark.parametrize("teacher", TEACHERS, ids=lambda p: p.name)
def test_the_worked_answers_are_stored_as_accepted(teacher):
    """The teacher's check cells store 'correct' (nbval re-runs them and compares, so this stays true)."""
    nb = sync.read(teacher)
    checks = [c for c in nb.cells if "check" in c.metadata.get("tags", [])]
    for k, cell in enumerate(checks, 1):
        text = "".join(o.get("text", "") + o.get("data", {}).get("text/plain", "") for o in cell.outputs)
        assert text.startswith(f"Exercise {k}: correct."), f"{teacher.name}, exercise {k}: stored output {text!r}"


def test_printed_text_split_by_timing_is_stored_as_one_stream():
    nb = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell(f"{sync.CHECK_MARKER}\nprint(1); print(2)")
    cell.outputs = [nbformat.v4.new_output("stream", text="1\n"), nbformat.v4.new_output("stream", text="2\n"),
                    nbformat.v4.new_output("stream", name="stderr", text="warning\n")]
    nb.cells = [cell]
    outputs = sync.clean_notebook(nb).cells[0].outputs
    assert [(o.name, o.text) for o in outputs] == [("stdout", "1\n2\n"), ("stderr", "warning\n")]
