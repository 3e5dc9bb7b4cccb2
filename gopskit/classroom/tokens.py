"""Room codes, secret keys and their hashes.

* A **room code** is short, to be written on the board: six characters from
  an alphabet without look-alikes (no ``0/O``, ``1/I/L``), typed in any case.
* A **key** (teacher, player or seat) is a long random secret held by one
  page (its browser keeps it, so a reload resumes). The store keeps only its
  SHA-256 hash, so a copy of the database does not hand out anybody's keys.

>>> code = new_room_code(seed=1)
>>> len(code), normal_code(code.lower()) == code
(6, True)
>>> key = new_key()
>>> hash_key(key) == hash_key(key) != hash_key(new_key())
True
"""

from __future__ import annotations

import hashlib
import secrets

import numpy as np

from .errors import AccessError

CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6
KEY_BYTES = 24


def new_room_code(seed=None) -> str:
    """A fresh room code. ``seed`` (for tests) makes it repeat; otherwise it is random."""
    if seed is None:
        return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
    rng = np.random.default_rng(seed)
    return "".join(CODE_ALPHABET[i] for i in rng.integers(len(CODE_ALPHABET), size=CODE_LENGTH))


def shown_code(code: str) -> str:
    """A room code as every page and message writes it: two halves joined by a dash.

    >>> shown_code("KQ7F3M")
    'KQ7-F3M'
    """
    plain = code.replace("-", "")
    half = len(plain) // 2
    return f"{plain[:half]}-{plain[half:]}"


def normal_code(text) -> str:
    """A room code as typed (any case, spaces or a dash) in its stored form; checks its shape.

    >>> normal_code(" kq7-f3m ")
    'KQ7F3M'
    """
    if not isinstance(text, str):
        raise AccessError(f"a room code is text like KQ7-F3M, not {text!r}")
    code = text.strip().upper().replace("-", "").replace(" ", "")
    if len(code) != CODE_LENGTH or any(c not in CODE_ALPHABET for c in code):
        raise AccessError(
            f"{text.strip()!r} is not a room code: a code has {CODE_LENGTH} letters and digits, "
            "as written on the board (like KQ7-F3M; the dash may be left out)"
        )
    return code


def new_key() -> str:
    """A new secret key (URL-safe text) that starts with a letter or a digit: one starting with ``-`` would
    be read as an option by ``gopskit classroom pair KEY`` (one key in 32 did)."""
    while True:
        key = secrets.token_urlsafe(KEY_BYTES)
        if key[0].isalnum():
            return key


def hash_key(key) -> str:
    """The hash the store keeps in place of ``key``; rejects anything that is not a key."""
    if not isinstance(key, str) or not 16 <= len(key) <= 200:
        raise AccessError("this page holds no valid key; join the room again with its code")
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def new_id() -> str:
    """A short random identifier for rows (not a secret)."""
    return secrets.token_hex(8)


__all__ = ["CODE_ALPHABET", "hash_key", "new_id", "new_key", "new_room_code", "normal_code"]
