"""Shared contract checks every game and every agent must pass.

OpenSpiel's random-play API test and Axelrod's TestPlayer in one place: a
game module's tests call :func:`check_game_contract`, a bot's tests call
:func:`check_agent_contract`.
"""

from __future__ import annotations

import json

import numpy as np

from gopskit.arena import play_game
from gopskit.errors import IllegalMoveError
from gopskit.games import replay_record


def _illegal_probe(state, player):
    """A move no player may make: something outside every legal list."""
    return "no-such-move" if not isinstance(state.legal_moves(player)[0], str) else 999


def check_game_contract(rules, seeds=range(4), max_steps=5000):
    """Random play under ``rules`` keeping every promise of the protocol."""
    for seed in seeds:
        rng = np.random.default_rng(seed)
        state = rules.new_game(seed)
        steps = 0
        while not state.is_terminal():
            movers = state.to_move()
            assert movers, "a live game must have someone to move"
            for p in range(rules.num_players):
                legal = state.legal_moves(p)
                assert bool(legal) == (p in movers), (p, movers, legal)
                obs = state.observation(p)
                assert tuple(obs.legal_moves) == tuple(legal)
                json.dumps(obs.to_dict())
            before = json.dumps(state.record(), sort_keys=True)
            bad = {p: state.legal_moves(p)[0] for p in movers}
            bad[movers[0]] = _illegal_probe(state, movers[0])
            try:
                state.apply(bad)
            except IllegalMoveError:
                pass
            else:
                raise AssertionError("an illegal move was accepted")
            assert json.dumps(state.record(), sort_keys=True) == before, "a rejected move changed the state"
            joint = {p: state.legal_moves(p)[int(rng.integers(len(state.legal_moves(p))))] for p in movers}
            state.apply(joint)
            steps += 1
            assert steps < max_steps, "the game does not end"
            record = json.loads(json.dumps(state.record()))
            assert replay_record(record).record() == record, "record round trip failed"
        assert state.to_move() == ()
        assert len(state.scores()) == rules.num_players
        assert state.winners(), "a finished game names at least one winner"
        again = rules.new_game(seed)
        assert again.record()["game"] == rules.name


def check_agent_contract(make_agent, rules, games=4, opponent="random"):
    """An agent plays only legal moves, repeats itself under a seed, survives every seat."""
    for seat in range(rules.num_players):
        for seed in range(games):
            agents = [opponent] * rules.num_players
            agents[seat] = make_agent()
            first = play_game(rules, agents, seed=seed)
            agents[seat] = make_agent()
            second = play_game(rules, agents, seed=seed)
            assert first.record() == second.record(), f"seeded play did not repeat (seat {seat}, seed {seed})"
            assert first.is_terminal()
