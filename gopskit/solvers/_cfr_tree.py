"""The game tree of a small two-player Goofspiel hand, flattened into numpy levels for CFR.

Every node at one depth has the same number of children in Goofspiel (at
turn ``t`` each player holds ``k = n - t`` cards and ``k`` prizes are left),
so a level is just an array of nodes, and the children of node ``i`` are
nodes ``i * k .. i * k + k - 1`` of the next level. A turn is three levels:
the prize is dealt (chance; skipped when the prize order is fixed), the first
bidder moves, the second bidder moves (simultaneous bids: the second
bidder's information does not include the first bid). The last turn, with one
card each, has no choice and is resolved straight into the leaves.

Information states: each decision node carries, for the player to move, an
integer *code* of everything that player's :class:`GoofspielObservation`
shows (:func:`observation_code` computes the same code from a real
observation): per finished turn the player's own bid, the other's bid if
shown, who won, the prize; then, for the turn at hand, the prize if it is
shown and the dealer's face-up bid if any. Two nodes share an information
state exactly when their codes are equal.
"""

from __future__ import annotations

import dataclasses

import numpy as np
from scipy import sparse

from ..errors import OptionError
from ..games.goofspiel import Goofspiel

MAX_CFR_CARDS = 5
SYMBOLS_PER_TURN = 4


@dataclasses.dataclass
class Level:
    """One depth of the tree: ``kind`` is "chance" or "decision"; ``branch`` children per node."""

    kind: str
    turn: int
    branch: int
    player: int | None = None
    infoset: np.ndarray | None = None  # per node: index into ``codes``
    codes: np.ndarray | None = None  # sorted distinct information-state codes
    members: sparse.csr_matrix | None = None  # infosets x nodes, 1 where the node is in the infoset
    hands: np.ndarray | None = None  # per node: the mover's hand as a bit mask
    prizes: np.ndarray | None = None  # per node: the prize card of this turn
    first_bids: np.ndarray | None = None  # per node at the second bidder's level: the first bid

    @property
    def size(self) -> int:
        return int(self.infoset.size) if self.infoset is not None else int(self.prizes.size)

    @property
    def num_infosets(self) -> int:
        return int(self.codes.size)


@dataclasses.dataclass
class GameTree:
    """The flattened tree: levels from the root down, then the leaves' utilities (player 0's)."""

    rules: Goofspiel
    dealer: int | None
    objective: str
    levels: list[Level]
    utility: np.ndarray
    radix: int

    @property
    def num_cards(self) -> int:
        return self.rules.num_cards

    def decision_level(self, turn: int, player: int) -> int | None:
        """Index of the level where ``player`` bids on ``turn`` (None: a forced last bid)."""
        for index, level in enumerate(self.levels):
            if level.kind == "decision" and level.turn == turn and level.player == player:
                return index
        return None


def check_cfr_rules(rules, dealer=None) -> tuple[Goofspiel, int | None]:
    """Check that CFR can solve a hand under ``rules``; return the rules and the dealer seat."""
    if not isinstance(rules, Goofspiel):
        raise OptionError(f"CFR here solves two-player Goofspiel hands; got {type(rules).__name__}")
    if rules.players != 2:
        raise OptionError(f"CFR solves two-player Goofspiel only; these rules seat {rules.players}")
    if not 1 <= rules.num_cards <= MAX_CFR_CARDS:
        raise OptionError(f"CFR solves hands of 1 to {MAX_CFR_CARDS} cards (the tree grows as n!^3); got {rules.num_cards}")
    if rules.defeat_the_dealer and rules.hidden_bids:
        raise OptionError("Defeat the Dealer with hidden bids is not solvable here yet: the CFR tree does not "
                          "encode the dealer's face-up bids under hidden bids; choose one of the two options")
    if not rules.defeat_the_dealer:
        return rules, None
    dealer = rules.dealer if dealer is None else dealer
    if dealer not in (0, 1):
        raise OptionError(f"the dealer is seat 0 or 1, not {dealer!r}")
    return rules, dealer


def build_tree(rules: Goofspiel, dealer: int | None = None, objective: str = "points") -> GameTree:
    """Build the flattened tree of one hand (see the module docstring)."""
    rules, dealer = check_cfr_rules(rules, dealer)
    if objective not in ("points", "win"):
        raise OptionError(f"objective must be 'points' or 'win', not {objective!r}")
    n = rules.num_cards
    radix = max(n + 1, 3)
    nth = _nth_card_table(n)
    full = (1 << n) - 1
    state = {"hand0": np.array([full]), "hand1": np.array([full]), "prizes": np.array([full]),
             "lead": np.zeros(1, np.int64), "pot": np.zeros(1, np.int64),
             "code0": np.zeros(1, np.int64), "code1": np.zeros(1, np.int64)}
    movers = (dealer, 1 - dealer) if dealer is not None else (0, 1)
    levels: list[Level] = []
    fixed = rules.prize_deck(np.random.default_rng(0)) if rules.prize_order != "shuffled" else None
    for turn in range(n):
        k = n - turn
        state, prize = _deal(state, levels, turn, k, nth, fixed)
        bids = {}
        for position, player in enumerate(movers):
            seen_prize = prize if rules.reveals_prize_before_bids(player, dealer) else np.zeros_like(prize)
            table = bids[movers[0]] if (position == 1 and dealer is not None) else np.zeros_like(prize)
            code = state[f"code{player}"] * radix * radix + seen_prize * radix + table
            if k > 1:
                first = bids[movers[0]] if position == 1 else None
                levels.append(_decision_level(turn, k, player, code, state[f"hand{player}"], prize, first))
                state, prize, bids = _expand(state, prize, bids, k)
            bids[player] = nth[state[f"hand{player}"], np.tile(np.arange(k), state["lead"].size // k) if k > 1 else 0]
        state = _resolve(rules, state, prize, bids, radix, last=(turn == n - 1))
    lead = state["lead"].astype(float)
    utility = lead if objective == "points" else np.sign(lead)
    return GameTree(rules, dealer, objective, levels, utility, radix)


def _nth_card_table(n: int) -> np.ndarray:
    """``table[mask, i]`` is the i-th smallest card (1-based value) in the bit mask ``mask``."""
    table = np.zeros((1 << n, n), np.int64)
    for mask in range(1 << n):
        cards = [c for c in range(1, n + 1) if mask >> (c - 1) & 1]
        table[mask, : len(cards)] = cards
    return table


def _deal(state, levels, turn, k, nth, fixed):
    size = state["lead"].size
    if fixed is not None:
        return state, np.full(size, fixed[turn], np.int64)
    if k == 1:
        return state, nth[state["prizes"], 0]
    levels.append(Level("chance", turn, k, prizes=np.zeros(size, np.int64)))
    state = {key: np.repeat(value, k) for key, value in state.items()}
    return state, nth[state["prizes"], np.tile(np.arange(k), size)]


def _decision_level(turn, k, player, code, hand, prize, first_bid) -> Level:
    codes, infoset = np.unique(code, return_inverse=True)
    members = sparse.csr_matrix((np.ones(code.size), (infoset, np.arange(code.size))), shape=(codes.size, code.size))
    return Level("decision", turn, k, player, infoset.astype(np.int64), codes, members, hand.copy(), prize.copy(),
                 None if first_bid is None else first_bid.copy())


def _expand(state, prize, bids, k):
    state = {key: np.repeat(value, k) for key, value in state.items()}
    return state, np.repeat(prize, k), {p: np.repeat(b, k) for p, b in bids.items()}


def _resolve(rules, state, prize, bids, radix, last):
    strength = np.array([0] + [rules.strength(c) for c in rules.cards()])
    points = np.array([0] + [rules.points(c) for c in rules.cards()])
    b0, b1 = bids[0], bids[1]
    offer = points[prize] + state["pot"]
    s0, s1 = strength[b0], strength[b1]
    winner = np.where(s0 > s1, 1, np.where(s1 > s0, 2, 0))  # 0 tie, 1 player 0, 2 player 1
    carry = rules.ties in ("carry", "rebid") and not last
    new = dict(state)
    new["lead"] = state["lead"] + np.where(winner == 1, offer, 0) - np.where(winner == 2, offer, 0)
    new["pot"] = np.where(winner == 0, offer, 0) if carry else np.zeros_like(offer)
    new["hand0"] = state["hand0"] & ~(1 << (b0 - 1))
    new["hand1"] = state["hand1"] & ~(1 << (b1 - 1))
    new["prizes"] = state["prizes"] & ~(1 << (prize - 1))
    shown = 0 if rules.hidden_bids else 1
    for p, own, other, mine in ((0, b0, b1, 1), (1, b1, b0, 2)):
        won = np.where(winner == 0, 0, np.where(winner == mine, 1, 2))
        code = state[f"code{p}"]
        for symbol in (own, other * shown, won, prize):
            code = code * radix + symbol
        new[f"code{p}"] = code
    return new


def observation_code(obs, radix: int) -> int:
    """The information-state code of a real :class:`GoofspielObservation` (same as the tree's)."""
    me, other = obs.player, 1 - obs.player
    code = 0
    for view in obs.history:
        won = 0 if view.winner is None else (1 if view.winner == me else 2)
        for symbol in (view.bids[me], view.bids[other] or 0, won, view.prize):
            code = code * radix + symbol
    seen = obs.prize or 0
    table = obs.table_bids[other] or 0
    return (code * radix + seen) * radix + table


def decode_code(code: int, radix: int, turn: int) -> tuple[list[tuple[int, ...]], int, int]:
    """Undo the code: ``(finished turns as (own, other or 0, won, prize), seen prize or 0, table bid or 0)``."""
    code, table = divmod(int(code), radix)
    code, seen = divmod(code, radix)
    turns = []
    for _ in range(turn):
        symbols = []
        for _ in range(SYMBOLS_PER_TURN):
            code, symbol = divmod(code, radix)
            symbols.append(symbol)
        turns.append(tuple(reversed(symbols)))
    return list(reversed(turns)), seen, table


def node_history(tree: GameTree, level_index: int, node: int) -> tuple[list[int], list[tuple[int, ...]], dict]:
    """How play reached ``node`` of a decision level: ``(prizes dealt, finished turns' bids, bids made this turn)``.

    Walks up the levels: the child number at each level is the action taken
    there (the i-th prize left, or the i-th card of the mover's hand).
    """
    actions = []
    for index in range(level_index - 1, -1, -1):
        node, action = divmod(node, tree.levels[index].branch)
        actions.append((index, node, action))
    actions.reverse()
    n, rules = tree.num_cards, tree.rules
    fixed = rules.prize_deck(np.random.default_rng(0)) if rules.prize_order != "shuffled" else None
    nth = _nth_card_table(n)
    prizes, turns, current = [], [], {}
    for index, parent, action in actions:
        level = tree.levels[index]
        if fixed is not None and len(prizes) == level.turn:
            prizes.append(fixed[level.turn])
        if level.kind == "chance":
            left = sorted(set(range(1, n + 1)) - set(prizes))
            prizes.append(left[action])
        else:
            current[level.player] = int(nth[level.hands[parent], action])
            if len(current) == 2:
                turns.append((current[0], current[1]))
                current = {}
    target = tree.levels[level_index]
    if fixed is not None and len(prizes) == target.turn:
        prizes.append(fixed[target.turn])
    return prizes, turns, current


def replay_node(tree: GameTree, level_index: int, node: int):
    """A real engine state (:class:`GoofspielState`) at ``node``, with the mover about to bid."""
    from ..games.goofspiel import GoofspielState

    prizes, turns, current = node_history(tree, level_index, node)
    n = tree.num_cards
    deck = list(prizes) + sorted(set(range(1, n + 1)) - set(prizes))
    state = GoofspielState(tree.rules, deck, tree.dealer)
    for bids in turns:
        if tree.dealer is not None:
            state.apply({tree.dealer: bids[tree.dealer]})
        state.apply({p: b for p, b in enumerate(bids) if p in state.to_move()})
    if current and tree.dealer is not None:
        state.apply(current)
    return state
