"""Classroom play: how fast a bid reaches the other screen, and how many students one server holds.

Two measurements (figures, never pass/fail):

1. **Kernel side, under load.** ``N`` students, one process each, every one
   running the real student page (:class:`gopskit.widgets.classroom.StudentApp`,
   what each Voila kernel runs, minus the websocket) against one SQLite
   store, one room, polling every 0.1 s and bidding after a random think
   (0 to 1.5 s). The teacher re-seats finished students every second, so
   everyone keeps playing. A *reveal latency* is the time from the commit
   of a turn's last bid to the moment the other student's page has drawn
   that turn. ``N`` grows until the 95th percentile passes one second.
2. **In real browsers.** A Voila server (``gopskit serve``), two Chromium
   pages playing each other in the same room as ``N`` background students
   as above: the time from one page's click on "Confirm bid" to the
   reveal drawn on the other page.

3. **A crowd of real pages.** ``N`` more Chromium pages, each its own
   Voila kernel running the student app, join and sit at their tables
   (polling) while the two pages above play: how long ``N`` pages take to
   open and join, and the reveal time then.

Run:  python benchmarks/bench_classroom.py [--quick] [--levels 2,10,20,30,45,60] [--browser-levels 0,30]
      [--crowd-levels 10,30]
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import shutil
import tempfile
import threading
import time
from pathlib import Path

import numpy as np

from gopskit.classroom import ClassroomStore

CARDS = 8
THINK = 1.5
POLL = 0.1


# ------------------------------------------------------------ students ---
def app_student(url: str, code: str, name: str, seconds: float, seed: int, out: str) -> None:
    """One student page (StudentApp) that joins, plays random legal cards, and logs when it drew each turn."""
    from gopskit.widgets.classroom import StudentApp

    rng = np.random.default_rng(seed)
    app = StudentApp(url, bridge=False)
    app.join(name, code)
    seen, move_at, end = [], None, time.time() + seconds
    last = None
    while time.time() < end and app.phase not in ("ended", "elsewhere"):
        app.tick()
        view = app.board.seat_view if app.board is not None else None
        if view is not None and (view.table, view.ply) != last:
            last = (view.table, view.ply)
            seen.append([view.table, view.ply, time.time()])
        if view is not None and view.my_turn:
            move_at = move_at or time.time() + rng.uniform(0, THINK)
            if time.time() >= move_at:
                legal = view.observation["legal_moves"]
                app.board.click_card(legal[int(rng.integers(len(legal)))])
                app.board.confirm()
                move_at = None
                if app.board.seat_view is not None:
                    last = (app.board.seat_view.table, app.board.seat_view.ply)
                    seen.append([last[0], last[1], time.time()])
        time.sleep(POLL)
    Path(out).write_text(json.dumps(seen))


def start_students(url, code, count, folder, seconds, seed=0, first=0):
    context = multiprocessing.get_context("fork")
    procs = []
    for i in range(first, first + count):
        p = context.Process(target=app_student, args=(url, code, f"Student {i:03d}", seconds, seed + i,
                                                      str(Path(folder) / f"s{i}.json")))
        p.start()
        procs.append(p)
    return procs


def wait_for_students(store, key, count: int, limit: float = 60.0) -> None:
    """Wait until ``count`` students have joined (so nobody starts against a bot)."""
    deadline = time.time() + limit
    while len(store.overview(key).players) < count and time.time() < deadline:
        time.sleep(0.2)


def seat_waiting(store, code: str, leave_out=(), together=()) -> None:
    """Seat waiting students two by two (a bot for an odd one), leaving some out or seating some together."""
    from gopskit.classroom import rooms

    def work(tx, now):
        room = tx.one("SELECT * FROM rooms WHERE code = ?", (code,))
        waiting = rooms.waiting_players(tx, code)
        chosen = [p["id"] for p in waiting if p["name"] in together]
        if together and len(chosen) == len(together):
            rooms.create_table(tx, room, chosen, "random", 0, int(rng.integers(2**62)), now)
        free = [p["id"] for p in waiting if p["name"] not in leave_out and p["name"] not in together]
        for i in range(0, len(free), 2):
            rooms.create_table(tx, room, (free[i:i + 2] + [None])[:2], "random", 0, int(rng.integers(2**62)), now)

    rng = np.random.default_rng()
    store.db.run(lambda tx: work(tx, time.time()))


def keep_seating(url, code: str, until, leave_out=(), every: float = 1.0) -> None:
    """The teacher, every second: seat whoever is waiting (bots fill a short table). ``until``: a time or an Event."""
    store = ClassroomStore(url)
    while not (until.is_set() if hasattr(until, "is_set") else time.time() >= until):
        seat_waiting(store, code, leave_out)
        time.sleep(every)
    store.close()


# ------------------------------------------------------------ latency ---
def reveal_latencies(url: str, folder) -> list[float]:
    """For every turn completed in the store: drawn-on-the-other-page time minus the last bid's commit."""
    store = ClassroomStore(url)
    rows = store.db.run(lambda tx: tx.all(
        "SELECT m.table_id, m.ply, m.seat, m.made_at, p.name FROM moves m JOIN seats s "
        "ON s.table_id = m.table_id AND s.seat = m.seat LEFT JOIN players p ON p.id = s.player"))
    store.close()
    done: dict = {}
    for r in rows:
        key = (r["table_id"], r["ply"])
        if key not in done or r["made_at"] > done[key][0]:
            done[key] = (r["made_at"], r["name"])
    seated = {}
    for r in rows:
        if r["name"]:
            seated.setdefault(r["table_id"], set()).add(r["name"])
    latencies = []
    for path in Path(folder).glob("s*.json"):
        name = f"Student {int(path.stem[1:]):03d}"
        first_seen = {}
        for table, ply, at in json.loads(path.read_text()):
            first_seen.setdefault((table, ply), at)
        for (table, ply), at in first_seen.items():
            completed = done.get((table, ply - 1))
            if completed and completed[1] != name and name in seated.get(table, ()):
                latencies.append(at - completed[0])
    return latencies


def summary(values) -> dict:
    if not values:
        return {"n": 0}
    arr = np.array(values)
    return {"n": len(values), "median": float(np.median(arr)), "p95": float(np.percentile(arr, 95)),
            "max": float(arr.max())}


def kernel_level(count: int, seconds: float) -> dict:
    folder = Path(tempfile.mkdtemp(prefix="bench-classroom-"))
    url = str(folder / "store.sqlite3")
    store = ClassroomStore(url)
    room = store.create_room("goofspiel", {"num_cards": CARDS}, auto_pair=False, timeout=300, bot="random")
    procs = start_students(url, room.code, count, folder, seconds + 30)
    wait_for_students(store, room.teacher_key, count)
    keep_seating(url, room.code, time.time() + seconds)
    store.end_room(room.teacher_key)
    for p in procs:
        p.join(60)
    moves = store.db.run(lambda tx: tx.one("SELECT COUNT(*) AS n FROM moves WHERE actor = 'player'"))["n"]
    store.close()
    result = {"students": count, "bids": int(moves), **summary(reveal_latencies(url, folder))}
    shutil.rmtree(folder, ignore_errors=True)
    return result


# ------------------------------------------------------------ browsers ---
def open_student_page(browser, server: str, code: str, name: str, wait: bool = True):
    """A student's page in its own browser context (its own laptop): open, type the name and code, join."""
    page = browser.new_context().new_page()
    page.goto(f"{server}/voila/render/classroom.ipynb", timeout=300_000)
    if wait:
        join_page(page, code, name)
    return page


def join_page(page, code: str, name: str) -> None:
    page.locator(".gopskit-join").wait_for(timeout=300_000)
    page.locator(".gopskit-name-input input").fill(name)
    page.locator(".gopskit-code-input input").fill(code)
    page.locator(".gopskit-join").click()


def browser_level(background: int, seconds_per_turn_limit: float = 20.0, crowd: int = 0) -> dict:
    from playwright.sync_api import sync_playwright

    from gopskit.serve import background_server

    folder = Path(tempfile.mkdtemp(prefix="bench-classroom-browser-"))
    url = str(folder / "store.sqlite3")
    os.environ["GOPSKIT_CLASSROOM_DB"] = url
    store = ClassroomStore(url)
    room = store.create_room("goofspiel", {"num_cards": CARDS}, auto_pair=False, timeout=300, bot="random")
    procs = start_students(url, room.code, background, folder, 600)
    wait_for_students(store, room.teacher_key, background)
    stop = threading.Event()
    teacher = threading.Thread(target=keep_seating, args=(url, room.code, stop, ("Ann", "Bob")), daemon=True)
    teacher.start()
    args = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
            "--disable-component-update", "--no-first-run"]
    timings = []
    with open(folder / "voila.log", "wb") as log, background_server(log=log) as server, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=args)
        opened = time.perf_counter()
        crowd_pages = [open_student_page(browser, server, room.code, f"Page {i:02d}", wait=False) for i in range(crowd)]
        for i, page in enumerate(crowd_pages):
            join_page(page, room.code, f"Page {i:02d}")
        wait_for_students(store, room.teacher_key, background + crowd, limit=300)
        crowd_seconds = time.perf_counter() - opened
        pages = [open_student_page(browser, server, room.code, name) for name in ("Ann", "Bob")]
        wait_for_students(store, room.teacher_key, background + crowd + 2)
        seat_waiting(store, room.code, together=("Ann", "Bob"))
        for page in pages:
            page.locator(".gopskit-card:not([disabled])").first.wait_for(timeout=60_000)
        rows = "() => document.querySelectorAll('.gopskit-history tbody tr').length"
        status = "() => document.querySelector('.gopskit-status').innerText"
        for turn in range(CARDS):
            first, last = pages[turn % 2], pages[1 - turn % 2]
            for page in (first, last):
                page.wait_for_function(f"() => ({rows})() === {turn}", timeout=30_000)
                page.locator(".gopskit-card:not([disabled])").first.click()
                page.locator(".gopskit-confirm:not([disabled])").wait_for(timeout=30_000)
                sent = time.perf_counter()
                page.locator(".gopskit-confirm").click()
                if page is first:
                    page.wait_for_function(f"() => ({status})().includes('You played')", timeout=30_000)
            first.wait_for_function(f"() => ({rows})() === {turn + 1}", timeout=seconds_per_turn_limit * 1000)
            timings.append(time.perf_counter() - sent)
        browser.close()
    stop.set()
    teacher.join(10)
    store.end_room(room.teacher_key)
    for p in procs:
        p.join(30)
        if p.is_alive():
            p.terminate()
    store.close()
    shutil.rmtree(folder, ignore_errors=True)
    return {"background_students": background, "crowd_pages": crowd, "crowd_join_seconds": crowd_seconds,
            **summary(timings)}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--levels", default="2,10,20,30,45,60")
    parser.add_argument("--browser-levels", default="0,30")
    parser.add_argument("--crowd-levels", default="10,30",
                        help="real browser pages (each its own Voila kernel) idling at their tables while two play")
    parser.add_argument("--seconds", type=float, default=25.0)
    parser.add_argument("--quick", action="store_true", help="two small levels only")
    args = parser.parse_args()
    levels = [2, 10] if args.quick else [int(x) for x in args.levels.split(",") if x]
    print(f"Kernel side: {CARDS}-card Goofspiel, poll {POLL} s, think 0-{THINK} s, one SQLite store, {os.cpu_count()} cores")
    print(f"{'students':>9} {'bids':>6} {'reveals':>8} {'median':>8} {'p95':>8} {'max':>8}")
    for count in levels:
        r = kernel_level(count, args.seconds)
        print(f"{r['students']:>9} {r['bids']:>6} {r['n']:>8} {r.get('median', float('nan')):>8.3f} "
              f"{r.get('p95', float('nan')):>8.3f} {r.get('max', float('nan')):>8.3f}", flush=True)
        if r.get("p95", 0) > 1.0:
            print(f"  the 95th percentile passed one second at {count} students")
            break
    if args.browser_levels:
        print("\nReal browsers (Voila + two Chromium pages): confirm click to reveal on the other page")
        for background in ([0] if args.quick else [int(x) for x in args.browser_levels.split(",") if x]):
            r = browser_level(background)
            print(f"  {background:>3} background students: median {r['median']:.3f} s, p95 {r['p95']:.3f} s, "
                  f"max {r['max']:.3f} s over {r['n']} turns", flush=True)
    if args.crowd_levels and not args.quick:
        print("\nReal browsers: N more Chromium pages (N Voila kernels) seated and polling while two pages play")
        for crowd in [int(x) for x in args.crowd_levels.split(",")]:
            r = browser_level(0, crowd=crowd)
            print(f"  {crowd:>3} pages joined in {r['crowd_join_seconds']:.0f} s; reveal median {r['median']:.3f} s, "
                  f"p95 {r['p95']:.3f} s, max {r['max']:.3f} s", flush=True)


if __name__ == "__main__":
    main()
