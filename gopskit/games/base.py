"""The protocol every game of the kit speaks.

A game is two classes (OpenSpiel's shape, in plain Python):

* a **rules** object, a frozen dataclass whose fields are the game's options
  (the same names as the ``"options"`` of its JSON record); it validates
  itself on construction and deals new games;
* a **state**, which says who must move now (:meth:`GameState.to_move`), what
  each of them may play (:meth:`GameState.legal_moves`), takes one *joint
  move* (:meth:`GameState.apply`: a move for every player in ``to_move()``;
  simultaneous games ask everybody at once, trick games one player at a
  time), and answers :meth:`~GameState.is_terminal`,
  :meth:`~GameState.scores`, :meth:`~GameState.winners`,
  :meth:`~GameState.observation` and :meth:`~GameState.record`.

A rejected move raises :class:`~gopskit.errors.IllegalMoveError` *before*
anything changes, so the state is exactly as it was. Randomness comes only
from the seed given to :meth:`Rules.new_game`.

Matches (several hands to a target, or one hand per dealer) are
:class:`MatchState` objects: they speak the same protocol, so boards, bots and
tournaments need no special case for them.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import numpy as np

from ..cards import counted
from ..errors import GopsError, IllegalMoveError, OptionError, RecordError

Move = Any  # an int or a short string: always JSON-serialisable and hashable


def make_rng(seed=None) -> np.random.Generator:
    """Return a Generator for ``seed`` (an int, a SeedSequence, a Generator or None)."""
    if isinstance(seed, np.random.Generator):
        return seed
    return np.random.default_rng(seed_sequence(seed))


def seed_sequence(seed=None) -> np.random.SeedSequence:
    """Return a SeedSequence for an int, a SeedSequence, a Generator or None.

    A list or tuple of such numbers also works (a seed for game ``k`` of
    run ``s``: ``[s, k]``). Anything else (a negative number, a float, text)
    is an :class:`OptionError`.
    """
    if isinstance(seed, np.random.SeedSequence):
        return seed
    if isinstance(seed, np.random.Generator):
        return np.random.SeedSequence(int(seed.integers(2**63)))
    if seed is not None and not _seed_like(seed):
        raise OptionError(f"a seed is a whole number 0 or more, or a list of them (None: a fresh shuffle), not {show(seed)}")
    return np.random.SeedSequence(seed)


def _seed_like(seed) -> bool:
    if isinstance(seed, (list, tuple, np.ndarray)):
        return len(seed) > 0 and all(_seed_like(part) for part in seed)
    return not isinstance(seed, bool) and isinstance(seed, (int, np.integer)) and seed >= 0


@dataclasses.dataclass(frozen=True, kw_only=True)
class Observation:
    """What one player may know at one moment. Games subclass it.

    ``legal_moves`` is what the player may play now (empty when it is not
    their move); ``match_scores`` holds the running totals of a match before
    this hand (``None`` outside a match), ``hand_number`` counts hands from 0.
    """

    game: str
    player: int
    num_players: int
    legal_moves: tuple = ()
    hand_number: int = 0
    match_scores: tuple | None = None

    def to_dict(self) -> dict:
        """Return the observation as plain JSON-ready data."""
        return _plain(dataclasses.asdict(self))


def _plain(value):
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, (np.integer,)):
        return int(value)
    if isinstance(value, (np.floating,)):
        return float(value)
    return value


@dataclasses.dataclass(frozen=True)
class Rules:
    """Base class of every game's rules. Subclasses are frozen dataclasses.

    Subclasses set ``name`` and implement :meth:`new_hand` and
    :meth:`replay_hand`; games with matches override :meth:`is_match`,
    :meth:`match_over` and friends.
    """

    name: ClassVar[str] = "game"

    # -- options -----------------------------------------------------------
    @classmethod
    def option_names(cls) -> tuple[str, ...]:
        return tuple(f.name for f in dataclasses.fields(cls))

    @classmethod
    def from_options(cls, options: Mapping | None = None) -> "Rules":
        """Build rules from a record's ``"options"``; missing keys take defaults."""
        options = dict(options or {})
        unknown = sorted(set(options) - set(cls.option_names()))
        if unknown:
            raise OptionError(
                f"unknown {'option' if len(unknown) == 1 else 'options'} for {cls.name}: {', '.join(unknown)}; "
                f"allowed: {', '.join(cls.option_names())}"
            )
        return cls(**{k: _from_json(v) for k, v in options.items()})

    def options(self) -> dict:
        """Return every option as JSON-ready data (the record's ``"options"``)."""
        return _plain({f.name: getattr(self, f.name) for f in dataclasses.fields(self)})

    @property
    def num_players(self) -> int:
        return int(getattr(self, "players"))

    # -- dealing -----------------------------------------------------------
    def new_game(self, seed=None) -> "GameState":
        """Deal a new game (a single hand, or a whole match when the options ask)."""
        if self.is_match():
            return MatchState(self, seed)
        return self.new_hand(0, make_rng(seed))

    def new_hand(self, hand_number: int, rng: np.random.Generator) -> "GameState":
        raise NotImplementedError

    def replay_hand(self, hand: Mapping, hand_number: int) -> "GameState":
        """Rebuild a finished or partial hand from its record (``prizes``/``bids`` or the game's keys)."""
        raise NotImplementedError

    def replay(self, record: Mapping) -> "GameState":
        """Rebuild a game from a whole record (see :func:`gopskit.games.replay_record`)."""
        if self.is_match():
            hands = record.get("hands")
            if not isinstance(hands, list) or not hands:
                raise RecordError("a match record needs a non-empty list 'hands'")
            return MatchState.from_hands(self, hands)
        return self.replay_hand(record, 0)

    # -- matches -----------------------------------------------------------
    def is_match(self) -> bool:
        """True when :meth:`new_game` deals several hands (a target or per-dealer match)."""
        return False

    def hand_points(self, hand: "GameState") -> list[float]:
        """The points a finished hand adds to the match totals (default: its scores)."""
        return list(hand.scores())

    def match_over(self, totals: Sequence[float], hands_played: int) -> bool:
        return hands_played >= 1

    def match_cut_off(self, totals: Sequence[float], hands_played: int) -> bool:
        """True when the match ended only because it hit its cap of hands (nobody reached the target).

        The leaders at that moment still win (:meth:`match_winners`), but
        screens and ``gopskit replay`` say the match was cut off.
        """
        return False

    def match_winners(self, totals: Sequence[float]) -> list[int]:
        best = max(totals)
        return [p for p, t in enumerate(totals) if t == best]


def _from_json(value):
    return tuple(value) if isinstance(value, list) else value


class GameState:
    """Base class of every game state. See the module docstring for the protocol."""

    rules: Rules

    @property
    def num_players(self) -> int:
        return self.rules.num_players

    # -- to implement ------------------------------------------------------
    def to_move(self) -> tuple[int, ...]:
        raise NotImplementedError

    def legal_moves(self, player: int) -> list:
        raise NotImplementedError

    def _apply(self, joint: dict[int, Move]):
        """Apply an already-validated joint move; return an event describing it."""
        raise NotImplementedError

    def is_terminal(self) -> bool:
        raise NotImplementedError

    def scores(self) -> list[float]:
        raise NotImplementedError

    def observation(self, player: int) -> Observation:
        raise NotImplementedError

    def record(self) -> dict:
        raise NotImplementedError

    # -- shared behaviour --------------------------------------------------
    events: list  # one event per applied joint move that decided something; each has .explain()
    event_label = "Turn"  # what a line of the log is called: "Trick" in trick games

    def log(self) -> list[str]:
        """The game so far for people, one line per event (``gopskit replay`` prints it)."""
        events = [e for e in getattr(self, "events", []) if e is not None]
        return [f"{self.event_label} {i}: {e.explain()}" for i, e in enumerate(events, 1)]

    def winners(self) -> list[int]:
        """Players who won (several on a tie); empty while the game goes on."""
        if not self.is_terminal():
            return []
        scores = self.scores()
        best = max(scores)
        return [p for p, s in enumerate(scores) if s == best]

    def clone(self) -> "GameState":
        return copy.deepcopy(self)

    def check_player(self, player) -> int:
        if type(player) is int and 0 <= player < self.num_players:  # the common case, fast
            return player
        if isinstance(player, bool) or not isinstance(player, (int, np.integer)) or not 0 <= player < self.num_players:
            raise IllegalMoveError(
                f"seat {show(player)} does not exist; seats are numbered 0 to {self.num_players - 1} (player 1 is seat 0)"
            )
        return int(player)

    def joint_move(self, moves) -> dict[int, Move]:
        """Turn ``moves`` into ``{player: move}`` for exactly the players in :meth:`to_move`.

        ``moves`` is a mapping from player to move, or a sequence aligned with
        ``to_move()`` (for simultaneous games: one move per player, in seat order).
        """
        if self.is_terminal():
            raise IllegalMoveError("the game is over; no more moves are accepted (start a new game)")
        movers = self.to_move()
        if isinstance(moves, Mapping):
            joint = {self.check_player(p): m for p, m in moves.items()}
        elif isinstance(moves, Sequence) and not isinstance(moves, str):
            if len(moves) != len(movers):
                raise IllegalMoveError(
                    f"expected {counted(len(movers), 'move')}, one for each of {_players(movers)}, got {len(moves)}"
                )
            joint = dict(zip(movers, moves))
        else:
            raise IllegalMoveError(
                f"a joint move is a dict {{seat: move}} or a list with one move for each of {_players(movers)}, not {show(moves)}"
            )
        early = sorted(set(joint) - set(movers))
        if early:
            raise IllegalMoveError(
                f"{_players(early)} may not move now; waiting for {_players(movers)}"
            )
        missing = sorted(set(movers) - set(joint))
        if missing:
            raise IllegalMoveError(f"missing a move from {_players(missing)}")
        checked = {}
        for player in movers:
            move, legal = joint[player], self.legal_moves(player)
            if not _in(move, legal):
                raise IllegalMoveError(
                    f"player {player + 1} cannot play {show(move)}; allowed: {', '.join(map(str, legal)) or 'nothing'}"
                )
            checked[player] = _canonical(move, legal)
        return checked

    def apply(self, moves):
        """Apply one joint move (see :meth:`joint_move`); return the game's event for it.

        Raises :class:`IllegalMoveError`, leaving the state unchanged, when a
        move is missing, extra, or not legal, and for anything that is not a
        move at all (an array, a float seat, an object whose ``==`` fails):
        checking a move only reads the state, so nothing has changed yet.
        """
        try:
            joint = self.joint_move(moves)
        except GopsError:
            raise
        except Exception as exc:  # garbage that broke a check: still only a refused move
            raise IllegalMoveError(
                f"{show(moves)} is not a move: {type(exc).__name__}; "
                "a move is a card number or a card name, given as a dict {seat: move} or a list in seat order"
            ) from None
        return self._apply(joint)


def refuse_if_over(state: GameState, turn: int, unit: str = "turns", where: str = "") -> None:
    """Replay helper: moves listed after the end of a hand are called extra.

    (Applying them would say "the game is over ... start a new game", which
    is advice for a board, not for a record.)
    """
    if state.is_terminal():
        raise RecordError(f"the hand was over after {turn - 1} {unit}; the moves listed from here on are extra{where}",
                          turn=turn)


def _players(seats) -> str:
    """Name seats for people: seats count from 0 in code, players from 1 on screen."""
    seats = list(seats)
    word = "player" if len(seats) == 1 else "players"
    return f"{word} {', '.join(str(s + 1) for s in seats)}"


def as_move(move) -> int | str | None:
    """``move`` as a plain int or str (how every game spells moves), or None if it is neither.

    NumPy integers count as whole numbers; booleans, floats, arrays and other
    objects are never moves, and are never compared with ``==`` (which an
    array or a hostile object may answer with an error or a non-bool).
    """
    if type(move) is int or type(move) is str:  # the common case, fast
        return move
    if isinstance(move, bool):
        return None
    if isinstance(move, (int, np.integer)):
        return int(move)
    if isinstance(move, str):
        return str(move)
    return None


def _in(move, legal) -> bool:
    plain = as_move(move)
    return plain is not None and plain in legal


def _canonical(move, legal):
    return as_move(move)


def show(value, limit: int = 60) -> str:
    """A short ``repr`` for an error message, even for huge or hostile objects."""
    try:
        text = repr(value)
    except Exception:  # a repr that fails is the object's problem, not the message's
        text = f"<a {type(value).__name__}>"
    return text if len(text) <= limit else text[: limit - 3] + "..."


class MatchState(GameState):
    """Several hands of one game played until the rules say the match is over.

    Hand ``k`` is dealt by ``rules.new_hand(k, rng_k)`` with ``rng_k`` spawned
    from the match seed, so a seeded match repeats exactly. Scores are the
    running totals of :meth:`Rules.hand_points`.
    """

    def __init__(self, rules: Rules, seed=None, _deal=True):
        self.rules = rules
        self._seeds = seed_sequence(seed)
        self.hands: list[GameState] = []
        self.totals = [0] * rules.num_players
        if _deal:
            self._deal_next()

    @classmethod
    def from_hands(cls, rules: Rules, hands: list) -> "MatchState":
        state = cls(rules, 0, _deal=False)
        for k, hand in enumerate(hands):
            if not isinstance(hand, Mapping):
                raise RecordError(f"hand {k + 1} of the match is not an object")
            if k and not state.hands[-1].is_terminal():
                raise RecordError(f"hand {k} is unfinished but hand {k + 1} follows it")
            if k and state.is_terminal():
                raise RecordError(f"the match was already over after hand {k}; hand {k + 1} is extra")
            state.hands.append(rules.replay_hand(hand, k))
            state._bank_finished_hand()
        return state

    @property
    def hand(self) -> GameState:
        return self.hands[-1]

    def _deal_next(self):
        rng = np.random.default_rng(self._seeds.spawn(1)[0])
        self.hands.append(self.rules.new_hand(len(self.hands), rng))

    def _bank_finished_hand(self):
        if self.hand.is_terminal():
            points = self.rules.hand_points(self.hand)
            self.totals = [t + p for t, p in zip(self.totals, points)]

    def to_move(self):
        return () if self.is_terminal() else self.hand.to_move()

    def legal_moves(self, player):
        return [] if self.is_terminal() else self.hand.legal_moves(player)

    def joint_move(self, moves):
        if self.is_terminal():
            raise IllegalMoveError("the match is over; no more moves are accepted (start a new game)")
        return self.hand.joint_move(moves)

    def _apply(self, joint):
        event = self.hand._apply(joint)
        if self.hand.is_terminal():
            self._bank_finished_hand()
            if not self.is_terminal():
                self._deal_next()
        return event

    def is_terminal(self) -> bool:
        return self.hand.is_terminal() and self.rules.match_over(self.totals, len(self.hands))

    def scores(self):
        return list(self.totals)

    def cut_off(self) -> bool:
        """True when the match is over only because it reached its cap of hands (see :meth:`Rules.match_cut_off`)."""
        return self.is_terminal() and self.rules.match_cut_off(self.totals, len(self.hands))

    def winners(self):
        return self.rules.match_winners(self.totals) if self.is_terminal() else []

    def observation(self, player):
        obs = self.hand.observation(player)
        finished = self.totals if not self.hand.is_terminal() else self._totals_before_last()
        return dataclasses.replace(obs, hand_number=len(self.hands) - 1, match_scores=tuple(finished))

    def _totals_before_last(self):
        points = self.rules.hand_points(self.hand)
        return [t - p for t, p in zip(self.totals, points)]

    def log(self):
        lines = []
        for k, hand in enumerate(self.hands):
            lines.append(f"Hand {k + 1}:")
            lines.extend("  " + line for line in hand.log())
        return lines

    def record(self):
        hands = []
        for hand in self.hands:
            rec = hand.record()
            hands.append({k: v for k, v in rec.items() if k not in ("game", "options")})
        return {"game": self.rules.name, "options": self.rules.options(), "hands": hands}
