"""After class: how did the students bid, next to the equilibrium and the bots?

:func:`compare_bids` walks every game of a room's export (records are
replayed by the engine) and, at each position where a *student* bid in
two-player Goofspiel, asks what the equilibrium would bid there (the exact
solver, :func:`gopskit.solvers.solve_goofspiel`, "points" objective) and
what each bot would bid. The result answers a lesson's questions:

* do students bid higher for higher prizes, and as steeply as the
  equilibrium does (:attr:`BidComparison.by_prize`)?
* how often is a student's bid one the equilibrium would ever play
  (:attr:`BidComparison.support_share`)?
* which bot plays most like the class (:attr:`BidComparison.bot_agreement`)?

Stages are kept apart (docs/architecture.md, layers): :func:`compare_bids` computes,
:func:`plot_comparison` draws, :meth:`BidComparison.table_html` prints.

>>> from gopskit.classroom import ClassroomStore
>>> store = ClassroomStore(":memory:")
>>> room = store.create_room("goofspiel", {"num_cards": 3}, auto_pair=False)
>>> ann = store.join(room.code, "Ann")
>>> _ = store.pair_waiting(room.teacher_key, seed=1)
>>> seat = store.claim_seat(ann.player_key).seat_key
>>> for _turn in range(3):
...     view = store.seat_view(seat)
...     _ = store.submit(seat, view.observation["prize"], view.ply)   # Ann bids the prize's value
>>> result = compare_bids(store.export(room.teacher_key), bots=("match-prize",))
>>> result.bot_agreement["match-prize"]   # the bot that bids the prize's value agrees every time
1.0
"""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from html import escape

import numpy as np

from ..agents import make_agent
from ..agents.labels import bot_label
from ..games import replay_record, rules_from_record
from .export import RoomExport, load_export

MAX_SOLVED_CARDS = 10
MAX_SOLVED_CARDS_CARRY = 9  # with ties carried the pot makes a whole solve far bigger: 9 cards 12 s, 10 minutes


@dataclasses.dataclass(frozen=True)
class BidComparison:
    """The class's bids next to the equilibrium's and the bots', per position and per prize value.

    ``decisions``: one dict per student bid (table, turn, player, prize,
    bid, ``equilibrium`` {card: probability} or ``None``, and each bot's
    expected bid). ``by_prize``: one row per prize value with the mean bids.
    """

    room: str
    bots: tuple[str, ...]
    decisions: list
    by_prize: list
    support_share: float | None
    bot_agreement: dict
    note: str

    def table_html(self) -> str:
        """The per-prize means as an HTML table (for a lesson notebook)."""
        heads = ["Prize", "Student bids", "Class mean", "Equilibrium mean"] + [f"{bot_label(b)}: mean" for b in self.bots]
        body = "".join(
            "<tr>" + "".join(f"<td>{_cell(row.get(k))}</td>" for k in
                             ["prize", "bids", "class_mean", "equilibrium_mean"] + list(self.bots)) + "</tr>"
            for row in self.by_prize)
        head = "".join(f"<th>{escape(h)}</th>" for h in heads)
        return f'<table class="gopskit-history"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'


def compare_bids(export: RoomExport, bots=("match-prize", "random"), max_cards: int = MAX_SOLVED_CARDS) -> BidComparison:
    """Compare every student bid of a two-player Goofspiel room with the equilibrium and ``bots``.

    Decks up to ``max_cards`` are solved whole. A bigger deck's equilibrium
    is taken wherever it is known exactly, as the equilibrium bot knows it
    (:class:`_ExactWhereKnown`): the whole game from a complete solution on
    this machine, else the shipped opening book for the 13-card game's first
    three turns (the third from values rounded to 0.0001 points) and an exact
    solve of the rest of each hand from 10 cards in each hand; bids elsewhere get no equilibrium, and the note says how many.
    With ties carried the pot makes solves far bigger: decks up to :data:`MAX_SOLVED_CARDS_CARRY` are solved
    whole, and the bot solves the rest of a hand from 8 cards in each hand.
    """
    decisions, notes, solutions, unknown = [], set(), {}, 0
    for table in export.tables:
        record = table["record"]
        rules = rules_from_record(record)
        reason = _unsupported(rules)
        if reason:
            notes.add(reason)
            continue
        solution = _solution(rules, max_cards, solutions, notes)
        students = [s["seat"] for s in table["seats"] if s["kind"] == "student"]
        table_decisions = _table_decisions(table, record, rules, students, solution, bots)
        if isinstance(solution, _ExactWhereKnown):
            unknown += sum(d["equilibrium"] is None for d in table_decisions)
        decisions.extend(table_decisions)
    if unknown:
        from ..agents.equilibrium import EquilibriumBot

        bot = EquilibriumBot()
        left = f"{bot.endgame_cards_for('discard')} cards are left in each hand ({bot.endgame_cards_for('carry')} " \
               f"with ties carried)"
        notes.add(f"{unknown} of {len(decisions)} student bids have no known equilibrium: beyond {max_cards} cards "
                  f"({min(max_cards, MAX_SOLVED_CARDS_CARRY)} with ties carried) it is known once {left}, and in "
                  f"the 13-card game's first three turns (ties discard), unless 'gopskit solve --cards N' was run on "
                  f"this machine; the equilibrium mean and the support share leave those bids out")
    return _summarise(export.room["code"], tuple(bots), decisions, "; ".join(sorted(notes)))


def load_and_compare(path, bots=("match-prize", "random")) -> BidComparison:
    """:func:`compare_bids` on an export zip written by the teacher's app."""
    return compare_bids(load_export(path), bots)


def _unsupported(rules) -> str | None:
    if rules.name != "goofspiel" or rules.num_players != 2:
        return "only two-player Goofspiel games are compared"
    if rules.blind or rules.hidden_bids or rules.defeat_the_dealer or rules.is_match():
        return "blind, hidden-bid, Defeat-the-Dealer and match games are left out"
    return None


def _solution(rules, max_cards, cache, notes):
    standard = rules.ties in ("discard", "carry") and not rules.ace_high and rules.prize_order == "shuffled"
    if not standard:
        notes.add("no equilibrium for these options (it is known for shuffled prizes, ties discard or carry, "
                  "no high Ace)")
        return None
    key = (rules.num_cards, rules.ties)
    if key not in cache:
        if rules.ties == "carry":
            max_cards = min(max_cards, MAX_SOLVED_CARDS_CARRY)
        if rules.num_cards > max_cards:
            cache[key] = _ExactWhereKnown(rules)
        else:
            from ..solvers import solve_goofspiel

            cache[key] = solve_goofspiel(num_cards=rules.num_cards, objective="points", ties=rules.ties)
    return cache[key]


class _ExactWhereKnown:
    """A big deck's equilibrium policy where the equilibrium bot knows it exactly, else None."""

    def __init__(self, rules):
        from ..agents.equilibrium import EquilibriumBot

        self.bot = EquilibriumBot(progress=False)
        self.bot.reset(rules, 0, np.random.default_rng(0))

    def policy_at(self, obs) -> dict | None:
        policy = self.bot.policy(obs)
        return None if self.bot.source == "estimate" else policy


def _table_decisions(table, record, rules, students, solution, bots) -> list:
    from ..games.goofspiel import GoofspielState

    replayed = replay_record(record)  # checks the whole record first
    deck = list(record["prizes"]) + sorted(set(rules.cards()) - set(record["prizes"]))
    state = GoofspielState(rules, deck)  # the same deal, stepped through turn by turn below
    out = []
    for turn, bids in enumerate(record["bids"]):
        for seat in students:
            obs = state.observation(seat)
            row = {"table": table["number"], "turn": turn + 1, "player": table["seats"][seat]["name"],
                   "prize": obs.prize, "bid": bids[seat], "hand": list(obs.hand)}
            row["equilibrium"] = _equilibrium(solution, obs, seat) if solution is not None else None
            for number, name in enumerate(bots):
                row[name] = _bot_mean(name, rules, seat, obs, seed=(table["number"], turn, number))
            out.append(row)
        state.apply(bids)
    assert list(state.scores()) == list(replayed.scores())
    return out


def _equilibrium(solution, obs, seat) -> dict | None:
    if isinstance(solution, _ExactWhereKnown):
        return solution.policy_at(obs)
    prizes = set(obs.unseen_prizes) | {obs.prize}
    pot = sum(obs.offer) - obs.prize
    return solution.policy(obs.hand, obs.hands[1 - seat], prizes, obs.prize, pot=pot)


def _bot_mean(name, rules, seat, obs, seed) -> float:
    agent = make_agent(name)
    agent.reset(rules, seat, np.random.default_rng(list(seed)))
    try:
        policy = agent.policy(obs)
    except NotImplementedError:
        return float(agent.act(obs))
    return float(sum(card * p for card, p in policy.items()))


def _summarise(room, bots, decisions, note) -> BidComparison:
    groups = defaultdict(list)
    for d in decisions:
        groups[d["prize"]].append(d)
    by_prize = []
    for prize in sorted(groups):
        rows = groups[prize]
        entry = {"prize": prize, "bids": len(rows), "class_mean": float(np.mean([r["bid"] for r in rows]))}
        eq = [_mean_of(r["equilibrium"]) for r in rows if r["equilibrium"] is not None]
        entry["equilibrium_mean"] = float(np.mean(eq)) if eq else None
        for name in bots:
            entry[name] = float(np.mean([r[name] for r in rows]))
        by_prize.append(entry)
    solved = [d for d in decisions if d["equilibrium"] is not None]
    support = (float(np.mean([d["equilibrium"].get(d["bid"], 0.0) > 1e-9 for d in solved])) if solved else None)
    agreement = {name: float(np.mean([abs(d[name] - d["bid"]) < 1e-9 for d in decisions])) if decisions else 0.0
                 for name in bots}
    return BidComparison(room, bots, decisions, by_prize, support, agreement, note)


def _mean_of(policy: dict) -> float:
    return float(sum(card * p for card, p in policy.items()))


def plot_comparison(comparison: BidComparison, ax=None):
    """Mean bid by prize value: the class, the equilibrium, each bot (matplotlib; returns the axes)."""
    import matplotlib.pyplot as plt

    if ax is None:
        _fig, ax = plt.subplots(figsize=(6, 4))
    prizes = [r["prize"] for r in comparison.by_prize]
    ax.plot(prizes, [r["class_mean"] for r in comparison.by_prize], "o-", lw=2.5, label="the class")
    if any(r["equilibrium_mean"] is not None for r in comparison.by_prize):
        ax.plot(prizes, [r["equilibrium_mean"] for r in comparison.by_prize], "s--", label="equilibrium")
    for name in comparison.bots:
        ax.plot(prizes, [r[name] for r in comparison.by_prize], ":", label=bot_label(name))
    ax.set_xlabel("prize card")
    ax.set_ylabel("mean bid")
    ax.set_title(f"Room {comparison.room}: bids by prize")
    ax.legend()
    return ax


def _cell(value) -> str:
    if value is None:
        return "–"
    return f"{value:.2f}" if isinstance(value, float) else escape(str(value))


__all__ = ["BidComparison", "compare_bids", "load_and_compare", "plot_comparison"]
