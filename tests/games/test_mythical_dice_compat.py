"""Mythical Dice's lean engine (issue 12): the JSON of earlier versions still loads and is written the same way,
and states that share lists (a move copies a state shallowly) never see each other's moves."""

from __future__ import annotations

import random

from bot.games.dice import SeededDice
from bot.games.mythical_dice import ENGINE, MythicOptions
from tests.games.compat import writes_as_saved

# Written by the engine of b43159e (before the lean engine): 3 players, host starts, 3 hands, SeededDice(7),
# 22 timeouts. Hand 3, second trick under way, a trick won and a last trick on record.
SAVED = (
    '{"options":{"allow_two_players":false,"hands_by_players":"3:3","dice_set":"standard",'
    '"first_start_player":"host","hand_leader":"rotate","special_lead_sets_no_suit":false,'
    '"three_way":"mermaid_wins","same_special_tie":"later","all_flags":"first_roller","griffin_bonus":"per_griffin",'
    '"bonus_flag_scope":"trick","bonuses_enabled":true,"tie_break":"share"},"players":3,"hands_total":3,'
    '"start_player":0,"scores":[30,10,-10],"active":[true,true,true],"hand_no":3,"phase":"playing",'
    '"hands":[[27,35],[20],[18,30]],"bids":[0,0,0],"revealed":true,"tricks":[0,1,0],'
    '"won":[[],[{"rolls":[{"player":2,"die":1,"type":"griffin","face":"flag"},'
    '{"player":0,"die":3,"type":"griffin","face":"flag"},{"player":1,"die":7,"type":"red","face":"6"}],"win":2}],[]],'
    '"trick":[{"player":1,"die":14,"type":"yellow","face":"5"}],"leader":1,"current":2,"trick_no":1,"discarded":0,'
    '"last_trick":{"trick":1,"rolls":[{"player":2,"die":1,"type":"griffin","face":"flag"},'
    '{"player":0,"die":3,"type":"griffin","face":"flag"},{"player":1,"die":7,"type":"red","face":"6"}],"winner":1},'
    '"exact_bids":[2,1,1],"forfeited":[]}'
)


def test_a_state_saved_by_the_previous_engine_loads_and_is_written_back_the_same():
    state = ENGINE.loads(SAVED)
    writes_as_saved(ENGINE, state, SAVED)
    assert ENGINE.to_act(state) == (2,) and ENGINE.view(state, 2)["suit"] == "yellow"
    state, events = ENGINE.timeout(state, 2, SeededDice(1))  # and play goes on from it
    assert [e.kind for e in events][:2] == ["timeout", "played"]


def test_the_same_moves_write_what_the_previous_engine_wrote():
    dice = SeededDice(7)
    state, _ = ENGINE.new_game(3, MythicOptions(first_start_player="host", hands_by_players="3:3"), dice)
    for _ in range(22):
        state, _ = ENGINE.timeout(state, ENGINE.to_act(state)[0], dice)
    writes_as_saved(ENGINE, state, SAVED)


def test_no_move_view_or_event_reaches_an_earlier_state():
    """A move shares the lists it leaves alone with the state before it: every earlier state must read the same at
    the end of a game, even when readers change the views and event data they were given."""
    for seed in range(4):
        rng, dice = random.Random(seed), SeededDice(seed)
        options = MythicOptions(all_flags="nobody" if seed % 2 else "first_roller")
        state, _ = ENGINE.new_game(4, options, dice)
        history = [(state, ENGINE.dumps(state))]
        while not ENGINE.is_over(state):
            mover = rng.choice(ENGINE.to_act(state))
            roll = rng.random()
            if roll < 0.01:
                state, events = ENGINE.forfeit(state, mover, dice)
            elif roll < 0.1:
                state, events = ENGINE.timeout(state, mover, dice)
            else:
                state, events = ENGINE.apply(state, mover, rng.choice(ENGINE.legal_actions(state, mover)), dice)
            history.append((state, ENGINE.dumps(state)))
            view = ENGINE.view(state, mover)
            for roll_ in [*view["trick"], *(r for pile in view["captured"] for r in pile)]:
                roll_["face"] = "changed"
            if view["last_trick"]:
                view["last_trick"]["rolls"].clear()
            for e in events:
                for value in e.data.values():
                    if isinstance(value, list):
                        for item in value:
                            if isinstance(item, dict):
                                item.clear()
            ENGINE.scramble(state, mover, SeededDice(seed))
        assert all(ENGINE.dumps(s) == text for s, text in history)
