"""Everything a room played, for the teacher to keep: records, seats and every bid.

An export is a zip file holding

* ``records/table-001.json`` ...: one game record per table in the kit's
  contract format (``gopskit replay FILE`` reads it; an unfinished game's
  record stops at its last complete turn);
* ``room.json``: the room (game, options, settings, status) and each table
  (round, who sat where, student or bot, where a bot stood in, scores);
* ``bids.csv``: one row per move of every record: table, round, hand,
  turn, seat, player, who made it (``player``, ``bot`` or ``stand-in``),
  the move, the prize card it was for (games with a prize), and the seconds
  it took after the turn began. A player name that a spreadsheet would read
  as a formula (``=``, ``+``, ``-`` or ``@`` first; a new room refuses such
  names, a room stored by an older kit may hold one) is written with a
  leading ``'`` (:func:`gopskit.spreadsheet.inert`), so opening the file
  never runs it.

Only complete turns are exported, so even an export made mid-game shows no
bid early. :func:`load_export` reads the zip back (for
:mod:`gopskit.classroom.analysis`).
"""

from __future__ import annotations

import csv
import dataclasses
import io
import json
import zipfile
from collections import defaultdict
from pathlib import Path

from ..games import replay_record
from ..games.base import MatchState
from ..spreadsheet import inert
from .db import Tx
from .gameplay import complete_moves, events_so_far, rebuild, rules_for, seat_kind, seat_name, seats_of
from .rooms import settings_of, teacher_room

BID_COLUMNS = ("room", "table", "round", "hand", "turn", "ply", "seat", "player", "kind", "actor", "move",
               "prize", "seconds")


@dataclasses.dataclass(frozen=True)
class RoomExport:
    """A room's export in memory: ``room`` (dict), ``tables`` (dicts with ``record``), ``bids`` (rows)."""

    room: dict
    tables: list
    bids: list

    def records(self) -> list[dict]:
        """Every table's game record, in table order."""
        return [t["record"] for t in self.tables]

    def bids_csv(self) -> str:
        out = io.StringIO()
        writer = csv.DictWriter(out, fieldnames=BID_COLUMNS, lineterminator="\n")
        writer.writeheader()
        for row in self.bids:
            cells = {k: json.dumps(v) if k == "move" and not isinstance(v, (int, str)) else v for k, v in row.items()}
            cells["player"] = inert(cells["player"])
            writer.writerow(cells)
        return out.getvalue()

    def zip_bytes(self) -> bytes:
        """The export as the bytes of a zip file (see the module docstring)."""
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
            manifest = {"room": self.room, "tables": [{k: v for k, v in t.items() if k != "record"} for t in self.tables]}
            archive.writestr("room.json", json.dumps(manifest, indent=1))
            for table in self.tables:
                archive.writestr(record_name(table["number"]), json.dumps(table["record"]))
            archive.writestr("bids.csv", self.bids_csv())
        return buffer.getvalue()

    def write(self, path) -> Path:
        """Write the zip to ``path`` (a folder gets ``room-KQ7-F3M.zip``, the code as pages show it); return its path."""
        path = Path(path)
        if path.is_dir():
            from .tokens import shown_code

            path = path / f"room-{shown_code(self.room['code'])}.zip"
        path.write_bytes(self.zip_bytes())
        return path


def record_name(number: int) -> str:
    return f"records/table-{number:03d}.json"


def export_room(tx: Tx, teacher_key: str) -> RoomExport:
    """Build the export of the teacher's room (complete turns only)."""
    room = teacher_room(tx, teacher_key)
    rules = rules_for(room["game"], room["options"])
    tables, bids = [], []
    for table in tx.all("SELECT * FROM game_tables WHERE room = ? ORDER BY number", (room["code"],)):
        seats = seats_of(tx, table["id"])
        joint = complete_moves(tx, table)
        moves = tx.all("SELECT ply, seat, actor, made_at FROM moves WHERE table_id = ? AND ply < ?",
                       (table["id"], table["ply"]))
        state = rebuild(rules, table, joint)
        tables.append(_table_entry(table, seats, state))
        bids.extend(_bid_rows(room["code"], table, seats, rules, joint, moves))
    info = {"code": room["code"], "game": room["game"], "options": json.loads(room["options"]),
            "settings": dataclasses.asdict(settings_of(room)), "status": room["status"],
            "created_at": room["created_at"], "ended_at": room["ended_at"]}
    return RoomExport(info, tables, bids)


def _table_entry(table: dict, seats: list[dict], state) -> dict:
    return {
        "number": table["number"], "round": table["round"], "origin": table["origin"], "status": table["status"],
        "seats": [{"seat": s["seat"], "name": seat_name(s), "kind": "bot" if not s["player"] else "student",
                   "now": seat_kind(s), "stand_in_since_ply": s["stand_in_since"]} for s in seats],
        "scores": list(state.scores()) if state.is_terminal() else None,
        "winners": list(state.winners()), "turns": events_so_far(state), "plies": table["ply"],
        "record_file": record_name(table["number"]), "record": state.record(),
    }


def _bid_rows(code: str, table: dict, seats: list[dict], rules, joint: list, moves: list[dict]) -> list[dict]:
    info = {(m["ply"], m["seat"]): m for m in moves}
    began = _ply_starts(table, moves)
    state = rules.new_game(int(table["seed"]))
    rows = []
    for ply, moves_now in enumerate(joint):
        hand = state.hand if isinstance(state, MatchState) else state
        hand_number = len(state.hands) if isinstance(state, MatchState) else 1
        turn = events_so_far(hand) + 1
        prize = getattr(hand, "prize", None)
        for seat, move in sorted(moves_now.items()):
            made = info[(ply, seat)]
            rows.append({
                "room": code, "table": table["number"], "round": table["round"], "hand": hand_number, "turn": turn,
                "ply": ply, "seat": seat + 1, "player": seat_name(seats[seat]),
                "kind": "bot" if not seats[seat]["player"] else "student", "actor": made["actor"], "move": move,
                "prize": prize if isinstance(prize, (int, str)) else "", "seconds": round(made["made_at"] - began[ply], 3),
            })
        state.apply(moves_now)
    return rows


def _ply_starts(table: dict, moves: list[dict]) -> list[float]:
    last = defaultdict(float)
    for m in moves:
        last[m["ply"]] = max(last[m["ply"]], m["made_at"])
    return [table["created_at"] if k == 0 else last[k - 1] for k in range(table["ply"])]


def load_export(path) -> RoomExport:
    """Read an export zip back; every record is replayed by the engine to check it."""
    with zipfile.ZipFile(path) as archive:
        manifest = json.loads(archive.read("room.json"))
        tables = []
        for table in manifest["tables"]:
            record = json.loads(archive.read(table["record_file"]))
            replay_record(record)
            tables.append({**table, "record": record})
        bids = list(csv.DictReader(io.StringIO(archive.read("bids.csv").decode("utf-8"))))
    return RoomExport(manifest["room"], tables, [_typed(row) for row in bids])


def _typed(row: dict) -> dict:
    out = dict(row)
    for key in ("table", "round", "hand", "turn", "ply", "seat"):
        out[key] = int(row[key])
    out["seconds"] = float(row["seconds"])
    for key in ("move", "prize"):
        value = row[key]
        out[key] = int(value) if value.lstrip("-").isdigit() else value
    return out


__all__ = ["BID_COLUMNS", "RoomExport", "export_room", "load_export"]
