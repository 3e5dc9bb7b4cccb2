"""Bots for Gops for three (Parlett). Besides the generic ``random`` bot:

=====================  =========================================================
name                   how it bids
=====================  =========================================================
gops3-proportional     ranks the prize among the prizes still to come and bids
                       the card at the same place in its own hand (Ross's
                       match-the-prize idea, stretched to any hand and prize)
gops3-spoiler          bids like gops3-proportional, but when it is far behind
                       in the deal it gives up the high total and plays to end
                       lowest, dumping its strongest cards on worthless prizes
=====================  =========================================================

Both read only their observation: the prize on offer, the stack cards not yet
turned, their hand and the piles won (all face up in this game).
"""

from __future__ import annotations

from ..games.gops_for_three import ACE_HIGH, ACE_LOW, JOKER, bid_strength
from . import register
from .base import Agent

GAMES = ("gops-for-three",)


def estimated_worth(card, obs) -> float:
    """What a prize card would add to this player's total, as far as it can tell.

    Ace..10 are worth their face, the Queen 0; the Jack and the King copy
    the lowest and highest Ace..10 diamond, guessed from the diamonds this
    player won plus those still to come (0 if there are none).
    """
    if card == JOKER:
        return 0.0
    pips = [c for t in obs.won[obs.player] for c in t if c != JOKER and c <= 10]
    pips += [c for c in obs.unseen_prizes + obs.offer if c != JOKER and c <= 10]
    return float({11: min(pips, default=0), 12: 0, 13: max(pips, default=0)}.get(card, card))


def offer_worth(offer, obs) -> float:
    """The worth of everything at stake: a Joker copies the card turned after it."""
    total = 0.0
    for i, card in enumerate(offer):
        nxt = offer[i + 1] if card == JOKER and i + 1 < len(offer) else None
        total += estimated_worth(nxt, obs) if nxt is not None else estimated_worth(card, obs)
    return total


def prize_quantile(obs) -> float:
    """Where the prize on offer sits among the prizes still to come, from 0 (least) to 1 (most)."""
    worth = offer_worth(obs.offer, obs)
    rest = [estimated_worth(c, obs) for c in obs.unseen_prizes if c != JOKER]
    if not rest:
        return 1.0
    below = sum(w < worth for w in rest) + 0.5 * sum(w == worth for w in rest)
    return below / len(rest)


def bid_at_quantile(moves, q: float):
    """The bid at fraction ``q`` of the way up a hand; the Ace counts low in the bottom half, high in the top."""
    ladder = sorted(moves, key=bid_strength)
    if ACE_LOW in ladder and ACE_HIGH in ladder:
        ladder.remove(ACE_HIGH if q < 0.5 else ACE_LOW)
    return ladder[round(q * (len(ladder) - 1))]


@register
class Proportional(Agent):
    """Bids the card that sits as high in its hand as the prize sits among the prizes left.

    Why it is sensible: Ross (1971) showed that against a random opponent
    the best Goofspiel bid is the card equal to the prize. Here the prize
    values are bent (Q 0, J and K copy other diamonds, the Joker doubles a
    prize) and cards are spent unevenly, so it matches *ranks within what is
    left* instead of face values: the most valuable prize to come gets its
    best card, a worthless Queen its worst. It aims for the high total, which
    is where the points are.

    >>> from gopskit.arena import play_game
    >>> from gopskit.games.gops_for_three import GopsForThree
    >>> play_game(GopsForThree(deals=1), ["gops3-proportional", "random", "random"], seed=1).is_terminal()
    True
    """

    name = "gops3-proportional"
    classifier = {"stochastic": False, "memory": "none", "uses_opponent_bids": False, "games": GAMES}

    def act(self, obs):
        return bid_at_quantile(obs.legal_moves, prize_quantile(obs))


@register
class Spoiler(Proportional):
    """Plays for the high total while it can win it, and for the low total when it cannot.

    Steps: (1) compare its prize total with the leader's, counting what is
    still in the stack; (2) if even taking every prize left could not reach
    the leader's total, or it trails by more than ``give_up`` points, it
    plays to finish *lowest*: it bids the card ranked as high in its hand
    as the prize is *low* among the prizes left (strong cards on worthless
    prizes, weak ones on rich prizes, so others take the points); (3)
    otherwise it bids like ``gops3-proportional``.

    Why it is sensible: the middle total scores nothing, so a player who
    cannot be highest gains by making sure to be lowest, and its low total
    then scores.
    """

    name = "gops3-spoiler"
    classifier = {"stochastic": False, "memory": "none", "uses_opponent_bids": False, "games": GAMES}

    def __init__(self, give_up: int = 20):
        super().__init__()
        self.give_up = give_up

    def plays_low(self, obs) -> bool:
        """True when the high total looks out of reach."""
        mine = obs.totals[obs.player]
        leader = max(t for p, t in enumerate(obs.totals) if p != obs.player)
        left = offer_worth(obs.offer, obs) + sum(estimated_worth(c, obs) for c in obs.unseen_prizes)
        return mine + left < leader or leader - mine > self.give_up

    def act(self, obs):
        q = prize_quantile(obs)
        return bid_at_quantile(obs.legal_moves, 1.0 - q if self.plays_low(obs) else q)
