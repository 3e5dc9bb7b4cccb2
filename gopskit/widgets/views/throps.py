"""How the Throps board looks: the stock card on offer, three private hands."""

from __future__ import annotations

from ...cards import card_name, counted, parse_card, rank_name
from ...games.throps import SCORING_SUITS, score_cards
from .base import OptionSpec
from .table import CardTableView, Seat, current_hand


class ThropsView(CardTableView):
    game = "throps"
    title = "Throps"
    blurb = "Four hands, one a dummy stock: collect one suit."
    centre_label = "Stock card"
    event_says_deal_over = True  # the last bid of a deal explains its scoring: "Deal over: ..."
    app_options = {"target": None}
    bot_preference = ("throps-greedy", "random")
    chart_title = "Score after each trick (as if the deal ended there)"
    chart_axis = "trick"

    def option_specs(self, rules_class):
        return [
            OptionSpec("scoring_suit", "Scoring suit", "choice", SCORING_SUITS, help="the suit that scores plus"),
            OptionSpec("target", "Play to (0: one deal)", "optional-int", low=0, high=1000, help="0: a single deal"),
            OptionSpec("max_deals", "At most deals", "int", low=1, high=1000, help="a game to a target stops after this many"),
        ]

    def face(self, card, seat=None):
        rank, suit = parse_card(card)
        return rank_name(rank), suit

    def name(self, card, seat=None):
        return card_name(card)

    def centre(self, state, obs):
        if obs.stock_card is None:
            return [], "the stock is used up"
        return [self.card(state, obs.stock_card)], f"{counted(obs.stock_left, 'stock card')} below it"

    def seat(self, state, obs, player, viewer):
        won = [self.card(state, c) for c in obs.won[player]]
        mine = player == obs.player and viewer is not None
        hand = [self.card(state, c) for c in obs.hand] if mine else None
        over = current_hand(state).is_terminal()
        note = "the deal's score" if over else "score if the deal ended now"
        return Seat(str(obs.scores[player]), won, hand, hidden=obs.hand_sizes[player], note=note)

    def prompt(self, state, seat, names):
        return f"{names[seat]}: bid a card for the stock card. Ties for highest go by suit: same suit, colour, then parity."

    def hand_scores(self, hand, events):
        won, out = [[] for _ in range(hand.rules.num_players)], []
        for trick in events:
            won[trick.winner].append(trick.stock_card)
            out.append([score_cards(w, hand.rules.scoring_suit).total for w in won])
        return out
