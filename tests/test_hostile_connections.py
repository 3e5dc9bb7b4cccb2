"""A hostile computer against the server's connections: real Voila on 127.0.0.1, bounded by gopskit.server.

127.0.0.2 plays the hostile student's computer (all of 127.0.0.0/8 is
loopback on Linux; the server counts 127.0.0.2 as a client like any other
computer) and 127.0.0.3 a classmate. Each attack once worked: a thousand
half-sent requests used up the server's open files (the teacher's page
stopped loading; the server's loop spun writing 20 MB of tracebacks a
second), request bodies were held whole in memory, and any name in the
``Host`` header was answered (DNS rebinding).
"""

from __future__ import annotations

import http.client
import re
import socket
import subprocess
import sys
import time
import uuid

import psutil
import pytest
import websocket

from gopskit.errors import GopsError
from gopskit.serve import _wait_for, free_port, stop_child
from gopskit.server.connections import ConnectionPace, server_options
from gopskit.server.limits import Limits

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not sys.platform.startswith("linux"), reason="needs 127.0.0.2 (Linux loopback)")]

MB = 1 << 20
PER_CLIENT, HEADER_TIMEOUT = 16, 3
HOSTILE, CLASSMATE = "127.0.0.2", "127.0.0.3"
# The server as `gopskit serve` runs it (GopskitVoila listens through bound_connections), with test-sized
# limits that have no flag; one extra name, as `--host-name pc-12.school.example` gives.
SCHOOL_NAME = "pc-12.school.example"
SERVE = """
import sys
from gopskit import serve
from gopskit.server.limits import Limits

limits = Limits(max_kernels=8, kernel_memory_mb=1024, pages_per_minute=1000, kernels_per_client=1,
                max_connections_per_client={per_client}, header_timeout_seconds={timeout},
                new_connections_per_second={per_second}, new_connection_burst={burst}, host_names=("%s",))
argv = serve.voila_argv(serve.notebooks_dir(), port=int(sys.argv[1]), open_browser=False, preheat=False, limits=limits)
serve._voila_app_class(limits).launch_instance(argv=argv, config=serve.voila_config(False))
""" % SCHOOL_NAME


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    path = tmp_path_factory.mktemp("serve") / "server.log"
    port = free_port()
    with open(path, "w") as log:
        child = subprocess.Popen([sys.executable, "-c", SERVE.format(per_client=PER_CLIENT, timeout=HEADER_TIMEOUT, per_second=20, burst=200),
                                  str(port)], stdout=log, stderr=subprocess.STDOUT)
        try:
            _wait_for(f"http://localhost:{port}/voila/tree", child, 90)
            yield port, psutil.Process(child.pid), path
        finally:
            stop_child(child)


def half_request(port: int, source: str) -> socket.socket:
    """A connection that says half of a request and then nothing (slowloris)."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=60, source_address=(source, 0))
    sock.sendall(b"GET /voila/render/index.ipynb HTTP/1.1\r\nHost: localhost\r\n")
    return sock


def load(port: int, page: str, source: str = "127.0.0.1", host: str | None = None) -> tuple[int, str]:
    """GET an app (``page``) or, given a path, that path; status and body."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120, source_address=(source, 0))
    try:
        path = page if page.startswith("/") else f"/voila/render/{page}"
        connection.request("GET", path, headers={"Host": host} if host else {})
        answer = connection.getresponse()
        return answer.status, answer.read().decode()
    finally:
        connection.close()


def answer_of(sock: socket.socket) -> bytes:
    """Everything the server sends before it closes the connection."""
    data = b""
    while chunk := sock.recv(65536):
        data += chunk
    return data


def test_one_computer_holds_a_bounded_number_of_connections_and_the_others_get_their_pages(server):
    port, process, log = server
    held = [half_request(port, HOSTILE) for _ in range(PER_CLIENT)]
    try:
        refused = [socket.create_connection(("127.0.0.1", port), timeout=60, source_address=(HOSTILE, 0))
                   for _ in range(PER_CLIENT)]
        for sock in refused:  # answered at once, in words, and closed; the held ones wait for their headers
            answer = answer_of(sock).decode()
            assert answer.startswith("HTTP/1.1 503"), answer
            assert f"This computer has {PER_CLIENT} connections open" in answer and "Close some gopskit tabs" in answer
            sock.close()
        # the classmate and the teacher are not affected
        assert load(port, "index.ipynb", CLASSMATE)[0] == 200
        assert load(port, "index.ipynb")[0] == 200
    finally:
        for sock in held:
            sock.close()
    assert "Too many open files" not in log.read_text()


def test_a_request_that_never_finishes_its_headers_is_closed(server):
    port, _, _ = server
    sock = half_request(port, HOSTILE)
    try:
        assert answer_of(sock) == b""  # closed by the server after HEADER_TIMEOUT s (tornado's default: an hour)
    finally:
        sock.close()


def test_request_bodies_are_bounded_not_kept_in_memory(server):
    port, process, _ = server
    before = process.memory_info().rss
    socks = []
    try:
        for _ in range(8):
            sock = socket.create_connection(("127.0.0.1", port), timeout=60, source_address=(HOSTILE, 0))
            sock.sendall(b"POST /voila/render/index.ipynb HTTP/1.1\r\nHost: localhost\r\n"
                         b"Content-Length: 99000000\r\n\r\n")  # 90 MB sent: the server waits for the rest
            try:
                for _ in range(90):
                    sock.sendall(b"x" * MB)
            except OSError:  # the server refused the body and closed the connection
                pass
            socks.append(sock)
        time.sleep(1)
        assert process.memory_info().rss - before < 100 * MB, f"{(process.memory_info().rss - before) / MB:.0f} MB"
    finally:
        for sock in socks:
            sock.close()


@pytest.mark.parametrize("host", ["evil.example", "rebound.attacker.test:80"])
def test_a_request_for_another_name_gets_the_wrong_address_page(server, host):
    port, _, _ = server
    status, body = load(port, "index.ipynb", HOSTILE, host=host)
    assert status == 421 and "Wrong address" in body and "Traceback" not in body
    assert "kernelId" not in body


def test_addresses_a_browser_uses_are_answered(server):
    port, _, _ = server
    hosts = (f"localhost:{port}", f"127.0.0.1:{port}", f"{socket.gethostname()}:{port}", f"PC-12.school.example:{port}")
    for source, host in zip(("127.0.0.4", "127.0.0.5", "127.0.0.6", "127.0.0.7"), hosts):  # one computer each: its own cap
        status, body = load(port, "index.ipynb", source, host=host)
        assert status == 200 and "kernelId" in body, host


def test_the_teacher_is_told_which_names_were_refused_and_how_to_allow_one(server):
    """A school may call the teacher's computer by a name the server does not know: the log says how to add it."""
    port, _, log = server
    for _ in range(3):
        assert load(port, "index.ipynb", CLASSMATE, host=f"gops.school.example:{port}")[0] == 421
    assert load(port, "index.ipynb", CLASSMATE, host=f"x\x1b[2J.example:{port}")[0] in (400, 421)
    deadline = time.monotonic() + 10
    while "gops.school.example" not in log.read_text() and time.monotonic() < deadline:
        time.sleep(0.2)
    text = log.read_text()
    told = [line for line in text.splitlines() if "restart with --host-name" in line]
    assert sum("--host-name gops.school.example" in line for line in told) == 1, told
    assert "\x1b" not in text  # a name a script sends never writes escape codes into the teacher's terminal


def test_a_host_name_given_to_serve_is_checked():
    done = subprocess.run([sys.executable, "-m", "gopskit.serve", "--no-browser", "--port", str(free_port()),
                           "--host-name", "pc 12"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "a host name is letters, digits, dashes and dots" in done.stderr and "'pc 12'" in done.stderr


def test_a_websocket_under_another_name_is_refused(server):
    port, _, _ = server
    status, body = load(port, "classroom.ipynb", "127.0.0.8")  # a computer of its own: one app each here
    kernel_id = re.search(r'kernelId[^0-9a-f]*([0-9a-f-]{36})', body).group(1)
    with pytest.raises(websocket.WebSocketBadStatusException) as refused:
        websocket.create_connection(f"ws://127.0.0.1:{port}/api/kernels/{kernel_id}/channels"
                                    f"?session_id={uuid.uuid4().hex}", timeout=10,
                                    host=f"evil.example:{port}", origin=f"http://evil.example:{port}")
    assert refused.value.status_code == 421


def test_when_open_files_run_out_the_server_waits_instead_of_spinning(tmp_path):
    """Open files exhausted all the same (the server's limit lowered under it): a pause and a line, not a flood."""
    path, port = tmp_path / "server.log", free_port()
    with open(path, "w") as log:
        child = subprocess.Popen([sys.executable, "-c", SERVE.format(per_client=PER_CLIENT, timeout=60, per_second=20, burst=200), str(port)],
                                 stdout=log, stderr=subprocess.STDOUT)
        socks = []
        try:
            _wait_for(f"http://localhost:{port}/voila/tree", child, 90)
            process = psutil.Process(child.pid)
            process.rlimit(psutil.RLIMIT_NOFILE, (process.num_fds() + 20, process.num_fds() + 20))
            for n in range(60):  # 6 computers, 10 half-sent requests each: more than the files left
                socks.append(half_request(port, f"127.0.0.{10 + n // 10}"))
            time.sleep(3)  # the attack holds; old servers spun here
            lines = path.read_text().count("\n")
            assert lines < 200, f"{lines} lines in the server's log: " + path.read_text()[-1500:]
            assert "out of open files" in path.read_text()
        finally:
            for sock in socks:
                sock.close()
            if child.poll() is None:
                time.sleep(1)  # the server sees them close and accepts again
                status, _ = load(port, "/voila/tree")
                stop_child(child)
    assert status == 200


def test_new_connections_are_paced_per_computer_by_hand():
    now = [100.0]
    pace = ConnectionPace(per_second=4, burst=10, clock=lambda: now[0])
    assert sum(pace.allow("pc-1") for _ in range(15)) == 10  # the burst, then nothing
    now[0] += 1.0  # 4 tokens back
    assert [pace.allow("pc-1") for _ in range(5)] == [True] * 4 + [False]
    now[0] += 60.0  # a long pause fills the bucket, and no more than full
    assert sum(pace.allow("pc-1") for _ in range(15)) == 10
    assert pace.allow("pc-2")  # every computer has its own
    now[0] -= 30.0  # a clock that steps back gives nothing back, and takes nothing
    assert not pace.allow("pc-1")


def test_the_pace_keeps_a_bounded_number_of_computers_forgetting_full_buckets_first():
    now = [0.0]
    pace = ConnectionPace(per_second=1, burst=10, clock=lambda: now[0])
    pace.MAX_COMPUTERS = 50
    for _ in range(10):
        pace.allow("flooder")  # empty
    for n in range(200):  # many computers, one connection each
        pace.allow(f"pc-{n}")
    assert len(pace._buckets) <= 50 and "flooder" in pace._buckets
    now[0] += 60.0  # all full again: forgotten, as a computer never seen
    for n in range(200, 260):
        pace.allow(f"pc-{n}")
    assert len(pace._buckets) <= 50 and "flooder" not in pace._buckets
    assert pace.allow("flooder")


def test_a_room_behind_one_address_gets_a_pace_in_proportion():
    alone = server_options(Limits(max_kernels=40), 4096)["pace"]
    room = server_options(Limits(max_kernels=40, kernels_per_client=30), 4096)["pace"]
    assert (alone.per_second, alone.burst) == (20, 200)
    assert (room.per_second, room.burst) == (20 * 480 / 64, 200 * 480 / 64)
    with pytest.raises(GopsError, match="pace of new connections is a whole number from 1 to 100000"):
        Limits(new_connections_per_second=0)
    with pytest.raises(GopsError, match="burst of new connections is a whole number from 10"):
        Limits(new_connection_burst=2)


FLOODER = "127.0.0.40"


def test_a_computer_opening_connections_in_a_loop_is_refused_in_words_and_the_others_are_not(tmp_path):
    """A real server paced at 1 new connection a second, 10 at once: 60 connections, one after another, from one computer."""
    path, port = tmp_path / "server.log", free_port()
    with open(path, "w") as log:
        child = subprocess.Popen([sys.executable, "-c", SERVE.format(per_client=PER_CLIENT, timeout=HEADER_TIMEOUT,
                                                                     per_second=1, burst=10), str(port)],
                                 stdout=log, stderr=subprocess.STDOUT)
        try:
            _wait_for(f"http://localhost:{port}/voila/tree", child, 90)
            answers, started = [], time.monotonic()
            for _ in range(60):
                sock = socket.create_connection(("127.0.0.1", port), timeout=60, source_address=(FLOODER, 0))
                sock.sendall(b"GET /no-such-page HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
                answers.append(answer_of(sock).decode(errors="replace"))
                sock.close()
            elapsed = time.monotonic() - started
            paced = [a for a in answers if a.startswith("HTTP/1.1 503")]
            served = [a for a in answers if a.startswith("HTTP/1.1 404")]
            assert len(paced) + len(served) == 60, answers[:3]
            assert 10 <= len(served) <= 10 + elapsed * 1 + 1  # the burst, then what the pace gave back meanwhile
            assert paced and all("faster than 1 a second (10 at once)" in a and "Wait a few seconds" in a for a in paced)
            assert load(port, "index.ipynb", CLASSMATE)[0] == 200  # a classmate is not affected, nor the teacher
            assert load(port, "index.ipynb")[0] == 200
            time.sleep(2.5)  # the flooder's bucket fills again: two more connections
            assert [load(port, "/no-such-page", FLOODER)[0] for _ in range(2)] == [404, 404]
        finally:
            stop_child(child)


@pytest.mark.parametrize("module", ["gopskit.server.connections", "gopskit.server.limits", "gopskit.server.handlers",
                                    "gopskit.server.kernels"])
def test_the_server_modules_keep_their_examples(module):
    import doctest
    import importlib

    assert doctest.testmod(importlib.import_module(module)).failed == 0
