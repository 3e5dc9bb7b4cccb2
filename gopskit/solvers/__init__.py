"""Solvers: matrix games, exact two-player Goofspiel, learning dynamics, CFR.

Names are loaded lazily from the submodules listed in ``_SUBMODULES`` (each
declares its public names in ``__all__``), so ``import gopskit.solvers`` stays
cheap and a lesson imports only what it uses:

>>> from gopskit.solvers import solve_goofspiel  # doctest: +SKIP
"""

from __future__ import annotations

import importlib
import importlib.util

# Looked through in this order: the exact solver and its storage first, as neither imports
# numba nor scipy (``gopskit solve`` on a small deck needs neither).
_SUBMODULES = ("exact", "storage", "matrix", "learning", "exploit", "cfr")


def _public_names(module_name: str):
    full = f"{__name__}.{module_name}"
    if importlib.util.find_spec(full) is None:
        return None, ()
    module = importlib.import_module(full)
    return module, getattr(module, "__all__", ())


def __getattr__(name: str):
    if name.startswith("_"):  # a private submodule is imported as such, never searched for
        raise AttributeError(f"gopskit.solvers has no {name!r}")
    if name in _SUBMODULES:  # the submodule, whatever was imported before (``cfr`` is also a function's name)
        return importlib.import_module(f"{__name__}.{name}")
    for sub in _SUBMODULES:
        module, names = _public_names(sub)
        if name in names:
            value = getattr(module, name)
            globals()[name] = value
            return value
    raise AttributeError(f"gopskit.solvers has no {name!r}")


def __dir__():
    names = list(_SUBMODULES)
    for sub in _SUBMODULES:
        names.extend(_public_names(sub)[1])
    return sorted(set(names))
