"""Raj's prompt names each card on offer: a carried prize and the new one are two cards, not one of their total."""

from __future__ import annotations

from gopskit.games import rules_class
from gopskit.widgets.views.raj import RajView

NAMES = ["Player 1", "Player 2"]


def test_one_prize_on_offer_is_named_as_the_card():
    state = rules_class("raj").from_options({"players": 2}).new_game(seed=1)
    (prize,) = state.observation(0).offer
    side = "highest" if prize > 0 else "lowest"
    assert RajView().prompt(state, 0, NAMES) == (
        f"Player 1: bid for the {prize:+d}. The {side} bid that nobody matched takes it.")


def test_a_carried_prize_and_the_new_one_are_named_apart_with_their_total():
    state = rules_class("raj").from_options({"players": 2}).new_game(seed=1)
    first = state.observation(0).offer
    card = state.observation(0).hand[0]
    state.apply({0: card, 1: card})  # the bids cancel: the prize stays and the next one joins it
    obs = state.observation(0)
    assert list(obs.offer[:-1]) == list(first) and len(obs.offer) == 2
    side = "highest" if obs.highest else "lowest"
    carried, new = obs.offer
    assert RajView().prompt(state, 0, NAMES) == (
        f"Player 1: bid for the {carried:+d} and {new:+d} ({carried + new:+d} in all). The {side} bid that nobody "
        "matched takes them all.")
