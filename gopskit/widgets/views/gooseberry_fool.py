"""How the Gooseberry Fool board looks: the trick in the middle, three private hands.

Play is one card at a time, so a click plays at once (no confirm). After the
Goose wins a trick its holder picks who takes it: the hand row then shows one
card per player, ``P1``..``P3``.
"""

from __future__ import annotations

from ...cards import JOKER, SUIT_NAMES, parse_card, rank_name
from ...games.gooseberry_fool import ENDINGS
from .base import OptionSpec
from .table import CardTableView, Seat


class GooseberryFoolView(CardTableView):
    game = "gooseberry-fool"
    title = "Gooseberry Fool"
    blurb = "A three-player trick game where the odd card out wins."
    centre_label = "Trick"
    confirm = False
    app_options = {"target": None}
    bot_preference = ("gooseberry-middler", "random")

    def option_specs(self, rules_class):
        return [
            OptionSpec("target", "Play to", "optional-int", low=0, high=1000, help="0: a single deal"),
            OptionSpec("ending", "Who wins the match", "choice", ENDINGS),
            OptionSpec("dealer", "First dealer (seat)", "int", low=0, high=2),
            OptionSpec("max_hands", "At most deals", "int", low=1, high=1000, help="a match stops after this many deals"),
        ]

    def face(self, card, seat=None):
        if isinstance(card, int):
            return f"P{card + 1}", ""
        if card == JOKER:
            return "JK", ""
        rank, suit = parse_card(card)
        return rank_name(rank), suit

    def centre(self, state, obs):
        cards = [self.face(c) for _seat, c in obs.table]
        if obs.goose_holder is not None:
            return cards, f"The Goose won: player {obs.goose_holder + 1} says who takes this trick."
        if obs.led_suit:
            return cards, f"Follow {SUIT_NAMES[obs.led_suit]} if you can."
        return cards, "A new trick: the leader plays any card."

    def seat(self, state, obs, player, viewer):
        mine = player == obs.player and viewer is not None
        hand = [self.face(c) for c in obs.hand] if mine else None
        return Seat(str(obs.points[player]), [], hand, hidden=obs.hand_sizes[player],
                    won_label=f"tricks taken: {obs.tricks_won[player]}", note="dealer" if obs.dealer == player else "")

    def plays(self, event):
        taker = event.taker if event.taker is not None else event.winner
        return list(event.plays), taker

    def prompt(self, state, seat, names):
        obs = state.observation(seat)
        if obs.goose_holder == seat:
            return f"{names[seat]}: your Goose won. Click P1, P2 or P3: who takes the trick?"
        return f"{names[seat]}: play a card (click it)."
