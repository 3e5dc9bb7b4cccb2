"""Thirty students in thirty processes play a whole round robin in one room (ten on PostgreSQL).

Each simulated student (:mod:`gopskit.classroom.simulate`) is its own
process with its own connection, as each Voila page has its own kernel. The
teacher (this test) starts the round robin once all have joined, keeps the
room (as the teacher's page does) and ends it when every round is played.
Then:

* every one of the 435 games finished;
* every game record replays through the engine to the scores the store
  saved when the game ended;
* every view any student was ever shown equals the observation rebuilt from
  the *complete* turns before it: no page ever saw a bid early.
"""

from __future__ import annotations

import json
import time

import pytest
from test_classroom_support import drop_schema, fresh_schema, postgres_url  # noqa: F401  (fixture)

from gopskit.classroom import ClassroomStore
from gopskit.classroom.simulate import StudentLog, observation_hash, run_students
from gopskit.games import replay_record

pytestmark = pytest.mark.slow
CARDS = 3
LIMIT = 150.0


@pytest.fixture(params=[("sqlite", 30), ("postgresql", 10)], ids=["sqlite-30", "postgresql-10"])
def class_store(request, tmp_path):
    """``(url, students)``: thirty students on SQLite; ten on the real PostgreSQL (kernels on many machines)."""
    backend, students = request.param
    if backend == "sqlite":
        yield str(tmp_path / "class.sqlite3"), students
        return
    base = request.getfixturevalue("postgres_url")
    url, schema = fresh_schema(base)
    yield url, students
    drop_schema(base, schema)


def _teach(url: str, code: str, key: str, deadline: float, students: int) -> None:
    teacher = ClassroomStore(url)
    while len(teacher.overview(key).players) < students:
        assert time.time() < deadline, "the students did not all join in time"
        time.sleep(0.05)
    assert teacher.start_round_robin(key, seed=7) == students - 1
    while True:
        assert time.time() < deadline, "the round robin did not finish in time"
        teacher.keep_room(key)
        overview = teacher.overview(key)
        if overview.round == overview.rounds and all(t["status"] == "finished" for t in overview.tables):
            break
        time.sleep(0.1)
    teacher.end_room(key)
    teacher.close()


def test_students_in_separate_processes_play_a_round_robin(class_store, tmp_path):
    url, students = class_store
    setup = ClassroomStore(url)
    room = setup.create_room("goofspiel", {"num_cards": CARDS}, auto_pair=False, timeout=120, seed=3)
    setup.close()  # no open connection is carried into the children
    started = time.time()
    pool, result = run_students(url, room.code, students, tmp_path, poll=0.03, limit=LIMIT)
    try:
        _teach(url, room.code, room.teacher_key, started + LIMIT, students)
        result.get(timeout=60)
    finally:
        pool.terminate()
        pool.join()
    elapsed = time.time() - started
    logs = [StudentLog.load(p) for p in sorted(tmp_path.glob("Student *.json"))]
    assert len(logs) == students and not [e for log in logs for e in log.errors]

    store = ClassroomStore(url)
    tables = store.db.run(lambda tx: tx.all("SELECT id, status, scores, record FROM game_tables ORDER BY number"))
    assert len(tables) == students * (students - 1) // 2
    assert all(t["status"] == "finished" for t in tables)
    records = {}
    for table in tables:
        record = json.loads(table["record"])
        assert list(replay_record(record).scores()) == json.loads(table["scores"])
        records[table["id"]] = record
    _check_nothing_seen_early(logs, records)
    made = sum(len(log.moves) for log in logs)
    assert made == len(tables) * CARDS * 2  # every bid of every game came from a student's own process
    print(f"\n{len(tables)} games, {made} bids by {students} processes in {elapsed:.1f} s")


def _check_nothing_seen_early(logs, records) -> None:
    rules_cache = {}
    checked = 0
    for log in logs:
        for table, ply, seat, _status, seen, _at in log.views:
            record = records[table]
            key = (table, ply, seat)
            if key not in rules_cache:
                partial = {**record, "bids": record["bids"][:ply], "prizes": record["prizes"][:ply + 1]}
                rules_cache[key] = observation_hash(replay_record(partial).observation(seat).to_dict())
            assert seen == rules_cache[key], f"{log.name} saw more than the complete turns of table {table} at ply {ply}"
            checked += 1
    assert checked >= len(records) * 2
