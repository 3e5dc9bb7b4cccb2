"""The screen oracle in a real browser: each of the six boards played to the end by clicking.

One Voila server for the module (``gopskit.serve.background_server``, as in
``tests/test_browser.py``) and Debian's Chromium through Playwright. On every
board the test clicks the first playable card (and the confirm button where
the game has one) until the status line says the game is over, then reads the
final screen and checks it against the engine: the game's record, folded
under the end summary, is replayed by ``gopskit.games.replay_record`` and the
status line, every panel's score, the summary and the turn table must agree
with the replayed game.
"""

from __future__ import annotations

import json
import re

import pytest

from gopskit.games import replay_record
from gopskit.games.base import MatchState

from test_browser import browser, open_app, server  # noqa: F401 - the shared fixtures (one server and browser per module)

pytestmark = [pytest.mark.browser, pytest.mark.slow]

BOARDS = [
    ("goofspiel.ipynb", "goofspiel"),
    ("gops_for_three.ipynb", "gops-for-three"),
    ("throps.ipynb", "throps"),
    ("gooseberry_fool.ipynb", "gooseberry-fool"),
    ("divide_and_conquer.ipynb", "divide-and-conquer"),
    ("raj.ipynb", "raj"),
]
CLICK_TIMEOUT_MS = 20_000


def _status(page) -> str:
    return page.locator(".gopskit-status").inner_text().strip()


def _click_once(page) -> None:
    """One person's move: a playable card, then confirm if the board asks; wait for the board to answer.

    A bot still thinking is not the answer: while the page says so the cards
    are greyed, and after the last move there are none to click.
    """
    before = _status(page)
    clicks = page.locator(".gopskit-timing").inner_html()
    _wait_for_a_card(page)
    if _over(_status(page)):
        return
    page.locator(".gopskit-card:not([disabled])").first.click()
    confirm = page.locator(".gopskit-confirm:not([disabled])")
    if page.locator(".gopskit-confirm").is_visible():
        confirm.wait_for(timeout=CLICK_TIMEOUT_MS)
        before = _status(page)
        clicks = page.locator(".gopskit-timing").inner_html()
        confirm.click()
    page.wait_for_function(
        "([status, clicks]) => {"
        " const s = document.querySelector('.gopskit-status').innerText.trim();"
        " const t = document.querySelector('.gopskit-timing').innerHTML;"
        " return (s !== status || t !== clicks) && !s.includes('you chose') && !s.includes('still working out'); }",
        arg=[before, clicks], timeout=CLICK_TIMEOUT_MS,
    )


def _over(status: str) -> bool:
    return status.startswith(("Game over", "Match cut off"))  # a match stopped at its cap says so instead


def _wait_for_a_card(page) -> None:
    """Until a card can be clicked or the game is over; if neither comes, fail saying what the page shows."""
    try:
        page.wait_for_function(
            "() => !!document.querySelector('.gopskit-card:not([disabled])')"
            " || /^(Game over|Match cut off)/.test(document.querySelector('.gopskit-status').innerText.trim())",
            timeout=CLICK_TIMEOUT_MS)
    except Exception as exc:  # noqa: BLE001 - said with what the page shows, for the run's log
        cards = page.locator(".gopskit-card").count()
        raise AssertionError(f"no card to click and the game not over after {CLICK_TIMEOUT_MS} ms; status: "
                             f"{_status(page)!r}; {cards} card buttons, all disabled; hand row: "
                             f"{page.locator('.gopskit-hand').inner_text()!r}") from exc


def _play_to_the_end(page) -> None:
    for _ in range(400):
        if _over(_status(page)):
            return
        _click_once(page)
    raise AssertionError(f"the game did not end; status: {_status(page)!r}")


def _number(value) -> str:
    value = float(value)
    return str(int(value)) if value == int(value) else f"{value:g}"


@pytest.mark.parametrize("notebook,game", BOARDS, ids=[g for _n, g in BOARDS])
def test_board_played_to_the_end_agrees_with_the_engine(server, browser, notebook, game, tmp_path):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    try:
        open_app(page, server, notebook, tmp_path)
        page.locator(".gopskit-card").first.wait_for(timeout=CLICK_TIMEOUT_MS)
        _play_to_the_end(page)
        page.screenshot(path=str(tmp_path / f"{game}-end.png"), full_page=True)
        record = json.loads(page.locator(".gopskit-record pre").text_content())
        assert record["game"] == game
        state = replay_record(record)
        scores, winners = state.scores(), state.winners()
        names = [f"Player {p + 1}" for p in range(len(scores))]

        status = _status(page)
        assert status.startswith("Game over. Final score: " + ", ".join(f"{n} {_number(s)}" for n, s in zip(names, scores)))
        if len(winners) == 1:
            assert re.search(rf"{names[winners[0]]} wins( \([^)]*\))?!$", status), status

        hand = state.hand if isinstance(state, MatchState) else state
        panel_scores = [t.strip() for t in page.locator(".gopskit-seat .gopskit-score").all_inner_texts()]
        # a finished match's panels show the final match totals (the last hand's are said under them)
        expected = [_number(s) for s in (scores if isinstance(state, MatchState) else hand.scores())]
        assert panel_scores == expected, f"panels {panel_scores}, engine {expected}"

        summary = [t.strip() for t in page.locator(".gopskit-summary li").all_inner_texts()]
        assert summary == [f"{n}: {_number(s)}" for n, s in zip(names, scores)]

        rows = page.locator(".gopskit-history tbody tr").count()
        hands = state.hands if isinstance(state, MatchState) else [state]
        assert rows == sum(len([e for e in h.events if e is not None]) for h in hands)
        last_row = page.locator(".gopskit-history tbody tr").last.inner_text()
        last_event = [e for e in hands[-1].events if e is not None][-1]
        if game != "goofspiel":  # Goofspiel's table gives the result column, not the sentence
            assert last_event.explain(names) in last_row
        assert re.search(r"\(0 to \d+\)", page.locator(".gopskit-summary svg").inner_html())
    finally:
        page.close()


def test_the_full_deck_against_the_equilibrium_bot_in_a_browser(server, browser, tmp_path):
    """13 cards against the equilibrium bot, chosen in the board's own panel and played by clicking.

    Every bid the bot made must be one the exact equilibrium plays there: from
    the shipped book in turns 1-2, from an exact solve of the rest of the
    hand from turn 4 on. Turn 3's bid is drawn by certified sampling
    (``tests/test_certified_turn.py`` checks it against exact solves), which
    plays the lowest of cards that are worth the same: there its run of
    interchangeable cards must be one the book's mix plays.
    """
    from gopskit.solvers.certified import interchangeable
    from gopskit.solvers.exact import solve_turn_endgame
    from gopskit.solvers.opening import shipped_opening
    from gopskit.widgets.seats import bot_label

    page = browser.new_page(viewport={"width": 1280, "height": 900})
    try:
        open_app(page, server, "goofspiel.ipynb", tmp_path)
        page.get_by_text("Options and seats").click()  # the accordion opens
        label = bot_label("equilibrium")  # seat choosers show readable labels ("Equilibrium bot")
        page.locator(".gopskit-seat-choosers select").nth(1).select_option(label=label)
        page.get_by_label("Cards").fill("13")
        page.get_by_label("Cards").press("Tab")  # the seat choosers are drawn again for the new deck
        page.wait_for_function("(label) => document.querySelectorAll('.gopskit-seat-choosers select')[1]"
                               ".selectedOptions[0].textContent.replace(/\\u00a0/g, ' ') === label", arg=label, timeout=CLICK_TIMEOUT_MS)
        page.wait_for_timeout(300)
        page.locator(".gopskit-new-game").click()
        page.wait_for_function("() => document.querySelectorAll('.gopskit-card:not([disabled])').length === 13",
                               timeout=CLICK_TIMEOUT_MS)
        _play_to_the_end(page)
        record = json.loads(page.locator(".gopskit-record pre").text_content())
        assert record["options"]["num_cards"] == 13 and len(record["bids"]) == 13
        replay_record(record)
        book = shipped_opening(13)
        person, bot, prizes = set(range(1, 14)), set(range(1, 14)), set(range(1, 14))
        endgame = None
        for turn, ((mine, theirs), prize) in enumerate(zip(record["bids"], record["prizes"])):
            if turn < 3:
                policy = book.policy(bot, person, prizes, prize)
            elif turn == 3:
                endgame = solve_turn_endgame(bot, person, prizes, prize)
                policy = endgame.policy
            elif turn > 3:
                policy = endgame.rest.policy(bot, person, prizes, prize)
            if turn == 2:
                hand, other = sorted(bot), sorted(person)
                run = next(r for r in interchangeable(hand, other) if theirs in [hand[i] for i in r])
                assert sum(policy[hand[i]] for i in run) > 1e-9, f"turn 3: the bot bid {theirs}, which the equilibrium never plays"
            else:
                assert policy[theirs] > 1e-9, f"turn {turn + 1}: the bot bid {theirs}, which the equilibrium never plays"
            person, bot, prizes = person - {mine}, bot - {theirs}, prizes - {prize}
    finally:
        page.close()
