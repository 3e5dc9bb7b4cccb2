"""``gopskit play``: a game of Goofspiel against a bot, in a terminal.

For people without a browser. The human is player 1 and types a card for
each prize; anything else gets a message saying what is allowed, and the
question again. ``quit`` or end of input (Ctrl-D) stops the game politely
(not ``q``: that is the Queen).
"""

from __future__ import annotations

import sys

from .agents import agent_names, make_agent
from .agents.labels import bot_label
from .arena.cli import in_flags
from .arena.match import seat_agents, start_game
from .cards import card_name, parse_rank
from .errors import GopsError, OptionError
from .games.goofspiel import Goofspiel
from .games.wording import TIE_WORDS

FLAGS = {"num_cards": "--cards", "ties": "--ties"}  # the game's options as this command's flags

NAMES = ("You", "the bot")  # as explanations name players; a sentence starts with a capital


def _ask(prompt: str, legal, read) -> int | None:
    while True:
        text = read(prompt)
        if text is None:
            return None
        text = text.strip()
        if text.lower() in ("quit", "exit"):  # not "q": Q is the Queen
            return None
        try:
            card = parse_rank(text)
        except GopsError:
            card = None
        if card in legal:
            return card
        print(f"  {text!r} is not a card you hold. Type one of: {', '.join(map(card_name, legal))} (or quit to stop).")


def _range_text(cards: int) -> str:
    """The cards of a hand, as people say them: ``'A, 2-10, J, Q, K'``, ``'A to 6'``, ``'A'``."""
    if cards == 13:
        return "A, 2-10, J, Q, K"
    return card_name(1) if cards == 1 else f"{card_name(1)} to {card_name(cards)}"


def _input(prompt):
    try:
        return input(prompt)
    except EOFError:
        return None


def play_in_terminal(cards=13, bot="match-prize", ties="discard", seed=None, read=_input) -> int:
    """Play one game; return 0 when it ends, 1 when the player stops early.

    Bad options are refused in the command's words: the flag typed, and for
    a bot the ones that can play these rules."""
    try:
        rules = Goofspiel(num_cards=cards, ties=ties)
    except OptionError as exc:  # the engine names its options as Python does: say the flag instead
        raise OptionError(in_flags(str(exc), FLAGS)) from None
    playable = [name for name in agent_names(rules) if name != "human"]
    if bot not in playable:
        raise OptionError(f"--bot {bot!r} is not one of the bots that play Goofspiel with these rules: {', '.join(playable)}")
    human, machine = make_agent("random"), make_agent(bot)  # the human's seat agent is never asked
    if hasattr(machine, "think_ahead"):
        machine.think_ahead = True  # it may use the time the person takes to type
    agents = seat_agents(rules, [human, machine])
    state = start_game(rules, agents, seed)
    print(f"Goofspiel with {cards} cards against the {bot_label(bot)}. Highest bid wins the prize; "
          f"{TIE_WORDS[rules.ties]}. Type a card ({_range_text(cards)}) for each prize, or quit to stop.")
    note = machine.seat_note(rules)
    if note:  # the equilibrium bot: which of its bids are estimates
        print(note)
    while not state.is_terminal():
        obs = state.observation(0)
        offer = " + ".join(card_name(c) for c in obs.offer)
        print(f"\nTurn {obs.turn + 1}: prize {offer}. Scores: you {obs.scores[0]}, bot {obs.scores[1]}.")
        print(f"  Your hand: {' '.join(card_name(c) for c in obs.hand)}")
        card = _ask("  Your bid: ", obs.legal_moves, read)
        if card is None:
            print("\nGame stopped.")
            return 1
        event = state.apply({0: card, 1: machine.act(state.observation(1))})
        text = event.explain(NAMES)
        print("  " + text[0].upper() + text[1:])
    you, them = state.scores()
    verdict = "You win!" if you > them else "The bot wins." if them > you else "A draw."
    print(f"\nFinal score: you {you}, bot {them}. {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(play_in_terminal())
