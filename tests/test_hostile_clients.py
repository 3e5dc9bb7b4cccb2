"""One client against the others on a real ``gopskit serve`` (Voila) on 127.0.0.1: the cap per client.

Two "computers" on one machine: the client sockets are bound to other
loopback addresses (127.0.0.2, 127.0.0.3; all of 127.0.0.0/8 is loopback on
Linux), which the server counts as clients like any other computer; only
127.0.0.1 and ::1 (the teacher's own browser) are exempt. The server keeps a
ready kernel for the landing page and the first board (as ``gopskit serve``
does), so both ways a page gets a kernel are charged: a ready one and a new one.
"""

from __future__ import annotations

import concurrent.futures
import http.client
import re
import sys
import time
import uuid
from pathlib import Path
from urllib.parse import urlsplit

import psutil
import pytest
import websocket

from gopskit.serve import background_server, kernel_processes

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not sys.platform.startswith("linux"), reason="needs 127.0.0.2 (Linux loopback)")]

PER_CLIENT, MAX_KERNELS = 2, 8
CULL_AFTER, CULL_EVERY = 4, 2
OPTIONS = [f"--max-kernels={MAX_KERNELS}", f"--kernels-per-client={PER_CLIENT}", f"--cull-after={CULL_AFTER}",
           f"--cull-every={CULL_EVERY}", "--pages-per-minute=1000", "--kernel-memory=1024"]
ALICE, BOB, CAROL, DAN = "127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.5"
LOGS: dict[int, Path] = {}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    path = tmp_path_factory.mktemp("serve") / "server.log"
    with open(path, "w") as log, background_server(preheat=True, log=log, options=OPTIONS) as url:
        LOGS[background_server.pid] = path
        yield urlsplit(url).port, psutil.Process(background_server.pid)


def load(port: int, page: str, source: str = "127.0.0.1", headers: dict | None = None) -> tuple[int, dict, str]:
    """GET an app from ``source`` (a loopback address standing for one computer): status, headers, body."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120, source_address=(source, 0))
    try:
        connection.request("GET", f"/voila/render/{page}", headers=headers or {})
        answer = connection.getresponse()
        return answer.status, dict(answer.getheaders()), answer.read().decode()
    finally:
        connection.close()


def assert_told_to_close_a_tab(status: int, headers: dict, body: str) -> None:
    assert status == 429, (status, body[:300])
    assert "Too many apps open on this computer" in body and "Close a gopskit tab" in body
    assert f"at most {PER_CLIENT} open at once" in body
    assert "Traceback" not in body and "/work" not in body and "127.0.0" not in body
    assert int(headers["Retry-After"]) > 0


def test_one_client_at_its_cap_leaves_the_room_to_the_others(server):
    port, process = server
    # Alice's two pages: the landing page (a ready kernel) and an app without one (a new kernel)
    assert load(port, "index.ipynb", ALICE)[0] == 200
    assert load(port, "classroom.ipynb", ALICE)[0] == 200
    assert_told_to_close_a_tab(*load(port, "goofspiel.ipynb", ALICE))  # a ready kernel is not taken either
    assert_told_to_close_a_tab(*load(port, "index.ipynb", ALICE))
    assert load(port, "no-such-app.ipynb", ALICE)[0] == 404  # a mistyped address is still "not found"
    # a header anyone can write does not make Alice someone else
    for spoof in ({"X-Forwarded-For": "10.9.8.7"}, {"X-Real-Ip": "10.9.8.7"}, {"Forwarded": "for=10.9.8.7"}):
        assert_told_to_close_a_tab(*load(port, "index.ipynb", ALICE, headers=spoof))
    # Bob is not affected, and gets the board's ready kernel Alice was refused
    assert load(port, "goofspiel.ipynb", BOB)[0] == 200
    assert load(port, "index.ipynb", BOB)[0] == 200
    # the teacher's own browser (127.0.0.1) is not held to the per-client cap
    assert [load(port, "index.ipynb")[0] for _ in range(PER_CLIENT + 1)] == [200] * (PER_CLIENT + 1)
    assert kernel_processes(process.pid) <= MAX_KERNELS
    # nobody opened a websocket: every page has gone; culling gives Alice her places back
    deadline = time.monotonic() + CULL_AFTER + CULL_EVERY + 40
    while (status := load(port, "index.ipynb", ALICE)[0]) == 429 and time.monotonic() < deadline:
        time.sleep(1)
    assert status == 200, "culled kernels still counted against their client"


def test_a_flood_from_one_client_gets_its_cap_and_the_next_client_its_page(server):
    port, process = server
    deadline = time.monotonic() + CULL_AFTER + CULL_EVERY + 40  # the previous test's pages culled first
    while kernel_processes(process.pid) > len(("index", "goofspiel")) and time.monotonic() < deadline:
        time.sleep(1)
    with concurrent.futures.ThreadPoolExecutor(13) as pool:
        flood = [pool.submit(load, port, "classroom.ipynb", CAROL) for _ in range(12)]
        time.sleep(0.5)
        bob = pool.submit(load, port, "classroom.ipynb", BOB)
        answers = [f.result() for f in flood]
        assert bob.result()[0] == 200
    statuses = sorted(a[0] for a in answers)
    assert statuses.count(200) <= PER_CLIENT and set(statuses) <= {200, 429}, statuses
    assert statuses.count(200) >= 1, statuses
    for answer in answers:
        if answer[0] == 429:
            assert_told_to_close_a_tab(*answer)
    assert kernel_processes(process.pid) <= MAX_KERNELS
    log = Path(LOGS[process.pid]).read_text()
    where = log.find("Traceback")
    assert where < 0, log[max(0, where - 600):where + 2400]  # the traceback itself, not the log's tail


def open_page(port: int, page: str, source: str) -> websocket.WebSocket:
    """Load a page and open its kernel's websocket, as a browser does; the socket is the open tab."""
    status, _, body = load(port, page, source)
    assert status == 200, (status, body[:300])
    kernel_id = re.search(r'kernelId[^0-9a-f]*([0-9a-f-]{36})', body).group(1)
    return websocket.create_connection(f"ws://127.0.0.1:{port}/api/kernels/{kernel_id}/channels"
                                       f"?session_id={uuid.uuid4().hex}", timeout=10)


def test_reloading_a_page_never_runs_into_the_cap_but_open_tabs_do(server):
    """A browser leaves a closed or reloaded page's kernel running (until culled): the next page takes its place."""
    port, process = server
    tabs = [open_page(port, "classroom.ipynb", DAN) for _ in range(PER_CLIENT)]
    try:
        assert_told_to_close_a_tab(*load(port, "classroom.ipynb", DAN))  # open tabs are never taken
        for _ in range(2 * PER_CLIENT):  # reload the first tab again and again
            tabs[0].close()
            time.sleep(0.5)  # the server sees the websocket close
            tabs[0] = open_page(port, "classroom.ipynb", DAN)
            assert kernel_processes(process.pid) <= MAX_KERNELS
        assert_told_to_close_a_tab(*load(port, "classroom.ipynb", DAN))  # still two open tabs, still the cap
    finally:
        for tab in tabs:
            tab.close()
