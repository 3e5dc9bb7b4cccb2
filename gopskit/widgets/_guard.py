"""One guard for every click handler of the boards and explorers.

Nothing a callback raises may reach the class: a refused move (a
:class:`~gopskit.errors.GopsError`) is shown on the status line as it is; any
other exception is a bug, kept in ``last_error`` for the tests, shown with
the widget's ``crash_advice`` and without any file path of the server (see
:func:`without_paths`), and its traceback is written to the server's
terminal (the process's own stderr, which a page never sees). Every click's
server-side time is recorded.
"""

from __future__ import annotations

import functools
import re
import sys
import time
import traceback

from ..errors import GopsError

_PATH = re.compile(r"(?<![\w.])(?:[A-Za-z]:)?(?:[\\/][^\s'\"\\/:]+){2,}[\\/]?")


def without_paths(text: str) -> str:
    """``text`` with every file path (two or more components) replaced by "a file on the server".

    >>> without_paths("[Errno 2] No such file or directory: '/work/main/data/x.npz'")
    "[Errno 2] No such file or directory: 'a file on the server'"
    >>> without_paths("shares 1/2/3 of the pot, in C:\\\\Users\\\\ann\\\\kit")
    'shares 1/2/3 of the pot, in a file on the server'
    >>> without_paths("list index out of range")
    'list index out of range'
    """
    return _PATH.sub("a file on the server", text)


def _to_terminal(exc: BaseException) -> None:
    stream = sys.__stderr__
    if stream is not None:
        stream.write("gopskit: a click raised (the page shows a short message):\n"
                     + "".join(traceback.format_exception(exc)))
        stream.flush()


def guarded(method):
    """Decorate a widget callback; the widget provides ``_show_error(text)``,
    ``_record_click_ms(ms)`` and a ``crash_advice`` string."""

    @functools.wraps(method)
    def wrapper(self, *args, **kwargs):
        started = time.perf_counter()
        try:
            return method(self, *args, **kwargs)
        except GopsError as exc:
            self._show_error(str(exc))
        except Exception as exc:  # a bug: keep the widget alive in front of a class
            self.last_error = exc
            _to_terminal(exc)
            self._show_error(f"Something went wrong ({type(exc).__name__}: {without_paths(str(exc))})."
                             f"{self.crash_advice}")
        finally:
            self._record_click_ms((time.perf_counter() - started) * 1000)
        return None

    return wrapper
