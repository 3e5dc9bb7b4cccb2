"""The shipped 13-card opening book: where it came from, that it is consistent, and what the docs say of it."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from gopskit.solvers import opening
from gopskit.solvers.opening import first_turn_markdown, first_turn_table, parity_summary, shipped_opening

DOCS = Path(__file__).resolve().parent.parent / "docs" / "solver.md"


@pytest.fixture(scope="module")
def book():
    found = shipped_opening(13)
    assert found is not None, "gopskit/data/goofspiel-13-points-discard-opening.npz is missing from the package"
    return found


def test_provenance_travels_with_the_book(book):
    meta = book.provenance
    assert (meta["num_cards"], meta["objective"], meta["ties"], meta["lowest"]) == (13, "points", "discard", 11)
    assert meta["command"].startswith("gopskit solve --cards 13")
    stats = meta["stats"]
    assert stats["failed"] == 0, "a shipped value was not certified"
    assert stats["games"] == stats["pure"] + stats["simplex"] + stats["highs"] + stats["exact"] > 1_000_000_000
    assert book.plays(13) and book.plays(12) and book.plays(11) and not book.plays(10)
    deep = meta["deep"]
    assert (deep["num_cards"], deep["objective"], deep["ties"], deep["layer"]) == (13, "points", "discard", 10)
    assert deep["step"] == opening.DEEP_STEP == 0.0001 and deep["largest_rounding"] <= 0.00005 + 1e-12
    assert deep["command"].startswith("gopskit solve --cards 13") and deep["stats"]["failed"] == 0


def test_ten_card_values_rederived_by_exact_endgame_solves(book):
    """The deep layer holds real values of the game, each within 0.00005 (two positions: about 3 s each)."""
    from gopskit.solvers.exact import solve_endgame

    rng = np.random.default_rng(10)
    for _ in range(2):
        hand, opp, prizes = (sorted(rng.choice(np.arange(1, 14), 10, replace=False).tolist()) for _ in range(3))
        exact = solve_endgame(hand, opp, prizes).value(hand, opp, prizes)
        assert book.value(hand, opp, prizes) == pytest.approx(exact, abs=0.00005 + opening.SOLVER_SLACK)


def test_the_deep_layer_is_antisymmetric_and_mapped_from_the_cache(book, tmp_path, monkeypatch):
    from gopskit.solvers import opening

    rng = np.random.default_rng(12)
    for _ in range(200):
        hand, opp, prizes = (sorted(rng.choice(np.arange(1, 14), 10, replace=False).tolist()) for _ in range(3))
        assert book.value(hand, opp, prizes) == -book.value(opp, hand, prizes)
    monkeypatch.setenv("GOPSKIT_CACHE", str(tmp_path))
    opening.shipped_opening.cache_clear()
    try:
        first = opening.shipped_opening(13)  # decodes, and keeps the decoded layer in the cache folder
        assert [p.suffix for p in tmp_path.iterdir() if p.name.startswith("deep-13-points-discard-10-")] in (
            [".npy", ".lock"], [".lock", ".npy"])
        opening.shipped_opening.cache_clear()
        again = opening.shipped_opening(13)  # maps it
        assert isinstance(again.engine.values[10], np.memmap)
        assert np.array_equal(first.engine.values[10], again.engine.values[10])
        assert np.array_equal(again.engine.values[10], book.engine.values[10])
    finally:
        opening.shipped_opening.cache_clear()


def test_a_damaged_deep_layer_costs_one_turn_not_the_book(monkeypatch):
    from gopskit.solvers import opening

    monkeypatch.setitem(opening.SHIPPED_DEEP, (13, "points", "discard"), "lesson5-demo-tournament.json")
    opening.shipped_opening.cache_clear()
    try:
        with pytest.warns(UserWarning, match="cannot read deep layer .* one turn fewer"):
            book = opening.shipped_opening(13)
        assert book.plays(12) and not book.plays(11)
    finally:
        opening.shipped_opening.cache_clear()


def test_the_game_is_worth_zero_and_the_first_turn_games_are_too(book):
    full = range(1, 14)
    assert book.value(full, full, full) == pytest.approx(0, abs=1e-12)
    for row in first_turn_table(book):
        assert row["value"] == pytest.approx(0, abs=1e-12)
        assert sum(row["policy"].values()) == pytest.approx(1, abs=1e-12)


@pytest.mark.parametrize("j, tolerance", [(12, 1e-9), (11, 0.00005 + 1e-9)])
def test_values_rederived_from_the_layer_below(book, j, tolerance):
    """Bellman's equation, re-solved: a stored position is the mean of its turn games over the prizes.

    The 11-card turn games are built from the deep layer, each value within 0.00005: so is their mean.
    """
    engine = book.engine
    layer, rng = engine.tables.layers[j], np.random.default_rng(j)
    for _ in range(30):
        q, pattern = int(rng.integers(layer.num_prize_sets)), int(rng.integers(layer.num_patterns))
        turns = [engine.turn_game(j, q, pattern, t)[0] for t in range(13) if int(layer.masks[q]) >> t & 1]
        assert np.mean(turns) == pytest.approx(engine.stored_value(j, q, pattern), abs=tolerance)


def test_swapping_the_hands_negates_the_value(book):
    rng = np.random.default_rng(11)
    for _ in range(25):
        hand, opp = (sorted(rng.choice(np.arange(1, 14), 11, replace=False).tolist()) for _ in range(2))
        prizes = sorted(rng.choice(np.arange(1, 14), 11, replace=False).tolist())
        assert book.value(hand, opp, prizes) == pytest.approx(-book.value(opp, hand, prizes), abs=1e-12)


def test_docs_show_the_books_first_turn_table(book):
    text = DOCS.read_text()
    shown = re.search(r"<!-- first-turn-table -->\n(.*?)\n<!-- /first-turn-table -->", text, re.S)
    assert shown, "docs/solver.md has no first-turn table between its markers"
    assert shown.group(1).strip() == first_turn_markdown(book).strip()


def _prize_list(text: str) -> list[int]:
    head, _, last = text.rpartition(" and ")
    return [int(p) for p in head.split(", ")] + [int(last)]


def test_the_parity_effect_the_docs_describe(book):
    """Rhoads and Bartholdi: parity matters and the top card is favoured; docs/solver.md says where, from the book."""
    rows = first_turn_table(book)
    parity = parity_summary(rows)
    text = " ".join(DOCS.read_text().split())
    majority = [max(row["odd"], 1 - row["odd"]) for row in parity]
    least = int(re.search(r"one parity carries most of the bid \(at least (\d+) %\)", text).group(1))
    assert min(majority) >= least / 100
    strong = _prize_list(re.search(r"at least 80 % for the prizes ([0-9, and]+)\.", text).group(1))
    assert strong == [row["prize"] for row, share in zip(parity, majority) if share >= 0.8]
    odd = _prize_list(re.search(r"an odd card more often than not for the prizes ([0-9, and]+)\.", text).group(1))
    assert odd == [row["prize"] for row in parity if row["odd"] > 0.5]
    kings = re.search(r"(\d+) % of the bids when the King is turned, (\d+) % for the Queen, (\d+) % for the Jack", text)
    assert [int(k) for k in kings.groups()] == [round(100 * parity[p - 1]["top"]) for p in (13, 12, 11)]
    king = rows[12]["policy"]
    assert max(king, key=king.get) == 13


def test_lesson_two_shows_the_real_game_and_says_what_it_shows(book):
    import nbformat

    notebook = Path(__file__).resolve().parent.parent / "lessons" / "teacher" / "02-mixed-equilibria.ipynb"
    cells = [c.source for c in nbformat.read(notebook, 4).cells]
    assert any("mixed.first_turn_policy(13)" in source for source in cells)
    prose = " ".join(" ".join(cells).split())
    assert "bids the King about two times in three" in prose
    assert 0.6 < parity_summary(first_turn_table(book))[12]["top"] < 0.7
    assert "no row is a single hill" in prose
    from gopskit.course import mixed

    assert all(mixed.modes(row) >= 2 for row in mixed.first_turn_policy(13))


def test_processes_opening_the_deep_layer_together_share_one_decoded_copy(tmp_path):
    """Three fresh processes at once (a class starting together): each gets the layer, one file is written."""
    import os
    import subprocess
    import sys

    script = ("from gopskit.solvers.opening import shipped_opening; import numpy as np; "
              "b = shipped_opening(13); print(float(np.asarray(b.engine.values[10][:1000]).sum()))")
    env = {**os.environ, "GOPSKIT_CACHE": str(tmp_path)}
    runs = [subprocess.Popen([sys.executable, "-c", script], env=env, stdout=subprocess.PIPE, text=True) for _ in range(3)]
    outputs = [run.communicate(timeout=300)[0].strip() for run in runs]
    assert all(run.returncode == 0 for run in runs) and len(set(outputs)) == 1
    assert sorted(p.suffix for p in tmp_path.iterdir()) == [".lock", ".npy"]  # no copy left behind


def test_a_deep_layer_written_and_read_back_lets_a_book_play_one_more_turn(tmp_path, monkeypatch):
    """A 7-card book of two turns plus its rounded 4-card layer: turn 3 within 0.001 of the exact solution."""
    from gopskit.solvers import solve_goofspiel
    from gopskit.solvers.opening import load_opening, save_deep_layer, save_opening, with_deep_layer

    monkeypatch.setenv("GOPSKIT_CACHE", str(tmp_path / "cache"))
    full = solve_goofspiel(7)
    save_opening(full, tmp_path / "book.npz", depth=2)
    meta = save_deep_layer(full, tmp_path / "deep.npz", 4)
    assert meta["layer"] == 4 and meta["largest_rounding"] <= 0.0005
    book = load_opening(tmp_path / "book.npz")
    deeper = with_deep_layer(book, tmp_path / "deep.npz")
    assert not book.plays(5) and deeper.plays(5) and not deeper.plays(4)
    exact = np.asarray(full.engine.values[4])
    assert np.abs(np.asarray(deeper.engine.values[4]) - exact).max() <= 0.0005 + 1e-12
    hand, opp, prizes = (1, 2, 4, 6, 7), (2, 3, 4, 5, 7), (1, 3, 4, 5, 7)
    policy = deeper.policy(hand, opp, prizes, 7)
    x = np.array([policy[c] for c in hand])
    M = full.turn_matrix(hand, opp, prizes, 7)
    assert (x @ M).min() >= full.value(hand, opp, prizes, 7) - 0.001
