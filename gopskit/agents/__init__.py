"""Bots, looked up by name.

>>> from gopskit.agents import make_agent, agent_names
>>> make_agent("match-prize").name
'match-prize'
>>> "random" in agent_names()
True
"""

from __future__ import annotations

import importlib
import importlib.util

from ..errors import OptionError
from .base import Agent, RandomAgent

_REGISTRY: dict[str, type[Agent]] = {}

# Modules holding bots; each registers its classes with @register. A module
# that is not written yet is simply not there (find_spec says so).
_AGENT_MODULES = (
    "gopskit.agents.goofspiel",
    "gopskit.agents.gops_for_three",
    "gopskit.agents.throps",
    "gopskit.agents.gooseberry_fool",
    "gopskit.agents.divide_and_conquer",
    "gopskit.agents.raj",
    "gopskit.agents.equilibrium",
    "gopskit.agents.cfr_bot",
)
_loaded = False


def register(cls: type[Agent]) -> type[Agent]:
    """Class decorator: make ``cls`` available by its ``name``."""
    old = _REGISTRY.get(cls.name)
    if old is not None and old is not cls and not issubclass(cls, old):
        raise ValueError(f"two agents are called {cls.name!r}")  # a subclass may refine its parent
    _REGISTRY[cls.name] = cls
    return cls


register(RandomAgent)


def _load_all():
    global _loaded
    if not _loaded:
        _loaded = True
        for module in _AGENT_MODULES:
            if importlib.util.find_spec(module) is not None:
                importlib.import_module(module)


def _place(item) -> int:
    """Where a bot comes in lists: the random bot, then by its module's place in :data:`_AGENT_MODULES`
    (a module imported early, say by a lesson, registers early: lists must not change with that)."""
    module = item[1].__module__
    if module in _AGENT_MODULES:
        return 1 + _AGENT_MODULES.index(module)
    return 0 if module == f"{__name__}.base" else 1 + len(_AGENT_MODULES)


def agent_names(rules=None) -> list[str]:
    """Names of all bots, or of those that can play under ``rules``, always in the same order."""
    _load_all()
    return [n for n, cls in sorted(_REGISTRY.items(), key=_place) if rules is None or cls().supports(rules)]


def agent_class(name: str) -> type[Agent]:
    _load_all()
    if name not in _REGISTRY:
        raise OptionError(f"unknown bot {name!r}; available: {', '.join(_REGISTRY)}")
    return _REGISTRY[name]


def make_agent(spec, **kwargs) -> Agent:
    """Return an agent from a name (``"random"``) or pass an agent object through."""
    if isinstance(spec, Agent):
        return spec
    if isinstance(spec, str):
        return agent_class(spec)(**kwargs)
    if isinstance(spec, type) and issubclass(spec, Agent):
        return spec(**kwargs)
    raise OptionError(f"an agent is a bot name (one of {', '.join(agent_names())}) or an Agent object, not {spec!r}")


__all__ = ["Agent", "RandomAgent", "agent_class", "agent_names", "make_agent", "register"]
