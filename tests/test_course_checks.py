"""Exercise checkers: they accept the worked answers, reject typical wrong answers with a message that
says what is wrong, treat the placeholder ``...`` as "not answered yet", and never raise."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.optimize import linprog

from gopskit.course import checks
from gopskit.course.feedback import Feedback

ALL_CHECKERS = [f for lesson in range(1, 6) for f in checks.checkers(lesson)]


def _beat(observation):
    higher = [c for c in observation.legal_moves if c > observation.prize]
    return min(higher) if higher else min(observation.legal_moves)


def _copy(observation):
    return observation.prize


def _crash(observation):
    return observation.no_such_field


def _stub(observation):
    """Return a card."""
    ...  # your answer here


def _no_return(observation):
    observation.prize  # noqa: B018 - a written function that forgets to return


def _two_up(observation):
    higher = [c for c in observation.legal_moves if c >= observation.prize + 2]
    return min(higher) if higher else min(observation.legal_moves)


def _strongest(observation):
    return max(observation.legal_moves)


def _raj_risk(card):
    from gopskit.course import variants

    pairs = [(x, y) for x in range(1, 16) for y in range(1, 16)]
    return sum(variants.raj_taker([card, x, y], prize=-5) == 0 for x, y in pairs) / len(pairs)


def _demo_interval():
    from gopskit.course import classroom

    row = classroom.demo_tournament().compare("equilibrium", "one-higher")
    return row["low"], row["high"]


_ENDGAME = ([[10, 16], [15, 10]], [[0, 21], [22, 0]], [(0, 1), (1, 0)])


def _beat_random(observation):
    if observation.prize == max(observation.unseen_prizes + (observation.prize,)) and len(observation.hand) > 1:
        return max(observation.legal_moves)
    return observation.prize if observation.prize in observation.legal_moves else min(observation.legal_moves)


def _match_prize(prize, prizes):
    return prize


def _best_lead(hand, prizes, their_bid, choose=max, over_prizes=None):
    """Backward induction against ``their_bid`` (``choose=np.mean`` is the slip of averaging over your own cards,
    ``over_prizes=max`` or ``min`` the slip of choosing the prize instead of averaging over it)."""
    if not prizes:
        return 0
    values = []
    for prize in prizes:
        rest = tuple(p for p in prizes if p != prize)
        theirs = their_bid(prize, prizes)
        values.append(choose([prize * int(np.sign(card - theirs))
                              + _best_lead(tuple(c for c in hand if c != card), rest, their_bid, choose, over_prizes)
                              for card in hand]))
    return over_prizes(values) if over_prizes else sum(values) / len(prizes)


def _prize_not_their_bid(hand, prizes, their_bid):
    """The slip of comparing your card with the prize: right against match-prize only."""
    return _best_lead(hand, prizes, _match_prize)


def _above_one_higher(observation, theirs):
    """Lesson 5's alternative answer to exercise 2: one card above one-higher's bid, read from its hand ``theirs``."""
    above = [c for c in theirs if c > observation.prize]
    their_bid = min(above) if above else min(theirs)
    mine = [c for c in observation.legal_moves if c > their_bid]
    return min(mine) if mine else min(observation.legal_moves)


def _hands_one(observation):
    """The answer with the seat slip: hands[1] is the opponent's hand only in seat 1."""
    return _above_one_higher(observation, observation.hands[1])


def _hands_by_seat(observation):
    """The same answer done right: the opponent's hand is hands[1 - player]."""
    return _above_one_higher(observation, observation.hands[1 - observation.player])


def _beat_if_seat_one(observation):
    """Beats the prize by one from seat 1, plays the prize from seat 2 (reads its seat the wrong way round)."""
    if observation.player == 0:
        return _beat(observation)
    return observation.prize if observation.prize in observation.legal_moves else min(observation.legal_moves)


def _interval(k, ddof):
    """The demo interval with ``k`` standard errors (``ddof=0``: np.std's default; "t for n": the wrong degrees of freedom)."""
    from scipy import stats

    from gopskit.course import classroom

    gaps = classroom.demo_pairing(classroom.demo_tournament(), "equilibrium", "one-higher")
    t = (stats.t.ppf(0.975, len(gaps) - 1) if k == "t" else stats.t.ppf(0.975, len(gaps)) if k == "t for n" else k)
    half = t * np.std(gaps, ddof=ddof) / np.sqrt(len(gaps))
    return np.mean(gaps) - half, np.mean(gaps) + half


def _raj_ignoring_your_own_match(card):
    """Counts a pair when your card is the lowest left after the *others'* matches cancel; never cancels yours."""
    pairs = [(x, y) for x in range(1, 16) for y in range(1, 16)]
    return sum(all(card <= o for o in ([] if x == y else [x, y])) for x, y in pairs) / len(pairs)


def _linprog_result(payoffs, free_value=True):
    """linprog's whole result for the maximin program (returned as it is: the slip of forgetting to unpack it)."""
    A = np.asarray(payoffs, dtype=float)
    m, n = A.shape
    return linprog(np.r_[np.zeros(m), -1.0], A_ub=np.c_[-A.T, np.ones(n)], b_ub=np.zeros(n),
                   A_eq=np.r_[np.ones(m), 0.0][None, :], b_eq=[1.0],
                   bounds=[(0, None)] * m + [(None, None) if free_value else (0, None)], method="highs")


def _lp(payoffs, sign=1.0, free_value=True):
    """The maximin linear program for scipy's linprog (``sign=-1``: the value's sign slip; ``free_value=False``:
    the default bounds slip, v >= 0)."""
    result = _linprog_result(payoffs, free_value)
    return sign * result.x[-1], result.x[:len(payoffs)]


# checker name -> (worked answers, [(wrong answer, words the message must contain)])
CASES = {
    "check_expected_points": ([8, 8.0, 40 / 5], [
        (4, "random opponent expects"), (7.5, "half of the 15"), (11, "ties as wins"), (10, "divides by 4"),
        (15, "every point"), (12, "too high"), (2, "too low"), (3, "thrown away on ties"), (40, "before dividing by 5"), ("8", "should be a number"), (True, "should be a number")]),
    "check_beats_match_prize": ([_beat], [
        (_beat_if_seat_one, "from seat 2"), (_copy, "only draw"), (_crash, "raised AttributeError"), (_no_return, "returned None"), (5, "should be a function"),
        (lambda o: max(o.legal_moves) + 1, "not a card in your hand"), (lambda o: min(o.legal_moves), "leads you")]),
    "check_best_reply_points": ([9, 9.0], [
        (15, "forgot the 6"), (21, "every point"), (5, "5-card"), (0, "can be beaten"), (7, "not it"),
        (-6, "counts only the 6 you give up"), (14, "lead with 7 cards"),
        (9.5, "whole number")]),
    "check_backward_induction": ([_best_lead], [
        (lambda hand, prizes, their_bid: len(prizes) * (len(prizes) - 3) / 2, "should be 0, not -1"),
        (lambda hand, prizes, their_bid: _best_lead(hand, prizes, their_bid, np.mean), "averaged over your own cards"),
        (lambda hand, prizes, their_bid: _best_lead(hand, prizes, their_bid, over_prizes=max), "took the best prize"),
        (lambda hand, prizes, their_bid: _best_lead(hand, prizes, their_bid, over_prizes=min), "took the worst prize"),
        (_prize_not_their_bid, "you left their_bid out"),
        (lambda hand, prizes, their_bid: "2", "not a number"), (lambda hand, prizes: 0, "raised TypeError"),
        (lambda hand, prizes, their_bid: _best_lead(hand, prizes, their_bid) if set(hand) == set(prizes) else 0,
         "right on full games"),
        (3, "should be a function")]),
    "check_dominated_plans": ([["321"], [321], [(3, 2, 1)], "321", {"321"}], [
        (["321", "123"], "123 is not strictly dominated"), ([], "missed plan 321"), (["132"], "132 is not strictly"),
        (["321", "231"], "231 is only weakly dominated: 123 scores at least as much"),
        (["321", "312"], "312 is only weakly dominated: 132 scores at least as much"),
        (["999"], "not a plan"), ("321, 231", "make a list of strings, such as ['321', '231']"),
        (["3,2,1"], 'write one plan\'s cards together, such as "321"')]),
    "check_endgame_mix": ([0.2, 1 / 5], [
        (0.8, "chance of bidding 3"), (0.6, "opponent's"), (0.4, "opponent's"), (0.5, "50-50"),
        (0.3, "not indifferent"), (1.4, "not a probability"), ("0.2", "should be a probability")]),
    "check_endgame_value": ([1.4, 7 / 5], [
        (1, "guarantee with a pure bid"), (2, "hold you to"), (1.5, "not a midpoint"), (0, "favours you"),
        (-1.4, "value to your opponent"), (0.2, "a probability from exercise 1 (the chance of bidding 2)"),
        (0.8, "(the chance of bidding 3)"), (3, "not it")]),
    "check_linprog_solver": ([_lp], [
        (lambda A: _lp(A, sign=-1.0), "wrong sign"), (lambda A: _lp(A, free_value=False), "seen by your opponent your function failed"),
        (lambda A: (0.0, np.ones(len(A)) / len(A)), "guarantees only"), (lambda A: (0.0, np.ones(len(A))), "not a probability"),
        (lambda A: 0.0, "expected the pair (value, strategy)"), (lambda A: (0.0, [1.0]), "is not 3 probabilities"),
        (lambda A: _lp(A)[::-1], "the order is (value, strategy)"),
        (lambda A: (_lp(A)[0], np.r_[_lp(A)[1], _lp(A)[0]]), "one too many: the last entry of result.x is v"),
        (lambda A: _linprog_result(A), "linprog's whole result"),
        (lambda A: (0.0, np.full(len(A), np.nan)), "holds nan"), (lambda A: (np.nan, _lp(A)[1]), "not a number")]),
    "check_fictitious_play_bid": ([2, 2.0], [(3, "bidding 2 earns 1.80"), (1, "hold 2 and 3")]),
    "check_possible_bids": ([[1, 2], (2, 1), {1, 2}], [
        ([1, 2, 3], "is a tie"), ([1, 2, 4], "a 4 beats your 3"), ([1], "missed 2"), ([5], "not a card"),
        (2, "should be a list")]),
    "check_blind_information_sets": ([1, 1.0], [(4, "could see the prize"), (24, "counts positions"),
                                                (2, "not it"), ("one", "whole number"), (0, "at least one")]),
    "check_beats_honest": ([_beat], [(_beat_if_seat_one, "from seat 2"), (_copy, "only draw"), (_no_return, "returned None"), (_crash, "raised AttributeError"),
                                     (lambda o: min(o.legal_moves), "you lose")]),
    "check_information_set_values": ([{1: -37 / 18, 2: -179 / 90}, {1.0: -2.056, 2: -1.989}], [
        ({1: -5 / 2, 2: -7 / 2}, "knew they had bid 1"), ({1: -2, 2: -9 / 5}, "knew they had bid 2"),
        ({1: -37 / 18 + 2, 2: -179 / 90 + 2}, "already won"),
        ({1: -9 / 4, 2: -53 / 20}, "weighted the positions equally"),
        ({1: (-5 / 2) / 10 + (-2) * 4 / 5, 2: (-7 / 2) / 10 + (-9 / 5) * 4 / 5}, "add up to 9/10, not 1"),
        ({1: 0, 2: 0}, "not worth 0"), ([1, 2], "should be a dict"),
        ({1: -1.6}, "the value of bid 2 is missing"), ({1: "a", 2: 0}, 'the value of bid 1 is the text "a"'),
        ({"1": -2, "2": -1.9}, 'the cards as numbers, 1 not "1"'),
        ({1: -37 / 18, 2: -179 / 90, 3: 0}, "you do not hold a 3 on turn 2")]),
    "check_my_strategy": ([_copy, _beat_random], [(_beat_if_seat_one, "from seat 2"), (_no_return, "returned None"), (_crash, "raised AttributeError"),
                                                  (_two_up, "trails the random bot"), (4, "should be a function"),
                                                  (_strongest, "exactly 0")]),
    "check_beats_one_higher": ([_two_up, _hands_by_seat, _strongest], [
        (_hands_one, "+4.00 points a game from seat 1 but +1.50 from seat 2"), (_copy, "one-higher leads you"),
        (_no_return, "returned None"), (_beat, "only break even")]),
    "check_cleo_vs_ben": ([2.5, 5 / 2], [(5, "cleo's points"), (-2.5, "ben's lead"), (1, "not cleo's expected lead"),
                                          ("2.5", "should be a number"), (7.5, "cleo wins every turn but one"), (10, "cleo wins every turn and ben none"),
                                          (0, "break even")]),
    "check_interval": ([_demo_interval(), _interval("t", 1)], [
        ((0, 1), "centred"), ((1, 0), "above the high end"), ("low", "two numbers"),
        (_interval(1.96, 1), "uses 1.96"), (_interval("t", 0), "without ddof=1"), (_interval(1.96, 0), "for two reasons"),
        (_interval("t for n", 1), "Student's t for n degrees of freedom (10); use n - 1 = 9")]),
    "check_tie_rule": (["carry", " Carry "], [("discard", "5.00 under discard"), ("both", "name of a tie rule"), ("no difference", "the tie rule does matter")]),
    "check_endgame": ([_ENDGAME, (*_ENDGAME[:2], [(1, 0), (0, 1)])], [
        ((_ENDGAME[1], _ENDGAME[0]), "swapped"), (([[10, 15], [16, 10]], [[0, 22], [21, 0]]), "rows and columns"),
        ((_ENDGAME[0], [[25, 21], [22, 0]]), "player 2 is in the middle, so scores 0"),
        (([[10, 17], [15, 10]], _ENDGAME[1]), "and player 1 scores 16"), ("AB", "2 x 2 table"),
        ((*_ENDGAME[:2], [(0, 1)]), "you missed (1, 0)"), ((*_ENDGAME[:2], [(0, 1), (1, 0), (1, 1)]), "(1, 1) is not stable"),
        ((*_ENDGAME[:2], "01"), "list of cells"), ((*_ENDGAME[:2], [(1, 2), (2, 1)]), "numbered from 0"),
        ((*_ENDGAME[:2], [("high", "low"), ("low", "high")]), "0 for high first and 1 for low first")]),
    "check_beats_queen": ([[2, 3, 4, 6], (6, 4, 3, 2), {2, 3, 4, 6}], [
        ([2, 3, 4], "missed 6"), ([2, 3, 4, 6, 5], "5 does not beat the Queen"), ([12], "not one of the other"),
        ([2, 3, 4, 6, 11], "not one of the other"), ("2346", "should be a list")]),
    "check_raj_risk": ([_raj_risk], [(lambda card: ((15 - card) / 15) ** 2, "risk(15) is not 0"),
                                      (_raj_ignoring_your_own_match, "risk(1) is not 1: your own card can be matched"),
                                      (lambda card: 2, "between 0 and 1"), (lambda card: "x", "probability"),
                                      (3, "should be a function")]),
}


def test_every_lesson_checker_has_cases_here():
    names = {f.__name__ for f in ALL_CHECKERS}
    assert names <= set(CASES), f"checkers without test cases: {sorted(names - set(CASES))}"


@pytest.mark.parametrize("name", sorted(CASES))
def test_worked_answers_pass(name):
    right, _wrong = CASES[name]
    for answer in right:
        feedback = getattr(checks, name)(answer)
        assert isinstance(feedback, Feedback) and feedback.ok, f"{name}({answer!r}) -> {feedback}"
        assert feedback.text().startswith(f"{feedback.exercise}: correct.")


@pytest.mark.parametrize("name", sorted(CASES))
def test_typical_wrong_answers_fail_with_a_specific_message(name):
    _right, wrongs = CASES[name]
    for answer, words in wrongs:
        feedback = getattr(checks, name)(answer)
        assert feedback.status == "wrong", f"{name}({answer!r}) should be rejected, got {feedback}"
        assert words in feedback.message, f"{name}({answer!r}): {feedback.message!r} should mention {words!r}"
        assert not bool(feedback)


@pytest.mark.parametrize("checker", ALL_CHECKERS, ids=lambda f: f.__name__)
def test_blank_answers_say_not_answered_and_never_raise(checker):
    for blank in (..., None):
        feedback = checker(blank)
        assert feedback.status == "blank", f"{checker.__name__}({blank!r}) -> {feedback}"
        assert "not answered yet" in feedback.text() and "Hint" in feedback.text()
        assert "Not answered yet" in feedback._repr_html_()


FUNCTION_CHECKERS = [f for f in ALL_CHECKERS if any(callable(a) for a in CASES.get(f.__name__, ([], []))[0])]


@pytest.mark.parametrize("checker", FUNCTION_CHECKERS, ids=lambda f: f.__name__)
def test_an_unwritten_function_says_not_answered_not_a_red_error(checker):
    """The student notebooks hand out a function as signature, docstring and `...`: that is a blank, not a mistake."""
    for blank in (_stub, lambda observation: None):
        feedback = checker(blank)
        assert feedback.status == "blank", f"{checker.__name__}(unwritten function) -> {feedback}"
        assert "returned None" not in feedback.text() and "Not answered yet" in feedback._repr_html_()


def test_the_student_notebooks_function_blanks_are_not_answered_yet():
    """Run each function exercise exactly as a student gets it (the derived blank) through its check cell."""
    import gopskit.course.checks as all_checks
    from gopskit.course import sync

    seen = 0
    for teacher in sync.teacher_notebooks():
        for answer, check in sync.exercises(sync.read(teacher)):
            stub = sync.answer_stub(answer)
            if "def " not in stub:
                continue
            namespace = {name: getattr(all_checks, name) for name in
                         {f.__name__ for f in ALL_CHECKERS}}
            exec(stub, namespace)  # noqa: S102 - the blank a student sees
            call = "\n".join(line for line in check.splitlines() if not line.startswith("#"))
            feedback = eval(call, namespace)  # noqa: S307 - the check cell's one call
            assert feedback.status == "blank", f"{teacher.name}: {stub!r} -> {feedback}"
            seen += 1
    assert seen >= 2


def test_the_linprog_slips_get_the_hint_that_fixes_them():
    assert "bounds (None, None)" in checks.check_linprog_solver(lambda A: _lp(A, free_value=False)).hint
    assert "minimise -v" in checks.check_linprog_solver(lambda A: _lp(A, sign=-1.0)).hint


def test_a_linprog_solver_that_crashes_on_a_game_worth_zero_is_not_told_about_negative_values():
    """The 3 x 3 turn is worth 0 (the LP may return it as -0.0 or -1e-17): a crash there is not a bounds slip."""
    feedback = checks.check_linprog_solver(lambda A: 1 / 0)
    assert feedback.status == "wrong" and "on the 3 x 3 turn your function failed (ZeroDivisionError" in feedback.message
    assert "negative" not in feedback.hint and "value and the row player's probabilities" in feedback.hint


def test_a_function_that_forgets_to_return_is_still_a_mistake():
    from gopskit.course.feedback import is_blank

    assert not is_blank(_no_return) and not is_blank(_beat) and not is_blank(print)
    assert is_blank(_stub) and is_blank(...) and is_blank(None)


@pytest.mark.parametrize("checker", ALL_CHECKERS, ids=lambda f: f.__name__)
def test_odd_answers_give_feedback_not_exceptions(checker):
    for odd in ("", "abc", -1, 10**9, float("nan"), [1, "x"], {"a": 1}, object(), lambda o: 1 / 0):
        feedback = checker(odd)
        assert isinstance(feedback, Feedback) and feedback.status == "wrong", f"{checker.__name__}({odd!r})"
        assert feedback.message


def test_feedback_renders_as_text_and_html():
    feedback = Feedback("Exercise 7", "wrong", "3 < 4 & so on", "look <here>")
    assert repr(feedback) == "Exercise 7: not yet. 3 < 4 & so on\n  Hint: look <here>"
    html = feedback._repr_html_()
    assert "3 &lt; 4 &amp; so on" in html and "look &lt;here&gt;" in html and "Not yet" in html


# ------------------------------------------------- both seats (lesson 5, item: hands[1]) --
def test_exact_lead_is_the_same_from_both_seats_for_a_strategy_that_reads_its_own_seat():
    from gopskit.course.strategies import exact_lead, seat_leads

    for strategy, opponent in ((_beat, "match-prize"), (_two_up, "one-higher"), (_hands_by_seat, "one-higher"),
                               (_copy, "random")):
        first, second = (exact_lead(strategy, opponent, 4, seat=seat).mean for seat in (0, 1))
        assert first == pytest.approx(second, abs=1e-12), strategy.__name__
        assert not seat_leads(strategy, opponent, 4).uneven


def test_the_hands_one_slip_leads_differently_from_the_two_seats_and_every_strategy_check_names_it():
    from gopskit.course.strategies import seat_leads

    leads = seat_leads(_hands_one, "one-higher", 4)
    assert leads.uneven and leads.first.mean == pytest.approx(4.0) and leads.second.mean == pytest.approx(1.5)
    # both leads are positive: a check that only looked at the average (or only at seat 1) would pass it
    assert leads.overall.mean > 0
    feedback = checks.check_beats_one_higher(_hands_one)
    assert not feedback.ok and "hands[1] is your own hand when you sit second" in feedback.message
    assert "1 - observation.player" in feedback.hint
    for check in (checks.check_beats_match_prize, checks.check_beats_honest, checks.check_my_strategy):
        assert "from seat 2" in check(_beat_if_seat_one).message, check.__name__


def test_trials_and_trial_games_use_both_seats():
    from gopskit.course.strategies import strategy_problem, trial, try_against

    def breaks_in_seat_two(observation):
        return min(observation.legal_moves) if observation.player == 0 else 99

    assert "playing from seat 2" in strategy_problem(breaks_in_seat_two, 4)
    assert try_against(breaks_in_seat_two, ["random"], num_cards=4).status == "wrong"
    table = trial(_copy, ["random"], num_cards=4, games=10, seed=1)
    assert "half from each seat" in table.title
    assert "from seat 1" in trial(_copy, ["random"], num_cards=4, games=10, seed=1, seats=(0,)).title


def test_lesson5_exercise2_explains_two_above_only_for_a_strategy_that_does_it():
    explained = "Two above the prize beats one above"
    assert explained in checks.check_beats_one_higher(_two_up).message
    for other in (_strongest, _hands_by_seat):  # both pass, neither bids two above the prize
        feedback = checks.check_beats_one_higher(other)
        assert feedback.ok and explained not in feedback.message and "the exact best reply" in feedback.message


def test_lesson1_exercise3_states_the_formula_with_its_range():
    message = checks.check_best_reply_points(9).message
    assert "for n = 3 or more" in message and "with 2 cards the best reply only draws" in message


def test_lesson3_exercise4_says_the_belief_decides():
    message = checks.check_information_set_values({1: -37 / 18, 2: -179 / 90}).message
    assert "bid 2 is worth -1.989" in message and "the belief decides" in message


def test_a_number_written_as_text_is_told_to_drop_the_quotes():
    """'1/5' in quotes is text, not a number: the message says so, for every exercise that wants a number."""
    cases = [(checks.check_expected_points, "8"), (checks.check_best_reply_points, "9"), (checks.check_endgame_mix, "1/5"),
             (checks.check_endgame_value, "7/5"), (checks.check_fictitious_play_bid, "2"),
             (checks.check_blind_information_sets, "1"), (checks.check_cleo_vs_ben, "2.5"),
             (checks.check_interval, ("-0.62", "0.52"))]
    for checker, answer in cases:
        feedback = checker(answer)
        assert feedback.status == "wrong" and "without quotes" in feedback.message, f"{checker.__name__}: {feedback}"
    # text that is no number, and text where text is wanted, get no such advice
    assert "without quotes" not in checks.check_endgame_mix("half").message
    assert "without quotes" not in checks.check_tie_rule("8").message


def test_interval_with_t_for_n_degrees_of_freedom_is_rejected_even_rounded():
    """t for n and for n - 1 differ by under 0.01 in the half-width: the check must still tell them apart."""
    wrong_t = _interval("t for n", 1)
    for answer in (wrong_t, tuple(round(v, 2) for v in wrong_t)):
        feedback = checks.check_interval(answer)
        assert feedback.status == "wrong" and "use n - 1" in feedback.message, feedback
        assert "correct" not in feedback.text()
    right = _interval("t", 1)
    assert checks.check_interval(tuple(round(v, 2) for v in right)).ok
