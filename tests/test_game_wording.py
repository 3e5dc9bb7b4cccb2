"""A game in words (gopskit.games.wording): the boards' rules line, without the UI, for the classroom's pages and CLI."""

from __future__ import annotations

import doctest
import itertools
import json
import subprocess
import sys

import pytest

from gopskit.errors import OptionError
from gopskit.games import available_games, rules_class
from gopskit.games import wording
from gopskit.games.wording import describe_game, game_title, rules_line


def _values(spec):
    if spec.kind == "bool":
        return [True, False]
    if spec.kind == "choice":
        return list(spec.choices)
    if spec.kind == "optional-int":
        return [None, 12]
    if spec.kind in ("int", "seat"):
        return sorted({spec.low, spec.high, (spec.low + spec.high) // 2, min(spec.low + 1, spec.high)})
    return []


def _rules_to_try(game, view):
    """The defaults, every value of every option the board offers, and every pair of them (where they combine)."""
    cls = rules_class(game)
    changes = [(spec.name, value) for spec in view.option_specs(cls) for value in _values(spec)]
    tried = [{}] + [dict([c]) for c in changes] + [dict(pair) for pair in itertools.combinations(changes, 2)
                                                   if pair[0][0] != pair[1][0]]
    if game == "goofspiel":
        tried += [{"num_cards": 4, "prize_order": [3, 1, 4, 2]}, {"num_cards": 1}]
    for options in tried:
        try:
            yield cls.from_options({**view.app_options, **options})
        except OptionError:
            continue


@pytest.mark.parametrize("game", available_games())
def test_the_words_are_the_boards_words(game):
    """Every game, every option the board offers, and pairs of them: the board shows these very words
    (no view writes its own line), and every combination has one."""
    from gopskit.widgets.boards import view_for

    view = view_for(game)
    assert game_title(game) == view.title
    count = 0
    for rules in _rules_to_try(game, view):
        assert rules_line(rules) and rules_line(rules) == view.rules_text(rules), rules.options()
        count += 1
    assert count >= 2


def test_a_room_is_described_in_readable_words_not_option_names():
    line = describe_game("goofspiel", {"num_cards": 3, "ties": "carry", "target": 20})
    assert line == "Goofspiel: 3 cards; a tie carries the prize over to the next turn; prizes shuffled; match to 20"
    assert "num" not in line and "_" not in line
    assert describe_game("gops-for-three", {}).startswith("Gops for three: 3 deals;")
    assert describe_game("goofspiel", {"num_cards": 3, "colour": "red"}) == "Goofspiel"  # a caption never fails
    assert describe_game("chess", {}) == "Chess"


def test_the_classroom_pages_use_these_words():
    from gopskit.widgets import classroom

    assert classroom.describe_game is describe_game


def test_the_classroom_command_line_needs_no_widgets():
    code = "import sys, json, gopskit.classroom.cli; print(json.dumps(sorted(sys.modules)))"
    loaded = json.loads(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                                       check=True).stdout)
    assert not [m for m in loaded if m.startswith(("gopskit.widgets", "ipywidgets", "matplotlib"))]


def test_the_docstring_examples_hold():
    assert doctest.testmod(wording).failed == 0
