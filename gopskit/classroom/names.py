"""Students' names that cannot pass for each other.

A room shows names to the whole class, so two names that *look* the same are
two names too many: a Cyrillic ``А`` makes "Аnn" a second "Ann" on screen.
Names are compared by a **skeleton** (after Unicode's security advice,
UTS #39, in a small form): normalise with NFKC (full-width letters, ligatures
and other compatibility forms become plain letters), swap each Cyrillic or
Greek letter that looks like a Latin one for that Latin letter, and fold
case. Two names with the same skeleton are the same name.

A single word that mixes Latin letters with Cyrillic or Greek ones is refused
outright: no real name is spelt that way, and it is the usual disguise.

Characters that draw nothing and are neither control nor format characters
(a combining grapheme joiner, a variation selector, a Hangul filler, the
blank Braille pattern...) are dropped from a name (:func:`normal_name`):
"Ann" followed by one would look exactly like "Ann" and yet be another
name. Control and format characters (zero-width spaces, direction
overrides) are refused by :func:`~gopskit.classroom.rooms.clean_name`.

>>> name_key("Ann") == name_key("\u0410nn") == name_key("ＡＮＮ") == name_key("Ann\u034f")  # ... and a CGJ
True
>>> name_key("Ολγα") == name_key("Olga")
False
"""

from __future__ import annotations

import unicodedata

# Cyrillic and Greek letters drawn like a Latin letter in common fonts, upper and
# lower case apart (Greek capital Eta looks like H, small eta like n).
_LOOKALIKES = {
    # Cyrillic capitals
    "А": "A", "В": "B", "Е": "E", "Ѕ": "S", "І": "I", "Ј": "J", "К": "K", "М": "M", "Н": "H",
    "О": "O", "Р": "P", "С": "C", "Т": "T", "Х": "X", "У": "Y", "Ү": "Y", "Ԛ": "Q", "Ԝ": "W", "Һ": "H",
    "Ӏ": "I",
    # Cyrillic small letters
    "а": "a", "е": "e", "ѕ": "s", "і": "i", "ј": "j", "о": "o", "р": "p", "с": "c", "х": "x",
    "у": "y", "ү": "y", "ԁ": "d", "ԛ": "q", "ԝ": "w", "һ": "h", "ӏ": "l", "ɡ": "g",
    # Greek capitals
    "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M", "Ν": "N",
    "Ο": "O", "Ρ": "P", "Τ": "T", "Υ": "Y", "Χ": "X", "Ϲ": "C", "Ϳ": "J",
    # Greek small letters
    "ο": "o", "ν": "v", "ρ": "p", "ι": "i", "κ": "k", "α": "a", "υ": "u", "ϲ": "c", "ϳ": "j",
}
# Characters that draw nothing yet are neither control nor format characters (Unicode's
# Default_Ignorable_Code_Point letters and marks), and the blank Braille pattern, drawn as a space.
_INVISIBLE_RANGES = ((0x034F, 0x034F), (0x115F, 0x1160), (0x17B4, 0x17B5), (0x180B, 0x180D), (0x180F, 0x180F),
                     (0x2800, 0x2800), (0x3164, 0x3164), (0xFE00, 0xFE0F), (0xFFA0, 0xFFA0), (0xE0100, 0xE01EF))
_DROP = str.maketrans({c: None for lo, hi in _INVISIBLE_RANGES for c in map(chr, range(lo, hi + 1))})
_TABLE = str.maketrans(_LOOKALIKES)
_SCRIPTS = ("LATIN", "CYRILLIC", "GREEK")
#: Combining marks one letter may carry (accents that NFKC cannot compose, Indic vowel signs);
#: beyond it a name is drawn as a tower over its neighbours' lines.
MAX_MARKS = 3


def normal_name(name: str) -> str:
    """The name as it will be shown: NFKC-normalised, characters that draw nothing dropped, spaces collapsed.

    >>> normal_name(" Ann\u034f  Lee\u2800 ")
    'Ann Lee'
    """
    return " ".join(unicodedata.normalize("NFKC", name).translate(_DROP).split())


def name_key(name: str) -> str:
    """The skeleton two names are compared by (see the module docstring)."""
    return normal_name(name).translate(_TABLE).casefold()


def stacked_marks(name: str) -> bool:
    """Whether a letter of ``name`` carries more than :data:`MAX_MARKS` combining marks.

    >>> stacked_marks("Z" + "\u0336" * 5), stacked_marks("Nguy\u1ec5n")
    (True, False)
    """
    run = 0
    for char in unicodedata.normalize("NFKC", name):
        run = run + 1 if unicodedata.category(char).startswith("M") else 0
        if run > MAX_MARKS:
            return True
    return False


def mixed_script(name: str) -> tuple[str, str] | None:
    """The first letter of a word that mixes Latin with Cyrillic or Greek, and its script; else None.

    >>> mixed_script("\u0410nn")  # the first letter is a Cyrillic A
    ('\u0410', 'Cyrillic')
    >>> mixed_script("Ann \u0410\u043d\u043d\u0430") is None  # "Ann Анна": each word in one alphabet
    True
    """
    for word in normal_name(name).split():
        scripts = {c: _script(c) for c in word}
        found = set(scripts.values()) - {None}
        if "LATIN" in found and len(found) > 1:
            letter = next(c for c, s in scripts.items() if s not in (None, "LATIN"))
            return letter, scripts[letter].title()
    return None


def _script(char: str) -> str | None:
    if not char.isalpha():
        return None
    name = unicodedata.name(char, "")
    return next((s for s in _SCRIPTS if name.startswith(s)), "OTHER")
