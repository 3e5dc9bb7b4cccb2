"""The sandbox: one student's file in its own process, with limits and a fence."""

import pathlib

import pytest

from gopskit.arena.entries import SandboxAgent, check_entry, explain_forfeit
from gopskit.arena.sandbox import Limits, SandboxWorker
from gopskit.arena.tables import judge_move, observation_data
from gopskit.errors import AgentError, OptionError
from gopskit.games.goofspiel import Goofspiel

STUDENTS = pathlib.Path(__file__).parent / "data" / "students"
FAST = Limits(time_limit=0.3, load_time_limit=5)
OBS = {"prize": 4, "hand": [1, 4, 6], "legal_moves": [1, 4, 6], "turn": 0, "player": 0,
       "history": [{"prize": 2, "bids": [2, 3], "winner": 1}]}


def one_move(path, data=OBS, limits=FAST, key="g"):
    with SandboxWorker(path, limits) as worker:
        return worker.play([(key, 1, data)])[key], worker


def write(tmp_path, name, code):
    path = tmp_path / name
    path.write_text(code, encoding="utf-8")
    return path


# ------------------------------------------------------------- good code ---
def test_a_function_answers_each_game_of_a_batch():
    with SandboxWorker(STUDENTS / "copycat.py", FAST) as worker:
        items = [(f"g{k}", k, {**OBS, "prize": card, "hand": [1, card]}) for k, card in enumerate([1, 4, 6, 6])]
        replies = worker.play(items)
    assert [replies[f"g{k}"].move for k in range(4)] == [1, 4, 6, 6]


def test_a_class_gets_a_fresh_object_per_game_and_keeps_memory_within_it(tmp_path):
    code = (
        "class Strategy:\n"
        "    def reset(self):\n        self.calls = 0\n"
        "    def strategy(self, observation):\n        self.calls += 1\n        return self.calls\n"
    )
    with SandboxWorker(write(tmp_path, "counter.py", code), FAST) as worker:
        first = worker.play([("a", 1, OBS), ("b", 1, OBS)])
        second = worker.play([("a", 1, OBS), ("c", 1, OBS)])
        worker.reset_games()
        third = worker.play([("a", 1, OBS)])
    assert (first["a"].move, first["b"].move) == (1, 1)
    assert (second["a"].move, second["c"].move) == (2, 1)
    assert third["a"].move == 1


def test_random_is_seeded_per_game_so_play_repeats():
    def moves(seed):
        with SandboxWorker(STUDENTS / "lucky.py", FAST) as worker:
            data = {**OBS, "legal_moves": list(range(1, 14))}
            return [worker.play([(f"g{k}", seed + k, data)])[f"g{k}"].move for k in range(8)]

    assert moves(5) == moves(5)
    assert moves(5) != moves(6)


def test_the_observation_reads_with_dots_or_brackets_and_is_read_only(tmp_path):
    code = (
        "def strategy(observation):\n"
        "    assert observation['prize'] == observation.prize == 4\n"
        "    assert observation.hand == (1, 4, 6) and isinstance(observation.legal_moves, tuple)\n"
        "    assert observation.history[0].winner == 1 and observation.history[0]['bids'] == (2, 3)\n"
        "    assert 'prize' in dir(observation) and observation.to_dict()['hand'] == [1, 4, 6]\n"
        "    try:\n        observation.prize = 9\n    except AttributeError:\n        pass\n"
        "    else:\n        raise AssertionError('observation was writable')\n"
        "    return observation.nosuchfield\n"
    )
    reply, _ = one_move(write(tmp_path, "reader.py", code))
    assert reply.error == "exception"
    assert "no field 'nosuchfield'" in reply.detail and "prize" in reply.detail


# -------------------------------------------------------- hostile code ---
@pytest.mark.parametrize("name, error, words", [
    ("raises.py", "exception", ["ZeroDivisionError", "line 5"]),
    ("sleeps_forever.py", "timeout", ["0.3 s"]),
    ("allocates_gigabytes.py", "memory", ["memory"]),
    ("prints_forever.py", "timeout", ["longer"]),
    ("reads_other_entry.py", "exception", ["PermissionError", "own folder"]),
    ("exits_python.py", "crash", ["exit code 1"]),
    ("returns_none.py", "malformed", ["return"]),
])
def test_each_hostile_file_gives_a_reason_not_a_crash(name, error, words):
    reply, worker = one_move(STUDENTS / name)
    assert reply.error == error, reply
    for word in words:
        assert word in reply.detail


@pytest.mark.parametrize("name, move, error", [("returns_99.py", 99, "illegal"), ("returns_string.py", "seven", "malformed")])
def test_nonsense_moves_reach_the_judge_and_are_refused(name, move, error):
    reply, _ = one_move(STUDENTS / name)
    assert reply.move == move
    assert judge_move(reply.move, [1, 4, 6]).error == error


def test_printed_output_is_captured_and_capped():
    reply, worker = one_move(STUDENTS / "prints_forever.py", limits=Limits(time_limit=0.3, output_limit=100))
    assert worker.output.startswith("look at me!") and len(worker.output) == 100
    assert worker.output_cut > 0


@pytest.mark.parametrize("name, words", [
    ("syntax_error.py", ["line 4", "expected ':'"]),
    ("wrong_signature.py", ["exactly one input", "def strategy(observation)"]),
])
def test_files_that_cannot_load_explain_why(name, words):
    with SandboxWorker(STUDENTS / name, FAST) as worker:
        assert worker.start() is False
        replies = worker.play([("g", 1, OBS)])
    assert replies["g"].error == "load"
    for word in words:
        assert word in worker.load_error


def test_a_file_without_strategy_names_its_functions(tmp_path):
    with SandboxWorker(write(tmp_path, "mine.py", "def my_bid(obs):\n    return 1\n"), FAST) as worker:
        assert not worker.start()
    assert "no function called `strategy`" in worker.load_error and "my_bid" in worker.load_error


def test_a_worker_that_died_is_restarted_for_the_next_batch(tmp_path):
    code = "import os\ndef strategy(observation):\n    if observation.prize == 13:\n        os._exit(2)\n    return 1\n"
    with SandboxWorker(write(tmp_path, "flaky.py", code), FAST) as worker:
        died = worker.play([("a", 1, {**OBS, "prize": 13})])
        again = worker.play([("b", 1, OBS)])
    assert died["a"].error == "crash" and again["b"].move == 1 and worker.restarts == 1


def test_a_strategy_that_swallows_the_alarm_is_killed_by_the_parent():
    with SandboxWorker(STUDENTS / "more" / "stubborn.py", Limits(time_limit=0.2)) as worker:
        reply = worker.play([("g", 1, OBS)])["g"]
    assert reply.error == "timeout" and "was stopped" in reply.detail


def test_an_entry_is_withdrawn_after_too_many_timeouts():
    with SandboxWorker(STUDENTS / "sleeps_forever.py", Limits(time_limit=0.2, max_timeouts=2)) as worker:
        replies = worker.play([(f"g{k}", k, OBS) for k in range(5)])
        later = worker.play([("h", 1, OBS)])
    assert [replies[f"g{k}"].error for k in range(5)] == ["timeout", "timeout"] + ["withdrawn"] * 3
    assert later["h"].error == "withdrawn" and "2 timed-out games" in later["h"].detail


# ------------------------------------------------------------ the fence ---
def test_the_fence_allows_the_entry_folder_and_the_library(tmp_path):
    code = (
        "import json, collections, os\n"
        "def strategy(observation):\n"
        "    with open('notes.txt', 'w') as f:\n        f.write('mine')\n"
        "    assert open('notes.txt').read() == 'mine' and 'notes.txt' in os.listdir('.')\n"
        "    return 1\n"
    )
    reply, _ = one_move(write(tmp_path, "notes.py", code))
    assert reply.move == 1, reply


@pytest.mark.parametrize("action", [
    "open({target!r}).read()",
    "os.listdir({folder!r})",
    "open({folder!r} + '/new.txt', 'w')",
    "subprocess.run(['true'])",
    "socket.socket().connect(('127.0.0.1', 9))",
    "os.chdir('..')",
])
def test_the_fence_refuses_other_files_processes_and_sockets(tmp_path, action):
    target = (STUDENTS / "copycat.py").resolve()
    line = action.format(target=str(target), folder=str(target.parent))
    code = f"import os, socket, subprocess\ndef strategy(observation):\n    {line}\n    return 1\n"
    reply, _ = one_move(write(tmp_path, "snoop.py", code))
    assert reply.error == "exception" and "PermissionError" in reply.detail, reply


def test_limits_are_checked():
    with pytest.raises(OptionError, match="positive"):
        Limits(time_limit=0)
    with pytest.raises(OptionError, match="64 MB"):
        Limits(memory_limit=1000)


# ----------------------------------------------- the submission check ---
@pytest.mark.parametrize("name, ok, words", [
    ("copycat.py", True, ["whole game"]),
    ("returns_99.py", False, ["turn 1", "bid 99", "cards left"]),
    ("raises.py", False, ["turn 1", "ZeroDivisionError", "line 5"]),
    ("syntax_error.py", False, ["syntax_error.py", "line 4"]),
])
def test_check_entry_speaks_to_beginners(name, ok, words):
    check = check_entry(STUDENTS / name, Goofspiel(num_cards=5), FAST)
    assert check.ok is ok
    for word in words:
        assert word in check.message
    assert str(check).startswith("OK" if ok else "FAIL")


def test_explain_forfeit_names_the_file_and_turn():
    text = explain_forfeit({"reason": "exception", "detail": "ValueError: bad (line 3)", "turn": 2}, "a.py")
    assert text == "a.py, turn 2: your strategy raised ValueError: bad (line 3)"


# ------------------------------------------------- a student as an agent ---
def test_a_sandboxed_student_passes_the_agent_contract():
    from contracts import check_agent_contract

    agents = []

    def make():
        agents.append(SandboxAgent(STUDENTS / "lucky.py", FAST))
        return agents[-1]

    try:
        check_agent_contract(make, Goofspiel(num_cards=4), games=2)
    finally:
        for agent in agents:
            agent.close()


def test_a_sandboxed_student_that_forfeits_raises_agent_error():
    from gopskit.arena import play_game

    with SandboxAgent(STUDENTS / "returns_99.py", FAST) as agent:
        with pytest.raises(AgentError, match="returns_99: bid 99"):
            play_game(Goofspiel(num_cards=3), [agent, "random"], seed=1)


def test_the_worker_sees_the_same_data_as_the_bots():
    state = Goofspiel(num_cards=5, hidden_bids=True).new_game(3)
    state.apply([2, 3])
    data = observation_data(state.observation(1))
    code = "def strategy(observation):\n    print(observation.to_dict())\n    return observation.hand[0]\n"
    folder = pathlib.Path(__import__("tempfile").mkdtemp())
    with SandboxWorker(write(folder, "echo.py", code), FAST) as worker:
        reply = worker.play([("g", 1, data)])["g"]
        shown = worker.output
    assert reply.move == 1
    assert eval(shown) == data  # noqa: S307 - our own printed dict


def test_the_fence_module_loads_without_gopskit_and_checks_paths():
    from gopskit.arena import _fence

    fence = _fence.Fence(str(STUDENTS), ())
    assert fence._allowed(str(STUDENTS / "copycat.py"), write=True)
    assert not fence._allowed("/etc/passwd", write=False)
    assert fence._allowed(_fence.sysconfig.get_paths()["stdlib"] + "/json/__init__.py", write=False)
    assert not fence._allowed(_fence.sysconfig.get_paths()["stdlib"] + "/x.py", write=True)
    source = pathlib.Path(_fence.__file__).read_text()
    assert "gopskit" not in "".join(line for line in source.splitlines() if line.startswith(("import", "from")))


@pytest.mark.parametrize("module", ["gopskit.arena._fence", "gopskit.arena.sandbox", "gopskit.arena.tables",
                                    "gopskit.arena.entries", "gopskit.arena.tournament", "gopskit.arena.results",
                                    "gopskit.viz.tournament"])
def test_docstring_examples_run(module):
    import doctest
    import importlib

    assert doctest.testmod(importlib.import_module(module), optionflags=doctest.ELLIPSIS).failed == 0


# ------------------------------------------- the parent's clock, deaths ---
HOSTILE = pathlib.Path(__file__).parent / "data" / "hostile"


def test_the_parent_stops_a_strategy_that_cancels_its_alarm_and_patches_the_clock():
    import time

    from gopskit.arena.sandbox import parent_deadline

    limits = Limits(time_limit=0.3, load_time_limit=5)
    with SandboxWorker(HOSTILE / "stops_the_clock.py", limits) as worker:
        assert worker.start()
        begin = time.monotonic()
        reply = worker.play([("g", 1, OBS)])["g"]
        elapsed = time.monotonic() - begin
    assert reply.error == "timeout" and "was stopped" in reply.detail, reply
    assert elapsed >= parent_deadline(0.3)  # the verdict is the parent's clock, whatever the strategy did to its own


def test_a_worker_killed_between_batches_is_a_forfeit_then_a_fresh_process():
    import os
    import signal

    with SandboxWorker(STUDENTS / "copycat.py", FAST) as worker:
        assert worker.play([("a", 1, OBS)])["a"].move == 4
        os.killpg(worker.process.pid, signal.SIGKILL)
        worker.process.wait()
        died = worker.play([("b", 1, OBS), ("c", 1, OBS)])
        again = worker.play([("d", 1, OBS)])
    assert {r.error for r in died.values()} == {"crash"} and "between moves" in died["b"].detail
    assert again["d"].move == 4 and worker.restarts == 1


def test_a_worker_whose_pipe_breaks_before_send_never_raises():
    with SandboxWorker(STUDENTS / "copycat.py", FAST) as worker:
        assert worker.start()
        worker.process.stdin.close()  # as if it died between start and send
        replies = worker.play([("a", 1, OBS)])
    assert replies["a"].error == "crash"


def test_without_bubblewrap_the_fence_is_announced_loudly(monkeypatch):
    from gopskit.arena.entries import student_entry
    from gopskit.arena.sandbox import isolation, isolation_report
    from gopskit.arena.tournament import Tournament

    monkeypatch.setenv("GOPSKIT_SANDBOX", "fence")
    assert isolation() == "fence" and isolation_report().startswith("WARNING: NO OPERATING-SYSTEM SANDBOX")
    t = Tournament(Goofspiel(num_cards=3), [student_entry(STUDENTS / "copycat.py"), "random"], games=1,
                   limits=FAST, processes=1, exploitability=False)
    with pytest.warns(RuntimeWarning, match="NO OPERATING-SYSTEM SANDBOX"):
        results = t.run(progress=False)
    assert results.isolation == "fence" and results.to_dict()["isolation"] == "fence"
    monkeypatch.setenv("GOPSKIT_SANDBOX", "nonsense")
    with pytest.raises(OptionError, match="allowed: auto, bubblewrap, fence"):
        isolation()


def test_the_seccomp_filter_is_whole_instructions_ending_in_allow():
    import struct

    from gopskit.arena.sandbox import seccomp_program

    program = seccomp_program()
    if program is None:  # not x86-64 or arm64: bubblewrap runs without the filter
        return
    assert len(program) % 8 == 0
    last = struct.unpack("=HBBI", program[-8:])
    assert last == (0x06, 0, 0, 0x7FFF0000)


def test_a_thread_left_spinning_between_moves_is_caught_and_the_sandbox_stopped():
    import time

    replies, give_up = [], time.monotonic() + 30  # the spinner needs 0.25 s of CPU more than its moves took
    with SandboxWorker(HOSTILE / "spins_between_moves.py", FAST) as worker:
        while time.monotonic() < give_up:
            replies.append(worker.play([(f"g{len(replies)}", 1, OBS)])[f"g{len(replies)}"])
            if replies[-1].error:
                break
            time.sleep(0.2)
    assert replies[0].move == 1 and replies[-1].error == "crash", replies[-1]
    assert "processor busy between its moves" in replies[-1].detail


def test_an_honest_worker_is_never_flagged_for_the_processor():
    import time

    with SandboxWorker(STUDENTS / "remembers.py", FAST) as worker:
        for k in range(30):
            items = [(f"g{k}.{j}", j, OBS) for j in range(20)]
            assert all(r.ok for r in worker.play(items).values())
            worker.reset_games()
            time.sleep(0.02)


@pytest.mark.parametrize("mode", ["bubblewrap", "fence"])
def test_a_sandbox_is_the_first_process_the_kernel_stops_when_memory_runs_out(monkeypatch, mode):
    """Sandboxes each under their own limit can still fill the machine together: Linux then stops one of them
    (oom_score_adj 1000, read from outside), not the server, a page's kernel or the tournament."""
    monkeypatch.setenv("GOPSKIT_SANDBOX", mode)
    with SandboxWorker(STUDENTS / "copycat.py", FAST) as worker:
        assert worker.play([("g", 1, OBS)])["g"].move == 4
        assert worker.isolation == mode
        pid = worker._worker_pid()
        assert pathlib.Path(f"/proc/{pid}/oom_score_adj").read_text().strip() == "1000"
    assert pathlib.Path("/proc/self/oom_score_adj").read_text().strip() != "1000"  # the parent keeps its own
