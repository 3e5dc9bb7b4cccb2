"""Gooseberry Fool bots. Every bot reads only its :class:`~gopskit.games.gooseberry_fool.GooseberryObservation`.

===================  ==========================================================
name                 how it plays
===================  ==========================================================
random               a legal card (or goosing choice) uniformly at random
gooseberry-middler   sends each trick where it keeps its own running total
                     most safely between the other two
===================  ==========================================================
"""

from __future__ import annotations

from math import comb

import numpy as np

from ..cards import JOKER, suit_of
from ..games.gooseberry_fool import PLAYERS, deal_points, gooseberry
from . import register
from .base import Agent

GAME = ("gooseberry-fool",)


def middle_margin(totals, me: int) -> float:
    """How safely ``me`` sits in the middle of ``totals``: positive when strictly between the others.

    It is the distance to the nearer of the other two totals, negative when
    ``me`` is above the highest or below the lowest (zero on a tie).

    >>> middle_margin([10, 14, 20], 1), middle_margin([10, 24, 20], 1)
    (4, -4)
    """
    others = [t for p, t in enumerate(totals) if p != me]
    return min(totals[me] - min(others), max(others) - totals[me])


def taker_values(obs) -> np.ndarray:
    """``values[w]``: the bot's middle margin if seat ``w`` takes the trick being played.

    Totals are the match totals so far plus this deal's trick points; a
    trick taken by ``w`` gives ``w`` one point and the player on ``w``'s
    left two.
    """
    base = np.array(obs.match_scores or (0,) * PLAYERS) + np.array(obs.points)
    values = np.zeros(PLAYERS)
    for taker in range(PLAYERS):
        won = [int(taker == p) for p in range(PLAYERS)]
        values[taker] = middle_margin(base + np.array(deal_points(won)), obs.player)
    return values


def known_voids(obs) -> set[tuple[int, str]]:
    """Pairs ``(seat, suit)``: that seat once failed to follow that suit, so holds none of it."""
    voids = set()
    tricks = [t.plays for t in obs.history] + [obs.table]
    for plays in tricks:
        if not plays or plays[0][1] == JOKER:
            continue
        led = suit_of(plays[0][1])
        voids |= {(seat, led) for seat, card in plays[1:] if card == JOKER or suit_of(card) != led}
    return voids


def likely_cards(obs, seat: int, led: str | None, pool: list[str], voids) -> dict[str, float]:
    """A rough chance for each card of ``pool`` to be what ``seat`` plays to a trick led in ``led``.

    The seat follows suit with the chance that a hand of its size, drawn
    from ``pool``, holds a card of ``led`` (none if it is known to be void
    there); each card of the right kind is equally likely.
    """
    follow = [c for c in pool if c != JOKER and led is not None and suit_of(c) == led]
    other = [c for c in pool if c not in follow]
    if not follow or (seat, led) in voids:
        return {c: 1.0 / len(other) for c in other} if other else {}
    size = min(obs.hand_sizes[seat], len(pool))
    p_follow = 1.0 - comb(len(pool) - len(follow), size) / comb(len(pool), size)
    chances = {c: p_follow / len(follow) for c in follow}
    chances.update({c: (1.0 - p_follow) / len(other) for c in other})
    return chances


@register
class Middler(Agent):
    """Plays for the middle: each trick goes where its own total stays between the others'.

    The winner of Gooseberry Fool is the *middling* player, and every trick
    moves three points (one to its taker, two to the taker's left), so the
    bot scores each possible taker of a trick by how far its own total then
    sits inside the band between the other two (:func:`middle_margin`, on
    match totals plus this deal's points). As the Goose's holder it gives
    the trick to the best taker. As the last player it knows which card
    takes the trick; earlier in a trick it averages over the cards the
    others may play (unseen cards, following suit as often as a random hand
    of their size would allow, never in a suit they showed void). Why it is
    reasonable: it chases the game's real goal, the middle, one trick at a
    time, and it uses the odd-card-out rule exactly; it does not plan ahead.
    """

    name = "gooseberry-middler"
    classifier = {"stochastic": False, "memory": "game", "uses_opponent_bids": True, "games": GAME}

    def act(self, obs):
        values = taker_values(obs)
        if obs.goose_holder is not None:
            return max(obs.legal_moves, key=lambda seat: (values[seat], seat == obs.player, -seat))
        scored = [(self._expected(obs, card, values), -i, card) for i, card in enumerate(obs.legal_moves)]
        return max(scored)[2]

    def _expected(self, obs, card: str, values: np.ndarray) -> float:
        table = list(obs.table) + [(obs.player, card)]
        led = obs.led_suit if obs.table else (None if card == JOKER else suit_of(card))
        later = [(obs.player + k) % PLAYERS for k in range(1, PLAYERS - len(table) + 1)]
        pool, voids = [c for c in obs.unseen], known_voids(obs)
        total = weight = 0.0
        for cards, chance in _completions(obs, later, led, pool, voids):
            total += chance * _trick_value(table + cards, obs.player, values)
            weight += chance
        return total / weight if weight else _trick_value(table, obs.player, values)


def _completions(obs, seats, led, pool, voids):
    """Every way the ``seats`` still to play might finish the trick, with a rough weight."""
    if not seats:
        yield [], 1.0
        return
    first = likely_cards(obs, seats[0], led, pool, voids)
    for card, chance in first.items():
        rest = [c for c in pool if c != card]
        for cards, more in _completions(obs, seats[1:], led, rest, voids):
            yield [(seats[0], card)] + cards, chance * more


def _trick_value(plays, me: int, values: np.ndarray) -> float:
    cards = [c for _, c in plays]
    if len(cards) < PLAYERS:
        return float(values.mean())
    if JOKER in cards:
        holder = plays[cards.index(JOKER)][0]
        return float(values.max()) if holder == me else float(values.mean())
    return float(values[plays[gooseberry(cards)[0]][0]])
