"""Mex's heads-up solver (exact game-win chances) and the levels' choices."""

from __future__ import annotations

import random

import pytest

import bot.ai as ai
from benchmarks.mex_ceiling import evaluate
from bot.ai.mex_solver import DEFAULT, MAX_LIVES, Rules, rules
from bot.games.base import Action
from bot.games.dice import SeededDice
from bot.games.mex import END_ROUND, ENGINE, STAND, THROW, MexOptions


def test_win_chances_grow_with_ones_own_lives_and_shrink_with_the_others():
    w = rules(*DEFAULT).win
    assert 0.5 < w(1, 1) < 0.7  # starting a one-life round is an edge
    assert all(w(a, 5) < w(a + 1, 5) for a in range(1, 8))
    assert all(w(5, b) > w(5, b + 1) for b in range(1, 8))
    assert w(0, 3) == 0.0 and w(3, 0) == 1.0


def test_the_shipped_table_is_what_the_solver_computes():
    shipped, fresh = rules(*DEFAULT), Rules(*DEFAULT)
    assert all(abs(shipped.win(a, b) - fresh.win(a, b)) < 1e-6 for a in range(1, 7) for b in range(1, 7))
    assert shipped.win(MAX_LIVES, MAX_LIVES) > 0.5


def test_hard_heads_up_is_the_best_response_to_the_reference_player():
    # exact, by dynamic programming over the whole game (3 lives each to stay fast)
    assert evaluate(3, best_response=False) == pytest.approx(evaluate(3, best_response=True), abs=1e-3)
    assert evaluate(3, best_response=False) > 0.5


def _view(throws: list[list[int]], final: list, pos: int, limit: int | None, lives: list[int]) -> dict:
    state, _ = ENGINE.new_game(2, MexOptions(first_starter="seat1"), SeededDice(0))
    view = ENGINE.view(state, pos)
    r = view["round"]
    r.update(order=[0, 1], pos=pos, throw_limit=limit, final=final, mex_count=0)
    r["throws"] = [throws, []] if pos == 0 else [[[6, 6]], throws]
    view["lives"] = lives
    return view


def test_hard_second_player_stands_when_safe_and_throws_when_behind():
    ahead = _view([[6, 5]], [64, None], 1, 2, [5, 5])
    behind = _view([[3, 1]], [64, None], 1, 2, [5, 5])
    assert ai.decide("mex", ahead, "hard", random.Random(0), [THROW, STAND]) == STAND
    assert ai.decide("mex", behind, "hard", random.Random(0), [THROW, STAND]) == THROW


def test_hard_first_player_ends_a_hopeless_last_throw_early():
    view = _view([[3, 1], [3, 1], [3, 1]], [None, None], 0, None, [5, 5])
    assert ai.decide("mex", view, "hard", random.Random(0), [STAND, END_ROUND]) == END_ROUND


@pytest.mark.parametrize("players", [2, 3])
def test_normal_and_hard_only_make_legal_moves(players):
    for level in ("normal", "hard"):
        dice, rng = SeededDice(players), random.Random(level)
        state, _ = ENGINE.new_game(players, MexOptions(starting_lives=3), dice)
        while not ENGINE.is_over(state):
            seat = ENGINE.to_act(state)[0]
            legal = ENGINE.legal_actions(state, seat)
            action = ai.decide("mex", ENGINE.view(state, seat), level, rng)
            assert isinstance(action, Action) and action in legal
            state, _ = ENGINE.apply(state, seat, action, dice)
