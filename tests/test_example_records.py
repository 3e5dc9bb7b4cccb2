"""The sample records replay with the real command, and so do a tournament's saved games."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from gopskit.arena.tournament import Tournament
from gopskit.games import make_rules, replay_record

ROOT = Path(__file__).resolve().parent.parent
RECORDS = sorted((ROOT / "examples" / "records").glob("*.json"))


def gopskit(*args):
    return subprocess.run([sys.executable, "-m", "gopskit.cli", *args], capture_output=True, text=True,
                          timeout=120, cwd=ROOT)


def test_there_are_samples_of_a_variant_and_of_other_games():
    games = {json.loads(p.read_text())["game"] for p in RECORDS}
    assert len(RECORDS) >= 4 and {"goofspiel", "raj", "gooseberry-fool"} <= games
    options = [json.loads(p.read_text()).get("options", {}) for p in RECORDS]
    assert any(o.get("ties") == "carry" or o.get("target") for o in options)  # a Goofspiel variant


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.name)
def test_each_sample_replays_to_the_end_with_the_command(path):
    result = gopskit("replay", str(path), "--json")
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    state = replay_record(json.loads(path.read_text()))
    assert out["finished"] is True and out["scores"] == state.scores()
    assert out["winners"] == [p + 1 for p in state.winners()]


def test_the_readme_replay_line_names_a_shipped_record():
    readme = (ROOT / "README.md").read_text()
    named = re.findall(r"gopskit replay (\S+\.json)", readme)
    assert named and all((ROOT / n).is_file() for n in named)
    text = gopskit("replay", named[0])
    assert text.returncode == 0, text.stderr
    assert text.stdout.splitlines()[:-1] == replay_record(json.loads((ROOT / named[0]).read_text())).log()


@pytest.mark.parametrize("game, options, entries", [
    ("goofspiel", {"num_cards": 4}, ["random", "match-prize", str(ROOT / "examples" / "students" / "one_above.py")]),
    ("raj", {"players": 2}, ["random", "raj-proportional"]),
])
def test_a_tournaments_saved_games_replay_with_the_command(tmp_path, game, options, entries):
    rules = make_rules(game, **options)
    Tournament(rules, entries, games=2, seed=3, bot_records=True, exploitability=False,
               processes=1).run(out=tmp_path / "out", progress=False)
    saved = json.loads((tmp_path / "out" / "results.json").read_text())
    games = [g for g in saved["games"] if g.get("record")]
    assert games, "the results hold no game records"
    for number, played in enumerate(games[:2]):
        path = tmp_path / f"game{number}.json"
        path.write_text(json.dumps(played["record"]))
        result = gopskit("replay", str(path), "--json")
        assert result.returncode == 0, result.stderr
        out = json.loads(result.stdout)
        assert out["finished"] and out["scores"] == played["points"]
        assert out["winners"] == [p + 1 for p in played["winners"]]
