"""The CFR bot: plays the CFR+ average strategy of small hidden-information Goofspiel hands.

It is the equilibrium player of the bluffing lesson: under hidden bids, Blind
Goofspiel or Defeat the Dealer (two players, up to 4 cards) it bids as an
approximate Nash equilibrium does, bluffs included. The solution is computed
on first use (a few seconds at 4 cards, CFR+ with a fixed number of
iterations, so it is the same every time) and kept for the rest of the
process; its exploitability is below 0.01 points a hand at 3 cards and
about 0.01 at 4.

>>> from gopskit.games.goofspiel import Goofspiel
>>> from gopskit.arena import play_game
>>> state = play_game(Goofspiel(num_cards=3, hidden_bids=True), ["cfr", "random"], seed=1)
>>> state.is_terminal()
True
"""

from __future__ import annotations

import dataclasses
import functools

import numpy as np

from ..errors import AgentError
from ..solvers._cfr_tree import MAX_CFR_CARDS
from .base import Agent
from . import register

MAX_BOT_CARDS = 4
ITERATIONS = {1: 1, 2: 50, 3: 400, 4: 600}


@functools.lru_cache(maxsize=16)
def solved_hand(rules, dealer):
    """The CFR+ solution of one hand under ``rules`` (match options stripped) with ``dealer``."""
    from ..solvers.cfr import solve_cfr

    return solve_cfr(rules, ITERATIONS[rules.num_cards], dealer=dealer)


def _hand_rules(rules):
    """The rules of a single hand: options that only shape a match do not change the solution."""
    return dataclasses.replace(rules, target=None, max_hands=20, dealer=0)


@register
class CFRBot(Agent):
    """Bids with the probabilities of the CFR+ equilibrium (hidden bids, blind, Defeat the Dealer)."""

    name = "cfr"
    classifier = {"stochastic": True, "memory": "game", "uses_opponent_bids": True, "games": ("goofspiel",)}

    def supports(self, rules) -> bool:
        return (rules.name == "goofspiel" and rules.players == 2 and rules.num_cards <= min(MAX_BOT_CARDS, MAX_CFR_CARDS)
                and not (rules.defeat_the_dealer and rules.hidden_bids))

    def policy(self, observation) -> dict:
        if self.rules is None:
            raise AgentError("the cfr bot needs reset(rules, seat) before it is asked to bid")
        if not self.supports(self.rules):
            raise AgentError(f"the cfr bot plays two-player Goofspiel of up to {MAX_BOT_CARDS} cards "
                             "(not Defeat the Dealer with hidden bids)")
        solution = solved_hand(_hand_rules(self.rules), observation.dealer)
        return solution.policy(observation)

    def seat_note(self, rules, short: bool = False) -> str | None:
        """How far the bot's mix is from an equilibrium: what a perfect opponent who knew it would gain a hand.

        That is :func:`gopskit.solvers.cfr.exploitability` of the solved hand
        (a best responder's gain over the game's value, averaged over the two
        seats; with Defeat the Dealer the larger of the two dealers'). The hand
        is solved here if it was not yet (about a second at 4 cards) and kept.

        >>> from gopskit.games.goofspiel import Goofspiel
        >>> print(CFRBot().seat_note(Goofspiel(num_cards=2, blind=True), short=True))
        CFR equilibrium bot: an approximate equilibrium; a perfect opponent would gain less than 0.0001 points a hand.
        """
        if not self.supports(rules):
            return None
        from ..solvers.cfr import exploitability
        from .labels import bot_label

        hand = _hand_rules(rules)
        gain = max(exploitability(solved_hand(hand, d)) for d in ((0, 1) if rules.defeat_the_dealer else (0,)))
        amount = f"{gain:.4f}" if gain >= 0.00005 else "less than 0.0001"
        if short:
            return f"{bot_label(self.name)}: an approximate equilibrium; a perfect opponent would gain {amount} points a hand."
        rounds = ITERATIONS[rules.num_cards]
        return (f"{bot_label(self.name)}: an approximate equilibrium ({rounds} round{'s' if rounds != 1 else ''} of "
                f"CFR+): a perfect opponent who knew its mix would gain {amount} points a hand against it.")

    def act(self, observation):
        policy = self.policy(observation)
        cards = sorted(policy)
        weights = np.array([policy[c] for c in cards])
        return cards[int(self.rng.choice(len(cards), p=weights / weights.sum()))]
