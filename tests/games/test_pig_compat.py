"""Pig's lean engine (issue 12): the JSON of earlier versions still loads and is written the same way, and states
that share lists (a move copies a state shallowly) never see each other's moves, nor edits to views and events."""

from __future__ import annotations

import random

import pytest

from bot.games.dice import SeededDice
from bot.games.pig import ENGINE, PigOptions
from tests.games.compat import loads_as_saved, play_random, writes_as_saved

OPTIONS = PigOptions(dice=2, target=60, double_ones="lose_score", must_roll_after_doubles=True, equal_turns=True)
# Written by the engine of b43159e (before the lean engine) with OPTIONS, SeededDice(seed) and random.Random(seed)
# choosing among the legal actions: (players, seed, moves, the state's JSON).
SAVED = [
    (
        3,
        8,
        30,
        '{"options":{"dice":2,"target":60,"double_ones":"lose_score","doubles_multiplier":2,'
        '"must_roll_after_doubles":true,"auto_hold_at_target":true,"equal_turns":true},"scores":[7,0,23],'
        '"active":[true,true,true],"current":1,"starter":0,"turn_total":0,"rolls_this_turn":0,"must_roll":false,'
        '"turns":[6,5,5],"last_roll":[6,1],"winner":null}',
    ),
    (  # mid-turn: a roll made, the turn total standing
        2,
        9,
        25,
        '{"options":{"dice":2,"target":60,"double_ones":"lose_score","doubles_multiplier":2,'
        '"must_roll_after_doubles":true,"auto_hold_at_target":true,"equal_turns":true},"scores":[17,25],'
        '"active":[true,true],"current":1,"starter":1,"turn_total":8,"rolls_this_turn":1,"must_roll":false,'
        '"turns":[6,6],"last_roll":[2,6],"winner":null}',
    ),
]


@pytest.mark.parametrize(("players", "seed", "moves", "saved"), SAVED)
def test_a_state_saved_by_the_previous_engine_loads_and_is_written_back_the_same(players, seed, moves, saved):
    state = loads_as_saved(ENGINE, saved)
    mover = ENGINE.to_act(state)[0]
    state, events = ENGINE.timeout(state, mover, SeededDice(1))  # and play goes on from it
    assert events[0].kind == "timeout" and len(events) > 1


@pytest.mark.parametrize(("players", "seed", "moves", "saved"), SAVED)
def test_the_same_moves_write_what_the_previous_engine_wrote(players, seed, moves, saved):
    writes_as_saved(ENGINE, play_random(ENGINE, players, OPTIONS, seed, moves), saved)


@pytest.mark.parametrize("options", [PigOptions(), OPTIONS, PigOptions(dice=2, double_ones="bust", target=40)])
def test_no_move_view_or_event_reaches_an_earlier_state(options):
    """Every earlier state reads the same at the end of a game, even when readers change the views and event data
    they were given."""
    for seed in range(6):
        rng, dice = random.Random(seed), SeededDice(seed)
        players = 2 + seed % 4
        state, _ = ENGINE.new_game(players, options, dice)
        history = [(state, ENGINE.dumps(state))]
        while not ENGINE.is_over(state):
            mover = ENGINE.to_act(state)[0]
            roll = rng.random()
            if roll < 0.01:
                state, events = ENGINE.forfeit(state, rng.randrange(players), dice)
            elif roll < 0.1:
                state, events = ENGINE.timeout(state, mover, dice)
            else:
                state, events = ENGINE.apply(state, mover, rng.choice(ENGINE.legal_actions(state, mover)), dice)
            history.append((state, ENGINE.dumps(state)))
            view = dict(ENGINE.view(state, mover))
            for key in ("scores", "active", "turns", "last_roll", "legal"):
                view[key].append(99)
            for e in events:
                for value in e.data.values():
                    if isinstance(value, list):
                        value.append(99)
            ENGINE.legal_actions(state, mover).clear()
            ENGINE.scramble(state, mover, SeededDice(seed))
        assert all(ENGINE.dumps(s) == text for s, text in history)
