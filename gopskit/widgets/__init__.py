"""Boards and explorers (ipywidgets 8): the only part of gopskit that imports ipywidgets.

Import what you need by name; the submodules load on first use, so
``gopskit.widgets.cards`` and ``gopskit.widgets.views`` (pure HTML
rendering) stay importable without ipywidgets.

>>> from gopskit.widgets import GoofspielBoard     # doctest: +SKIP
>>> GoofspielBoard(num_cards=5)                    # doctest: +SKIP
"""

from __future__ import annotations

import importlib

_LAZY = {
    "GameBoard": "gopskit.widgets.board",
    "GoofspielBoard": "gopskit.widgets.boards",
    "make_board": "gopskit.widgets.boards",
    "view_for": "gopskit.widgets.boards",
    "HumanSeat": "gopskit.widgets.seats",
    "render_card": "gopskit.widgets.cards",
}


def __getattr__(name):
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'gopskit.widgets' has no attribute {name!r}")


__all__ = sorted(_LAZY)
