"""One board per game: :func:`make_board` and a named class for each game.

>>> board = make_board("goofspiel", num_cards=5, seed=1)   # doctest: +SKIP
"""

from __future__ import annotations

import importlib
import importlib.util

from ..errors import OptionError
from ..games import available_games, rules_class
from .board import GameBoard
from .views.base import GameView
from .views.goofspiel import GoofspielView

# game name -> (module, view class) of its view; games without one get the plain GameView.
VIEWS = {
    "goofspiel": ("gopskit.widgets.views.goofspiel", "GoofspielView"),
    "gops-for-three": ("gopskit.widgets.views.gops_for_three", "GopsForThreeView"),
    "throps": ("gopskit.widgets.views.throps", "ThropsView"),
    "gooseberry-fool": ("gopskit.widgets.views.gooseberry_fool", "GooseberryFoolView"),
    "divide-and-conquer": ("gopskit.widgets.views.divide_and_conquer", "DivideAndConquerView"),
    "raj": ("gopskit.widgets.views.raj", "RajView"),
}


def view_for(game: str) -> GameView:
    """The view that draws ``game`` (the plain protocol view if the game has none of its own)."""
    module, name = VIEWS.get(game, (None, None))
    if module is None or importlib.util.find_spec(module) is None:
        view = GameView()
        view.game, view.title = game, game.replace("-", " ").title()
        return view
    return getattr(importlib.import_module(module), name)()


def make_board(game: str = "goofspiel", *, seats=None, seed=None, **options) -> GameBoard:
    """A board for ``game``: a person in seat 1 against bots, unless ``seats`` says otherwise.

    ``seats`` lists ``"human"`` or a bot name per seat; ``options`` are the
    game's rules options (the app's defaults fill the rest); ``seed`` makes
    the series of deals repeat.
    """
    if game not in available_games():
        raise OptionError(f"no board for {game!r}; the kit plays: {', '.join(available_games())}")
    view = view_for(game)
    rules = rules_class(game).from_options({**view.app_options, **options})
    return GameBoard(view, rules, seats=seats, seed=seed)


class GoofspielBoard(GameBoard):
    """Goofspiel with every variant; opens on 5 cards, you against the ``match-prize`` bot."""

    def __init__(self, *, seats=None, seed=None, **options):
        view = GoofspielView()
        rules = rules_class("goofspiel").from_options({**view.app_options, **options})
        super().__init__(view, rules, seats=seats, seed=seed)
