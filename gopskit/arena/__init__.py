"""Playing games between agents: one game, many games (batch), tournaments."""

from .match import play_game, seat_agents, start_game, step

__all__ = ["play_game", "seat_agents", "start_game", "step"]
