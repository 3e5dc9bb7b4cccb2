"""How a Goofspiel board looks: the prize, the hands, the bids, the piles.

Pure functions of the game state (no ipywidgets). What a seat may see comes
from :meth:`GoofspielState.observation`, so every variant hides what its
rules hide: a blind prize is a face-down card until the bids are shown,
hidden bids stay face down until the whole game is over (then every bid is
shown, and the screen says so), face-down trophies show card backs and ``?``
scores until the hand ends.

Each seat bids from its own suit (player 1 spades, player 2 hearts, player 3
clubs, then a second pack); the prizes are diamonds, as at a real table.

>>> from gopskit.games.goofspiel import Goofspiel
>>> view = GoofspielView()
>>> state = Goofspiel(num_cards=3, prize_order="ascending").new_game()
>>> "gopskit-prize" in view.render_table(state, 0, ["Player 1", "Player 2"])
True
>>> [c.rank for c in view.hand(state, 0)]
['A', '2', '3']
"""

from __future__ import annotations

import dataclasses
from html import escape

from ...games.base import GameState, MatchState
from ...games.wording import GAME_TITLES
from ...games.goofspiel import PRIZE_ORDERS, TIE_RULES, Goofspiel, TurnView
from ...cards import and_list, card_name, counted, in_sentence
from ..cards import render_card, render_cards
from .base import (PRIZE_ORDER_WORDS, GameView, HandCard, OptionSpec, _key, _number, all_events, hand_over_text, match_line_text,
                   match_over, render_scoreboard, score_label)
from .table import empty_pile

SEAT_SUITS = ("S", "H", "C")
PRIZE_SUIT = "D"
# each tie rule on a control: its label and what it does (the options panel, the strategy explorer)
TIE_CHOICES = (
    ("discard", "Discard the prize", "nobody takes the prize; it leaves the game"),
    ("carry", "Carry it over", "the prize stays and the next turn is played for both"),
    ("unique", "Highest unmatched bid", "every bid someone else matched drops out; the highest bid left wins"),
    ("rebid", "Bid again", "the prize stays, another is turned, and only the players who tied can win both"),
)


def seat_suit(seat: int) -> str:
    """The suit seat ``seat`` bids with: spades, hearts, clubs, then again from a second pack."""
    return SEAT_SUITS[seat % len(SEAT_SUITS)]


def current_hand(state: GameState):
    """The hand being played (a match's current hand, or the state itself)."""
    return state.hand if isinstance(state, MatchState) else state


class GoofspielView(GameView):
    """Draws every Goofspiel variant."""

    game = "goofspiel"
    title = GAME_TITLES["goofspiel"]
    blurb = "Bid a card for each prize; the highest bid wins it."
    confirm = True
    confirm_label = "Confirm bid"
    app_options = {"num_cards": 5}
    bot_preference = ("match-prize", "random")
    deal_word = "hand"

    def option_specs(self, rules_class=Goofspiel) -> list[OptionSpec]:
        return [
            OptionSpec("num_cards", "Cards", "int", low=1, high=13, help="cards in each suit (1 to 13)"),
            OptionSpec("players", "Players", "int", low=2, high=7, help="2 to 7; four or more play with a second pack"),
            OptionSpec("ties", "Ties", "choice", TIE_RULES, help="when the highest bids are equal", words=TIE_CHOICES),
            OptionSpec("rebid_open", "Rebid open to all", "bool",
                       help="with ties “Bid again”: anyone may win the rebid, not only the players who tied"),
            OptionSpec("prize_order", "Prize order", "choice", PRIZE_ORDERS, words=PRIZE_ORDER_WORDS),
            OptionSpec("ace_high", "Ace high", "bool", help="the Ace bids above the top card and is worth one more"),
            OptionSpec("blind", "Blind", "bool", help="the prize is turned only after the bids"),
            OptionSpec("face_down_trophies", "Face-down trophies", "bool", help="won piles and scores hidden until the end"),
            OptionSpec("hidden_bids", "Hidden bids", "bool", help="only the winner of each turn is announced; every bid is revealed at the end"),
            OptionSpec("defeat_the_dealer", "Defeat the dealer", "bool", help="the dealer sees the prize and bids first"),
            OptionSpec("dealer", "First dealer", "seat", low=0, high=6, help="Defeat the Dealer: who deals the first hand"),
            OptionSpec("target", "Match to (0: one hand)", "optional-int", low=0, high=1000,
                       help="deal hands until someone's total reaches this"),
            OptionSpec("max_hands", "At most hands", "int", low=1, high=1000, help="a match stops after this many hands"),
        ]

    # -- the hand row ------------------------------------------------------
    def hand(self, state, seat):
        obs = state.observation(seat)
        legal = set(obs.legal_moves)
        table_bid = obs.table_bids[seat] if obs.table_bids else None
        return [
            HandCard(c, _rank(c), seat_suit(seat), _key(c), c in legal, name=_rank(c))
            for c in _held(obs.hand, table_bid)
        ]

    def prompt(self, state, seat, names):
        obs = state.observation(seat)
        you = names[seat]
        if obs.dealer is not None and seat == obs.dealer:
            return f"{you} deals: you alone see the prize. Bid first, face up."
        if obs.prize is None:
            lead = _dealer_bid_text(obs, names)
            return f"{you}: bid blind{lead}; the prize is turned after the bids."
        points = sum(_points(obs, c) for c in obs.offer)
        offer = " + ".join(_rank(c) for c in obs.offer)
        lead = _dealer_bid_text(obs, names)
        rebid = ""
        if len(obs.eligible) < obs.num_players:
            who = and_list(names[p] for p in obs.eligible)
            rebid = (f" A rebid: only {who} can win it" + ("; you bid a card all the same" if seat not in obs.eligible else "")
                     + ".")
        return f"{you}: choose your bid for the {offer} ({points} point{'s' * (points != 1)}){lead}.{rebid}"

    # -- the table ---------------------------------------------------------
    def render_table(self, state, viewer, names):
        hand = current_hand(state)
        obs = _observation(state, viewer)
        prize_obs = obs
        if viewer is None:  # the shared screen of a hot seat: a prize someone may not see stays face down
            prize_obs = next((o for o in (state.observation(p) for p in range(hand.num_players)) if o.prize is None), obs)
        return (
            '<div class="gopskit-table">'
            + self._render_prize(hand, prize_obs)
            + '<div class="gopskit-seats">'
            + "".join(self._render_seat(hand, obs, viewer, names, p, state) for p in range(hand.num_players))
            + "</div>"
            + _match_line(state, names)
            + "</div>"
        )

    def _render_prize(self, hand, obs) -> str:
        if hand.is_terminal():
            body, caption = '<span class="gopskit-empty">all prizes played</span>', ""
        else:
            carried = [c for c in hand.carried]
            shown = list(obs.offer) if obs.prize is not None else carried
            cards = "".join(render_card(_rank(c), PRIZE_SUIT, size="large", classes="gopskit-prize", name=_rank(c)) for c in shown)
            if obs.prize is None:
                cards += render_card("", face_up=False, size="large", classes="gopskit-prize")
            body = cards
            points = sum(_points(obs, c) for c in shown)
            if obs.prize is None:
                carried_text = f"carried over, worth {counted(points, 'point')}, " if shown else ""
                caption = f"{carried_text}a face-down card: it is turned after the bids"
            else:
                caption = f"worth {counted(points, 'point')}"
        # the face-down prize is on the table already, not still to come
        left = len(obs.unseen_prizes) - (1 if obs.prize is None and not hand.is_terminal() else 0)
        pile = ("" if hand.is_terminal() else "the last prize card" if left == 0
                else f"{left} more prize card{'s' * (left != 1)} after this one")
        return (
            '<div class="gopskit-prize-area"><div class="gopskit-label">Prize</div>'
            f'<div class="gopskit-prize-cards">{body}</div><div class="gopskit-caption">{caption}</div>'
            f'<div class="gopskit-caption">{pile}</div></div>'
        )

    def _render_seat(self, hand, obs, viewer, names, p, state=None) -> str:
        over = hand.is_terminal()
        score = "?" if obs.scores is None else str(obs.scores[p])
        label = score_label(state, self.deal_word) if state is not None else ""
        if state is not None and match_over(state):  # the big number is the match's, the last hand's is said under it
            label = f"match total; last hand {score}"
            score = _number(state.scores()[p])
        label = f'<div class="gopskit-caption gopskit-score-label">{escape(label)}</div>' if label else ""
        if obs.won is None:
            pile = render_cards([None] * len(hand.won[p]), size="tiny", empty=empty_pile(over))
        else:
            pile = render_cards([(_rank(c), PRIZE_SUIT, _rank(c)) for c in obs.won[p]], size="tiny", empty=empty_pile(over))
        table_bid = obs.table_bids[p] if obs.table_bids else None
        secret = obs.hands[p] is None or (viewer is None and _secret_hands(hand))
        # the dealer's face-up bid lies on the table: it is shown under the hand, not in it
        cards = None if secret else _held(obs.hands[p], table_bid)
        if cards is None:
            held = render_cards([None] * (len(hand.hands[p]) - (table_bid is not None)), size="tiny", empty="no cards")
        else:
            held = render_cards([(_rank(c), seat_suit(p), _rank(c)) for c in cards], size="tiny", empty="no cards")
        dealer = obs.dealer == p
        badge = ' <span class="gopskit-badge">dealer</span>' if dealer else ""
        bid = f'<div class="gopskit-caption">bid face up: {render_card(_rank(table_bid), seat_suit(p), size="small", name=_rank(table_bid))}</div>' if table_bid is not None else ""
        you = " gopskit-you" if p == viewer else ""
        return (
            f'<div class="gopskit-seat{you}"><div class="gopskit-seat-head"><span class="gopskit-name">{escape(names[p])}</span>{badge}'
            f'<span class="gopskit-score">{score}</span></div>{label}'
            f'<div class="gopskit-caption">won</div><div class="gopskit-won">{pile}</div>'
            f'<div class="gopskit-caption">hand</div><div class="gopskit-held">{held}</div>{bid}</div>'
        )

    def render_last(self, state, viewer, names):
        hand = current_hand(state)
        seen = _seen(hand, viewer, _revealed(state))
        if not seen:
            return f'<div class="gopskit-reveal gopskit-quiet">{escape(_waiting_text(_observation(state, viewer)), quote=False)}</div>'
        view = seen[-1]
        bids = []
        for p, bid in enumerate(view.bids):
            won = " gopskit-winner" if view.winner == p else ""
            note = f"{names[p]} wins" if view.winner == p else names[p]
            if bid is None:
                bids.append(render_card("", face_up=False, size="normal", classes=won, note=note))
            else:
                bids.append(render_card(_rank(bid), seat_suit(p), size="normal", classes="gopskit-flip" + won, note=note,
                                        name=_rank(bid)))
        offer = "".join(render_card(_rank(c), PRIZE_SUIT, size="small", name=_rank(c)) for c in view.offer)
        why = escape(self.explain_turn(hand, len(seen) - 1, names, seen))
        told = f'<div class="gopskit-caption gopskit-revealed">{REVEALED}</div>' if _revealed(state) else ""
        return (
            f'<div class="gopskit-reveal"><div class="gopskit-label">Turn {len(seen)}: bids for {offer}</div>'
            f'<div class="gopskit-bids">{"".join(bids)}</div><div class="gopskit-why">{why}</div>{told}</div>'
        )

    def explain_turn(self, hand, index, names, seen) -> str:
        """Why turn ``index`` of ``hand`` went as it did, in words the viewer may read (``seen``: the turns as they saw them)."""
        if any(b is None for b in seen[index].bids):
            return _hidden_explain(seen[index], names)
        events = [e for e in hand.events if e is not None]
        text = events[index].explain(names)
        eligible = _rebid_eligible(hand.rules, events, index)
        if eligible is not None and len(eligible) == hand.num_players:  # every player tied: nobody was left out
            text += " Everyone had tied, so anyone could win this rebid."
        elif eligible is not None:
            text += f" Only {and_list(_lower(names[p]) for p in eligible)} could win this rebid."
        return text

    def explain_last(self, state, names, viewer=0):
        hand = current_hand(state)
        over = hand_over_text(state, names, self.deal_word)
        if over:
            hand = state.hands[-2]  # a new hand was just dealt: explain the last turn of the one before
        seen = _seen(hand, viewer, _revealed(state))
        if not seen:
            return over
        return f"{self.explain_turn(hand, len(seen) - 1, names, seen)} {over}".strip()

    def history(self, state, viewer, names):
        """Every turn of every hand (a match keeps the hands before this one), as the viewer saw it."""
        hands = state.hands if isinstance(state, MatchState) else [state]
        headers = (["Hand"] if len(hands) > 1 else []) + ["Turn", "Prize"] + list(names) + ["Result"]
        rows = []
        for h, hand in enumerate(hands, 1):
            for t, view in enumerate(_seen(hand, viewer, _revealed(state)), 1):
                offer = " + ".join(_rank(c) for c in view.offer)
                bids = ["?" if b is None else _rank(b) for b in view.bids]
                if view.winner is not None:
                    bids[view.winner] = f"<b>{bids[view.winner]}</b>"
                result = escape(names[view.winner]) if view.winner is not None else _OUTCOME_WORDS[view.outcome]
                rows.append(([str(h)] if len(hands) > 1 else []) + [str(t), offer] + bids + [result])
        return headers, rows

    def points_by_turn(self, state):
        rules = state.rules
        totals = [0] * rules.num_players
        series = [[0.0] for _ in range(rules.num_players)]
        for event in all_events(state):
            if event.winner is not None and event.outcome == "won":
                totals[event.winner] += event.points
            for p in range(rules.num_players):
                series[p].append(float(totals[p]))
        return series

    def option_help(self, spec, rules):
        """Ace high's tooltip names what the Ace bids above and is worth with the cards now chosen
        (:meth:`Goofspiel.points` of the Ace with Ace high on): with 5 cards, above the 5 and worth 6."""
        if spec.name == "ace_high":
            high = dataclasses.replace(rules, ace_high=True)
            return (f"the Ace bids above the {card_name(rules.num_cards)} (the top card) and is worth "
                    f"{high.points(1)} as a prize")
        return super().option_help(spec, rules)

_OUTCOME_WORDS = {"discarded": "tie: discarded", "carried": "tie: carried over", "lost": "tie: lost", "won": "won"}


def _rank(card: int) -> str:
    """A Goofspiel card's one name (:func:`gopskit.cards.card_name`): ``A``, ``2`` .. ``10``, ``J``, ``Q``, ``K``."""
    return card_name(card)


def _rebid_eligible(rules, events, index):
    """The players who alone could win turn ``index``: a restricted rebid after a tie, else ``None``."""
    if rules.ties != "rebid" or rules.rebid_open or index == 0:
        return None
    before = events[index - 1]
    return before.tied if before.outcome == "carried" and before.tied else None


def _held(cards, table_bid):
    """The cards still in a hand: the engine keeps the dealer's face-up bid in the hand until the turn is
    decided (:attr:`GoofspielState.dealer_bid`), but on the table it lies face up, out of the hand."""
    if table_bid is None:
        return tuple(cards)
    return tuple(c for c in cards if c != table_bid)


def _waiting_text(obs) -> str:
    """What the bids area says before the hand's first bids are shown: true for the bids already made.
    Under Defeat the Dealer the dealer bids first, face up, and only the others' bids come all at once."""
    if obs.dealer is None:
        return "The bids will appear here, all at once."
    if obs.table_bids[obs.dealer] is not None:
        return "The dealer's bid is face up; the others' will appear here when all have bid."
    return "The dealer bids first, face up; the others' bids will appear here when all have bid."


def _lower(name: str) -> str:
    """A name inside a sentence (:func:`gopskit.cards.in_sentence`): ``Player 2`` keeps its capital."""
    return in_sentence(name)


def _points(obs, card: int) -> int:
    return obs.num_cards + 1 if obs.ace_high and card == 1 else card


def _secret_hands(hand) -> bool:
    return hand.rules.hidden_bids and not hand.is_terminal()


REVEALED = "Hidden bids: the game is over, so every bid is revealed at the end."


def _revealed(state) -> bool:
    """Hidden bids are shown once the whole game (every hand of a match) is over: nothing is left
    to keep secret, and the table can then be checked against the scores. The record holds them too."""
    return bool(state.rules.hidden_bids) and state.is_terminal()


def _seen(hand, viewer, revealed: bool = False) -> list:
    """The hand's past turns as ``viewer`` saw them; for the public screen of a hot seat (``viewer`` None),
    only what every player saw (with hidden bids, each person's own bids stay off the shared screen).
    ``revealed``: the game is over and every bid is shown, as played."""
    if revealed:
        return [TurnView(e.prize, e.offer, e.bids, e.winner, e.outcome) for e in hand.events if e is not None]
    if viewer is not None:
        return list(hand.observation(viewer).history)
    views = [hand.observation(p).history for p in range(hand.num_players)]
    public = []
    for turn in zip(*views):
        bids = tuple(None if any(v.bids[p] is None for v in turn) else turn[0].bids[p] for p in range(len(turn[0].bids)))
        public.append(dataclasses.replace(turn[0], bids=bids))
    return public


def _observation(state, viewer):
    """The viewer's observation; the public view uses seat 0's and never shows a hand that could be secret."""
    return state.observation(viewer if viewer is not None else 0)


def _dealer_bid_text(obs, names) -> str:
    if obs.dealer is None or obs.table_bids[obs.dealer] is None or obs.player == obs.dealer:
        return ""
    return f"; the dealer ({names[obs.dealer]}) bid {_rank(obs.table_bids[obs.dealer])} face up"


def _hidden_explain(view, names) -> str:
    offer = " + ".join(_rank(c) for c in view.offer)
    if view.winner is not None:
        return f"{names[view.winner]} wins the {offer}; the bids stay hidden."
    return {"discarded": f"A tie: the {offer} is discarded; the bids stay hidden.",
            "carried": f"A tie: the {offer} carries over; the bids stay hidden.",
            "lost": f"A tie on the last turn: the {offer} is lost."}[view.outcome]


def _match_line(state, names) -> str:
    if not isinstance(state, MatchState):
        return ""
    return f'<div class="gopskit-caption gopskit-match">{escape(match_line_text(state, names, "hand"))}</div>'


__all__ = ["GoofspielView", "current_hand", "render_scoreboard", "seat_suit"]
