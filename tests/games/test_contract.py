"""One contract, every engine: a new game gets these checks for free by joining the registry."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.games import available_games, get_engine
from tests.games import contract

GAMES = available_games()


def test_every_game_is_registered():
    assert ["pig", "mia", "mex", "liar", "mythic"][: len(GAMES)] == GAMES
    assert "pig" in GAMES


@pytest.mark.parametrize("game", GAMES)
def test_options_defaults_and_unknown_option_rejected(game):
    contract.check_options(game)


@pytest.mark.parametrize("game", GAMES)
def test_player_count_is_enforced(game):
    contract.check_player_count(game)


@pytest.mark.parametrize("game", GAMES)
def test_new_game_has_someone_to_act_with_legal_actions(game):
    contract.check_new_game(game)


@pytest.mark.parametrize("game", GAMES)
def test_timeout_always_moves_the_game_on(game):
    contract.check_timeout(game)


@pytest.mark.parametrize("game", GAMES)
def test_forfeit_down_to_one_player_ends_the_game(game):
    contract.check_forfeit(game)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), data=st.data())
@pytest.mark.parametrize("name", GAMES)
def test_random_games_keep_the_contract(name, seed, data):
    lo, hi = get_engine(name).player_range(get_engine(name).options())
    contract.check_random_game(name, data.draw(st.integers(lo, hi)), seed)


# The games whose engine declares its public actions (others add theirs here).
PUBLIC_ACTION_GAMES = ["liar", "pig", "mythic", "mex", "mia"]


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), data=st.data())
@pytest.mark.parametrize("name", PUBLIC_ACTION_GAMES)
def test_public_actions_are_legal_and_independent_of_hidden_info(name, seed, data):
    lo, hi = get_engine(name).player_range(get_engine(name).options())
    assert contract.public_actions_offered(name, data.draw(st.integers(lo, hi)), seed), (
        "the engine declares no public action at all"
    )
