"""The compiled fast path (bot/games/_fast.c) against the pure-Python engines it must equal: random games played on
both with the same dice give the same states, events (their kinds, data with its keys in order, and recipients),
seats to act, legal actions, views, outcomes and JSON at every step, and the same refusals; timeouts and forfeits
are mixed in, and odd inputs the compiled code hands back to Python. The registry serves the compiled engines when
they are built, and the pure ones with DICETAVERN_PURE_ENGINES=1.

The engines compared are fresh instances of both classes; tests/games/conftest.py runs the other engine tests on each.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.games.base import Action, IllegalMove
from bot.games.dice import RecordingDice, ScriptedDice, SeededDice
from bot.games.liars_dice import MODES, RAISE_RULES, STARTERS, CompiledLiarsDice, LiarsDice, LiarsOptions
from bot.games.pig import CompiledPig, Pig, PigOptions
from tests.games.conftest import require_compiled

SETTINGS = settings(max_examples=150, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])


@pytest.fixture(autouse=True)
def compiled_built() -> None:
    require_compiled()


def same_events(a: list[Any], b: list[Any]) -> None:
    assert a == b
    assert [type(e) for e in a] == [type(e) for e in b]
    assert [list(e.data) for e in a] == [list(e.data) for e in b], "the data's keys in the same order"


def same_state(pure: Any, fast: Any, a: Any, b: Any, players: int) -> None:
    assert type(a) is type(b)
    assert a == b
    assert json.dumps(pure.to_json(a)) == json.dumps(fast.to_json(b))
    assert pure.to_act(a) == fast.to_act(b)
    assert pure.outcome(a) == fast.outcome(b)
    assert pure.public_actions(a) == fast.public_actions(b)
    for seat in (None, *range(players)):
        assert pure.view(a, seat) == fast.view(b, seat)
        if seat is not None:
            assert pure.legal_actions(a, seat) == fast.legal_actions(b, seat)


def same_result(pure: Any, fast: Any, method: str, args_a: tuple[Any, ...], args_b: tuple[Any, ...]) -> Any:
    """Both engines' ``method`` on their own arguments: both results (their events the same), or None when both
    refused the same way."""
    try:
        a = getattr(pure, method)(*args_a)
    except IllegalMove as refused:
        with pytest.raises(IllegalMove) as also:
            getattr(fast, method)(*args_b)
        assert (also.value.code, also.value.params) == (refused.code, refused.params)
        return None
    b = getattr(fast, method)(*args_b)
    same_events(a[1], b[1])
    return a, b


def refusal_or_result(call: Any, *args: Any, **kwargs: Any) -> Any:
    try:
        return call(*args, **kwargs)
    except IllegalMove as refused:
        return refused.code, refused.params


def odd_actions(state: Any, seat: int) -> list[Action]:
    """Moves that may be refused: the compiled path hands them to Python, which must refuse them as before."""
    return [
        Action("hold"),
        Action("roll", (1,)),
        Action("bid", (1, 7)),
        Action("bid", (True, 2)),
        Action("bid", (2, 3)),
        Action("bid", (1,)),
        Action("challenge"),
        Action("nonsense"),
    ]


def play_both(pure: Any, fast: Any, players: int, options: Any, seed: int, detours: bool) -> None:
    """A random game on both engines from the same dice; with ``detours``, refused moves, moves out of turn,
    timeouts and forfeits now and then."""
    rng = random.Random(seed)
    dice_a, dice_b = RecordingDice(SeededDice(seed)), RecordingDice(SeededDice(seed))
    a, events_a = pure.new_game(players, options, dice_a)
    b, events_b = fast.new_game(players, options, dice_b)
    same_events(events_a, events_b)
    for _ in range(3000):
        same_state(pure, fast, a, b, players)
        assert dice_a.take() == dice_b.take(), "the same dice calls, in the same order"
        seats = pure.to_act(a)
        if not seats:
            return
        seat = rng.choice(seats)
        roll = rng.random() if detours else 1.0
        if roll < 0.03:
            method, args = "timeout", (seat,)
        elif roll < 0.05:
            method, args = "forfeit", (rng.randrange(players),)
        elif roll < 0.15:
            method, args = "apply", (rng.choice([seat, (seat + 1) % players]), rng.choice(odd_actions(a, seat)))
        else:
            method, args = "apply", (seat, rng.choice(pure.legal_actions(a, seat)))
        results = same_result(pure, fast, method, (a, *args, dice_a), (b, *args, dice_b))
        if results is not None:
            (a, _), (b, _) = results
    raise AssertionError("a random game ran past 3,000 steps")


@st.composite
def pig_games(draw):
    players = draw(st.integers(2, 8))
    options = PigOptions(
        dice=draw(st.sampled_from([1, 1, 1, 2])),
        target=draw(st.sampled_from([20, 50, 100])),
        double_ones=draw(st.sampled_from(["plus25", "lose_score", "bust"])),
        must_roll_after_doubles=draw(st.booleans()),
        auto_hold_at_target=draw(st.booleans()),
        equal_turns=draw(st.sampled_from([False, False, True])),
    )
    return players, options


@st.composite
def liar_games(draw):
    players = draw(st.integers(2, 6))
    mode = draw(st.sampled_from(["single", "single", *MODES]))
    extra: dict[str, Any] = {}
    if mode != "single":
        extra = {"starter": draw(st.sampled_from(STARTERS)), "max_rounds": draw(st.sampled_from([0, 3, 10]))}
    options = LiarsOptions(
        dice_per_player=draw(st.integers(1, 6)),
        raise_rule=draw(st.sampled_from(RAISE_RULES)),
        wild_ones=draw(st.booleans()),
        mode=mode,
        **extra,
    )
    return players, options


@SETTINGS
@given(pig_games(), st.integers(0, 2**32), st.booleans())
def test_pig_compiled_plays_as_the_pure_engine(game, seed, detours):
    players, options = game
    play_both(Pig(), CompiledPig(), players, options, seed, detours)


@SETTINGS
@given(liar_games(), st.integers(0, 2**32), st.booleans())
def test_liars_dice_compiled_plays_as_the_pure_engine(game, seed, detours):
    players, options = game
    play_both(LiarsDice(), CompiledLiarsDice(), players, options, seed, detours)


def test_odd_states_and_arguments_are_handed_to_the_pure_engine():
    """States the compiled code does not take (restored from JSON, changed by hand, a bool seat) and calls with
    keywords behave as in Python."""
    for pure, fast, options in (
        (Pig(), CompiledPig(), PigOptions()),
        (LiarsDice(), CompiledLiarsDice(), LiarsOptions()),
    ):
        a, _ = pure.new_game(2, options, ScriptedDice([3, 4, 5, 6, 2, 2, 3, 4, 5, 6, 1, 1]))
        b = fast.loads(pure.dumps(a))
        seat = pure.to_act(a)[0]
        for state in (a, b):
            for player in (seat, bool(seat), 1 - seat, 7):
                assert pure.to_act(state) == fast.to_act(state)
                assert pure.legal_actions(state, player) == fast.legal_actions(state, player)
                for action in pure.legal_actions(state, seat) + odd_actions(state, seat):
                    dice = SeededDice(1), SeededDice(1)
                    same_result(pure, fast, "apply", (state, player, action, dice[0]), (state, player, action, dice[1]))
                    by_keyword = refusal_or_result(fast.apply, state, player, action=action, dice=SeededDice(2))
                    assert by_keyword == refusal_or_result(pure.apply, state, player, action, SeededDice(2))
        with pytest.raises(TypeError):
            fast.apply(a)
        with pytest.raises(AttributeError):
            fast.apply(object(), seat, Action("roll"), SeededDice(1))
        with pytest.raises(IllegalMove):
            fast.new_game(9, options, SeededDice(1))


def run_python(code: str, **env: str) -> str:
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env={**os.environ, **env}
    )
    return out.stdout.strip()


def test_the_registry_serves_the_compiled_engines_unless_told_not_to():
    code = (
        "from bot.games import get_engine; print(type(get_engine('pig')).__name__, type(get_engine('liar')).__name__)"
    )
    assert run_python(code, DICETAVERN_PURE_ENGINES="") == "CompiledPig CompiledLiarsDice"
    assert run_python(code, DICETAVERN_PURE_ENGINES="1") == "Pig LiarsDice"


def test_a_dice_source_that_changes_the_state_meets_an_error_not_a_crash():
    """The dice source is Python code the compiled roll waits on: if it changed the state under it (nothing in the
    project does), the compiled engine refuses with an error rather than read past the state's lists."""
    fast = CompiledPig()
    state, _ = fast.new_game(2, PigOptions(), SeededDice(1))

    class Meddling(SeededDice):
        def roll(self, count: int = 1, sides: int = 6) -> list[int]:
            state.scores = []
            return [3]

    with pytest.raises(RuntimeError):
        fast.apply(state, state.current, Action("roll"), Meddling())
