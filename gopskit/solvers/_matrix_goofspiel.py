"""One turn of two-player Goofspiel as a matrix game (re-exported by :mod:`.matrix`)."""

from __future__ import annotations

import functools

from ..errors import OptionError


@functools.lru_cache(maxsize=8)
def _solution(num_cards: int, objective: str, ties: str):
    from .exact import solve_goofspiel

    return solve_goofspiel(num_cards=num_cards, objective=objective, ties=ties)


def goofspiel_turn_matrix(hand, opp_hand, prizes, prize, lead: int = 0, pot: int = 0, *, num_cards: int | None = None,
                          objective: str = "points", ties: str = "discard", solution=None):
    """The turn at hand as a zero-sum matrix game (a :class:`LabelledMatrix`), labelled by cards.

    Rows are my cards, columns the opponent's; each entry is what that pair
    of bids is worth to me from here on, with both playing perfectly after
    it: for ``"points"``, the points won or lost now plus the value of the
    position reached; for ``"win"``, the chance of winning minus losing
    from the position reached (the lead moved by this turn's result). A tie
    throws the prize away (``ties="discard"``) or carries it, with ``pot``,
    to the next turn (``"carry"``; lost after the last turn).

    Continuation values come from :func:`gopskit.solvers.solve_goofspiel`
    (solved once per process for ``num_cards``, the highest card in play by
    default), or from ``solution`` when given. The matrix's value
    (:meth:`LabelledMatrix.solve`) is the position's value with this prize
    turned.

    >>> game = goofspiel_turn_matrix([1, 2], [1, 2], [1, 2], prize=2)
    >>> game.payoffs.tolist(), game.row_labels
    ([[0.0, -1.0], [1.0, 0.0]], (1, 2))
    """
    hand, opp, left = _cards(hand, "hand"), _cards(opp_hand, "opponent's hand"), _cards(prizes, "prizes")
    if len(hand) != len(opp) or len(hand) != len(left) or prize not in left:
        raise OptionError(f"a turn needs two hands of equal size, that many prizes and the turned prize among them; "
                          f"got hands {hand} and {opp}, prizes {left}, prize {prize!r}")
    if objective not in ("points", "win") or ties not in ("discard", "carry"):
        raise OptionError(f"objective is 'points' or 'win' and ties 'discard' or 'carry', not {objective!r}, {ties!r}")
    n = num_cards or max(hand + opp + left)
    sol = solution if solution is not None else _solution(n, objective, ties)
    rest = tuple(c for c in left if c != prize)
    offer = prize + pot
    rows = []
    for mine in hand:
        row = []
        for theirs in opp:
            now = offer if mine > theirs else -offer if mine < theirs else 0
            carried = offer if (mine == theirs and ties == "carry" and rest) else 0
            after = ([c for c in hand if c != mine], [c for c in opp if c != theirs], rest)
            if objective == "points":
                row.append(now + (sol.value(*after, lead=0, pot=carried) if rest else 0.0))
            else:
                moved = lead + now
                row.append(sol.value(*after, lead=moved, pot=carried) if rest else float((moved > 0) - (moved < 0)))
        rows.append(row)
    from .matrix import LabelledMatrix

    title = f"Prize {prize}" + (f" + {pot} carried" if pot else "") + ": rows my bid, columns theirs"
    return LabelledMatrix(rows, hand, opp, title=title)


def _cards(cards, name) -> tuple[int, ...]:
    try:
        values = tuple(sorted(int(c) for c in cards))
    except (TypeError, ValueError):
        raise OptionError(f"the {name} must be card values, not {cards!r}") from None
    if len(set(values)) != len(values) or any(c < 1 for c in values):
        raise OptionError(f"the {name} must hold distinct cards from 1 up, not {cards!r}")
    return values
