"""How the Throps board looks: the stock card on offer, three private hands."""

from __future__ import annotations

from ...cards import SUIT_NAMES, SUITS, card_name, counted, parse_card, rank_name
from ...games.throps import MAJOR, RELATIONS, SCORING_SUITS, score_cards, suit_relation
from ...games.wording import GAME_TITLES
from .base import OptionSpec
from .table import CardTableView, Seat, current_hand


class ThropsView(CardTableView):
    game = "throps"
    title = GAME_TITLES["throps"]
    blurb = "Four hands, one a dummy stock: collect one suit."
    centre_label = "Stock card"
    event_says_deal_over = True  # the last bid of a deal explains its scoring: "Deal over: ..."
    app_options = {"target": None}
    bot_preference = ("throps-greedy", "random")
    confirm_label = "Confirm bid"
    chart_title = "Score after each trick (as if the deal ended there)"
    chart_axis = "trick"

    def option_specs(self, rules_class):
        return [
            OptionSpec("scoring_suit", "Scoring suit", "choice", SCORING_SUITS, help="the suit that scores plus", words=(
                ("best", "Most valuable", "each player's suit worth the most"),
                ("longest", "Longest", "each player's suit with the most cards (the richer of two as long)"))),
            OptionSpec("target", "Play to (0: one deal)", "optional-int", low=0, high=1000,
                       help="deal again until someone's total reaches this"),
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
        below = f"{counted(obs.stock_left, 'stock card')} below it" if obs.stock_left else "the last stock card"
        return [self.card(state, obs.stock_card)], below

    def seat(self, state, obs, player, viewer):
        won = [self.card(state, c) for c in obs.won[player]]
        mine = player == obs.player and viewer is not None
        hand = [self.card(state, c) for c in obs.hand] if mine else None
        over = current_hand(state).is_terminal()
        note = "the deal's score" if over else "score if the deal ended now"
        return Seat(str(obs.scores[player]), won, hand, hidden=obs.hand_sizes[player], note=note)

    def prompt(self, state, seat, names):
        obs = state.observation(seat)
        return f"{names[seat]}: bid a card for the stock card. {tie_order_text(obs.stock_card)}"

    def hand_scores(self, hand, events):
        won, out = [[] for _ in range(hand.rules.num_players)], []
        for trick in events:
            won[trick.winner].append(trick.stock_card)
            out.append([score_cards(w, hand.rules.scoring_suit).total for w in won])
        return out


def tie_order_text(stock_card) -> str:
    """How a tie for highest is broken against this stock card, in words, from the engine's
    :func:`~gopskit.games.throps.suit_relation`: its suit first, then the same colour, then the same
    "parity" (spades and hearts are major suits, clubs and diamonds minor), then the last suit.

    >>> print(tie_order_text("7C"))
    Ties for highest go by suit: clubs (the stock card's suit), then spades (same colour), then diamonds (same parity: diamonds and clubs are the minor suits, spades and hearts the major), then hearts.
    """
    if stock_card is None:
        return ""
    stock = parse_card(stock_card)[1]
    order = sorted(SUITS, key=lambda s: suit_relation(s, stock))
    major = " and ".join(SUIT_NAMES[s] for s in SUITS if s in MAJOR)
    minor = " and ".join(SUIT_NAMES[s] for s in SUITS if s not in MAJOR)
    why = {
        "same suit": "the stock card's suit",
        "same colour": "same colour",
        "same parity": f"same parity: {minor} are the minor suits, {major} the major",
    }
    parts = []
    for s in order:
        relation = RELATIONS[suit_relation(s, stock)]
        parts.append(f"{SUIT_NAMES[s]} ({why[relation]})" if relation in why else SUIT_NAMES[s])
    return "Ties for highest go by suit: " + ", then ".join(parts) + "."
