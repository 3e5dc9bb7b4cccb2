"""Lessons 4 and 5: every claim their text makes is what the kit computes, the exercises are not
lookups, the checkers cannot be passed by sampling noise, and the teacher versions explain every answer."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import nbformat
import numpy as np
import pytest
from test_course_checks import _hands_by_seat  # lesson 5's alternative answer to exercise 2
from test_lesson_claims import _game_value  # a matrix game's value by an LP of the tests' own, not the kit's solver

from gopskit.course import classroom, sync, variants
from gopskit.course.checks import check_beats_one_higher, check_my_strategy
from gopskit.course.strategies import exact_lead, trial
from gopskit.games import make_rules

LESSONS = Path(__file__).resolve().parent.parent / "lessons"
L4, L5 = "04-more-players-other-rules.ipynb", "05-class-tournament.ipynb"


def _cells(name, teacher=True):
    return nbformat.read(LESSONS / ("teacher" if teacher else "") / name, as_version=4).cells


def _text(name, teacher=True):
    return "\n".join(c.source for c in _cells(name, teacher))


def _output(cells, needle):
    """The stored text output of the first code cell whose source contains ``needle``."""
    cell = next(c for c in cells if c.cell_type == "code" and needle in c.source)
    return "".join(o.get("text", "") for o in cell.outputs)


def _strongest(observation):
    return max(observation.legal_moves)


def _copy(observation):
    return observation.prize


def _two_above(observation):
    higher = [c for c in observation.legal_moves if c >= observation.prize + 2]
    return min(higher) if higher else min(observation.legal_moves)


def classroom_best_reply(bot):
    from gopskit.course.pure import best_response

    return best_response(bot, num_cards=classroom.NUM_CARDS).value


# ------------------------------------------------------------ lesson 5 --
def test_lesson5_exploitability_range_is_computed_not_claimed():
    distances = classroom.bot_distances()
    assert distances["greedy-high"] == pytest.approx(121 / 24) and distances["greedy-high"] > 5
    low, high = min(distances.values()), max(distances.values())
    for teacher in (True, False):
        assert "between 2 and 5" not in _text(L5, teacher)
    shown = _output(_cells(L5), "bot_distances()")
    assert f"between {low:.2f} and {high:.2f}" in shown and "5.04" in shown


def test_a_zero_edge_strategy_is_refused_and_a_real_edge_accepted():
    assert exact_lead(_strongest, "random", 4).mean == pytest.approx(0, abs=1e-12)
    refused = check_my_strategy(_strongest)
    assert refused.status == "wrong" and "exactly 0" in refused.message
    # the old check (200 sampled games) would have passed it on noise: that is the point of the exact one
    # (the old check: 200 games, the strategy always in seat 1)
    assert trial(_strongest, ["random"], num_cards=4, games=200, seed=21, seats=(0,)).rows[0]["mean difference"] > 0
    accepted = check_my_strategy(_copy)
    assert accepted.ok and exact_lead(_copy, "random", 4).mean == pytest.approx(2.5)


def test_a_zero_edge_strategy_that_uses_randomness_is_refused_too():
    import random

    def coin(observation):
        return random.choice(observation.legal_moves)

    refused = check_my_strategy(coin)  # played 4000 times under a fixed seed: the same verdict every run
    assert refused.status == "wrong" and "could be 0" in refused.message


@pytest.mark.parametrize("order", list(itertools.permutations(range(1, 5))))
def test_formal_track_claim_every_prize_blind_order_breaks_even_against_random(order):
    def fixed(observation):
        return order[observation.turn]

    assert exact_lead(fixed, "random", 4).mean == pytest.approx(0, abs=1e-12)


def test_exact_lead_agrees_with_a_long_simulation():
    simulated = trial(_copy, ["random"], num_cards=4, games=4000, seed=5).rows[0]["mean difference"]
    assert simulated == pytest.approx(exact_lead(_copy, "random", 4).mean, abs=0.2)


def test_beating_one_higher_is_judged_exactly():
    def one_above(observation):
        above = [c for c in observation.legal_moves if c > observation.prize]
        return min(above) if above else min(observation.legal_moves)

    assert exact_lead(one_above, "one-higher", 4).mean == pytest.approx(0, abs=1e-12)
    assert check_beats_one_higher(one_above).status == "wrong"


def test_lesson5_blank_strategies_are_not_answered_yet():
    """Exercises 1 and 2 as the student gets them: the blank function says 'not answered yet', never red."""
    from gopskit.course import checks

    cells = _cells(L5)
    found = 0
    for answer, check in sync.exercises(nbformat.read(LESSONS / "teacher" / L5, as_version=4)):
        stub = sync.answer_stub(answer)
        namespace = {"np": np, "classroom": classroom, **{f.__name__: f for f in checks.checkers(5)}}
        namespace["gaps"] = []
        exec(stub, namespace)  # noqa: S102 - the student's blank
        call = "\n".join(line for line in check.splitlines() if not line.startswith("#"))
        feedback = eval(call, namespace)  # noqa: S307
        assert feedback.status == "blank" and "returned None" not in feedback.text(), (stub, feedback)
        found += 1
    assert found == 4 and cells


def test_lesson5_exercises_are_not_lookups():
    """Exercise 3 is asked before any result is shown; exercise 4's interval is not printed before it."""
    cells = _cells(L5)
    sources = [c.source for c in cells]
    ex3 = next(i for i, s in enumerate(sources) if "cleo_lead =" in s)
    first_result = next(i for i, s in enumerate(sources) if "demo_tournament()" in s)
    assert ex3 < first_result
    ex4 = next(i for i, s in enumerate(sources) if s.startswith("# Exercise 4"))
    assert not any("compare(\"equilibrium\"" in s for s in sources[:ex4 + 1])


def test_lesson5_interval_statements_match_the_data():
    demo = classroom.demo_tournament()
    gaps = classroom.demo_pairing(demo, "equilibrium", "one-higher")
    row = demo.compare("equilibrium", "one-higher")
    assert len(gaps) == row["n"] == demo.games_per_seating == 10  # "each pairing played 10 deals"
    assert np.mean(gaps) == pytest.approx(row["mean"]) and row["mean"] < 0  # it "scored less"
    assert row["low"] < 0 < row["high"]  # a tie within noise, as the text says
    cleo = demo.compare("cleo", "ben")
    exact = classroom.exact_pairing("cleo", "ben")
    assert exact == pytest.approx(2.5) and cleo["low"] <= exact <= cleo["high"]
    shown = _output(_cells(L5), 'exact_pairing("cleo", "ben")')
    assert f"{exact:+.2f}" in shown and "inside" in shown
    assert "Ranked by mean points per game" in _output(_cells(L5), "ranking_text()")


def test_lesson5_teacher_prose_numbers():
    def one_above(observation):
        above = [c for c in observation.legal_moves if c > observation.prize]
        return min(above) if above else min(observation.legal_moves)

    prose = _text(L5)
    assert "exactly 2.5 points" in prose and exact_lead(_copy, "random", 4).mean == pytest.approx(2.5)
    assert "(−0.50)" in prose and exact_lead(one_above, "random", 4).mean == pytest.approx(-0.5)
    old = trial(_strongest, ["random"], num_cards=4, games=200, seed=21, seats=(0,)).rows[0]["mean difference"]
    assert f"(+{old:.2f})" in prose
    assert "(−2 points a game)" in prose and exact_lead(_copy, "one-higher", 4).mean == pytest.approx(-2)
    assert "a lead of 2 points" in prose
    # "always my highest card" passes narrowly, loses to match-prize, and two above does four times better
    assert "(+0.50 a game, exact)" in prose and exact_lead(_strongest, "one-higher", 4).mean == pytest.approx(0.5)
    assert "loses by 2.50 a game to match-prize" in prose and exact_lead(_strongest, "match-prize", 4).mean == pytest.approx(-2.5)
    assert "four times better" in prose and exact_lead(_two_above, "one-higher", 4).mean == pytest.approx(4 * 0.5)
    # the alternative answer reads one-higher's hand by seat and leads as much as the exact best reply
    assert "`observation.hands[1 - observation.player]`" in prose and "leads by 4 points a game" in prose
    assert exact_lead(_hands_by_seat, "one-higher", 4, seat=1).mean == pytest.approx(4)
    assert classroom_best_reply("one-higher") == pytest.approx(4)


# ------------------------------------------------------------ lesson 4 --
def test_lesson4_kingmaker_line_ups_differ_and_the_flip_is_beyond_noise():
    source = next(c.source for c in _cells(L4) if "seat_gap" in c.source)
    assert "gops3-proportional\", \"random\", third" in source and "(\"random\", \"gops3-spoiler\")" in source
    gops3 = make_rules("gops-for-three", deals=1)
    gaps = [variants.seat_gap(gops3, ["gops3-proportional", "random", third], games=200, seed=2)
            for third in ("random", "gops3-spoiler")]
    assert gaps[0]["low"] > 0 > gaps[1]["high"]  # the intervals do not overlap: player 3 decides
    shown = _output(_cells(L4), "seat_gap")
    assert f"{gaps[0]['mean']:+6.1f}" in shown and f"{gaps[1]['mean']:+6.1f}" in shown


def test_lesson4_endgame_claims():
    game = variants.Gops3Endgame()
    A, B = game.matrices()
    assert sorted({int(v) for v in (A + B).ravel()}) == [10, 37]
    assert "takes the values 10 and 37" in _text(L4)
    eqs = game.equilibria()
    assert len(eqs) == 3
    pure = [e for e in eqs if max(e.row_strategy) == 1 and max(e.col_strategy) == 1]
    mixed = [e for e in eqs if not (max(e.row_strategy) == 1 and max(e.col_strategy) == 1)]
    assert {(e.row_payoff, e.col_payoff) for e in pure} == {(16, 21), (15, 22)}
    assert all(m.row_payoff < min(p.row_payoff for p in pure) and m.col_payoff < min(p.col_payoff for p in pure)
               for m in mixed)  # "in the mixed one both expect less than in either pure one"
    assert game.outcome("high first", "low first").totals == (16, 21, 20)  # the teacher's worked example
    assert game.outcome("high first", "high first").points == (10, 0, 25)
    # (high, high) and (low, low) are not equilibria, as the formal track says
    assert all(not (e.row_strategy[0] == e.col_strategy[0] and max(e.row_strategy) == 1) for e in eqs)


def test_lesson4_raj_statements():
    risks = {card: variants.raj_risk(card) for card in range(1, 16)}
    assert risks[15] == pytest.approx(14 / 225) and risks[1] == pytest.approx(196 / 225)
    assert all(risks[c] >= risks[c + 1] for c in range(1, 15))  # the risk falls with the card
    assert variants.raj_taker([12, 7, 7], prize=-3) == 0


def test_lesson4_queen_exercise_comes_before_the_table():
    sources = [c.source for c in _cells(L4)]
    exercise = next(i for i, s in enumerate(sources) if "beat_the_queen =" in s)
    table = next(i for i, s in enumerate(sources) if "is beaten by" in s)
    assert exercise < table


def test_lesson4_gooseberry_fool_is_trimmed_honestly():
    text = _text(L4, teacher=False)
    assert "Gooseberry Fool" in text and "not in this lesson" in _text(L4)
    assert "## " not in "".join(line for line in text.splitlines() if "Gooseberry" in line)


# ------------------------------------------------------------ both --
def _suggested_code(markdown):
    return re.findall(r"```python\n(.*?)```", markdown, flags=re.S)


@pytest.mark.parametrize("name", [L4, L5])
def test_every_exercise_suggestion_runs_where_it_is_suggested(name):
    """Run the student notebook's code cells in order (boards and plots too) and each fenced suggestion in
    an exercise's text at the place it appears: a suggestion must not need an import that comes later."""
    import matplotlib

    matplotlib.use("Agg")
    namespace: dict = {}
    ran = 0
    for cell in _cells(name, teacher=False):
        if cell.cell_type == "markdown":
            for snippet in _suggested_code(cell.source):
                exec(snippet, namespace)  # noqa: S102
                ran += 1
            for module in re.findall(r"`([A-Za-z_]\w*)\.\w+\(", cell.source):  # inline `pure.best_response(...)`
                assert module in namespace, f"{name}: the text suggests {module}.…( before {module} is imported"
        elif cell.cell_type == "code" and "class_folder()" not in cell.source and "class_tournament" not in cell.source:
            source = "\n".join(line for line in cell.source.splitlines() if not line.startswith("%"))
            exec(source, namespace)  # noqa: S102
    assert ran >= (2 if name == L4 else 1)


@pytest.mark.parametrize("name", [L4, L5])
def test_teacher_version_explains_every_exercise(name):
    cells = _cells(name)
    answers = [i for i, c in enumerate(cells) if "answer" in c.metadata.get("tags", [])]
    assert len(answers) == 4
    for number, i in enumerate(answers, start=1):
        check, note = cells[i + 1], cells[i + 2]
        assert "check" in check.metadata.get("tags", [])
        assert "teacher" in note.metadata.get("tags", []) and note.cell_type == "markdown"
        assert note.source.startswith(f"**Worked answer, exercise {number} (teacher).**")
        assert "Common wrong answers and what to say" in note.source
    student = _text(name, teacher=False)
    assert "Worked answer" not in student and "Common wrong answers" not in student


@pytest.mark.parametrize("name, words", [
    (L4, ["general-sum", "Nash equilibrium", "(Nash, 1950)", "von Neumann", "Ross", "Rhoads and L. Bartholdi"]),
    (L5, ["exploitability", "confidence interval", "Nash equilibrium", "Nash, *Equilibrium points", "von Neumann",
          "Ross", "Rhoads and L. Bartholdi"]),
])
def test_formal_track_is_marked_and_complete(name, words):
    formal = [c.source for c in _cells(name, teacher=False) if "Formal track" in c.source and "$" in c.source]
    assert formal, "a formal track with LaTeX"
    assert formal[0].startswith("## 🎓 **Formal track** (for university classes; younger classes skip it)")
    text = "\n".join(c.source for c in _cells(name, teacher=False)[[c.source for c in _cells(name, teacher=False)]
                                                                  .index(formal[0]):])
    for word in words:
        assert word in text, f"{name}: the formal track should mention {word!r}"
    assert "Definition" in text and "Sketch" in text


def test_numbers_in_the_text_about_the_checks_and_intervals():
    import inspect

    from scipy import stats

    assert inspect.signature(exact_lead).parameters["games"].default == 4000  # "played 4000 times"
    assert "played 4000 times" in _text(L5) and "4000 times" in (LESSONS / "README.md").read_text(encoding="utf-8")
    assert round(stats.t.ppf(0.975, 9), 2) == 2.26 and "2.26 instead of 1.96" in _text(L5)
    worked = next(c.source for c in _cells(L4) if c.source.startswith("# Exercise 2"))
    namespace: dict = {}
    exec(worked, namespace)  # noqa: S102 - the teacher's worked answer
    A, B = variants.Gops3Endgame().matrices()
    assert np.array_equal(namespace["A"], A) and np.array_equal(namespace["B"], B)
    assert "(15 instead of 10)" in _text(L4) and A[1, 0] == 15 and A[0, 0] == 10


def test_a_strategy_that_breaks_only_in_a_rare_position_is_named_not_crashed():
    def rare(observation):
        if observation.prize == 3 and observation.turn == 2:
            return 99
        return observation.prize if observation.prize in observation.legal_moves else min(observation.legal_moves)

    feedback = check_my_strategy(rare)
    assert feedback.status == "wrong" and "returned 99" in feedback.message and "checking your answer failed" not in feedback.message


# ------------------------------------------ the audit of the lessons (lesson-fixes) --
def test_lesson5_says_how_to_find_the_opponents_hand_from_either_seat():
    for teacher in (True, False):
        text = _text(L5, teacher)
        assert "`observation.hands[1]` are your opponent's cards" not in text
        assert "`observation.hands[1 - observation.player]`" in text and "`observation.player` is your seat" in text
    shown = _output(_cells(L5), 'for field in ("player"')
    assert "observation.player         0" in shown
    state = make_rules("goofspiel", num_cards=4).new_game(seed=2)
    assert state.observation(0).hands == state.observation(1).hands  # listed by seat, the same for both players
    assert state.observation(1).player == 1


def test_lesson5_exercise4_asks_for_students_t_and_the_worked_answer_passes():
    from scipy import stats

    from gopskit.course.checks import check_interval

    demo = classroom.demo_tournament()
    gaps = classroom.demo_pairing(demo, "equilibrium", "one-higher")
    worked = next(c.source for c in _cells(L5) if c.source.startswith("# Exercise 4"))
    namespace = {"np": np, "stats": stats, "gaps": gaps}
    exec(worked, namespace)  # noqa: S102 - the teacher's worked answer
    row = demo.compare("equilibrium", "one-higher")
    assert namespace["interval"] == pytest.approx((row["low"], row["high"]))
    assert check_interval(namespace["interval"]).ok
    for teacher in (True, False):
        text = _text(L5, teacher)
        assert "plus and minus 1.96 ×" not in text and "stats.t.ppf(0.975, len(gaps) - 1)" in text
    prose = _text(L5)
    t = stats.t.ppf(0.975, len(gaps) - 1)
    assert "a half-width of about 1.8 points" in prose and round(t * np.std(gaps, ddof=1), 1) == 1.8


def test_lesson5_ada_is_one_higher_and_the_equilibrium_leads_it_exactly():
    from gopskit.course.classroom import _DeterministicFunction, ada
    from gopskit.solvers.exploit import agent_exploitability

    same, positions = classroom.same_play("ada", "one-higher")
    assert same == positions > 10_000
    distances = classroom.bot_distances(bots=("one-higher",))
    assert agent_exploitability(_DeterministicFunction(ada), num_cards=4).exploitability == pytest.approx(distances["one-higher"])
    shown = "\n".join(_output(_cells(L5), needle) for needle in ("same_play", "exact_pairing(\"one-higher\""))
    assert f"ada and one-higher bid the same card in {same} of the {positions} positions" in shown
    exact = -classroom.exact_pairing("one-higher", "equilibrium")
    seat2 = -exact_lead(classroom.EXAMPLES["ada"], "equilibrium", 4, seat=1).mean
    assert exact == pytest.approx(seat2) and exact > 0.2
    assert f"the equilibrium's exact lead over one-higher: {exact:+.2f}" in shown
    for teacher in (True, False):
        text = _text(L5, teacher)
        assert "yet in the demo it scored *less* than one-higher" not in text
        assert "in their 10 deals against each other it scored *less* than one-higher" in text
        assert "`ada` *is* one-higher under another name" in text
    row = {r["name"]: r for r in classroom.demo_tournament().ranking()}
    assert row["equilibrium"]["mean_points"] > row["one-higher"]["mean_points"]  # "over the whole field it scored more"


def test_lesson5_class_tournament_cell_has_the_bots_of_the_guides_command():
    source = next(c.source for c in _cells(L5) if "class_tournament(" in c.source)
    guide = (LESSONS / "README.md").read_text(encoding="utf-8")
    command = re.search(r"--bots ([a-z,-]+)", guide).group(1).split(",")
    assert all(f'"{bot}"' in source for bot in command), (command, source)


def test_lesson4_swap_argument_names_what_it_needs():
    for teacher in (True, False):
        text = _text(L4, teacher)
        assert "in a zero-sum game, holding hand *A* against *B*" not in text
        assert "its rules treat both players alike" in text and "Zero-sum alone is not enough" in text
    # the rule itself is the same for both players: who wins depends on the two cards only
    from gopskit.games.divide_and_conquer import CARDS, beats

    assert all(beats(a, b) != beats(b, a) for a in CARDS for b in CARDS if a != b)


def test_lesson4_formal_exercise_mixed_equilibrium_fractions_are_the_kits():
    """The worked answer derives p = 22/43, q = 6/11, 140/11 and 462/43; the kit's support enumeration must agree."""
    from fractions import Fraction

    from gopskit.solvers.matrix import nash_equilibria

    A, B = variants.Gops3Endgame().matrices()
    a = [[Fraction(int(v)) for v in row] for row in A]
    b = [[Fraction(int(v)) for v in row] for row in B]
    q = (a[1][1] - a[0][1]) / (a[0][0] - a[0][1] - a[1][0] + a[1][1])
    p = (b[1][1] - b[1][0]) / (b[0][0] - b[0][1] - b[1][0] + b[1][1])
    assert (p, q) == (Fraction(22, 43), Fraction(6, 11))
    row_payoff, col_payoff = q * a[0][0] + (1 - q) * a[0][1], p * b[0][0] + (1 - p) * b[1][0]
    assert (row_payoff, col_payoff) == (Fraction(140, 11), Fraction(462, 43))
    (mixed,) = [e for e in nash_equilibria(A, B) if 0 < e.row_strategy[0] < 1]
    assert np.isclose(mixed.row_strategy[0], float(p)) and np.isclose(mixed.col_strategy[0], float(q))
    assert np.isclose(mixed.row_payoff, float(row_payoff)) and np.isclose(mixed.col_payoff, float(col_payoff))
    text = _text(L4)
    for shown in ("= 6/11", "p = 22/43", "140/11", "462/43"):
        assert shown in text
    # the three-player zero-sum example: a dummy player paid -(A + B) leaves the equilibria, which pay differently
    pure = {(int(np.argmax(e.row_strategy)), int(np.argmax(e.col_strategy))) for e in nash_equilibria(A, B)
            if max(e.row_strategy) == 1 and max(e.col_strategy) == 1}
    assert {(int(A[i, j]), int(B[i, j]), int(-(A + B)[i, j])) for i, j in pure} == {(16, 21, -37), (15, 22, -37)}
    assert "$(16, 21, -37)$ and $(15, 22, -37)$" in text


def test_lesson5_formal_bonferroni_cell_recomputed_independently():
    """The cell's counts, redone from the per-deal differences with scipy's t, not through ResultSet.compare."""
    from scipy import stats

    demo = classroom.demo_tournament()
    names = [row["name"] for row in demo.ranking()]
    pairs = list(itertools.combinations(names, 2))

    def clear(a, b, level):
        gaps = np.asarray(classroom.demo_pairing(demo, a, b))
        half = stats.t.ppf(1 - (1 - level) / 2, len(gaps) - 1) * gaps.std(ddof=1) / np.sqrt(len(gaps))
        return abs(gaps.mean()) > half

    level = 1 - 0.05 / len(pairs)
    at95 = [pair for pair in pairs if clear(*pair, 0.95)]
    corrected = [pair for pair in at95 if clear(*pair, level)]
    assert len(pairs) == 28 and len(corrected) < len(at95)
    intervals = demo.intervals()
    apart = sum(intervals[a]["low"] > intervals[b]["high"] or intervals[b]["low"] > intervals[a]["high"] for a, b in pairs)
    out = _output(_cells(L5), "Bonferroni level")
    assert (f"{len(names)} entries, {len(pairs)} pairs; head to head, {len(at95)} pairs are clear at 95% each, "
            f"{len(corrected)} at the Bonferroni level {level:.4f}") in out
    assert f"pairs whose ranking intervals do not overlap: {apart}" in out
    # the worked answer's words: no two ranking intervals apart, several pairs clear head to head, most stay clear
    assert apart == 0 and len(at95) >= 3 and 2 * len(corrected) > len(at95)
    # formal exercise A (b): overlapping intervals, clear difference
    assert 1.5 < 1 + 1 and np.sqrt(1 ** 2 + 1 ** 2) < 1.5


def test_lesson4_security_levels_are_not_equilibria_as_the_formal_track_says():
    """Each player's maxmin in exercise 2's game, by exact fractions: 5/11 -> 140/11 and 21/43 -> 462/43; neither safe
    mix is a best reply to the other; every equilibrium pays at least the security level; the mixed one exactly."""
    from fractions import Fraction

    from gopskit.solvers.matrix import nash_equilibria, solve_zero_sum

    A, B = variants.Gops3Endgame().matrices()
    a = [[Fraction(int(v)) for v in row] for row in A]
    b = [[Fraction(int(v)) for v in row] for row in B]
    # player 1's safe p equalises player 1's own two columns; player 2's safe q equalises player 2's own two rows
    p_safe = (a[1][1] - a[1][0]) / (a[0][0] - a[1][0] - a[0][1] + a[1][1])
    q_safe = (b[1][1] - b[0][1]) / (b[0][0] - b[0][1] - b[1][0] + b[1][1])
    level1, level2 = p_safe * a[0][0] + (1 - p_safe) * a[1][0], q_safe * b[0][0] + (1 - q_safe) * b[0][1]
    assert (p_safe, level1, q_safe, level2) == (Fraction(5, 11), Fraction(140, 11), Fraction(21, 43), Fraction(462, 43))
    safe1, safe2 = solve_zero_sum(A), solve_zero_sum(B.T)
    assert np.isclose(safe1.value, float(level1)) and np.isclose(safe1.row_strategy[0], float(p_safe))
    assert np.isclose(safe2.value, float(level2)) and np.isclose(safe2.row_strategy[0], float(q_safe))
    # neither safe mix is a best reply to the other: each leaves one strictly better pure reply
    against_q = [q_safe * a[i][0] + (1 - q_safe) * a[i][1] for i in (0, 1)]
    against_p = [p_safe * b[0][j] + (1 - p_safe) * b[1][j] for j in (0, 1)]
    assert against_q[0] != against_q[1] and against_p[0] != against_p[1]
    equilibria = nash_equilibria(A, B)
    assert all(e.row_payoff >= float(level1) - 1e-9 and e.col_payoff >= float(level2) - 1e-9 for e in equilibria)
    (mixed_eq,) = [e for e in equilibria if 0 < e.row_strategy[0] < 1]
    assert np.isclose(mixed_eq.row_payoff, float(level1)) and np.isclose(mixed_eq.col_payoff, float(level2))
    assert not np.isclose(mixed_eq.row_strategy[0], float(p_safe)) and not np.isclose(mixed_eq.col_strategy[0], float(q_safe))
    pure_payoffs = sorted((round(e.row_payoff), round(e.col_payoff)) for e in equilibria if max(e.row_strategy) == 1)
    assert pure_payoffs == [(15, 22), (16, 21)]
    shown = _output(_cells(L4), "safe1, safe2")
    assert (f"player 1 can guarantee {float(level1):.2f}, bidding high first with probability {float(p_safe):.2f}; "
            f"player 2 can guarantee {float(level2):.2f}, with {float(q_safe):.2f}") in shown
    assert str([round(float(x), 2) for x in against_q]) in shown and str([round(float(x), 2) for x in against_p]) in shown
    for teacher in (True, False):
        text = _text(L4, teacher)
        assert "**Security levels are not equilibria.**" in text
        assert "the pure ones pay 16 or 15 to player 1 and 21 or 22 to player 2" in text
        for fraction in ("$140/11$ and $462/43$", "$22/43$ and $6/11$", "$5/11$ and $21/43$"):
            assert fraction in text


def test_lessons_4_and_5_qualify_zero_sum_and_equilibrium_claims():
    """'Every equilibrium pays the same' holds for two-player zero-sum games only; the solver shows one equilibrium;
    support enumeration finds every equilibrium only of a nondegenerate table; exploitability is not a distance."""
    for teacher in (True, False):
        four, five = _text(L4, teacher), _text(L5, teacher)
        assert "every equilibrium of a zero-sum game pays the same" not in four
        assert "every equilibrium of a two-player zero-sum game pays the same" in four
        assert "The exact **equilibria** (lesson 2) change too" not in four
        assert "For a two-player table the kit finds all of them" not in four and "*nondegenerate* table" in four
        assert "*exploit* is how far it is from the equilibrium" not in five
        assert "unless it is an equilibrium (lesson 2)" not in five and "unless it is an equilibrium strategy" in five
        assert "**general-sum** otherwise (Gops for three" in five and "**constant-sum**" in five
        assert "for one that uses randomness it says so instead of printing a number" in five
        assert "starting with a letter, and not the name of a bot" in five and "the earlier file is kept" in five


# ---------------------------------------- the second audit of the lessons (lessons-fix) --
def _versions(name):
    return {"teacher": _text(name), "student": _text(name, teacher=False)}


def test_lesson5_each_pairing_plays_its_own_seeded_deals_from_both_seats():
    """Old text: 'every entry plays every other, from both seats, on the same seeded deals' and 'whatever separates
    their rows comes from chance (the random draws of the entries that mix)': each pairing draws its own deals."""
    from gopskit.arena.tournament import Tournament

    tables = Tournament(make_rules("goofspiel", num_cards=4), ["random", "match-prize", "one-higher"], games=5,
                        seed=1).tables()
    seeds = [set(table.seeds) for table in tables]
    assert all(len(table.seatings) == 2 for table in tables)  # both seats, the same seeds in each seating
    assert all(a.isdisjoint(b) for a, b in itertools.combinations(seeds, 2))  # every pairing its own deals
    for version, text in _versions(L5).items():
        assert "on the same seeded deals" not in text and "the random draws of the entries that mix)" not in text
        assert "Each pairing plays its own seeded deals, each deal from both seats" in text, version
        assert "each pairing plays its own seeded deals, so ada and one-higher meet each opponent on different" in text
    teacher = _text(L5)
    assert "share entries and deals" not in teacher and "share entries, though not deals" in teacher


def test_lesson5_one_higher_and_ada_are_described_as_they_play():
    """'wins the prize by one card whenever it can' / 'bids one above the prize' is not the rule: the cheapest card
    above the prize, else the lowest. Holding 1 and 4 with the 2 turned, both bid the 4."""
    from gopskit.agents import make_agent
    from gopskit.course import pure
    from gopskit.course.checks import check_beats_one_higher

    state = pure._position_state(make_rules("goofspiel", num_cards=4), (1, 4), (2, 3), (2, 3), 2)
    observation = state.observation(0)
    assert make_agent("one-higher").act(observation) == classroom.ada(observation) == 4
    rule = "the cheapest card above the prize (one above, when"
    for version, text in _versions(L5).items():
        assert "wins the prize by one card whenever it can" not in text, version
        assert "wins each prize by one card where she can" not in text, version
        assert f"*one-higher* bids {rule} it still holds it), and its lowest card" in text, version
        assert f"`ada` bids {rule} she still holds it)" in text, version
    for answer in (_copy, lambda observation: observation.prize):  # breaks even; trails
        message = check_beats_one_higher(answer).text()
        assert "one-higher bids one above the prize" not in message and "cheapest card above the prize" in message


def test_lesson5_sampled_games_are_counted_per_seat_as_the_checker_plays_them():
    from gopskit.course.strategies import SAMPLED_GAMES, seat_leads

    def coin(observation):
        import random
        return random.choice(observation.legal_moves)

    assert seat_leads(coin, "random", 3).overall.games == 2 * SAMPLED_GAMES
    for version, text in _versions(L5).items():
        assert f"played {SAMPLED_GAMES} times from each seat instead ({2 * SAMPLED_GAMES} games in all)" in text, version


def test_lesson4_the_spoiler_also_gives_up_when_it_trails_by_its_give_up_margin():
    from gopskit.agents import make_agent

    spoiler = make_agent("gops3-spoiler")
    for version, text in _versions(L4).items():
        assert f"or until it trails the leader by more than {spoiler.give_up} points; then it plays" in text, version


def _dc_value(first, second, win_draw_loss: bool) -> float:
    """Divide and Conquer with first-half hands ``first``/``second`` (swapped for the second half), solved by this
    test's own backward induction and LP: payoff tricks won minus lost, or the sign of that (win, draw, loss)."""
    import functools

    from gopskit.agents.divide_and_conquer import beats

    @functools.lru_cache(maxsize=None)
    def value(mine, theirs, lead, half):
        if not mine:
            if half == 1:
                return value(frozenset(second), frozenset(first), lead, 2)
            return float(np.sign(lead)) if win_draw_loss else float(lead)
        A = np.array([[value(mine - {x}, theirs - {y}, lead + (1 if beats(x, y) else -1), half) for y in sorted(theirs)]
                      for x in sorted(mine)])
        if A.min(axis=1).max() == A.max(axis=0).min():
            return float(A.min(axis=1).max())
        return _game_value(A)

    return value(frozenset(first), frozenset(second), 0, 1)


def test_lesson4_divide_and_conquer_payoff_is_named_and_the_deal_is_fair_either_way():
    """The kit solves each half on tricks won minus lost; the game is won on total tricks. The lesson's deal is worth 0
    both ways (this test's own solver, over the whole ten tricks)."""
    strong, weak = [2, 7, 9, 10, 12], [3, 4, 5, 6, 8]
    halves = variants.swap_fairness(strong, weak)
    assert _dc_value(strong, weak, win_draw_loss=False) == pytest.approx(halves.total, abs=1e-7) == pytest.approx(0)
    assert _dc_value(strong, weak, win_draw_loss=True) == pytest.approx(0, abs=1e-7)
    for version, text in _versions(L4).items():
        assert "(each trick a small matrix game, solved exactly)" not in text, version
        assert "So it counts tricks won minus tricks lost, while the game is won by whoever takes more tricks in all" in text
        assert "scoring a win, a draw or a loss instead also gives this deal a value of 0" in text, version
        assert f"strong, weak = {strong}, {weak}" in text, version
    assert "with tricks won minus tricks lost as the payoff (the game itself is won on the total" in _text(L4)


def test_lesson4_formal_track_endgame_numbers_are_the_engines():
    """The fractions and payoffs the formal track writes out (140/11, 462/43, 22/43, 6/11, 5/11, 21/43, (16, 21),
    (15, 22), -37), recomputed from the engine's endgame tables."""
    from fractions import Fraction as F

    A, B = (np.asarray(m).astype(int).tolist() for m in variants.Gops3Endgame().matrices())
    (a00, a01), (a10, a11) = A
    (b00, b01), (b10, b11) = B
    q = F(a11 - a01, a00 - a01 - a10 + a11)  # player 2's equilibrium mix: player 1 indifferent
    p = F(b11 - b10, b00 - b10 - b01 + b11)  # player 1's equilibrium mix: player 2 indifferent
    safe1 = F(a11 - a10, a00 - a01 - a10 + a11)  # player 1's maxmin mix over its own table
    safe2 = F(b11 - b01, b00 - b01 - b10 + b11)  # player 2's maxmin mix over its own table
    v1, v2 = q * a00 + (1 - q) * a01, p * b00 + (1 - p) * b10
    pure = [(i, j) for i in range(2) for j in range(2)
            if A[i][j] == max(A[0][j], A[1][j]) and B[i][j] == max(B[i])]
    assert pure == [(0, 1), (1, 0)]
    pays = [(A[i][j], B[i][j]) for i, j in pure]
    text = " ".join(_text(L4).split())

    def frac(x):
        return f"{x.numerator}/{x.denominator}"

    assert f"A = [[{a00}, {a01}], [{a10}, {a11}]]" in text and f"B = [[{b00}, {b01}], [{b10}, {b11}]]" in text
    assert f"= {frac(q)}" in text and f"p = {frac(p)}" in text
    assert f"= {frac(v1)} \\approx {float(v1):.2f}" in text and f"= {frac(v2)} \\approx {float(v2):.2f}" in text
    assert f"$({pays[0][0]}, {pays[0][1]})$ and $({pays[1][0]}, {pays[1][1]})$" in text
    assert f"$(16, 21, {-sum(pays[0])})$ and $(15, 22, {-sum(pays[1])})$" in text and sum(pays[0]) == sum(pays[1])
    assert (f"${frac(v1)}$ and ${frac(v2)}$" in text and f"${frac(p)}$ and ${frac(q)}$" in text
            and f"${frac(safe1)}$ and ${frac(safe2)}$" in text)
    assert f"lower than {min(A[0][1], A[1][0])} and {min(B[0][1], B[1][0])}" in text
