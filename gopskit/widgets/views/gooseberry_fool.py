"""How the Gooseberry Fool board looks: the trick in the middle, three private hands.

Play is one card at a time, so a click plays at once (no confirm). After the
Goose wins a trick its holder picks who takes it: the hand row then shows one
plain choice per player (``Player 1`` .. ``Player 3``), not playing cards.
The Joker is the Goose everywhere: on its face, in the tables and in the text.
"""

from __future__ import annotations

from ...cards import JOKER, SUIT_NAMES, card_name, counted, parse_card, rank_name
from ...games.base import MatchState
from ...games.wording import GAME_TITLES
from ...games.gooseberry_fool import BONUS, ENDINGS, PLAYERS, deal_points, gooseberries, middling, right_of
from .base import HandCard, OptionSpec, _number
from .table import CardTableView, Seat, current_hand


class GooseberryFoolView(CardTableView):
    game = "gooseberry-fool"
    title = GAME_TITLES["gooseberry-fool"]
    blurb = "A three-player trick game where the odd card out wins."
    centre_label = "Trick"
    confirm = False
    event_says_deal_over = True  # the last trick of a deal says "End of the deal: ..."
    app_options = {"target": None}
    bot_preference = ("gooseberry-middler", "random")
    taker_header = "Taken by"
    chart_title = "Points after each trick (the middling bonus at the end)"
    chart_axis = "trick"
    winner_rule = "in Gooseberry Fool the middling score wins"

    def winner_rule_text(self, rules):
        if getattr(rules, "target", None) and rules.ending == "reach":
            return "the only player to reach the target wins; if two reach it, the third"
        return self.winner_rule

    def end_rule_text(self, state):
        """Why the winners won, every time, from the numbers the engine decided on: a deal goes by the
        middling score *before* the bonus (:meth:`GooseberryState.winners`), a match by its totals
        (:meth:`GooseberryFool.match_winners`: the middling total, or who reached the target)."""
        if isinstance(state, MatchState):
            totals, rules = state.scores(), state.rules
            if rules.ending == "reach" and not state.cut_off():
                reached = [p for p in range(PLAYERS) if totals[p] >= rules.target]
                if len(reached) == 1:
                    return f"the only player to reach {_number(rules.target)}"
                if len(reached) == 2:
                    return f"two players reached {_number(rules.target)}, so the third wins"
            return gooseberry_reason(totals, "total")
        return gooseberry_reason(state.points(), "score before the bonus")

    def option_specs(self, rules_class):
        return [
            OptionSpec("target", "Play to (0: one deal)", "optional-int", low=0, high=1000,
                       help="deal again until someone's total reaches this"),
            OptionSpec("ending", "Who wins the match", "choice", ENDINGS, help="at the target", words=(
                ("middling", "The middling total", "the player with the middling total (if two tie, the third)"),
                ("reach", "The odd one out", "the only player to reach the target, or the only one to fall short"))),
            OptionSpec("dealer", "First dealer", "seat", low=0, high=2, help="the player after the dealer leads first"),
            OptionSpec("max_hands", "At most deals", "int", low=1, high=1000, help="a match stops after this many deals"),
        ]

    def face(self, card, seat=None):
        if isinstance(card, int):
            return f"P{card + 1}", ""
        if card == JOKER:
            return "JK", ""
        rank, suit = parse_card(card)
        return rank_name(rank), suit

    def name(self, card, seat=None):
        if isinstance(card, int):
            return f"Player {card + 1}"
        return card_name(card, joker="Goose")

    def hand(self, state, seat):
        obs = state.observation(seat)
        if obs.goose_holder == seat:  # who takes the trick: a choice of players, not cards
            # keys 1, 2, 3 (the page's key handler reads 1 as the Ace's "a")
            return [HandCard(p, self.name(p), "", "a" if p == 0 else str(p + 1), True, name=self.name(p), is_card=False)
                    for p in obs.legal_moves]
        return super().hand(state, seat)

    def choice_title(self, state, seat, names):
        return f"{names[seat]}: your Goose won. Who takes the trick?"

    def centre(self, state, obs):
        # each card of the trick says who played it; the first is the lead (the suit to follow)
        cards = [(*self.card(state, c), f"Player {seat + 1}" + (" led" if k == 0 else ""))
                 for k, (seat, c) in enumerate(obs.table)]
        if obs.goose_holder is not None:
            return cards, f"The Goose won: Player {obs.goose_holder + 1} says who takes this trick."
        if obs.led_suit:
            return cards, f"Follow {SUIT_NAMES[obs.led_suit]} if you can."
        if current_hand(state).is_terminal():
            return cards, "The deal is over: all tricks played."
        if obs.table:  # the Goose was led: no suit to follow
            return cards, "The Goose was led: any card may follow."
        return cards, f"A new trick: Player {obs.leader + 1} leads."

    def seat(self, state, obs, player, viewer):
        hand_state = current_hand(state)
        mine = player == obs.player and viewer is not None
        hand = [self.card(state, c) for c in obs.hand] if mine else None
        won = [self.card(state, c) for t in obs.history if t.taker == player for _, c in t.plays]
        notes = ["dealer"] if obs.dealer == player else []
        points = obs.points
        right = right_of(player)
        # where the number comes from: 1 point per own trick, 2 per trick of the player on the right
        notes.append(f"points: {counted(obs.tricks_won[player], 'own trick')} + 2 × "
                     f"{counted(obs.tricks_won[right], 'trick')} of Player {right + 1} = {points[player]}")
        if hand_state.is_terminal() and middling(points) == player:
            notes.append(f"{points[player]} + {BONUS} for the middling score")
        return Seat(str(hand_state.scores()[player]), won, hand, hidden=obs.hand_sizes[player],
                    won_label=f"tricks taken: {obs.tricks_won[player]}", note="; ".join(notes))

    def plays(self, event):
        return list(event.plays), event.winner

    def taker(self, event):
        return event.taker

    def prompt(self, state, seat, names):
        obs = state.observation(seat)
        if obs.goose_holder == seat:
            return f"{names[seat]}: your Goose won. Choose who takes the trick: Player 1, Player 2 or Player 3."
        return f"{names[seat]}: play a card (click it)."

    def hand_scores(self, hand, events):
        tricks, out = [0, 0, 0], []
        for trick in events:
            tricks[trick.taker] += 1
            out.append(deal_points(tricks))
        return out


def gooseberry_reason(values, what: str) -> str:
    """Why :func:`~gopskit.games.gooseberry_fool.gooseberries` picks its winners on ``values``, in words.

    >>> gooseberry_reason([8, 10, 5], "score before the bonus")
    'the middling score before the bonus: 8'
    >>> gooseberry_reason([6, 9, 6], "total")
    'two totals tie at 6, so the third wins'
    """
    mid = middling(values)
    if mid is not None:
        return f"the middling {what}: {_number(values[mid])}"
    winners = gooseberries(values)
    if len(winners) == 1:
        tied = _number(values[next(p for p in range(PLAYERS) if p not in winners)])
        plural = what.replace("score", "scores", 1) if what.startswith("score") else what + "s"
        return f"two {plural} tie at {tied}, so the third wins"
    plural = what.replace("score", "scores", 1) if what.startswith("score") else what + "s"
    return f"all three {plural} are equal: {_number(values[0])}"
