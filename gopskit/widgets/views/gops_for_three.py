"""How the Gops for three board looks: diamonds and a Joker on offer, three suits bidding.

The Ace is two cards in the hand row: ``A↑`` bids it high, ``A↓`` low (the
game's moves ``"A+"`` and ``"A-"``).
"""

from __future__ import annotations

from ...cards import rank_name
from ...games.gops_for_three import ACE_HIGH, ACE_LOW, BOTTOM_JOKER_RULES, JOKER
from .base import KEYS, OptionSpec
from .table import CardTableView, Seat

SUITS = ("S", "H", "C")


class GopsForThreeView(CardTableView):
    game = "gops-for-three"
    title = "Gops for three"
    blurb = "Parlett's three-hand Gops: win the most or the least."
    app_options = {"deals": 1}
    bot_preference = ("gops3-proportional", "random")
    # two copies of the deterministic bot always tie, which hands every prize to the person
    default_bots = ("gops3-proportional", "random")

    def option_specs(self, rules_class):
        return [
            OptionSpec("deals", "Deals", "int", low=1, high=10),
            OptionSpec("target", "Play to", "optional-int", low=0, high=1000, help="0: play the number of deals"),
            OptionSpec("aces_pair", "Aces pair", "bool", help="two Aces tie whatever their declarations"),
            OptionSpec("bottom_joker", "Joker at the bottom", "choice", BOTTOM_JOKER_RULES),
            OptionSpec("max_deals", "At most deals", "int", low=1, high=1000, help="a game to a target stops after this many"),
        ]

    def face(self, card, seat=None):
        if card == ACE_HIGH:
            return "A↑", SUITS[seat or 0]
        if card == ACE_LOW:
            return "A↓", SUITS[seat or 0]
        if card == JOKER:
            return "JK", ""
        return rank_name(int(card)), SUITS[seat] if seat is not None else "D"

    def prize_face(self, card):
        return ("JK", "") if card == JOKER else (rank_name(int(card)), "D")

    def key(self, move):
        return {ACE_HIGH: "a", ACE_LOW: "l"}.get(move) or (KEYS.get(move, str(move)) if isinstance(move, int) else "")

    def centre(self, state, obs):
        cards = [self.prize_face(c) for c in obs.offer]
        caption = f"{len(obs.unseen_prizes)} cards still in the stack"
        if obs.rebid:
            caption = f"All three bids were equal: bid again (round {obs.rebid + 1}). " + caption
        return cards, caption

    def seat(self, state, obs, player, viewer):
        won = [self.prize_face(c) for trick in obs.won[player] for c in trick]
        hand = [self.face(c, player) for c in obs.hands[player]]
        note = f"would score {obs.deal_points[player]} now"
        return Seat(str(obs.totals[player]), won, hand, note=note)

    def prompt(self, state, seat, names):
        return f"{names[seat]}: bid for the prize. The Ace bids high (A↑, key A) or low (A↓, key L)."
