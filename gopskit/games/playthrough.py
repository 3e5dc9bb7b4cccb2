"""Saved playthroughs: a seeded random game written out line by line.

A playthrough file starts with three header lines (game, options, seed);
the rest is generated from them: at every step who moves, what each player
observes, the joint move and what it did, then the final scores and the
record. Regenerating a file and diffing it against the saved copy shows any
change in a rule, an observation or a message.

Write or refresh one::

    python -m gopskit.games.playthrough tests/playthroughs/goofspiel-carry.txt \\
        --game goofspiel --options '{"ties": "carry", "num_cards": 5}' --seed 3
    python -m gopskit.games.playthrough --update tests/playthroughs/*.txt
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys

import numpy as np

from . import make_rules


def _line(value) -> str:
    if dataclasses.is_dataclass(value):
        value = dataclasses.asdict(value)
    return json.dumps(value, sort_keys=True, default=str)


def render_playthrough(game: str, options: dict, seed: int) -> list[str]:
    """Play a seeded game with uniformly random legal moves; return its lines."""
    rules = make_rules(game, **options)
    rng = np.random.default_rng(seed)
    state = rules.new_game(seed)
    lines = [f"# game: {game}", f"# options: {json.dumps(options, sort_keys=True)}", f"# seed: {seed}"]
    step = 0
    while not state.is_terminal():
        movers = state.to_move()
        lines.append(f"step {step}: to move {list(movers)}")
        for p in range(rules.num_players):
            lines.append(f"  obs {p}: {_line(state.observation(p).to_dict())}")
        joint = {p: state.legal_moves(p)[int(rng.integers(len(state.legal_moves(p))))] for p in movers}
        lines.append(f"  move: {_line({str(p): m for p, m in joint.items()})}")
        event = state.apply(joint)
        explain = getattr(event, "explain", None)
        lines.append(f"  event: {explain() if callable(explain) else _line(event)}")
        step += 1
    lines.append(f"scores: {_line(state.scores())}")
    lines.append(f"winners: {_line(state.winners())}")
    lines.append(f"record: {_line(state.record())}")
    return lines


def read_header(path) -> tuple[str, dict, int]:
    """Return ``(game, options, seed)`` from a playthrough file's header."""
    with open(path, encoding="utf-8") as handle:
        head = [next(handle).rstrip("\n") for _ in range(3)]
    game = head[0].split(": ", 1)[1]
    options = json.loads(head[1].split(": ", 1)[1])
    seed = int(head[2].split(": ", 1)[1])
    return game, options, seed


def write_playthrough(path, game, options, seed):
    with open(path, "w", encoding="utf-8") as handle:
        handle.write("\n".join(render_playthrough(game, options, seed)) + "\n")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("paths", nargs="+")
    parser.add_argument("--update", action="store_true", help="regenerate files from their own headers")
    parser.add_argument("--game")
    parser.add_argument("--options", default="{}")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    for path in args.paths:
        if args.update:
            write_playthrough(path, *read_header(path))
        else:
            write_playthrough(path, args.game, json.loads(args.options), args.seed)
        print(f"wrote {path}", file=sys.stderr)


if __name__ == "__main__":
    main()
