"""Lesson 4 (more players, other rules): checkers for its exercises."""

from __future__ import annotations

import functools
import itertools

import numpy as np

from ...games.divide_and_conquer import CARDS, card_label
from ..feedback import BLANK_HINT, Feedback, as_card_list, as_int, as_number, correct, describe, is_blank, not_answered, wrong
from ..pure import best_response
from ..variants import Gops3Endgame, beaten_by, raj_risk
from ._registry import checker

E1, E2, E3, E4 = "Exercise 1", "Exercise 2", "Exercise 3", "Exercise 4"


@functools.lru_cache(maxsize=1)
def _leads() -> dict[str, float]:
    return {rule: best_response("match-prize", 5, ties=rule).value for rule in ("discard", "carry")}


@checker(4, E1)
def check_tie_rule(more_exploitable):
    """Exercise 1: under which tie rule does the best reply beat match-prize by more (5 cards)?"""
    if is_blank(more_exploitable):
        return not_answered(E1, "more_exploitable")
    leads = _leads()
    answer = str(more_exploitable).strip().lower() if isinstance(more_exploitable, str) else None
    if answer in ("same", "no difference", "neither", "both", "equal", "none"):
        return wrong(E1, "answer with the name of a tie rule, \"discard\" or \"carry\": against a bot that bids "
                         "predictably the tie rule does matter, so one of them gives the best reply a bigger lead",
                     "against the random bidder the rule hardly mattered; who decides when a tie happens here?")
    if answer not in leads:
        return wrong(E1, f"answer with the name of a tie rule, \"discard\" or \"carry\", not {describe(more_exploitable)}")
    figures = f"the best reply leads by {leads['discard']:.2f} under discard and {leads['carry']:.2f} under carry"
    if answer == max(leads, key=leads.get):
        return correct(E1, f"{figures}. Under carry a tie is not wasted: the best reply ties match-prize on a big "
                           "prize and takes it, with the next one, a turn later.")
    return wrong(E1, figures, "under carry, what happens to a prize when both bid the same card?")


def _as_matrix(answer) -> np.ndarray | None:
    """``answer`` as a 2 x 2 array of plain numbers, else None."""
    if isinstance(answer, (str, bytes, dict)):
        return None
    try:
        rows = [[as_number(v) for v in row] for row in answer]
    except TypeError:
        return None
    if len(rows) != 2 or any(len(r) != 2 or None in r for r in rows):
        return None
    return np.array(rows, dtype=float)


def _is_tables(answer) -> bool:
    """True for ``(A, B)`` or ``(A, B, stable)``: the exercise's answers given as one tuple."""
    try:
        return len(answer) in (2, 3) and all(_as_matrix(table) is not None for table in answer[:2])
    except TypeError:
        return False


def _as_cells(answer) -> list[tuple[int, int]] | None:
    """``answer`` as a sorted list of distinct (row, column) cells of a 2 x 2 table, else None."""
    if isinstance(answer, (str, bytes, dict)) or not hasattr(answer, "__iter__"):
        return None
    cells = []
    for cell in answer:
        if isinstance(cell, (str, bytes)) or not hasattr(cell, "__len__") or len(cell) != 2:
            return None
        row, col = (as_int(v) for v in cell)
        if row not in (0, 1) or col not in (0, 1):
            return None
        cells.append((row, col))
    return sorted(set(cells))


def _cells_problem(answer) -> str:
    """What exactly is wrong with a malformed ``stable`` (a clause to add to the message), or ""."""
    if isinstance(answer, (str, bytes, dict)) or not hasattr(answer, "__iter__"):
        return ""
    cells = [cell for cell in answer if not isinstance(cell, (str, bytes)) and hasattr(cell, "__len__") and len(cell) == 2]
    if any(isinstance(v, str) for cell in cells for v in cell):
        return ": write each cell as two numbers, 0 for high first and 1 for low first, such as (0, 1)"
    numbers = [as_int(v) for cell in cells for v in cell]
    if cells and None not in numbers and max(numbers) == 2 and min(numbers) >= 1:
        return ": rows and columns are numbered from 0, so the four cells are (0, 0), (0, 1), (1, 0) and (1, 1)"
    return ""


def _stable_cells(A: np.ndarray, B: np.ndarray) -> list[tuple[int, int]]:
    """The cells where neither player gains by switching alone (pure Nash equilibria)."""
    return [(i, j) for i, j in itertools.product(range(2), repeat=2)
            if A[i, j] >= A[1 - i, j] and B[i, j] >= B[i, 1 - j]]


@checker(4, E2)
def check_endgame(A, B=None, stable=None):
    """Exercise 2: the Gops-for-three endgame as a bimatrix game, built and solved by hand.

    ``A`` and ``B`` are player 1's and player 2's deal points (rows: player
    1 high/low first; columns: player 2); ``stable`` lists the cells
    ``(row, column)`` where neither player gains by switching alone: the pure
    Nash equilibria. ``check_endgame((A, B, stable))`` is accepted too.
    """
    if is_blank(B) and not is_blank(A) and _as_matrix(A) is None and _is_tables(A):
        A, B, stable = (*A, None)[:3]
    if is_blank(A):
        return not_answered(E2, "A")
    mine = _as_matrix(A)
    if mine is None:
        return wrong(E2, f"A should be a 2 x 2 table of numbers such as [[1, 2], [3, 4]], not {describe(A)}")
    if is_blank(B):
        return not_answered(E2, "B")
    theirs = _as_matrix(B)
    if theirs is None:
        return wrong(E2, f"B should be a 2 x 2 table of numbers such as [[1, 2], [3, 4]], not {describe(B)}")
    game = Gops3Endgame()
    true_a, true_b = game.matrices()
    if np.allclose(mine, true_b) and np.allclose(theirs, true_a):
        return wrong(E2, "A and B are swapped: A holds player 1's points, B player 2's")
    if np.allclose(mine, true_a.T) and np.allclose(theirs, true_b.T):
        return wrong(E2, "rows and columns are swapped: a row is player 1's choice, a column player 2's")
    for name, table, truth, player in (("A", mine, true_a, 0), ("B", theirs, true_b, 1)):
        for i, j in itertools.product(range(2), repeat=2):
            if not np.isclose(table[i, j], truth[i, j]):
                outcome = game.outcome(game.choices[i], game.choices[j])
                scores = "is in the middle, so scores 0" if outcome.points[player] == 0 else \
                    f"scores {outcome.points[player]}"
                return wrong(E2, f"{name}[{i}][{j}] (player 1 {game.choices[i]}, player 2 {game.choices[j]}) is "
                                 f"{table[i, j]:g}; there " + "; ".join(outcome.story) +
                                 f", so the totals end {', '.join(map(str, outcome.totals))} and player {player + 1} "
                                 f"{scores}", "only the highest and the lowest totals score; the middle one scores 0")
    if is_blank(stable):
        return Feedback(E2, "blank", "A and B are right. `stable` still holds the placeholder `...`", BLANK_HINT)
    cells = _as_cells(stable)
    if cells is None:
        return wrong(E2, f"stable should be a list of cells (row, column) such as [(0, 0)], not {describe(stable)}"
                         f"{_cells_problem(stable)}")
    truth = _stable_cells(true_a, true_b)
    for i, j in cells:
        if (i, j) not in truth:
            if true_a[1 - i, j] > true_a[i, j]:
                who, gain = 1, f"switching to row {1 - i} gives player 1 {true_a[1 - i, j]:g} instead of {true_a[i, j]:g}"
            else:
                who, gain = 2, f"switching to column {1 - j} gives player 2 {true_b[i, 1 - j]:g} instead of {true_b[i, j]:g}"
            return wrong(E2, f"({i}, {j}) is not stable: {gain}", f"for each cell, ask both players: would "
                             f"switching alone pay? Here player {who} would switch")
    missed = [cell for cell in truth if cell not in cells]
    if missed:
        i, j = missed[0]
        return wrong(E2, f"you missed ({i}, {j}): player 1 gets {true_a[i, j]:g} there and {true_a[1 - i, j]:g} by "
                         f"switching; player 2 gets {true_b[i, j]:g} and {true_b[i, 1 - j]:g} by switching: "
                         "neither gains", "check all four cells")
    pays = "; ".join(f"({i}, {j}) pays ({true_a[i, j]:g}, {true_b[i, j]:g})" for i, j in truth)
    return correct(E2, "tables and equilibria both right. A + B is "
                       f"{(true_a + true_b).astype(int).tolist()}, not the same everywhere, so this is not a "
                       f"zero-sum game. Its two pure equilibria pay differently: {pays}; each player prefers "
                       "a different one.")


@checker(4, E3)
def check_beats_queen(beat_the_queen):
    """Exercise 3: the Divide and Conquer cards that beat the Queen (12)."""
    if is_blank(beat_the_queen):
        return not_answered(E3, "beat_the_queen")
    cards = as_card_list(beat_the_queen)
    if cards is None:
        return wrong(E3, f"beat_the_queen should be a list of card values such as [5, 9], not {describe(beat_the_queen)}")
    strange = [c for c in cards if c not in CARDS or c == 12]
    if strange:
        return wrong(E3, f"{strange[0]} is not one of the other cards; they are {', '.join(map(str, CARDS[:-1]))}")
    truth = beaten_by(12)
    extra = [c for c in cards if c not in truth]
    if extra:
        c = extra[0]
        return wrong(E3, f"{c} does not beat the Queen: {c} does not divide 12 and is not 11, so the higher card, "
                         "the Queen, wins", "a lower card wins only if it divides the higher one or is one less")
    missing = [c for c in truth if c not in cards]
    if missing:
        c = missing[0]
        return wrong(E3, f"you missed {c}: it divides 12 exactly (12 = {c} x {12 // c}), so it beats the Queen",
                     "check every divisor of 12")
    return correct(E3, f"{', '.join(map(card_label, truth))}: the divisors of 12. The Queen, the biggest card, "
                       "loses to four small ones: no card is best.")


@checker(4, E4)
def check_raj_risk(risk):
    """Exercise 4: ``risk(card)``, the chance that ``card`` takes a -5 against two random bidders (1..15)."""
    if is_blank(risk):
        return not_answered(E4, "risk")
    if not callable(risk):
        return wrong(E4, f"risk should be a function of a card, not {describe(risk)}")
    answers = {}
    for card in range(1, 16):
        try:
            value = risk(card)
        except Exception as exc:  # the student's code: say what happened
            return wrong(E4, f"risk({card}) raised {type(exc).__name__}: {exc}")
        number = as_number(value)
        if number is None:
            return wrong(E4, f"risk({card}) returned {describe(value)}; it should return a probability (a number)",
                         "count the cases where you take the -5, then divide by the number of cases")
        answers[card] = number
    truth = {card: raj_risk(card) for card in range(1, 16)}
    if any(not 0 <= v <= 1 for v in answers.values()):
        card = next(c for c, v in answers.items() if not 0 <= v <= 1)
        return wrong(E4, f"risk({card}) is {answers[card]:g}; a probability lies between 0 and 1",
                     "divide the count by the number of combinations of the two other bids (15 x 15)")
    wrong_cards = [c for c in range(1, 16) if abs(answers[c] - truth[c]) > 1e-9]
    if not wrong_cards:
        safest = min(truth, key=lambda c: (truth[c], -c))
        return correct(E4, f"from {truth[1]:.0%} with the 1 down to {truth[15]:.1%} with the 15. Even the 15 is not "
                           f"safe ({truth[safest]:.1%}): when the other two bid the same card they cancel, and your bid "
                           "is the only one left.")
    card = wrong_cards[0]
    if abs(answers[1] - 1) < 1e-9:
        return wrong(E4, f"risk(1) is not 1: your own card can be matched too. When an opponent also bids a 1, "
                         f"your two 1s cancel and the lowest bid left takes the -5 (risk(1) = {truth[1]:.4f})",
                     "count the pairs where raj_taker says seat 0; it cancels your bid when someone matches it")
    if answers[15] == 0:
        return wrong(E4, f"risk(15) is not 0: when the other two bid the same card (say 7 and 7) they cancel, "
                         f"and your 15 is the lowest bid left (risk(15) = {truth[15]:.4f})",
                     "use variants.raj_taker, which cancels matched bids for you")
    return wrong(E4, f"risk({card}) is {truth[card]:.4f}, not {answers[card]:.4f}",
                 "try every pair of the other two bids, 1..15 each, and count those where raj_taker says player 0")
