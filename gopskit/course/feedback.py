"""Feedback for the lessons' exercises: say *what* is wrong, never just "wrong".

Every exercise checker returns a :class:`Feedback`. It shows itself in a
notebook as a coloured box (HTML) and as one or two plain lines elsewhere;
``bool(feedback)`` is true only for a correct answer. A checker never raises
on a student's answer: a blank answer (``...``, the placeholder the student
notebooks carry, ``None``, or a function whose body is still only its
docstring and ``...``) gets a "not answered yet" message, a wrong type or
value a sentence saying what was expected.

>>> correct("Exercise 1", "4 is the card equal to the prize.")
Exercise 1: correct. 4 is the card equal to the prize.
>>> bool(not_answered("Exercise 1", "best_bid"))
False
"""

from __future__ import annotations

import dataclasses
import dis
import numbers
from html import escape

import numpy as np

BLANK_HINT = "replace the ... with your answer and run the cell again"


@dataclasses.dataclass(frozen=True)
class Feedback:
    """The verdict on one answer.

    ``status`` is ``"correct"``, ``"wrong"``, ``"blank"`` (not answered
    yet) or ``"note"`` (nothing wrong, but no verdict or number can be given);
    ``message`` says what is right or wrong about the answer; ``hint``
    (optional) suggests where to look next.
    """

    exercise: str
    status: str
    message: str
    hint: str = ""

    def __bool__(self) -> bool:
        return self.status == "correct"

    @property
    def ok(self) -> bool:
        return self.status == "correct"

    def text(self) -> str:
        """The feedback as plain text (what ``repr`` and ``print`` show)."""
        verdict = {"correct": "correct.", "wrong": "not yet.", "blank": "not answered yet:", "note": "note:"}[self.status]
        line = f"{self.exercise}: {verdict} {self.message}"
        return line + (f"\n  Hint: {self.hint}" if self.hint else "")

    def __repr__(self) -> str:
        return self.text()

    __str__ = text

    def _repr_html_(self) -> str:
        colour, mark = {"correct": ("#009E73", "&#10004;"), "wrong": ("#D55E00", "&#10008;"),
                        "blank": ("#0072B2", "&#9998;"), "note": ("#56B4E9", "&#8505;")}[self.status]
        hint = f'<div style="margin-top:4px"><b>Hint:</b> {escape(self.hint)}</div>' if self.hint else ""
        verdict = {"correct": "Correct", "wrong": "Not yet", "blank": "Not answered yet", "note": "Note"}[self.status]
        return (f'<div class="gopskit-feedback gopskit-feedback-{self.status}" style="border-left:6px solid {colour};'
                f'padding:6px 10px;margin:4px 0;background:#f7f7f7;font-size:15px">'
                f'<b style="color:{colour}">{mark} {escape(self.exercise)}: {verdict}.</b> '
                f"{escape(self.message)}{hint}</div>")


def correct(exercise: str, message: str) -> Feedback:
    """A correct answer, with a sentence on why it is right."""
    return Feedback(exercise, "correct", message)


def wrong(exercise: str, message: str, hint: str = "") -> Feedback:
    """A wrong answer: ``message`` says what is wrong about it."""
    return Feedback(exercise, "wrong", message, hint)


def not_answered(exercise: str, name: str) -> Feedback:
    """The student has not filled in ``name`` yet."""
    return Feedback(exercise, "blank", f"`{name}` still holds the placeholder `...`", BLANK_HINT)


def is_blank(answer) -> bool:
    """True for the student notebooks' placeholder ``...``, for ``None`` and for an unwritten function.

    The student notebooks give a function exercise as its signature and
    docstring with ``...`` as the body; such a function (or one whose body is
    only ``pass``) has not been answered yet, which is not the same mistake as
    a written function that forgets to ``return``.

    >>> def strategy(observation):
    ...     'Return a card.'
    ...     ...  # your answer here
    >>> is_blank(strategy), is_blank(lambda observation: observation.prize)
    (True, False)
    """
    return answer is Ellipsis or answer is None or is_blank_function(answer)


_SKIPPED_OPS = {"RESUME", "NOP", "CACHE"}


def is_blank_function(function) -> bool:
    """True if ``function`` is a plain function whose body does nothing (docstring, ``...`` or ``pass`` only).

    Compares its byte code, not its source text (a notebook function may have
    no source file): such a body compiles to "return None" and nothing else.
    """
    code = getattr(function, "__code__", None)
    if code is None or code.co_flags & 0x20 or code.co_names or code.co_freevars or code.co_cellvars:
        return False  # not a plain function, a generator, or one that uses any name: it was written
    steps = [(i.opname, i.argval) for i in dis.get_instructions(code) if i.opname not in _SKIPPED_OPS]
    return steps in ([("LOAD_CONST", None), ("RETURN_VALUE", None)], [("RETURN_CONST", None)])


def as_number(answer) -> float | None:
    """``answer`` as a float if it is a plain number (not a bool), else None."""
    if isinstance(answer, bool) or not isinstance(answer, (numbers.Real, np.integer, np.floating)):
        return None
    value = float(answer)
    return value if np.isfinite(value) else None


def as_int(answer) -> int | None:
    """``answer`` as an int if it is a whole number (``4`` or ``4.0``), else None."""
    value = as_number(answer)
    return int(value) if value is not None and value == int(value) else None


def as_card_list(answer) -> list[int] | None:
    """``answer`` (a list, tuple, set or array of whole numbers) as a sorted list, else None."""
    if isinstance(answer, (str, bytes, dict)) or not hasattr(answer, "__iter__"):
        return None
    values = [as_int(v) for v in answer]
    return None if any(v is None for v in values) else sorted(values)


def quoted_number_note(answer) -> str:
    """A clause for a number written as text (``"1/5"``, ``("-0.6", "0.5")``): say to drop the quotes; else "".

    >>> quoted_number_note("1/5"), quoted_number_note("carry")
    (' (that is text: write the number without quotes, 1/5)', '')
    """
    texts = [answer] if isinstance(answer, str) else list(answer) if isinstance(answer, (list, tuple)) else []
    if not texts or not all(isinstance(t, str) and _parses_as_number(t) for t in texts):
        return ""
    shown = ", ".join(t.strip() for t in texts)
    return f" (that is text: write the number{'s' if len(texts) > 1 else ''} without quotes, {shown})"


def _parses_as_number(text: str) -> bool:
    from fractions import Fraction

    try:
        Fraction(text.strip())
    except (ValueError, ZeroDivisionError):
        return False
    return True


def describe(answer) -> str:
    """A short description of a value for feedback: ``'the text "4"'``, ``'3.5'``."""
    if isinstance(answer, str):
        return f'the text "{answer}"'
    if isinstance(answer, bool):
        return f"{answer} (a yes/no value)"
    text = repr(answer)
    return text if len(text) <= 60 else text[:57] + "..."


__all__ = ["Feedback", "as_card_list", "as_int", "as_number", "correct", "describe", "is_blank", "is_blank_function", "not_answered",
           "quoted_number_note", "wrong"]
