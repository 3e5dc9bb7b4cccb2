"""Hostile clients against a real ``gopskit serve`` (Voila) on 127.0.0.1: every attack ends bounded.

Each test measures the server process (and its kernels) with psutil, stops
early when a bound is crossed, and checks that the server still answers.
The limits are set small through ``python -m gopskit.serve`` options so the
file runs in well under two minutes.
"""

from __future__ import annotations

import concurrent.futures
import http.client
import json
import re
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path
from urllib.parse import urlsplit

import psutil
import pytest
import websocket

from gopskit.serve import background_server
from gopskit.server.kernel_launcher import FRIENDLY

pytestmark = pytest.mark.slow

MB = 1 << 20
LOGS: dict[int, Path] = {}
MAX_KERNELS = 3
CULL_AFTER, CULL_EVERY = 4, 2
OPTIONS = [f"--max-kernels={MAX_KERNELS}", f"--cull-after={CULL_AFTER}", f"--cull-every={CULL_EVERY}",
           "--pages-per-minute=1000", "--kernel-memory=1024", f"--max-pending-bytes={2 * MB}"]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    path = tmp_path_factory.mktemp("serve") / "server.log"
    log = open(path, "w")
    with background_server(preheat=False, log=log, options=OPTIONS) as url:
        LOGS[background_server.pid] = path
        yield url, psutil.Process(background_server.pid)
    log.close()


def server_log(process: psutil.Process) -> str:
    """What the server has written to its log (the fixture's file)."""
    return Path(LOGS[process.pid]).read_text()


def kernels(process: psutil.Process) -> list[psutil.Process]:
    """The server's kernel processes (each started through the kit's launcher)."""
    found = []
    for child in process.children(recursive=True):
        try:
            if "gopskit.server.kernel_launcher" in " ".join(child.cmdline()):
                found.append(child)
        except psutil.NoSuchProcess:
            pass
    return found


def wait_for_no_kernels(process: psutil.Process, within: float) -> float:
    started = time.monotonic()
    while kernels(process):
        assert time.monotonic() - started < within, f"kernels still alive after {within} s"
        time.sleep(0.5)
    return time.monotonic() - started


def get(url: str, timeout: float = 120) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=timeout) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as refused:
        return refused.code, refused.read().decode()


def assert_still_answering(url: str) -> None:
    """The server answers a request that needs no kernel (the list of apps), whether or not the room is full."""
    status, body = get(f"{url}/voila/api/contents", timeout=10)
    assert status == 200 and "goofspiel.ipynb" in body, status


def message(msg_type: str, content: dict, session: str) -> str:
    header = {"msg_id": uuid.uuid4().hex, "username": "x", "session": session, "msg_type": msg_type,
              "version": "5.3", "date": "2020-01-01T00:00:00Z"}
    return json.dumps({"header": header, "parent_header": {}, "metadata": {"version": "1.0.0"},
                       "content": content, "channel": "shell", "buffers": []})


def test_request_states_without_the_binary_subprotocol_stays_bounded(server):
    """The issue's attack: before the fix the server grew ~40 MB/s and stopped answering."""
    url, process = server
    wait_for_no_kernels(process, 30)
    status, page = get(f"{url}/voila/render/tournament.ipynb")
    assert status == 200
    kernel_id = re.search(r'kernelId[^0-9a-f]*([0-9a-f-]{36})', page).group(1)
    before = process.memory_info().rss
    session = uuid.uuid4().hex
    ws = websocket.create_connection(f"{url.replace('http', 'ws')}/api/kernels/{kernel_id}/channels"
                                     f"?session_id={session}", timeout=5)  # no subprotocol
    comm = uuid.uuid4().hex
    ws.send(message("comm_open", {"comm_id": comm, "target_name": "jupyter.widget.control", "data": {}}, session))
    ws.send(message("comm_msg", {"comm_id": comm, "data": {"method": "request_states"}}, session))
    states, deadline, peak = None, time.monotonic() + 30, before
    ws.settimeout(1)
    while states is None and time.monotonic() < deadline:
        peak = max(peak, process.memory_info().rss)
        assert peak - before < 300 * MB, f"server grew {(peak - before) / MB:.0f} MB"
        try:
            reply = ws.recv()
        except websocket.WebSocketTimeoutException:
            continue
        if isinstance(reply, bytes):  # the widget states, with their binary buffers
            states = reply
    ws.close()
    assert states is not None, "the states reply never came"
    time.sleep(3)  # the issue: the growth went on after the client left
    after = process.memory_info().rss
    assert after - before < 100 * MB, f"server grew {(after - before) / MB:.0f} MB"
    assert_still_answering(url)


def open_channels(url: str, kernel_id: str, **options) -> websocket.WebSocket:
    return websocket.create_connection(f"{url.replace('http', 'ws')}/api/kernels/{kernel_id}/channels"
                                       f"?session_id={uuid.uuid4().hex}", timeout=5, **options)


def test_a_client_that_never_reads_is_disconnected(server):
    """Ask for the tournament's widget states (60 KB each) 400 times, read nothing: cut off, not buffered.

    400 requests ask for 24 MB and stay within the burst a page may send at
    once (more is a flood, cut off for that). The server here lets 2 MB wait
    for a page (32 MB by default)."""
    url, process = server
    status, page = get(f"{url}/voila/render/tournament.ipynb")
    kernel_id = re.search(r'kernelId[^0-9a-f]*([0-9a-f-]{36})', page).group(1)
    before = process.memory_info().rss
    ws = open_channels(url, kernel_id)
    session = uuid.uuid4().hex
    comm = uuid.uuid4().hex
    ws.send(message("comm_open", {"comm_id": comm, "target_name": "jupyter.widget.control", "data": {}}, session))
    closed, deadline, peak = False, time.monotonic() + 60, before
    try:
        for _ in range(400):  # each request its own message (the kernel refuses a repeated signature)
            ws.send(message("comm_msg", {"comm_id": comm, "data": {"method": "request_states"}}, session))
    except (websocket.WebSocketException, OSError):
        closed = True
    while not closed and time.monotonic() < deadline:
        peak = max(peak, process.memory_info().rss)
        assert peak - before < 400 * MB, f"server grew {(peak - before) / MB:.0f} MB"
        time.sleep(1)
        # the server closes its side; our unread data still fills our buffer, so ask the server's log
        closed = "bytes waiting unread" in server_log(process)
    ws.close()
    assert closed, "the server kept buffering for a client that does not read" + server_log(process)[-3000:]
    time.sleep(2)
    assert process.memory_info().rss - before < 150 * MB
    assert_still_answering(url)


def test_one_kernel_takes_a_bounded_number_of_websockets(server):
    url, _ = server
    status, page = get(f"{url}/voila/render/classroom.ipynb")
    kernel_id = re.search(r'kernelId[^0-9a-f]*([0-9a-f-]{36})', page).group(1)
    sockets = []
    try:
        for _ in range(6):
            sockets.append(open_channels(url, kernel_id))
        time.sleep(1)
        with pytest.raises(websocket.WebSocketBadStatusException) as refused:
            sockets.append(open_channels(url, kernel_id))
        assert refused.value.status_code == 429
    finally:
        for ws in sockets:
            ws.close()


def test_forged_part_counts_are_dropped(server):
    """Jupyter Server trusts the part count of a binary message; a forged one is dropped, not parsed."""
    url, process = server
    status, page = get(f"{url}/voila/render/classroom.ipynb")
    kernel_id = re.search(r'kernelId[^0-9a-f]*([0-9a-f-]{36})', page).group(1)
    before = process.memory_info().rss
    for protocol, forged in ((["v1.kernel.websocket.jupyter.org"], (2 ** 60).to_bytes(8, "little") + b"x" * 16),
                             (None, b"\x7f\xff\xff\xff" + b"x" * 16)):
        ws = websocket.create_connection(f"{url.replace('http', 'ws')}/api/kernels/{kernel_id}/channels"
                                         f"?session_id={uuid.uuid4().hex}", timeout=5, subprotocols=protocol)
        ws.send_binary(forged)
        time.sleep(1)
        ws.close()
    assert process.memory_info().rss - before < 100 * MB
    assert_still_answering(url)


def test_a_page_load_flood_meets_the_cap_and_is_culled(server):
    """40 simultaneous loads: at most MAX_KERNELS kernels, the rest get 'the room is full'; all freed."""
    url, process = server
    wait_for_no_kernels(process, 30)
    before = process.memory_info().rss
    peak_kernels = 0

    def load(_):
        return get(f"{url}/voila/render/classroom.ipynb")

    with concurrent.futures.ThreadPoolExecutor(40) as pool:
        answers = pool.map(load, range(40))
        statuses = []
        for status, body in answers:
            peak_kernels = max(peak_kernels, len(kernels(process)))
            statuses.append(status)
            if status == 503:
                assert "The room is full" in body and f"at most {MAX_KERNELS} apps" in body
                assert "Traceback" not in body
    assert set(statuses) <= {200, 503}, statuses
    assert 1 <= statuses.count(200) <= MAX_KERNELS, statuses
    assert peak_kernels <= MAX_KERNELS
    assert process.memory_info().rss - before < 200 * MB
    # nobody opened a websocket: every page has "gone"; culled within idle time + interval (+ start-up slack)
    waited = wait_for_no_kernels(process, CULL_AFTER + CULL_EVERY + 20)
    print(f"flood: {statuses.count(200)} served, {statuses.count(503)} refused; all kernels freed {waited:.1f} s later")
    assert get(f"{url}/voila/render/classroom.ipynb")[0] == 200  # the room has places again


def test_kernels_run_under_the_memory_limit(server):
    url, process = server
    assert get(f"{url}/voila/render/classroom.ipynb")[0] == 200
    (kernel,) = kernels(process)[:1]
    limits = open(f"/proc/{kernel.pid}/limits").read()
    line = next(x for x in limits.splitlines() if x.startswith("Max data size"))
    assert line.split()[3] == str(1024 * MB), line


def test_logout_is_a_redirect_to_the_apps(server):
    url, _ = server
    parts = urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
    connection.request("GET", "/logout")
    answer = connection.getresponse()
    assert answer.status == 302
    assert answer.getheader("Location").endswith("/voila/render/index.ipynb")
    connection.close()


def test_a_fast_address_is_asked_to_wait(tmp_path):
    with background_server(preheat=False, options=["--pages-per-minute=3", "--pace-loopback"],
                           log=open(tmp_path / "server.log", "w")) as url:
        statuses = [get(f"{url}/voila/render/nothing-here.ipynb", timeout=10)[0] for _ in range(5)]
        assert statuses == [404, 404, 404, 429, 429]
        body = get(f"{url}/voila/render/index.ipynb", timeout=10)[1]
        assert "Too many pages" in body and "Traceback" not in body
    with background_server(preheat=False, options=["--pages-per-minute=3"],
                           log=open(tmp_path / "server2.log", "w")) as url:  # this computer itself is not paced
        assert [get(f"{url}/voila/render/nothing-here.ipynb", timeout=10)[0] for _ in range(5)] == [404] * 5


def test_a_memory_hog_gets_a_memory_error_not_the_machine():
    hog = subprocess.run([sys.executable, "-m", "gopskit.server.kernel_launcher", "--memory-mb", "300", "--",
                          sys.executable, "-c", "bytearray(600 << 20)"], capture_output=True, text=True, timeout=60)
    assert hog.returncode == 1 and "MemoryError" in hog.stderr


def test_callback_errors_reach_the_page_as_a_friendly_line(tmp_path):
    """A widget callback that raises: the browser gets FRIENDLY, never a traceback or a server path."""
    from jupyter_client import KernelManager

    from gopskit.server.kernel_launcher import launcher_argv

    class Launched(KernelManager):  # a blocking twin of gopskit.server.kernels.LimitedKernelManager
        def format_kernel_cmd(self, extra_arguments=None):
            return launcher_argv(1024, super().format_kernel_cmd(extra_arguments))

    manager = Launched(kernel_name="python3")
    manager.start_kernel(cwd=str(tmp_path))
    client = manager.client()
    client.start_channels()
    try:
        client.wait_for_ready(timeout=60)
        code = ("import ipywidgets, warnings\n"
                "b = ipywidgets.Button()\n"
                "b.on_click(lambda _: open('/no/such/file/anywhere'))\n"
                "b.click()\n"
                "warnings.warn('a warning naming ' + __file__ if '__file__' in dir() else 'a warning')\n")
        seen = []
        client.execute(code)
        while True:
            msg = client.get_iopub_msg(timeout=30)
            seen.append(msg)
            if msg["msg_type"] == "status" and msg["content"]["execution_state"] == "idle":
                break
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)
    errors = [m["content"] for m in seen if m["msg_type"] == "error"]
    assert errors and all(e["evalue"] == FRIENDLY and e["traceback"] == [FRIENDLY] for e in errors)
    # execute_input echoes this test's own code; pages never get it (Voila holds it back)
    text = json.dumps([m["content"] for m in seen if m["msg_type"] != "execute_input"])
    assert "/no/such/file" not in text and "Traceback" not in text and "warning" not in text


def test_a_page_that_floods_its_kernel_with_messages_is_disconnected(server):
    """3,000 widget updates as fast as a script can send them: once, a classmate's page then took 27 s to open."""
    url, process = server
    status, page = get(f"{url}/voila/render/classroom.ipynb")
    kernel_id = re.search(r'kernelId[^0-9a-f]*([0-9a-f-]{36})', page).group(1)
    ws = open_channels(url, kernel_id)
    session, comm = uuid.uuid4().hex, uuid.uuid4().hex
    update = {"comm_id": comm, "data": {"method": "update", "state": {"value": "x" * 100}, "buffer_paths": []}}
    try:
        for _ in range(3000):
            ws.send(message("comm_msg", update, session))
    except (websocket.WebSocketException, OSError):
        pass  # closed by the server while we were still sending
    ws.settimeout(1)
    closed, deadline = None, time.monotonic() + 30
    while closed is None and time.monotonic() < deadline:
        try:
            frame = ws.recv_data_frame(control_frame=True)[1]
        except websocket.WebSocketTimeoutException:
            continue
        except (websocket.WebSocketException, OSError):
            break
        if frame.opcode == websocket.ABNF.OPCODE_CLOSE:
            closed = int.from_bytes(frame.data[:2], "big")
    ws.close()
    assert closed == 1008, closed
    assert "more than 100 messages a second" in server_log(process)
    time.sleep(2)  # the kernel's replies to the flood arrive after the close
    blank = [line for line in server_log(process).splitlines() if line.rstrip().endswith("WARNING |")]
    assert not blank, f"{len(blank)} empty warnings in the teacher's terminal"
    assert_still_answering(url)
