"""The claims lessons 1 to 3 make, recomputed independently of the notebooks' own code.

Each corrected claim has a test that fails on the old text: the false
sentence is gone from both versions of the notebook, the notebook computes
the true statement live (its stored, nbval-checked output carries the
number), and that number agrees with a computation here that does not use
the lesson modules. The courses' structure is checked too: a formal track
in every lesson, a worked answer for every exercise in the teacher
version, and per-section timings that add up to one period.
"""

from __future__ import annotations

import functools
import itertools
import re

import numpy as np
import pytest
from scipy.optimize import linprog

from gopskit.course import hidden, mixed, pure, sync
from gopskit.solvers.matrix import eliminate_dominated

LESSONS = {1: "01-pure-strategy.ipynb", 2: "02-mixed-equilibria.ipynb", 3: "03-bluffing-hidden-information.ipynb"}
PERIOD_MINUTES = 50
FORMAL_HEADING = "## 🎓 **Formal track** (for university classes; younger classes skip it): "  # as in lessons 4 and 5


def _notebooks(lesson: int):
    name = LESSONS[lesson]
    return {"teacher": sync.read(sync.TEACHER / name), "student": sync.read(sync.LESSONS / name)}


def _text(nb) -> str:
    return "\n".join(cell.source for cell in nb.cells)


def _stored_output(nb) -> str:
    return "\n".join(o.get("text", "") + o.get("data", {}).get("text/plain", "")
                     for cell in nb.cells if cell.cell_type == "code" for o in cell.outputs)


# ------------------------------------------- an independent Gops solver --
def _game_value(A: np.ndarray) -> float:
    """Value of a zero-sum matrix game by its own LP (row maximises), not the kit's solver."""
    m, n = A.shape
    result = linprog(np.r_[np.zeros(m), -1.0], A_ub=np.c_[-A.T, np.ones(n)], b_ub=np.zeros(n),
                     A_eq=np.r_[np.ones(m), 0.0][None, :], b_eq=[1.0], bounds=[(0, None)] * m + [(None, None)],
                     method="highs")
    return float(result.x[-1])


@functools.lru_cache(maxsize=None)
def _position_value(hand: tuple, other: tuple, prizes: tuple) -> float:
    if not prizes:
        return 0.0
    return float(np.mean([_game_value(_turn(hand, other, prizes, p)) for p in prizes]))


def _turn(hand, other, prizes, prize) -> np.ndarray:
    rest = tuple(q for q in prizes if q != prize)
    return np.array([[prize * np.sign(a - b) + _position_value(tuple(c for c in hand if c != a),
                                                               tuple(c for c in other if c != b), rest)
                      for b in other] for a in hand])


def _has_saddle(A: np.ndarray) -> bool:
    return any(A[i, j] == A[i].min() and A[i, j] == A[:, j].max() for i in range(A.shape[0]) for j in range(A.shape[1]))


def _three_card_turns_without_saddle():
    cards = (1, 2, 3)
    found, total = [], 0
    for size in (3, 2):
        for hand, other, prizes in itertools.product(itertools.combinations(cards, size), repeat=3):
            for prize in prizes:
                total += 1
                if not _has_saddle(np.round(_turn(hand, other, prizes, prize), 9)):
                    found.append((hand, other, prizes, prize))
    return found, total


# ------------------------------------------------ lesson 2: saddle points --
def test_lesson_2_no_longer_says_matching_is_safe_everywhere_with_three_cards():
    for version, nb in _notebooks(2).items():
        text = _text(nb)
        assert "matching the prize is safe everywhere" not in text, version
        assert "a saddle point means a pure strategy is safe (2- and 3-card Gops)" not in text, version
        assert "mixed.positions_without_saddle(3)" in text, f"{version}: the count is computed live"


def test_three_card_turns_without_a_saddle_point_counted_independently():
    found, total = _three_card_turns_without_saddle()
    assert len(found) == 20 and total == 57
    assert sorted(found) == sorted(mixed.positions_without_saddle(3))
    endgame = tuple(mixed.ENDGAME[k] for k in ("hand", "opp_hand", "prizes", "prize"))
    assert endgame in found, "the lesson's own section 3 endgame has no saddle point"
    assert all(hand != other for hand, other, _, _ in found), "along equilibrium play (equal hands) every turn has one"
    stored = _stored_output(_notebooks(2)["teacher"])
    assert f"3 cards: {len(found)} of the {total} turns have no saddle point" in stored
    assert "turns without a saddle point where both hands are the same: 0" in stored


def test_lesson_2_names_nash_equilibrium_and_shows_the_value_is_zero():
    for nb in _notebooks(2).values():
        text = _text(nb)
        assert "Nash equilibrium" in text and "symmetric" in text
    stored = _stored_output(_notebooks(2)["teacher"])
    for n in range(2, 5):
        cards = tuple(range(1, n + 1))
        assert abs(_position_value(cards, cards, cards)) < 1e-9
        assert f"{n}-card Gops: value 0.000000" in stored


def test_the_lp_exercise_game_is_three_by_three_without_a_saddle_point_and_worth_zero():
    A = mixed.lp_game().payoffs
    assert A.shape == (3, 3) and not _has_saddle(A)
    assert abs(_game_value(A)) < 1e-9 and np.allclose(A, -A.T)
    # the teacher's worked answer: the mix 3/11, 5/11, 3/11 makes every column pay 0
    mix = np.array([3, 5, 3]) / 11
    assert np.allclose(mix @ A, 0, atol=1e-9)


# ------------------------------------------------------ lesson 3: bluffing --
def test_lesson_3_measures_bluffing_against_an_open_bid_control():
    for version, nb in _notebooks(3).items():
        text = _text(nb)
        assert "hidden.bluff_control()" in text and "hidden.CONTROL" in text, version
        assert "It is a **bluff**: it keeps your hand unreadable" not in text, version
    control = hidden.bluff_control()
    hidden_bids, shown = control.summary["hidden bids"], control.summary[hidden.CONTROL]
    # most of the "bluffing" happens with bids shown too: it is mixing, not bluffing
    assert shown.high_on_low > 0.8 * hidden_bids.high_on_low and shown.low_on_high > 0.8 * hidden_bids.low_on_high
    added = control.bluff()
    assert added.high_on_low == pytest.approx(hidden_bids.high_on_low - shown.high_on_low)
    stored = _stored_output(_notebooks(3)["teacher"])
    assert f"open bids  : a higher card on a low prize (1 or 2) {shown.high_on_low:.0%}" in stored
    assert f"hidden bids: a higher card on a low prize (1 or 2) {hidden_bids.high_on_low:.0%}" in stored


def test_the_open_bid_control_is_an_equilibrium_of_the_ordinary_game_that_bids_above_low_prizes():
    """Independently of CFR: the exact solver's open-game equilibrium also bids above a low prize on turn 1."""
    assert hidden.exploitability(hidden.solve(hidden.CONTROL)) < 0.02
    assert hidden.rules_for(hidden.CONTROL).hidden_bids is False
    policy = mixed.first_turn_policy(4)
    assert policy[1, 2:].sum() > 0.1, "the exact open-bid equilibrium bids above the prize 2 on the first turn"


def test_the_honest_bot_is_as_exploitable_with_bids_hidden_as_shown():
    from gopskit.agents import make_agent
    from gopskit.solvers.cfr import agent_tree_exploitability

    values = [agent_tree_exploitability(make_agent("match-prize"), hidden.rules_for(v, 4)) for v in ("hidden bids", "open bids")]
    assert values[0] == pytest.approx(values[1]) and values[0] > 0


# ---------------------------------------------- lesson 3: the dealer's -2 --
def test_lesson_3_says_minus_two_is_the_value_not_what_every_dealer_loses():
    for version, nb in _notebooks(3).items():
        text = _text(nb)
        assert "loses 2 points a hand whatever it does" not in text, version
        assert "hidden.spendthrift_dealer()" in text and "guarantee" in text, version
    spender = hidden.spendthrift_dealer()
    # by hand: after 4 on the 1 (the dealer takes it), 1, 2, 3 face up against 2, 3, 4: each is beaten by one
    by_hand = 1 - (2 + 3 + 4)
    assert spender.results == [by_hand] == [-8]
    assert spender.value == pytest.approx(-2, abs=1e-3) and spender.per_hand < spender.value - 1
    stored = _stored_output(_notebooks(3)["teacher"])
    assert "loses that hand by 8 points" in stored


def test_the_information_set_exercise_by_hand():
    values = hidden.information_set_values()
    # they bid 1 or 2 (1/8 each before the news): belief 1/2 each; position values worked out in the teacher notes
    assert values.belief == {1: 0.5, 2: 0.5}
    assert values.per_position == {1: {1: -2, 2: -2.5}, 2: {1: -1.25, 2: -1}}
    assert values.values == {1: -1.625, 2: -1.75}


# ------------------------------------------------- lesson 1: weak elimination --
def test_lesson_1_warns_that_weak_elimination_depends_on_the_order():
    for version, nb in _notebooks(1).items():
        text = _text(nb)
        assert "the order matters" in text and "pure.weak_elimination_outcomes" in text, version
    A = pure.ORDER_EXAMPLE.payoffs  # rows top, middle, bottom (maximise); columns left, right (minimise)

    def weakly_beaten(values_kept, values_other):
        return np.all(values_other >= values_kept) and np.any(values_other > values_kept)

    # order 1: strike middle (top is as good everywhere, better against right), then right, then bottom
    assert weakly_beaten(A[1], A[0])
    assert weakly_beaten(-A[[0, 2], 1], -A[[0, 2], 0])  # with middle gone, left is never worse for the column player
    assert weakly_beaten(A[2, [0]], A[0, [0]])
    # order 2: strike bottom first, then left, then middle
    assert weakly_beaten(A[2], A[0])
    assert weakly_beaten(-A[[0, 1], 0], -A[[0, 1], 1])
    assert weakly_beaten(A[1, [1]], A[0, [1]])
    ends = pure.weak_elimination_outcomes(A)
    assert ((0,), (0,)) in ends and ((0,), (1,)) in ends, "the two orders end in different places"
    assert eliminate_dominated(A, weak=True).rows == [0]
    stored = _stored_output(_notebooks(1)["teacher"])
    assert f"{len(ends)} different ends" in stored


def test_backward_induction_against_match_prize_matches_the_closed_form():
    for n in range(3, 7):
        cards = tuple(range(1, n + 1))
        assert pure.lead_against_match_prize(cards, cards) == n * (n - 3) / 2
    assert pure.lead_against_match_prize((1, 4), (2, 3)) == 1


# ---------------------------------------------------------- structure --
@pytest.mark.parametrize("lesson", sorted(LESSONS))
def test_every_lesson_has_a_marked_skippable_formal_track_with_definitions_and_references(lesson):
    references = {1: ["Ross", "1971", "rearrangement inequality"],
                  2: ["von Neumann", "1928", "Rhoads & Bartholdi", "2012", "duality", "Nash equilibrium"],
                  3: ["Zinkevich", "2007", "information set", "exploitability"]}
    for version, nb in _notebooks(lesson).items():
        formal = [c for c in nb.cells if c.cell_type == "markdown" and c.source.startswith(FORMAL_HEADING)]
        assert len(formal) == 1, f"lesson {lesson} ({version}) has one formal track section"
        text = formal[0].source
        assert "Skip this section" in text and "$" in text and ("Proof" in text or "sketch" in text)
        for word in references[lesson]:
            assert word in text, f"lesson {lesson} formal track should mention {word!r}"


@pytest.mark.parametrize("lesson", sorted(LESSONS))
def test_every_exercise_has_a_worked_prose_answer_with_common_wrong_answers(lesson):
    nb = _notebooks(lesson)["teacher"]
    checks = [k for k, c in enumerate(nb.cells) if "check" in c.metadata.get("tags", [])]
    for number, index in enumerate(checks, 1):
        notes = next(c for c in nb.cells[index + 1:] if "teacher" in c.metadata.get("tags", []))
        assert notes.source.startswith(f"**Worked answer (exercise {number}).**"), f"lesson {lesson}, exercise {number}"
        assert "Common wrong answers" in notes.source
    student = _text(_notebooks(lesson)["student"])
    assert "Worked answer" not in student and "Common wrong answers" not in student


TIMING = re.compile(r" ⏱ (\d+) min$")


@pytest.mark.parametrize("lesson", sorted(LESSONS))
def test_every_section_carries_its_timing_and_the_lesson_fits_one_period(lesson):
    nb = _notebooks(lesson)["teacher"]
    headings = [line for cell in nb.cells if cell.cell_type == "markdown"
                for line in cell.source.splitlines() if line.startswith("## ")]
    minutes = []
    for heading in headings:
        if heading.startswith(FORMAL_HEADING):
            assert "⏱" not in heading  # not part of the period
            continue
        match = TIMING.search(heading)
        assert match, f"lesson {lesson}: section {heading!r} has no timing (## Title ⏱ N min)"
        minutes.append(int(match.group(1)))
    assert len(minutes) >= 5 and sum(minutes) <= PERIOD_MINUTES, f"lesson {lesson}: {minutes}"
    assert sum(minutes) >= 45, f"lesson {lesson}: {minutes} leave the period half empty"


# ------------------------------------------- the reading of 23 Nov (H9) --
ALL_TEACHERS = sorted(sync.TEACHER.glob("0[1-5]-*.ipynb"))


def test_lesson_1_the_other_bots_do_worse_than_match_prize_against_random_exactly():
    """The plot's claim, exactly for the small decks (every prize order, every random reply)."""
    from gopskit.agents import make_agent
    from gopskit.course.strategies import exact_lead

    for n in (2, 3, 4):
        leads = {bot: exact_lead(make_agent(bot), "random", n).mean for bot in ("match-prize", "one-higher", "greedy-high")}
        assert leads["match-prize"] > max(leads["one-higher"], leads["greedy-high"]) + 0.4, (n, leads)
    text = _text(_notebooks(1)["teacher"])
    assert "(91 points in all)" not in text and "{sum(range(1, 14))} points in all" in text
    assert "four cards or more" not in text and "four or more cards" not in text  # only 4 cards is computed


def test_lesson_1_max_over_the_prize_gives_the_same_lead_as_the_average_against_match_prize():
    """The teacher note on a common slip in exercise 4: against match-prize the prize order does not matter."""
    @functools.lru_cache(maxsize=None)
    def by_max(hand, prizes):
        if not prizes:
            return 0
        return max(max(p * int(np.sign(c - p)) + by_max(tuple(x for x in hand if x != c), tuple(q for q in prizes if q != p))
                       for c in hand) for p in prizes)

    for n in (2, 3, 4):
        for size in range(1, n + 1):
            for hand in itertools.combinations(range(1, n + 1), size):
                for prizes in itertools.combinations(range(1, n + 1), size):
                    assert by_max(hand, prizes) == pure.lead_against_match_prize(hand, prizes), (hand, prizes)
    assert "happens to give the same numbers" in _text(_notebooks(1)["teacher"])


@pytest.mark.parametrize("lesson", [1, 3])
def test_strategy_exercises_of_lessons_1_and_3_are_judged_exactly(lesson):
    from gopskit.course.checks import check_beats_honest, check_beats_match_prize

    def one_above(observation):
        higher = [card for card in observation.legal_moves if card > observation.prize]
        return min(higher) if higher else min(observation.legal_moves)

    def strongest(observation):
        return max(observation.legal_moves)

    check = {1: check_beats_match_prize, 3: check_beats_honest}[lesson]
    assert check(one_above).ok and "exact: every prize order" in check(one_above).text()
    assert not check(strongest).ok  # judged over every prize order, never on a lucky sample
    assert "lucky run cannot pass it" in _text(_notebooks(lesson)["student"])
    assert "The check plays 100 games" not in _text(_notebooks(lesson)["student"])


def test_lesson_2_duel_does_not_give_away_exercises_1_and_2():
    """The duel used to print 'bid 2 one time in five' and +1.40 just above the exercises asking for p and the value."""
    for version, nb in _notebooks(2).items():
        cells = nb.cells
        first_exercise = next(k for k, c in enumerate(cells) if "### Exercise 1" in c.source)
        before = "\n".join(c.source for c in cells[:first_exercise])
        assert "one time in five" not in before and "0.2, 0.8" not in before and "1/5" not in before, version
        printed = "\n".join(o.get("text", "") for c in cells[:first_exercise] if c.cell_type == "code" for o in c.outputs)
        assert "1.40" not in printed and "1.4 " not in printed, version
    # the prose's ordering, recomputed with the cell's own seeds
    rng = np.random.default_rng(3)
    half = mixed.duel(list(rng.choice([2, 3], size=400)), seed=1).average
    tenth = mixed.duel(list(rng.choice([2, 3], p=[0.1, 0.9], size=400)), seed=1).average
    always_three = mixed.duel([3] * 40, seed=1).average
    assert half < always_three < tenth < 1.4  # wrong proportions are punished; no mix beats the value
    text = _text(_notebooks(2)["teacher"])
    assert "half and half is punished too, and does worse than always 3" in text
    assert "guarantee them the same number" not in text


def test_lesson_2_parity_sentence_states_the_counts_the_cell_prints():
    policy = mixed.first_turn_policy(8)
    odd = policy[:, 0::2].sum(axis=1)  # bids 1, 3, 5, 7
    one_sided = int(sum(max(o, 1 - o) >= 0.8 for o in odd))
    peaks = [int(sum(1 for k, p in enumerate(row) if p > 1e-6 and (k == 0 or p > row[k - 1] + 1e-9)
                     and (k == len(row) - 1 or p >= row[k + 1] - 1e-9))) for row in policy]
    assert one_sided == len(policy) // 2 and min(peaks) >= 2
    text = _text(_notebooks(2)["teacher"])
    assert "Half of the rows put at least 80% of their weight on one parity, and every row has two or more peaks" in text
    assert "Many rows put most of their weight on one parity" not in text  # true of every distribution


def test_lesson_3_exercise_1_is_asked_before_the_picture_that_answers_it():
    for version, nb in _notebooks(3).items():
        sources = [c.source for c in nb.cells]
        exercise = next(k for k, s in enumerate(sources) if s.startswith("### Exercise 1"))
        picture = next(k for k, s in enumerate(sources) if s.startswith("plots.information_sets("))
        assert exercise < picture, version
        assert "predict, then check" in sources[exercise]


def test_lesson_3_the_spendthrift_dealer_sentence_matches_the_engine():
    spender = hidden.spendthrift_dealer()
    assert spender.results == [1 - (2 + 3 + 4)]
    text = _text(_notebooks(3)["teacher"])
    assert "takes all three remaining prizes (2 + 3 + 4 = 9 points), so the dealer loses the hand by 8" in text
    assert "beats it by one every time" not in text
    assert "folk theorem" not in text  # that name belongs to repeated games


def test_lesson_5_ben_takes_the_higher_middle_card_as_the_text_says():
    from gopskit.course.classroom import ben

    class Seen:
        def __init__(self, cards):
            self.legal_moves = cards

    assert ben(Seen((1, 2, 3, 4))) == 3 and ben(Seen((1, 4))) == 4 and ben(Seen((1, 2, 4))) == 2
    text = "\n".join(c.source for c in sync.read(sync.TEACHER / "05-class-tournament.ipynb").cells)
    assert "the higher of the two middle ones: with four cards left, his third lowest; with two, his higher card" in text
    assert "where an entry's mean would land in most reruns" not in text  # that is a prediction interval, not a CI


def test_references_name_rhoads_consistently():
    for path in [*ALL_TEACHERS, sync.LESSONS / "README.md"]:
        text = path.read_text(encoding="utf-8")
        assert "G. H. Rhoads" not in text, path.name


# ----------------------------------------------------- LaTeX renders --
MATHJAX_MACROS = {
    "Delta", "Rightarrow", "big", "Big", "arg", "cdot", "dots", "epsilon", "equiv", "frac", "ge", "in", "infty", "le",
    "left", "right", "mathbb", "mathbf", "max", "min", "mid", "pi", "propto", "quad", "sigma", "sqrt", "square", "sum",
    "tau", "text", "tfrac", "times", "to", "top", "varepsilon", "ldots", "neq", "Pr", "prod", "alpha", "beta", "bar",
    "lambda", "mu", "qquad", "leq", "geq", "cdots", "forall", "exists", "subseteq", "cup", "cap", "langle", "rangle",
    "hat", "tilde", "operatorname", "mathcal", "ne", "setminus", "emptyset", "sim", "approx", "log", "exp", "pm",
}


def _math_spans(markdown: str) -> list[str]:
    text = re.sub(r"`[^`]*`", "", markdown)  # code spans are not math
    assert text.count("$") % 2 == 0, "an odd number of $ signs"
    spans = re.findall(r"\$\$(.+?)\$\$", text, flags=re.S)
    text = re.sub(r"\$\$(.+?)\$\$", "", text, flags=re.S)
    assert text.count("$") % 2 == 0, "an inline $ without its partner"
    return spans + re.findall(r"\$(.+?)\$", text, flags=re.S)


@pytest.mark.parametrize("path", ALL_TEACHERS, ids=lambda p: p.name)
def test_formal_track_latex_is_balanced_and_uses_macros_mathjax_knows(path):
    for cell in sync.read(path).cells:
        if cell.cell_type != "markdown" or "$" not in cell.source:
            continue
        for span in _math_spans(cell.source):
            assert span.count("{") == span.count("}"), f"{path.name}: unbalanced braces in ${span}$"
            assert span.count(r"\left") == span.count(r"\right"), f"{path.name}: \\left without \\right in ${span}$"
            unknown = set(re.findall(r"\\([A-Za-z]+)", span)) - MATHJAX_MACROS
            assert not unknown, f"{path.name}: macros {unknown} in ${span}$"
            assert "\n\n" not in span, f"{path.name}: a blank line inside ${span}$ breaks the math"


def test_lesson_2_the_lp_position_is_described_completely():
    """The student must be able to rebuild the 3 x 3 table: which prize went first and which are still to come."""
    assert mixed.LP_POSITION["prizes"] == (2, 3, 4) and mixed.LP_POSITION["prize"] == 3
    A = _turn((1, 2, 3), (1, 2, 3), (2, 3, 4), 3)
    assert np.allclose(A, mixed.lp_game().payoffs)
    assert "the first prize of 4-card Gops, the 1 (a tie)" in _text(_notebooks(2)["student"])
    assert "the 2 and the 4 are still to come" in _text(_notebooks(2)["student"])
