"""A card-table view most games share: a prize (or trick) area, one panel per seat,
the last play revealed, and a history table. A game's view fills in a few hooks.

Hooks (all pure functions of the state or the observation):

* :meth:`CardTableView.face` -- how a move or card looks: ``(rank, suit)``;
* :meth:`CardTableView.centre` -- the cards in the middle and a caption;
* :meth:`CardTableView.seat` -- a :class:`Seat` for one player;
* :meth:`CardTableView.plays` -- who played what in an event, and who won.
"""

from __future__ import annotations

import dataclasses
from html import escape

from ...games.base import GameState, MatchState
from ...cards import SUIT_SYMBOLS
from ..cards import render_card, render_cards
from .base import GameView, HandCard, _number, all_events, hand_over_text, match_line_text, match_over, score_label


@dataclasses.dataclass
class Seat:
    """What one seat's panel shows: ``hand`` as faces, or ``None`` with ``hidden`` backs."""

    score: str
    won: list
    hand: list | None
    hidden: int = 0
    note: str = ""
    won_label: str = "won"
    score_label: str = ""  # what the big number is, in a match: "this deal" or "match total"


def empty_pile(over: bool) -> str:
    """What an empty pile of won cards says: "nothing yet" while the deal lasts, "nothing" once it is over."""
    return "nothing" if over else "nothing yet"


def current_hand(state: GameState) -> GameState:
    """The hand being played (a match's current hand, or the state itself)."""
    return state.hand if isinstance(state, MatchState) else state


class CardTableView(GameView):
    """Shared drawing for the kit's card games."""

    centre_label = "Prize"
    key_for_card = True
    taker_header = "Won by"

    # -- hooks -------------------------------------------------------------
    def face(self, card, seat: int | None = None) -> tuple[str, str]:
        return str(card), ""

    def name(self, card, seat: int | None = None) -> str:
        """The card's one name (:func:`gopskit.cards.card_name`), as tables, tooltips and explanations write it."""
        rank, suit = self.face(card, seat)
        return rank + SUIT_SYMBOLS.get(suit, "")

    def card(self, state, card, seat: int | None = None) -> tuple[str, str, str]:
        """``(rank, suit, name)`` of a card on this table (a game may colour cards by the state, e.g. by who was dealt them)."""
        return (*self.face(card, seat), self.name(card, seat))

    def centre(self, state, obs) -> tuple[list, str]:
        """The cards in the middle, each ``(rank, suit, name)`` or ``(rank, suit, name, note)`` (a caption under
        it: who played it), or ``None`` for a face-down card; and a caption under them."""
        return [], ""

    def seat(self, state, obs, player: int, viewer: int | None) -> Seat:
        raise NotImplementedError

    def plays(self, event) -> tuple[list[tuple[int, object]], int | None]:
        """``([(seat, card), ...], winner)`` of one event: the winner's card is the one that won."""
        return [(p, b) for p, b in enumerate(event.bids)], event.winner

    def taker(self, event) -> int | None:
        """Who took what the event was for (the winner, unless a game says otherwise)."""
        return self.plays(event)[1]

    def taker_text(self, event, names) -> str:
        """The history's "Won by" cell: who took what the event was for, or "nobody"."""
        taker = self.taker(event)
        return names[taker] if taker is not None else "nobody"

    def key(self, move) -> str:
        return ""

    # -- shared drawing ----------------------------------------------------
    def hand(self, state, seat):
        obs = state.observation(seat)
        legal = list(obs.legal_moves)
        cards = list(getattr(obs, "hand", ())) or legal
        moves = cards if all(c in cards for c in legal) else legal
        out = []
        for m in moves:
            rank, suit, name = self.card(state, m, seat)
            out.append(HandCard(m, rank, suit, self.key(m), m in legal, name=name))
        return out

    def render_table(self, state, viewer, names):
        obs = state.observation(viewer if viewer is not None else 0)
        cards, caption = self.centre(state, obs)
        centre = "".join(render_card(c[0], c[1], name=c[2] if len(c) > 2 else "", size="large", note=c[3] if len(c) > 3 else "")
                         if c else render_card("", face_up=False, size="large") for c in cards)
        centre = centre or '<span class="gopskit-empty">nothing on the table</span>'
        over = current_hand(state).is_terminal()
        seats = "".join(self._seat_html(self._match_seat(state, self.seat(state, obs, p, viewer), p), names[p], p == viewer, over)
                        for p in range(len(names)))
        return (
            f'<div class="gopskit-table"><div class="gopskit-prize-area"><div class="gopskit-label">{escape(self.centre_label)}</div>'
            f'<div class="gopskit-prize-cards">{centre}</div><div class="gopskit-caption">{escape(caption)}</div></div>'
            f'<div class="gopskit-seats">{seats}</div>{self.match_line(state, names)}</div>'
        )

    def _match_seat(self, state, seat: Seat, player: int) -> Seat:
        """In a match the big number says what it counts; at the end it is the final match total (the engine's)."""
        label = score_label(state, self.deal_word)
        if match_over(state):
            label = f"match total; last {self.deal_word} {seat.score}"
            return dataclasses.replace(seat, score=_number(state.scores()[player]), score_label=label)
        return dataclasses.replace(seat, score_label=label)

    event_says_deal_over = False  # the engine's last event of a deal already says "Deal over: ..." (Gops for three, Throps)

    def explain_last(self, state, names):
        """The last event, and ``Deal N over: ...`` with the match totals when a match has just dealt again
        (unless the game's own last event of a deal says so)."""
        event = self.last(state)
        text = event.explain(names) if event else ""
        over = "" if self.event_says_deal_over else hand_over_text(state, names, self.deal_word)
        return f"{text} {over}".strip()

    def _seat_html(self, seat: Seat, name: str, you: bool, over: bool = False) -> str:
        won = render_cards(seat.won, size="tiny", empty=empty_pile(over))
        held = render_cards(seat.hand if seat.hand is not None else [None] * seat.hidden, size="tiny", empty="no cards")
        note = f'<div class="gopskit-caption">{escape(seat.note)}</div>' if seat.note else ""
        return (
            f'<div class="gopskit-seat{" gopskit-you" if you else ""}"><div class="gopskit-seat-head">'
            f'<span class="gopskit-name">{escape(name)}</span><span class="gopskit-score">{escape(seat.score)}</span></div>'
            + (f'<div class="gopskit-caption gopskit-score-label">{escape(seat.score_label)}</div>' if seat.score_label else "")
            +             f'<div class="gopskit-caption">{escape(seat.won_label)}</div><div class="gopskit-won">{won}</div>'
            f'<div class="gopskit-caption">hand</div><div class="gopskit-held">{held}</div>{note}</div>'
        )

    def render_last(self, state, viewer, names):
        event = self.last(state)
        if event is None:
            return '<div class="gopskit-reveal gopskit-quiet">The cards played will appear here.</div>'
        played, winner = self.plays(event)
        cards = []
        for p, card in played:
            rank, suit, name = self.card(state, card, p)
            won = p == winner
            cards.append(render_card(rank, suit, name=name, size="normal",
                                     classes="gopskit-flip" + (" gopskit-winner" if won else ""),
                                     note=f"{names[p]} wins" if won else names[p]))
        return (
            f'<div class="gopskit-reveal"><div class="gopskit-label">Last play</div>'
            f'<div class="gopskit-bids">{"".join(cards)}</div><div class="gopskit-why">{escape(event.explain(names))}</div></div>'
        )

    def last(self, state):
        events = all_events(state)
        return events[-1] if events else None

    def history(self, state, viewer, names):
        headers = ["#"] + list(names) + [self.taker_header, "What happened"]
        rows = []
        for i, event in enumerate(all_events(state), 1):
            played, winner = self.plays(event)
            by_seat = dict(played)
            cells = []
            for p in range(len(names)):
                text = escape(self.card(state, by_seat[p], p)[2]) if p in by_seat else ""
                cells.append(f"<b>{text}</b>" if p == winner else text)
            rows.append([str(i)] + cells + [escape(self.taker_text(event, names)), escape(event.explain(names))])
        return headers, rows

    def match_line(self, state, names) -> str:
        if not isinstance(state, MatchState):
            return ""
        return f'<div class="gopskit-caption gopskit-match">{escape(match_line_text(state, names, self.deal_word))}</div>'
