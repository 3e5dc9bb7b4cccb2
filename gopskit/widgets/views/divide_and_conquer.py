"""How the Divide and Conquer board looks: two open hands, one trick at a time.

Each card keeps the suit of the hand it was dealt in (player 1's spades,
player 2's hearts), so when the hands change places after five tricks the
cards cross the table without changing colour.
"""

from __future__ import annotations

from ...cards import card_name
from ...games.wording import GAME_TITLES
from .base import KEYS, OptionSpec
from .table import CardTableView, Seat, current_hand

SUITS = ("S", "H")


class DivideAndConquerView(CardTableView):
    game = "divide-and-conquer"
    title = GAME_TITLES["divide-and-conquer"]
    blurb = "Open hands: a low card beats a high one it divides."
    centre_label = "Trick"
    bot_preference = ("dc-counter-greedy", "random")
    confirm_label = "Confirm card"
    chart_title = "Tricks won"

    chart_axis = "trick"

    def option_specs(self, rules_class):
        return [OptionSpec("halves", "Halves", "int", low=1, high=2, help="2: the full game, hands swapped after five tricks; 1: only the first five tricks")]

    def face(self, card, seat=None):
        return card_name(int(card)), SUITS[seat] if seat is not None else ""

    def name(self, card, seat=None):
        return card_name(int(card))

    def card(self, state, card, seat=None):
        dealt = current_hand(state).dealt
        owner = 0 if card in dealt[0] else 1
        return card_name(int(card)), SUITS[owner], card_name(int(card))

    def key(self, move):
        return KEYS.get(move, str(move)) if isinstance(move, int) and move <= 13 else ""

    def centre(self, state, obs):
        total = state.rules.num_tricks
        if state.is_terminal():
            return [], f"All {total} tricks played."
        half = f"Half {obs.half + 1} of {obs.halves}, " if obs.halves > 1 else ""
        return [], f"{half}trick {obs.trick + 1} of {total}. Both hands are open."

    def seat(self, state, obs, player, viewer):
        hand = [self.card(state, c, player) for c in obs.hands[player]]
        won = [self.card(state, c) for t in obs.history if t.winner == player for c in t.cards]
        count = obs.tricks_won[player]
        return Seat(str(count), won, hand, won_label=f"tricks won: {count}")

    def plays(self, event):
        return list(enumerate(event.cards)), event.winner

    def prompt(self, state, seat, names):
        return (f"{names[seat]}: choose a card. The higher card wins, unless the lower one divides it "
                "exactly or is one less: then the lower card wins. Q counts 12.")

    def hand_scores(self, hand, events):
        totals, out = [0, 0], []
        for trick in events:
            totals[trick.winner] += 1
            out.append(list(totals))
        return out

