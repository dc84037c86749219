"""One contract, every engine: a new game gets these checks for free by joining the registry."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.games import available_games, get_engine
from bot.games.dice import SeededDice
from tests.games.playout import random_playout

GAMES = available_games()


@pytest.fixture(params=GAMES)
def engine(request):
    return get_engine(request.param)


def test_every_game_is_registered():
    assert ["pig", "mia", "mex", "liar", "mythic"][: len(GAMES)] == GAMES
    assert "pig" in GAMES


def test_options_defaults_and_unknown_option_rejected(engine):
    options = engine.options()
    assert engine.options(options.to_dict()) == options
    with pytest.raises(ValueError, match="no_such_option"):
        engine.options({"no_such_option": 1})


def test_player_count_is_enforced(engine):
    lo, hi = engine.player_range(engine.options())
    with pytest.raises(Exception):  # noqa: B017 - IllegalMove or InvalidOptions, both name the count
        engine.new_game(lo - 1, engine.options(), SeededDice(0))
    with pytest.raises(Exception):  # noqa: B017
        engine.new_game(hi + 1, engine.options(), SeededDice(0))


def test_new_game_has_someone_to_act_with_legal_actions(engine):
    lo, hi = engine.player_range(engine.options())
    for n in range(lo, hi + 1):
        state, events = engine.new_game(n, engine.options(), SeededDice(n))
        assert engine.to_act(state)
        for p in engine.to_act(state):
            assert engine.legal_actions(state, p)
        json.dumps(engine.to_json(state))
        json.dumps(engine.view(state, None))


def test_timeout_always_moves_the_game_on(engine):
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


def test_forfeit_down_to_one_player_ends_the_game(engine):
    lo, hi = engine.player_range(engine.options())
    n = min(hi, lo + 1)
    dice = SeededDice(5)
    state, _ = engine.new_game(n, engine.options(), dice)
    for p in range(n - 1):
        state, events = engine.forfeit(state, p, dice)
        assert any(e.kind == "forfeit" for e in events)
    assert engine.is_over(state)
    assert engine.outcome(state).winners == (n - 1,)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), data=st.data())
@pytest.mark.parametrize("name", GAMES)
def test_random_games_keep_the_contract(name, seed, data):
    engine = get_engine(name)
    lo, hi = engine.player_range(engine.options())
    players = data.draw(st.integers(lo, hi))
    state, _, _ = random_playout(engine, players, engine.options(), seed)
    outcome = engine.outcome(state)
    seats = sorted(p for place in outcome.ranking for p in place)
    assert seats == list(range(players)), "the ranking must place every seat exactly once"
    assert len(outcome.scores) == players


# The games whose engine declares its public actions (others add theirs here).
PUBLIC_ACTION_GAMES = ["liar", "pig", "mythic", "mex", "mia"]


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), data=st.data())
@pytest.mark.parametrize("name", PUBLIC_ACTION_GAMES)
def test_public_actions_are_legal_and_independent_of_hidden_info(name, seed, data):
    engine = get_engine(name)
    lo, hi = engine.player_range(engine.options())
    players = data.draw(st.integers(lo, hi))
    offered = []

    def check(state, player, action, new, events):
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
    assert any(offered), "the engine declares no public action at all"
