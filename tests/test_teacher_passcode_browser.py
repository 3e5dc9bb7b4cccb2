"""The teacher passcode in a real browser: a real Voila server started with one, and Chromium.

The teacher's page asks for the passcode before the room form; a wrong one
is refused with the message and nothing else; the right one (typed in any
case, sent with Enter) shows the form and the room opens; a reload reopens
the room from the key the browser saved without asking again; a second
browser (another laptop) is asked again. Fails (never skips) without Chromium.
"""

from __future__ import annotations


import pytest
from test_classroom_browser import LOAD_MS, STEP_MS, _open, chromium, classroom_voila  # noqa: F401  (a fixture)

from gopskit.classroom import ClassroomStore
from gopskit.classroom.tokens import shown_code
from gopskit.widgets.classroom import WRONG_PASSCODE

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PASSCODE = "Gops-Lesson-4-Room"
LOCKED = ".gopskit-passcode-input"


@pytest.fixture(scope="module")
def locked_server(tmp_path_factory):
    with classroom_voila(tmp_path_factory, "passcode", preheat=False,
                         options=[f"--teacher-passcode={PASSCODE}"]) as (url, store, folder):
        yield url, store, folder / "voila.log"


def _rooms(store: str) -> list[str]:
    shop = ClassroomStore(store)
    try:
        return [r["code"] for r in shop.db.run(lambda tx: tx.all("SELECT code FROM rooms"), write=False)]
    finally:
        shop.close()


def test_the_teachers_page_asks_for_the_passcode_and_a_reload_does_not(locked_server, chromium):  # noqa: F811
    url, store, log = locked_server
    assert "gopskit: Teacher passcode: the one in --teacher-passcode" in log.read_text()
    assert PASSCODE not in log.read_text()  # the teacher's own is never printed
    teacher = _open(chromium, url, "classroom-teacher.ipynb", LOCKED)
    assert not teacher.locator(".gopskit-create-room").is_visible()
    assert "gopskit serve" in teacher.locator(".gopskit-form").first.inner_text()
    teacher.locator(f"{LOCKED} input").fill("Gops-Lesson-4-Roam")
    teacher.locator(".gopskit-unlock").click()
    teacher.wait_for_function("t => document.querySelector('.gopskit-message').innerText.includes(t)",
                              arg=WRONG_PASSCODE, timeout=STEP_MS)
    assert teacher.locator(".gopskit-message").inner_text().strip() == WRONG_PASSCODE
    assert not teacher.locator(".gopskit-create-room").is_visible() and teacher.locator(LOCKED).is_visible()
    assert teacher.locator(f"{LOCKED} input").input_value() == ""
    assert _rooms(store) == []
    teacher.locator(f"{LOCKED} input").fill("gops lesson 4 room")  # any case, spaces for dashes
    teacher.locator(f"{LOCKED} input").press("Enter")
    teacher.locator(".gopskit-create-room").wait_for(state="visible", timeout=STEP_MS)
    assert not teacher.locator(LOCKED).is_visible()
    teacher.locator(".gopskit-create-room").click()
    code = teacher.locator(".gopskit-room-code").inner_text(timeout=STEP_MS).strip()
    [stored] = _rooms(store)
    assert code == shown_code(stored)
    teacher.reload(timeout=LOAD_MS)  # the saved teacher key reopens the room: no passcode asked
    teacher.locator(".gopskit-room-code").wait_for(timeout=LOAD_MS)
    assert teacher.locator(".gopskit-room-code").inner_text().strip() == code
    assert not teacher.locator(LOCKED).is_visible() and not teacher.locator(".gopskit-create-room").is_visible()
    other = _open(chromium, url, "classroom-teacher.ipynb", LOCKED)  # another laptop: asked again
    other.wait_for_timeout(1000)  # time enough for a saved key, were there one, to reopen a room
    assert other.locator(LOCKED).is_visible() and not other.locator(".gopskit-create-room").is_visible()
    assert _rooms(store) == [stored]


@pytest.fixture(scope="module")
def https_server(tmp_path_factory):
    """The same server over HTTPS (``--certfile``/``--keyfile``, a certificate from a test authority)."""
    import trustme

    folder = tmp_path_factory.mktemp("https-pem")
    certificate = trustme.CA().issue_cert("localhost", "127.0.0.1")
    certificate.cert_chain_pems[0].write_to_path(str(folder / "cert.pem"))
    certificate.private_key_pem.write_to_path(str(folder / "key.pem"))
    with classroom_voila(tmp_path_factory, "https", preheat=False,
                         options=[f"--teacher-passcode={PASSCODE}", f"--certfile={folder / 'cert.pem'}",
                                  f"--keyfile={folder / 'key.pem'}"]) as (url, store, log_folder):
        yield url, store, log_folder / "voila.log"


def test_over_https_the_passcode_and_the_room_travel_encrypted(https_server, chromium):  # noqa: F811
    """The page, its kernel's websocket (wss) and the passcode go over TLS; serve prints the https address."""
    url, store, log = https_server
    assert url.startswith("https://localhost:") and f"gopskit: Open {url} in a browser" in log.read_text()
    context = chromium.new_context(viewport={"width": 1280, "height": 900}, ignore_https_errors=True)
    teacher = context.new_page()
    sockets: list[str] = []
    teacher.on("websocket", lambda socket: sockets.append(socket.url))
    teacher.goto(f"{url}/voila/render/classroom-teacher.ipynb", timeout=LOAD_MS)
    teacher.locator(f"{LOCKED} input").wait_for(timeout=LOAD_MS)
    teacher.locator(f"{LOCKED} input").fill(PASSCODE)
    teacher.locator(f"{LOCKED} input").press("Enter")
    teacher.locator(".gopskit-create-room").wait_for(state="visible", timeout=STEP_MS)
    teacher.locator(".gopskit-create-room").click()
    code = teacher.locator(".gopskit-room-code").inner_text(timeout=STEP_MS).strip()
    assert [shown_code(c) for c in _rooms(store)] == [code]
    assert sockets and all(s.startswith("wss://") for s in sockets), sockets
    context.close()
