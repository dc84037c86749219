"""What engines declare about their results and secrets, checked against random games: a game that says nothing
is hidden shows every player the channel's view; a neutral result only where the game declares it; the figures
/stats and /leaderboard show follow from those declarations."""

from __future__ import annotations

from typing import Any

import pytest

from bot.games import GAME_MODULES, get_engine
from tests.games.playout import random_playout

OWN = ("you", "legal", "to_act")  # what differs between viewers even when nothing is hidden


def public_part(view: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in view.items() if k not in OWN}


@pytest.mark.parametrize("game", list(GAME_MODULES))
def test_open_information_is_declared_exactly_by_games_whose_views_never_differ(game):
    engine = get_engine(game)
    players = 3  # every game takes three
    differs = False

    def check(state, player, action, new, events):
        nonlocal differs
        for seat in range(players):
            if public_part(engine.view(new, seat)) != public_part(engine.view(new, None)):
                differs = True

    for seed in range(3):
        random_playout(engine, players, engine.options(), seed, check=check, deep=False)
    assert engine.open_information == (not differs), game


@pytest.mark.parametrize("game", list(GAME_MODULES))
def test_neutral_results_only_where_declared_and_never_a_winner(game):
    engine = get_engine(game)
    modes = [engine.options()] + ([engine.options({"mode": "loot"})] if game == "liar" else [])
    seen_neutral = False
    for options in modes:
        for seed in range(6):
            state, _, _ = random_playout(engine, 3, options, seed, deep=False)
            outcome = engine.outcome(state)
            assert not set(outcome.neutral) & set(outcome.winners)
            assert {outcome.result(seat) for seat in range(3)} <= {"win", "loss", "neutral"}
            seen_neutral |= bool(outcome.neutral)
    assert seen_neutral == engine.neutral_results, game


def test_the_figures_each_game_shows():
    figures = {game: get_engine(game).result_figures() for game in GAME_MODULES}
    assert figures == {
        "pig": ("wins", "losses", "best"),
        "mia": ("wins", "losses"),
        "mex": ("wins", "losses", "best"),
        "liar": ("wins", "losses", "neutral"),
        "mythic": ("wins", "losses", "best"),
    }
