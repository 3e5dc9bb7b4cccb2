"""One guard for every click handler of the boards and explorers.

Nothing a callback raises may reach the class: a refused move (a
:class:`~gopskit.errors.GopsError`) is shown on the status line as it is; any
other exception is a bug, kept in ``last_error`` for the tests and shown with
the widget's ``crash_advice``. Every click's server-side time is recorded.
"""

from __future__ import annotations

import functools
import time

from ..errors import GopsError


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
            self._show_error(f"Something went wrong ({type(exc).__name__}: {exc}).{self.crash_advice}")
        finally:
            self._record_click_ms((time.perf_counter() - started) * 1000)
        return None

    return wrapper
