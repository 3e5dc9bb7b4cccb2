"""How boards, pages and the classroom name a bot: a readable label; the registry name stays the API's.

The labels live with the bots, not with the widgets, because the classroom's
pages (drawn by :mod:`gopskit.classroom.html`, which imports no UI) name
bots too.
"""

from __future__ import annotations

BOT_LABELS = {
    "human": "Human",
    "random": "Random bot",
    "match-prize": "Match-the-prize bot",
    "one-higher": "One-higher bot",
    "greedy-high": "Highest-card bot",
    "adaptive": "Adaptive bot",
    "equilibrium": "Equilibrium bot",
    "cfr": "CFR equilibrium bot",
    "gops3-proportional": "Proportional bot",
    "gops3-spoiler": "Spoiler bot",
    "throps-greedy": "Greedy bot",
    "gooseberry-middler": "Middler bot",
    "dc-greedy": "Greedy bot",
    "dc-counter-greedy": "Counter-greedy bot",
    "dc-equilibrium": "Equilibrium bot",
    "raj-proportional": "Proportional bot",
}
_GAME_PREFIXES = ("gops3-", "throps-", "gooseberry-", "dc-", "raj-")


def bot_label(name: str) -> str:
    """A seat's player as boards and pages name it: ``Proportional bot`` for ``gops3-proportional``.

    A bot added later without a label gets one from its name (the game's prefix dropped).

    >>> bot_label("dc-counter-greedy"), bot_label("human"), bot_label("raj-new-idea")
    ('Counter-greedy bot', 'Human', 'New-idea bot')
    """
    if name in BOT_LABELS:
        return BOT_LABELS[name]
    plain = next((name[len(p):] for p in _GAME_PREFIXES if name.startswith(p)), name)
    return f"{plain[:1].upper()}{plain[1:]} bot"


__all__ = ["BOT_LABELS", "bot_label"]
