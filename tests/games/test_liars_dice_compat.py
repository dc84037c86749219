"""Liar's Dice's lean engine (issue 12): the JSON of earlier versions still loads and is written the same way,
states that share lists (a move copies a state shallowly) never see each other's moves, nor edits to views and
events, and the cached legal lists are exactly what the refusals let through."""

from __future__ import annotations

import random

import pytest

from bot.games.base import Action, IllegalMove
from bot.games.dice import SeededDice
from bot.games.liars_dice import ENGINE, RAISE_RULES, LiarsOptions
from tests.games.compat import loads_as_saved, play_random, writes_as_saved

LOOT = LiarsOptions(dice_per_player=3, raise_rule="sum", wild_ones=True, mode="loot", starter="winner", max_rounds=50)
LOSE_DIE = LiarsOptions(mode="lose_die", dice_per_player=2)
# Written by the engine of b43159e (before the lean engine) with the options, SeededDice(seed) and
# random.Random(seed) choosing among the legal actions: (options, players, seed, moves, the state's JSON).
SAVED = [
    (  # round 2 after a reveal, three bids standing
        LOOT,
        3,
        4,
        9,
        '{"options":{"dice_per_player":3,"raise_rule":"sum","wild_ones":true,"mode":"loot","starter":"winner",'
        '"max_rounds":50},"counts":[3,2,4],"hands":[[3,4,5],[1,2],[3,3,5,5]],"current":2,"round_no":2,'
        '"round_starter":2,"bid":[5,3],"bidder":1,"bids":[[2,4,2],[0,4,3],[1,5,3]],"forfeited":[false,false,false],'
        '"out_order":[],"last_reveal":{"round":1,"hands":[[1,3,6],[2,4,4],[1,1,1]],"quantity":9,"face":6,"count":5,'
        '"wild_ones":true,"bidder":1,"challenger":2,"bid_true":false,"winner":2,"loser":1},"finished":false,'
        '"end_reason":null,"winner":null,"loser":null}',
    ),
    (  # seat 2 eliminated
        LOSE_DIE,
        3,
        3,
        10,
        '{"options":{"dice_per_player":2,"raise_rule":"poker","wild_ones":false,"mode":"lose_die","starter":"loser",'
        '"max_rounds":0},"counts":[2,1,0],"hands":[[2,6],[4],[]],"current":0,"round_no":4,"round_starter":1,'
        '"bid":[1,1],"bidder":1,"bids":[[1,1,1]],"forfeited":[false,false,false],"out_order":[2],"last_reveal":'
        '{"round":3,"hands":[[3,4],[2,5],[]],"quantity":4,"face":4,"count":1,"wild_ones":false,"bidder":1,'
        '"challenger":0,"bid_true":false,"winner":0,"loser":1},"finished":false,"end_reason":null,"winner":null,'
        '"loser":null}',
    ),
]


@pytest.mark.parametrize(("options", "players", "seed", "moves", "saved"), SAVED)
def test_a_state_saved_by_the_previous_engine_loads_and_is_written_back_the_same(options, players, seed, moves, saved):
    state = loads_as_saved(ENGINE, saved)
    mover = ENGINE.to_act(state)[0]
    state, events = ENGINE.timeout(state, mover, SeededDice(1))  # and play goes on from it
    assert events[0].kind == "timeout" and len(events) > 1


@pytest.mark.parametrize(("options", "players", "seed", "moves", "saved"), SAVED)
def test_the_same_moves_write_what_the_previous_engine_wrote(options, players, seed, moves, saved):
    writes_as_saved(ENGINE, play_random(ENGINE, players, options, seed, moves), saved)


@pytest.mark.parametrize("options", [LiarsOptions(), LOOT, LOSE_DIE])
def test_no_move_view_or_event_reaches_an_earlier_state(options):
    """Every earlier state reads the same at the end of a game, even when readers change the views and event data
    they were given."""
    for seed in range(8):
        rng, dice = random.Random(seed), SeededDice(seed)
        players = 2 + seed % 5
        state, _ = ENGINE.new_game(players, options, dice)
        history = [(state, ENGINE.dumps(state))]
        while not ENGINE.is_over(state):
            mover = ENGINE.to_act(state)[0]
            roll = rng.random()
            if roll < 0.03:
                state, events = ENGINE.forfeit(state, rng.randrange(players), dice)
            elif roll < 0.1:
                state, events = ENGINE.timeout(state, mover, dice)
            else:
                state, events = ENGINE.apply(state, mover, rng.choice(ENGINE.legal_actions(state, mover)), dice)
            history.append((state, ENGINE.dumps(state)))
            for seat in range(players):
                view = ENGINE.view(state, seat)
                for key in ("counts", "out", "forfeited", "bids", "legal", "public"):
                    view[key].append(99)  # type: ignore[arg-type]
                for bid in view["bids"][:-1]:
                    bid.append(99)
                if view["hand"]:
                    view["hand"].append(99)
                if view["last_reveal"]:
                    for hand in view["last_reveal"]["hands"]:
                        hand.append(99)
            for e in events:
                for value in e.data.values():
                    if isinstance(value, list):
                        value.append(99)
                        for item in value:
                            if isinstance(item, list):
                                item.append(99)
            ENGINE.legal_actions(state, mover).clear()
            ENGINE.scramble(state, mover, SeededDice(seed))
        assert all(ENGINE.dumps(s) == text for s, text in history)


@pytest.mark.parametrize("rule", RAISE_RULES)
@pytest.mark.parametrize("wild", [False, True])
def test_the_cached_legal_bids_are_exactly_the_bids_the_refusals_let_through(rule, wild):
    rng, dice = random.Random(7), SeededDice(7)
    state, _ = ENGINE.new_game(3, LiarsOptions(raise_rule=rule, wild_ones=wild, dice_per_player=2), dice)
    while not ENGINE.is_over(state):
        mover = ENGINE.to_act(state)[0]
        legal = ENGINE.legal_actions(state, mover)
        allowed = []
        for q in range(0, state.total + 2):
            for f in range(0, 8):
                try:
                    ENGINE.apply(state, mover, Action("bid", (q, f)), dice)
                except IllegalMove:
                    continue
                allowed.append(Action("bid", (q, f)))
        assert sorted(a for a in legal if a.name == "bid") == sorted(allowed)
        state, _ = ENGINE.apply(state, mover, rng.choice(legal), dice)
