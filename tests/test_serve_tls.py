"""HTTPS for ``gopskit serve`` (``--certfile``, ``--keyfile``): a real server, a real certificate, hostile connections.

The certificate comes from a test authority (trustme); the clients here
trust it, as a school's devices would trust the school's.
"""

from __future__ import annotations

import contextlib
import http.client
import socket
import ssl
import subprocess
import sys
import time

import pytest

from gopskit.errors import GopsError
from gopskit.serve import _wait_for, free_port, served_tls, stop_child, tls_lines
from gopskit.server.connections import CertificateError, tls_context

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not sys.platform.startswith("linux"), reason="needs 127.0.0.2 (Linux loopback)")]

PER_CLIENT, HEADER_TIMEOUT = 16, 3  # 16: the least one computer gets (one app at a time, connections_per_client)
HOSTILE, CLASSMATE = "127.0.0.2", "127.0.0.3"
SERVE = """
import sys
from gopskit import serve
from gopskit.server.limits import Limits

limits = Limits(max_kernels=8, kernel_memory_mb=1024, pages_per_minute=1000, kernels_per_client=1,
                max_connections_per_client={per_client}, header_timeout_seconds={timeout},
                new_connections_per_second={per_second}, new_connection_burst={burst})
argv = serve.voila_argv(serve.notebooks_dir(), port=int(sys.argv[1]), open_browser=False, preheat=False, limits=limits)
tls = serve.served_tls(sys.argv[2], sys.argv[3])
serve._voila_app_class(limits, tls).launch_instance(argv=argv, config=serve.voila_config(False))
"""


@pytest.fixture(scope="module")
def authority():
    import trustme

    return trustme.CA()


@pytest.fixture(scope="module")
def pem_files(authority, tmp_path_factory):
    folder = tmp_path_factory.mktemp("tls")
    certificate = authority.issue_cert("localhost", "127.0.0.1")
    certificate.cert_chain_pems[0].write_to_path(str(folder / "cert.pem"))
    for blob in certificate.cert_chain_pems[1:]:
        blob.write_to_path(str(folder / "cert.pem"), append=True)
    certificate.private_key_pem.write_to_path(str(folder / "key.pem"))
    return folder / "cert.pem", folder / "key.pem"


@contextlib.contextmanager
def _serving(pem_files, folder, per_second=20, burst=200):
    log_path, port = folder / "server.log", free_port()
    code = SERVE.format(per_client=PER_CLIENT, timeout=HEADER_TIMEOUT, per_second=per_second, burst=burst)
    with open(log_path, "w") as log:
        child = subprocess.Popen([sys.executable, "-c", code, str(port), str(pem_files[0]), str(pem_files[1])],
                                 stdout=log, stderr=subprocess.STDOUT)
        try:
            _wait_for(f"https://localhost:{port}/voila/tree", child, 90)
            yield port, log_path
        finally:
            stop_child(child)


@pytest.fixture(scope="module")
def server(pem_files, tmp_path_factory):
    with _serving(pem_files, tmp_path_factory.mktemp("serve-tls")) as running:
        yield running


def _trusting(authority) -> ssl.SSLContext:
    context = ssl.create_default_context()
    authority.configure_trust(context)
    return context


def _get(port: int, authority, path: str = "/voila/render/index.ipynb", source: str = "127.0.0.1"):
    connection = http.client.HTTPSConnection("localhost", port, timeout=120, context=_trusting(authority),
                                             source_address=(source, 0))
    try:
        connection.request("GET", path)
        answer = connection.getresponse()
        return answer.status, answer.read().decode()
    finally:
        connection.close()


def _held(port: int, authority, source: str) -> ssl.SSLSocket:
    """A TLS connection that completes its handshake, says half a request and waits."""
    raw = socket.create_connection(("127.0.0.1", port), timeout=60, source_address=(source, 0))
    sock = _trusting(authority).wrap_socket(raw, server_hostname="localhost")
    sock.sendall(b"GET /voila/render/index.ipynb HTTP/1.1\r\nHost: localhost\r\n")
    return sock


def _all_of(sock) -> bytes:
    data = b""
    while chunk := sock.recv(65536):
        data += chunk
    return data


def test_pages_are_served_over_https_and_plain_http_gets_nothing(server, authority):
    port, _log = server
    status, body = _get(port, authority)
    assert status == 200 and "gopskit" in body.lower()
    plain = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    with pytest.raises((http.client.HTTPException, ConnectionError, OSError)):
        plain.request("GET", "/voila/render/index.ipynb", headers={"Host": "localhost"})
        plain.getresponse().read()
    plain.close()


def test_tls_connections_are_counted_per_computer_and_freed_when_closed(server, authority):
    """The bound on one computer's connections holds for TLS too, and closing them gives their places back."""
    port, _log = server
    held = [_held(port, authority, HOSTILE) for _ in range(PER_CLIENT)]
    try:
        raw = socket.create_connection(("127.0.0.1", port), timeout=60, source_address=(HOSTILE, 0))
        refused = _trusting(authority).wrap_socket(raw, server_hostname="localhost")
        answer = _all_of(refused).decode()  # the refusal in words, over TLS (a browser shows them), then closed
        refused.close()
        assert answer.startswith("HTTP/1.1 503") and f"This computer has {PER_CLIENT} connections open" in answer
        silent = socket.create_connection(("127.0.0.1", port), timeout=60, source_address=(HOSTILE, 0))
        started = time.monotonic()
        assert _all_of(silent) == b""  # a refused connection that never shakes hands is closed soon
        silent.close()
        assert time.monotonic() - started < 20
        assert _get(port, authority, source=CLASSMATE)[0] == 200  # a classmate is not affected
    finally:
        for sock in held:
            sock.close()
    deadline = time.monotonic() + 30
    while True:  # the server notices the closed connections as it reads them
        try:
            again = [_get(port, authority, "/voila/tree", source=HOSTILE)[0] for _ in range(PER_CLIENT + 2)]  # no kernels
            assert again == [200] * (PER_CLIENT + 2)
            break
        except (AssertionError, OSError, http.client.HTTPException):
            if time.monotonic() > deadline:
                raise
            time.sleep(0.5)


def test_a_connection_that_never_starts_its_handshake_is_closed(server):
    port, _log = server
    silent = socket.create_connection(("127.0.0.1", port), timeout=60, source_address=(HOSTILE, 0))
    started = time.monotonic()
    try:
        assert _all_of(silent) == b""  # closed by the server, not by this socket's 60 s timeout
    finally:
        silent.close()
    assert time.monotonic() - started < 30


def test_a_computer_opening_tls_connections_in_a_loop_is_closed_before_any_handshake(pem_files, authority, tmp_path):
    """Paced at 1 a second, 10 at once: of 40 handshakes in a row the pace refuses some, without one of its own."""
    with _serving(pem_files, tmp_path, per_second=1, burst=10) as (port, _log):
        shaken, closed, started = 0, 0, time.monotonic()
        for _ in range(40):
            raw = socket.create_connection(("127.0.0.1", port), timeout=60, source_address=("127.0.0.41", 0))
            try:
                _trusting(authority).wrap_socket(raw, server_hostname="localhost").close()
                shaken += 1
            except (ssl.SSLError, OSError):  # closed before the handshake: the client sees it end
                closed += 1
            finally:
                raw.close()
        elapsed = time.monotonic() - started
        assert shaken + closed == 40 and 10 <= shaken <= 10 + elapsed * 1 + 1 and closed > 0
        assert _get(port, authority, source=CLASSMATE)[0] == 200  # a classmate is not affected


def test_bad_certificate_files_are_refused_with_the_reason(pem_files, tmp_path, authority):
    cert, key = pem_files
    with pytest.raises(CertificateError, match="no such file: .*missing.pem"):
        tls_context(tmp_path / "missing.pem")
    with pytest.raises(CertificateError, match="no such file: .*missing-key.pem"):
        tls_context(cert, tmp_path / "missing-key.pem")
    with pytest.raises(CertificateError, match="not a file: "):
        tls_context(tmp_path)
    (tmp_path / "junk.pem").write_text("not a certificate\n")
    with pytest.raises(CertificateError, match="are not a PEM certificate and its private key"):
        tls_context(tmp_path / "junk.pem", key)
    other = authority.issue_cert("localhost")
    other.private_key_pem.write_to_path(str(tmp_path / "other-key.pem"))
    with pytest.raises(CertificateError, match="are not a PEM certificate and its private key"):
        tls_context(cert, tmp_path / "other-key.pem")  # the key of another certificate
    with pytest.raises(GopsError, match="--keyfile goes with --certfile"):
        served_tls(None, str(key))
    with pytest.raises(GopsError, match="cannot serve HTTPS: no such file.*Give --certfile a PEM certificate"):
        served_tls(str(tmp_path / "missing.pem"), None)
    assert served_tls(None, None) is None and isinstance(served_tls(str(cert), str(key)), ssl.SSLContext)


def test_the_command_line_refuses_a_missing_certificate_before_serving(tmp_path):
    done = subprocess.run([sys.executable, "-m", "gopskit.cli", "serve", "--no-browser", "--port", str(free_port()),
                           "--certfile", str(tmp_path / "missing.pem")], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, done.stderr
    assert f"cannot serve HTTPS: no such file: {tmp_path / 'missing.pem'}" in done.stderr and "Traceback" not in done.stderr


def test_what_serve_says_of_encryption():
    assert tls_lines("localhost", None) == []  # this computer only: nothing crosses a network
    assert "anyone on it can read the passcode" in tls_lines("0.0.0.0", None)[0]
    assert tls_lines("0.0.0.0", "cert.pem")[0].startswith("HTTPS: the students' browsers must trust this certificate")
