"""The results of a tournament: every game, and the tables made from them.

A :class:`ResultSet` holds the entries and one dict per game (the seats, the
seed, the points, the winners, any forfeit with its reason, and the game
record in the record format of docs/architecture.md). Everything else is computed from the
games: the ranking, the head-to-head matrix, the forfeits, and how each entry
bids. ``save`` writes ``results.json`` (everything), ``games.csv`` (one row
per game and seat) and ``ranking.csv``; ``ResultSet.load`` reads them back.

>>> rs = ResultSet("goofspiel", {"num_cards": 3}, 0, 1,
...     [{"name": "a", "kind": "bot"}, {"name": "b", "kind": "bot"}],
...     [{"seats": ["a", "b"], "seed": 1, "points": [5, 1], "winners": [0], "forfeits": [], "record": None}])
>>> [(row["name"], row["mean_points"], row["wins"]) for row in rs.ranking()]
[('a', 5.0, 1), ('b', 1.0, 0)]

How sure is a ranking? Every entry's mean comes with a confidence interval
over *deals* (one deal = one game seed of one table, played from every
seat; deals are independent, the seatings of one deal are not), computed by
:func:`mean_interval` with Student's t from scipy.stats;
:meth:`ResultSet.compare` puts one entry against another the same way,
paired over the deals where they met (:meth:`ResultSet.compare_text` says
it in a sentence, :meth:`ResultSet.neighbours` does it down the ranking).
The rule the ranking follows is :data:`RANKING_RULE`, saved in results.json.

An interval says only what the games can: it never reaches past the fewest
or most points one game can give (:meth:`ResultSet.point_range`: 0 to 91
with 13 cards; a difference between two entries, -91 to 91), and an entry
with fewer than :data:`MIN_DEALS` deals gets none (Student's t over 2 deals
multiplies the spread by 12.7: the interval would span the whole game).
:meth:`ResultSet.interval_note` says both in a sentence under the table.

>>> mean_interval([3, 5, 4, 6, 2])["high"] > 5 > 3 > mean_interval([3, 5, 4, 6, 2])["low"]
True
"""

from __future__ import annotations

import csv
import dataclasses
import json
import pathlib
import textwrap
from collections import Counter

import numpy as np
from scipy import stats

from ..cards import counted
from ..errors import OptionError
from ..numbers import fixed, number, percent
from ..spreadsheet import inert

FORMAT_VERSION = 1
RANKING_COLUMNS = ("rank", "name", "kind", "games", "mean_points", "sd_points", "deals", "ci_low", "ci_high",
                   "wins", "draws", "losses", "win_rate", "forfeits", "opponents_beaten", "exploitability")
LEVEL = 0.95
#: Fewer deals than this give no interval: "too few deals". Student's t over 2 deals multiplies the
#: spread by 12.7, over 3 by 4.3, over 4 by 3.2, and the spread itself is guessed from that handful of
#: numbers; from 5 deals (2.8) an interval starts to say something a class can use.
MIN_DEALS = 5
RANKING_RULE = ("Ranked by mean points per game: every point counts, so a wide win weighs more than a narrow one "
                "and many small wins can rank below fewer big ones. Ties go to more wins, then the name. "
                "The 95% interval is the range of long-run means these games are consistent with (Student's t "
                "over independent deals): entries whose intervals do not overlap are clearly apart; overlapping "
                "intervals leave the order open (compare the two head to head), and more games narrow them.")


def mean_interval(values, level: float = LEVEL, bounds: tuple | None = None) -> dict:
    """The mean of ``values`` with its confidence interval (Student's t, scipy.stats).

    Returns ``{"n", "mean", "sd", "low", "high", "cut"}``: ``sd`` is the sample
    standard deviation; ``low``/``high`` bound the mean at ``level`` (0.95:
    95 %). With fewer than two values the interval is unknown (``None``);
    when every value is the same it has no width.

    ``bounds`` (``(least, most)``): the values the measured quantity can take
    at all, such as 0 and 91 points in a 13-card game. The mean lies between
    them whatever happens, so an interval that reaches past one stops there
    (it still holds the long-run mean at least as often); ``cut`` says it did.

    >>> row = mean_interval([3, 5, 4, 6, 2])
    >>> row["n"], row["mean"], round(row["low"], 2), round(row["high"], 2)
    (5, 4.0, 2.04, 5.96)
    >>> mean_interval([7.0])["low"] is None
    True
    >>> row = mean_interval([10, 80], bounds=(0, 91))
    >>> row["low"], row["high"], row["cut"]
    (0.0, 91.0, True)
    """
    if not 0 < level < 1:
        raise OptionError(f"the confidence level must lie between 0 and 1 (e.g. 0.95), not {level!r}")
    data = np.asarray(values, dtype=float).ravel()
    n = len(data)
    if n == 0:
        return {"n": 0, "mean": None, "sd": None, "low": None, "high": None, "cut": False}
    mean = float(data.mean())
    if n == 1:
        return {"n": 1, "mean": mean, "sd": None, "low": None, "high": None, "cut": False}
    sd = float(data.std(ddof=1))
    if sd == 0:
        return {"n": n, "mean": mean, "sd": 0.0, "low": mean, "high": mean, "cut": False}
    low, high = (float(x) for x in stats.t.interval(level, n - 1, loc=mean, scale=sd / np.sqrt(n)))
    cut = False
    if bounds is not None:
        least, most = (float(b) for b in bounds)
        cut = low < least or high > most
        low, high = max(low, least), min(high, most)
    return {"n": n, "mean": mean, "sd": sd, "low": low, "high": high, "cut": cut}


def deal_interval(values, level: float = LEVEL, bounds: tuple | None = None) -> dict:
    """:func:`mean_interval` over deals as the tournament's tables and sentences give it: cut at ``bounds``,
    and none (``low``/``high`` ``None``, ``"too_few"`` true) with fewer than :data:`MIN_DEALS` deals.

    >>> row = deal_interval([40, 57], bounds=(0, 91))
    >>> row["mean"], row["low"], row["too_few"]
    (48.5, None, True)
    """
    row = mean_interval(values, level, bounds)
    row["too_few"] = 0 < row["n"] < MIN_DEALS
    if row["too_few"]:
        row.update(low=None, high=None, cut=False)
    return row


@dataclasses.dataclass
class ResultSet:
    """Every game of a tournament (see the module docstring)."""

    game: str
    options: dict
    seed: int
    games_per_seating: int
    entries: list[dict]
    games: list[dict]
    exploitability: dict = dataclasses.field(default_factory=dict)
    exploitability_notes: dict = dataclasses.field(default_factory=dict)
    isolation: str = ""  # how student code was isolated: "bubblewrap", "fence" (see gopskit.arena.sandbox)

    @property
    def names(self) -> list[str]:
        return [e["name"] for e in self.entries]

    def entry(self, name: str) -> dict:
        for info in self.entries:
            if info["name"] == name:
                return info
        raise OptionError(f"no entry called {name!r}; entries: {', '.join(self.names)}")

    # -- per entry ---------------------------------------------------------
    def points(self) -> dict[str, np.ndarray]:
        """Each entry's points, one per game it played."""
        points = {name: [] for name in self.names}
        for game in self.games:
            for seat, name in enumerate(game["seats"]):
                points[name].append(game["points"][seat])
        return {name: np.asarray(values, dtype=float) for name, values in points.items()}

    def outcomes(self) -> dict[str, Counter]:
        """Per entry: ``win`` (sole winner), ``draw`` (shared first place), ``loss``, ``forfeit``."""
        counts = {name: Counter() for name in self.names}
        for game in self.games:
            winners = game["winners"]
            forfeited = {f["seat"] for f in game["forfeits"]}
            for seat, name in enumerate(game["seats"]):
                result = "loss" if seat not in winners else ("win" if len(winners) == 1 else "draw")
                counts[name][result] += 1
                counts[name]["forfeit"] += seat in forfeited
        return counts

    def deal_points(self) -> dict[str, np.ndarray]:
        """Each entry's mean points per *deal*: the independent units of a tournament.

        A deal is one game seed of one table; it is played from every seat
        (duplicate play), so its games share the prizes and are not
        independent of each other, while different deals are. The mean of
        these values is the entry's mean points per game.
        """
        units: dict = {name: {} for name in self.names}
        for game, deal in zip(self.games, self._deals()):
            for seat, name in enumerate(game["seats"]):
                units[name].setdefault(deal, []).append(game["points"][seat])
        return {name: np.asarray([sum(v) / len(v) for v in per.values()], dtype=float) for name, per in units.items()}

    def _deals(self) -> list[tuple]:
        """A key per game naming its deal: the table and the game's seed.

        Games of the batch path keep no seed; there the g-th game of every
        seating of a table is dealt from the same stream, so its place in
        its seating names the deal.
        """
        keys, count = [], Counter()
        for game in self.games:
            table = game.get("table") or tuple(sorted(game["seats"]))
            if game.get("seed") is None:
                seating = (table, tuple(game["seats"]))
                keys.append((table, "batch", count[seating]))
                count[seating] += 1
            else:
                keys.append((table, game["seed"]))
        return keys

    def intervals(self, level: float = LEVEL) -> dict[str, dict]:
        """Per entry: :func:`deal_interval` of its points per deal (cut at :meth:`point_range`)."""
        bounds = self.point_range()
        return {name: deal_interval(values, level, bounds) for name, values in self.deal_points().items()}

    def point_range(self) -> tuple[int, int] | None:
        """The fewest and most points one game gives a seat, from the rules: ``(0, total prize points)``
        (91 with 13 cards, forfeits included); ``None`` where the kit knows no such bound (matches of
        several hands, games other than Goofspiel).

        >>> ResultSet("goofspiel", {"num_cards": 6}, 0, 1, [], []).point_range()
        (0, 21)
        """
        from ..games import make_rules

        try:
            rules = make_rules(self.game, **(self.options or {}))
        except Exception:  # noqa: BLE001  (results of an unknown game or options: no bound, as before)
            return None
        if not hasattr(rules, "total_points") or rules.is_match():
            return None
        return (0, int(rules.total_points()))

    def margin_range(self) -> tuple[int, int] | None:
        """The range of one entry's points minus another's in one game: ``(-total, total)``."""
        span = self.point_range()
        return None if span is None else (span[0] - span[1], span[1] - span[0])

    def interval_note(self, level: float = LEVEL, labels: dict | None = None, rows: list[dict] | None = None) -> str:
        """What the table's intervals leave out and why, in sentences (empty when nothing needs saying).

        Where Student's t reaches past the fewest or most points a game gives, the interval stops
        there (the mean cannot lie outside); an entry with fewer than :data:`MIN_DEALS` deals has no
        interval. ``labels``: as in :meth:`compare_text`; ``rows``: the ranking if it is at hand (the
        entries are named in its order).
        """
        intervals, span = self.intervals(level), self.point_range()
        order = [row["name"] for row in (rows or self.ranking(level))]
        shown = lambda name: (labels or {}).get(name, name)  # noqa: E731
        notes = []
        cut = [shown(name) for name in order if intervals[name]["cut"]]
        if cut and span is not None:
            cards = self.options.get("num_cards")
            game = f"one game of {cards} cards" if cards else "one game"
            notes.append(f"Intervals stop at {span[0]} and {span[1]}, the fewest and most points {game} can give "
                         f"(the mean cannot lie outside): Student's t reached past them for {', '.join(cut)}.")
        few = [shown(name) for name in order if intervals[name]["too_few"]]
        if few:
            t_two = fixed(float(stats.t.ppf((1 + level) / 2, 1)), 1)
            notes.append(f"No interval for {', '.join(few)}: an interval needs at least {MIN_DEALS} deals. Over "
                         f"fewer, the spread it is built from is a guess from a handful of numbers (over 2 deals "
                         f"Student's t reaches {t_two} standard errors each side of the mean); more games give one.")
        return " ".join(notes)

    def compare(self, first: str, second: str, level: float = LEVEL) -> dict:
        """How far ``first`` scores above ``second`` when they meet, and how sure that is.

        Per deal where both sat, the mean of ``first``'s points minus
        ``second``'s; returns :func:`deal_interval` of those differences (cut at
        :meth:`margin_range`, none under :data:`MIN_DEALS` deals) plus
        ``"clear"``: ``True`` when the whole interval lies on one side of 0.

        >>> rs = ResultSet("goofspiel", {}, 0, 1, [{"name": "a"}, {"name": "b"}],
        ...     [{"seats": s, "seed": k, "points": p, "winners": [0], "forfeits": []}
        ...      for k in range(5) for s, p in ((["a", "b"], [5, 1]), (["b", "a"], [2, 4]))])
        >>> row = rs.compare("a", "b")
        >>> row["mean"], row["n"], row["clear"]
        (3.0, 5, True)
        """
        for name in (first, second):
            self.entry(name)
        per_deal: dict = {}
        for game, deal in zip(self.games, self._deals()):
            seats = game["seats"]
            if first in seats and second in seats:
                pts = game["points"]
                per_deal.setdefault(deal, []).append(pts[seats.index(first)] - pts[seats.index(second)])
        row = deal_interval([sum(v) / len(v) for v in per_deal.values()], level, self.margin_range())
        row["clear"] = row["low"] is not None and (row["low"] > 0 or row["high"] < 0)
        return row

    def compare_text(self, first: str, second: str, level: float = LEVEL, labels: dict | None = None) -> str:
        """:meth:`compare` as a sentence for the class; ``labels`` (``{name: shown}``, e.g. :meth:`labels`)
        names the entries in it (by default their names).

        Two entries whose point difference was 0 on every deal are said to have scored the same: no
        number of further games separates entries that play alike (their interval, 0 to 0, is no call
        for more).

        >>> rs = ResultSet("goofspiel", {}, 0, 1, [{"name": "a"}, {"name": "b"}],
        ...     [{"seats": ["a", "b"], "seed": k, "points": [3 + k % 3, 2], "winners": [0], "forfeits": []}
        ...      for k in range(6)])
        >>> rs.compare_text("a", "b")
        'a scores 2.00 more than b per game (95% interval 1.06 to 2.94, 6 deals): clearly ahead.'
        """
        row = self.compare(first, second, level)
        first, second = (labels.get(first, first), labels.get(second, second)) if labels else (first, second)
        if row["n"] == 0:
            return f"{first} and {second} never met."
        if row["n"] >= 2 and row["sd"] == 0 and row["mean"] == 0:
            return (f"{first} and {second} scored the same on every deal ({counted(row['n'], 'deal')}): "
                    f"more games won't separate identical play.")
        lead = row["mean"]
        how = f"{fixed(abs(lead))} {'more' if lead >= 0 else 'less'} than {second}"
        if row["low"] is None:
            return (f"{first} scores {how} per game over {counted(row['n'], 'deal')}: too few to tell "
                    f"(an interval needs {MIN_DEALS} deals).")
        verdict = ("clearly ahead" if row["low"] > 0 else "clearly behind" if row["high"] < 0
                   else "not clearly apart: the interval holds 0, so more games are needed to tell")
        cut = ""
        if row["cut"]:
            most = self.margin_range()[1]
            cut = f", stopped at {-most if row['low'] <= -most else most}: no game is won by more than {most}"
        return (f"{first} scores {how} per game ({round(100 * level)}% interval {fixed(row['low'])} to "
                f"{fixed(row['high'])}, {row['n']} deals{cut}): {verdict}.")

    def neighbours(self, limit: int | None = None, level: float = LEVEL, rows: list[dict] | None = None,
                   labels: dict | None = None) -> list[str]:
        """:meth:`compare_text` for each entry against the next one down, from the top: every neighbouring
        pair of entries that played (or the first ``limit`` pairs).

        The question a class asks of a ranking: is first really ahead of
        second, or would another run swap them? Every student asks it of the
        entry just below theirs, so the table's sentences settle every pair.
        ``labels``: as in :meth:`compare_text`.
        """
        names = [row["name"] for row in (rows or self.ranking(level)) if row["games"]]
        pairs = list(zip(names, names[1:]))
        return [self.compare_text(a, b, level, labels) for a, b in (pairs if limit is None else pairs[:limit])]

    def labels(self) -> dict[str, str]:
        """How screens name each entry (:func:`entry_labels`): ``{"one-higher": "One-higher bot", "ada": "ada"}``."""
        return entry_labels(self.entries)

    def ranking(self, level: float = LEVEL) -> list[dict]:
        """One row per entry, best first, by the rule :data:`RANKING_RULE` states.

        Mean points, then wins, then name. ``ci_low``/``ci_high`` bound the
        mean points at ``level`` over the entry's ``deals``
        (:meth:`deal_points`; :func:`deal_interval`: within :meth:`point_range`,
        ``None`` with fewer than :data:`MIN_DEALS` deals). An entry that played no game has ``None`` for
        its means (JSON ``null``).
        """
        points, outcomes, deals, bounds = self.points(), self.outcomes(), self.deal_points(), self.point_range()
        _, diff = self.head_to_head()
        rows = []
        for i, info in enumerate(self.entries):
            name, p, o = info["name"], points[info["name"]], outcomes[info["name"]]
            played = len(p)
            interval = deal_interval(deals[name], level, bounds)
            rows.append({
                "name": name, "kind": info.get("origin") or info.get("kind", ""), "games": played,
                "mean_points": float(p.mean()) if played else None,
                "sd_points": float(p.std()) if played else None,
                "deals": interval["n"], "ci_low": interval["low"], "ci_high": interval["high"],
                "wins": o["win"], "draws": o["draw"], "losses": o["loss"],
                "win_rate": o["win"] / played if played else None,
                "forfeits": o["forfeit"], "opponents_beaten": int(np.nansum(diff[i] > 0)),
                "exploitability": self.exploitability.get(name),
            })
        rows.sort(key=lambda r: (-_sortable(r["mean_points"]), -r["wins"], r["name"]))
        for rank, row in enumerate(rows, 1):
            row["rank"] = rank
        return [{c: row[c] for c in RANKING_COLUMNS} for row in rows]

    def head_to_head(self) -> tuple[list[str], np.ndarray]:
        """``(names, matrix)``: mean points of the row entry minus the column entry.

        Averaged over every game where both sat at the table; ``nan`` where
        they never met (and on the diagonal).
        """
        names = self.names
        index = {n: i for i, n in enumerate(names)}
        total = np.zeros((len(names), len(names)))
        count = np.zeros_like(total)
        for game in self.games:
            seats, pts = [index[n] for n in game["seats"]], game["points"]
            for a, pa in zip(seats, pts):
                for b, pb in zip(seats, pts):
                    if a != b:
                        total[a, b] += pa - pb
                        count[a, b] += 1
        with np.errstate(invalid="ignore", divide="ignore"):
            return names, np.where(count > 0, total / np.maximum(count, 1), np.nan)

    def forfeits(self) -> list[dict]:
        """Forfeits grouped by entry and reason: count, first turn seen, one example."""
        groups: dict = {}
        for game in self.games:
            for f in game["forfeits"]:
                row = groups.setdefault((f["entry"], f["reason"]), {
                    "entry": f["entry"], "reason": f["reason"], "count": 0, "example": f["detail"]})
                row["count"] += 1
        return sorted(groups.values(), key=lambda r: (r["entry"], -r["count"]))

    # -- how each entry plays ----------------------------------------------
    def bidding_profile(self, name: str) -> dict:
        """How ``name``'s bids follow the prize, from the game records.

        Returns ``{"turns", "mean_bid" (prize value -> mean bid), "r" (the
        correlation of bid and prize), "equal" (share of bids equal to the
        prize), "near" (share within one card of it), "offset" (mean bid
        minus prize), "typical" (its median)}``; ``turns`` is 0 when no
        record holds Goofspiel bids (other games, or the batch path).
        """
        pairs = np.asarray(list(_prize_bid_pairs(self.games, name)), dtype=float).reshape(-1, 2)
        profile = {"turns": len(pairs), "mean_bid": {}, "r": None, "equal": None, "near": None, "offset": None,
                   "typical": None}
        if not len(pairs):
            return profile
        prizes, bids = pairs[:, 0], pairs[:, 1]
        profile["mean_bid"] = {int(v): float(bids[prizes == v].mean()) for v in np.unique(prizes)}
        if prizes.std() > 0 and bids.std() > 0:
            profile["r"] = float(np.corrcoef(prizes, bids)[0, 1])
        profile["equal"] = float((prizes == bids).mean())
        profile["near"] = float((np.abs(prizes - bids) <= 1).mean())
        profile["typical"] = float(np.median(bids - prizes))
        profile["offset"] = float((bids - prizes).mean())
        return profile

    def describe_play(self, name: str) -> str:
        """One sentence on how ``name`` bids, e.g. ``'bids the prize card itself (98% of turns)'``."""
        profile = self.bidding_profile(name)
        if not profile["turns"]:
            reasons = [f for f in self.forfeits() if f["entry"] == name]
            if reasons:
                return f"never finished a turn: {reasons[0]['reason']} ({reasons[0]['example']})"
        return describe_profile(profile)

    def play_summary(self) -> dict[str, str]:
        return {name: self.describe_play(name) for name in self.names}

    # -- saving and loading ------------------------------------------------
    def to_dict(self) -> dict:
        return {"format": FORMAT_VERSION, "game": self.game, "options": self.options, "seed": self.seed,
                "isolation": self.isolation,
                "games_per_seating": self.games_per_seating, "entries": self.entries,
                "exploitability": self.exploitability, "exploitability_notes": self.exploitability_notes,
                "ranking_rule": RANKING_RULE, "confidence_level": LEVEL,
                "ranking": self.ranking(), "games": self.games}

    @classmethod
    def from_dict(cls, data: dict) -> "ResultSet":
        if not isinstance(data, dict) or "games" not in data or "entries" not in data:
            raise OptionError("not tournament results: expected an object with 'entries' and 'games'")
        return cls(data["game"], data["options"], data["seed"], data["games_per_seating"],
                   data["entries"], data["games"], data.get("exploitability") or {},
                   data.get("exploitability_notes") or {}, str(data.get("isolation") or ""))

    def save(self, folder) -> pathlib.Path:
        """Write ``results.json``, ``games.csv`` and ``ranking.csv`` into ``folder``."""
        from .tournament import write_atomic

        folder = pathlib.Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        write_atomic(folder / "results.json", self.to_dict())
        _write_csv(folder / "ranking.csv", RANKING_COLUMNS, self.ranking())
        _write_csv(folder / "games.csv", GAME_COLUMNS, self.game_rows())
        return folder

    @classmethod
    def load(cls, path) -> "ResultSet":
        """Read results from ``results.json`` (or the folder holding it).

        A folder of an interrupted run (``tournament.json`` and ``tables/``
        but no ``results.json``) loads too: the tables finished so far.
        """
        path = pathlib.Path(path)
        if path.is_dir() and not (path / "results.json").exists() and (path / "tournament.json").exists():
            return cls._from_tables(path)
        file = path / "results.json" if path.is_dir() else path
        try:
            return cls.from_dict(json.loads(file.read_text(encoding="utf-8")))
        except OSError as exc:
            raise OptionError(f"cannot read tournament results at {file}: {exc.strerror}") from None
        except ValueError as exc:
            raise OptionError(f"{file} is not valid results JSON: {exc}") from None

    @classmethod
    def _from_tables(cls, folder: pathlib.Path) -> "ResultSet":
        manifest = json.loads((folder / "tournament.json").read_text(encoding="utf-8"))
        games = []
        for table in sorted((folder / "tables").glob("*.json")):
            data = json.loads(table.read_text(encoding="utf-8"))
            games.extend({**g, "table": data["key"]} for g in data["games"])
        return cls(manifest["game"], manifest["options"], manifest["seed"], manifest["games"],
                   manifest["entries"], games, isolation=str(manifest.get("isolation") or ""))

    def game_rows(self) -> list[dict]:
        """One row per game and seat (the CSV)."""
        rows = []
        for index, game in enumerate(self.games):
            forfeits = {f["seat"]: f for f in game["forfeits"]}
            winners = game["winners"]
            for seat, name in enumerate(game["seats"]):
                result = "loss" if seat not in winners else ("win" if len(winners) == 1 else "draw")
                forfeit = forfeits.get(seat, {})
                rows.append({
                    "game": index, "table": game.get("table", ""), "seed": game.get("seed"), "seat": seat + 1,
                    "entry": name, "opponents": ";".join(n for s, n in enumerate(game["seats"]) if s != seat),
                    "points": game["points"][seat], "result": result,
                    "forfeit": forfeit.get("reason", ""), "forfeit_detail": forfeit.get("detail", ""),
                })
        return rows

    def missing_exploitability(self, rows: list[dict] | None = None) -> list[tuple[str, list[str]]]:
        """Why an entry has no exploitability: ``[(reason, [names]), ...]`` (entries with a value left out).

        ``rows``: the ranking if it is already at hand (it takes a moment for a big tournament).
        """
        groups: dict[str, list[str]] = {}
        for row in rows or self.ranking():
            if row["exploitability"] is None:
                reason = self.exploitability_notes.get(row["name"]) or "not computed for this tournament"
                groups.setdefault(reason, []).append(row["name"])
        return list(groups.items())

    def ranking_text(self, labels: dict | None = None) -> str:
        """The ranking as a plain-text table with its rule underneath (the command line prints it).

        ``labels`` (``{name: shown}``, e.g. :meth:`labels`) names the entries; by default their names, the
        identifiers code and the results files use. The entry column is as wide as its longest name: two
        entries never look the same.
        """
        shown = {name: (labels or {}).get(name, name) for name in self.names}
        width = max([22, *(len(text) for text in shown.values())])
        head = f"{'#':>3}  {'entry':<{width}} {'kind':<8} {'games':>6} {'mean pts':>9} {'95% interval':>15} " \
               f"{'wins':>6} {'draws':>6} {'losses':>6} {'forfeits':>8} {'beats':>5} {'exploit':>8}"
        lines, rows = [head, "-" * len(head)], self.ranking()
        for r in rows:
            lines.append(f"{r['rank']:>3}  {shown[r['name']]:<{width}} {r['kind'][:8]:<8} {r['games']:>6} "
                         f"{fixed(r['mean_points']) if r['games'] else '-':>9} {interval_text(r):>15} "
                         f"{r['wins']:>6} {r['draws']:>6} {r['losses']:>6} {r['forfeits']:>8} "
                         f"{r['opponents_beaten']:>5} {fixed(r['exploitability']):>8}")
        lines += ["", textwrap.fill(RANKING_RULE, width=len(head))]
        note = self.interval_note(labels=shown, rows=rows)
        if note:
            lines += [textwrap.fill(note, width=len(head))]
        missing = self.missing_exploitability(rows)
        if missing:
            lines += ["", "Exploitability (what a perfect opponent wins against the entry; 0 = unbeatable) is n/a for:"]
            lines += [textwrap.fill(f"{', '.join(shown[n] for n in names)}: {reason}", width=len(head),
                                    initial_indent="  ", subsequent_indent="    ", break_on_hyphens=False)
                      for reason, names in missing]
        return "\n".join(lines)


def interval_text(row: dict) -> str:
    """A ranking row's interval as people write it: ``'4.10 to 5.25'``; ``'too few deals'`` with fewer
    than :data:`MIN_DEALS` deals (``'-'`` when the entry played no game).

    >>> interval_text({"ci_low": 4.1, "ci_high": 5.25, "deals": 20}), interval_text({"ci_low": None, "deals": 2})
    ('4.10 to 5.25', 'too few deals')
    """
    if row.get("ci_low") is None:
        return "too few deals" if 0 < (row.get("deals") or 0) < MIN_DEALS else "-"
    return f"{fixed(row['ci_low'])} to {fixed(row['ci_high'])}"


def entry_labels(entries) -> dict[str, str]:
    """How screens name each entry, ``{name: shown}``: a bot by its readable label
    (:func:`~gopskit.agents.labels.bot_label`), a student's file or notebook function by its name.

    The names stay the identifiers (code, ``--bots`` and the results files use them); this is only what
    people read. Two entries never read alike: where two would, a bot's label gets its name added.

    >>> entry_labels([{"name": "one-higher", "kind": "bot", "bot": "one-higher"},
    ...               {"name": "random (2)", "kind": "bot", "bot": "random"}, {"name": "ada", "kind": "student"}])
    {'one-higher': 'One-higher bot', 'random (2)': 'Random bot (2)', 'ada': 'ada'}
    >>> entry_labels([{"name": "Random bot", "kind": "student"}, {"name": "random", "kind": "bot", "bot": "random"}])
    {'Random bot': 'Random bot', 'random': 'Random bot (random)'}
    """
    from ..agents.labels import bot_label

    shown = {}
    for info in entries:
        name, bot = info["name"], info.get("bot")
        is_bot = info.get("kind") == "bot" and bot and name.startswith(bot)
        shown[name] = bot_label(bot) + name[len(bot):] if is_bot else name  # 'random (2)': 'Random bot (2)'
    taken = Counter(shown.values())
    for name in shown:
        if taken[shown[name]] > 1 and shown[name] != name:
            shown[name] = f"{shown[name]} ({name})"
    if len(set(shown.values())) < len(shown):  # only a contrived name can still clash: fall back to the names
        return {name: name for name in shown}
    return shown


GAME_COLUMNS = ("game", "table", "seed", "seat", "entry", "opponents", "points", "result", "forfeit",
                "forfeit_detail")


def _write_csv(path, columns, rows) -> None:
    """Write ``rows`` under ``columns``; a text cell a spreadsheet would run as a formula gets a leading ``'``.

    Entry names come from student file names (``=cmd.py`` is the entry
    ``=cmd``), forfeit details from their code's errors:
    :func:`gopskit.spreadsheet.inert` keeps such cells text. Numbers are
    written as they are.
    """
    temp = path.with_name(f".{path.name}.tmp")
    with temp.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=columns)
        writer.writeheader()
        writer.writerows({key: inert(value) for key, value in row.items()} for row in rows)
    temp.replace(path)


def _sortable(value) -> float:
    return -np.inf if value is None or value != value else value


def _prize_bid_pairs(games, name):
    """``(prize, bid)`` for every turn ``name`` bid in a Goofspiel-style record."""
    for game in games:
        record = game.get("record")
        if not isinstance(record, dict):
            continue
        hands = record.get("hands") if isinstance(record.get("hands"), list) else [record]
        for seat, seated in enumerate(game["seats"]):
            if seated != name:
                continue
            for hand in hands:
                prizes, bids = hand.get("prizes"), hand.get("bids")
                if not isinstance(prizes, list) or not isinstance(bids, list):
                    continue
                for prize, turn in zip(prizes, bids):
                    if isinstance(turn, list) and seat < len(turn) and _card(prize) and _card(turn[seat]):
                        yield prize, turn[seat]


def _card(value) -> bool:
    """Plain numbered cards only (other games' records may hold text such as 'A-')."""
    return isinstance(value, int) and not isinstance(value, bool)


def describe_profile(profile: dict) -> str:
    """Turn :meth:`ResultSet.bidding_profile` into a sentence for the class."""
    if not profile["turns"]:
        return "no bids recorded (not a bidding game, or played on the batch path)"
    equal, r, offset = profile["equal"], profile["r"], profile["offset"]
    if equal is not None and equal >= 0.9:
        return f"bids the prize card itself ({percent(equal)} of turns)"
    side = "above" if offset > 0 else "below"
    if profile.get("near") is not None and profile["near"] >= 0.7:
        typical = profile["typical"]
        where = "equal to it" if typical == 0 else \
            f"{number(abs(typical), places=1, fractions=False)} {'above' if typical > 0 else 'below'} it"
        return f"bids close to the prize (within one card on {percent(profile['near'])} of turns), typically {where}"
    if r is None:
        return "always bids the same way, whatever the prize"
    if r >= 0.8:
        gap = fixed(abs(offset), 1)
        where = "on average equal to it" if gap == "0.0" else f"on average {gap} {side} it"
        return f"bids follow the prize closely (r = {fixed(r)}), {where}"
    if r >= 0.4:
        return f"bids rise with the prize, loosely (r = {fixed(r)}); matches it {percent(equal)} of the time"
    if r <= -0.4:
        return f"bids against the prize: high cards on low prizes (r = {fixed(r)})"
    return f"bids hardly depend on the prize (r = {fixed(r)})"


def rank_entries(results: ResultSet) -> list[str]:
    """Entry names, best first."""
    return [row["name"] for row in results.ranking()]


__all__ = ["GAME_COLUMNS", "LEVEL", "MIN_DEALS", "RANKING_COLUMNS", "RANKING_RULE", "ResultSet", "deal_interval",
           "describe_profile", "entry_labels", "interval_text", "mean_interval", "rank_entries"]
