"""Card faces drawn as inline SVG: pure functions from card data to HTML strings.

Every board draws its cards with :func:`render_card` so that all the games of
the kit look alike. A face shows the rank in two corners and a large suit
symbol in the middle; a tiny or small card (won piles, hands in the seat
panels) shows its rank as the large glyph instead, with the suit under it,
since its corners are too small to read on a projector. A Joker shows a star
and its name in the game (the Goose), never the code ``JK``. Red suits are drawn in red *and* on a warm tinted face
with a dashed inner frame, so the suits stay apart for people who do not see
red well; the symbol's shape is a third cue, and every card carries a spoken
name (``aria-label``) for screen readers.

Nothing here imports ipywidgets: tests call these functions directly.

>>> html = render_card("Q", "S")
>>> "Q" in html and "♠" in html and "gopskit-face" in html
True
>>> "gopskit-back" in render_card("Q", "S", face_up=False)
True
"""

from __future__ import annotations

from html import escape

from ..cards import SUIT_NAMES, SUIT_SYMBOLS, card_name

RED = "#c62828"
BLACK = "#1b1b1b"
SIZES = ("tiny", "small", "normal", "large")
RANK_WORDS = {"A": "ace", "J": "jack", "Q": "queen", "K": "king", "JK": "joker"}


def goofspiel_rank(value: int, ace_high: bool = False) -> str:
    """The face label of a Goofspiel card value 1..13 (``A``, ``2`` .. ``K``).

    >>> goofspiel_rank(1), goofspiel_rank(10), goofspiel_rank(13)
    ('A', '10', 'K')
    """
    return card_name(int(value))


def card_label(rank: str, suit: str) -> str:
    """A spoken name for a card, e.g. ``card_label("Q", "S") == "queen of spades"``."""
    word = RANK_WORDS.get(rank, rank)
    if not suit:
        return word
    return f"{word} of {SUIT_NAMES.get(suit, suit)}"


def render_card(
    rank: str,
    suit: str = "",
    *,
    face_up: bool = True,
    size: str = "normal",
    classes: str = "",
    note: str = "",
    name: str = "",
) -> str:
    """Return one card as an HTML ``<span>`` holding an SVG face (or back).

    ``rank`` is the corner label (``"A"``, ``"10"``, ``"+3"``, ``"JK"``);
    ``suit`` a suit letter ``S H D C`` or ``""`` for a plain card (bids in
    Raj, the Joker); ``size`` one of ``tiny small normal large``; ``classes``
    extra CSS classes (``"gopskit-winner"``, ``"gopskit-played"``); ``note``
    a short caption under the card (``"+5"``, ``"you"``); ``name`` the
    card's one name in the game's text (:func:`gopskit.cards.card_name`),
    kept in ``data-name`` and shown as its tooltip; it defaults to the rank
    and suit symbol.
    """
    if size not in SIZES:
        raise ValueError(f"card size is one of {', '.join(SIZES)}, not {size!r}")
    if not face_up:
        return _wrap(_BACK_SVG, f"gopskit-back gopskit-{size} {classes}", "a face-down card", note, "")
    red = suit in ("H", "D")
    colour = RED if red else BLACK
    symbol = SUIT_SYMBOLS.get(suit, "")
    joker = rank == "JK"
    word = _joker_word(name) if joker else ""
    corner = "★" if joker else escape(rank)
    frame = ('<svg viewBox="0 0 70 100" xmlns="http://www.w3.org/2000/svg" aria-hidden="true">'
             '<rect x="1" y="1" width="68" height="98" rx="7" class="gopskit-card-bg"/>'
             + ('<rect x="5" y="5" width="60" height="90" rx="4" class="gopskit-red-frame"/>' if red else ""))
    top_corner = (f'<text x="8" y="22" class="gopskit-corner" fill="{colour}">{corner}</text>'
                  f'<text x="8" y="36" class="gopskit-corner-suit" fill="{colour}">{symbol}</text>')
    if joker and size in ("tiny", "small"):  # no corners, as for other small cards: the star and the word, both large
        svg = (frame
               + f'<text x="35" y="50" text-anchor="middle" class="gopskit-pip" fill="{colour}">★</text>'
               + f'<text x="35" y="86" text-anchor="middle" class="gopskit-joker-word gopskit-joker-word-big" fill="{colour}" '
               f'textLength="{min(64, 14 * len(word))}" lengthAdjust="spacingAndGlyphs">{escape(word)}</text></svg>')
    elif joker:  # the card's own word (the Goose), not the code "JK"
        middle = (f'<text x="35" y="62" text-anchor="middle" class="gopskit-pip" fill="{colour}">★</text>'
                  f'<text x="35" y="86" text-anchor="middle" class="gopskit-joker-word" fill="{colour}" '
                  f'textLength="{min(58, 11 * len(word))}" lengthAdjust="spacingAndGlyphs">{escape(word)}</text>')
        svg = frame + top_corner + middle + "</svg>"
    elif size in ("tiny", "small"):  # too small for corners to be read: the rank is the big glyph, the suit under it
        # a rank of three characters (Raj's +10) keeps nearly the others' height, squeezed to the card's width
        long, fit = ((" gopskit-rank-long", ' textLength="64" lengthAdjust="spacingAndGlyphs"') if len(rank) > 2
                     else ("", ""))
        svg = (frame  # no corners: they would crowd the big rank and are unreadable at this size
               + f'<text x="35" y="62" text-anchor="middle" class="gopskit-pip gopskit-rank-pip{long}"{fit} fill="{colour}">{escape(rank)}</text>'
               + (f'<text x="35" y="90" text-anchor="middle" class="gopskit-pip-suit" fill="{colour}">{symbol}</text>' if symbol else "")
               + "</svg>")
    else:  # a real card: rank and suit in two corners, the suit (or a plain card's rank) large in the middle
        big = symbol or _plain_pip(rank)
        svg = (frame + top_corner
               + f'<text x="35" y="66" text-anchor="middle" class="gopskit-pip" fill="{colour}">{escape(big)}</text>'
               f'<g transform="rotate(180 35 50)">{top_corner}</g></svg>')
    kind = "gopskit-red" if red else "gopskit-black"
    name = name or (word if joker else rank + symbol)
    label = word.lower() if joker else card_label(rank, suit)
    return _wrap(svg, f"gopskit-face {kind} gopskit-{size} {classes}", label, note, name)


def _joker_word(name: str) -> str:
    """What a Joker's face says: the game's name for it (Gooseberry Fool's Goose), else Joker."""
    return name if name and name.isalpha() and name != "JK" else "Joker"


def _plain_pip(rank: str) -> str:
    """The middle of a card without a suit: its rank, drawn large."""
    return "★" if rank == "JK" else rank


_BACK_SVG = (
    '<svg viewBox="0 0 70 100" xmlns="http://www.w3.org/2000/svg" aria-hidden="true">'
    '<defs><pattern id="gopskit-hatch" width="8" height="8" patternUnits="userSpaceOnUse" '
    'patternTransform="rotate(45)"><rect width="8" height="8" fill="#1f4e99"/>'
    '<rect width="3" height="8" fill="#3b6fc4"/></pattern></defs>'
    '<rect x="1" y="1" width="68" height="98" rx="7" fill="#ffffff" stroke="#555"/>'
    '<rect x="6" y="6" width="58" height="88" rx="4" fill="url(#gopskit-hatch)"/>'
    "</svg>"
)


def _wrap(svg: str, classes: str, label: str, note: str, name: str) -> str:
    caption = f'<span class="gopskit-note">{escape(note)}</span>' if note else ""
    cls = " ".join(("gopskit-cardface " + classes).split())
    data = f' data-name="{escape(name)}"' if name else ""
    title = escape(name or label)
    return f'<span class="{cls}"{data} role="img" aria-label="{escape(label)}" title="{title}">{svg}{caption}</span>'


def render_cards(cards, *, size: str = "small", empty: str = "none") -> str:
    """Render a row of cards given as ``(rank, suit)`` or ``(rank, suit, name)``, or ``None`` for a face-down card.

    >>> render_cards([]) == '<span class="gopskit-empty">none</span>'
    True
    >>> render_cards([("3", "H"), None]).count("gopskit-cardface")
    2
    """
    cards = list(cards)
    if not cards:
        return f'<span class="gopskit-empty">{escape(empty)}</span>'
    parts = [render_card(c[0], c[1], name=c[2] if len(c) > 2 else "", size=size) if c is not None
             else render_card("", face_up=False, size=size) for c in cards]
    return '<span class="gopskit-cardrow">' + "".join(parts) + "</span>"
