"""The teacher passcode: made, checked, printed by ``gopskit serve``, asked for by the teacher's page, never
seen by a student's sandboxed strategy.

The page itself in a real browser: ``test_teacher_passcode_browser.py``.
"""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import textwrap

import pytest

from gopskit import serve
from gopskit.classroom import ClassroomStore
from gopskit.classroom.tokens import (CODE_ALPHABET, PASSCODE_ENV, new_passcode, normal_passcode, passcode_matches,
                                      passcode_problem, served_passcode)
from gopskit.errors import GopsError
from gopskit.widgets.classroom import NEED_PASSCODE, PASSCODE_TRIES, TOO_MANY_TRIES, WRONG_PASSCODE, TeacherApp

PASSCODE = re.compile(rf"[{CODE_ALPHABET}]{{4}}-[{CODE_ALPHABET}]{{4}}-[{CODE_ALPHABET}]{{4}}")


# ------------------------------------------------------------- making and checking ---
def test_a_fresh_passcode_is_three_groups_without_look_alikes_and_strong_enough():
    codes = {new_passcode() for _ in range(2000)}
    assert len(codes) == 2000 and all(PASSCODE.fullmatch(code) for code in codes)
    assert not set("01ILO").intersection("".join(codes))
    assert all(passcode_problem(code) is None for code in codes)
    assert len(CODE_ALPHABET) ** 12 > 2 ** 56  # at a million guesses a second, over three thousand years


def test_a_passcode_is_typed_in_any_case_with_or_without_dashes_and_spaces():
    assert normal_passcode(" kq7f 3mxa-9prt ") == "KQ7F3MXA9PRT"
    for typed in ("KQ7F-3MXA-9PRT", "kq7f3mxa9prt", " Kq7f 3mxa 9PRT "):
        assert passcode_matches(typed, "KQ7F-3MXA-9PRT")
    for typed in ("KQ7F-3MXA-9PRU", "KQ7F-3MXA-9PR", "", "KQ7F-3MXA-9PRT9", None, 123, ["KQ7F3MXA9PRT"], "K" * 10_000):
        assert not passcode_matches(typed, "KQ7F-3MXA-9PRT")


@pytest.mark.parametrize("text, words", [
    ("secret", "this one has 6, 5 different"),
    ("aaaa-aaaa-aaaa-aaaa", "this one has 16, 1 different"),
    ("121212121212", "this one has 12, 2 different"),
    ("tab\there and there", "a line of at most 200 printable characters"),
    ("x" * 201, "a line of at most 200 printable characters"),
])
def test_a_passcode_the_teacher_chooses_must_be_hard_to_guess(text, words):
    problem = passcode_problem(text)
    assert problem is not None and words in problem
    if "this one" in problem:
        assert problem.startswith("a teacher passcode needs at least 12 characters (spaces and dashes not counted, "
                                  "case ignored), at least 6 of them different")


@pytest.mark.parametrize("text", ["correct horse battery", "Gops-Lesson-4-Room", "KQ7F-3MXA-9PRT"])
def test_a_long_passcode_of_the_teachers_will_do(text):
    assert passcode_problem(text) is None


# ------------------------------------------------------------- where it is needed ---
@pytest.mark.parametrize("host", ["localhost", "LOCALHOST", "class.localhost", "127.0.0.1", "127.0.0.2",
                                  "127.255.255.254", "::1", "[::1]", "::ffff:127.0.0.1"])
def test_loopback_hosts_stay_on_this_computer(host):
    assert not serve.listens_beyond(host)


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "[::]", "", "  ", "192.168.1.20", "10.0.0.5", "8.8.8.8",
                                  "fe80::1", "::ffff:10.0.0.7", "no-such-host.invalid"])
def test_other_hosts_are_beyond_this_computer(host):
    assert serve.listens_beyond(host)


def test_serve_makes_a_passcode_only_for_a_network_unless_told(monkeypatch):
    monkeypatch.delenv(PASSCODE_ENV, raising=False)
    assert serve.teacher_passcode("localhost") == (None, [])
    code, lines = serve.teacher_passcode("0.0.0.0")
    assert PASSCODE.fullmatch(code) and lines == [
        f"Teacher passcode: {code} (the teacher's page asks for it; students never need it, so keep this terminal "
        "off the projector)."]
    assert serve.teacher_passcode("0.0.0.0")[0] != code  # fresh for each run
    mine = "Gops-Lesson-4-Room"
    for host in ("localhost", "0.0.0.0"):  # the teacher's own, never printed
        assert serve.teacher_passcode(host, mine) == (
            mine, ["Teacher passcode: the one in --teacher-passcode (the teacher's page asks for it)."])
    code, lines = serve.teacher_passcode("0.0.0.0", off=True)
    assert code is None and "anyone who reaches this server can open rooms" in lines[0]
    with pytest.raises(GopsError, match=r"^--teacher-passcode: a teacher passcode needs at least 12 characters"):
        serve.teacher_passcode("0.0.0.0", "1234")
    monkeypatch.setenv(PASSCODE_ENV, mine)  # set by whoever starts the server
    assert serve.teacher_passcode("localhost") == (
        mine, [f"Teacher passcode: the one in {PASSCODE_ENV} (the teacher's page asks for it)."])
    monkeypatch.setenv(PASSCODE_ENV, "short")
    with pytest.raises(GopsError, match=f"^the environment variable {PASSCODE_ENV}: a teacher passcode needs"):
        serve.teacher_passcode("0.0.0.0")


def _serve_until_it_binds(host: str, *options: str) -> subprocess.CompletedProcess:
    """``gopskit serve --host HOST`` as a subprocess, on a port this test holds: it prints what it prints, then
    Voila cannot bind and stops. Nothing ever listens beyond this computer."""
    with socket.socket() as holder:
        holder.bind(("127.0.0.2" if host == "127.0.0.2" else "127.0.0.1", 0))
        holder.listen(1)
        port = holder.getsockname()[1]
        env = {k: v for k, v in os.environ.items() if k != PASSCODE_ENV}
        return subprocess.run([sys.executable, "-m", "gopskit.cli", "serve", "--no-browser", "--host", host,
                               "--port", str(port), "--max-kernels", "4", *options],
                              capture_output=True, text=True, timeout=300, env=env)


def test_gopskit_serve_prints_a_fresh_passcode_beside_the_addresses_for_a_network():
    run = _serve_until_it_binds("0.0.0.0")
    lines = run.stdout.splitlines()
    students = next(i for i, line in enumerate(lines) if line.startswith("gopskit: Students open http://"))
    match = re.fullmatch(r"gopskit: Teacher passcode: (\S+) \(the teacher's page asks for it; students never need "
                         r"it, so keep this terminal off the projector\)\.", lines[students + 1])
    assert match and PASSCODE.fullmatch(match.group(1)), run.stdout
    assert "could not be started" in run.stderr and run.returncode != 0  # the port this test holds


@pytest.mark.parametrize("host", ["127.0.0.2", "localhost"])
def test_gopskit_serve_on_this_computer_has_no_passcode(host):
    run = _serve_until_it_binds(host)
    assert "gopskit: Open http://localhost:" in run.stdout, run.stdout + run.stderr
    assert "passcode" not in run.stdout.lower() and "Students open" not in run.stdout


def test_gopskit_serve_refuses_a_weak_passcode_in_one_line():
    run = subprocess.run([sys.executable, "-m", "gopskit.cli", "serve", "--no-browser", "--teacher-passcode", "gops"],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr.splitlines() == [
        "gopskit: --teacher-passcode: a teacher passcode needs at least 12 characters (spaces and dashes not counted, "
        "case ignored), at least 6 of them different, so that nobody on the network can guess it; this one has 4, "
        "4 different. Choose another one, or leave the passcode out and gopskit serve makes one"]
    both = subprocess.run([sys.executable, "-m", "gopskit.cli", "serve", "--teacher-passcode", "Gops-Lesson-4-Room",
                           "--no-teacher-passcode"], capture_output=True, text=True, timeout=120)
    assert both.returncode == 2 and "not allowed with argument" in both.stderr


# ------------------------------------------------------------- the teacher's page ---
def test_the_page_asks_for_the_passcode_before_the_room_form(tmp_path, monkeypatch):
    monkeypatch.setenv(PASSCODE_ENV, "KQ7F-3MXA-9PRT")  # as the server hands it to its kernels
    assert served_passcode() == "KQ7F-3MXA-9PRT"
    url = str(tmp_path / "c.sqlite3")
    app = TeacherApp(url, bridge=False)
    assert app.locked and app._form.layout.display == "none" and app._lock_box.layout.display is None
    app.create()  # a hand-made client pressing the hidden button
    assert NEED_PASSCODE in app._message.value and app.teacher_key is None
    for wrong in ("KQ7F-3MXA-9PRU", "", "x" * 5000):
        app.unlock(wrong)
        assert WRONG_PASSCODE in app._message.value and app.locked and app._form.layout.display == "none"
    assert ClassroomStore(url).db.run(lambda tx: tx.one("SELECT COUNT(*) AS n FROM rooms")["n"]) == 0
    app._passcode_input.value = "kq7f 3mxa 9prt"  # typed, then Enter
    assert not app.locked and app._form.layout.display is None and app._lock_box.layout.display == "none"
    assert app._passcode_input.value == "" and "Passcode accepted" in app._message.value
    app.create()
    assert app.code is not None and app._room_box.layout.display is None


def test_a_page_takes_a_few_wrong_passcodes_then_only_a_reload_gives_more(tmp_path):
    """A script sending passcode after passcode through one page gets five tries, then none, even the right one."""
    app = TeacherApp(str(tmp_path / "c.sqlite3"), bridge=False, passcode="KQ7F-3MXA-9PRT")
    for _ in range(PASSCODE_TRIES - 1):
        app.unlock("AAAA-AAAA-AAAA")
        assert WRONG_PASSCODE in app._message.value
    app.unlock("AAAA-AAAA-AAAA")
    assert PASSCODE_TRIES == 5 and TOO_MANY_TRIES in app._message.value and app._passcode_input.disabled
    app.unlock("KQ7F-3MXA-9PRT")
    assert app.locked and TOO_MANY_TRIES in app._message.value and app._form.layout.display == "none"
    reloaded = TeacherApp(str(tmp_path / "c.sqlite3"), bridge=False, passcode="KQ7F-3MXA-9PRT")
    reloaded.unlock("KQ7F-3MXA-9PRT")
    assert not reloaded.locked


def test_a_reloaded_page_reopens_its_room_without_the_passcode(tmp_path, monkeypatch):
    monkeypatch.setenv(PASSCODE_ENV, "KQ7F-3MXA-9PRT")
    store = ClassroomStore(str(tmp_path / "c.sqlite3"))
    room = store.create_room("goofspiel", {"num_cards": 3})
    app = TeacherApp(str(tmp_path / "c.sqlite3"), bridge=False)
    app.reopen("not-the-key-of-any-room")  # a made-up key opens nothing, and unlocks nothing
    assert app.locked and app.teacher_key is None and "opens no room" in app._message.value
    app.reopen(room.teacher_key)  # the key the browser saved is itself the secret
    assert app.code == room.code and not app.locked
    assert app._lock_box.layout.display == app._form.layout.display == "none"


def test_without_a_passcode_the_page_is_as_before(tmp_path, monkeypatch):
    monkeypatch.delenv(PASSCODE_ENV, raising=False)
    app = TeacherApp(str(tmp_path / "c.sqlite3"), bridge=False)
    assert not app.locked and app._lock_box.layout.display == "none" and app._form.layout.display is None
    app.create()
    assert app.code is not None


# ------------------------------------------------------------- a student's strategy ---
SNOOP = textwrap.dedent('''
    import os

    def strategy(observation):
        found = [name for name in os.environ if "PASSCODE" in name]
        places = ["self", str(os.getppid()), "1"]
        try:
            places += [p for p in os.listdir("/proc") if p.isdigit()]
        except Exception:
            pass
        for place in places:
            try:
                with open("/proc/%s/environ" % place, "rb") as f:
                    if b"PASSCODE" in f.read():
                        found.append(place)
            except Exception:
                pass
        print("found:", found)
        return observation.legal_moves[-1] if found else observation.legal_moves[0]
''')

TOURNAMENT_KERNEL = textwrap.dedent('''
    import json, sys
    from gopskit.arena.sandbox import SandboxWorker
    with SandboxWorker(sys.argv[1]) as worker:
        reply = worker.play([("game-1", 7, {"prize": 4, "legal_moves": [1, 4]})])["game-1"]
        print(json.dumps({"move": reply.move, "error": reply.error, "output": worker.output,
                          "isolation": worker.isolation}))
''')


@pytest.mark.parametrize("isolation", ["bubblewrap", "fence"])
def test_a_sandboxed_strategy_cannot_read_the_passcode(tmp_path, isolation):
    """A kernel started with the passcode in its environment (as ``gopskit serve`` starts them) runs a student's
    strategy that looks for it everywhere it could: its environment, and every process's under /proc."""
    entry = tmp_path / "snoop.py"
    entry.write_text(SNOOP)
    secret = new_passcode()
    env = {**os.environ, PASSCODE_ENV: secret, "GOPSKIT_SANDBOX": isolation}
    run = subprocess.run([sys.executable, "-c", TOURNAMENT_KERNEL, str(entry)], capture_output=True, text=True,
                         timeout=300, env=env)
    assert run.returncode == 0, run.stderr
    result = json.loads(run.stdout.splitlines()[-1])
    assert result["isolation"] == isolation and result["error"] is None, result
    assert "found: []" in result["output"] and result["move"] == 1, result
    assert secret not in run.stdout


@pytest.mark.parametrize("user, teachers, opens", [
    ("ann", "ms-k, mr-j", False),  # a student's own server on a hub that names its teachers
    ("MS-K", "ms-k mr-j", True),  # hub user names in any case, separated by commas or spaces
    ("ann", "", True),  # a hub that names nobody: as before
    (None, "ms-k", True),  # not on a hub (no JUPYTERHUB_USER): the passcode's business
])
def test_on_a_hub_only_the_named_teachers_open_rooms(tmp_path, monkeypatch, user, teachers, opens):
    from gopskit.classroom.tokens import TEACHERS_ENV

    monkeypatch.delenv(PASSCODE_ENV, raising=False)
    monkeypatch.setenv(TEACHERS_ENV, teachers)
    if user is None:
        monkeypatch.delenv("JUPYTERHUB_USER", raising=False)
    else:
        monkeypatch.setenv("JUPYTERHUB_USER", user)
    url = str(tmp_path / "c.sqlite3")
    app = TeacherApp(url, bridge=False)
    assert app.locked is not opens and (app._form.layout.display is None) is opens
    app.create()  # the form's button, or a hand-made client pressing the hidden one
    app.unlock("KQ7F-3MXA-9PRT")
    rooms = ClassroomStore(url).db.run(lambda tx: tx.one("SELECT COUNT(*) AS n FROM rooms")["n"])
    assert rooms == (1 if opens else 0)
    if not opens:
        assert "only the teachers open rooms (ms-k, mr-j); you are signed in as ann" in app._message.value
        assert app._lock_box.layout.display == "none"  # no passcode to type: nothing would unlock it
