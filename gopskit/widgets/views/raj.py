"""How the Raj board looks: plus and minus prizes, bid cards 1 to 15."""

from __future__ import annotations

from ...cards import counted
from ...games.raj import CARRY_RULES, PRIZE_ORDERS, prize_label
from ...games.wording import GAME_TITLES
from .base import PRIZE_ORDER_WORDS, OptionSpec
from .table import CardTableView, Seat


class RajView(CardTableView):
    game = "raj"
    title = GAME_TITLES["raj"]
    blurb = "Hol's der Geier: bid 1-15 for plus and minus prizes."
    bot_preference = ("raj-proportional", "random")
    # two copies of the deterministic bot bid alike, cancel each other every turn and hand the person
    # every prize; a seeded random bot beside it makes a game one can lose
    default_bots = ("raj-proportional", "random")
    confirm_label = "Confirm bid"

    def option_specs(self, rules_class):
        return [
            OptionSpec("players", "Players", "int", low=2, high=5, help="2 to 5"),
            OptionSpec("prize_order", "Prize order", "choice", PRIZE_ORDERS, words=PRIZE_ORDER_WORDS),
            OptionSpec("carry_decides", "Carried prizes go by", "choice", CARRY_RULES,
                       help="when a tie leaves prizes on the table and a new one is turned", words=(
                           ("newest", "Newest prize", "the newest prize decides: a plus prize and all on offer go to "
                            "the highest bid, a minus prize and all on offer to the lowest"),
                           ("total", "Their total", "the sign of their total decides: above 0 the highest "
                            "bid takes them, below 0 the lowest (0: as the newest prize)"))),
        ]

    def face(self, card, seat=None):
        return str(card), ""

    def prize_face(self, prize):
        return f"{prize:+d}", "", prize_label(prize)

    def key(self, move):
        return {1: "a", 10: "0"}.get(move, str(move) if 2 <= move <= 9 else "")

    def centre(self, state, obs):
        if obs.prize is None:
            return [], "all prizes played"
        side = "highest" if obs.highest else "lowest"
        left = len(obs.unseen_prizes)
        after = f"{counted(left, 'prize')} to come" if left else "the last prize"
        return [self.prize_face(p) for p in obs.offer], f"the {side} unmatched bid takes it; {after}"

    def seat(self, state, obs, player, viewer):
        won = [self.prize_face(p) for p in obs.won[player]]
        return Seat(str(obs.scores[player]), won, [self.card(state, c) for c in obs.hands[player]])

    def prompt(self, state, seat, names):
        obs = state.observation(seat)
        side = "highest" if obs.highest else "lowest"
        if len(obs.offer) == 1:
            return f"{names[seat]}: bid for the {obs.offer[0]:+d}. The {side} bid that nobody matched takes it."
        cards = " and ".join(f"{c:+d}" for c in obs.offer)  # carried prizes first, the new one last
        return (f"{names[seat]}: bid for the {cards} ({sum(obs.offer):+d} in all). The {side} bid that nobody "
                f"matched takes them all.")

    def hand_scores(self, hand, events):
        totals, out = [0] * hand.rules.num_players, []
        for turn in events:
            if turn.winner is not None:
                totals[turn.winner] += turn.points
            out.append(list(totals))
        return out
