"""The served apps under attack: server memory and live kernels, measured (figures, never pass/fail).

1. **The websocket attack** (issue 14): open the tournament app, then a
   websocket to its kernel *without* the binary subprotocol, and ask for all
   widget states. Prints the server's resident memory before, at its peak
   during ``--attack-seconds`` and after the client left, for ``gopskit
   serve`` and for the peer, stock Voila 0.5 on the same notebooks (stopped
   early once it has grown by ``--peer-cap-mb``: it does not stop by itself).
2. **Abandoned page loads**: ``--loads`` GETs of the classroom page (``--workers``
   at a time), none of which opens its websocket: a reload storm, or anyone on
   the network doing it on purpose. Prints how many were served and how many
   got "the room is full", the memory of the server and its kernels after the
   storm, then the kernels alive every ``--every`` seconds until all are freed.
3. **One client fills the room** (Linux: the clients are 127.0.0.2 and
   127.0.0.3, other loopback addresses, which count as computers): one
   client loads ``--client-loads`` classroom pages at once and keeps them;
   then a second client loads one. Prints what each got, for ``gopskit
   serve`` with its cap per client (``--per-client``) and for the peer, the
   same server with no cap per client (``--kernels-per-client=500``).

Run: ``.venv/bin/python benchmarks/bench_server.py [--loads 100] [--max-kernels 10] [--sections 1,2,3]``
(the server's default idle culling: 60 s idle, checked every 20 s).
"""

from __future__ import annotations

import argparse
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

import psutil
import websocket

from gopskit.serve import _wait_for, background_server, free_port, notebooks_dir

MB = 1 << 20


def get(url: str, timeout: float = 180) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=timeout) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as refused:
        return refused.code, refused.read().decode()
    except OSError as failed:
        return 0, str(failed)


def tree_memory(process: psutil.Process) -> tuple[float, float, int]:
    """(server MB, kernels MB, number of kernels): resident memory of the server and its children."""
    server = process.memory_info().rss / MB
    kernels, count = 0.0, 0
    for child in process.children(recursive=True):
        try:
            if "kernel" in " ".join(child.cmdline()):
                kernels += child.memory_info().rss / MB
                count += 1
        except psutil.NoSuchProcess:
            pass
    return server, kernels, count


def _message(msg_type: str, content: dict, session: str) -> str:
    header = {"msg_id": uuid.uuid4().hex, "username": "x", "session": session, "msg_type": msg_type,
              "version": "5.3", "date": "2020-01-01T00:00:00Z"}
    return json.dumps({"header": header, "parent_header": {}, "metadata": {"version": "1.0.0"},
                       "content": content, "channel": "shell", "buffers": []})


def attack(url: str, process: psutil.Process, seconds: float, cap_mb: float) -> dict:
    """The issue's client; returns the server's MB before, at peak, after, and whether it kept answering."""
    status, page = get(f"{url}/voila/render/tournament.ipynb")
    kernel_id = re.search(r'kernelId[^0-9a-f]*([0-9a-f-]{36})', page).group(1)
    before = peak = process.memory_info().rss / MB
    session = uuid.uuid4().hex
    ws = websocket.create_connection(f"{url.replace('http', 'ws')}/api/kernels/{kernel_id}/channels"
                                     f"?session_id={session}", timeout=5)
    comm = uuid.uuid4().hex
    ws.send(_message("comm_open", {"comm_id": comm, "target_name": "jupyter.widget.control", "data": {}}, session))
    ws.send(_message("comm_msg", {"comm_id": comm, "data": {"method": "request_states"}}, session))
    ws.settimeout(0.5)
    started, stopped_early = time.monotonic(), False
    while time.monotonic() - started < seconds:
        try:
            ws.recv()
        except (websocket.WebSocketTimeoutException, websocket.WebSocketConnectionClosedException):
            pass
        peak = max(peak, process.memory_info().rss / MB)
        if peak - before > cap_mb:
            stopped_early = True
            break
    elapsed = time.monotonic() - started
    ws.close()
    time.sleep(2)
    after = process.memory_info().rss / MB
    answering = get(f"{url}/voila/api/contents", timeout=5)[0] == 200  # needs no kernel (no free place)
    return {"before": before, "peak": peak, "after": after, "seconds": elapsed, "stopped_early": stopped_early,
            "answering": answering}


def print_attack(name: str, r: dict) -> None:
    rate = (r["peak"] - r["before"]) / r["seconds"]
    print(f"  {name:<14} before {r['before']:7.0f} MB   peak {r['peak']:7.0f} MB   after {r['after']:7.0f} MB   "
          f"growth {rate:6.1f} MB/s over {r['seconds']:4.1f} s   still answering: {'yes' if r['answering'] else 'NO'}"
          + ("   (stopped early: it kept growing)" if r["stopped_early"] else ""))


def stock_voila(port: int, log):
    """The peer: stock Voila on the same notebooks, no gopskit handlers, no limits."""
    command = [sys.executable, "-m", "voila", str(notebooks_dir()), f"--port={port}", "--no-browser",
               "--Voila.ip=localhost", "--show_tracebacks=False", "--strip_sources=True"]
    return subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)


def abandoned_loads(url: str, process: psutil.Process, loads: int, workers: int, every: float, limit: float) -> None:
    server0, kernels0, count0 = tree_memory(process)
    print(f"  before: server {server0:.0f} MB, {count0} kernels ({kernels0:.0f} MB)")
    started = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(workers) as pool:
        statuses = [s for s, _ in pool.map(lambda _: get(f"{url}/voila/render/classroom.ipynb"), range(loads))]
    took = time.monotonic() - started
    server1, kernels1, count1 = tree_memory(process)
    print(f"  {loads} loads in {took:.0f} s: {statuses.count(200)} served, {statuses.count(503)} 'room is full', "
          f"{len(statuses) - statuses.count(200) - statuses.count(503)} other")
    print(f"  after the storm: server {server1:.0f} MB (+{server1 - server0:.0f}), "
          f"{count1} kernels ({kernels1:.0f} MB, +{kernels1 - kernels0:.0f})")
    print("  kernels alive over time (seconds after the storm: kernels, their MB):")
    storm_end = time.monotonic()
    line = []
    while True:
        server, kernels, count = tree_memory(process)
        line.append(f"{time.monotonic() - storm_end:4.0f}s:{count:3d} ({kernels:4.0f} MB)")
        if count <= count0 or time.monotonic() - storm_end > limit:
            break
        time.sleep(every)
    for i in range(0, len(line), 5):
        print("    " + "   ".join(line[i:i + 5]))
    server2, kernels2, count2 = tree_memory(process)
    print(f"  at the end: server {server2:.0f} MB, {count2} kernels ({kernels2:.0f} MB); "
          f"a new page loads: {'yes' if get(f'{url}/voila/render/classroom.ipynb')[0] == 200 else 'NO'}")


def load_from(url: str, source: str, page: str = "classroom.ipynb") -> tuple[int, float]:
    """GET an app with the client socket bound to ``source`` (one loopback address, one computer)."""
    port = int(url.rsplit(":", 1)[1])
    started = time.monotonic()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=180, source_address=(source, 0))
    try:
        connection.request("GET", f"/voila/render/{page}")
        answer = connection.getresponse()
        answer.read()
        return answer.status, time.monotonic() - started
    except OSError:
        return 0, time.monotonic() - started
    finally:
        connection.close()


def one_client_fills(url: str, process: psutil.Process, loads: int) -> None:
    """Client A loads ``loads`` pages at once and keeps them; then client B loads one."""
    with concurrent.futures.ThreadPoolExecutor(loads) as pool:
        flood = [s for s, _ in pool.map(lambda _: load_from(url, "127.0.0.2"), range(loads))]
    alive = tree_memory(process)[2]
    status, seconds = load_from(url, "127.0.0.3")
    verdict = {200: "served", 503: "'the room is full'", 429: "'close another tab'"}.get(status, f"HTTP {status}")
    print(f"    client A: {flood.count(200)} served, {flood.count(429)} 'close another tab', "
          f"{flood.count(503)} 'the room is full', {len(flood) - flood.count(200) - flood.count(429) - flood.count(503)}"
          f" other; kernels alive: {alive}")
    print(f"    client B, next: {verdict} in {seconds:.1f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--loads", type=int, default=100)
    parser.add_argument("--workers", type=int, default=10)
    parser.add_argument("--max-kernels", type=int, default=10)
    parser.add_argument("--attack-seconds", type=float, default=10)
    parser.add_argument("--peer-cap-mb", type=float, default=1500)
    parser.add_argument("--every", type=float, default=10)
    parser.add_argument("--skip-peer", action="store_true")
    parser.add_argument("--client-loads", type=int, default=20)
    parser.add_argument("--per-client", type=int, default=4)
    parser.add_argument("--sections", default="1,2,3", help="which measures to run, e.g. 3")
    args = parser.parse_args()
    sections = set(args.sections.split(","))
    options = [f"--max-kernels={args.max_kernels}", "--pages-per-minute=100000"]
    if "1" in sections:
        websocket_attack(args, options)
    if "2" in sections:
        print(f"\n2. {args.loads} abandoned page loads of the classroom page ({args.workers} at a time, "
              f"cap {args.max_kernels} kernels, default culling)")
        with open("/dev/null", "w") as log, background_server(preheat=True, log=log, options=options) as url:
            abandoned_loads(url, psutil.Process(background_server.pid), args.loads, args.workers, args.every, 240)
    if "3" in sections:
        print(f"\n3. one client loads {args.client_loads} classroom pages at once and keeps them, "
              f"then another client loads one (room of {args.max_kernels} kernels)")
        for name, per_client in (("gopskit serve", args.per_client), ("no per-client cap", 500)):
            print(f"  {name} (--kernels-per-client={per_client}):")
            with open("/dev/null", "w") as log, background_server(
                    preheat=False, log=log, options=[*options, f"--kernels-per-client={per_client}"]) as url:
                one_client_fills(url, psutil.Process(background_server.pid), args.client_loads)


def websocket_attack(args, options) -> None:
    print("1. websocket attack (no subprotocol, request_states on the tournament app)")
    with open("/dev/null", "w") as log, background_server(preheat=False, log=log, options=options) as url:
        print_attack("gopskit serve", attack(url, psutil.Process(background_server.pid), args.attack_seconds, 1500))
    if not args.skip_peer:
        port = free_port()
        with open("/dev/null", "w") as log:
            child = stock_voila(port, log)
            try:
                _wait_for(f"http://localhost:{port}/voila/tree", child, 90)
                print_attack("stock Voila", attack(f"http://localhost:{port}", psutil.Process(child.pid),
                                                   args.attack_seconds, args.peer_cap_mb))
            finally:
                child.kill()
                child.wait()
                for orphan in psutil.Process().children(recursive=True):  # its kernels, if any outlived it
                    orphan.kill()


if __name__ == "__main__":
    main()
