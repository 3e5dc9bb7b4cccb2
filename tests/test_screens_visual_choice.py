"""Gooseberry Fool's "who takes the trick" choices look like buttons a class can read (audit item 3).

The slot is the board's (gopskit.widgets.hand: a Box of the face's HTML and a transparent
button over it); the face is the board's own choice HTML (GameBoard._face_html).
"""

from __future__ import annotations

import pytest

from gopskit.widgets.boards import make_board

from screens_visual_static import browser, open_page, page_html  # noqa: F401


class _Taker:
    """A move of the hand row that is not a card, as Gooseberry Fool's Goose offers it (see HandCard)."""

    is_card = False

    def __init__(self, seat: int):
        self.seat = seat

    def label(self) -> str:
        return f"Player {self.seat + 1}"


def _goose_choices() -> list[str]:
    """The faces the board draws for the three takers a Goose holder chooses from."""
    board = make_board("gooseberry-fool", seats=["human", "random", "random"], seed=1)
    return [board._face_html(_Taker(p), chosen=False) for p in range(3)]


def _hand(faces, selected: int | None = None) -> str:
    slots = "".join(
        '<div class="widget-box gopskit-slot"><div class="widget-html"><div class="widget-html-content">'
        f'{face.replace("gopskit-choice ", "gopskit-choice gopskit-selected ") if k == selected else face}'
        '</div></div><button class="jupyter-button gopskit-card"></button></div>' for k, face in enumerate(faces))
    return f'<div class="widget-box gopskit-hand" style="flex-direction:row">{slots}</div>'


STYLE_JS = """(k) => { const c = document.querySelectorAll('.gopskit-choice')[k], s = getComputedStyle(c), r = c.getBoundingClientRect();
  return {border: parseFloat(s.borderTopWidth), bg: s.backgroundColor, colour: s.color, size: parseFloat(s.fontSize),
          outline: s.outlineStyle, w: r.width, h: r.height, lines: Math.round(r.height / parseFloat(s.lineHeight)),
          text: c.innerText}; }"""


@pytest.mark.parametrize("size", [(1920, 1080), (1280, 800)])
def test_the_choices_are_large_tiles_with_hover_focus_and_selected_states(browser, size):  # noqa: F811
    faces = _goose_choices()
    assert [f.split(">")[1].split("<")[0] for f in faces] == ["Player 1", "Player 2", "Player 3"]
    page = open_page(browser, page_html(_hand(faces, selected=2)), size)
    try:
        plain = page.evaluate(STYLE_JS, 0)
        assert plain["border"] >= 2 and plain["bg"] not in ("rgba(0, 0, 0, 0)", "transparent"), plain
        assert plain["size"] >= (26 if size[0] == 1920 else 22) and plain["h"] >= 80 and plain["w"] >= 150, plain
        button = page.evaluate("() => { const b = document.querySelector('.gopskit-card').getBoundingClientRect(),"
                               " c = document.querySelector('.gopskit-choice').getBoundingClientRect();"
                               " return [b.width >= c.width - 1, b.height >= c.height - 1,"
                               " getComputedStyle(document.querySelector('.gopskit-card')).cursor]; }")
        assert button == [True, True, "pointer"]  # the whole tile is the button
        page.hover(".gopskit-slot >> nth=0")
        page.wait_for_timeout(400)  # the colour eases in
        hovered = page.evaluate(STYLE_JS, 0)
        assert hovered["bg"] != plain["bg"], (plain, hovered)
        page.mouse.move(0, size[1] - 1)
        page.keyboard.press("Tab")
        assert page.evaluate(STYLE_JS, 0)["outline"] != "none"
        chosen = page.evaluate(STYLE_JS, 2)
        assert chosen["bg"] != plain["bg"] and chosen["colour"] != plain["colour"], chosen
    finally:
        page.close()
