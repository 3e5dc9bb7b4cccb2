"""Lesson 5 (a class tournament): submit a strategy, run the tournament, read the results.

The tournament itself is :mod:`gopskit.arena.tournament` (``docs/tournaments.md``);
this module gives the lesson its few steps:

* :func:`class_folder`: where the class's strategy files go: the folder named
  by ``$GOPSKIT_CLASS_FOLDER`` (a shared folder on a school JupyterHub), or
  a fresh temporary folder when it is not set;
* :func:`submit`: write a notebook function to that folder as a strategy file
  and run the kit's submission check on it (one sandboxed game);
* :func:`demo_tournament`: a small, seeded tournament of example "students"
  and the kit's bots, the same for every student (the exercises read it).
  It takes a few seconds on an idle computer (longer when a whole class
  plays it at once on one server), so its results ship with the kit
  (``gopskit/data/lesson5-demo-tournament.json``, written by
  ``python -m gopskit.course.classroom``; a test replays its games);
* :func:`class_tournament`: every file in the class folder against the bots;
* :func:`distance_from_equilibrium`: a strategy's exploitability, exactly (a note instead
  for one that uses randomness).

>>> sorted(EXAMPLES)
['ada', 'ben', 'cleo']
"""

from __future__ import annotations

import functools
import json
import os
import pathlib
import tempfile

from ..arena.entries import check_entry, entry_from_function
from ..arena.results import ResultSet
from ..arena.tournament import Tournament
from ..errors import GopsError
from ..games.goofspiel import Goofspiel
from .feedback import Feedback, is_blank
from .strategies import FunctionAgent, NotDeterministic, _DeterministicOpponent

NUM_CARDS = 4
DEMO_BOTS = ("random", "match-prize", "one-higher", "adaptive", "equilibrium")
DEMO_GAMES, DEMO_SEED = 10, 1
LESSON1_BOTS = ("match-prize", "one-higher", "greedy-high")  # the deterministic bots of lesson 1
DEMO_FILE = pathlib.Path(__file__).resolve().parents[1] / "data" / "lesson5-demo-tournament.json"


# -------------------------------------------------------- example students --
def ada(observation):
    """The cheapest card above the prize, where it holds one; otherwise throw away the lowest card."""
    higher = [card for card in observation.legal_moves if card > observation.prize]
    return min(higher) if higher else min(observation.legal_moves)


def ben(observation):
    """A steady middle card: the median of what is left, whatever the prize."""
    cards = sorted(observation.legal_moves)
    return cards[len(cards) // 2]


def cleo(observation):
    """Strongest card first, whatever the prize."""
    return max(observation.legal_moves)


EXAMPLES = {"ada": ada, "ben": ben, "cleo": cleo}


# ------------------------------------------------------------------ steps --
def class_folder() -> pathlib.Path:
    """The class's submission folder: ``$GOPSKIT_CLASS_FOLDER`` if set, else a new temporary folder."""
    named = os.environ.get("GOPSKIT_CLASS_FOLDER")
    folder = pathlib.Path(named) if named else pathlib.Path(tempfile.mkdtemp(prefix="gopskit-class-"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


MAX_NAME = 40
WINDOWS_DEVICES = {"con", "prn", "aux", "nul", *(f"com{k}" for k in range(1, 10)), *(f"lpt{k}" for k in range(1, 10))}
NAME_HINT = "for example name = \"alice\" or \"team_7\""


def name_problem(name, folder) -> str | None:
    """Why ``name`` cannot name a submission in ``folder`` (a sentence), or None if it can.

    A name is one word of letters, digits and _, at most :data:`MAX_NAME`
    characters; it may not start with _ (the tournament skips such files as
    helpers), be the name of one of the kit's bots (the table would list two
    entries of that name), be a name Windows keeps for devices, or differ
    only in capitals from a submission already in the folder (on Windows and
    macOS that is the same file).

    >>> name_problem("alice", "."), name_problem("_alice", ".")[:30]
    (None, 'a name that starts with _ is s')
    """
    from ..agents import agent_names

    if is_blank(name) or not isinstance(name, str) or not name.isidentifier():
        return f"your name must be one word of letters, digits and _, not {name!r}"
    if len(name) > MAX_NAME:
        return f"your name has {len(name)} characters; at most {MAX_NAME} fit in a file name and in the table"
    if name.startswith("_"):
        return "a name that starts with _ is skipped by the tournament (such files are helpers): start with a letter"
    if name.lower() in {bot.replace("-", "_").lower() for bot in agent_names()}:
        return f"{name} is the name of one of the kit's bots: the table would list two entries called {name}"
    if name.lower() in WINDOWS_DEVICES:
        return f"{name} is a name Windows keeps for a device, so it cannot be a file name there"
    clash = [p.stem for p in pathlib.Path(folder).glob("*.py") if p.stem.lower() == name.lower() and p.stem != name]
    if clash:
        return (f"{clash[0]}.py is already in the class folder: {name} differs from it only in capitals, and on "
                "Windows and macOS that is the same file")
    return None


def _keep_earlier(path: pathlib.Path) -> pathlib.Path | None:
    """Move an earlier ``path`` aside as ``<name>.py.<k>.bak`` (the tournament reads only ``*.py``); return where."""
    if not path.exists():
        return None
    k = 1
    while (kept := path.with_name(f"{path.name}.{k}.bak")).exists():
        k += 1
    path.rename(kept)
    return kept


def submit(strategy, name: str, folder, num_cards: int = NUM_CARDS) -> Feedback:
    """Save ``strategy`` as ``folder/<name>.py`` and check it plays a whole game; say what happened.

    Nothing is lost: an earlier file of the same name is kept beside it as
    ``<name>.py.<k>.bak`` when the new one passes its check, and put back
    when the new one fails.
    """
    if is_blank(strategy) or not callable(strategy):
        return Feedback("Submission", "blank", "write your strategy function first, then submit it")
    if getattr(strategy, "__name__", "") == "<lambda>":
        return Feedback("Submission", "wrong", "a lambda cannot be saved as a file: write your strategy with def",
                        "def my_strategy(observation): ...")
    problem = name_problem(name, folder)
    if problem is not None:
        return Feedback("Submission", "wrong", problem, NAME_HINT)
    path = pathlib.Path(folder) / f"{name}.py"
    try:
        kept = _keep_earlier(path)
    except OSError as exc:
        return Feedback("Submission", "wrong", f"the class folder cannot be written ({exc.strerror}): nothing was saved",
                        "ask your teacher to check the class folder (GOPSKIT_CLASS_FOLDER)")
    try:
        entry = entry_from_function(strategy, name=name, folder=folder)
        verdict = check_entry(entry, Goofspiel(num_cards=num_cards))
    except GopsError as exc:
        verdict, message = None, str(exc)
    except OSError as exc:
        verdict, message = None, f"the class folder cannot be written ({exc.strerror}): nothing was saved"
    if verdict is not None and verdict.ok:
        earlier = (f" It replaces an earlier {path.name}, kept as {kept.name}: if that was not yours, submit again "
                   "under another name and tell your teacher." if kept else "")
        return Feedback("Submission", "correct",
                        f"saved as {entry.path.name} in the class folder; it {verdict.message}.{earlier}")
    if kept is not None:
        path.unlink(missing_ok=True)
        kept.rename(path)
    message = verdict.message if verdict is not None else message
    stays = f" Your earlier {path.name} stays in the class folder." if kept else ""
    return Feedback("Submission", "wrong", message + stays, "fix the function, run its cell, then submit again")


def _tournament_results(folder, bots, num_cards: int, games: int, seed: int, bot_records: bool = False):
    tournament = Tournament.from_folder(folder, Goofspiel(num_cards=num_cards), bots=list(bots), games=games,
                                        seed=seed, bot_records=bot_records)
    return tournament.run(progress=False)


def run_demo_tournament(num_cards: int = NUM_CARDS, games: int = DEMO_GAMES, seed: int = DEMO_SEED):
    """Play the demo: the example students against the bots, a seeded round robin (about 6 s on an idle 2-core computer)."""
    folder = pathlib.Path(tempfile.mkdtemp(prefix="gopskit-demo-"))
    for name, function in EXAMPLES.items():
        entry_from_function(function, name=name, folder=folder)
    results = _tournament_results(folder, DEMO_BOTS, num_cards, games, seed, bot_records=True)
    for info in results.entries:  # no temporary paths in the shipped file
        if info.get("path"):
            info["path"] = f"examples/{pathlib.Path(info['path']).name}"
    return results


@functools.lru_cache(maxsize=1)
def demo_tournament():
    """The demo's results, as shipped with the kit (``gopskit/data``; a test replays its games)."""
    return ResultSet.from_dict(json.loads(DEMO_FILE.read_text(encoding="utf-8")))


def write_demo(path=DEMO_FILE) -> pathlib.Path:
    """Play the demo again and store its results (``python -m gopskit.course.classroom``)."""
    path = pathlib.Path(path)
    path.write_text(json.dumps(run_demo_tournament().to_dict(), separators=(",", ":"), sort_keys=True) + "\n",
                    encoding="utf-8")
    return path


def class_tournament(folder, bots=DEMO_BOTS, num_cards: int = NUM_CARDS, games: int = 20, seed: int = 1):
    """Every strategy file in ``folder`` against ``bots``; a sentence instead when the folder is missing or empty,
    or an option is wrong (an unknown bot, say)."""
    if not pathlib.Path(folder).is_dir():
        return Feedback("Class tournament", "wrong", f"there is no folder {folder}",
                        "submit a strategy first, or check GOPSKIT_CLASS_FOLDER")
    if not any(p.suffix == ".py" and not p.name.startswith(("_", ".")) for p in pathlib.Path(folder).iterdir()):
        return Feedback("Class tournament", "blank", f"no strategy files in {folder} yet: submit one first")
    try:
        return _tournament_results(folder, [bots] if isinstance(bots, str) else bots, num_cards, games, seed)
    except GopsError as exc:
        return Feedback("Class tournament", "wrong", str(exc))


def demo_pairing(results, first: str, second: str) -> list[float]:
    """Per deal where ``first`` met ``second``: ``first``'s points minus ``second``'s, averaged over its seatings.

    One *deal* is one seed played from both seats; the deals are independent
    of each other, the two seatings of one deal are not, so a confidence
    interval is taken over these numbers (as :meth:`ResultSet.compare` does).
    """
    for name in (first, second):
        results.entry(name)
    per_deal: dict = {}
    for game in results.games:
        seats, points = game["seats"], game["points"]
        if first in seats and second in seats:
            per_deal.setdefault(game["seed"], []).append(points[seats.index(first)] - points[seats.index(second)])
    return [sum(v) / len(v) for _seed, v in sorted(per_deal.items())]


def exact_pairing(first: str, second: str, num_cards: int = NUM_CARDS) -> float:
    """``first``'s exact expected points minus ``second``'s per game (demo names: examples or bots).

    Computed over every prize order and every move, weighted by its
    probability (:func:`~gopskit.course.strategies.exact_lead`); the example
    students do not use randomness.
    """
    from .strategies import exact_lead

    lead = exact_lead(EXAMPLES.get(first, first), EXAMPLES.get(second, second), num_cards)
    if not lead.exact:
        raise GopsError(f"{first} against {second} cannot be enumerated exactly: a side uses randomness")
    return lead.mean


def same_play(first, second, num_cards: int = NUM_CARDS) -> tuple[int, int]:
    """``(same, positions)``: in how many positions of a game two deterministic strategies bid the same card.

    Every position a ``num_cards`` game can reach is visited: every prize
    order and every pair of earlier bids (legal cards, whoever played them).
    ``first`` and ``second`` are demo names (examples or bots) or functions.

    >>> same, positions = same_play("ada", "one-higher")
    >>> same == positions
    True
    """
    import itertools

    from ..agents import make_agent
    from ..games.goofspiel import GoofspielState
    from .strategies import as_agent

    rules = Goofspiel(num_cards=num_cards)
    agents = []
    for who in (first, second):
        agent = as_agent(EXAMPLES.get(who, who)) if not isinstance(who, str) or who in EXAMPLES else make_agent(who)
        agent.reset(rules, 0)
        agents.append(agent)
    counts = [0, 0]

    def visit(state):
        if state.is_terminal():
            return
        seen = state.observation(0)
        counts[0] += agents[0].act(seen) == agents[1].act(seen)
        counts[1] += 1
        for mine, theirs in itertools.product(seen.legal_moves, state.observation(1).legal_moves):
            child = state.clone()
            child.apply([mine, theirs])
            visit(child)

    for deck in itertools.permutations(range(1, num_cards + 1)):
        visit(GoofspielState(rules, deck))
    return counts[0], counts[1]


def tournament_winner(results) -> str:
    """The entry ranked first (most points per game)."""
    return results.ranking()[0]["name"]


def most_opponents_beaten(results) -> list[str]:
    """The entries that outscore the most opponents head to head (several on a tie)."""
    ranking = results.ranking()
    best = max(row["opponents_beaten"] for row in ranking)
    return sorted(row["name"] for row in ranking if row["opponents_beaten"] == best)


class _DeterministicFunction(_DeterministicOpponent):
    """A student's function asked for its policy: the one card it bids (asked twice: two answers mean randomness)."""

    classifier = {**FunctionAgent.classifier, "stochastic": False}


def bot_distances(bots=LESSON1_BOTS, num_cards: int = NUM_CARDS) -> dict[str, float]:
    """Each deterministic bot's exploitability (exact): what a perfect opponent wins against it per hand."""
    from ..agents import make_agent
    from ..solvers.exploit import agent_exploitability

    return {name: agent_exploitability(make_agent(name), num_cards=num_cards).exploitability for name in bots}


RANDOM_STRATEGY_NOTE = ("your strategy uses randomness (asked twice in one position, it bid two different cards), so "
                        "the kit cannot list its bids to compute its exploitability exactly; treating one draw as "
                        "its rule would measure a different, fixed strategy. Mixing is allowed: the tournament plays "
                        "it as it is")


def distance_from_equilibrium(strategy, num_cards: int = NUM_CARDS):
    """What a perfect opponent who knows ``strategy`` wins against it per hand (0: an equilibrium strategy).

    Exact (:func:`gopskit.solvers.exploit.agent_exploitability`) for a
    strategy that does not use randomness; up to 5 cards. A blank or broken
    strategy gives a sentence instead of a number, and so does one that uses
    randomness (asked twice in one position it answers differently): one
    draw of its bids would be a different, fixed strategy.
    """
    from ..solvers.exploit import agent_exploitability

    if is_blank(strategy) or not callable(strategy):
        return Feedback("Distance", "blank", "write your strategy function first")
    try:
        return agent_exploitability(_DeterministicFunction(strategy), num_cards=num_cards).exploitability
    except NotDeterministic:
        return Feedback("Distance", "note", RANDOM_STRATEGY_NOTE)
    except GopsError as exc:
        return Feedback("Distance", "wrong", f"your strategy could not be measured: {exc}")


__all__ = ["DEMO_BOTS", "DEMO_FILE", "EXAMPLES", "LESSON1_BOTS", "MAX_NAME", "NUM_CARDS", "bot_distances", "class_folder", "class_tournament", "demo_tournament",
           "demo_pairing", "distance_from_equilibrium", "exact_pairing", "most_opponents_beaten", "name_problem", "run_demo_tournament", "same_play", "submit",
           "tournament_winner", "write_demo"]


if __name__ == "__main__":
    print("wrote", write_demo())
