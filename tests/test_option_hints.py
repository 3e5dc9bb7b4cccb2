"""Every option explains itself on screen, the same way on a board's panel and on the teacher's room form.

A tooltip is never seen on a projector, and a drop-down of engine names ("unique", "last-trick",
"middling") says nothing to a class: each control shows a hint under it, each drop-down shows words,
and a drop-down's hint says what the chosen value does.
"""

from __future__ import annotations

import pytest

from gopskit.classroom.pairing import PAIRINGS
from gopskit.games import rules_class
from gopskit.widgets.boards import make_board, view_for
from gopskit.widgets.classroom import TeacherApp

GAMES = ["goofspiel", "raj", "throps", "gops-for-three", "gooseberry-fool", "divide-and-conquer"]


@pytest.mark.parametrize("game", GAMES)
def test_every_option_has_an_explanation_and_every_choice_has_words(game):
    cls = rules_class(game)
    specs = [s for s in view_for(game).option_specs(cls) if s.name in cls.option_names()]
    assert specs
    for spec in specs:
        for value in spec.choices or [None]:
            assert spec.explain(value), (game, spec.name, value)
        # beside a longer label the box got 90-110 px of a grid column at 1280 px ("Play to (0: play the deals above)")
        assert len(spec.label) <= 24, (game, spec.label)
        assert "(0:" not in spec.help or "(0:" not in spec.label, spec  # what 0 means is said once
        if spec.kind != "choice":
            continue
        assert {value for value, _label, _meaning in spec.words} == set(spec.choices), (game, spec.name)
        labels = [spec.choice_label(c) for c in spec.choices]
        assert len(set(labels)) == len(labels), labels  # two choices never look alike
        assert max(map(len, labels)) <= 21, labels  # longer ones are cut off beside a long label at 1280 px
        for choice, label in zip(spec.choices, labels):
            assert label != choice and label[0].isupper() and spec.meaning(choice), (spec.name, choice, label)


@pytest.mark.parametrize("game", GAMES)
def test_a_boards_panel_shows_each_explanation_under_its_control(game):
    board = make_board(game)
    panel, view = board._panel, view_for(game)
    rules = panel.rules()
    for spec in panel.specs:
        box, control = panel.hinted[spec.name], panel.controls[spec.name]
        switch = panel.controls.get("defeat_the_dealer")
        hidden = spec.name == "dealer" and switch is not None and not switch.value
        assert box.children[0] is control and (box.layout.display == "none") == hidden  # a dealer only in Defeat the Dealer
        text = view.option_help(spec, rules)
        assert text and escape_free(text) in box.hint.value and control.tooltip == text, (spec.name, box.hint.value)
        if spec.kind == "choice":  # the drop-down shows words; the rules get the value behind them
            assert [value for _label, value in control.options] == list(spec.choices)
            assert dict(control.options)[spec.choice_label(getattr(rules, spec.name))] == getattr(rules, spec.name)


def escape_free(text: str) -> str:
    return text.replace("'", "&#x27;").replace("“", "“")


def test_choosing_a_tie_rule_shows_what_it_does_and_plays_it():
    board = make_board("goofspiel")
    panel = board._panel
    ties = panel.controls["ties"]
    assert dict(ties.options)["Highest unmatched bid"] == "unique"
    assert "nobody takes the prize" in panel.hinted["ties"].hint.value
    ties.value = "unique"
    assert "the highest bid left wins" in panel.hinted["ties"].hint.value
    assert panel.rules().ties == "unique"
    panel.controls["num_cards"].value = "7"  # Ace high's hint follows the deck: above the 7, worth 8
    assert "above the 7" in panel.hinted["ace_high"].hint.value and "worth 8" in panel.hinted["ace_high"].hint.value


@pytest.mark.parametrize("game", ["goofspiel", "raj", "gooseberry-fool"])
def test_the_teacher_form_explains_each_option_as_the_board_does(game, tmp_path):
    teacher = TeacherApp(str(tmp_path / "c.sqlite3"), bridge=False)
    teacher._game.value = game
    board = make_board(game)
    view, cls = view_for(game), rules_class(game)
    rules = cls.from_options(view.settle_options(teacher.options()))
    for name, (spec, control) in teacher._controls.items():
        text = view.option_help(spec, rules)
        assert text and escape_free(text) in teacher._hinted[name].hint.value, (name, teacher._hinted[name].hint.value)
        if spec.kind == "choice":
            assert control.options == board._panel.controls[name].options  # the same words as the board
    choice = next(name for name, (spec, _c) in teacher._controls.items() if spec.kind == "choice")
    spec, control = teacher._controls[choice]
    other = next(c for c in spec.choices if c != control.value)
    control.value = other
    assert escape_free(spec.meaning(other)) in teacher._hinted[choice].hint.value


def test_the_pairing_is_chosen_by_words_and_explained(tmp_path):
    teacher = TeacherApp(str(tmp_path / "c.sqlite3"), bridge=False)
    assert [value for _label, value in teacher._pairing.options] == list(PAIRINGS)
    assert all(label != value for label, value in teacher._pairing.options)
    assert "at random" in teacher._pairing_hinted.hint.value
    teacher._pairing.value = "round-robin"
    assert "every two students meet once" in teacher._pairing_hinted.hint.value


def test_a_choice_that_does_not_go_with_the_others_still_says_what_it_does(tmp_path):
    board = make_board("gooseberry-fool")
    board._panel.controls["target"].value = "0"
    board._panel.controls["ending"].value = "reach"  # "reach" needs a target: the panel shows an error
    assert "gopskit-error" in board._panel._message.value
    assert "the only player to reach the target" in board._panel.hinted["ending"].hint.value
    teacher = TeacherApp(str(tmp_path / "c.sqlite3"), bridge=False)
    teacher._game.value = "gooseberry-fool"
    teacher._controls["target"][1].value = "0"
    teacher._controls["ending"][1].value = "reach"
    assert "the only player to reach the target" in teacher._hinted["ending"].hint.value


def test_the_strategy_explorer_names_its_tie_rules_as_the_board_does():
    from gopskit.widgets.explorers import StrategyExplorer

    explorer = StrategyExplorer(num_cards=3)
    board = dict(make_board("goofspiel")._panel.controls["ties"].options)
    assert explorer.ties.options == (("Discard the prize", "discard"), ("Carry it over", "carry"))
    assert all(board[label] == value for label, value in explorer.ties.options)
