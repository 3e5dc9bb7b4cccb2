"""The registry of checkers and the decorator that makes a checker safe to call on anything."""

from __future__ import annotations

import functools

from ..feedback import Feedback, wrong

CHECKERS: dict[int, list] = {}


def checker(lesson: int, exercise: str):
    """Register a checker for ``lesson``; any unexpected error in it becomes feedback, never a traceback."""

    def register(function):
        @functools.wraps(function)
        def safe(*args, **kwargs) -> Feedback:
            try:
                return function(*args, **kwargs)
            except Exception as exc:  # a student's answer must never crash the lesson
                return wrong(exercise, f"checking your answer failed with {type(exc).__name__}: {exc}",
                             "look at the type of your answer: is it what the question asks for?")

        safe.lesson, safe.exercise = lesson, exercise
        CHECKERS.setdefault(lesson, []).append(safe)
        return safe

    return register
