"""One way of copying state for every engine (``bot.games.base.clone``): a true deep copy, fast enough for ``apply``."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from bot.games import available_games, get_engine
from bot.games.base import clone
from bot.games.dice import SeededDice


def slot_values(value: Any) -> list[Any]:
    """The values of a ``__slots__`` object's slots (its classes' and their bases'), as ``clone`` copies them."""
    names = []
    for cls in type(value).__mro__:
        slots = cls.__dict__.get("__slots__", ())
        names += [slots] if isinstance(slots, str) else list(slots)
    return [getattr(value, n) for n in names if n not in ("__weakref__", "__dict__") and hasattr(value, n)]


def is_slotted(value: Any) -> bool:
    if isinstance(value, type | tuple | str):
        return False
    return "__slots__" in type(value).__dict__ and not hasattr(value, "__dict__")


def mutable_parts(value: Any, found: dict[int, Any] | None = None) -> dict[int, Any]:
    """id -> object for every list, dict, non-frozen dataclass and ``__slots__`` object reachable from ``value``
    (the engines' lean states are ``__slots__`` classes)."""
    found = {} if found is None else found
    if isinstance(value, list | dict) or is_slotted(value) or (
        dataclasses.is_dataclass(value) and not type(value).__dataclass_params__.frozen  # type: ignore[union-attr]
    ):
        found[id(value)] = value
    children = (
        value.values() if isinstance(value, dict)
        else value if isinstance(value, list | tuple)
        else slot_values(value) if is_slotted(value)
        else vars(value).values() if dataclasses.is_dataclass(value) and not isinstance(value, type)
        else ()
    )
    for child in children:
        mutable_parts(child, found)
    return found


def test_clone_copies_nested_containers_even_in_lists_that_start_with_a_scalar():
    value = {"a": [1, [2, 3], {"b": [4]}], "t": (5, 6), "s": "x"}
    copied = clone(value)
    assert copied == value
    assert not mutable_parts(copied).keys() & mutable_parts(value).keys()
    assert copied["t"] is value["t"]  # immutables are shared, not copied


def test_clone_refuses_what_it_cannot_copy():
    with pytest.raises(TypeError):
        clone({1, 2})


@pytest.mark.parametrize("name", available_games())
def test_every_engines_state_copies_deeply_and_its_json_shares_nothing_with_it(name):
    engine = get_engine(name)
    options = engine.options()
    players = engine.player_range(options)[1]
    rng, dice = random.Random(5), SeededDice(5)
    state, _ = engine.new_game(players, options, dice)
    steps = 0
    while not engine.is_over(state) and steps < 400:
        copied = clone(state)
        assert engine.dumps(copied) == engine.dumps(state)
        parts = mutable_parts(state)
        assert len(parts) > 2, "the state's lists were not found: the check would pass without checking"
        assert not mutable_parts(copied).keys() & parts.keys(), "the copy shares a mutable part"
        assert copied.options is state.options  # frozen options are shared
        assert not mutable_parts(engine.to_json(state)).keys() & mutable_parts(state).keys()
        player = rng.choice(engine.to_act(state))
        state, _ = engine.apply(state, player, rng.choice(engine.legal_actions(state, player)), dice)
        steps += 1
    assert steps > 3
