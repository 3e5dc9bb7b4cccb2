"""Exercise checkers for every lesson: each takes the student's answer and returns a :class:`~gopskit.course.feedback.Feedback`.

A checker never raises on an answer: a blank, a wrong type or a crashing
function all come back as feedback that says what is wrong. Checkers are
registered per lesson (:data:`CHECKERS`), so the tests can confirm that every
lesson has at least three exercises, each with a checker that accepts the
worked answer of the teacher's notebook and rejects typical wrong answers.

>>> from gopskit.course.checks import check_expected_points
>>> check_expected_points(8).ok, check_expected_points(4).ok
(True, False)
"""

from __future__ import annotations

import importlib
import importlib.util

from ._registry import CHECKERS, checker

_LESSON_MODULES = ("lesson1", "lesson2", "lesson3", "lesson4", "lesson5")


def _load() -> None:
    for name in _LESSON_MODULES:
        if importlib.util.find_spec(f"{__name__}.{name}") is not None:
            importlib.import_module(f"{__name__}.{name}")


def __getattr__(name: str):
    _load()
    for functions in CHECKERS.values():
        for function in functions:
            if function.__name__ == name:
                return function
    raise AttributeError(f"gopskit.course.checks has no checker {name!r}")


def checkers(lesson: int) -> list:
    """The checkers of ``lesson`` (1 to 5), in exercise order."""
    _load()
    return list(CHECKERS.get(lesson, []))


__all__ = ["CHECKERS", "checker", "checkers"]
