"""Good: a class with memory; bids high after losing a turn, low after winning one."""


class Strategy:
    def reset(self):
        self.turns_seen = 0

    def strategy(self, observation):
        self.turns_seen += 1
        assert self.turns_seen == observation.turn + 1, "memory must be fresh in each game"
        hand = observation.hand
        history = observation.history
        if history and history[-1].winner == observation.player:
            return hand[0]
        return hand[-1]
