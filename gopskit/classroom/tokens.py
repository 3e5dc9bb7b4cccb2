"""Room codes, secret keys and their hashes.

* A **room code** is short, to be written on the board: six characters from
  :data:`CODE_ALPHABET`, 26 letters and digits of which no two look alike
  on a projector or the board (:data:`LOOK_ALIKES`: of ``0/O/Q`` only ``Q``,
  none of ``1/I/L``, ``2`` not ``Z``, ``5`` not ``S``, ``6`` not ``G``,
  ``8`` not ``B``, ``V`` not ``U``), so 308,915,776 codes. A
  code is typed in any case, with or without the dash, and a look-alike
  typed by mistake is read as the alphabet's character (``O`` and ``0``
  as ``Q``, ``S`` as ``5``, ``Z`` as ``2``, ``G`` as ``6``, ``B`` as ``8``,
  ``U`` as ``V``). Rooms opened before this alphabet
  (:data:`OLD_CODE_ALPHABET`, 31 characters) keep their codes: a code typed
  exactly as such a room's is that room (:func:`code_forms`).
* A **key** (teacher, player or seat) is a long random secret held by one
  page (its browser keeps it, so a reload resumes). The store keeps only its
  SHA-256 hash, so a copy of the database does not hand out anybody's keys.
* The **teacher passcode** guards the teacher's page when the apps are served
  to a network (``gopskit serve --host 0.0.0.0``): three groups of four
  characters of the room codes' alphabet (about 56 bits: no guessing over a
  network), typed in any case, with or without the dashes. The server hands
  it to its kernels in the environment variable :data:`PASSCODE_ENV`.

>>> code = new_room_code(seed=1)
>>> len(code), normal_code(code.lower()) == code
(6, True)
>>> key = new_key()
>>> hash_key(key) == hash_key(key) != hash_key(new_key())
True
>>> passcode = new_passcode()
>>> len(passcode), passcode.count("-"), passcode_matches(passcode.lower().replace("-", " "), passcode)
(14, 2, True)
"""

from __future__ import annotations

import hashlib
import hmac
import os
import re
import secrets

import numpy as np

from .errors import AccessError

#: Characters that a class may read one for another on a projector or the board: :data:`CODE_ALPHABET` holds at
#: most one of each set, and reading a typed code takes the others for that one (1, I and L: none, so refused).
LOOK_ALIKES = ("0OQ", "1IL", "2Z", "5S", "6G", "8B", "UV")
CODE_ALPHABET = "ACDEFHJKMNPQRTVWXY23456789"
#: The alphabet of the codes of rooms opened before ``2/Z``, ``5/S``, ``6/G``, ``8/B`` and ``U/V`` were taken apart.
OLD_CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
# a typed look-alike -> the alphabet's character of its set
_READ_AS = {c: next(a for a in group if a in CODE_ALPHABET)
            for group in LOOK_ALIKES if any(a in CODE_ALPHABET for a in group) for c in group if c not in CODE_ALPHABET}
CODE_LENGTH = 6
KEY_BYTES = 24
#: The environment variable that holds the teacher passcode of a served class (read by the teacher's page).
PASSCODE_ENV = "GOPSKIT_TEACHER_PASSCODE"
# Set by ``gopskit serve`` for its kernels: "1" when it listens beyond this computer (--host 0.0.0.0), "0" when only
# this computer can reach it; unset when the apps run under another server (Binder, a hub, plain Voila).
SERVED_BEYOND_ENV = "GOPSKIT_SERVED_BEYOND"
PASSCODE_GROUPS, PASSCODE_GROUP = 3, 4
#: A passcode the teacher chooses needs this many characters (spaces and dashes not counted) ...
PASSCODE_MIN_LENGTH = 12
#: ... and this many different ones (``AAAAAAAAAAAA`` or ``121212121212`` are guessed first).
PASSCODE_MIN_DISTINCT = 6
MAX_PASSCODE = 200


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
    """A room code as typed (any case, spaces or a dash, look-alikes) in its stored form; checks its shape.

    >>> normal_code(" kq7-f3m "), normal_code("kq7-fsm"), normal_code("ko7 f3m")
    ('KQ7F3M', 'KQ7F5M', 'KQ7F3M')
    """
    return code_forms(text)[-1]


def code_forms(text) -> tuple[str, ...]:
    """The stored codes a typed room code may be, the likeliest first; checks its shape.

    The last is the code in :data:`CODE_ALPHABET` (look-alikes read as its
    characters); before it, when different, the code exactly as typed, if
    it is one of :data:`OLD_CODE_ALPHABET` (a room opened before the
    look-alikes were taken out of the alphabet).

    >>> code_forms("5sd-ggd"), code_forms("55d-66d")
    (('5SDGGD', '55D66D'), ('55D66D',))
    """
    if not isinstance(text, str):
        raise AccessError(f"a room code is text like KQ7-F3M, not {text!r}")
    typed = text.strip().upper().replace("-", "").replace(" ", "")
    code = "".join(_READ_AS.get(c, c) for c in typed)
    if len(code) != CODE_LENGTH or any(c not in CODE_ALPHABET for c in code):
        raise AccessError(
            f"{text.strip()!r} is not a room code: a code has {CODE_LENGTH} letters and digits, "
            "as written on the board (like KQ7-F3M; the dash may be left out)"
            + ("; room codes have no 1, I or L" if set(typed) & set("1IL") else "")
        )
    old = typed != code and all(c in OLD_CODE_ALPHABET for c in typed)
    return (typed, code) if old else (code,)


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


def new_passcode() -> str:
    """A fresh teacher passcode, like ``KQ7F-3MXA-9PRT``: random, of :data:`CODE_ALPHABET` (no look-alikes), passing its own check."""
    while True:  # a draw with too few different characters (rare) would be refused by passcode_problem: draw again
        groups = ("".join(secrets.choice(CODE_ALPHABET) for _ in range(PASSCODE_GROUP)) for _ in range(PASSCODE_GROUPS))
        code = "-".join(groups)
        if passcode_problem(code) is None:
            return code


def normal_passcode(text: str) -> str:
    """A passcode as compared: upper case, without spaces and dashes.

    >>> normal_passcode(" kq7f 3mxa-9prt ")
    'KQ7F3MXA9PRT'
    """
    return "".join(text.split()).replace("-", "").upper()


def passcode_problem(text) -> str | None:
    """What makes ``text`` too weak for a teacher passcode (a sentence), or ``None`` when it will do.

    >>> passcode_problem("secret") is None, passcode_problem(new_passcode()) is None
    (False, True)
    """
    if not isinstance(text, str) or not text.isprintable() or len(text) > MAX_PASSCODE:
        return f"a teacher passcode is a line of at most {MAX_PASSCODE} printable characters"
    plain = normal_passcode(text)
    if len(plain) < PASSCODE_MIN_LENGTH or len(set(plain)) < PASSCODE_MIN_DISTINCT:
        return (f"a teacher passcode needs at least {PASSCODE_MIN_LENGTH} characters (spaces and dashes not counted, "
                f"case ignored), at least {PASSCODE_MIN_DISTINCT} of them different, so that nobody on the network "
                f"can guess it; this one has {len(plain)}, {len(set(plain))} different. Choose another one, "
                "or leave the passcode out and gopskit serve makes one")
    return None


def passcode_matches(typed, passcode: str) -> bool:
    """Whether ``typed`` is ``passcode`` (case, spaces and dashes aside), in time that does not depend on
    how much of it is right."""
    if not isinstance(typed, str) or len(typed) > MAX_PASSCODE:
        return False
    return hmac.compare_digest(_digest(typed), _digest(passcode))


def _digest(passcode: str) -> bytes:
    """Compared in place of the passcodes, so that their lengths take no part either."""
    return hashlib.sha256(normal_passcode(passcode).encode("utf-8")).digest()


def served_passcode() -> str | None:
    """The teacher passcode the server handed to this kernel (:data:`PASSCODE_ENV`), or ``None`` without one."""
    return os.environ.get(PASSCODE_ENV) or None


TEACHERS_ENV = "GOPSKIT_TEACHERS"  # on a JupyterHub: the hub user names that may open rooms (the admin sets it)


def hub_teacher_refusal(environ=None) -> str | None:
    """Why this hub user may not open rooms, or ``None`` when they may.

    A school's hub gives every student a server of their own, where the
    teacher's page runs too; the hub's administrator names the teachers in
    :data:`TEACHERS_ENV` (hub user names, separated by commas or spaces) and
    JupyterHub tells each server whose it is (``JUPYTERHUB_USER``). Without
    either, nobody is refused here (a laptop's server has its passcode).

    >>> hub_teacher_refusal({"GOPSKIT_TEACHERS": "ms-k, mr-j", "JUPYTERHUB_USER": "MS-K"}) is None
    True
    >>> hub_teacher_refusal({"GOPSKIT_TEACHERS": "ms-k", "JUPYTERHUB_USER": "ann"})[:45]
    'On this hub only the teachers open rooms (ms-'
    """
    environ = os.environ if environ is None else environ
    teachers = [n for n in re.split(r"[,\s]+", environ.get(TEACHERS_ENV, "").lower()) if n]
    user = environ.get("JUPYTERHUB_USER", "")
    if not teachers or not user or user.lower() in teachers:
        return None
    return (f"On this hub only the teachers open rooms ({', '.join(teachers)}); you are signed in as {user[:40]}. "
            "Students open the classroom page (classroom.ipynb) and type the code their teacher shows.")


def new_id() -> str:
    """A short random identifier for rows (not a secret)."""
    return secrets.token_hex(8)


__all__ = ["CODE_ALPHABET", "LOOK_ALIKES", "OLD_CODE_ALPHABET", "code_forms", "PASSCODE_ENV", "TEACHERS_ENV", "hub_teacher_refusal", "hash_key", "new_id", "new_key", "new_passcode", "new_room_code",
           "normal_code", "normal_passcode", "passcode_matches", "passcode_problem", "served_passcode"]
