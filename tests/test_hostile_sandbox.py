"""More hostile entries against the real sandbox: memory the memory limit cannot see, forged protocol lines.

Each test runs a real sandboxed worker (bubblewrap; these tests FAIL, never
skip, without it: ``sudo apt-get install bubblewrap``) on an attack written
as a student would, and checks the attack is refused with a reason and that
the parent (the tournament) carries on.
"""

import pytest

from gopskit.arena import sandbox as sandbox_module
from gopskit.arena.sandbox import INSTALL_HINT, Limits, SandboxWorker, isolation

OBS = {"prize": 4, "hand": [1, 4, 6], "legal_moves": [1, 4, 6], "turn": 0, "player": 0, "history": []}
SMALL = Limits(time_limit=5, load_time_limit=5, memory_limit=128 * 2**20)

OPEN_FENCE = '''
import sys


def open_fence():
    """Walk up the stack to the worker's fence module and switch the audit hook off."""
    frame = sys._getframe()
    while frame is not None:
        fence = frame.f_locals.get("fence")
        if fence is not None and hasattr(fence, "Fence"):
            fence.Fence.__call__ = lambda self, event, args: None
            return
        frame = frame.f_back
    raise RuntimeError("no fence found on the stack")
'''

# 4 x 64 MB kept in System V shared memory, each segment filled then detached: with a 128 MB memory limit
# the process holds none of it in its address space, and the segments outlive their mapping.
SYSV_SHM = OPEN_FENCE + '''
import ctypes
import os


def strategy(observation):
    open_fence()
    libc = ctypes.CDLL(None, use_errno=True)
    libc.shmat.restype = ctypes.c_void_p
    libc.shmat.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_int]
    libc.shmdt.argtypes = [ctypes.c_void_p]
    size = 64 * 2**20
    for kept in range(4):
        ident = libc.shmget(0, ctypes.c_size_t(size), 0o1600)
        if ident < 0:
            number = ctypes.get_errno()
            raise OSError(number, os.strerror(number))
        address = libc.shmat(ident, None, 0)
        ctypes.memset(address, 1, size)
        libc.shmdt(ctypes.c_void_p(address))
    return 4
'''

# 12 memory files of 16 MB (the file-size limit) kept open: 192 MB outside a 128 MB address space.
MEMFD = '''
import os

kept = []


def strategy(observation):
    block = b"x" * 2**20
    for _ in range(12):
        fd = os.memfd_create("notes")
        for _ in range(16):
            os.write(fd, block)
        kept.append(fd)
    return 4
'''


@pytest.fixture(scope="module", autouse=True)
def bubblewrap():
    if isolation() != "bubblewrap":
        pytest.fail(f"bubblewrap is not usable here ({sandbox_module.isolation_report()}); "
                    f"install it with: {INSTALL_HINT}")


def one_move(tmp_path, code, limits=SMALL):
    path = tmp_path / "attack.py"
    path.write_text(code, encoding="utf-8")
    with SandboxWorker(path, limits) as worker:
        return worker.play([("g", 1, OBS)])["g"]


@pytest.mark.parametrize("code", [SYSV_SHM, MEMFD], ids=["sysv-shared-memory", "memfd"])
def test_memory_the_memory_limit_cannot_see_is_refused(tmp_path, code):
    reply = one_move(tmp_path, code)
    assert reply.error == "exception", reply
    assert "Operation not permitted" in reply.detail


FORGERIES = [b'd{"cut": "lots"}', b"d[1]", b'd{"cut": 1e999}',
             # a forfeit of a kind the worker never reports, closed as the worker would, then silence:
             # the parent took the made-up kind as the game's forfeit reason
             b'e["<script>alert(1)</script>", "made up"]\nd{"done": 1, "out": "", "cut": 0}']


@pytest.mark.parametrize("line", FORGERIES, ids=[f.decode()[:24] for f in FORGERIES])
def test_a_forged_protocol_line_is_a_crash_of_that_entry_not_of_the_tournament(tmp_path, line):
    written = line + b"\n"
    code = (
        "import os\nimport sys\nimport time\n\n\ndef strategy(observation):\n"
        "    frame = sys._getframe()\n"
        "    while frame is not None:\n"
        "        channel = frame.f_locals.get('channel')\n"
        "        if channel is not None and hasattr(channel, 'fd_out'):\n"
        f"            os.write(channel.fd_out, {written!r})\n"
        "            break\n"
        "        frame = frame.f_back\n"
        "    time.sleep(1)\n"
        "    return observation.prize\n"
    )
    reply = one_move(tmp_path, code, Limits(time_limit=2, load_time_limit=5))
    assert reply.error == "crash", reply
    assert "not an answer on the tournament's pipe" in reply.detail


# What a strategy sends back reaches the teacher's terminal and the saved files. Each of these once broke them:
# a lone surrogate (valid in a Python string, not in UTF-8) made saving the results raise, losing the whole
# tournament; an escape sequence cleared the teacher's terminal under the forfeits; a file name that is not
# UTF-8 stopped the tournament before its first game.
UNSHOWABLE = "\ufffd"  # what they become (gopskit.arena.sandbox.UNSHOWABLE)
UNSHOWABLE_ENTRIES = {
    "surrogate_message.py": 'def strategy(observation):\n    raise ValueError("bad \\udcff text")\n',
    "surrogate_output.py": 'def strategy(observation):\n    print("said \\ud800 this")\n'
                           '    return observation.legal_moves[0]\n',
    "surrogate_move.py": 'def strategy(observation):\n    return "\\ud800"\n',
    "clears_the_screen.py": 'def strategy(observation):\n'
                            '    raise ValueError("\\x1b[2J\\x1b[H1. clears_the_screen won\\u202e")\n',
}


def test_text_a_strategy_sends_back_cannot_break_the_tournament_or_the_terminal(tmp_path):
    import json
    import subprocess
    import sys

    folder = tmp_path / "class"
    folder.mkdir()
    for name, code in UNSHOWABLE_ENTRIES.items():
        (folder / name).write_text(code, encoding="utf-8")
    honest = "def strategy(observation):\n    return observation.legal_moves[-1]\n"
    (folder / "honest.py").write_text(honest, encoding="utf-8")
    with open(bytes(folder) + b"/not\xffutf8.py", "w", encoding="utf-8") as handle:  # a name no UTF-8 can spell
        handle.write(honest)
    out = tmp_path / "out"
    done = subprocess.run([sys.executable, "-m", "gopskit.cli", "tournament", str(folder), "--bots", "random",
                           "--games", "1", "--cards", "3", "--out", str(out), "--quiet", "--time-limit", "2"],
                          capture_output=True, timeout=600)
    assert done.returncode == 0, done.stderr.decode(errors="replace")[-2000:]
    printed = done.stdout.decode("utf-8")  # strict: the terminal gets UTF-8 only
    assert "\x1b" not in printed and "\u202e" not in printed
    for saved in [p for p in out.rglob("*") if p.is_file()]:
        saved.read_bytes().decode("utf-8")  # strict: every saved file is UTF-8
    results = json.loads((out / "results.json").read_text(encoding="utf-8"))
    details = {f["entry"]: f["detail"] for g in results["games"] for f in g["forfeits"]}
    assert details["surrogate_message"] == f"ValueError: bad {UNSHOWABLE} text (line 2: " \
                                           "`raise ValueError(\"bad \\udcff text\")`)"
    assert details["clears_the_screen"].startswith(f"ValueError: {UNSHOWABLE}[2J{UNSHOWABLE}[H1.")
    assert f"{UNSHOWABLE}" in details["surrogate_move"]
    output = {e["name"]: e.get("output", "") for e in results["entries"]}
    assert output["surrogate_output"].startswith(f"said {UNSHOWABLE} this\n")
    names = {e["name"] for e in results["entries"]}
    assert f"not{UNSHOWABLE}utf8" in names and "honest" in names
    assert "surrogate_output" not in details and f"not{UNSHOWABLE}utf8" not in details  # they played every game


# An exception whose traceback cannot be read: the worker's own report of it raised, and the entry was
# said to have "stopped (exit code 1); a strategy must return a card, never exit", with a restart.
UNREADABLE_EXCEPTION = '''
class Unreadable(Exception):
    @property
    def __traceback__(self):
        raise RuntimeError("no traceback for you")


def strategy(observation):
    raise Unreadable()
'''


def test_an_exception_that_cannot_be_read_is_a_forfeit_for_an_exception(tmp_path):
    path = tmp_path / "attack.py"
    path.write_text(UNREADABLE_EXCEPTION, encoding="utf-8")
    with SandboxWorker(path, SMALL) as worker:
        reply = worker.play([("g", 1, OBS)])["g"]
        assert worker.restarts == 0
    assert reply.error == "exception", reply
    assert reply.detail == "Unreadable (its message could not be read)"


# A teacher whose `python` is a link in a folder of their own (~/bin/python, ~/.local/bin/python3): the
# sandbox bound the folder above the link, read-only, for Python to start, and with it the rest of the home.
READS_BESIDE_PYTHON = OPEN_FENCE + '''

def strategy(observation):
    open_fence()
    import os
    with open(os.environ.get("SECRET", "{secret}")) as handle:
        return handle.read()
'''
RUN_ONE_MOVE = """
import json, pathlib, sys
from gopskit.arena.sandbox import Limits, SandboxWorker
with SandboxWorker(pathlib.Path(sys.argv[1]), Limits(time_limit=5, load_time_limit=5)) as worker:
    reply = worker.play([("g", 1, {"prize": 4, "legal_moves": [1, 4]})])["g"]
print(json.dumps([sys.executable, reply.move, reply.error, reply.detail]))
"""


def test_a_python_reached_through_a_link_exposes_nothing_beside_the_link(tmp_path):
    import json
    import os
    import pathlib
    import subprocess
    import sys

    import gopskit

    home = tmp_path / "teacher"
    (home / "bin").mkdir(parents=True)
    (home / "bin" / "python").symlink_to(sys.executable)
    secret = home / "secret.txt"
    secret.write_text("the teacher's secret", encoding="utf-8")
    attack = tmp_path / "class" / "reads_beside_python.py"
    attack.parent.mkdir()
    attack.write_text(READS_BESIDE_PYTHON.replace("{secret}", str(secret)), encoding="utf-8")
    root = pathlib.Path(gopskit.__file__).resolve().parents[1]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(root), *sys.path[1:]])}
    done = subprocess.run([str(home / "bin" / "python"), "-c", RUN_ONE_MOVE, str(attack)], capture_output=True,
                          text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    executable, move, error, detail = json.loads(done.stdout.splitlines()[-1])
    assert executable == str(home / "bin" / "python")  # the sandbox starts Python by this very path
    assert move is None and error == "exception" and "No such file" in detail, (move, error, detail)


# The worker seeds `random` and numpy's generator before each move, with what it finds in the process:
# a strategy that replaced them crashed the worker itself (a restart, and "a strategy must return a card,
# never exit"). Now it is the strategy's own exception, named.
SPOOFS_THE_GENERATORS = {
    "random-seed": "import random\n\n\ndef boom(*args, **kwargs):\n    raise LookupError('no seeds here')\n\n\n"
                   "random.seed = boom\n\n\ndef strategy(observation):\n    return observation.prize\n",
    "numpy-module": "import sys\n\nsys.modules['numpy.random'] = object()\n\n\n"
                    "def strategy(observation):\n    return observation.prize\n",
}


@pytest.mark.parametrize("name", sorted(SPOOFS_THE_GENERATORS))
def test_replacing_the_generators_is_the_strategys_exception_not_a_crash(tmp_path, name):
    path = tmp_path / "attack.py"
    path.write_text(SPOOFS_THE_GENERATORS[name], encoding="utf-8")
    with SandboxWorker(path, SMALL) as worker:
        reply = worker.play([("g", 1, OBS)])["g"]
        assert worker.restarts == 0
    assert reply.error == "exception", reply
    assert reply.detail.startswith(("LookupError: no seeds here", "AttributeError: 'object' object has no attribute"))
