"""Small cards read on a projector: the rank is their big glyph; the Goose says Goose (audit item 5)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from gopskit.cards import card_name
from gopskit.widgets.boards import make_board
from gopskit.widgets.cards import render_card
from gopskit.widgets.views.gooseberry_fool import GooseberryFoolView

from screens_visual_static import browser, html_widget, open_page, page_html  # noqa: F401

NS = "{http://www.w3.org/2000/svg}"


def _texts(html: str) -> list[tuple[str, str]]:
    svg = ET.fromstring(html[html.index("<svg"):html.index("</svg>") + 6])
    return [(t.get("class", ""), t.text or "") for t in svg.iter(f"{NS}text")]


@pytest.mark.parametrize("rank,suit", [("10", "H"), ("Q", "S"), ("A", "D"), ("7", "C"), ("+10", ""), ("-5", "")])
def test_tiny_and_small_cards_show_the_rank_large_and_big_cards_stay_real(rank, suit):
    for size in ("tiny", "small"):
        texts = _texts(render_card(rank, suit, size=size))
        big = [text for cls, text in texts if "gopskit-pip" in cls.split()]
        assert big == [rank], (size, texts)  # the one big glyph is the rank, not the suit
    texts = _texts(render_card(rank, suit, size="large"))
    corners = [text for cls, text in texts if cls == "gopskit-corner"]
    assert corners == [rank, rank]  # the real-card look: the rank in two corners
    if suit:
        assert [text for cls, text in texts if cls == "gopskit-pip"] == [card_name(f"{rank}{suit}")[-1]]


@pytest.mark.parametrize("size", ["tiny", "small", "normal", "large"])
def test_the_goose_says_goose_never_jk(size):
    view = GooseberryFoolView()
    rank, suit, name = view.card(None, "JK")
    assert name == card_name("JK", joker="Goose") == "Goose"
    html = render_card(rank, suit, size=size, name=name)
    words = [text for _cls, text in _texts(html)]
    assert "Goose" in words and not any("JK" in w for w in words), words
    assert 'aria-label="goose"' in html and 'data-name="Goose"' in html
    assert "Joker" in [t for _c, t in _texts(render_card("JK", size=size))]  # a plain Joker is a Joker


@pytest.mark.parametrize("game", ["throps", "gops-for-three", "gooseberry-fool", "raj"])
def test_seat_panel_cards_show_their_rank_at_projector_size(browser, game):  # noqa: F811
    seats = len(make_board(game, seed=3).seats)
    board = make_board(game, seats=["random"] * seats, seed=3)
    page = open_page(browser, page_html(html_widget(board._table.value)), (1920, 1080))
    found = page.evaluate("""() => Array.from(document.querySelectorAll('.gopskit-tiny, .gopskit-small'))
      .filter(card => !card.classList.contains('gopskit-back')).map(card => {
        let best = null;
        for (const t of card.querySelectorAll('text')) {
          const size = parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a;
          if (!best || size > best.size) best = {text: t.textContent, size};
        }
        return {name: card.getAttribute('aria-label'), big: best.text, size: best.size};
      })""")
    page.close()
    assert found, game
    for card in found:
        if card["name"] in ("goose", "joker"):
            continue
        assert card["big"] not in "♠♥♦♣" and card["size"] >= 20, (game, card)  # the rank, at 20 px or more


def test_a_tiny_or_small_goose_shows_its_word_large_inside_the_card(browser):  # noqa: F811
    cards = "".join(render_card("JK", "", size=size, name="Goose") for size in ("tiny", "small"))
    for size in ("tiny", "small"):  # like other small cards, no corners to crowd the middle
        classes = [cls for cls, _text in _texts(render_card("JK", "", size=size, name="Goose"))]
        assert "gopskit-corner" not in classes, (size, classes)
    page = open_page(browser, page_html(cards), (1920, 1080))
    found = page.evaluate("""() => Array.from(document.querySelectorAll('.gopskit-cardface')).map(card => {
        const word = Array.from(card.querySelectorAll('text')).find(t => t.textContent === 'Goose');
        const box = word.getBoundingClientRect(), face = card.querySelector('svg').getBoundingClientRect();
        return {size: parseFloat(getComputedStyle(word).fontSize) * word.getScreenCTM().a,
                inside: box.left >= face.left && box.right <= face.right && box.bottom <= face.bottom};
      })""")
    page.close()
    assert len(found) == 2
    for card in found:  # the word was 8 px on a tiny card at 1920x1080 under a crowding corner star
        assert card["size"] >= 12 and card["inside"], card


def test_a_three_character_rank_fits_its_small_card_at_the_others_size(browser):  # noqa: F811
    cards = "".join(render_card(rank, "", size=size) for size in ("tiny", "small") for rank in ("+10", "+9"))
    page = open_page(browser, page_html(cards), (1920, 1080))
    found = page.evaluate("""() => Array.from(document.querySelectorAll('.gopskit-cardface')).map(card => {
        const t = card.querySelector('.gopskit-rank-pip'), box = t.getBoundingClientRect(),
              face = card.querySelector('svg').getBoundingClientRect();
        return {rank: t.textContent, size: parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a,
                inside: box.left >= face.left - 0.5 && box.right <= face.right + 0.5}; })""")
    page.close()
    for card in found:
        assert card["inside"] and card["size"] >= 20, card  # Raj's +10 was drawn at 18 px beside a 25 px +9
