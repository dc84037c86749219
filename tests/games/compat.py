"""Shared checks of the lean engines' compatibility tests (issue 12): a state saved by the previous engine (b43159e)
loads and is written back the same, and the same seeded moves write what it wrote."""

from __future__ import annotations

import json
import random
from typing import Any

from bot.games.dice import SeededDice


def ordered(data: object) -> str:
    """The JSON text with keys in their order (the standard encoder; the bot's own may format differently)."""
    return json.dumps(data)


def loads_as_saved(engine: Any, saved: str) -> Any:
    """The state ``saved`` holds, after checking it writes back with the same keys, order and values."""
    state = engine.loads(saved)
    assert ordered(engine.to_json(state)) == ordered(json.loads(saved))
    assert engine.loads(engine.dumps(state)) == state
    return state


def writes_as_saved(engine: Any, state: Any, saved: str) -> None:
    assert ordered(engine.to_json(state)) == ordered(json.loads(saved))


def play_random(engine: Any, players: int, options: Any, seed: int, moves: int) -> Any:
    """``moves`` random legal moves from a new game, as the saved states were made: SeededDice(seed) and
    random.Random(seed) choosing among the legal actions of the first seat to act."""
    rng, dice = random.Random(seed), SeededDice(seed)
    state, _ = engine.new_game(players, options, dice)
    for _ in range(moves):
        mover = engine.to_act(state)[0]
        state, _ = engine.apply(state, mover, rng.choice(engine.legal_actions(state, mover)), dice)
    return state
