"""How the Gops for three board looks: diamonds and a Joker on offer, three suits bidding.

The Ace is two cards in the hand row: ``A↑`` bids it high, ``A↓`` low (the
game's moves ``"A+"`` and ``"A-"``); those are its names in the text too.
A panel's big number is what the deal would score if it ended now (the
middle total scores 0); the prize total it comes from is written under it.
"""

from __future__ import annotations

from ...cards import card_name, counted, rank_name
from ...games.gops_for_three import (ACE_HIGH, ACE_LOW, BOTTOM_JOKER_RULES, JOKER, GopsForThree, deal_points, prize_total,
                                      prize_values)
from ...games.wording import GAME_TITLES
from .base import KEYS, OptionSpec
from .table import CardTableView, Seat, current_hand

SUITS = ("S", "H", "C")


class GopsForThreeView(CardTableView):
    game = "gops-for-three"
    title = GAME_TITLES["gops-for-three"]
    blurb = "Parlett's three-hand Gops: win the most or the least."
    app_options = {"deals": 1}
    event_says_deal_over = True  # the last bid of a deal explains its scoring: "Deal over: ..."
    bot_preference = ("gops3-proportional", "random")
    # two copies of the deterministic bot always tie, which hands every prize to the person
    default_bots = ("gops3-proportional", "random")
    confirm_label = "Confirm bid"
    chart_title = "Score after each bid (as if the deal ended there)"
    chart_axis = "bid"

    def option_specs(self, rules_class):
        return [
            OptionSpec("deals", "Deals", "int", low=1, high=10, help="deals in a game (1 to 10)"),
            OptionSpec("target", "Play to (0: no target)", "optional-int", low=0, high=1000,
                       help="instead of a number of deals, deal until someone's total reaches this"),
            OptionSpec("aces_pair", "Aces pair", "bool", help="two Aces tie whatever their declarations"),
            OptionSpec("bottom_joker", "Joker at the bottom", "choice", BOTTOM_JOKER_RULES,
                       help="a Joker left at the bottom of the stack", words=(
                           ("last-trick", "Last diamond", "it is won with the last diamond"),
                           ("nobody", "Nobody", "it stays unturned and nobody wins it"))),
            OptionSpec("max_deals", "At most deals", "int", low=1, high=1000, help="a game to a target stops after this many"),
        ]

    def settle_options(self, values):
        """A game to a target plays deals until someone reaches it: the number of deals then goes back to
        its default, which the rules require (the board opens on one deal)."""
        if values.get("target"):
            values = {**values, "deals": GopsForThree().deals}
        return values

    def face(self, card, seat=None):
        if card in (ACE_HIGH, ACE_LOW):
            return card_name(card), SUITS[seat or 0]
        if card == JOKER:
            return "JK", ""
        return rank_name(int(card)), SUITS[seat] if seat is not None else "D"

    def name(self, card, seat=None):
        """A bid is named by its rank (``'7'``, ``'A↑'``); a prize (no seat) is a diamond, ``'7♦'``."""
        if seat is None:
            return self.prize_name(card)
        return card_name(card)

    def prize_name(self, card):
        return card_name(card, suit="D")

    def prize_face(self, card):
        return ("JK", "", self.prize_name(card)) if card == JOKER else (rank_name(int(card)), "D", self.prize_name(card))

    def key(self, move):
        return {ACE_HIGH: "a", ACE_LOW: "l"}.get(move) or (KEYS.get(move, str(move)) if isinstance(move, int) else "")

    def centre(self, state, obs):
        cards = [self.prize_face(c) for c in obs.offer]
        left = len(obs.unseen_prizes)
        caption = f"{counted(left, 'card')} still in the stack" if left else "the stack is used up"
        if obs.rebid:
            caption = f"All three bids were equal: bid again (round {obs.rebid + 1}). " + caption
        return cards, caption

    def seat(self, state, obs, player, viewer):
        won = [self.prize_face(c) for trick in obs.won[player] for c in trick]
        hand = [self.card(state, c, player) for c in obs.hands[player]]
        hand_state = current_hand(state)
        score = hand_state.scores()[player]
        over = "scores" if hand_state.is_terminal() else "would score now"
        note = f"prize total {obs.totals[player]}{self._court_words(obs.won[player])}; {over} {score}"
        if obs.totals[player] != score and 0 < obs.totals[player]:
            note += " (the middle total scores 0)" if score == 0 else ""
        return Seat(str(score), won, hand, note=note)

    def _court_words(self, tricks) -> str:
        """What the won J, Q, K and Joker count, from the engine (:func:`prize_values`): a J is worth the
        lowest A..10 diamond its player won and a K the highest, so "prize total 11" under J 5 ★ 2 is
        explained on the panel. Every panel says it without "your": the panel may be another player's.
        A J or K worth 0 copies nothing: its player won no A..10 diamond (0 is no A..10 diamond's value)."""
        why = {11: "the lowest A–10 diamond won", 12: "always", 13: "the highest A–10 diamond won",
               JOKER: "the card turned with it"}
        said = [f"{self.prize_name(card)} = {value}, "
                + ("no A–10 diamond won" if card in (11, 13) and value == 0 else why[card])
                for card, value in prize_values(tricks) if card == JOKER or card >= 11]
        return f" ({'; '.join(said)})" if said else ""

    def face_down_hand(self, state, seat):
        """Face down, the Ace is one card, not its two bids (A↑ and A↓): one back per card held."""
        return [card for card in self.hand(state, seat) if card.move != ACE_LOW]

    def taker_text(self, event, names) -> str:
        """Who took the prize, or what the engine's outcome did with it: a three-way tie is no prize lost
        but a re-bid (``"rebid"``: the cards are set aside, everyone bids again), and with no card left
        to bid again nobody wins it (``"lost"``)."""
        if event.outcome == "rebid":
            return "three-way tie: bid again"
        if event.outcome == "lost":
            return "nobody: three-way tie, no cards left"
        return super().taker_text(event, names)

    def prompt(self, state, seat, names):
        """The Ace's two bids are explained only while the player to move can still bid it (the engine's legal moves)."""
        ace = " The Ace bids high (A↑, key A) or low (A↓, key L)." if ACE_HIGH in state.legal_moves(seat) else ""
        return f"{names[seat]}: bid for the prize.{ace}"

    def hand_scores(self, hand, events):
        won, out = [[] for _ in range(3)], []
        for event in events:
            if event.winner is not None:
                won[event.winner].append(tuple(event.offer))
            holder = next((p for p, w in enumerate(won) if any(JOKER in t for t in w)), None)
            out.append(deal_points([prize_total(w) for w in won], holder)[0])
        return out
