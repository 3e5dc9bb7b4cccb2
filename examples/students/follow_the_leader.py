"""Read the history: bid what the opponent bid on the last turn, plus one.

observation.history lists the turns played so far; each turn has .bids (one
per player, by seat) and .winner (a seat, or None on a tie).
"""


def strategy(observation):
    hand = observation.hand
    if not observation.history:
        return hand[len(hand) // 2]  # the first turn: a middling card
    last = observation.history[-1]
    opponent = 1 - observation.player
    wanted = last.bids[opponent] + 1
    fitting = [card for card in hand if card >= wanted]
    return min(fitting) if fitting else hand[0]
