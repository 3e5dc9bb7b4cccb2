"""A fitted estimate of the positions right after the last estimated turn, shipped with the package.

Without the complete 13-card solution on the machine, the equilibrium bot
plays turns 1-2 from the opening book, turns 4-13 exactly, and turn 3 from
a turn game whose continuation values are estimated. The continuations of
turn 3 are positions with 10 cards in each hand; their exact values need an
11-card solve (about 8 s). This module fits a linear model of those values
to a complete solve, so that turn 3 costs little against a perfect
opponent: over held-out positions the expected points a best reply takes
from the bot's turn-3 bid fell from about 0.8 a hand (the bot's general
three-feature estimate) to about 0.2 (``benchmarks/bench_turn3_gap.py``).

The model: with both hands and the prizes still to come sorted, ``k``
cards each, a weighted sum of features that all change sign when the two
hands are swapped (so equal hands are worth 0, as in the game):

* the three of :func:`gopskit.agents.equilibrium.position_estimate`:
  uniform, rank, spread;
* per rank ``r``: ``sign(h_r - o_r) * p_r``, ``h_r - o_r`` and
  ``(h_r - o_r) * p_r / mean(p)``;
* the rank matches shifted by one either way, ``sum(h) - sum(o)``, and
  each card's wins minus losses against the other hand, weighted by the
  prize of its rank, summed over both hands.

The weights are fitted by least squares to the exact values of the 121
continuations of each of 1,500 turn-3 positions, reached by playing turns
1-2 from the book against the book and against random bids; the file
records the training and test figures and the command that rebuilds it::

    gopskit solve --cards 13 --checkpoint FOLDER
    python -m gopskit.solvers.continuation FOLDER gopskit/data/goofspiel-13-points-discard-continuation.json

It also keeps a few exact continuation values, which the test suite
re-derives with exact endgame solves.
"""

from __future__ import annotations

import json
import os
import sys
from functools import lru_cache
from pathlib import Path

import numpy as np

from ..errors import GopsError

FORMAT = "gopskit-goofspiel-continuation"
FORMAT_VERSION = 1
SHIPPED = {(13, "points", "discard"): "goofspiel-13-points-discard-continuation.json"}


def feature_names(k: int) -> list[str]:
    """The names of :func:`features`' columns for positions of ``k`` cards each."""
    ranks = range(1, k + 1)
    return ["uniform", "rank", "spread", *(f"sign*prize rank {r}" for r in ranks), *(f"difference rank {r}" for r in ranks),
            *(f"difference*prize rank {r}" for r in ranks), "matches shifted up", "matches shifted down", "card total",
            "wins by prize rank"]


class ContinuationError(GopsError):
    """A continuation file is missing, damaged, or for another position size."""


def features(hands, opp_hands, prizes) -> np.ndarray:
    """One row of features per position: ``hands``, ``opp_hands``, ``prizes`` are ``n x k`` arrays, each row sorted.

    Every feature changes sign when the hands are swapped.
    """
    H, O, P = (np.asarray(a, dtype=float) for a in (hands, opp_hands, prizes))
    k = H.shape[1]
    wins = np.sign(H[:, :, None] - O[:, None, :])
    d = H - O
    sign = np.sign(d)
    mean = P.mean(axis=1, keepdims=True)
    up = (np.sign(H[:, :-1] - O[:, 1:]) - np.sign(O[:, :-1] - H[:, 1:])) * P[:, :-1]
    down = (np.sign(H[:, 1:] - O[:, :-1]) - np.sign(O[:, 1:] - H[:, :-1])) * P[:, 1:]
    columns = [P.sum(axis=1) * wins.sum(axis=(1, 2)) / k**2, (sign * P).sum(axis=1), (d * (P - mean)).sum(axis=1) / k,
               *(sign * P).T, *d.T, *(d * P / mean).T, up.sum(axis=1), down.sum(axis=1), d.sum(axis=1),
               ((wins.sum(axis=2) + wins.sum(axis=1)) * P).sum(axis=1) / k]
    return np.column_stack(columns)


def _without_each(cards) -> np.ndarray:
    cards = np.sort(np.asarray(list(cards)))
    return np.array([np.delete(cards, i) for i in range(len(cards))])


def continuation_positions(hand, opp_hand, rest):
    """The ``k x k`` continuations of a turn, row-major (the holder spends ``hand[i]``, the opponent ``opp_hand[j]``)."""
    mine, theirs = _without_each(hand), _without_each(opp_hand)
    k = len(mine)
    return np.repeat(mine, k, axis=0), np.tile(theirs, (k, 1)), np.tile(np.sort(np.asarray(list(rest))), (k * k, 1))


class Continuation:
    """Fitted weights for positions of ``cards`` cards each; :meth:`estimates` gives a turn's continuations."""

    def __init__(self, cards: int, weights, meta: dict | None = None):
        self.cards, self.weights, self.meta = int(cards), np.asarray(weights, dtype=float), meta or {}
        if self.weights.shape != (len(feature_names(self.cards)),):
            raise ContinuationError(f"{len(feature_names(self.cards))} weights are needed, not {self.weights.shape}")

    def value(self, hand, opp_hand, prizes) -> float:
        """The estimated "points" value of one position of ``cards`` cards each."""
        row = [np.sort(np.asarray(list(c))) for c in (hand, opp_hand, prizes)]
        if any(len(c) != self.cards for c in row):
            raise ContinuationError(f"this estimate is for hands of {self.cards} cards")
        return float((features(*(c[None, :] for c in row)) @ self.weights)[0])

    def estimates(self, hand, opp_hand, rest) -> np.ndarray:
        """``E[i, j]``: the estimate after the holder spends the ``i``-th lowest card and the opponent the ``j``-th."""
        k = len(hand)
        if k - 1 != self.cards or len(rest) != self.cards:
            raise ContinuationError(f"this estimate is for hands of {self.cards} cards after the turn")
        return (features(*continuation_positions(hand, opp_hand, rest)) @ self.weights).reshape(k, k)


def turn3_positions(full, book, count: int, seed: int) -> list[tuple]:
    """Turn-3 positions of the full game, ``(hand, opp_hand, prizes, prize)``: turns 1-2 from ``book``
    for the holder; the opponent from the book at even indices, uniformly at random at odd ones."""
    rng = np.random.default_rng(seed)
    deck = tuple(range(1, full.num_cards + 1))

    def bid(policy):
        cards = sorted(policy)
        p = np.array([policy[c] for c in cards])
        return int(cards[rng.choice(len(cards), p=p / p.sum())])

    positions = []
    for n in range(count):
        order = [int(c) for c in rng.permutation(deck)]
        mine, theirs, prizes = list(deck), list(deck), list(deck)
        for prize in order[:2]:
            b = bid(book.policy(mine, theirs, prizes, prize))
            o = bid(book.policy(theirs, mine, prizes, prize)) if n % 2 == 0 else int(rng.choice(theirs))
            mine.remove(b), theirs.remove(o), prizes.remove(prize)
        positions.append((tuple(mine), tuple(theirs), tuple(prizes), order[2]))
    return positions


def exact_continuations(full, hand, opp_hand, prizes, prize) -> np.ndarray:
    """The exact values of a turn's continuations: the turn matrix less the points of the turn itself."""
    now = np.sign(np.subtract.outer(sorted(hand), sorted(opp_hand))) * prize
    return full.turn_matrix(hand, opp_hand, prizes, prize) - now


def turn_regret(matrix, estimate) -> float:
    """What a best reply takes from the bid that is optimal in ``estimate``, against the value of ``matrix``."""
    from ._exact_lp import matrix_game

    value, _x, _y = matrix_game(matrix)
    _v, x, _y = matrix_game(estimate)
    return float(value - (x @ matrix).min())


def fit(full, book, train: int = 1500, test: int = 300, seed: int = 11) -> Continuation:
    """Fit the weights to ``full``'s turn-3 continuations (see the module docstring), with test figures."""
    from ..agents.equilibrium import continuation_estimates

    def data(positions):
        rows, targets = [], []
        for hand, opp, prizes, prize in positions:
            rest = [c for c in prizes if c != prize]
            rows.append(features(*continuation_positions(hand, opp, rest)))
            targets.append(exact_continuations(full, hand, opp, prizes, prize).ravel())
        return np.vstack(rows), np.concatenate(targets)

    training, held_out = turn3_positions(full, book, train, seed), turn3_positions(full, book, test, seed + 1)
    X, y = data(training)
    weights, *_ = np.linalg.lstsq(X, y, rcond=None)
    Xt, yt = data(held_out)
    model = Continuation(full.num_cards - 3, weights)
    fitted, general = [], []
    for hand, opp, prizes, prize in held_out:
        rest = [c for c in prizes if c != prize]
        now = np.sign(np.subtract.outer(sorted(hand), sorted(opp))) * prize
        matrix = full.turn_matrix(hand, opp, prizes, prize)
        fitted.append(turn_regret(matrix, now + model.estimates(hand, opp, rest)))
        general.append(turn_regret(matrix, now + continuation_estimates(hand, opp, rest)))
    checks = [{"hand": list(h[1:]), "opp_hand": list(o[1:]), "prizes": [c for c in p if c != t],
               "value": float(full.value(h[1:], o[1:], [c for c in p if c != t]))}
              for h, o, p, t in held_out[:3]]  # each is a continuation: both spent their lowest card
    model.meta = {
        "format": FORMAT, "version": FORMAT_VERSION, **full.options(), "cards": model.cards,
        "features": feature_names(model.cards), "weights": [float(w) for w in weights],
        "training": {"positions": train, "values": int(len(y)), "seed": seed, "rmse": _rmse(X @ weights - y)},
        "test": {"positions": test, "seed": seed + 1, "rmse": _rmse(Xt @ weights - yt),
                 "turn_regret_mean": float(np.mean(fitted)), "turn_regret_max": float(np.max(fitted)),
                 "general_estimate_regret_mean": float(np.mean(general))},
        "checks": checks,
        "command": f"gopskit solve --cards {full.num_cards} --checkpoint FOLDER && "
                   f"python -m gopskit.solvers.continuation FOLDER OUT.json",
    }
    return model


def _rmse(errors) -> float:
    return float(np.sqrt(np.mean(np.square(errors))))


def save_continuation(model: Continuation, path) -> None:
    path = Path(path)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(model.meta, indent=1) + "\n", encoding="utf-8")
    os.replace(tmp, path)


def load_continuation(path) -> Continuation:
    try:
        meta = json.loads(Path(path).read_text(encoding="utf-8"))
        if meta.get("format") != FORMAT or meta.get("version") != FORMAT_VERSION:
            raise ContinuationError(f"{path} is not a gopskit continuation file of version {FORMAT_VERSION}")
        if meta.get("features") != feature_names(meta["cards"]):
            raise ContinuationError(f"{path} was fitted with other features; rebuild it with: {meta.get('command')}")
        return Continuation(meta["cards"], meta["weights"], meta)
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ContinuationError(f"cannot read continuation file {path}: {exc}") from None


@lru_cache(maxsize=4)
def shipped_continuation(num_cards: int, objective: str = "points", ties: str = "discard") -> Continuation | None:
    """The fitted continuation estimate the package ships for these options, or None."""
    from .opening import load_shipped

    return load_shipped(SHIPPED.get((int(num_cards), objective, ties)), load_continuation)


def main(argv=None) -> int:
    """``python -m gopskit.solvers.continuation SOLUTION_FOLDER OUT.json``: fit and write the estimate."""
    from .layer_folder import open_layer_folder
    from .opening import shipped_opening

    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 2:
        print("usage: python -m gopskit.solvers.continuation SOLUTION_FOLDER OUT.json", file=sys.stderr)
        return 2
    full = open_layer_folder(args[0])
    book = shipped_opening(full.num_cards, full.objective, full.ties) or full
    model = fit(full, book)
    save_continuation(model, args[1])
    test = model.meta["test"]
    print(f"wrote {args[1]}: test RMSE {test['rmse']:.3f} points, turn-3 regret {test['turn_regret_mean']:.3f} "
          f"a hand (the general estimate: {test['general_estimate_regret_mean']:.3f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())

__all__ = ["Continuation", "ContinuationError", "feature_names", "continuation_positions", "exact_continuations", "features",
           "fit", "load_continuation", "save_continuation", "shipped_continuation", "turn3_positions", "turn_regret"]
