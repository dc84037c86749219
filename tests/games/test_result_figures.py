"""What engines declare about their results and secrets, checked against random games: a game that says nothing
is hidden shows every player the channel's view; a neutral result only where the game declares it; the figures
/stats and /leaderboard show follow from those declarations."""

from __future__ import annotations

import pytest

from bot.games import GAME_MODULES, get_engine
from tests.games import contract


@pytest.mark.parametrize("game", list(GAME_MODULES))
def test_open_information_is_declared_exactly_by_games_whose_views_never_differ(game):
    contract.check_open_information(game)


@pytest.mark.parametrize("game", list(GAME_MODULES))
def test_neutral_results_only_where_declared_and_never_a_winner(game):
    contract.check_neutral_results(game, [{}] + ([{"mode": "loot"}] if game == "liar" else []))


def test_the_figures_each_game_shows():
    figures = {game: get_engine(game).result_figures() for game in GAME_MODULES}
    assert figures == {
        "pig": ("wins", "losses", "best"),
        "mia": ("wins", "losses"),
        "mex": ("wins", "losses", "best"),
        "liar": ("wins", "losses", "neutral"),
        "mythic": ("wins", "losses", "best"),
    }
