"""Mia's lean engine (issue 12): the JSON of earlier versions still loads and is written the same way, states that
share lists (a move copies a state shallowly) never see each other's moves, and the prebuilt legal-action lists
agree with the refusals."""

from __future__ import annotations

import random

from bot.games.base import IllegalMove
from bot.games.dice import SeededDice
from bot.games.mia import ENGINE, MiaOptions
from tests.games.compat import loads_as_saved, play_random, writes_as_saved
from tests.games.test_mia_properties import CANDIDATES

OPTIONS = MiaOptions(lives=2, blind_pass="any", doubles_order="sixes_high")
# Written by the engine of b43159e (before the lean engine): 4 players, OPTIONS, SeededDice(0) and random.Random(0)
# choosing among the legal actions, 15 moves. Seat 0 is out; seat 3 re-rolled blind and announced 55.
SAVED = (
    '{"options":{"doubles_order":"sixes_high","lives":2,"mia_check_penalty":2,"mia_mode":"challengeable",'
    '"blind_pass":"any","next_round_starter":"left_of_loser","stop_at_first_elimination":false},'
    '"lives":[0,1,2,2],"alive":[false,true,true,true],"round_starter":2,"holder":1,"phase":"await_response",'
    '"cup_dice":[3,5],"roller":3,"looked":false,"claim":55,"claimant":3,"claims":2,"blind_streak":0,"round":4,'
    '"out":[[0]],"loser":0,"winner":null}'
)


def test_a_state_saved_by_the_previous_engine_loads_and_is_written_back_the_same():
    state = loads_as_saved(ENGINE, SAVED)
    assert ENGINE.to_act(state) == (1,) and ENGINE.view(state, 1)["claim"] == 55
    state, events = ENGINE.apply(state, 1, ENGINE.legal_actions(state, 1)[0], SeededDice(1))  # play goes on
    assert [e.kind for e in events][:2] == ["challenge", "reveal"]


def test_the_same_moves_write_what_the_previous_engine_wrote():
    """Plus the public announcement log (issue 17), written last and only once it has an entry: every key the
    previous engine wrote keeps its place and value."""
    data = ENGINE.to_json(play_random(ENGINE, 4, OPTIONS, 0, 15))
    assert list(data)[-1] == "log" and data["log"][-1] == [4, 3, "unseen", 55]  # seat 3's blind re-roll, 55
    writes_as_saved(ENGINE, ENGINE.from_json({k: v for k, v in data.items() if k != "log"}), SAVED)


def test_no_move_view_or_event_reaches_an_earlier_state():
    """Every earlier state reads the same at the end of a game, even when readers change the views and event data
    they were given."""
    for seed in range(6):
        rng, dice = random.Random(seed), SeededDice(seed)
        state, _ = ENGINE.new_game(3 + seed % 3, MiaOptions(lives=3, blind_pass="any"), dice)
        history = [(state, ENGINE.dumps(state))]
        while not ENGINE.is_over(state):
            mover = ENGINE.to_act(state)[0]
            roll = rng.random()
            if roll < 0.02:
                state, events = ENGINE.forfeit(state, rng.randrange(len(state.lives)), dice)
            elif roll < 0.1:
                state, events = ENGINE.timeout(state, mover, dice)
            else:
                state, events = ENGINE.apply(state, mover, rng.choice(ENGINE.legal_actions(state, mover)), dice)
            history.append((state, ENGINE.dumps(state)))
            view = dict(ENGINE.view(state, mover))
            for key in ("lives", "alive", "dice"):
                if view[key]:
                    view[key].reverse()
            for e in events:
                for value in e.data.values():
                    if isinstance(value, list):
                        value.append(99)
            ENGINE.legal_actions(state, mover).clear()
            ENGINE.scramble(state, mover, SeededDice(seed))
        assert all(ENGINE.dumps(s) == text for s, text in history)


def refused(state, action) -> bool:
    try:
        ENGINE._check(state, action)  # the refusals, action by action
    except IllegalMove:
        return True
    return False


def test_the_prebuilt_legal_actions_are_exactly_the_moves_the_refusals_let_through():
    for seed in range(40):
        rng, dice = random.Random(seed), SeededDice(seed)
        options = MiaOptions(
            doubles_order=rng.choice(["ones_high", "sixes_high"]),
            blind_pass=rng.choice(["off", "first_receiver", "any"]),
            mia_mode=rng.choice(["challengeable", "auto_reveal"]),
            lives=3,
        )
        state, _ = ENGINE.new_game(rng.randint(2, 5), options, dice)
        while not ENGINE.is_over(state):
            mover = ENGINE.to_act(state)[0]
            legal = ENGINE.legal_actions(state, mover)
            assert [a for a in CANDIDATES if not refused(state, a)] == [a for a in CANDIDATES if a in legal]
            assert not any(refused(state, a) for a in legal)
            state, _ = ENGINE.apply(state, mover, rng.choice(legal), dice)
