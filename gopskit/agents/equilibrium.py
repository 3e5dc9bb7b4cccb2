"""The equilibrium bot: optimal two-player Goofspiel play from the exact solver.

Where an exact solution exists for the deck (up to ``exact_up_to`` cards, 9
by default and 8 with ties carried, solved on first use in about a second, in the background as
soon as a game starts, and cached on disk and in the process) the bot plays :func:`gopskit.solvers.solve_goofspiel`'s
optimal mixed bid exactly: no opponent can expect to beat it.

For bigger decks (up to 13 cards) it plays exactly wherever an exact
solution can be had without solving on the spot:

* a complete solution in the cache (``gopskit solve --cards 13`` writes
  one, minutes once per machine; it is mapped from disk, so opening it is
  instant and every classroom kernel shares one copy): every position;
* the opening book the package ships (:mod:`gopskit.solvers.opening`,
  from a complete solve): the 13-card game's first three turns. The first
  two are exact. The third is built from the next layer's values rounded
  to 0.0001 points, so :meth:`EquilibriumBot.policy` states that turn's mix
  only to within about 0.0001; :meth:`EquilibriumBot.act` still draws the
  bid exactly from the equilibrium (:meth:`EquilibriumBot._certified_bid`:
  proved from the rounded game, or read from the few exact mixes the book
  stores, for all but about 3 in 10,000 third turns, which are solved
  exactly). Where a person waits on the bot (``think_ahead``, which the
  boards, the terminal game and classroom tables set), the bot works out
  at turn 2 which of the third turns it may meet would need that solve
  with the draw it will take, and solves them while the person thinks
  (:class:`_LookAhead`).

Elsewhere it plays a documented heuristic, **lookahead with an exact
endgame**:

1. With ``endgame_cards`` cards (10 by default, 8 with ties carried) or
   fewer left, it solves the turn and the rest of the hand after it exactly
   (:func:`gopskit.solvers.exact.solve_turn_endgame`, about a second for
   10 cards, once per hand: the solution covers every later turn; with
   ties carried the pot makes 10 cards take about a minute, 8 under a
   second) and plays that optimal mixed bid. At 13 cards the opening book covers the
   turns before that, so step 2 is never needed there.
2. Before that, it solves the turn as a matrix game: each pair of bids is
   scored by the points it wins or loses now plus an estimate of the rest,
   and the bot plays that game's optimal mixed bid. The estimate,
   :func:`position_estimate`, is a weighted sum of three features of the
   position (its value if both bid at random, bidding by rank, and better
   cards where the prizes are bigger), with weights fitted to exact
   10-card values; it is antisymmetric and zero for equal hands, like the
   true value.

After each move ``source`` says which of these chose it ("exact solution",
"opening book", "exact endgame" or "estimate"); before a game,
:meth:`EquilibriumBot.estimated_turns` says which turns will be estimated,
and :meth:`EquilibriumBot.seat_note` says it in a sentence the boards show. Mixed bids are drawn with
the generator the match hands the bot, so seeded games repeat. The
objective is "points" (expected point difference) unless
``objective="win"`` is asked for. The heuristic treats "win" as "points",
and so does the endgame until ``WIN_ENDGAME_CARDS`` (8) cards are left,
when the rest of the hand is solved for the chance of winning; before
that an endgame move's source says "exact endgame (points)", since it is
exact for the point difference, not for the chance of winning.
"""

from __future__ import annotations

import copy
import threading

import numpy as np

from . import register
from .base import Agent
from .labels import bot_label

EXACT_UP_TO = 9
ENDGAME_CARDS = 10
WIN_ENDGAME_CARDS = 8  # a "win" endgame stores a value per lead: from a 13-card deal 8 cards each take 0.5-0.75 s
# With ties carried a position also holds the pot, and solves grow far faster with the deck: a whole game of 8
# cards takes about 1 s and of 9 cards 12 s (gopskit solve --cards 9 --ties carry); the rest of a hand from 8
# cards each 0.4-0.7 s, from 9 cards 4 s, from 10 cards 50-60 s (benchmarks/bench_endgame.py --ties carry).
# A person would wait that long for the bot's move, so with ties carried the bot solves less on the spot.
CARRY_EXACT_UP_TO = 8
CARRY_ENDGAME_CARDS = 8
_ENDGAMES_KEPT = 4  # endgame solutions kept per process (a 10-card one holds about 10 MB)


# The estimate's weights, for m cards left in each hand: uniform, rank, and
# (ESTIMATE_SPREAD_SLOPE * m + ESTIMATE_SPREAD_OFFSET, at least 0) for spread.
# Fitted by minimising the mean regret of the resulting turn policy, measured
# with the exact 10-card turn games, over 375 positions reached in play with
# 6 to 10 cards left (0.49 points per turn on 375 other positions, against 1.47
# for the uniform feature alone). At 13 cards, letting the spread weight grow
# past its 6-card value did worse in play (against greedy-high above all), so
# m is capped at ESTIMATE_SPREAD_CAP.
ESTIMATE_UNIFORM, ESTIMATE_RANK = 1.16, 0.03
ESTIMATE_SPREAD_SLOPE, ESTIMATE_SPREAD_OFFSET, ESTIMATE_SPREAD_CAP = 0.47, -1.26, 6


def _spread_weight(cards_left: int) -> float:
    m = min(cards_left, ESTIMATE_SPREAD_CAP)
    return max(0.0, ESTIMATE_SPREAD_SLOPE * m + ESTIMATE_SPREAD_OFFSET)


def position_estimate(hand, opp_hand, prizes) -> float:
    """A quick estimate of a position's "points" value (the exact one needs a solve).

    A weighted sum of three features, with both hands and the prizes sorted
    and ``k`` cards each:

    * *uniform*: the expected point difference if both bid at random,
      ``sum(prizes) * (wins - losses) / k**2`` over all pairs of cards;
    * *rank*: ``sum(sign(h_r - o_r) * p_r)``, both bidding by rank;
    * *spread*: ``sum((h_r - o_r) * (p_r - mean(prizes))) / k``: better
      cards where the prizes are big, weighted more when more cards are
      left (up to six).

    Each is antisymmetric and zero for equal hands, like the true value.

    >>> position_estimate([1, 2], [1, 2], [3, 9])
    0.0
    >>> position_estimate([2, 3], [1, 3], [2, 3]) > 0  # exact value 1.4
    True
    """
    h, o, p = (np.sort(np.asarray(list(c), dtype=float)) for c in (hand, opp_hand, prizes))
    k = len(h)
    if k == 0:
        return 0.0
    uniform = p.sum() * np.sign(h[:, None] - o[None, :]).sum() / k**2
    rank = (np.sign(h - o) * p).sum()
    spread = ((h - o) * (p - p.mean())).sum() / k
    return float(ESTIMATE_UNIFORM * uniform + ESTIMATE_RANK * rank + _spread_weight(k) * spread)


def _without_each(cards: np.ndarray) -> np.ndarray:
    """Row i: the sorted cards without the i-th."""
    k = len(cards)
    keep = ~np.eye(k, dtype=bool)
    return np.broadcast_to(cards, (k, k))[keep].reshape(k, k - 1)


def continuation_estimates(hand, opp_hand, rest) -> np.ndarray:
    """``E[i, j]``: :func:`position_estimate` after the holder spends ``hand[i]`` and the opponent ``opp_hand[j]``.

    All pairs at once (numpy), for sorted ``hand`` and ``opp_hand`` and the prizes ``rest`` left after the turn.
    """
    h, o, p = (np.sort(np.asarray(list(c), dtype=float)) for c in (hand, opp_hand, rest))
    k = len(h)
    if k <= 1:
        return np.zeros((k, k))
    sign = np.sign(h[:, None] - o[None, :])
    pairs = sign.sum() - sign.sum(axis=1)[:, None] - sign.sum(axis=0)[None, :] + sign
    uniform = p.sum() * pairs / (k - 1) ** 2
    diff = _without_each(h)[:, None, :] - _without_each(o)[None, :, :]
    rank = np.sign(diff) @ p
    spread = diff @ (p - p.mean()) / (k - 1)
    return ESTIMATE_UNIFORM * uniform + ESTIMATE_RANK * rank + _spread_weight(k - 1) * spread


def lookahead_matrix(hand, opp_hand, prizes, prize, pot=0, carry=False) -> np.ndarray:
    """The turn game: points won or lost now plus :func:`continuation_estimates` of the rest.

    Rows are ``sorted(hand)``, columns ``sorted(opp_hand)``.
    """
    hand, opp = sorted(hand), sorted(opp_hand)
    rest = [p for p in prizes if p != prize]
    offer = prize + pot if carry else prize
    now = np.sign(np.subtract.outer(hand, opp)) * offer
    return now + continuation_estimates(hand, opp, rest)


@register
class EquilibriumBot(Agent):
    """Plays the exact solver's optimal mixed bid (heuristic beyond ``exact_up_to`` cards).

    ``objective`` is "points" or "win"; ``progress`` shows a bar while a
    solution is solved on first use; ``use_stored=False`` ignores stored
    solutions and the opening book beyond ``exact_up_to`` cards (the
    heuristic alone, for comparisons).
    """

    name = "equilibrium"
    classifier = {"stochastic": True, "memory": "none", "uses_opponent_bids": True, "games": ("goofspiel",)}
    moves_in_background = True  # a move may solve for seconds: boards work it out in a thread (numba frees the GIL)
    think_ahead = False  # a person waits on the moves (boards set it): spare time goes on the turns that may come
    next_rng = None  # the generator of the next move when not this bot's (a classroom makes a fresh bot a move)

    def __init__(self, objective: str = "points", exact_up_to: int = EXACT_UP_TO,
                 endgame_cards: int = ENDGAME_CARDS, progress: bool = True, use_stored: bool = True):
        super().__init__()
        from ..solvers.exact import check_options

        check_options(max(1, min(exact_up_to, 13)), objective, "discard")
        self.objective, self.exact_up_to = objective, exact_up_to
        self.endgame_cards, self.progress, self.use_stored = endgame_cards, progress, use_stored
        self.source: str | None = None

    def exact_up_to_for(self, ties: str) -> int:
        """The biggest deck solved on first use under the tie rule ``ties`` (at most :data:`CARRY_EXACT_UP_TO` for "carry")."""
        return min(self.exact_up_to, CARRY_EXACT_UP_TO) if ties == "carry" else self.exact_up_to

    def endgame_cards_for(self, ties: str) -> int:
        """The hand size from which the rest of a hand is solved, under ``ties`` (at most :data:`CARRY_ENDGAME_CARDS` for "carry")."""
        return min(self.endgame_cards, CARRY_ENDGAME_CARDS) if ties == "carry" else self.endgame_cards

    def supports(self, rules) -> bool:
        """Two-player Goofspiel, ties discard or carry, every bid and prize seen, shuffled pile."""
        return (rules.name == "goofspiel" and rules.players == 2 and rules.ties in ("discard", "carry")
                and not (rules.hidden_bids or rules.blind or rules.defeat_the_dealer or rules.ace_high
                         or rules.face_down_trophies or rules.is_match())
                and rules.prize_order == "shuffled")

    @staticmethod
    def position(obs) -> dict:
        """The solver's position from an observation: hands, prizes left, turned prize, lead, pot."""
        me, them = obs.player, 1 - obs.player
        prizes = tuple(sorted(obs.unseen_prizes + (obs.prize,)))
        lead = obs.scores[me] - obs.scores[them] if obs.scores is not None else 0
        return {"hand": tuple(obs.hand), "opp_hand": tuple(obs.hands[them]), "prizes": prizes,
                "prize": obs.prize, "lead": lead, "pot": sum(obs.offer) - obs.prize}

    def reset(self, rules, player, rng=None):
        """Start a game and, in the background, get its exact solution ready.

        Solving a deck of up to ``exact_up_to`` cards on first use (about a
        second for 9 cards), or opening the 13-card solution and loading
        the compiled turn solver, starts while the person looks at the
        board, so the bot's first answer is not kept waiting. For a bigger
        deck the endgame solver's kernels are loaded in the background too.
        """
        super().reset(rules, player, rng)
        ahead, self._ahead = getattr(self, "_ahead", None), None
        if ahead is not None:  # a new game: the last one's look-ahead is no use
            ahead.keep_only(None)
        exact_up_to = self.exact_up_to_for(rules.ties)
        if self.supports(rules) and (self.use_stored or rules.num_cards <= exact_up_to):
            _warm_up(self, rules.num_cards, rules.ties)
        if self.supports(rules) and rules.num_cards > exact_up_to and self.endgame_cards_for(rules.ties) > 0:
            _warm_endgame(after=_WARMING.get((rules.num_cards, self.objective, rules.ties)))
        if self.supports(rules) and self.use_stored and rules.num_cards > exact_up_to:
            _warm_deep_book(rules.num_cards, self.objective, rules.ties, after=_ENDGAME_WARMING)

    def estimated_turns(self, rules) -> list[int] | None:
        """The turns (1 = the first) whose bids this bot estimates under ``rules``; None if it cannot play them.

        Nothing is solved or waited for: at each hand size it asks
        :meth:`exact_solution` (which, beyond ``exact_up_to`` cards, only
        looks for a stored solution or the shipped book) and the endgame
        rule, as :meth:`act` does; a deck of up to ``exact_up_to`` cards is
        solved on first use, so none of its turns is estimated.
        """
        if not self.supports(rules):
            return None
        n = rules.num_cards
        if n <= self.exact_up_to_for(rules.ties):
            return []
        estimated = []
        for turn in range(1, n + 1):
            hand = n - turn + 1
            endgame = hand <= self.endgame_cards_for(rules.ties) and (self.objective == "points" or hand <= WIN_ENDGAME_CARDS)
            if not endgame and self.exact_solution(n, rules.ties, hand)[0] is None:  # beyond exact_up_to: no solving
                estimated.append(turn)
        return estimated

    def seat_note(self, rules, short: bool = False) -> str | None:
        """Which bids are estimates, when some are (see :meth:`estimated_turns`); None when every bid is exact.

        ``short`` leaves out why and how to make every bid exact (a board's
        title says it in one line; its seat choosers say it all).

        >>> from gopskit.games.goofspiel import Goofspiel
        >>> bot, rules = EquilibriumBot(exact_up_to=4, endgame_cards=3, use_stored=False), Goofspiel(num_cards=5)
        >>> print(bot.seat_note(rules))
        Equilibrium bot: its first 2 bids are estimates, as no exact 5-card solution for these rules is on this computer ('gopskit solve --cards 5' makes one); from turn 3, with 3 cards left, it plays the exact equilibrium.
        >>> print(bot.seat_note(rules, short=True))
        Equilibrium bot: its first 2 bids are estimates; from turn 3 it plays the exact equilibrium.
        """
        estimated = self.estimated_turns(rules)
        if not estimated:
            return None
        n = rules.num_cards
        if estimated == list(range(1, n + 1)):
            which, rest = "its bids are all estimates", ""
        elif estimated == list(range(1, len(estimated) + 1)):
            first = len(estimated) + 1
            which = "its first bid is an estimate" if first == 2 else f"its first {first - 1} bids are estimates"
            left = "" if short else f", with {n - first + 1} cards left,"
            rest = f"; from turn {first}{left} it plays the exact equilibrium"
        else:
            which = f"its bids in turns {_turn_list(estimated)} are estimates"
            rest = "; its other bids are the exact equilibrium's"
        if short:
            return f"{bot_label(self.name)}: {which}{rest}."
        command = f"gopskit solve --cards {n}" + (f" --ties {rules.ties}" if rules.ties != "discard" else "") + (
            f" --objective {self.objective}" if self.objective != "points" else "")
        return (f"{bot_label(self.name)}: {which}, as no exact {n}-card solution for these rules is on this "
                f"computer ('{command}' makes one){rest}.")

    def exact_solution(self, num_cards: int, ties: str, hand_size: int, progress: bool | None = None):
        """``(solution, source)`` that plays a turn with ``hand_size`` cards exactly, or ``(None, None)``.

        Up to ``exact_up_to`` cards the deck is solved on first use (with a
        progress bar if ``progress``, default the bot's own setting); beyond,
        only what is already there is used: a complete solution in the
        cache, else the shipped opening book for the first turns.
        """
        from ..solvers.storage import cached_solution, find_solution

        if num_cards <= self.exact_up_to_for(ties):
            bar = self.progress if progress is None else progress
            return cached_solution(num_cards, self.objective, ties, progress=bar), "exact solution"
        if not self.use_stored:  # the heuristic alone, as benchmarks compare it
            return None, None
        full = find_solution(num_cards, self.objective, ties)
        if full is not None:
            return full, "exact solution"
        from ..solvers.opening import shipped_opening

        book = shipped_opening(num_cards, self.objective, ties, deep=False)  # quicker to open: the first move needs it
        if book is not None and not book.plays(hand_size):
            book = shipped_opening(num_cards, self.objective, ties)  # with its deep layer, if one ships
        if book is not None and book.plays(hand_size):
            return book, "opening book"
        return None, None

    def policy(self, obs) -> dict:
        return self._policy_at(obs, *self._where(obs))

    def _where(self, obs) -> tuple:
        """``(position, solution, source)`` for ``obs``: what :meth:`exact_solution` plays it from, if anything."""
        _wait_for_warm_up(obs.num_cards, self.objective, obs.ties)
        pos = self.position(obs)
        return (pos, *self.exact_solution(obs.num_cards, obs.ties, len(pos["hand"])))

    def _policy_at(self, obs, pos, solution, source) -> dict:
        if solution is not None:
            self.source = source
            return solution.policy(**pos)
        if len(pos["hand"]) <= self.endgame_cards_for(obs.ties):
            aim = "win" if self.objective == "win" and len(pos["hand"]) <= WIN_ENDGAME_CARDS else "points"
            self.source = "exact endgame" if aim == self.objective else "exact endgame (points)"
            return self._endgame_policy(pos, obs.ties, aim)
        self.source = "estimate"
        from ..solvers._exact_lp import matrix_game  # numba: loaded on first use, not when bots are listed
        from ..solvers.exact import as_policy

        M = lookahead_matrix(pos["hand"], pos["opp_hand"], pos["prizes"], pos["prize"], pos["pot"], obs.ties == "carry")
        _value, x, _y = matrix_game(M)
        return as_policy(pos["hand"], x)

    def _endgame_policy(self, pos, ties, objective="points") -> dict:
        """The exact policy of a late turn: the rest of this hand is solved once, at its first such turn.

        That first turn is solved with everything after it
        (:func:`gopskit.solvers.exact.solve_turn_endgame`); the later turns
        of the hand are positions of its ``rest``. Solutions are kept per
        process, not per bot: a classroom table makes a fresh bot for every
        move, and the first endgame move's solve then serves the rest of
        the hand.
        """
        return _endgame_turn(pos, ties, objective)

    def act(self, obs):
        pos, solution, source = self._where(obs)
        self._stop_looking_ahead(pos, obs.ties)
        if source == "opening book":  # a book's turn built from rounded values needs certified sampling
            from ..solvers.opening import turn_radius

            radius = turn_radius(solution, len(pos["hand"]))
            if radius > 0:
                return self._certified_bid(solution, pos, obs.ties, radius)
        policy = self._policy_at(obs, pos, solution, source)
        cards = list(policy)
        probs = np.array([policy[c] for c in cards])
        bid = int(cards[int(self.rng.choice(len(cards), p=probs / probs.sum()))])
        if self.think_ahead and source == "opening book" and len(pos["hand"]) > 1:
            # the draw the next bid will take, read from a copy: the generator's sequence is unchanged
            u = float(copy.deepcopy(self.next_rng if self.next_rng is not None else self.rng).random())
            self._ahead = _LookAhead(obs.num_cards, obs.ties, pos, bid, u)
        return bid

    def _stop_looking_ahead(self, pos, ties: str) -> None:
        """A move at ``pos``: the look-aheads of its game keep at most the solve of this position, already under way.

        The bot's own, and those of any bot of this process whose game this
        is (a classroom makes a fresh bot for every move).
        """
        self._ahead = None
        key = _endgame_key(pos, ties, "points")
        with _LOOK_AHEADS_LOCK:
            for ahead in [a for a in _LOOK_AHEADS if a.leads_to(pos)]:
                ahead.keep_only(key)
                _LOOK_AHEADS.remove(ahead)

    def _certified_bid(self, book, pos, ties: str, radius: float) -> int:
        """A bid drawn exactly from the equilibrium of a turn the book knows only to within ``radius`` a value.

        One uniform number ``u`` is drawn. Over groups of interchangeable
        cards, inverse sampling of the exact mix at ``u`` picks a group:

        * for the few turn games whose exact mix the book stores
          (:mod:`gopskit.solvers.hard_turns`: those certified sampling
          cannot settle, where the bot can meet them), from that mix;
        * else :func:`gopskit.solvers.certified.certified_group` proves
          which group it is from the rounded turn game alone (99.8 % of the
          13-card game's third turns);
        * otherwise (a draw too close to a boundary to tell, or a turn the
          bot could not meet by its own play) the turn and the rest of the
          hand are solved exactly (:meth:`_endgame_policy`, about 6 s for
          11 cards, which the boards start while the person thinks) and the
          same ``u`` picks from the exact mix.

        Each way, the group is the one the exact mix gives at ``u``: the
        bid is distributed exactly as the equilibrium's. The lowest card of
        the group is played (they are worth the same).
        """
        from ..solvers.certified import group_at, interchangeable

        u = float(self.rng.random())
        hand = sorted(pos["hand"])
        rows = interchangeable(hand, sorted(pos["opp_hand"]))
        group = _book_group(book, pos, radius, u)
        if group is not None:
            self.source = "opening book"
        else:
            policy = self._endgame_policy(pos, ties)
            self.source = "exact endgame"
            group = group_at([sum(policy[hand[i]] for i in run) for run in rows], u)
        return int(hand[rows[group][0]])


def _turn_list(turns: list[int]) -> str:
    """Turns as people write them: ``3 to 5``, ``1, 2 and 7``.

    >>> _turn_list([3, 4, 5]), _turn_list([1, 2, 7]), _turn_list([4])
    ('3 to 5', '1, 2 and 7', '4')
    """
    if len(turns) > 2 and turns == list(range(turns[0], turns[-1] + 1)):
        return f"{turns[0]} to {turns[-1]}"
    words = [str(t) for t in turns]
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def _book_group(book, pos, radius: float, u: float) -> int | None:
    """The group of interchangeable cards the exact mix gives at ``u``, if the book settles it, else None.

    From the mix the book stores for a hard turn, else by certified
    sampling of the rounded turn game (:meth:`EquilibriumBot._certified_bid`).
    """
    from ..solvers.certified import certified_group, group_at, interchangeable

    hand, opp = sorted(pos["hand"]), sorted(pos["opp_hand"])
    if book.hard_turns is not None:
        from ..solvers.opening import OpeningBookError

        try:
            stored = book.hard_turns.group_chances(book, hand, opp, pos["prizes"], pos["prize"])
        except OpeningBookError:  # a damaged entry: this turn is played as if none were stored
            stored = None
        if stored is not None:
            return group_at(stored, u)
    matrix = book.turn_matrix(hand, opp, pos["prizes"], pos["prize"], pot=pos["pot"])
    return certified_group(matrix, radius, interchangeable(hand, opp), interchangeable(opp, hand), u)


def _endgame_key(pos, ties: str, objective: str) -> tuple:
    """The key of a position's endgame solve in the per-process store (lead counts only for "win")."""
    lead = pos["lead"] if objective == "win" else 0
    return (ties, objective, tuple(pos["hand"]), tuple(pos["opp_hand"]), tuple(pos["prizes"]), pos["prize"], lead,
            pos["pot"])


def _endgame_turn(pos, ties: str, objective: str = "points", cancel=None) -> dict:
    """The exact policy of ``pos``, from the per-process store of endgame solves or solved into it.

    See :meth:`EquilibriumBot._endgame_policy`. A solve given the event
    ``cancel`` stops (:class:`gopskit.solvers.exact.SolveCancelled`) once
    it is set, and stores nothing.
    """
    from ..solvers.exact import PositionError, solve_turn_endgame

    hand, opp, prizes, prize, pot = pos["hand"], pos["opp_hand"], pos["prizes"], pos["prize"], pos["pot"]
    lead = pos["lead"] if objective == "win" else 0
    with _ENDGAMES_LOCK:
        for (kept_ties, kept_objective, *_root), turn in reversed(_ENDGAMES.items()):
            if (kept_ties, kept_objective) != (ties, objective):
                continue
            if (turn.hand, turn.opp_hand, turn.prizes, turn.prize, turn.lead, turn.pot) == (
                    hand, opp, prizes, prize, lead, pot):
                return turn.policy
            if (set(hand) <= set(turn.hand) and set(opp) <= set(turn.opp_hand)
                    and set(prizes) <= set(turn.prizes) - {turn.prize} and len(hand) < len(turn.hand)):
                try:  # a later position of that hand (its lead and pot within what was stored)
                    return turn.rest.policy(hand, opp, prizes, prize, lead=lead, pot=pot)
                except PositionError:
                    pass
        turn = solve_turn_endgame(hand, opp, prizes, prize, objective, ties, lead=lead, pot=pot, cancel=cancel)
        if len(_ENDGAMES) >= _ENDGAMES_KEPT:
            _ENDGAMES.pop(next(iter(_ENDGAMES)))
        _ENDGAMES[_endgame_key(pos, ties, objective)] = turn
        return turn.policy


def _next_positions(pos, bid: int, ties: str):
    """Every position of the next turn after the holder bids ``bid`` here: each bid of theirs, each prize turned next."""
    hand = tuple(c for c in pos["hand"] if c != bid)
    prizes = tuple(c for c in pos["prizes"] if c != pos["prize"])
    offer = pos["prize"] + pos["pot"]
    for theirs in pos["opp_hand"]:
        won = int(np.sign(bid - theirs))
        opp = tuple(c for c in pos["opp_hand"] if c != theirs)
        pot = offer if (ties == "carry" and won == 0) else 0
        for prize in prizes:
            yield {"hand": hand, "opp_hand": opp, "prizes": prizes, "prize": prize, "lead": pos["lead"] + won * offer,
                   "pot": pot}


class _LookAhead:
    """The next turn's positions that the book will not settle, solved while the person thinks.

    Started by a bot that ``think_ahead`` after a bid from the opening
    book, when the next turn is one of certified sampling (the 13-card
    game's third): that bot knows the draw ``u`` its next bid will take,
    so for every bid the other side may make now and every prize that may
    be turned next (132 positions at 13 cards, a fraction of a millisecond
    each) it asks whether the book settles that draw (:func:`_book_group`).
    The few that it does not (about 4 games in 100 have one) are solved
    exactly, one after another, into the per-process store of endgame
    solves, where the next move finds them. When the next move comes,
    :meth:`keep_only` stops every solve but that of the position that
    happened; one not yet started is left to the move itself.
    """

    def __init__(self, num_cards: int, ties: str, pos: dict, bid: int, u: float):
        self.pos, self.u = pos, u
        self.needed: list = []  # the next positions found to need the exact solve (for tests)
        self._lock = threading.Lock()
        self._wanted, self._solving, self._cancel = False, None, threading.Event()
        self.thread = threading.Thread(target=self._work, args=(num_cards, ties, bid), name="gopskit-look-ahead",
                                       daemon=True)
        with _LOOK_AHEADS_LOCK:
            _LOOK_AHEADS.append(self)
            for old in _LOOK_AHEADS[:-_LOOK_AHEADS_KEPT]:  # games left unfinished: stop what they still do
                old.keep_only(None)
            del _LOOK_AHEADS[:-_LOOK_AHEADS_KEPT]
        self.thread.start()

    def leads_to(self, pos) -> bool:
        """Whether ``pos`` is a later turn of the game this look-ahead started at."""
        return (len(pos["hand"]) < len(self.pos["hand"]) and set(pos["hand"]) <= set(self.pos["hand"])
                and set(pos["opp_hand"]) <= set(self.pos["opp_hand"]) and set(pos["prizes"]) <= set(self.pos["prizes"]))

    def keep_only(self, key) -> None:
        """The next move is at ``key`` (None: a new game): stop any other solve and start no more."""
        with self._lock:
            self._wanted = True
            if self._solving != key:
                self._cancel.set()

    def _work(self, num_cards: int, ties: str, bid: int) -> None:
        from ..solvers.exact import SolveCancelled
        from ..solvers.opening import shipped_opening, turn_radius

        try:
            book = shipped_opening(num_cards, "points", ties)
            size = len(self.pos["hand"]) - 1
            if book is None or not book.plays(size) or turn_radius(book, size) <= 0:
                return
            radius = turn_radius(book, size)
            for after in _next_positions(self.pos, bid, ties):
                if self._wanted:
                    return
                if _book_group(book, after, radius, self.u) is None:
                    self.needed.append(after)
            for after in self.needed:
                with self._lock:
                    if self._wanted:  # the move has come: it solves its own position, if it must
                        return
                    self._solving = _endgame_key(after, ties, "points")
                _endgame_turn(after, ties, "points", cancel=self._cancel)
        except SolveCancelled:
            pass
        except Exception:  # noqa: BLE001 - a failed look-ahead only means the next move solves for itself
            pass


_WARMING: dict = {}  # (cards, objective, ties) -> the thread opening that solution
_LOOK_AHEADS: list = []  # the process's look-aheads whose next turn has not come yet, oldest first
_LOOK_AHEADS_LOCK = threading.Lock()
_LOOK_AHEADS_KEPT = 16
_ENDGAMES: dict = {}  # (ties, objective, hand, opp_hand, prizes, prize, lead, pot) -> its TurnEndgame, oldest first
_ENDGAMES_LOCK = threading.Lock()
_ENDGAME_WARMING: threading.Thread | None = None  # the thread loading the endgame solver's kernels


def _warm_up(bot: EquilibriumBot, num_cards: int, ties: str) -> None:
    """Open the exact solution for these options and play one bid from it, in a background thread (once)."""
    key = (num_cards, bot.objective, ties)
    if key in _WARMING:
        return

    def work():
        try:
            solution, _source = bot.exact_solution(num_cards, ties, num_cards, progress=False)  # no bar from a thread
            if solution is not None:
                full = range(1, num_cards + 1)
                solution.policy(full, full, full, prize=num_cards)
        except Exception:  # noqa: BLE001 - a failed warm-up only means the first move does the work itself
            pass

    thread = threading.Thread(target=work, name=f"gopskit-warm-{num_cards}", daemon=True)
    _WARMING[key] = thread
    thread.start()


def _warm_endgame(after: threading.Thread | None = None) -> None:
    """Load the endgame solver's compiled kernels in a background thread, once per process.

    On a fresh install numba compiles them on first use (about 7 s here),
    which would otherwise fall on the fourth move of the first 13-card
    game (and on the estimate's first move in other decks); with them cached it takes a
    fraction of a second. Moves do not wait for this thread, and it waits
    for ``after`` (the warm-up the first move needs) so as not to slow
    that one down.
    """
    global _ENDGAME_WARMING
    if _ENDGAME_WARMING is not None:
        return

    def work():
        try:
            if after is not None:
                after.join()
            from ..solvers._exact_lp import matrix_game
            from ..solvers.exact import solve_turn_endgame

            matrix_game(np.array([[1.0, -1.0], [-1.0, 1.0]]))  # the estimate's solver, needed first
            solve_turn_endgame([1, 2], [1, 3], [1, 2], 1)
        except Exception:  # noqa: BLE001 - a failed warm-up only means the first endgame move does the work
            pass

    _ENDGAME_WARMING = threading.Thread(target=work, name="gopskit-warm-endgame", daemon=True)
    _ENDGAME_WARMING.start()


def _warm_deep_book(num_cards: int, objective: str, ties: str, after: threading.Thread | None) -> None:
    """Open the opening book's deep layer (its third turn at 13 cards) in a background thread, once per deck.

    The first time on a machine that decodes it into the cache folder
    (0.8 s), so it is done after the other warm-ups and no move waits for it.
    """
    key = (num_cards, objective, ties)
    if key in _DEEP_WARMING:
        return

    def work():
        try:
            if after is not None:
                after.join()
            from ..solvers.opening import shipped_opening

            shipped_opening(num_cards, objective, ties)
        except Exception:  # noqa: BLE001 - a failed warm-up only means the third move opens it itself
            pass

    _DEEP_WARMING[key] = threading.Thread(target=work, name=f"gopskit-warm-deep-{num_cards}", daemon=True)
    _DEEP_WARMING[key].start()


_DEEP_WARMING: dict = {}  # (cards, objective, ties) -> the thread opening that book's deep layer


def _wait_for_warm_up(num_cards: int, objective: str, ties: str) -> None:
    thread = _WARMING.get((num_cards, objective, ties))
    if thread is not None and thread.is_alive():
        thread.join()
