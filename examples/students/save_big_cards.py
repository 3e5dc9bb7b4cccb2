"""A class with memory: keep the big cards for the big prizes.

A class is needed only when a strategy must remember something that is not
in the observation; reset() runs before every game, with a fresh object.
"""


class Strategy:
    def reset(self):
        self.points_given_up = 0

    def strategy(self, observation):
        hand = observation.hand
        big_prize = observation.prize >= max(observation.unseen_prizes + (observation.prize,)) - 2
        if big_prize:
            return hand[-1]  # my biggest card
        self.points_given_up += observation.prize
        return hand[0]  # my smallest card: let this prize go
