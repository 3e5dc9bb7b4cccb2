"""The hand row's slots, shared by the boards and the classroom's student board.

A slot is a card face (HTML) under a transparent button. A slot belongs to
one card for as long as the card is in the hand: a click the browser sent
before the row changed (the second click of a double click) names the card
it hit, never the card that moved into its place. The slots of cards that
left the hand are closed, so a page holds no more widgets than one hand's.
"""

from __future__ import annotations

from typing import Callable

import ipywidgets as widgets


def hand_slots(slot_by_key: dict, keys: list, on_click: Callable) -> list:
    """The slots for ``keys``, in order; a key seen for the first time gets a new slot whose button calls
    ``on_click(key)``. Close the slots of keys that are gone with :func:`close_gone` once the row shows these."""
    for key in keys:
        if key not in slot_by_key:
            slot_by_key[key] = _new_slot(key, on_click)
    return [slot_by_key[key] for key in keys]


def close_gone(slot_by_key: dict, keys: list) -> None:
    """Close the slots of cards that left the hand (their keys are not in ``keys``): a late click goes nowhere."""
    for key in set(slot_by_key) - set(keys):
        for part in slot_by_key.pop(key):
            part.close()


def dress_button(button: widgets.Button, card, keys_on: bool, face_up: bool = True) -> None:
    """The slot button's tooltip for ``card`` and its keyboard key's class (only while ``keys_on``).

    A card face down (a hot seat's hand before "Show my hand") is not named
    in its tooltip either: a hover would show the hand the others must not see.
    """
    verb = "Play" if card.is_card else "Choose"
    key = "1" if card.key == "a" and not card.is_card else card.key.upper()
    if face_up:
        button.tooltip = f"{verb} {card.label()}" + (f" (key {key})" if card.key else "")
    else:
        button.tooltip = "A card face down: its player presses “Show my hand” first"
    for cls in [c for c in button._dom_classes if c.startswith("gopskit-key-")]:
        button.remove_class(cls)
    if card.key and keys_on:
        button.add_class(f"gopskit-key-{card.key}")


SAY_THINKING_AFTER = 0.3
"""Seconds a move waits in silence for a bot before the page says the bot is still thinking (no flicker for a quick bot)."""


def wait_for_bots(slots: list, confirm: widgets.Button, who: list[str]) -> str:
    """The person's move is in, but the bots ``who`` still work out theirs: grey the row and the button; the status line.

    A widget's change reaches the page as it is made, so this shows while
    the handler that sent the move waits for the bots; the next drawing of
    the board gives the cards back.
    """
    for _box, _face, button in slots:
        button.disabled = True
    confirm.disabled = True
    if len(who) == 1:
        return f"{who[0]} is still working out its move: the cards are turned over as soon as it has."
    return f"{' and '.join(who)} are still working out their moves: the cards are turned over as soon as they have."


def _new_slot(key, on_click: Callable) -> tuple:
    face = widgets.HTML()
    button = widgets.Button(description="", layout=widgets.Layout(width="100%", height="100%"))
    button.add_class("gopskit-card")
    button.on_click(lambda _b: on_click(key))
    box = widgets.Box([face, button])
    box.add_class("gopskit-slot")
    return box, face, button
