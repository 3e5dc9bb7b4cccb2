"""A room's export (zip, records, bids.csv) and the after-class comparison with the equilibrium and bots."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
import zipfile

from gopskit.classroom import ClassroomStore, load_export
from gopskit.classroom.analysis import compare_bids, load_and_compare, plot_comparison
from gopskit.classroom.export import BID_COLUMNS
from gopskit.games import replay_record


def _contrary_game(num_cards=2, options=None):
    """Ann plays the bot once, always bidding ``num_cards + 1 - prize`` when she can."""
    store = ClassroomStore(":memory:")
    room = store.create_room("goofspiel", {"num_cards": num_cards, **(options or {})}, bot="match-prize", auto_pair=False)
    ann = store.join(room.code, "Ann")
    store.pair_waiting(room.teacher_key, seed=4)
    seat = store.claim_seat(ann.player_key).seat_key
    prizes = []
    while (view := store.seat_view(seat)).status == "playing":
        prize, hand = view.observation["prize"], view.observation["hand"]
        prizes.append(prize)
        wanted = num_cards + 1 - prize
        store.submit(seat, wanted if wanted in hand else hand[0], view.ply)
    return store, room, prizes


def test_the_export_zip_holds_records_seats_and_every_bid(tmp_path):
    store, room, prizes = _contrary_game(3)
    path = store.export(room.teacher_key).write(tmp_path)
    assert path.name == f"room-{room.code[:3]}-{room.code[3:]}.zip"  # the code as every page writes it
    with zipfile.ZipFile(path) as archive:
        names = set(archive.namelist())
        record = json.loads(archive.read("records/table-001.json"))
        rows = list(csv.DictReader(io.StringIO(archive.read("bids.csv").decode())))
        manifest = json.loads(archive.read("room.json"))
    assert names == {"room.json", "records/table-001.json", "bids.csv"}
    assert list(rows[0]) == list(BID_COLUMNS) and len(rows) == 6
    assert [int(r["prize"]) for r in rows if r["player"] == "Ann"] == prizes == record["prizes"]
    assert {r["actor"] for r in rows} == {"player", "bot"} and {r["kind"] for r in rows} == {"student", "bot"}
    assert manifest["tables"][0]["seats"][0]["kind"] in ("student", "bot") and manifest["room"]["code"] == room.code
    # the record is the kit's contract format: the command line replays it
    (tmp_path / "game.json").write_text(json.dumps(record))
    done = subprocess.run([sys.executable, "-c", "import sys; from gopskit.cli import main; sys.exit(main())",
                           "replay", str(tmp_path / "game.json"), "--json"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["scores"] == list(replay_record(record).scores())
    loaded = load_export(path)
    assert loaded.records() == [record] and loaded.bids[0]["seconds"] >= 0


def test_students_bids_next_to_the_equilibrium_hand_worked():
    """Two cards, ties discarded. For the 1 first: bidding 1 scores 0 (against a 1: two ties) or +1
    (against a 2: lose the 1, win the 2); bidding 2 scores -1 or 0. So 1 dominates; for the 2 first,
    2 dominates the same way. The equilibrium bids the prize's own value. Ann bids the other card,
    so her first bid is never one the equilibrium plays, and her second is forced."""
    store, room, prizes = _contrary_game(2)
    result = compare_bids(store.export(room.teacher_key), bots=("match-prize", "random"))
    first, second = result.decisions
    assert first["bid"] == 3 - prizes[0] and first["equilibrium"] == {prizes[0]: 1.0, 3 - prizes[0]: 0.0}
    assert second["equilibrium"] == {prizes[0]: 1.0}  # one card left: forced
    assert result.support_share == 0.5
    assert result.bot_agreement == {"match-prize": 0.5, "random": 0.5}  # random's mean bid 1.5 never equals a card
    rows = {r["prize"]: r for r in result.by_prize}
    assert rows[prizes[0]]["class_mean"] == 3 - prizes[0] and rows[prizes[0]]["equilibrium_mean"] == prizes[0]
    assert rows[prizes[0]]["random"] == 1.5 and rows[prizes[1]]["random"] == prizes[0]
    assert "<table" in result.table_html() and "Equilibrium mean" in result.table_html()
    assert "Match-the-prize bot: mean" in result.table_html() and "match-prize" not in result.table_html()


def test_unsupported_games_are_left_out_with_a_note():
    store, room, _ = _contrary_game(3, {"hidden_bids": True})
    result = compare_bids(store.export(room.teacher_key))
    assert result.decisions == [] and "hidden" in result.note and result.support_share is None
    store, room, _ = _contrary_game(3, {"prize_order": "ascending"})
    result = compare_bids(store.export(room.teacher_key))
    assert len(result.decisions) == 3 and result.support_share is None and "no equilibrium" in result.note


def test_load_and_compare_and_the_plot(tmp_path):
    store, room, _ = _contrary_game(4)
    path = store.export(room.teacher_key).write(tmp_path / "room.zip")
    result = load_and_compare(path)
    import matplotlib

    matplotlib.use("Agg")
    ax = plot_comparison(result)
    assert len(ax.get_lines()) == 4  # the class, the equilibrium, two bots
    assert [t.get_text() for t in ax.get_legend().get_texts()][2:] == ["Match-the-prize bot", "Random bot"]


def test_bids_without_a_known_equilibrium_are_counted_and_left_out():
    """12 cards (no book): turns 1-2 are beyond what is solved on the spot; from 10 cards each it is exact."""
    store, room, _prizes = _contrary_game(12)
    result = compare_bids(store.export(room.teacher_key), bots=("match-prize",))
    assert [d["equilibrium"] is not None for d in result.decisions] == [False, False] + [True] * 10
    assert result.note.startswith("2 of 12 student bids have no known equilibrium")
    support = [d["equilibrium"].get(d["bid"], 0) > 1e-9 for d in result.decisions if d["equilibrium"] is not None]
    assert result.support_share == sum(support) / 10


def test_a_full_deck_room_gets_the_equilibrium_wherever_it_is_known_exactly():
    """13 cards: the opening book's bids in turns 1-3, an exact endgame's from 10 cards on: every bid has one."""
    import numpy as np

    from gopskit.solvers.exact import solve_endgame
    from gopskit.solvers.opening import shipped_opening

    store, room, prizes = _contrary_game(13)
    result = compare_bids(store.export(room.teacher_key), bots=("match-prize",))
    book = shipped_opening(13)
    known = [d["equilibrium"] is not None for d in result.decisions]
    assert known == [True] * 13
    assert "no known equilibrium" not in result.note
    hands, opp, left = set(range(1, 14)), set(range(1, 14)), set(range(1, 14))
    table = store.export(room.teacher_key).tables[0]
    record, ann = table["record"], next(s["seat"] for s in table["seats"] if s["kind"] == "student")
    for d, bids in zip(result.decisions, record["bids"]):
        mine, theirs = bids[ann], bids[1 - ann]
        assert d["bid"] == mine
        assert d["prize"] == record["prizes"][d["turn"] - 1]
        if d["turn"] <= 3:
            assert d["equilibrium"] == book.policy(hands, opp, left, d["prize"])
        elif d["turn"] >= 4:
            here = solve_endgame(hands, opp, left)  # the rest of the hand, solved afresh from this position
            x = np.array([d["equilibrium"][card] for card in sorted(hands)])
            M = here.turn_matrix(hands, opp, left, d["prize"])
            assert (x @ M).min() >= here.value(hands, opp, left, d["prize"]) - 1e-9  # no reply gains: exact
        hands, opp, left = hands - {mine}, opp - {theirs}, left - {d["prize"]}
    support = [d["equilibrium"].get(d["bid"], 0) > 1e-9 for d in result.decisions if d["equilibrium"] is not None]
    assert result.support_share == sum(support) / 13


def test_a_room_with_ties_carried_is_not_solved_whole_beyond_what_takes_seconds(monkeypatch):
    """10 cards, ties carried: a whole solve would take minutes (the pot), so the bids are compared where the
    equilibrium bot knows them exactly: from 8 cards in each hand on."""
    from gopskit.classroom import analysis

    monkeypatch.setattr("gopskit.solvers.solve_goofspiel", lambda *a, **k: (_ for _ in ()).throw(
        AssertionError("a 10-card game with ties carried was solved whole")))
    store, room, _prizes = _contrary_game(10, {"ties": "carry"})
    result = compare_bids(store.export(room.teacher_key), bots=("match-prize",))
    assert [d["equilibrium"] is not None for d in result.decisions] == [False, False] + [True] * 8
    assert result.note.startswith("2 of 10 student bids have no known equilibrium")
    assert f"({analysis.MAX_SOLVED_CARDS_CARRY} with ties carried)" in result.note and "(8 with ties carried)" in result.note
