"""Game views: what each board shows, as pure functions of the game state."""

from .base import GameView, HandCard, OptionSpec
from .goofspiel import GoofspielView

__all__ = ["GameView", "GoofspielView", "HandCard", "OptionSpec"]
