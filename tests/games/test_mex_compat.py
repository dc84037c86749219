"""Mex's lean engine (issue 12): the JSON of earlier versions still loads and is written the same way, states that
share lists (a move copies a state shallowly) never see each other's moves, and the prebuilt legal-action lists
agree with the refusals."""

from __future__ import annotations

import random

import pytest

from bot.games.dice import SeededDice
from bot.games.mex import CANDIDATES, ENGINE, MexOptions
from tests.games.compat import loads_as_saved, play_random, writes_as_saved

OPTIONS = MexOptions(starting_lives=3, hold_one_or_two=True)
# Written by the engine of b43159e (before the lean engine) with OPTIONS, SeededDice(seed) and random.Random(seed)
# choosing among the legal actions: (players, seed, moves, the state's JSON).
SAVED = [
    (  # an extra round whose chooser has still to pick; seat 1 is out
        4,
        52,
        27,
        '{"options":{"starting_lives":3,"max_throws":3,"mex_penalty":"seed","allow_end_round_early":true,'
        '"tiebreak_mode_choice":"chooser","first_starter":"random","mex_ends_turn":true,"points_enabled":true,'
        '"mex_passes_lead":false,"hold_one_or_two":true},"lives":[1,0,1,3],"points":[3,-1,3,7],"out":[1],'
        '"round":{"number":6,"starter":0,"order":[0,2,3],"throws":[[[4,4],[4,1]],[],[[1,5]],[[4,1]]],'
        '"final":[41,null,51,41],"pos":3,"throw_limit":2,"mex_count":0,"ended_early_by":null,"held":null,'
        '"must_throw":false,"tiebreak":{"players":[0,3],"chooser":3,"mode":null,"values":[null,null],"depth":1}},'
        '"winner":null}',
    ),
    (  # a held 1, the other die still to throw
        3,
        7,
        22,
        '{"options":{"starting_lives":3,"max_throws":3,"mex_penalty":"seed","allow_end_round_early":true,'
        '"tiebreak_mode_choice":"chooser","first_starter":"random","mex_ends_turn":true,"points_enabled":true,'
        '"mex_passes_lead":false,"hold_one_or_two":true},"lives":[1,0,3],"points":[2,-3,6],"out":[1],'
        '"round":{"number":5,"starter":0,"order":[0,2],"throws":[[[5,1],[2,6],[6,5]],[],[[1,5]]],'
        '"final":[65,null,null],"pos":1,"throw_limit":3,"mex_count":0,"ended_early_by":null,"held":1,'
        '"must_throw":true,"tiebreak":null},"winner":null}',
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


def test_no_move_view_or_event_reaches_an_earlier_state():
    """Every earlier state reads the same at the end of a game, even when readers change the views and event data
    they were given."""
    for seed in range(6):
        rng, dice = random.Random(seed), SeededDice(seed)
        options = MexOptions(starting_lives=3, hold_one_or_two=bool(seed % 2), tiebreak_mode_choice="chooser")
        state, _ = ENGINE.new_game(2 + seed % 4, options, dice)
        history = [(state, ENGINE.dumps(state))]
        while not ENGINE.is_over(state):
            mover = ENGINE.to_act(state)[0]
            roll = rng.random()
            if roll < 0.01:
                state, events = ENGINE.forfeit(state, rng.randrange(len(state.lives)), dice)
            elif roll < 0.1:
                state, events = ENGINE.timeout(state, mover, dice)
            else:
                state, events = ENGINE.apply(state, mover, rng.choice(ENGINE.legal_actions(state, mover)), dice)
            history.append((state, ENGINE.dumps(state)))
            view = dict(ENGINE.view(state, mover))
            for key in ("lives", "points", "out"):
                view[key].append(99)
            for seat in view["round"]["throws"]:
                for faces in seat:
                    faces.append(9)
            for e in events:
                for value in e.data.values():
                    if isinstance(value, list):
                        value.append(99)
            ENGINE.legal_actions(state, mover).clear()
            ENGINE.scramble(state, mover, SeededDice(seed))
        assert all(ENGINE.dumps(s) == text for s, text in history)


def test_the_prebuilt_legal_actions_are_exactly_the_moves_the_refusals_let_through():
    for seed in range(60):
        rng, dice = random.Random(seed), SeededDice(seed)
        options = MexOptions(
            starting_lives=2,
            max_throws=rng.choice([2, 3]),
            allow_end_round_early=rng.random() < 0.7,
            tiebreak_mode_choice=rng.choice(["chooser", "always_mex", "always_pips"]),
            mex_ends_turn=rng.random() < 0.5,
            mex_passes_lead=rng.random() < 0.5,
            hold_one_or_two=rng.random() < 0.7,
        )
        state, _ = ENGINE.new_game(rng.randint(2, 5), options, dice)
        while not ENGINE.is_over(state):
            mover = ENGINE.to_act(state)[0]
            legal = ENGINE.legal_actions(state, mover)
            assert legal == [a for a in CANDIDATES if ENGINE._refusal(state, mover, a) is None]
            state, _ = ENGINE.apply(state, mover, rng.choice(legal), dice)
