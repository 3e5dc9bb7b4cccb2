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

>>> name_key("Ann") == name_key("\u0410nn") == name_key("ＡＮＮ")  # Latin, Cyrillic A, full-width
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
_TABLE = str.maketrans(_LOOKALIKES)
_SCRIPTS = ("LATIN", "CYRILLIC", "GREEK")


def normal_name(name: str) -> str:
    """The name as it will be shown: NFKC-normalised, spaces collapsed."""
    return " ".join(unicodedata.normalize("NFKC", name).split())


def name_key(name: str) -> str:
    """The skeleton two names are compared by (see the module docstring)."""
    return normal_name(name).translate(_TABLE).casefold()


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
