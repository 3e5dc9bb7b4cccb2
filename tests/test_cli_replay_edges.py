"""``gopskit replay`` on hostile input: exit status 2 and one line on stderr, every time.

The nasty inputs of issue 14 are run through the real command (a
subprocess); Hypothesis then throws arbitrary bytes and arbitrary JSON at
``main()`` in-process (fast), and at the library's ``replay_record`` with
records that are almost right, which may only ever raise ``GopsError``.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gopskit import cli
from gopskit.errors import GopsError
from gopskit.games import available_games, make_rules, replay_record

GOOD = {"game": "goofspiel", "options": {"num_cards": 2, "prize_order": "ascending"},
        "prizes": [1, 2], "bids": [[1, 2], [2, 1]]}


def gopskit(*args, stdin: bytes | None = None):
    return subprocess.run([sys.executable, "-m", "gopskit.cli", *args], input=stdin,
                          capture_output=True, timeout=120)


def one_line_refusal(result) -> str:
    """Assert exit 2 with exactly one line on stderr starting 'gopskit:'; return that line."""
    err = result.stderr.decode("utf-8")
    assert result.returncode == 2, err
    assert err.count("\n") == 1 and err.startswith("gopskit: ") and "Traceback" not in err, err
    assert len(err) < 400, err
    return err


NASTY_STDIN = [
    (b"[" * 100_000, "nested too deeply"),
    (b'{"game": "goofspiel", "options": {"num_cards": ' + b"9" * 4301 + b"}}", "4300 digits"),
    (b"\xff\xfe{\x00", "not UTF-8"),
    (bytes(range(256)) * 4, "not UTF-8"),
    (b"hello", "not valid JSON"),  # text that is not a record is not a file name either
    (b"/etc/passwd", "not valid JSON"),
    (b"", "not valid JSON"),
    (b'{"game": ["goofspiel"]}', "'game' is a name"),
    (b'{"game": "' + b"x" * 100_000 + b'"}', "unknown game"),
]


@pytest.mark.parametrize("data, fragment", NASTY_STDIN, ids=lambda v: repr(v)[:20])
def test_nasty_standard_input_is_refused_in_one_line(data, fragment):
    err = one_line_refusal(gopskit("replay", "-", stdin=data))
    assert fragment in err


def test_nasty_files_are_refused_in_one_line(tmp_path):
    binary = tmp_path / "binary.json"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(200))
    assert "not UTF-8" in one_line_refusal(gopskit("replay", str(binary)))
    deep = tmp_path / "deep.json"
    deep.write_text('{"game": "goofspiel", "x": ' + "[" * 50_000 + "]" * 50_000 + "}")
    assert "nested too deeply" in one_line_refusal(gopskit("replay", str(deep)))
    assert "Is a directory" in one_line_refusal(gopskit("replay", str(tmp_path)))
    assert "File name too long" in one_line_refusal(gopskit("replay", str(tmp_path / ("n" * 300))))
    assert "No such file" in one_line_refusal(gopskit("replay", str(tmp_path / "gone.json")))


def test_a_good_record_on_standard_input_with_a_byte_order_mark_replays():
    result = gopskit("replay", "-", "--json", stdin=b"\xef\xbb\xbf" + json.dumps(GOOD).encode())
    assert result.returncode == 0 and json.loads(result.stdout)["scores"] == [2, 1]


def run_main(argv, data: bytes, monkeypatch, capsys) -> tuple[int, str, str]:
    """``gopskit.cli.main`` in-process with ``data`` as binary standard input."""
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    try:
        code = cli.main(argv)
    except SystemExit as exc:  # argparse's own exit
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(
        st.sampled_from(["game", "options", "prizes", "bids", "hands", "plays", "x"]) | st.text(max_size=6),
        inner, max_size=5),
    max_leaves=20,
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.binary(max_size=300) | json_values.map(lambda v: json.dumps(v).encode()))
def test_main_on_any_bytes_answers_or_refuses_in_one_line(data, monkeypatch, capsys):
    code, out, err = run_main(["replay", "-"], data, monkeypatch, capsys)
    if code == 0:
        assert out and not err
    else:
        assert code == 2 and err.startswith("gopskit: ") and err.count("\n") == 1, err


@st.composite
def almost_right_records(draw):
    """A real record of a seeded game, with one to three values swapped for arbitrary JSON."""
    game = draw(st.sampled_from(available_games()))
    state = make_rules(game).new_game(seed=draw(st.integers(0, 1000)))
    steps = draw(st.integers(0, 12))
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply({p: state.legal_moves(p)[0] for p in state.to_move()})
    record = json.loads(json.dumps(state.record()))
    for _ in range(draw(st.integers(1, 3))):
        record = _swap_one(draw, record)
    return record


def _swap_one(draw, value):
    if isinstance(value, dict) and value and draw(st.booleans()):
        key = draw(st.sampled_from(sorted(value)))
        return {**value, key: _swap_one(draw, value[key])}
    if isinstance(value, list) and value and draw(st.booleans()):
        i = draw(st.integers(0, len(value) - 1))
        return value[:i] + [_swap_one(draw, value[i])] + value[i + 1:]
    return draw(json_values)


@settings(max_examples=150, deadline=None)
@given(record=almost_right_records())
def test_almost_right_records_replay_or_raise_a_gops_error(record):
    try:
        replay_record(record)
    except GopsError:
        pass


def test_a_file_whose_name_starts_with_a_brace_is_read_as_a_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "{odd}.json").write_text(json.dumps(GOOD))
    result = gopskit("replay", "{odd}.json", "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["scores"] == [2, 1]
    inline = gopskit("replay", json.dumps(GOOD), "--json")  # the record itself on the command line
    assert inline.returncode == 0 and json.loads(inline.stdout)["scores"] == [2, 1]
