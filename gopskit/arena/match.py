"""Play one game between agents: the loop every game shares.

The match owns the randomness (docs/architecture.md, layers): one seed gives the deal
and every agent's generator, so a seeded game repeats move for move.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..agents import Agent, make_agent
from ..errors import AgentError, IllegalMoveError, OptionError
from ..games.base import GameState, Rules, seed_sequence


def seat_agents(rules: Rules, agents: Sequence) -> list[Agent]:
    """Turn names or objects into agents, one per seat, checking they can play."""
    agents = [make_agent(a) for a in agents]
    if len(agents) != rules.num_players:
        raise OptionError(f"{rules.name} with these options seats {rules.num_players} players; got {len(agents)} agents")
    for agent in agents:
        if not agent.supports(rules):
            raise OptionError(f"the bot {agent.name!r} cannot play {rules.name} with these options")
    return agents


def start_game(rules: Rules, agents: Sequence[Agent], seed=None) -> GameState:
    """Deal a game and reset every agent with its own generator from ``seed``."""
    deal, *streams = seed_sequence(seed).spawn(1 + len(agents))
    state = rules.new_game(np.random.default_rng(deal))
    for player, (agent, stream) in enumerate(zip(agents, streams)):
        agent.reset(rules, player, np.random.default_rng(stream))
    return state


def step(state: GameState, agents: Sequence[Agent]):
    """Ask every player to move now for a move and apply the joint move."""
    joint = {player: agents[player].act(state.observation(player)) for player in state.to_move()}
    try:
        return state.apply(joint)
    except IllegalMoveError as exc:
        names = ", ".join(f"{agents[p].name} (player {p + 1}) chose {m!r}" for p, m in joint.items())
        raise AgentError(f"a bot made an illegal move: {exc} [{names}]") from None


def play_game(rules: Rules, agents: Sequence, seed=None) -> GameState:
    """Play a whole game (or match) and return its final state.

    >>> from gopskit.games.goofspiel import Goofspiel
    >>> state = play_game(Goofspiel(num_cards=5), ["match-prize", "random"], seed=7)
    >>> state.is_terminal(), sum(state.scores()) <= 15
    (True, True)
    """
    agents = seat_agents(rules, agents)
    state = start_game(rules, agents, seed)
    while not state.is_terminal():
        step(state, agents)
    return state


__all__ = ["play_game", "seat_agents", "start_game", "step", "IllegalMoveError"]
