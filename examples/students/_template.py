"""My Goofspiel strategy. Copy this file, rename it (your name.py), and change the function.

Try it before you hand it in:

    gopskit tournament FOLDER --check
"""


def strategy(observation):
    """Return the card to bid: a whole number from observation.hand.

    Useful fields (see docs/tournaments.md for all of them):
      observation.prize          the prize card on offer now (a number)
      observation.hand           your cards, smallest first, e.g. (1, 4, 9)
      observation.unseen_prizes  prize cards still to come
      observation.history        the turns so far (each has .prize, .bids, .winner)
      observation.scores         points so far, one per player
      observation.player         your seat: 0 or 1
    """
    return observation.hand[0]  # the smallest card: change this!
