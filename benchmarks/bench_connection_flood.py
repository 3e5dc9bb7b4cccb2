"""One computer opening HTTPS connections in a loop: what it costs the server, paced and not (figures, never pass/fail).

A script on the classroom network connects, completes a TLS handshake and
closes, over and over, from ``--threads`` threads for ``--seconds``
(127.0.0.42: Linux counts every 127.x address as a computer of its own).
Meanwhile a classmate (127.0.0.43) loads the folder page every half second.
Printed for ``gopskit serve`` as it ships (20 new connections a second per
computer, 200 at once) and for the peer, the same server with the pace
lifted (the kit before it had one): the handshakes the flooder got, the
server's processor time during the flood, and the classmate's load times.

    python benchmarks/bench_connection_flood.py [--seconds 10] [--threads 4]
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import socket
import ssl
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import numpy as np
import psutil

from gopskit.serve import _wait_for, free_port, stop_child

SERVE = """
import sys
from gopskit import serve
from gopskit.server.limits import Limits

limits = Limits(max_kernels=8, new_connections_per_second={per_second}, new_connection_burst={burst})
argv = serve.voila_argv(serve.notebooks_dir(), port=int(sys.argv[1]), open_browser=False, preheat=False, limits=limits)
tls = serve.served_tls(sys.argv[2], sys.argv[3])
serve._voila_app_class(limits, tls).launch_instance(argv=argv, config=serve.voila_config(False))
"""
FLOODER, CLASSMATE = "127.0.0.42", "127.0.0.43"


@contextlib.contextmanager
def serving(folder: Path, per_second: int, burst: int):
    import trustme

    authority = trustme.CA()
    certificate = authority.issue_cert("localhost", "127.0.0.1")
    certificate.private_key_and_cert_chain_pem.write_to_path(str(folder / "both.pem"))
    context = ssl.create_default_context()
    authority.configure_trust(context)
    port = free_port()
    with open(folder / "server.log", "w") as log:
        child = subprocess.Popen([sys.executable, "-c", SERVE.format(per_second=per_second, burst=burst), str(port),
                                  str(folder / "both.pem"), str(folder / "both.pem")], stdout=log,
                                 stderr=subprocess.STDOUT)
        try:
            _wait_for(f"https://localhost:{port}/voila/tree", child, 90)
            yield port, context, psutil.Process(child.pid)
        finally:
            stop_child(child)


def flood(port: int, context: ssl.SSLContext, process: psutil.Process, seconds: float, threads: int) -> dict:
    stop, shaken, refused = threading.Event(), [0] * threads, [0] * threads

    def loop(k: int) -> None:
        while not stop.is_set():
            raw = socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(FLOODER, 0))
            try:
                context.wrap_socket(raw, server_hostname="localhost").close()
                shaken[k] += 1
            except (ssl.SSLError, OSError):
                refused[k] += 1
            finally:
                raw.close()

    loads = []
    before = sum(process.cpu_times()[:2])
    workers = [threading.Thread(target=loop, args=(k,), daemon=True) for k in range(threads)]
    for worker in workers:
        worker.start()
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        started = time.monotonic()
        page = http.client.HTTPSConnection("localhost", port, timeout=60, context=context,
                                           source_address=(CLASSMATE, 0))
        page.request("GET", "/voila/tree")
        status = page.getresponse().status
        page.close()
        loads.append((status, time.monotonic() - started))
        time.sleep(0.5)
    stop.set()
    for worker in workers:
        worker.join()
    return {"shaken": sum(shaken), "refused": sum(refused), "cpu": sum(process.cpu_times()[:2]) - before,
            "loads": loads}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--threads", type=int, default=4)
    args = parser.parse_args(argv)
    print(f"{args.threads} threads of one computer opening HTTPS connections for {args.seconds:g} s")
    for name, per_second, burst in (("gopskit serve (paced)", 20, 200), ("peer: pace lifted", 100_000, 1_000_000)):
        with tempfile.TemporaryDirectory() as folder, serving(Path(folder), per_second, burst) as running:
            r = flood(*running, args.seconds, args.threads)
        times = np.array([t for _s, t in r["loads"]])
        ok = sum(s == 200 for s, _t in r["loads"])
        print(f"  {name:<22} handshakes {r['shaken']:>6} ({r['shaken'] / args.seconds:,.0f}/s), refused {r['refused']:>6}; "
              f"server CPU {r['cpu']:.1f} s ({r['cpu'] / args.seconds:.0%} of a core); classmate {ok}/{len(times)} "
              f"pages, median {np.median(times) * 1000:.0f} ms, slowest {times.max() * 1000:.0f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
