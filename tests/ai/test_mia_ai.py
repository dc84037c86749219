"""Mia's solved heads-up round, the public announcement log in the view, and the hard player's opponent model."""

from __future__ import annotations

import random

import numpy as np

import bot.ai as ai
from bot.ai import mia_model, mia_solved, mia_types
from bot.ai.mia_model import read_log, solution
from bot.ai.mia_solver import PROB, solve_stage
from bot.games.base import Action
from bot.games.dice import SeededDice
from bot.games.mia import CHALLENGE_MIA, ENGINE, GIVE_UP, MiaOptions


def test_the_view_logs_every_announcement_and_reveal_of_the_game():
    dice, rng = SeededDice(3), random.Random(3)
    state, _ = ENGINE.new_game(3, MiaOptions(), dice)
    for _ in range(12):
        seat = ENGINE.to_act(state)[0]
        state, _ = ENGINE.apply(state, seat, rng.choice(ENGINE.legal_actions(state, seat)), dice)
    log = ENGINE.view(state, 0)["log"]
    assert log and log == ENGINE.view(state, None)["log"]  # public: the same for every seat
    assert {kind for _, _, kind, _ in log} <= {"claim", "unseen", "blind", "reveal", "give_up", "timeout"}
    assert ENGINE.from_json(ENGINE.to_json(state)) == state


def test_the_shipped_solution_is_a_near_equilibrium_of_every_stage():
    sol = solution(2, False)
    assert abs(sol.value[0] - 0.296) < 0.01  # the opener's edge, in lives
    assert np.allclose(sol.claim.sum(axis=2), 1, atol=1e-4)
    # re-solving the last stage from scratch gives the shipped value
    _, _, value = solve_stage(19, np.append(sol.value[1:], 0.0), 2, False, 500)
    assert abs(value - sol.value[20]) < 0.01
    assert float(PROB.sum()) == 1.0 or abs(float(PROB.sum()) - 1) < 1e-12


def _mia_view(log: tuple, claimant: int = 1) -> dict:
    return {
        "game": "mia", "you": 0, "options": MiaOptions().to_dict(), "phase": "await_mia_response", "round": 9,
        "round_starter": claimant, "holder": 0, "claim": 21, "claimant": claimant, "claims": 1, "roller": claimant,
        "looked": True, "blind_streak": 0, "lives": [6, 6], "alive": [True, True], "loser": None, "winner": None,
        "dice": None, "log": log, "legal": [GIVE_UP.encode(), CHALLENGE_MIA.encode()], "public": [],
    }  # fmt: skip


def test_hard_checks_a_player_whose_mia_claims_were_shown_false():
    bluffs = tuple(e for r in range(1, 9) for e in ((r, 1, "claim", 21), (r, 0, "reveal", 43)))
    view = _mia_view((*bluffs, (9, 1, "claim", 21)))
    assert {ai.decide("mia", view, "hard", random.Random(s)) for s in range(20)} == {CHALLENGE_MIA}


def test_hard_concedes_to_a_player_whose_mia_claims_were_real():
    truths = tuple(e for r in range(1, 9) for e in ((r, 1, "claim", 21), (r, 0, "reveal", 21)))
    view = _mia_view((*truths, (9, 1, "claim", 21)))
    assert {ai.decide("mia", view, "hard", random.Random(s)) for s in range(20)} == {GIVE_UP}


def test_the_model_reads_responses_and_reveals_from_the_log():
    log = ((1, 0, "claim", 62), (1, 1, "reveal", 43), (2, 1, "claim", 54), (2, 0, "claim", 61), (2, 1, "reveal", 61))
    model = read_log(log, "ones_high")
    assert model.shown[0].sum() == 2 and model.true[0].sum() == 1  # 62 shown false, 61 shown true
    assert model.challenged[1].sum() == 2 and model.answered[0].sum() == 1  # seat 0 believed 54
    assert model.history[0] == [(-1, 10, False), (8, 9, True)]  # 62 opening shown false; 61 above 54 shown true


def test_two_or_three_62s_unmask_a_62_bluffer_and_a_revealed_lie_counts_more():
    sol = solution(2, False)
    one, two, three = ([(-1, 10, None)] * n for n in (1, 2, 3))
    eq_truth = float(sol.truth(0)[10])  # the equilibrium's 62 makes its receiver indifferent
    assert abs(mia_types.truth(one, 10, -1, sol) - eq_truth) < 0.1  # one 62 is little evidence
    assert mia_types.truth(two, 10, -1, sol) < 0.4
    assert mia_types.truth(three, 10, -1, sol) < 0.2
    caught = [(-1, 10, False), (-1, 10, None)]
    assert mia_types.truth(caught, 10, -1, sol) < mia_types.truth(two, 10, -1, sol)


def test_a_62_bluffers_rare_true_high_claims_stay_believable():
    sol = solution(2, False)
    bluffer = [(-1, 10, False), (-1, 10, None), (-1, 10, False), (-1, 10, None), (-1, 19, None)]  # then double ones
    assert mia_types.truth(bluffer, 19, -1, sol) > 0.95


def test_hard_plays_the_model_once_the_opponent_has_shown_enough():
    assert mia_solved.margin(0) == mia_solved.MARGIN
    assert 0 < mia_solved.margin(2) < mia_solved.MARGIN
    assert mia_solved.margin(mia_solved.EVIDENCE) == mia_solved.margin(50) == 0


def test_normal_and_hard_only_make_legal_moves_in_every_mode():
    for mode in ("challengeable", "auto_reveal"):
        for level in ("normal", "hard"):
            dice, rng = SeededDice(mode), random.Random(level)
            state, _ = ENGINE.new_game(3, MiaOptions(mia_mode=mode, blind_pass="any", lives=2), dice)
            while not ENGINE.is_over(state):
                seat = ENGINE.to_act(state)[0]
                legal = ENGINE.legal_actions(state, seat)
                action = ai.decide("mia", ENGINE.view(state, seat), level, rng)
                assert isinstance(action, Action) and action in legal
                state, _ = ENGINE.apply(state, seat, action, dice)


def test_claims_alone_unmask_a_player_who_always_claims_mia():
    sol = solution(2, False)
    openings = [(-1, 20, None)] * 4  # four opening Mia claims, none revealed
    assert mia_types.truth([], 20, -1, sol) > 0.3
    assert mia_types.truth(openings, 20, -1, sol) < 0.15


def test_claims_alone_trust_a_truthful_player_above_the_minimum():
    sol = solution(2, False)
    honest = [(-1, c, None) for c in (3, 9, 12, 15, 7, 11)]  # openings spread like fresh rolls
    assert mia_types.truth(honest, 12, -1, sol) > mia_types.truth([], 12, -1, sol)


def test_without_the_data_file_the_round_is_solved_on_the_spot(monkeypatch, tmp_path):
    monkeypatch.setattr(mia_model, "DATA", tmp_path / "missing.npz")
    mia_model.solution.cache_clear()
    try:
        fresh = mia_model.solution(2, False)
    finally:
        mia_model.solution.cache_clear()
    assert abs(fresh.value[0] - solution(2, False).value[0]) < 0.02


def test_a_few_answers_unmask_a_receiver_who_challenges_from_62_on():
    sol = solution(2, False)
    answers = [(-1, 8, False), (-1, 11, True), (-1, 9, False), (-1, 13, True)]  # believed 54, 61; challenged 63, 65
    before, after = mia_types.challenge_rates([], -1, sol), mia_types.challenge_rates(answers, -1, sol)
    assert after[9] < 0.15 < before[9]  # 61: believed
    assert after[10] > 0.7 > before[10]  # 62: challenged
    assert before[:7].max() < 0.01 and after[:7].max() < 0.01  # nor what the equilibrium (nearly) never does


def test_the_log_gives_each_seats_answers_with_the_claim_they_beat():
    log = ((1, 0, "claim", 53), (1, 1, "claim", 62), (1, 0, "reveal", 43), (2, 0, "claim", 21), (2, 1, "give_up", None))
    model = read_log(log, "ones_high")
    assert model.answers[1] == [(-1, 7, False), (-1, 20, False)]  # believed 53 (claimed 62 above it), conceded Mia
    assert model.answers[0] == [(7, 10, True)]  # challenged 62, made above 53


def test_what_is_derived_from_a_solution_stays_with_it_when_another_takes_its_place():
    # A cache keyed by id() handed a new solution a freed one's derived tables (CPython reuses ids at once): the
    # Mia tests then failed or passed by the order they ran in.
    base = solution(2, False)
    for scale in (0.5, 0.6, 0.7, 0.8, 0.9):
        other = mia_model.Solution(base.claim, base.challenge * scale, base.value)
        eq = other.challenge[0]
        expected = np.where((eq < 0.01) | (eq > 0.99), eq, (1 - mia_types.NOISE) * eq + mia_types.NOISE * 0.5)
        assert np.allclose(mia_types._receivers(other, -1)[0], expected)  # the equilibrium kind is its own
        del other


def test_claims_alone_unmask_a_player_who_claims_mia_whenever_it_must_lie():
    sol = solution(2, False)
    # truthful openings, and Mia every time it had a claim to beat (issue 31: this farmed hard before)
    history = [(-1, 5, None), (-1, 12, None), (10, 20, None), (-1, 8, None), (12, 20, None), (9, 20, None)]
    assert mia_types.truth(history, 20, 11, sol) < 0.2 < mia_types.truth([], 20, 11, sol)
    assert mia_types.truth(history, 20, -1, sol) > 0.8  # its opening Mia is a real roll
    # a Mia claimed over a standing claim and shown false counts as much as several unrevealed ones
    assert mia_types.truth([(-1, 5, None), (10, 20, False)], 20, 11, sol) < mia_types.truth([], 20, 11, sol)
