"""Shared helpers for engine tests: random legal playouts with invariant checks."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from bot.games.base import Action, Engine, Event, IllegalMove
from bot.games.dice import SeededDice
from bot.i18n import has
from bot.render import error_keys, error_text

MAX_STEPS = 20_000


def assert_unchanged_on_illegal(engine: Engine, state: Any, player: int, action: Action) -> IllegalMove:
    before = engine.dumps(state)
    with pytest.raises(IllegalMove) as info:
        engine.apply(state, player, action, SeededDice(1))
    assert engine.dumps(state) == before, "an illegal move changed the state"
    refusal = info.value
    assert refusal.code and str(refusal).startswith(refusal.code)
    # the refusal reads from the catalog with every field filled (not the generic fallback)
    assert any(has(key) for key in error_keys(refusal.code, refusal.params, engine.name)), refusal
    assert "{" not in error_text(refusal, "en", engine.name), refusal
    return refusal


def random_playout(
    engine: Engine,
    players: int,
    options: Any,
    seed: int,
    check: Callable[[Any, int, Action, Any, list[Event]], None] | None = None,
    deep: bool = True,
) -> tuple[Any, list[Event], int]:
    """Play one random legal game to the end; returns the final state, every event, and the step count.

    With ``deep`` every step also checks the contract: JSON round trip, view secrecy under
    ``scramble``, illegal moves refused without change, and ``apply`` not mutating its input.
    """
    rng = random.Random(seed)
    dice = SeededDice(seed)
    state, events = engine.new_game(players, options, dice)
    log = list(events)
    steps = 0
    while not engine.is_over(state):
        steps += 1
        assert steps < MAX_STEPS, "game did not terminate"
        movers = engine.to_act(state)
        assert movers, "no one may act in an unfinished game"
        player = rng.choice(movers)
        legal = engine.legal_actions(state, player)
        assert legal, f"seat {player} is to act but has no legal action"
        action = rng.choice(legal)
        if deep:
            check_contract_step(engine, state, players, player, rng)
        before = engine.dumps(state)
        new, events = engine.apply(state, player, action, dice)
        assert engine.dumps(state) == before, "apply mutated its input state"
        if check:
            check(state, player, action, new, events)
        state = new
        log.extend(events)
    assert engine.outcome(state) is not None
    for p in range(players):
        assert engine.legal_actions(state, p) == []
    return state, log, steps


def check_contract_step(engine: Engine, state: Any, players: int, player: int, rng: random.Random) -> None:
    text = engine.dumps(state)
    assert engine.dumps(engine.loads(text)) == text, "JSON round trip changed the state"
    assert engine.loads(text) == state
    for p in range(players):
        scrambled = engine.scramble(state, p, SeededDice(rng.random()))
        assert engine.view(scrambled, p) == engine.view(state, p), f"seat {p}'s view leaks hidden state"
    idle = [p for p in range(players) if p not in engine.to_act(state)]
    if idle:
        assert_unchanged_on_illegal(engine, state, rng.choice(idle), engine.legal_actions(state, player)[0])
    assert_unchanged_on_illegal(engine, state, player, Action("no_such_move"))
