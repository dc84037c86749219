"""Mythical Dice's typed view and public actions: the channel's controls come from the engine, never re-derived."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.games.base import act
from bot.games.dice import SeededDice
from bot.games.mythical_dice import ENGINE, MythicOptions, MythicView
from bot.render import mythic as render
from tests.games.playout import random_playout

HOST = MythicOptions(first_start_player="host")
NAMES = ["Ann", "Bob", "Cat"]


def test_public_actions_while_bidding_are_the_bid_range_for_each_seat_still_to_bid():
    state, _ = ENGINE.new_game(3, HOST, SeededDice(1))
    assert ENGINE.public_actions(state) == {seat: [act("bid", 0), act("bid", 1)] for seat in range(3)}
    state, _ = ENGINE.apply(state, 1, act("bid", 1), SeededDice(2))
    assert set(ENGINE.public_actions(state)) == {0, 2}


def test_no_public_actions_while_playing_since_the_legal_dice_depend_on_a_hidden_hand():
    state, _ = ENGINE.new_game(3, HOST, SeededDice(1))
    for seat in range(3):
        state, _ = ENGINE.apply(state, seat, act("bid", 0), SeededDice(seat))
    assert state.phase == "playing"
    assert ENGINE.public_actions(state) == {}
    assert ENGINE.view(state, None)["public"] == []


def test_the_channel_view_carries_each_public_bid_once_and_stays_json():
    state, _ = ENGINE.new_game(3, HOST, SeededDice(1))
    view = ENGINE.view(state, None)
    assert view["public"] == ["bid:0", "bid:1"]
    assert view["ranking"] is None
    assert json.loads(json.dumps(view)) == view


def test_the_bid_menus_offer_the_engines_bids_not_a_range_of_their_own():
    state, _ = ENGINE.new_game(3, HOST, SeededDice(1))
    view = ENGINE.view(state, None)
    view["public"] = ["bid:0", "bid:2"]  # whatever the engine says is what the menu offers
    (menu,) = render.controls(view)
    assert [value for _, value in menu.options] == ["bid:0", "bid:2"]
    own = ENGINE.view(state, 0)
    own["legal"] = ["bid:1"]
    (menu,) = render.private_menus(own)
    assert [value for _, value in menu.options] == ["bid:1"]


def test_the_final_standings_follow_the_engines_outcome():
    state, _, _ = random_playout(ENGINE, 3, HOST, 5, deep=False)
    view: MythicView = ENGINE.view(state, None)
    outcome = ENGINE.outcome(state)
    assert outcome is not None
    assert view["ranking"] == [list(place) for place in outcome.ranking]
    assert view["ranking"][0] == [1]  # Bob won this game (seed 5)
    view["ranking"] = [[0], [2], [1]]  # the renderer gives each seat the engine's place, whatever the scores say
    seats = render.layout(view, NAMES, "en").seats  # in seat order, one entry each
    assert [entry.split()[0] for entry in seats] == ["🥇", "🥉", "🥈"]


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), players=st.integers(3, 6))
def test_public_actions_are_legal_and_hidden_information_does_not_change_them(seed, players):
    def check(state, player, action, new, events):
        for s in (state, new):
            public = ENGINE.public_actions(s)
            for seat, actions in public.items():
                assert set(actions) <= set(ENGINE.legal_actions(s, seat))
            for p in range(players):
                assert ENGINE.public_actions(ENGINE.scramble(s, p, SeededDice(seed + p))) == public

    random_playout(ENGINE, players, HOST, seed, check=check, deep=False)
