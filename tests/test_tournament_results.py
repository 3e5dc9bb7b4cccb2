"""Tournament results: tables, files, plots, exploitability, the command line, observation data."""

import csv
import json
import pathlib

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gopskit.arena.entries import bot_entry, student_entry
from gopskit.arena.exploitability import entry_exploitability
from gopskit.arena.results import ResultSet, describe_profile
from gopskit.arena.tables import _deal, _wire_data, observation_data
from gopskit.cli import main
from gopskit.errors import OptionError
from gopskit.games.goofspiel import Goofspiel

STUDENTS = pathlib.Path(__file__).parent / "data" / "students"


def game(seats, points, winners, prizes=None, bids=None, forfeits=()):
    record = None if prizes is None else {"game": "goofspiel", "options": {}, "prizes": prizes, "bids": bids}
    return {"seats": seats, "seed": 1, "points": points, "winners": winners, "forfeits": list(forfeits),
            "record": record}


@pytest.fixture
def small():
    """Three entries, hand-made games: a beats b twice, b and c tie, c forfeits against a."""
    games = [
        game(["a", "b"], [5, 1], [0], [3, 1, 2], [[3, 1], [1, 2], [2, 3]]),
        game(["b", "a"], [2, 4], [1], [1, 2, 3], [[1, 2], [2, 1], [3, 3]]),
        game(["b", "c"], [3, 3], [0, 1], [1, 2, 3], [[1, 3], [2, 1], [3, 2]]),
        game(["c", "a"], [0, 6], [1], [2, 1, 3], [], [{"seat": 0, "entry": "c", "reason": "timeout",
                                                      "detail": "took longer than 1 s", "turn": 1}]),
    ]
    entries = [{"name": n, "kind": "student"} for n in "abc"]
    return ResultSet("goofspiel", {"num_cards": 3}, 0, 1, entries, games)


def test_ranking_by_hand(small):
    rows = small.ranking()
    assert [r["name"] for r in rows] == ["a", "b", "c"]
    a, b, c = rows
    assert (a["games"], a["mean_points"], a["wins"], a["losses"]) == (3, 5.0, 3, 0)
    assert (b["mean_points"], b["wins"], b["draws"], b["losses"]) == (2.0, 0, 1, 2)
    assert (c["mean_points"], c["draws"], c["forfeits"]) == (1.5, 1, 1)
    assert a["opponents_beaten"] == 2 and b["opponents_beaten"] == 0
    assert a["exploitability"] is None


def test_head_to_head_by_hand(small):
    names, matrix = small.head_to_head()
    assert names == ["a", "b", "c"]
    assert matrix[0, 1] == pytest.approx(((5 - 1) + (4 - 2)) / 2)
    assert matrix[1, 2] == 0 and matrix[0, 2] == 6
    assert np.allclose(matrix, -matrix.T, equal_nan=True) and np.isnan(matrix[0, 0])


def test_forfeits_are_grouped(small):
    assert small.forfeits() == [{"entry": "c", "reason": "timeout", "count": 1, "example": "took longer than 1 s"}]


def test_bidding_profile_by_hand(small):
    profile = small.bidding_profile("a")
    # a's turns: (prize 3, bid 3), (1, 1), (2, 2) as seat 0; (1, 2), (2, 1), (3, 3) as seat 1
    assert profile["turns"] == 6
    assert profile["mean_bid"] == {1: 1.5, 2: 1.5, 3: 3.0}
    assert profile["equal"] == pytest.approx(4 / 6)
    assert small.bidding_profile("c")["turns"] == 3


@pytest.mark.parametrize("profile, words", [
    ({"turns": 0}, "no bids recorded"),
    ({"turns": 9, "equal": 0.95, "r": 1.0, "offset": 0.0, "near": 1.0, "typical": 0}, "prize card itself (95%"),
    ({"turns": 9, "equal": 0.1, "r": 0.9, "offset": 1.0, "near": 0.8, "typical": 1}, "typically 1 above it"),
    ({"turns": 9, "equal": 0.1, "r": 0.9, "offset": -2.5, "near": 0.2, "typical": -2}, "closely (r = 0.90), on average 2.5 below"),
    ({"turns": 9, "equal": 0.1, "r": 0.5, "offset": 0.0, "near": 0.3, "typical": 0}, "loosely"),
    ({"turns": 9, "equal": 0.0, "r": -0.7, "offset": 0.0, "near": 0.1, "typical": 0}, "against the prize"),
    ({"turns": 9, "equal": 0.1, "r": 0.05, "offset": 0.0, "near": 0.2, "typical": 0}, "hardly depend"),
    ({"turns": 9, "equal": 0.1, "r": None, "offset": 3.0, "near": 0.1, "typical": 3}, "same way"),
    ({"turns": 9, "equal": 0.5, "r": 0.95, "offset": -0.04, "near": 0.6, "typical": 0}, "closely (r = 0.95), on average equal to it"),
    ({"turns": 9, "equal": 0.1, "r": -0.001, "offset": 0.0, "near": 0.2, "typical": 0}, "(r = 0.00)"),
])
def test_describe_profile(profile, words):
    assert words in describe_profile(profile)


def test_an_entry_that_never_finished_a_turn_says_why(small):
    solo = ResultSet("goofspiel", {}, 0, 1, [{"name": "c"}, {"name": "a"}], [small.games[3]])
    assert solo.describe_play("c") == "never finished a turn: timeout (took longer than 1 s)"


def test_save_and_load_round_trip(small, tmp_path):
    small.exploitability = {"a": 1.5}
    small.save(tmp_path)
    again = ResultSet.load(tmp_path)
    assert again.to_dict() == small.to_dict()
    assert ResultSet.load(tmp_path / "results.json").games == small.games
    with (tmp_path / "games.csv").open() as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == 8 and rows[0]["entry"] == "a" and rows[0]["result"] == "win"
    assert rows[6] == {**rows[6], "entry": "c", "forfeit": "timeout", "points": "0", "result": "loss"}
    with (tmp_path / "ranking.csv").open() as handle:
        ranking = list(csv.DictReader(handle))
    assert [r["name"] for r in ranking] == ["a", "b", "c"] and ranking[0]["exploitability"] == "1.5"


def test_loading_rubbish_is_refused(tmp_path):
    (tmp_path / "results.json").write_text("[1, 2]")
    with pytest.raises(OptionError, match="not tournament results"):
        ResultSet.load(tmp_path)
    with pytest.raises(OptionError, match="cannot read"):
        ResultSet.load(tmp_path / "missing.json")


def test_ranking_text_lists_every_entry(small):
    text = small.ranking_text()
    assert text.splitlines()[2].split()[:2] == ["1", "a"] and "n/a" in text


def test_entries_are_labelled_for_people_never_two_alike():
    from gopskit.arena.results import entry_labels

    entries = [bot_entry("one-higher").info(), bot_entry("random").info(), {"name": "Random bot", "kind": "student"},
               {**bot_entry("random").info(), "name": "random (2)"}, {"name": "ada", "kind": "student", "origin": "notebook"}]
    shown = entry_labels(entries)
    assert shown == {"one-higher": "One-higher bot", "random": "Random bot (random)", "Random bot": "Random bot",
                     "random (2)": "Random bot (2)", "ada": "ada"}
    assert len(set(shown.values())) == len(entries)
    games = [game(["one-higher", "ada"], [4, 2], [0])]
    rs = ResultSet("goofspiel", {"num_cards": 3}, 0, 1, entries[:1] + entries[-1:], games)
    assert rs.labels() == {"one-higher": "One-higher bot", "ada": "ada"}
    assert rs.compare_text("one-higher", "ada", labels=rs.labels()).startswith("One-higher bot scores 2.00 more than ada")
    assert rs.compare_text("one-higher", "ada").startswith("one-higher scores")  # the names by default (lesson 5)


def test_ranking_text_fits_long_names_and_can_show_labels(small):
    long = ["a_strategy_with_a_long_name_v1", "a_strategy_with_a_long_name_v2"]
    rs = ResultSet("goofspiel", {"num_cards": 3}, 0, 1, [{"name": n, "kind": "student"} for n in long],
                   [game(long, [4, 2], [0])])
    rows = rs.ranking_text().splitlines()[2:4]
    assert [row.split()[1] for row in rows] == long  # cut at 22 characters, the two read the same
    text = small.ranking_text(labels={"a": "Alpha bot", "c": "Gamma bot"})
    assert text.splitlines()[2].split()[:3] == ["1", "Alpha", "bot"] and "Gamma bot: " in text
    assert small.ranking_text().splitlines()[2].split()[:2] == ["1", "a"]
    assert len(small.ranking_text().splitlines()[0]) == len(text.splitlines()[0])  # 22 characters hold both


# ---------------------------------------------------------------- plots ---
def test_plots_take_results_and_return_figures(small):
    from gopskit.viz.tournament import plot_bidding_profiles, plot_distributions, plot_head_to_head

    heat = plot_head_to_head(small)
    assert [t.get_text() for t in heat.axes[0].get_yticklabels()] == ["a", "b", "c"]
    texts = {t.get_text() for t in heat.axes[0].texts}
    assert {"+3.0", "-3.0", "+6.0"} <= texts
    boxes = plot_distributions(small)
    height = {t.get_text(): y for t, y in zip(boxes.axes[0].get_yticklabels(), boxes.axes[0].get_yticks())}
    assert height["a"] > height["b"] > height["c"]  # best on top
    lines = plot_bidding_profiles(small)
    assert {line.get_label() for line in lines.axes[0].get_lines()} >= {"a", "b", "c", "bid = prize"}
    labels = {"a": "Alpha bot", "b": "Beta", "c": "Gamma bot"}
    heat = plot_head_to_head(small, labels=labels)
    assert [t.get_text() for t in heat.axes[0].get_yticklabels()] == ["Alpha bot", "Beta", "Gamma bot"]
    boxes = plot_distributions(small, labels=labels).axes[0]
    assert sorted(t.get_text() for t in boxes.get_yticklabels()) == ["Alpha bot", "Beta", "Gamma bot"]
    lines = plot_bidding_profiles(small, labels=labels)
    assert {line.get_label() for line in lines.axes[0].get_lines()} >= {"Alpha bot", "Beta", "Gamma bot"}


# -------------------------------------------------------- exploitability ---
def test_exploitability_of_bots_and_files_at_three_cards():
    rules = Goofspiel(num_cards=3)
    entries = [bot_entry("one-higher"), student_entry(STUDENTS / "one_higher.py"),
               student_entry(STUDENTS / "remembers.py"), student_entry(STUDENTS / "raises.py")]
    values, notes = entry_exploitability(rules, entries)
    assert values["one_higher"] == pytest.approx(values["one-higher"]) == pytest.approx(2.0)
    assert notes["one_higher"] == "exact"
    assert values["remembers"] is None and "class" in notes["remembers"]
    assert values["raises"] is None and "forfeits" in notes["raises"]


def test_a_random_file_is_estimated_by_sampling():
    values, notes = entry_exploitability(Goofspiel(num_cards=3), [student_entry(STUDENTS / "lucky.py"),
                                                                  bot_entry("random")])
    assert "estimated" in notes["lucky"]
    assert values["lucky"] == pytest.approx(values["random"], abs=0.4)


@pytest.mark.parametrize("rules, words", [
    (Goofspiel(num_cards=7), "computed up to 6 cards for bots that bid at random; this tournament plays 7"),
    (Goofspiel(num_cards=4, hidden_bids=True), "hidden"),
    (Goofspiel(num_cards=4, players=3), "two-player"),
])
def test_exploitability_is_na_where_it_cannot_be_computed(rules, words):
    values, notes = entry_exploitability(rules, [bot_entry("random")])
    assert values == {"random": None} and words in notes["random"]


def test_the_deck_limit_for_exploitability_can_be_raised():
    values, notes = entry_exploitability(Goofspiel(num_cards=6), [bot_entry("match-prize")], max_cards=6)
    assert values["match-prize"] == pytest.approx(9.0) and notes["match-prize"] == "exact"


# ------------------------------------------------------ the command line ---
def test_the_command_runs_a_class_and_saves_everything(tmp_path, capsys):
    folder = tmp_path / "class"
    folder.mkdir()
    for name in ("copycat", "returns_99"):
        (folder / f"{name}.py").write_text((STUDENTS / f"{name}.py").read_text())
    out = tmp_path / "out"
    code = main(["tournament", str(folder), "--bots", "random", "--games", "3", "--cards", "3", "--out", str(out),
                 "--quiet", "--time-limit", "0.5", "--plots"])
    printed = capsys.readouterr().out
    assert code == 0
    assert "FAIL returns_99: turn 1" in printed and "returns_99: 12 x illegal" in printed
    assert "copycat: bids the prize card itself" in printed and "\n  Random bot: bids " in printed
    assert "Bots by the names --bots and the saved files use: Random bot = random" in printed
    assert {p.name for p in out.iterdir()} >= {"results.json", "games.csv", "ranking.csv", "tables", "plots"}
    from PIL import Image

    from gopskit.viz.tournament import SCREEN_DPI

    for png in ("head_to_head", "distributions", "bidding"):  # saved as sharp as the tournament app shows them
        with Image.open(out / "plots" / f"{png}.png") as image:
            assert round(image.info["dpi"][0]) == SCREEN_DPI
    assert len(json.loads((out / "results.json").read_text())["games"]) == 3 * 2 * 3  # pairs, seats, games
    assert main(["tournament", str(folder), "--out", str(out), "--cards", "3"]) == 2
    assert "already holds a tournament" in capsys.readouterr().err
    assert main(["tournament", str(folder), "--out", str(out), "--cards", "3", "--games", "3", "--bots", "random",
                 "--resume", "--quiet", "--time-limit", "0.5"]) == 0


def test_the_command_checks_submissions(tmp_path, capsys):
    assert main(["tournament", str(STUDENTS), "--check", "--cards", "3", "--time-limit", "0.3"]) == 1
    printed = capsys.readouterr().out
    assert "OK   copycat" in printed and "FAIL syntax_error" in printed and "line 4" in printed


BOTS = ["tournament", "--bots", "random,match-prize"]


@pytest.mark.parametrize("args, words", [
    (["tournament"], "nothing to play"),
    (["tournament", "--bots", "random,nope"],
     "unknown bot 'nope' in --bots; the bots that play Goofspiel with these options: random, match-prize"),
    ([*BOTS, "--cards", "99"], "--cards must be a whole number from 1 to 13, not 99"),
    ([*BOTS, "--players", "9"], "--players must be a whole number from 2 to 7, not 9"),
    ([*BOTS, "--option", "target=-3"], "--option target must be a whole number from 1 to"),
    ([*BOTS, "--option", "ties"], "--option takes NAME=VALUE, such as --option target=92, not 'ties'"),
    ([*BOTS, "--option", "=3"], "--option takes NAME=VALUE"),
    ([*BOTS, "--option", "colour=red"], "Goofspiel takes no --option colour; its options: --cards, --players, --ties"),
    (["tournament", "--game", "raj", "--bots", "random,raj-proportional", "--players", "2", "--cards", "5"],
     "Raj takes no --cards; its options: --players, --prize-order, and --option NAME=VALUE for carry_decides"),
    (["tournament", "--bots", "random,gops3-proportional"],
     "--bots: 'gops3-proportional' does not play Goofspiel with these options; the bots that do: random"),
    (["tournament", "examples/students", "--game", "raj"],
     "the standard bots include 'match-prize', which does not play Raj; choose bots with --bots"),
    ([*BOTS, "--players", "3"], "Goofspiel with these options seats 3 players, so a tournament needs at least 3 entries, not 2"),
    ([*BOTS, "--games", "0"], "--games takes a whole number of games per seating, 1 or more, not 0"),
    ([*BOTS, "--processes", "0"], "--processes takes a whole number of helper processes, 1 or more, not 0"),
    ([*BOTS, "--max-timeouts", "-1"], "--max-timeouts takes a whole number of timed-out games, 0 or more"),
    ([*BOTS, "--time-limit", "0"], "--time-limit takes seconds per move, more than 0"),
    ([*BOTS, "--memory-limit", "10"], "--memory-limit takes megabytes per strategy, 64 or more (0: no limit), not 10"),
    (["tournament", "no/such/folder"], "not a folder"),
])
def test_bad_options_exit_2_with_one_line(args, words, capsys, tmp_path):
    assert main([*args, "--out", str(tmp_path / "out")]) == 2  # a refusal that slipped would play into tmp_path
    err = capsys.readouterr().err
    assert words in err and len(err.strip().splitlines()) == 1


# ------------------------------------------------------ observation data ---
VARIANTS = [{}, {"ties": "carry"}, {"hidden_bids": True}, {"blind": True}, {"face_down_trophies": True},
            {"players": 3, "ties": "unique"}, {"defeat_the_dealer": True, "players": 3}, {"target": 12},
            {"ace_high": True, "prize_order": "descending"}, {"ties": "rebid"}]


@settings(max_examples=25, deadline=None)
@given(variant=st.sampled_from(VARIANTS), seed=st.integers(0, 2**16), turns=st.integers(0, 12))
def test_observation_data_equals_to_dict_and_the_wire_shows_the_same(variant, seed, turns):
    rules = Goofspiel(num_cards=5, **variant)
    table = _deal(rules, [bot_entry("random")] * rules.num_players, seed, "k")
    state, rng = table.state, np.random.default_rng(seed)
    for _ in range(turns):
        if state.is_terminal():
            break
        for seat in state.to_move():
            obs = state.observation(seat)
            assert observation_data(obs) == obs.to_dict()
            wire = json.loads(json.dumps(_wire_data(table, seat)))  # what the student's to_dict() returns
            assert wire == obs.to_dict()
        state.apply({p: state.legal_moves(p)[int(rng.integers(len(state.legal_moves(p))))] for p in state.to_move()})


# --------------------------------------------------------------- the doc ---
def test_the_how_to_page_runs(monkeypatch):
    import doctest

    root = pathlib.Path(__file__).parents[1]
    monkeypatch.chdir(root)
    flags = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
    assert doctest.testfile(str(root / "docs" / "tournaments.md"), module_relative=False, optionflags=flags).failed == 0


# ------------------------------------------------------------ properties ---
@st.composite
def result_sets(draw):
    names = ["a", "b", "c", "d"][: draw(st.integers(2, 4))]
    games = []
    for _ in range(draw(st.integers(1, 12))):
        seats = draw(st.permutations(names))[:2]
        points = [draw(st.integers(0, 15)), draw(st.integers(0, 15))]
        forfeit = draw(st.sampled_from([None, 0, 1]))
        if forfeit is not None:
            points = [15, 15]
            points[forfeit] = 0
        winners = [p for p in (0, 1) if points[p] == max(points)]
        forfeits = [] if forfeit is None else [{"seat": forfeit, "entry": seats[forfeit], "reason": "exception",
                                                "detail": "x", "turn": 1}]
        games.append(game(list(seats), points, winners, forfeits=forfeits))
    return ResultSet("goofspiel", {"num_cards": 5}, 0, 1, [{"name": n} for n in names], games)


@settings(max_examples=60, deadline=None)
@given(results=result_sets())
def test_result_tables_agree_with_each_other(results):
    rows = {r["name"]: r for r in results.ranking()}
    names, matrix = results.head_to_head()
    assert np.allclose(matrix, -matrix.T, equal_nan=True)
    assert sum(r["games"] for r in rows.values()) == 2 * len(results.games)
    for name, row in rows.items():
        assert row["wins"] + row["draws"] + row["losses"] == row["games"]
        assert row["forfeits"] <= row["losses"]
        assert row["opponents_beaten"] == int(np.nansum(matrix[names.index(name)] > 0))
    means = [r["mean_points"] for r in results.ranking() if r["games"]]
    assert all(r["mean_points"] is None for r in results.ranking() if not r["games"])
    assert means == sorted(means, reverse=True)
    assert ResultSet.from_dict(json.loads(json.dumps(results.to_dict()))).to_dict() == results.to_dict()


# --------------------------------------------- confidence and the rule ---
def test_mean_interval_agrees_with_the_t_formula():
    from scipy import stats

    from gopskit.arena.results import mean_interval

    values = np.array([4.0, 9.0, 1.0, 7.0, 3.0, 6.0])
    half = stats.t.ppf(0.975, len(values) - 1) * values.std(ddof=1) / np.sqrt(len(values))
    row = mean_interval(values)
    assert (row["low"], row["high"]) == pytest.approx((values.mean() - half, values.mean() + half))
    assert mean_interval(values, 0.5)["high"] < row["high"]
    assert mean_interval([2, 2, 2])["low"] == mean_interval([2, 2, 2])["high"] == 2.0
    assert mean_interval([])["mean"] is None and mean_interval([5])["low"] is None
    with pytest.raises(OptionError, match="between 0 and 1"):
        mean_interval(values, 95)


@settings(max_examples=60, deadline=None)
@given(values=st.lists(st.integers(-40, 40), min_size=2, max_size=30))
def test_the_interval_holds_the_mean_and_narrows_with_more_deals(values):
    from gopskit.arena.results import mean_interval

    row = mean_interval(values)
    assert row["low"] <= row["mean"] <= row["high"]
    twice = mean_interval(values * 2)
    assert twice["high"] - twice["low"] <= row["high"] - row["low"] + 1e-9


def test_intervals_count_deals_not_games(small):
    """The two a-b games share a deal (one seed, both seats): one unit, the mean of 5 and 4."""
    deals = small.deal_points()
    assert sorted(deals["a"]) == [4.5, 6.0] and sorted(deals["b"]) == [1.5, 3.0]
    rows = {r["name"]: r for r in small.ranking()}
    assert rows["a"]["deals"] == 2 and rows["a"]["ci_low"] is None  # too few deals for the table's interval
    from gopskit.arena.results import mean_interval

    raw = mean_interval(deals["a"])  # Student's t over the 2 deals, which the table does not show
    assert raw["n"] == 2 and raw["low"] < 5.25 < raw["high"]


def test_in_a_played_tournament_every_deal_is_complete_and_the_interval_holds_the_mean():
    from gopskit.arena.tournament import Tournament

    results = Tournament(Goofspiel(num_cards=4), ["random", "match-prize", "one-higher"], games=6, seed=3,
                         exploitability=False).run(progress=False)
    deals = results.deal_points()
    for row in results.ranking():
        assert row["deals"] == 2 * 6  # two tables of 6 deals each, both seats of every deal
        assert row["mean_points"] == pytest.approx(deals[row["name"]].mean())
        assert row["ci_low"] <= row["mean_points"] <= row["ci_high"]


def test_compare_is_paired_by_deal_and_says_when_it_is_clear():
    games = [game(s, p, [0], None) | {"seed": k} for k in range(6)
             for s, p in ((["a", "b"], [5 + k % 2, 1]), (["b", "a"], [2, 4]))]
    rs = ResultSet("goofspiel", {}, 0, 6, [{"name": "a"}, {"name": "b"}], games)
    row = rs.compare("a", "b")
    assert row["n"] == 6 and row["mean"] == pytest.approx(3.25) and row["clear"]
    assert rs.compare("b", "a")["mean"] == pytest.approx(-3.25)
    noisy = ResultSet("goofspiel", {}, 0, 1, [{"name": "a"}, {"name": "b"}],
                      [game(["a", "b"], [9, 1], [0]) | {"seed": 1}, game(["a", "b"], [1, 8], [1]) | {"seed": 2}])
    assert not noisy.compare("a", "b")["clear"]
    with pytest.raises(OptionError, match="no entry called 'z'"):
        rs.compare("a", "z")


def test_the_ranking_rule_is_saved_and_printed(small, tmp_path):
    from gopskit.arena.results import RANKING_RULE

    small.save(tmp_path)
    data = json.loads((tmp_path / "results.json").read_text())
    assert data["ranking_rule"] == RANKING_RULE and "mean points" in RANKING_RULE
    assert data["ranking"][0]["ci_low"] is None and data["ranking"][0]["deals"] == 2  # too few deals: null
    text = small.ranking_text()
    assert "95% interval" in text and "Ranked by mean points per game" in text
    assert "too few deals" in text.splitlines()[2] and "an interval needs at least 5 deals" in text
    more = ResultSet("goofspiel", {"num_cards": 3}, 0, 1, [{"name": "a"}, {"name": "b"}],
                     [game(["a", "b"], [4 + k % 2, 2 - k % 2], [0]) | {"seed": k} for k in range(6)])
    more.save(tmp_path)
    assert json.loads((tmp_path / "results.json").read_text())["ranking"][0]["ci_low"] is not None
    assert " to " in more.ranking_text().splitlines()[2]


def test_each_kind_of_entry_is_solved_as_far_as_it_can_be():
    from gopskit.arena.exploitability import card_limit

    assert card_limit(bot_entry("match-prize"))[0] == 7 and card_limit(bot_entry("random"))[0] == 6
    assert card_limit(bot_entry("adaptive"))[0] == 5 and card_limit(student_entry(STUDENTS / "copycat.py"))[0] == 4
    values, notes = entry_exploitability(Goofspiel(num_cards=6), [bot_entry("match-prize"), bot_entry("adaptive"),
                                                                  student_entry(STUDENTS / "copycat.py")])
    assert values["match-prize"] == pytest.approx(9.0) and values["adaptive"] is None and values["copycat"] is None
    assert "up to 5 cards for bots that remember the game" in notes["adaptive"]
    assert "up to 4 cards for strategy files" in notes["copycat"]


def test_an_equilibrium_reads_exactly_zero_and_missing_values_say_why():
    from gopskit.arena.tournament import Tournament

    results = Tournament(Goofspiel(num_cards=4), ["equilibrium", "match-prize", "adaptive"], games=2, seed=1,
                         exploitability=True).run(progress=False)
    assert results.exploitability["equilibrium"] == 0.0
    results.exploitability["adaptive"], results.exploitability_notes["adaptive"] = None, "a reason to read out"
    text = results.ranking_text()
    assert "e-" not in text and "adaptive: a reason to read out" in text
    assert results.missing_exploitability() == [("a reason to read out", ["adaptive"])]


def test_a_notebook_function_is_listed_as_notebook(tmp_path):
    from gopskit.arena.entries import entry_from_function

    def mine(observation):
        return observation.prize

    entry = entry_from_function(mine, folder=tmp_path)
    assert entry.kind == "student" and entry.label == "notebook" and entry.info()["origin"] == "notebook"
    rs = ResultSet("goofspiel", {}, 0, 1, [entry.info(), bot_entry("random").info()],
                   [game(["mine", "random"], [3, 1], [0])])
    assert {r["name"]: r["kind"] for r in rs.ranking()} == {"mine": "notebook", "random": "bot"}


def test_a_folder_alone_meets_the_standard_bots_as_the_readme_says(tmp_path):
    import subprocess
    import sys

    from gopskit.arena.cli import DEFAULT_BOTS, bot_names

    readme = (pathlib.Path(__file__).parents[1] / "README.md").read_text()
    line = next(x for x in readme.splitlines() if "gopskit tournament examples/students" in x)
    assert "standard bots" in line
    assert bot_names(None, "folder") == list(DEFAULT_BOTS) and bot_names("none", "folder") == []
    assert bot_names(None, None) == [] and bot_names("random, one-higher", None) == ["random", "one-higher"]
    folder = tmp_path / "class"
    folder.mkdir()
    examples = pathlib.Path(__file__).parents[1] / "examples" / "students"
    for name in ("copy_the_prize", "one_above"):
        (folder / f"{name}.py").write_text((examples / f"{name}.py").read_text())
    run = subprocess.run([sys.executable, "-m", "gopskit.cli", "tournament", str(folder), "--games", "1", "--cards", "3",
                          "--quiet", "--out", str(tmp_path / "out"), "--seed", "4"],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    ranked = json.loads((tmp_path / "out" / "results.json").read_text())["ranking"]
    assert {r["name"] for r in ranked} == {"copy_the_prize", "one_above", *DEFAULT_BOTS}
    assert "Ranked by mean points per game" in run.stdout and "95% interval" in run.stdout
    assert "Each entry against the next one down" in run.stdout
    assert all(r["exploitability"] is not None for r in ranked)  # 3 cards: every entry is solved
    # printed as the boards name bots, with one line for the names --bots takes; the files keep the names
    table = run.stdout.split("  #  entry")[1].split("Ranked by mean points")[0]
    assert {"Random bot", "Match-the-prize bot", "One-higher bot", "Highest-card bot"} <= {
        line[5:].split("  ")[0] for line in table.splitlines()[2:] if line.strip()}  # after the head and its rule
    assert not any(name in table for name in DEFAULT_BOTS)
    assert "Match-the-prize bot = match-prize, One-higher bot = one-higher, Highest-card bot = greedy-high" in " ".join(
        run.stdout.split())
    assert "One-higher bot" in run.stdout.split("Each entry against the next one down")[1]
    for file in ("ranking.csv", "games.csv"):
        text = (tmp_path / "out" / file).read_text()
        assert "one-higher" in text and "One-higher bot" not in text


def test_plots_write_numbers_plainly_and_draw_the_intervals():
    from gopskit.viz.tournament import head_to_head_figure, plot_distributions

    heat = head_to_head_figure(["a", "b"], [[np.nan, -0.01], [0.01, np.nan]])
    assert sorted(t.get_text() for t in heat.axes[0].texts) == ["0.0", "0.0"]
    games = [game(s, p, [0]) | {"seed": k} for k in range(5) for s, p in ((["a", "b"], [4 + k, 2]), (["b", "a"], [1, 5]))]
    rs = ResultSet("goofspiel", {}, 0, 5, [{"name": "a"}, {"name": "b"}], games)
    rows = {r["name"]: r for r in rs.ranking()}
    ax = plot_distributions(rs).axes[0]
    bars = [line for line in ax.get_lines() if len(line.get_xdata()) == 2 and line.get_ydata()[0] == line.get_ydata()[1]
            and line.get_linewidth() == 3]
    assert sorted(tuple(line.get_xdata()) for line in bars) == sorted(
        (rows[n]["ci_low"], rows[n]["ci_high"]) for n in "ab")


def test_compare_text_says_when_a_lead_is_only_noise():
    games = [game(["eq", "oh"], [5 + (k % 3) - 1, 5], [0]) | {"seed": k} for k in range(20)]
    rs = ResultSet("goofspiel", {}, 0, 20, [{"name": "eq"}, {"name": "oh"}], games)
    text = rs.compare_text("oh", "eq")
    assert text.startswith("oh scores 0.05 more than eq per game (95% interval -0.34 to 0.44")
    assert "not clearly apart" in text and "20 deals" in text
    same = ResultSet("goofspiel", {}, 0, 3, [{"name": "a"}, {"name": "b"}],
                     [game(s, [3, 3], [0, 1]) | {"seed": k} for k in range(3) for s in (["a", "b"], ["b", "a"])])
    assert same.compare_text("a", "b") == ("a and b scored the same on every deal (3 deals): more games won't "
                                           "separate identical play.")  # not '0.00 to 0.00 ... more games are needed'
    lone = ResultSet("goofspiel", {}, 0, 1, [{"name": "a"}, {"name": "b"}, {"name": "c"}],
                     [game(["a", "b"], [3, 1], [0])])
    assert lone.compare_text("a", "c") == "a and c never met."
    assert "too few to tell" in lone.compare_text("a", "b")


def test_neighbours_compare_each_entry_with_the_next_one_down(small, capsys):
    from gopskit.widgets.tournament import ranking_html

    sentences = small.neighbours()
    assert sentences == [small.compare_text("a", "b"), small.compare_text("b", "c")]
    assert sentences[0].startswith("a scores 3.00 more than b per game")
    assert "Each entry against the next one down" in ranking_html(small)
    assert small.neighbours(limit=1) == sentences[:1]
