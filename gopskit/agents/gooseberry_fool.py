"""Gooseberry Fool bots. Every bot reads only its :class:`~gopskit.games.gooseberry_fool.GooseberryObservation`.

===================  ==========================================================
name                 how it plays
===================  ==========================================================
random               a legal card (or goosing choice) uniformly at random
gooseberry-middler   sends each trick where its chance of ending in the
                     middle is best, judging the rest of the deal as random
===================  ==========================================================
"""

from __future__ import annotations

from math import comb

import numpy as np

from ..cards import JOKER
from ..games.gooseberry_fool import BONUS, CARD_SUIT, PLAYERS, deal_points, gooseberries, gooseberry, middling
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


def gooseberry_chance(totals, tricks_won, remaining: int, me: int, bonus: bool) -> float:
    """The chance that ``me`` ends the deal as the gooseberry if the ``remaining`` tricks fall at random.

    Each remaining trick goes to any of the three seats with chance 1/3
    (a multinomial over the split of tricks). ``totals`` are the match
    totals before this deal; with ``bonus`` (a match) the deal's middling
    score gets its 10 before the middling *total* is judged; without it
    (a single deal) the middling deal score wins.

    >>> gooseberry_chance([0, 0, 0], [5, 4, 1], 0, 2, bonus=False)  # points 7, 14, 9
    1.0
    """
    chance = 0.0
    for a in range(remaining + 1):
        for b in range(remaining - a + 1):
            c = remaining - a - b
            weight = comb(remaining, a) * comb(remaining - a, b) / 3**remaining
            points = deal_points([tricks_won[0] + a, tricks_won[1] + b, tricks_won[2] + c])
            mid = middling(points)
            if bonus and mid is not None:
                points[mid] += BONUS
            winners = gooseberries([t + p for t, p in zip(totals, points)])
            chance += weight * (me in winners) / len(winners)
    return chance


def taker_values(obs) -> np.ndarray:
    """``values[w]``: how good it is for the bot that seat ``w`` takes the trick being played.

    The main term is :func:`gooseberry_chance` after that trick; a small
    share of :func:`middle_margin` on the running totals breaks ties (late
    in a deal many outcomes are already sure).
    """
    totals = np.array(obs.match_scores or (0,) * PLAYERS)
    tricks_in_deal = sum(obs.tricks_won) + (sum(obs.hand_sizes) + len(obs.table)) // PLAYERS
    remaining = tricks_in_deal - sum(obs.tricks_won) - 1
    values = np.zeros(PLAYERS)
    for taker in range(PLAYERS):
        won = [n + (p == taker) for p, n in enumerate(obs.tricks_won)]
        chance = gooseberry_chance(totals, won, remaining, obs.player, obs.match_scores is not None)
        values[taker] = chance + 1e-3 * middle_margin(totals + np.array(deal_points(won)), obs.player)
    return values


def known_voids(obs) -> set[tuple[int, str]]:
    """Pairs ``(seat, suit)``: that seat once failed to follow that suit, so holds none of it."""
    voids = set()
    tricks = [t.plays for t in obs.history] + [obs.table]
    for plays in tricks:
        if not plays or plays[0][1] == JOKER:
            continue
        led = CARD_SUIT[plays[0][1]]
        voids |= {(seat, led) for seat, card in plays[1:] if card == JOKER or CARD_SUIT[card] != led}
    return voids


def likely_cards(obs, seat: int, led: str | None, pool: list[str], voids) -> dict[str, float]:
    """A rough chance for each card of ``pool`` to be what ``seat`` plays to a trick led in ``led``.

    The seat follows suit with the chance that a hand of its size, drawn
    from ``pool``, holds a card of ``led`` (none if it is known to be void
    there); each card of the right kind is equally likely.
    """
    follow = [c for c in pool if c != JOKER and led is not None and CARD_SUIT[c] == led]
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
    """Plays for the middle: each trick goes where its chance of being the gooseberry is best.

    The winner of Gooseberry Fool is the *middling* player, and every trick
    moves three points (one to its taker, two to the taker's left). For
    each seat that might take the trick being played, the bot works out its
    chance of ending the deal in the middle if the tricks after this one
    fell at random (:func:`gooseberry_chance`, on match totals in a match).
    As the Goose's holder it gives the trick to the best taker. As the last
    player it knows which card takes the trick; earlier in a trick it
    averages over the cards the others may play (unseen cards, following
    suit as often as a random hand of their size would allow, never in a
    suit they showed void). Why it is reasonable: it chases the game's real
    goal, the middle, and uses the odd-card-out rule exactly; it does not
    plan its own later tricks (it treats them as random too).
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
        """The average of ``values`` over who takes the trick if the bot plays ``card`` now."""
        table = list(obs.table) + [(obs.player, card)]
        led = obs.led_suit if obs.table else (None if card == JOKER else CARD_SUIT[card])
        later = [(obs.player + k) % PLAYERS for k in range(1, PLAYERS - len(table) + 1)]
        voids = known_voids(obs)
        guesses = [likely_cards(obs, seat, led, list(obs.unseen), voids) for seat in later]
        total = weight = 0.0
        for cards, chance in _completions(later, guesses):
            total += chance * _trick_value(table + cards, obs.player, values)
            weight += chance
        return total / weight if weight else float(values.mean())


def _completions(seats, guesses):
    """Every way the ``seats`` still to play might finish the trick, with a rough weight.

    Each seat's guess was made from the same unseen cards; a card cannot be
    played twice, so pairs that repeat a card are skipped.
    """
    if not seats:
        yield [], 1.0
    elif len(seats) == 1:
        for card, chance in guesses[0].items():
            yield [(seats[0], card)], chance
    else:
        for first, p in guesses[0].items():
            for second, q in guesses[1].items():
                if first != second:
                    yield [(seats[0], first), (seats[1], second)], p * q


def _trick_value(plays, me: int, values: np.ndarray) -> float:
    cards = [c for _, c in plays]
    if JOKER in cards:
        holder = plays[cards.index(JOKER)][0]
        return float(values.max()) if holder == me else float(values.mean())
    return float(values[plays[gooseberry(cards)[0]][0]])
