"""The engine contract as checks of one game by id: tests/games/test_contract.py (and the state-copy and result
tests) run them on every registered game, tests/test_sixth_game.py on a game registered from outside bot/games.

Each ``check_*`` raises AssertionError on a breach; the seeded ones take the seed (the tests draw it with
hypothesis or loop over a few)."""

from __future__ import annotations

import dataclasses
import json
import random
from typing import Any

import pytest

from bot.games import get_engine
from bot.games.base import clone
from bot.games.dice import SeededDice
from tests.games.playout import random_playout

OWN = ("you", "legal", "to_act")  # what differs between viewers even when nothing is hidden


def check_options(game: str) -> None:
    """Defaults round-trip through a dict; an unknown option is refused by name."""
    engine = get_engine(game)
    options = engine.options()
    assert engine.options(options.to_dict()) == options
    with pytest.raises(ValueError, match="no_such_option"):
        engine.options({"no_such_option": 1})


def check_player_count(game: str) -> None:
    engine = get_engine(game)
    lo, hi = engine.player_range(engine.options())
    with pytest.raises(Exception):  # noqa: B017 - IllegalMove or InvalidOptions, both name the count
        engine.new_game(lo - 1, engine.options(), SeededDice(0))
    with pytest.raises(Exception):  # noqa: B017
        engine.new_game(hi + 1, engine.options(), SeededDice(0))


def check_new_game(game: str) -> None:
    """Every player count opens with someone to act, each with legal actions; state and view are JSON."""
    engine = get_engine(game)
    lo, hi = engine.player_range(engine.options())
    for n in range(lo, hi + 1):
        state, events = engine.new_game(n, engine.options(), SeededDice(n))
        assert engine.to_act(state)
        for p in engine.to_act(state):
            assert engine.legal_actions(state, p)
        json.dumps(engine.to_json(state))
        json.dumps(engine.view(state, None))


def check_timeout(game: str) -> None:
    """An expired turn always changes the state and says so."""
    engine = get_engine(game)
    lo, _ = engine.player_range(engine.options())
    dice = SeededDice(3)
    state, _ = engine.new_game(lo, engine.options(), dice)
    for _ in range(50):
        if engine.is_over(state):
            break
        player = engine.to_act(state)[0]
        before = engine.dumps(state)
        state, events = engine.timeout(state, player, dice)
        assert engine.dumps(state) != before
        assert events


def check_forfeit(game: str) -> None:
    """Forfeits down to one player end the game with that player winning."""
    engine = get_engine(game)
    lo, hi = engine.player_range(engine.options())
    n = min(hi, lo + 1)
    dice = SeededDice(5)
    state, _ = engine.new_game(n, engine.options(), dice)
    for p in range(n - 1):
        state, events = engine.forfeit(state, p, dice)
        assert any(e.kind == "forfeit" for e in events)
    assert engine.is_over(state)
    assert engine.outcome(state).winners == (n - 1,)


def check_random_game(game: str, players: int, seed: int) -> None:
    """A random legal game keeps the contract at every step and ranks every seat exactly once."""
    engine = get_engine(game)
    state, _, _ = random_playout(engine, players, engine.options(), seed)
    outcome = engine.outcome(state)
    seats = sorted(p for place in outcome.ranking for p in place)
    assert seats == list(range(players)), "the ranking must place every seat exactly once"
    assert len(outcome.scores) == players


def public_actions_offered(game: str, players: int, seed: int) -> bool:
    """Public actions are legal, only for seats to act, and the same whatever is hidden; whether any were offered."""
    engine = get_engine(game)
    offered = []

    def check(state: Any, player: int, action: Any, new: Any, events: Any) -> None:
        for s in (state, new):
            public = engine.public_actions(s)
            assert set(public) <= set(engine.to_act(s)), "public actions only for seats to act"
            for seat, actions in public.items():
                assert set(actions) <= set(engine.legal_actions(s, seat))
            offered.extend(public.values())
            for p in range(players):
                scrambled = engine.scramble(s, p, SeededDice(seed + p))
                assert engine.public_actions(scrambled) == public, "public actions depend on hidden info"

    random_playout(engine, players, engine.options(), seed, check=check, deep=False)
    return any(offered)


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


def check_state_copies(game: str) -> None:
    """``clone`` copies a state deeply (sharing only the frozen options), and its JSON shares nothing with it."""
    engine = get_engine(game)
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


def public_part(view: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in view.items() if k not in OWN}


def check_open_information(game: str) -> None:
    """``open_information`` is declared exactly when no seat's view ever differs from the channel's."""
    engine = get_engine(game)
    players = 3  # every game takes three
    differs = False

    def check(state: Any, player: int, action: Any, new: Any, events: Any) -> None:
        nonlocal differs
        for seat in range(players):
            if public_part(engine.view(new, seat)) != public_part(engine.view(new, None)):
                differs = True

    for seed in range(3):
        random_playout(engine, players, engine.options(), seed, check=check, deep=False)
    assert engine.open_information == (not differs), game


def check_neutral_results(game: str, options: list[dict[str, Any]] | None = None) -> None:
    """A neutral result only where the engine declares them (seen under one of ``options``), never a winner."""
    engine = get_engine(game)
    seen_neutral = False
    for data in options or [{}]:
        for seed in range(6):
            state, _, _ = random_playout(engine, 3, engine.options(data), seed, deep=False)
            outcome = engine.outcome(state)
            assert not set(outcome.neutral) & set(outcome.winners)
            assert {outcome.result(seat) for seat in range(3)} <= {"win", "loss", "neutral"}
            seen_neutral |= bool(outcome.neutral)
    assert seen_neutral == engine.neutral_results, game
