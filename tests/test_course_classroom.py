"""Lesson 5's classroom helpers, and the demo tournament shipped with the kit (its games replayed)."""

from __future__ import annotations

import itertools
import tempfile
from pathlib import Path

import pytest

from gopskit.agents import make_agent
from gopskit.arena.entries import entry_from_function
from gopskit.arena.match import play_game
from gopskit.course import classroom
from gopskit.course.strategies import FunctionAgent
from gopskit.games import replay_record
from gopskit.games.goofspiel import Goofspiel
from gopskit.solvers.exploit import agent_exploitability

DETERMINISTIC_BOTS = ("match-prize", "one-higher", "adaptive")


@pytest.fixture(scope="module")
def demo():
    return classroom.demo_tournament()


def test_demo_file_holds_the_round_robin_it_claims(demo):
    names = list(classroom.EXAMPLES) + list(classroom.DEMO_BOTS)
    assert sorted(demo.names) == sorted(names)
    assert demo.options["num_cards"] == classroom.NUM_CARDS and demo.games_per_seating == classroom.DEMO_GAMES
    pairs = len(list(itertools.combinations(names, 2)))
    assert len(demo.games) == pairs * 2 * classroom.DEMO_GAMES
    assert not demo.forfeits()


def test_demo_examples_are_the_ones_in_the_code(demo):
    folder = Path(tempfile.mkdtemp())
    for name, function in classroom.EXAMPLES.items():
        entry = entry_from_function(function, name=name, folder=folder)
        assert demo.entry(name)["sha256"] == entry.digest, f"{name} changed: run python -m gopskit.course.classroom"


def _agent(name):
    return FunctionAgent(classroom.EXAMPLES[name], name) if name in classroom.EXAMPLES else make_agent(name)


def test_every_demo_game_is_legal_and_deterministic_games_replay_bid_for_bid(demo):
    replayed = 0
    for game in demo.games:
        state = replay_record(game["record"])
        assert state.is_terminal() and state.scores() == game["points"]
        if all(name in classroom.EXAMPLES or name in DETERMINISTIC_BOTS for name in game["seats"]):
            rules = Goofspiel(num_cards=classroom.NUM_CARDS, prize_order=tuple(game["record"]["prizes"]))
            again = play_game(rules, [_agent(n) for n in game["seats"]], seed=0)
            assert again.record()["bids"] == game["record"]["bids"]
            replayed += 1
    assert replayed >= 150


def test_demo_exploitability_matches_the_exact_solver(demo):
    for name in ("ada", "ben", "cleo", "match-prize", "one-higher"):
        expected = agent_exploitability(_agent(name) if name not in classroom.EXAMPLES else
                                        classroom._DeterministicFunction(classroom.EXAMPLES[name]),
                                        num_cards=classroom.NUM_CARDS).exploitability
        assert demo.exploitability[name] == pytest.approx(expected)
    assert demo.exploitability["equilibrium"] == pytest.approx(0, abs=1e-9)


def test_winner_and_most_beaten_differ_in_the_demo(demo):
    assert classroom.tournament_winner(demo) == demo.ranking()[0]["name"]
    assert "equilibrium" in classroom.most_opponents_beaten(demo)
    assert classroom.tournament_winner(demo) not in classroom.most_opponents_beaten(demo)


def test_distance_from_equilibrium():
    assert classroom.distance_from_equilibrium(lambda o: o.prize) == pytest.approx(2.0)
    assert classroom.distance_from_equilibrium(...).status == "blank"
    assert classroom.distance_from_equilibrium(lambda o: None).status == "blank"  # an unwritten function
    assert classroom.distance_from_equilibrium(lambda o: o.prize and None).status == "wrong"  # forgets the card


def test_distance_from_equilibrium_of_a_strategy_that_mixes_is_a_note_not_a_wrong_number():
    """Lesson 5 invites students to mix (import random). One draw of such a function's bids is a different, fixed
    strategy: uniform random bidding's exploitability is 2.5 (what match-prize wins against it), but measuring one draw
    per position gave about 5.6. The kit now says it cannot measure a mixing strategy exactly, in a neutral note."""
    import random

    from gopskit.course.pure import points_against_random

    rng = random.Random(7)

    def mixes(observation):
        return rng.choice(observation.legal_moves)

    note = classroom.distance_from_equilibrium(mixes)
    assert not isinstance(note, float) and note.status == "note" and "uses randomness" in note.message
    assert "Note" in note._repr_html_() and not note
    assert float(points_against_random(range(1, 5)).difference) == pytest.approx(2.5)  # the true exploitability


def test_submit_and_class_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("GOPSKIT_CLASS_FOLDER", str(tmp_path / "class"))
    folder = classroom.class_folder()
    assert folder == tmp_path / "class" and folder.is_dir()
    assert classroom.class_tournament(folder).status == "blank"
    assert classroom.submit(..., "ada", folder).status == "blank"
    assert classroom.submit(classroom.ada, "two words", folder).status == "wrong"
    assert "def" in classroom.submit(lambda o: 1, "lam", folder).message

    def broken(observation):
        observation.prize  # noqa: B018 - written, but forgets to return a card

    verdict = classroom.submit(broken, "broken", folder)
    assert verdict.status == "wrong" and "None" in verdict.message
    assert classroom.submit(classroom.ada, "ada", folder).ok
    assert (folder / "ada.py").exists()
    monkeypatch.delenv("GOPSKIT_CLASS_FOLDER")
    assert classroom.class_folder() != folder


def test_class_tournament_runs_the_folder(tmp_path):
    classroom.submit(classroom.ada, "ada", tmp_path)
    results = classroom.class_tournament(tmp_path, bots=["random"], games=2)
    assert sorted(results.names) == ["ada", "random"] and len(results.games) == 4
    assert results.exploitability["ada"] == pytest.approx(4.0)


def _steady(observation):
    return observation.prize


def _strongest(observation):
    return max(observation.legal_moves)


def _forgets(observation):
    observation.prize  # noqa: B018 - written, but forgets to return a card


@pytest.mark.parametrize("name, words", [
    ("x" * 300, "at most 40"),  # was an OSError traceback (file name too long)
    ("_secret", "skipped by the tournament"),  # was 'saved', then never played: the tournament skips _*.py
    ("random", "one of the kit's bots"), ("Equilibrium", "one of the kit's bots"), ("match_prize", "one of the kit's bots"),
    ("nul", "Windows keeps for a device"),
])
def test_a_name_the_tournament_cannot_use_is_refused_with_the_reason(tmp_path, name, words):
    verdict = classroom.submit(_steady, name, tmp_path)
    assert verdict.status == "wrong" and words in verdict.message and "alice" in verdict.hint
    assert not list(tmp_path.iterdir())  # nothing half-saved


def test_a_name_that_differs_only_in_capitals_from_a_submission_is_refused(tmp_path):
    assert classroom.submit(_steady, "alice", tmp_path).ok
    verdict = classroom.submit(_strongest, "Alice", tmp_path)
    assert verdict.status == "wrong" and "only in capitals" in verdict.message
    assert [p.name for p in tmp_path.iterdir()] == ["alice.py"]


def test_resubmitting_keeps_the_earlier_file_and_a_failed_resubmission_puts_it_back(tmp_path):
    """Two students who pick the same name, or one who revises: the earlier file is never lost, and the
    tournament (which reads only *.py) still sees exactly one entry of that name."""
    assert classroom.submit(_steady, "alice", tmp_path).ok
    first = (tmp_path / "alice.py").read_text(encoding="utf-8")
    again = classroom.submit(_strongest, "alice", tmp_path)
    assert again.ok and "replaces an earlier alice.py, kept as alice.py.1.bak" in again.message
    assert (tmp_path / "alice.py.1.bak").read_text(encoding="utf-8") == first
    assert "_strongest" in (tmp_path / "alice.py").read_text(encoding="utf-8")
    second = (tmp_path / "alice.py").read_text(encoding="utf-8")
    failed = classroom.submit(_forgets, "alice", tmp_path)
    assert failed.status == "wrong" and "Your earlier alice.py stays in the class folder" in failed.message
    assert (tmp_path / "alice.py").read_text(encoding="utf-8") == second
    assert sorted(p.name for p in tmp_path.iterdir()) == ["alice.py", "alice.py.1.bak"]
    results = classroom.class_tournament(tmp_path, bots=["random"], games=2)
    assert sorted(results.names) == ["alice", "random"]


def test_notebook_helpers_answer_bad_options_with_a_sentence_not_a_traceback(tmp_path):
    """A teacher's or student's slip in the tournament or trial cell (a missing folder, a bot's name in capitals,
    one bot given as a string, 0 games) is a sentence in the notebook, never a traceback or a table of nan."""
    from gopskit.course.strategies import try_against

    missing = classroom.class_tournament(tmp_path / "nowhere", bots=["random"])  # was FileNotFoundError
    assert missing.status == "wrong" and "there is no folder" in missing.message and "GOPSKIT_CLASS_FOLDER" in missing.hint
    assert classroom.submit(_steady, "alice", tmp_path).ok
    unknown = classroom.class_tournament(tmp_path, bots=["Random"], games=2)  # was OptionError
    assert unknown.status == "wrong" and "unknown bot 'Random'" in unknown.message and "available: random" in unknown.message
    one = classroom.class_tournament(tmp_path, bots="random", games=2)  # was "unknown bot 'r'"
    assert sorted(one.names) == ["alice", "random"]
    assert "1 or more" in classroom.class_tournament(tmp_path, bots=["random"], games=0).message
    assert try_against(_steady, "random", num_cards=4, games=4).rows[0]["opponent"] == "random"
    zero = try_against(_steady, ["random"], num_cards=4, games=0)  # was a table of nan
    assert zero.status == "wrong" and "1 or more" in zero.message
    assert "unknown bot 'nobot'" in try_against(_steady, ["nobot"], num_cards=4, games=4).message
