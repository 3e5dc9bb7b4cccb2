"""Batch play: many seeded games at once (docs/architecture.md, batch play).

``play_many(rules, agents, games, seed)`` returns a ``(games, players)``
array of the points each player won, identical for the same seed.

Two paths give the figures:

* the **vectorised path** plays one turn of every game with a few numpy
  operations; it is taken when the game is Goofspiel without matches or a
  dealer, and every agent has a ``bid_batch`` method for these rules
  (random, match-prize, one-higher, greedy-high);
* the **per-game path** plays the games one by one through the engine, for
  every other game and agent.

>>> import gopskit
>>> rules = gopskit.Goofspiel(num_cards=13)
>>> points = gopskit.play_many(rules, ["random", "match-prize"], games=2000, seed=0)
>>> bool(points[:, 1].mean() > points[:, 0].mean())
True
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from tqdm.auto import tqdm

from ..agents.goofspiel import BatchView, strength_table
from ..errors import AgentError, OptionError
from ..games.base import seed_sequence
from .match import play_game, seat_agents

METHODS = ("auto", "vector", "loop")


def play_many(rules, agents: Sequence, games: int, seed=None, *, method: str = "auto",
              progress: bool = False) -> np.ndarray:
    """Play ``games`` games; return each player's points, shape ``(games, players)``.

    ``agents`` holds agent objects or registered names, one per seat.
    ``method`` forces a path ("vector" or "loop"; "auto" picks the fast one
    when it can). ``progress`` shows a tqdm bar on the per-game path.
    """
    if isinstance(games, bool) or not isinstance(games, (int, np.integer)) or games < 0:
        raise OptionError(f"games must be a whole number of games, 0 or more, not {games!r}")
    if method not in METHODS:
        raise OptionError(f"unknown method {method!r}; allowed: {', '.join(METHODS)}")
    agents = seat_agents(rules, agents)
    vectorisable = can_vectorise(rules, agents)
    if method == "vector" and not vectorisable:
        raise OptionError("the vectorised path needs Goofspiel without matches or a dealer, "
                          "and agents that can batch-play it (random, match-prize, one-higher, greedy-high)")
    if vectorisable and method != "loop":
        return _play_vectorised(rules, agents, int(games), seed)
    return _play_per_game(rules, agents, int(games), seed, progress)


def can_vectorise(rules, agents) -> bool:
    """True when ``rules`` and every agent allow the vectorised path."""
    if rules.name != "goofspiel" or rules.is_match():
        return False
    return all(getattr(a, "supports_batch", lambda r: False)(rules) for a in agents)


def _play_per_game(rules, agents, games, seed, progress) -> np.ndarray:
    points = np.zeros((games, rules.num_players))
    seeds = seed_sequence(seed).spawn(games) if games else []
    for g in tqdm(range(games), disable=not progress, desc="games", unit="game"):
        points[g] = play_game(rules, agents, seed=seeds[g]).scores()
    return points


def _play_vectorised(rules, agents, games, seed) -> np.ndarray:
    """Play every game turn by turn with numpy; see :func:`resolve_batch` for a turn."""
    deal, *streams = seed_sequence(seed).spawn(1 + len(agents))
    rng = np.random.default_rng(deal)
    n, players = rules.num_cards, rules.players
    decks = _decks(rules, games, rng)
    hands = np.ones((players, games, n + 1), dtype=bool)
    hands[:, :, 0] = False
    table = strength_table(n, rules.ace_high)
    memories = [{} for _ in agents]
    agent_rngs = [np.random.default_rng(s) for s in streams]
    state = {"points": np.zeros((games, players)), "pot": np.zeros(games),
             "eligible": np.ones((games, players), dtype=bool)}
    rows = np.arange(games)
    for turn in range(n):
        prize = decks[:, turn]
        bids = np.empty((games, players), dtype=np.int64)
        for p, agent in enumerate(agents):
            view = BatchView(turn, prize, hands[p], n, rules.ace_high, memories[p])
            bid = np.asarray(agent.bid_batch(view, agent_rngs[p]), dtype=np.int64)
            if bid.shape != (games,) or not hands[p, rows, bid].all():
                raise AgentError(f"{agent.name} (player {p + 1}) made an illegal batch bid on turn {turn + 1}")
            bids[:, p] = bid
            hands[p, rows, bid] = False
        resolve_batch(rules, table, prize, bids, state)
    return state["points"]


def _decks(rules, games, rng) -> np.ndarray:
    if rules.prize_order == "shuffled":
        cards = np.tile(np.arange(1, rules.num_cards + 1, dtype=np.int64), (games, 1))
        return rng.permuted(cards, axis=1)
    return np.tile(np.asarray(rules.prize_deck(rng), dtype=np.int64), (games, 1))


def resolve_batch(rules, table, prize, bids, state) -> None:
    """Award one turn of every game, updating ``state`` (points, pot, eligible) in place.

    The same decisions as :func:`gopskit.games.goofspiel.resolve_turn`, on arrays.
    """
    strengths = table[bids]
    offer = state["pot"] + table[prize]
    if rules.ties == "unique":
        alone = (bids[:, :, None] == bids[:, None, :]).sum(axis=2) == 1
        masked = np.where(alone, strengths, -1)
        won = masked.max(axis=1) >= 0
    else:
        masked = np.where(state["eligible"], strengths, -1)
        leaders = masked == masked.max(axis=1, keepdims=True)
        won = leaders.sum(axis=1) == 1
    winner = masked.argmax(axis=1)
    state["points"][won, winner[won]] += offer[won]
    if rules.ties in ("carry", "rebid"):
        state["pot"] = np.where(won, 0.0, offer)
        if rules.ties == "rebid" and not rules.rebid_open:
            state["eligible"] = np.where(won[:, None], True, leaders)
    else:
        state["pot"] = np.zeros_like(offer)
