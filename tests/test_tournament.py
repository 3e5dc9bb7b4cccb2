"""Tournaments: schedule, forfeits, hostile entries, reproducibility, resume, results."""

import json
import pathlib

import numpy as np
import pytest

from gopskit.arena import play_game
from gopskit.arena import runner as runner_module
from gopskit.arena.entries import bot_entry, entries_from_folder, student_entry
from gopskit.arena.results import ResultSet
from gopskit.arena.sandbox import Limits
from gopskit.arena.tables import forfeit_points, judge_move, play_games
from gopskit.arena.tournament import Tournament
from gopskit.errors import OptionError
from gopskit.games import replay_record
from gopskit.games.goofspiel import Goofspiel

STUDENTS = pathlib.Path(__file__).parent / "data" / "students"
GOOD = ["copycat", "one_higher", "remembers", "lucky"]
FAST = Limits(time_limit=0.3, load_time_limit=5, max_timeouts=2)
EXPECTED_FORFEIT = {
    "raises": "exception", "sleeps_forever": "timeout", "returns_99": "illegal", "returns_string": "malformed",
    "allocates_gigabytes": "memory", "prints_forever": "timeout", "reads_other_entry": "exception",
    "exits_python": "crash", "returns_none": "malformed", "syntax_error": "load", "wrong_signature": "load",
}


def good_entries():
    return [student_entry(STUDENTS / f"{name}.py") for name in GOOD]


def strip(results):
    """Results as data, without what depends on the clock (nothing, for good entries)."""
    return json.loads(json.dumps(results.to_dict()))


# ------------------------------------------------------------ the judge ---
@pytest.mark.parametrize("move, legal, error, words", [
    (3, [1, 3], None, ""),
    (np.int64(3), [1, 3], None, ""),
    (14, [2, 5, 9], "illegal", "bid 14, which is not a card in the hand (cards left: 2, 5, 9)"),
    (True, [1, 2], "malformed", "returned True"),
    ("5", [2, 5], "malformed", "returned '5', which is not a card"),
    (None, [2, 5], "malformed", "returned None"),
    ("lead-x", ["lead-h", "lead-s"], "illegal", "played 'lead-x', which is not allowed now"),
])
def test_judge_move(move, legal, error, words):
    reply = judge_move(move, legal)
    assert reply.error == error
    assert words in reply.detail
    if error is None:
        assert reply.move == move and type(reply.move) is int


# ------------------------------------------------------ forfeit scoring ---
def test_a_forfeit_gives_the_whole_hand_to_the_others():
    rules = Goofspiel(num_cards=13)
    assert forfeit_points(rules, rules.new_game(1), [0]) == [0, 91]
    three = Goofspiel(num_cards=5, players=3)
    assert forfeit_points(three, three.new_game(1), [1]) == [15, 0, 15]
    assert forfeit_points(three, three.new_game(1), [0, 2]) == [0, 15, 0]


def test_in_match_play_the_others_get_their_total_plus_a_whole_hand():
    rules = Goofspiel(num_cards=3, target=10, prize_order="ascending")
    state = rules.new_game(0)
    for bids in ([1, 2], [2, 1], [3, 3]):  # player 2 wins the 1, player 1 the 2, the 3 is discarded
        state.apply(bids)
    assert state.scores() == [2, 1]
    assert forfeit_points(rules, state, [1]) == [2 + 6, 0]


def test_a_forfeited_game_keeps_its_partial_record_and_reason():
    rules = Goofspiel(num_cards=5, prize_order="ascending")
    workers = _workers([STUDENTS / "returns_99.py"])
    try:
        game = play_games(rules, [student_entry(STUDENTS / "returns_99.py"), bot_entry("random")], [4], workers)[0]
    finally:
        for worker in workers.values():
            worker.close()
    assert game["points"] == [0, 15] and game["winners"] == [1]
    assert game["forfeits"] == [{"seat": 0, "entry": "returns_99", "reason": "illegal", "turn": 1,
                                 "detail": "bid 99, which is not a card in the hand (cards left: 1, 2, 3, 4, 5)"}]
    assert game["record"] == {"game": "goofspiel", "options": rules.options(), "prizes": [1], "bids": []}


def test_bots_move_only_once_the_students_have_answered(monkeypatch):
    """A student's time limit is wall-clock: the kit's own bots never think while a student's move is timed."""
    from gopskit.agents import register
    from gopskit.agents.base import Agent
    from gopskit.arena import tables

    events = []
    real_collect = tables.collect_all

    def collect_all(workers):
        answers = real_collect(workers)
        events.append("students answered")
        return answers

    @register
    class OrderProbe(Agent):
        name = "test-order-probe"
        classifier = {"stochastic": False, "memory": "none", "uses_opponent_bids": False, "games": ("goofspiel",)}

        def act(self, observation):
            events.append("bot moved")
            return min(observation.legal_moves)

    monkeypatch.setattr(tables, "collect_all", collect_all)
    rules = Goofspiel(num_cards=4)
    workers = _workers([STUDENTS / "copycat.py"])
    try:
        games = play_games(rules, [student_entry(STUDENTS / "copycat.py"), bot_entry("test-order-probe")], [1, 2], workers)
    finally:
        for worker in workers.values():
            worker.close()
    assert all(not game["forfeits"] for game in games)
    assert events == ["students answered", "bot moved", "bot moved"] * 4  # each turn: both games' students, then bots


def _workers(paths):
    from gopskit.arena.sandbox import SandboxWorker

    return {pathlib.Path(p).stem: SandboxWorker(p, FAST) for p in paths}


def test_bot_games_at_a_table_repeat_play_game_exactly():
    rules = Goofspiel(num_cards=6, ties="carry")
    games = play_games(rules, [bot_entry("adaptive"), bot_entry("random")], [11, 12])
    for game in games:
        state = play_game(rules, ["adaptive", "random"], seed=game["seed"])
        assert game["record"] == state.record() and game["points"] == state.scores()


# ------------------------------------------------------------- schedule ---
def test_every_pair_plays_both_seats_with_the_same_deals():
    t = Tournament(Goofspiel(num_cards=4), ["random", "match-prize", "one-higher"], games=3, seed=2)
    tables = t.tables()
    assert [tb.names for tb in tables] == [("random", "match-prize"), ("random", "one-higher"),
                                           ("match-prize", "one-higher")]
    assert tables[0].seatings == (("random", "match-prize"), ("match-prize", "random"))
    assert len(set(tables[0].seeds)) == 3


def test_a_table_keeps_its_seeds_when_other_entries_join():
    small = Tournament(Goofspiel(num_cards=4), ["random", "match-prize"], games=3, seed=2)
    big = Tournament(Goofspiel(num_cards=4), ["greedy-high", "random", "match-prize"], games=3, seed=2)
    seeds = {tb.names: tb.seeds for tb in big.tables()}
    assert seeds[("random", "match-prize")] == small.tables()[0].seeds


def test_three_player_tables_rotate_the_seats():
    rules = Goofspiel(num_cards=4, players=3)
    t = Tournament(rules, ["random", "match-prize", "one-higher", STUDENTS / "copycat.py"], games=2, seed=1,
                   limits=FAST)
    assert len(t.tables()) == 4 and all(len(tb.seatings) == 3 for tb in t.tables())
    results = t.run(progress=False)
    assert len(results.games) == 4 * 3 * 2
    assert all(len(g["seats"]) == 3 for g in results.games) and not any(g["forfeits"] for g in results.games)
    assert {row["games"] for row in results.ranking()} == {18}


def test_bad_tournaments_are_refused():
    with pytest.raises(OptionError, match="at least"):
        Tournament(Goofspiel(num_cards=4, players=3), ["random", "match-prize"])
    with pytest.raises(OptionError, match="games must be"):
        Tournament(Goofspiel(num_cards=4), ["random", "match-prize"], games=0)
    with pytest.raises(OptionError, match="unknown bot"):
        Tournament(Goofspiel(num_cards=4), ["random", "no-such-bot"])
    with pytest.raises(OptionError, match="seatings"):
        Tournament(Goofspiel(num_cards=4), ["random", "match-prize"], seatings="shuffle")


# ------------------------------------------------------------ bots only ---
def test_bots_only_tables_take_the_batch_path_and_repeat():
    rules = Goofspiel(num_cards=5)
    first = Tournament(rules, ["random", "match-prize"], games=200, seed=4, exploitability=False).run(progress=False)
    again = Tournament(rules, ["random", "match-prize"], games=200, seed=4, exploitability=False).run(progress=False)
    assert all(g["record"] is None for g in first.games) and len(first.games) == 400
    assert strip(first) == strip(again)
    ranking = first.ranking()
    assert ranking[0]["name"] == "match-prize" and ranking[0]["mean_points"] > ranking[1]["mean_points"]


def test_bot_records_keep_every_record_and_they_replay():
    results = Tournament(Goofspiel(num_cards=4), ["random", "greedy-high"], games=5, seed=1, bot_records=True,
                         exploitability=False).run(progress=False)
    for game in results.games:
        assert replay_record(game["record"]).scores() == game["points"]


# ------------------------------------------------------ hostile entries ---
@pytest.fixture(scope="module")
def hostile_run():
    entries = entries_from_folder(STUDENTS) + [bot_entry("random")]
    t = Tournament(Goofspiel(num_cards=5), entries, games=2, seed=7, limits=FAST, exploitability=False, processes=1)
    return t.run(progress=False)


def test_the_hostile_class_finishes_with_every_game_played(hostile_run):
    names = hostile_run.names
    assert set(EXPECTED_FORFEIT) | set(GOOD) | {"random"} == set(names)
    n = len(names)
    assert len(hostile_run.games) == n * (n - 1) // 2 * 2 * 2


@pytest.mark.parametrize("name", sorted(EXPECTED_FORFEIT))
def test_each_hostile_entry_forfeits_every_game_with_its_reason(hostile_run, name):
    played = [g for g in hostile_run.games if name in g["seats"]]
    for game in played:
        mine = [f for f in game["forfeits"] if f["entry"] == name]
        assert mine, (name, game)
        assert mine[0]["reason"] in (EXPECTED_FORFEIT[name], "withdrawn")
        seat = game["seats"].index(name)
        assert game["points"][seat] == 0 and seat not in game["winners"]
    reasons = {f["reason"] for f in hostile_run.forfeits() if f["entry"] == name}
    assert EXPECTED_FORFEIT[name] in reasons
    check = hostile_run.entry(name)["check"]
    assert check["ok"] is False and check["message"]


def test_the_hostile_entries_leave_every_other_result_intact(hostile_run):
    clean = Tournament(Goofspiel(num_cards=5), good_entries() + [bot_entry("random")], games=2, seed=7,
                       limits=FAST, exploitability=False).run(progress=False)
    keep = set(GOOD) | {"random"}

    def among_good(results):
        return sorted((json.dumps(g, sort_keys=True) for g in results.games if set(g["seats"]) <= keep))

    hostile_games = [{k: v for k, v in g.items() if k != "table"} for g in hostile_run.games]
    clean_games = [{k: v for k, v in g.items() if k != "table"} for g in clean.games]
    assert among_good(ResultSet(**{**vars(hostile_run), "games": hostile_games})) == \
        among_good(ResultSet(**{**vars(clean), "games": clean_games}))
    assert not any(g["forfeits"] for g in clean.games)


def test_printed_output_is_kept_per_entry_and_capped(hostile_run):
    printed = hostile_run.entry("prints_forever")["output"]
    assert printed.startswith("look at me!") and len(printed) <= FAST.output_limit
    assert hostile_run.entry("copycat")["output"] == ""


# ------------------------------------------------- reproducible, resume ---
def test_a_class_tournament_repeats_from_its_seed_with_any_number_of_processes():
    def run(seed, processes):
        return Tournament(Goofspiel(num_cards=4), good_entries(), games=3, seed=seed, limits=FAST,
                          exploitability=False, concurrent_tables=1, processes=processes).run(progress=False)

    first = run(5, 1)
    assert strip(first) == strip(run(5, 1)) == strip(run(5, 2))
    assert strip(first)["games"] != strip(run(6, 1))["games"]


def test_an_interrupted_run_resumes_without_replaying_finished_tables(tmp_path, monkeypatch):
    def tournament():
        return Tournament(Goofspiel(num_cards=4), good_entries() + [bot_entry("adaptive")], games=2, seed=3,
                          limits=FAST, concurrent_tables=2, exploitability=False, processes=1)

    def stop_after_three(done, total):
        if done == 3:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        tournament().run(out=tmp_path, progress=False, on_table=stop_after_three)
    saved = sorted(p.name for p in (tmp_path / "tables").glob("*.json"))
    assert len(saved) == 3 and not (tmp_path / "results.json").exists()
    partial = ResultSet.load(tmp_path)
    assert len(partial.games) == 3 * 2 * 2

    played = []
    real = runner_module.play_tables

    def spy(rules, jobs, workers, prefix="", budget=None):
        if prefix != "check-":  # the submission checks play through play_tables too
            played.append(len(jobs))
        return real(rules, jobs, workers, prefix, budget)

    monkeypatch.setattr(runner_module, "play_tables", spy)
    resumed = tournament().run(out=tmp_path, resume=True, progress=False)
    assert sum(played) == (10 - 3) * 2  # 10 tables of 2 seatings; 3 were saved
    fresh = tournament().run(out=tmp_path / "fresh", progress=False)
    assert strip(resumed)["games"] == strip(fresh)["games"]
    assert ResultSet.load(tmp_path).to_dict() == resumed.to_dict()


def test_resuming_a_different_tournament_is_refused(tmp_path):
    Tournament(Goofspiel(num_cards=3), ["random", "match-prize"], games=1, seed=1,
               exploitability=False).run(out=tmp_path, progress=False)
    with pytest.raises(OptionError, match="resume"):
        Tournament(Goofspiel(num_cards=3), ["random", "match-prize"], games=1, seed=1).run(out=tmp_path)
    with pytest.raises(OptionError, match="seed differ"):
        Tournament(Goofspiel(num_cards=3), ["random", "match-prize"], games=1, seed=2).run(out=tmp_path, resume=True)


def test_the_history_stays_whole_across_batches_and_restarts(tmp_path):
    """Only new turns are sent to a sandbox; a restarted one gets the whole history again."""
    from gopskit.arena.sandbox import SandboxWorker
    from gopskit.arena.tables import _deal, _wire_data

    path = tmp_path / "bookkeeper.py"
    path.write_text(
        "def strategy(observation):\n"
        "    me = observation.player\n"
        "    spent = {turn.bids[me] for turn in observation.history}\n"
        "    assert len(observation.history) == observation.turn\n"
        "    assert spent == set(range(1, observation.num_cards + 1)) - set(observation.hand)\n"
        "    return observation.hand[len(observation.hand) // 2]\n")
    rules = Goofspiel(num_cards=6)
    game = _deal(rules, [student_entry(path), bot_entry("random")], 5, "g")
    sent = []
    with SandboxWorker(path, FAST) as worker:
        while not game.state.is_terminal():
            if game.state.turn == 3:
                worker._stop()  # as if the process had died: the next batch starts a fresh one
            assert worker.start()
            data = _wire_data(game, 0, worker.generation)
            sent.append((data["history_from"], len(data["history"])))
            reply = worker.play([("g", 1, data)])["g"]
            assert reply.ok, reply
            game.state.apply([reply.move, game.state.legal_moves(1)[0]])
    assert sent == [(0, 0), (0, 1), (1, 1), (0, 3), (3, 1), (4, 1)]


def test_every_goofspiel_bot_can_enter():
    from gopskit.agents import agent_names

    rules = Goofspiel(num_cards=4)
    results = Tournament(rules, agent_names(rules), games=2, seed=1, processes=1, bot_records=True).run(progress=False)
    assert not results.forfeits()
    assert all(replay_record(g["record"]).scores() == g["points"] for g in results.games)
    if "equilibrium" in results.names:
        assert results.exploitability["equilibrium"] == pytest.approx(0, abs=1e-6)
        assert results.exploitability["greedy-high"] > 0


class Hoarder:
    """A notebook-style class strategy: memory per game, big cards for big prizes."""

    def reset(self):
        self.seen = 0

    def strategy(self, observation):
        self.seen += 1
        return observation.hand[-1] if observation.prize >= 4 else observation.hand[0]


def copier(observation):
    return observation.prize if observation.prize in observation.hand else observation.hand[0]


def test_notebook_functions_and_classes_become_sandboxed_entries(tmp_path):
    from gopskit.arena.entries import check_entry, entry_from_function

    entries = [entry_from_function(copier, folder=tmp_path), entry_from_function(Hoarder, "hoarder", tmp_path)]
    assert [e.name for e in entries] == ["copier", "hoarder"]
    assert "Strategy = Hoarder" in entries[1].path.read_text()
    for entry in entries:
        assert check_entry(entry, Goofspiel(num_cards=5), FAST).ok
    results = Tournament(Goofspiel(num_cards=5), entries, games=3, seed=2, limits=FAST, processes=1,
                         exploitability=False).run(progress=False)
    assert not results.forfeits() and results.describe_play("copier").startswith("bids the prize card itself")
    with pytest.raises(OptionError, match="source"):
        entry_from_function(len)


@pytest.mark.parametrize("name", ["../outside", "a/b", "_hidden", ".dot", "x" * 65, "", "line\nbreak", 7])
def test_a_notebook_entry_name_that_is_no_plain_file_name_is_refused_and_nothing_is_written(tmp_path, name):
    from gopskit.arena.entries import entry_from_function

    folder = tmp_path / "class"
    folder.mkdir()
    with pytest.raises(OptionError, match="an entry's name is 1 to 64 characters"):
        entry_from_function(copier, name, folder)
    assert not any(tmp_path.rglob("*.py")), "a refused name writes no file, inside the folder or beside it"


# ---------------------------------------------- seeds and isolation, CLI ---
def test_the_command_says_its_isolation_and_seed_and_the_seed_replays_the_run(tmp_path):
    import subprocess
    import sys

    from gopskit.arena.sandbox import isolation

    folder = tmp_path / "class"
    folder.mkdir()
    for name in ("copycat", "lucky"):
        (folder / f"{name}.py").write_text((STUDENTS / f"{name}.py").read_text())

    def run(out, *extra):
        done = subprocess.run([sys.executable, "-m", "gopskit.cli", "tournament", str(folder), "--bots", "random",
                               "--cards", "3", "--games", "2", "--quiet", "--exploitability-cards", "0",
                               "--out", str(tmp_path / out), *extra], capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
        return done.stdout, json.loads((tmp_path / out / "results.json").read_text())

    printed, first = run("first")
    mode = isolation()
    assert first["isolation"] == mode
    assert f"Isolation: {'student code runs under bubblewrap' if mode == 'bubblewrap' else 'WARNING'}" in printed
    assert f"Seed: {first['seed']} (replay this run with --seed {first['seed']})" in printed
    _, again = run("again", "--seed", str(first["seed"]))
    assert again["seed"] == first["seed"] and again["games"] == first["games"]
