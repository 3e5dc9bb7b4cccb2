"""How the Throps board looks: the stock card on offer, three private hands."""

from __future__ import annotations

from ...cards import parse_card, rank_name
from ...games.throps import SCORING_SUITS
from .base import OptionSpec
from .table import CardTableView, Seat


class ThropsView(CardTableView):
    game = "throps"
    title = "Throps"
    blurb = "Four hands, one a dummy stock: collect one suit."
    centre_label = "Stock card"
    app_options = {"target": None}
    bot_preference = ("throps-greedy", "random")

    def option_specs(self, rules_class):
        return [
            OptionSpec("scoring_suit", "Scoring suit", "choice", SCORING_SUITS, help="the suit that scores plus"),
            OptionSpec("target", "Play to", "optional-int", low=0, high=1000, help="0: a single deal"),
            OptionSpec("max_deals", "At most deals", "int", low=1, high=1000, help="a game to a target stops after this many"),
        ]

    def face(self, card, seat=None):
        rank, suit = parse_card(card)
        return rank_name(rank), suit

    def centre(self, state, obs):
        if obs.stock_card is None:
            return [], "the stock is used up"
        return [self.face(obs.stock_card)], f"{obs.stock_left} stock cards below it"

    def seat(self, state, obs, player, viewer):
        won = [self.face(c) for c in obs.won[player]]
        mine = player == obs.player and viewer is not None
        hand = [self.face(c) for c in obs.hand] if mine else None
        return Seat(str(obs.scores[player]), won, hand, hidden=obs.hand_sizes[player], note="score if the deal ended now")

    def prompt(self, state, seat, names):
        return f"{names[seat]}: bid a card for the stock card. Ties for highest go by suit: same suit, colour, then parity."
