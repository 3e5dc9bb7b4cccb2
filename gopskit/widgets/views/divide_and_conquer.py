"""How the Divide and Conquer board looks: two open hands, one trick at a time."""

from __future__ import annotations

from ...games.divide_and_conquer import card_label
from .base import KEYS, OptionSpec, all_events
from .table import CardTableView, Seat

SUITS = ("S", "H")


class DivideAndConquerView(CardTableView):
    game = "divide-and-conquer"
    title = "Divide and Conquer"
    blurb = "Open hands: a low card beats a high one it divides."
    centre_label = "Trick"
    bot_preference = ("dc-counter-greedy", "random")

    def option_specs(self, rules_class):
        return [OptionSpec("halves", "Halves", "int", low=1, high=2, help="2: swap hands after five tricks")]

    def face(self, card, seat=None):
        return card_label(int(card)), SUITS[seat] if seat is not None else ""

    def key(self, move):
        return KEYS.get(move, str(move)) if isinstance(move, int) and move <= 13 else ""

    def centre(self, state, obs):
        return [], f"Half {obs.half + 1} of {obs.halves}, trick {obs.trick + 1}. Both hands are open."

    def seat(self, state, obs, player, viewer):
        hand = [self.face(c, player) for c in obs.hands[player]]
        return Seat(str(obs.tricks_won[player]), [], hand, won_label="tricks won (score)")

    def plays(self, event):
        return list(enumerate(event.cards)), event.winner

    def prompt(self, state, seat, names):
        return (f"{names[seat]}: choose a card. The higher card wins, unless the lower one divides it "
                "exactly or is one less: then the lower card wins.")

    def score_series(self, state):
        totals, series = [0, 0], [[0.0], [0.0]]
        for trick in all_events(state):
            totals[trick.winner] += 1
            for p in range(2):
                series[p].append(float(totals[p]))
        return series
