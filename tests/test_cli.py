"""The gopskit command, run as a real subprocess, and game records."""

import json
import subprocess
import sys

import pytest

from gopskit.errors import RecordError
from gopskit.games import replay_record

CONTRACT_RECORD = {
    "game": "goofspiel",
    "options": {"num_cards": 5, "players": 3, "ties": "discard"},
    "prizes": [5, 1, 3, 2, 4],
    "bids": [[5, 4, 5], [1, 2, 3], [3, 1, 2], [2, 5, 1], [4, 3, 4]],
}


def gopskit(*args, stdin=None):
    return subprocess.run([sys.executable, "-m", "gopskit.cli", *args], input=stdin,
                          capture_output=True, text=True, timeout=120)


def write(tmp_path, record, name="game.json"):
    path = tmp_path / name
    path.write_text(record if isinstance(record, str) else json.dumps(record))
    return str(path)


def test_the_design_example_replays_to_hand_worked_scores():
    # turn 1: 5-4-5 tie, discarded; 2: P3 takes 1; 3: P1 takes 3; 4: P2 takes 2; 5: 4-3-4 tie.
    state = replay_record(CONTRACT_RECORD)
    assert state.scores() == [3, 2, 1]
    assert state.lost == [5, 4]


def test_replay_json_prints_the_scores(tmp_path):
    result = gopskit("replay", write(tmp_path, CONTRACT_RECORD), "--json")
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    assert out["scores"] == [3, 2, 1] and out["winners"] == [1]
    assert out["record"]["bids"] == CONTRACT_RECORD["bids"]


def test_replay_text_goes_turn_by_turn(tmp_path):
    result = gopskit("replay", write(tmp_path, CONTRACT_RECORD))
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "Turn 1: Tie at 5 between Player 1 and Player 3: the 5 is discarded."
    assert lines[1].startswith("Turn 2: Player 3 wins the A with a 3")
    assert lines[-1] == "Player 1 wins. Final scores: Player 1 3, Player 2 2, Player 3 1."


def test_replay_reads_standard_input():
    result = gopskit("replay", "-", "--json", stdin=json.dumps(CONTRACT_RECORD))
    assert json.loads(result.stdout)["scores"] == [3, 2, 1]


def test_missing_options_take_their_defaults(tmp_path):
    record = {"game": "goofspiel", "prizes": [2, 1], "bids": [[2, 1], [1, 2]], "options": {"num_cards": 2}}
    out = json.loads(gopskit("replay", write(tmp_path, record), "--json").stdout)
    assert out["scores"] == [2, 1] and out["options"]["ties"] == "discard"


def test_a_match_record_replays(tmp_path):
    record = {"game": "goofspiel", "options": {"num_cards": 2, "target": 3},
              "hands": [{"prizes": [1, 2], "bids": [[1, 2], [2, 1]]}, {"prizes": [2, 1], "bids": [[2, 1], [1, 2]]}]}
    out = json.loads(gopskit("replay", write(tmp_path, record), "--json").stdout)
    assert out["scores"] == [4, 2] and out["winners"] == [1]


BAD_RECORDS = [
    ("{not json", "not valid JSON"),
    ("[1, 2]", "a record is a JSON object"),
    ({"options": {}}, "no 'game' key"),
    ({"game": "chess"}, "unknown game 'chess'"),
    ({**CONTRACT_RECORD, "options": {"num_cards": 5, "players": 9}}, "players must be a whole number from 2 to 7"),
    ({**CONTRACT_RECORD, "options": {"num_cards": 5, "players": 3, "colour": 1}}, "unknown option"),
    ({**CONTRACT_RECORD, "bids": [[5, 4, 5], [1, 2, 3], [3, 1, 3], [2, 5, 1], [4, 3, 4]]}, "turn 3: player 3 cannot play 3"),
    ({**CONTRACT_RECORD, "bids": [[5, 4, 5], [1, 2]]}, "turn 2: expected a list of 3 bids"),
    ({**CONTRACT_RECORD, "bids": [[5, 4, "x"]]}, "turn 1: player 3's bid 'x' is not a card number"),
    ({**CONTRACT_RECORD, "prizes": [5, 1, 3, 2, 5]}, "turn 5: prize 5 was already turned"),
    ({**CONTRACT_RECORD, "prizes": [5, 1, 9, 2, 4]}, "turn 3: prize 9 is not a card from 1 to 5"),
    ({**CONTRACT_RECORD, "prizes": [5, 1]}, "turn 3: this turn has bids but the record lists no prize"),
    ({**CONTRACT_RECORD, "bids": [[5, 4, 5]]}, "5 prizes but only 1 turns of bids"),
    ({**CONTRACT_RECORD, "bids": "many"}, "needs lists 'prizes' and 'bids'"),
    ({**CONTRACT_RECORD, "options": {"num_cards": 5, "players": 3, "prize_order": "ascending"}},
     "turn 1: prize 5 breaks the 'ascending' order"),
]


@pytest.mark.parametrize("record, fragment", BAD_RECORDS, ids=[f[1][:30] for f in BAD_RECORDS])
def test_bad_records_exit_2_with_one_line(tmp_path, record, fragment):
    result = gopskit("replay", write(tmp_path, record))
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert fragment in result.stderr


def test_bad_records_raise_record_error_in_python():
    with pytest.raises(RecordError, match="turn 3"):
        replay_record({**CONTRACT_RECORD, "bids": [[5, 4, 5], [1, 2, 3], [3, 1, 3], [2, 5, 1], [4, 3, 4]]})


def test_missing_file_exits_2(tmp_path):
    result = gopskit("replay", str(tmp_path / "nope.json"))
    assert result.returncode == 2 and "cannot read record file" in result.stderr


def test_unknown_subcommand_or_flag_exits_2():
    assert gopskit("fly").returncode == 2
    result = gopskit("replay")
    assert result.returncode == 2 and "Traceback" not in result.stderr


def test_play_in_the_terminal_against_a_bot():
    # prizes come in a seeded order; answer each with whatever card we still hold (after a bad entry)
    answers = "banana\nK\n" + "\n".join(["A", "2", "3", "4", "5"]) + "\n"
    result = gopskit("play", "--cards", "3", "--seed", "4", "--bot", "one-higher", stdin="zz\n" + answers)
    assert result.returncode == 0, result.stderr
    assert "'zz' is not a card you hold" in result.stdout
    assert "Final score:" in result.stdout
    assert "against the One-higher bot" in result.stdout and "a tie discards the prize" in result.stdout  # not 'ties: discard'


def test_play_stops_cleanly_at_end_of_input():
    result = gopskit("play", "--cards", "5", stdin="")
    assert result.returncode == 1 and "Game stopped." in result.stdout and "Traceback" not in result.stderr


def test_play_says_which_bids_of_the_equilibrium_bot_are_estimates(tmp_path, monkeypatch):
    from gopskit.agents.equilibrium import EquilibriumBot
    from gopskit.games.goofspiel import Goofspiel

    monkeypatch.setenv("GOPSKIT_CACHE", str(tmp_path))  # no complete 12-card solution of this machine's
    result = gopskit("play", "--cards", "12", "--bot", "equilibrium", stdin="")
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert EquilibriumBot().seat_note(Goofspiel(num_cards=12)) + "\n" in result.stdout
    result = gopskit("play", "--cards", "5", "--bot", "equilibrium", stdin="")  # every bid exact: nothing said
    assert result.returncode == 1 and "estimate" not in result.stdout


def test_play_refuses_bad_options():
    result = gopskit("play", "--cards", "40")
    assert result.returncode == 2 and "--cards must be a whole number from 1 to 13, not 40" in result.stderr
    assert "num_cards" not in result.stderr  # the flag typed, not the engine's option name
    result = gopskit("play", "--bot", "gops3-spoiler")  # a bot of another game: the ones that can play are listed
    assert result.returncode == 2 and "gops3-spoiler" in result.stderr and "match-prize" in result.stderr
    assert "raj-proportional" not in result.stderr and "Traceback" not in result.stderr
