"""Pig computer player and solver (rules/pig.md, "Strategy notes").

Win probabilities are exact Markov-chain values (policy evaluation over the layered state space),
not simulations, so the tolerances are tight. The tests marked with the ``numpy`` fixture need
numpy (the solver's only dependency); the player itself runs on the standard library.
"""

from __future__ import annotations

import copy
import json
import random
import subprocess
import sys
import threading
import zlib
from pathlib import Path

import pytest

from bot.ai import pig_player
from bot.ai.pig_player import choose, fallback_holds, get_policy, wants_hold
from bot.ai.pig_solver import (
    evaluate,
    evaluate_both_seats,
    hold_at,
    main,
    policy_from,
    solve,
    solve_layered,
    state_grid,
)
from bot.ai.pig_tables import (
    MAGIC,
    SHIPPED,
    SOLVER_VERSION,
    PigPolicy,
    PigRules,
    PolicyFormatError,
    ShiftedPolicy,
    load_shipped,
    shipped_path,
    state_index,
)
from bot.games.base import Action
from bot.games.dice import SeededDice
from bot.games.pig import ENGINE as PIG
from bot.games.pig import HOLD, ROLL, PigOptions, PigState
from tests.waiting import DEADLINE

ROOT = Path(__file__).resolve().parents[2]
ONE_DIE = PigRules()
BIG_PIG = PigRules(dice=2)


@pytest.fixture
def numpy():
    return pytest.importorskip("numpy")


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    """Every test gets an empty on-disk cache and forgets tables loaded by earlier tests."""
    monkeypatch.setenv(pig_player.CACHE_ENV, str(tmp_path / "cache"))
    pig_player.clear_memory_cache()
    yield
    pig_player.clear_memory_cache()


@pytest.fixture(autouse=True)
def no_background_solves(monkeypatch, request):
    """Decisions start no solver thread in these tests (the tests of the background solve opt out)."""
    started = []
    if not request.node.name.startswith("test_background_"):
        monkeypatch.setattr(pig_player, "solve_in_background", lambda options: started.append(options))
    return started


@pytest.fixture(scope="module")
def one_die():
    return load_shipped(ONE_DIE)


@pytest.fixture(scope="module")
def big_pig():
    return load_shipped(BIG_PIG)


# ------------------------------------------------------------------------------------------
# Shipped data and the file format


def test_shipped_tables_exist_with_the_documented_size():
    for spec in SHIPPED:
        rules = PigRules(**spec)
        policy = load_shipped(rules)
        assert policy is not None and policy.rules == rules
        assert policy.meta["solver"] == SOLVER_VERSION
        assert len(policy.bits) == (rules.states + 7) // 8  # one bit per state
        assert shipped_path(rules).stat().st_size < 20_000  # zlib-compressed on disk
    assert PigRules().states == 505_000
    assert {PigRules(**spec).key for spec in SHIPPED} == {
        "pig-d1-t50",
        "pig-d1-t100",
        "pig-d2-plus25-x2-t50",
        "pig-d2-plus25-x2-t100",
    }


def test_loader_round_trips_and_the_writer_is_deterministic(one_die, tmp_path):
    raw = shipped_path(ONE_DIE).read_bytes()
    assert raw.startswith(MAGIC)
    assert one_die.to_bytes() == raw
    assert PigPolicy.from_bytes(raw) == one_die
    path = one_die.save(tmp_path / "sub" / "copy.bin")
    assert PigPolicy.load(path) == one_die
    assert PigPolicy.load(path).meta == one_die.meta
    assert one_die.meta["p_first"] == pytest.approx(0.530593, abs=1e-6)


def test_loader_rejects_bad_files(one_die):
    raw = one_die.to_bytes()
    with pytest.raises(PolicyFormatError):
        PigPolicy.from_bytes(b"NOTPIG\n" + raw[len(MAGIC) :])
    header, body = raw.split(b"\n", 2)[1], zlib.decompress(raw.split(b"\n", 2)[2])
    flipped = bytes([body[0] ^ 1]) + body[1:]
    with pytest.raises(PolicyFormatError):
        PigPolicy.from_bytes(MAGIC + header + b"\n" + zlib.compress(flipped))
    with pytest.raises(PolicyFormatError):
        PigPolicy(ONE_DIE, body[:-1])


def test_state_index_is_the_table_order(numpy):
    rules = PigRules(target=23)
    i, j, k = state_grid(rules)
    assert len(i) == rules.states
    assert [state_index(23, *map(int, s)) for s in zip(i, j, k, strict=True)] == list(range(rules.states))


def test_rules_normalise_one_die_and_name_variants():
    assert PigRules(dice=1, double_ones="bust", must_roll_after_doubles=True) == ONE_DIE
    assert PigRules.from_options(PigOptions()) == ONE_DIE
    assert PigRules.from_options({"dice": 2, "target": 100, "equal_turns": True}) == BIG_PIG
    assert PigRules(dice=2, double_ones="lose_score", doubles_multiplier=1, must_roll_after_doubles=True).key == (
        "pig-d2-lose_score-x1-mr-t100"
    )
    den, bust, wipe, outs = BIG_PIG.outcomes()
    assert (den, bust, wipe) == (36, 10, 0)
    assert sum(n for _, n, _ in outs) == 26
    assert sum(g * n for g, n, _ in outs) == 265  # expected gain 265/36 per roll (rule P-3)


# ------------------------------------------------------------------------------------------
# Solver: published / computed numbers, exact evaluation


def test_one_die_optimal_vs_optimal_is_0_5306(numpy, one_die):
    assert evaluate(ONE_DIE, one_die, one_die) == pytest.approx(0.530593, abs=1e-6)  # paper: 53.06%


def test_one_die_hold_at_20_vs_optimal_is_0_460(numpy, one_die):
    first, second, avg = evaluate_both_seats(ONE_DIE, hold_at(ONE_DIE, 20), one_die)
    assert (first, second) == (pytest.approx(0.4917, abs=1e-4), pytest.approx(0.4285, abs=1e-4))
    assert avg == pytest.approx(0.460, abs=1e-3)
    assert avg == pytest.approx(0.4601, abs=1e-4)


def test_one_die_keep_pace_and_end_race_fallback_vs_optimal_is_0_4953(numpy, one_die):
    def keep_pace(i, j, k):  # the fallback_holds rule, vectorised
        return ~((i >= 71) | (j >= 71)) & (k >= 21 + numpy.floor((j - i) / 8 + 0.5))

    policy = policy_from(ONE_DIE, lambda i, j, k: ~keep_pace(i, j, k))
    _, _, avg = evaluate_both_seats(ONE_DIE, policy, one_die)
    assert avg == pytest.approx(0.4953, abs=2e-4)
    for i, j, k in [(0, 0, 20), (0, 0, 21), (10, 50, 26), (50, 10, 15), (71, 0, 40), (0, 80, 60)]:
        assert fallback_holds(ONE_DIE, i, j, k) == bool(keep_pace(numpy.int64(i), numpy.int64(j), numpy.int64(k)))


def test_big_pig_optimal_vs_optimal_is_0_535963(numpy, big_pig):
    assert evaluate(BIG_PIG, big_pig, big_pig) == pytest.approx(0.535963, abs=1e-6)
    _, _, avg = evaluate_both_seats(BIG_PIG, hold_at(BIG_PIG, 32), big_pig)
    assert avg == pytest.approx(0.4773, abs=1e-4)  # best hold-at-n for Big Pig


def test_first_turn_hold_points(one_die, big_pig):
    assert one_die.hold_point(0, 0) == 21
    assert big_pig.hold_point(0, 0) == 27
    assert all(one_die.rolls(0, 0, k) for k in range(1, 21))
    assert not any(one_die.rolls(0, 0, k) for k in range(21, 60))


def test_one_die_policy_shape(one_die):
    assert one_die.hold_point(0, 50) == 29  # behind: riskier
    assert one_die.hold_point(50, 0) == 15  # ahead: safer
    assert one_die.hold_point(0, 75) == 28
    for i, j in [(70, 70), (80, 0), (85, 60), (60, 85), (40, 80), (90, 0)]:
        assert one_die.hold_point(i, j) is None, (i, j)  # rolls for the goal


def test_shipped_tables_equal_a_fresh_solve(numpy):
    for spec in SHIPPED:
        rules = PigRules(**spec)
        solution = solve(rules)
        assert solution.policy().bits == load_shipped(rules).bits, rules.key
        assert solution.min_margin > 1e-10  # no near-ties: the bits do not depend on rounding


def test_small_target_generate_save_load_round_trip(numpy, tmp_path):
    rules = PigRules(target=30)
    solution = solve(rules)
    assert main(["--target", "30", "--out", str(tmp_path)]) == 0
    written = tmp_path / "pig-d1-t30.bin"
    assert written.read_bytes() == solution.policy().to_bytes()
    loaded = PigPolicy.load(written)
    assert loaded == solution.policy()
    assert loaded.meta["p_first"] == pytest.approx(solution.p_first, abs=1e-9)
    assert (loaded.to_array() == solution.roll).all()
    assert evaluate(rules, loaded, loaded) == pytest.approx(solution.p_first, abs=1e-12)


def _naive_value_iteration(np, rules):
    """Textbook value iteration over the dense (i, j, k) cube: an independent check of the layered solver."""
    t = rules.target
    den, bust, wipe, outs = rules.outcomes()
    g = max(gain for gain, _, _ in outs)
    i3, j3, k3 = np.meshgrid(np.arange(t), np.arange(t), np.arange(t + g), indexing="ij")
    won = i3 + k3 >= t
    value = np.where(won, 1.0, 0.5)
    rolled = value.copy()  # the roll value, for states where a re-roll is forced
    i2, j2, k2 = i3[:, :, :t], j3[:, :, :t], k3[:, :, :t]
    for _ in range(10_000):
        p0 = value[:, :, 0]
        roll = bust / den * (1 - p0.T)[:, :, None] + wipe / den * (1 - p0[:, 0])[None, :, None]
        for gain, count, forced in outs:
            roll = roll + count / den * (rolled if forced else value)[:, :, gain : gain + t]
        hold = 1 - p0[j2, np.minimum(i2 + k2, t - 1)]
        hold[:, :, 0] = -np.inf
        new = value.copy()
        new[:, :, :t] = np.where(won[:, :, :t], 1.0, np.maximum(roll, hold))
        rolled[:, :, :t] = np.where(won[:, :, :t], 1.0, roll)
        done = np.abs(new - value).max() < 1e-15
        value = new
        if done:
            break
    i, j, k = state_grid(rules)
    return value[0, 0, 0], (roll > hold)[i, j, k] | (k == 0)


@pytest.mark.parametrize(
    "rules",
    [
        PigRules(target=10),
        PigRules(target=20),
        PigRules(target=30),
        PigRules(dice=2, target=10),
        PigRules(dice=2, target=20),
        PigRules(dice=2, target=40),
        PigRules(dice=2, target=30, double_ones="lose_score", doubles_multiplier=1),  # Two-Dice Pig
        PigRules(dice=2, target=40, double_ones="bust", doubles_multiplier=1, must_roll_after_doubles=True),
    ],
    ids=lambda r: r.key,
)
def test_layered_solver_matches_naive_value_iteration(numpy, rules):
    p_first, roll = _naive_value_iteration(numpy, rules)
    solution = solve(rules)
    reference = solve_layered(rules)
    assert solution.bits == reference.bits  # solve() (columns or wavefront) and the per-layer solver agree
    assert solution.p_first == pytest.approx(reference.p_first, abs=1e-12)
    assert solution.p_first == pytest.approx(p_first, abs=1e-12)
    assert (solution.roll == roll).all()
    assert solution.stats["fallbacks"] == 0
    policy = solution.policy()
    assert evaluate(rules, policy, policy) == pytest.approx(solution.p_first, abs=1e-12)


def test_forced_reroll_after_doubles_changes_the_policy(numpy):
    free = solve(PigRules(dice=2, target=40, double_ones="bust", doubles_multiplier=1))
    forced = solve(PigRules(dice=2, target=40, double_ones="bust", doubles_multiplier=1, must_roll_after_doubles=True))
    assert forced.p_first < free.p_first
    assert (forced.roll != free.roll).any()


# ------------------------------------------------------------------------------------------
# The player


def view_for(scores, turn_total=0, rolls=1, me=0, must_roll=False, active=None, **options):
    state = PigState(
        PigOptions(**options),
        list(scores),
        list(active or [True] * len(scores)),
        current=me,
        starter=0,
        turn_total=turn_total,
        rolls_this_turn=rolls,
        must_roll=must_roll,
        turns=[0] * len(scores),
    )
    return PIG.view(state, me)


def test_levels_follow_their_rules(one_die, big_pig):
    assert choose(view_for([0, 0], 21), "normal") == ROLL
    assert choose(view_for([0, 0], 22), "normal") == HOLD
    assert choose(view_for([0, 0], 27, dice=2), "normal") == ROLL
    assert choose(view_for([0, 0], 28, dice=2), "normal") == HOLD
    assert choose(view_for([70, 0], 25), "normal") == HOLD
    assert choose(view_for([71, 0], 25), "normal") == ROLL  # the end race: 71 = 100 - 29
    assert choose(view_for([0, 71], 28, dice=2), "normal") == ROLL
    assert choose(view_for([0, 0], 20), "hard") == ROLL  # optimal holds at 21 here
    assert choose(view_for([0, 0], 21), "hard") == HOLD
    assert choose(view_for([0, 0], 26, dice=2), "hard") == ROLL
    assert choose(view_for([0, 0], 27, dice=2), "hard") == HOLD
    assert choose(view_for([80, 0], 15), "expert") == ROLL  # end race
    assert choose(view_for([0, 0], 14), "medium") == ROLL
    with pytest.raises(ValueError):
        choose(view_for([0, 0], 5), "impossible")


def test_easy_uses_the_injected_rng_within_its_range():
    assert choose(view_for([0, 0], 11), "easy", random.Random(1)) == ROLL
    assert choose(view_for([0, 0], 15), "easy", random.Random(1)) == HOLD
    picks = {choose(view_for([0, 0], 13), "easy", random.Random(seed)) for seed in range(40)}
    assert picks == {ROLL, HOLD}  # a little randomness
    runs = [[choose(view_for([0, 0], 13), "easy", random.Random(seed)) for seed in range(20)] for _ in range(2)]
    assert runs[0] == runs[1]  # and reproducible
    assert choose(view_for([0, 0], 13), "easy") == HOLD  # no rng: the middle of 12-15


def test_every_level_banks_a_winning_total_without_auto_hold():
    for level in pig_player.LEVELS:
        assert choose(view_for([95, 99], 6, auto_hold_at_target=False), level, random.Random(0)) == HOLD


def test_forced_moves_are_the_only_legal_ones():
    for level in pig_player.LEVELS:
        assert choose(view_for([0, 0], 0, rolls=0), level) == ROLL
        assert choose(view_for([0, 0], 40, dice=2, must_roll_after_doubles=True, must_roll=True), level) == ROLL
    with pytest.raises(ValueError):
        choose({**view_for([0, 0], 3), "legal": []}, "hard")


def test_multiplayer_uses_the_leading_opponent(one_die):
    # seat 1 is the computer; its opponents have 10 and 55 (and an inactive 90, ignored): the table
    # against the leader, read as if the leader had MULTI_LEADER_BONUS more (two rivals)
    for k in range(1, 70):
        view = view_for([10, 30, 55, 90], k, me=1, active=[True, True, True, False])
        assert wants_hold(view, "hard") == (not one_die.rolls(30, 55 + pig_player.MULTI_LEADER_BONUS, k))
    assert any(one_die.rolls(30, 55, k) != one_die.rolls(30, 65, k) for k in range(1, 70))
    for k in range(1, 70):  # one rival left: the plain table
        view = view_for([10, 30, 55, 90], k, me=1, active=[False, True, True, False])
        assert wants_hold(view, "hard") == (not one_die.rolls(30, 55, k))


def test_equal_turns_must_pass_a_leader_over_the_target():
    view = view_for([40, 104], 64, equal_turns=True)  # 40 + 64 = 104 only ties
    assert choose(view, "hard") == ROLL
    assert choose(view_for([40, 104], 65, equal_turns=True), "normal") == HOLD


def test_decision_uses_only_the_view(monkeypatch, one_die):
    state = PigState(PigOptions(), [37, 52, 61], [True, True, True], 2, 0, 17, 3, turns=[4, 4, 3])
    view = PIG.view(state, 2)
    before = copy.deepcopy(view)
    expected = {level: choose(view, level, random.Random(5)) for level in pig_player.LEVELS}
    assert view == before  # the view is not mutated

    # The engine is never consulted: break it, and decide from a JSON copy and a hand-made dict.
    for name in ("view", "legal_actions", "apply", "to_json", "from_json", "outcome"):
        monkeypatch.setattr(type(PIG), name, lambda *a, **k: pytest.fail("the AI called the engine"))
    copy_of_view = json.loads(json.dumps(before))
    minimal = {
        "you": 2,
        "scores": [37, 52, 61],
        "active": [True, True, True],
        "turn_total": 17,
        "options": {"dice": 1, "target": 100},
        "legal": ["roll", "hold"],
    }
    for level, action in expected.items():
        assert choose(copy_of_view, level, random.Random(5)) == action
        assert choose(minimal, level, random.Random(5)) == action
    # ... and what it sees is all that matters: same scores seen from another seat, same decision.
    rotated = {**minimal, "you": 0, "scores": [61, 37, 52]}
    assert choose(rotated, "hard") == expected["hard"]
    assert isinstance(expected["hard"], Action)


VARIANTS = [  # shipped tables, plus small variants the hard player solves inline (numpy) or falls back on
    {"dice": 1, "target": 100},
    {"dice": 2, "target": 100},
    {"dice": 1, "target": 20},
    {"dice": 1, "target": 37},
    {"dice": 2, "target": 45},
    {"dice": 2, "target": 30, "double_ones": "bust", "doubles_multiplier": 1, "must_roll_after_doubles": True},
    {"dice": 2, "target": 30, "must_roll_after_doubles": True},
    {"dice": 2, "target": 20, "double_ones": "lose_score", "doubles_multiplier": 1},
]


def _random_options(rng):
    return PigOptions(**rng.choice(VARIANTS), auto_hold_at_target=rng.random() < 0.7, equal_turns=rng.random() < 0.2)


def test_ai_plays_only_legal_moves_in_real_games():
    rng = random.Random(2024)
    for game in range(60):
        options = _random_options(rng)
        players = rng.choice([2, 2, 3, 4])
        levels = [rng.choice(pig_player.LEVELS) for _ in range(players)]
        dice = SeededDice(game)
        state, _ = PIG.new_game(players, options, dice)
        for _step in range(5000):
            if PIG.is_over(state):
                break
            seat = PIG.to_act(state)[0]
            view = PIG.view(state, seat)
            action = choose(view, levels[seat], rng)
            assert action.encode() in view["legal"], (options, view)
            state, _ = PIG.apply(state, seat, action, dice)
        assert PIG.is_over(state), f"game {game} did not finish ({options})"


@pytest.mark.parametrize("can_solve", [True, False], ids=["solving", "fallback"])
def test_ai_plays_only_legal_moves_in_random_states(monkeypatch, can_solve):
    if not can_solve:
        monkeypatch.setattr(pig_player, "numpy_available", lambda: False)
    rng = random.Random(7)
    for _ in range(2000):
        options = _random_options(rng)
        players = rng.randint(2, 5)
        target = options.target
        top = target + 10 if options.equal_turns else target - 1
        scores = [rng.randint(0, top) for _ in range(players)]
        me = rng.randrange(players)
        rolls = rng.choice([0, 1, 1, 2, 5])
        turn_total = 0
        if rolls and options.auto_hold_at_target:
            turn_total = rng.randint(2, max(2, target - scores[me] - 1))
        elif rolls:
            turn_total = rng.randint(2, 2 * target)
        must = options.dice == 2 and options.must_roll_after_doubles and rolls > 0 and rng.random() < 0.3
        active = [seat == me or rng.random() < 0.8 for seat in range(players)]
        state = PigState(options, scores, active, me, 0, turn_total, rolls, must, turns=[0] * players)
        view = PIG.view(state, me)
        for level in pig_player.LEVELS:
            action = choose(view, level, rng)
            assert action.encode() in view["legal"]
            PIG.apply(state, me, action, SeededDice(0))  # the engine accepts it


def test_hard_without_numpy_or_table_falls_back(monkeypatch):
    monkeypatch.setattr(pig_player, "numpy_available", lambda: False)
    rules = PigRules(target=160)
    assert get_policy(rules, compute=True) is None
    assert choose(view_for([0, 0], 20, target=160), "hard") == ROLL
    assert choose(view_for([0, 0], 21, target=160), "hard") == HOLD
    assert choose(view_for([131, 0], 25, target=160), "hard") == ROLL  # 131 = 160 - 29: roll for the goal
    assert choose(view_for([0, 0], 31, target=160, dice=2), "hard") == ROLL
    assert choose(view_for([0, 0], 32, target=160, dice=2), "hard") == HOLD
    assert choose(view_for([0, 0], 23, target=60, dice=2, double_ones="bust"), "hard") == HOLD


@pytest.mark.parametrize("target", [20, 60, 100, 300, 1000])
@pytest.mark.parametrize("dice", [1, 2])
def test_fallback_ends_the_race_at_target_minus_29_and_never_holds_there(target, dice):
    rules = PigRules(dice=dice, target=target)
    end = max(0, target - 29)
    rng = random.Random(target * dice)
    for _ in range(3000):
        i, j = rng.randrange(target), rng.randrange(target)
        k = rng.randint(1, target - i - 1) if i < target - 1 else 1
        if i >= end or j >= end:
            assert not fallback_holds(rules, i, j, k), (i, j, k)  # roll for the goal, whatever the target
        elif dice == 2:
            assert fallback_holds(rules, i, j, k) == (k >= 32)
    # never "a fraction of the target": at 500 the race starts at 471, not at 355
    assert fallback_holds(PigRules(target=500), 400, 0, 60)
    assert not fallback_holds(PigRules(target=500), 471, 0, 60)


def test_keep_pace_counts_the_difference_less_above_target_100():
    hold_point = {  # the smallest turn total the fallback holds at, 60 points behind / 30 behind
        t: [min(k for k in range(1, 60) if fallback_holds(PigRules(target=t), 0, j, k)) for j in (60, 30)]
        for t in (100, 200, 500, 1000)
    }
    assert hold_point[100] == [29, 25]  # the published rule: 21 + round(60 / 8), 21 + round(30 / 8)
    assert hold_point == {100: [29, 25], 200: [25, 23], 500: [23, 22], 1000: [22, 21]}


def test_fallback_beats_hold_at_25_with_the_same_end_race_against_optimal(numpy):
    rules = PigRules(target=60)
    optimal = solve(rules)
    end = rules.target - 29

    def fallback(i, j, k):
        return ~((i >= end) | (j >= end)) & (k >= 21 + numpy.floor((j - i) / 8 + 0.5))

    def hold25(i, j, k):
        return ~((i >= end) | (j >= end)) & (k >= 25)

    ours = policy_from(rules, lambda i, j, k: ~fallback(i, j, k))
    base = policy_from(rules, lambda i, j, k: ~hold25(i, j, k))
    for i, j, k in [(0, 0, 20), (0, 0, 21), (10, 25, 26), (25, 10, 15), (31, 0, 40), (0, 31, 5)]:
        assert fallback_holds(rules, i, j, k) == bool(fallback(numpy.int64(i), numpy.int64(j), numpy.int64(k)))
    assert evaluate_both_seats(rules, ours, optimal)[2] > evaluate_both_seats(rules, base, optimal)[2]
    assert evaluate_both_seats(rules, ours, base)[2] > 0.5


def test_cache_dir_is_under_the_data_directory(monkeypatch, tmp_path):
    monkeypatch.delenv(pig_player.CACHE_ENV)
    monkeypatch.setenv(pig_player.DATABASE_ENV, str(tmp_path / "db" / "tavern.sqlite3"))
    assert pig_player.cache_dir() == (tmp_path / "db" / "cache" / "pig").resolve()
    monkeypatch.delenv(pig_player.DATABASE_ENV)
    assert pig_player.cache_dir() == Path("data", "cache", "pig").resolve()
    assert pig_player.cache_dir().is_absolute()


def test_solving_caches_on_disk_and_reads_it_back(numpy, tmp_path):
    rules = PigRules(dice=2, target=30, double_ones="lose_score")  # no bigger table answers for it
    assert get_policy(rules) is None  # no table and no solve inside a decision
    policy = get_policy(rules, compute=True)
    assert policy == solve(rules).policy()
    cached = tmp_path / "cache" / f"{rules.key}.bin"
    assert PigPolicy.load(cached) == policy
    assert PigPolicy.load(cached).meta["solver"] == SOLVER_VERSION
    pig_player.clear_memory_cache()
    assert get_policy(rules) == policy  # read back from the disk cache, no solve


@pytest.mark.parametrize("damage", ["truncated", "flipped", "other_variant", "old_solver", "not_a_table"])
def test_a_bad_cached_table_is_solved_again(numpy, tmp_path, damage):
    rules = PigRules(dice=2, target=24, double_ones="lose_score")
    good = solve(rules).policy()
    cached = tmp_path / "cache" / f"{rules.key}.bin"
    cached.parent.mkdir(parents=True)
    raw = good.to_bytes()
    bad = {
        "truncated": raw[: len(raw) // 2],
        "flipped": raw[:-3] + bytes([raw[-3] ^ 0xFF]) + raw[-2:],
        "other_variant": solve(PigRules(dice=2, target=24, double_ones="bust")).policy().to_bytes(),
        "old_solver": PigPolicy(rules, good.bits, {**good.meta, "solver": SOLVER_VERSION - 1}).to_bytes(),
        "not_a_table": b"hello",
    }[damage]
    cached.write_bytes(bad)
    assert get_policy(rules) is None  # not trusted
    assert get_policy(rules, compute=True) == good  # solved again ...
    assert cached.read_bytes() == raw  # ... and the file replaced (atomically: no temp file left behind)
    assert [p.name for p in cached.parent.iterdir()] == [cached.name]


def test_background_solve_returns_at_once_and_the_player_falls_back_until_ready(numpy, monkeypatch):
    import bot.ai.pig_solver as pig_solver

    options = {"dice": 2, "target": 36, "double_ones": "lose_score"}  # no bigger table answers for it
    rules = PigRules.from_options(options)
    optimal = solve(rules).policy()
    differ = [  # states where the table and the fallback disagree
        (i, j, k)
        for i in range(36)
        for j in range(36)
        for k in range(1, 36 - i)
        if optimal.rolls(i, j, k) == fallback_holds(rules, i, j, k)
    ]
    assert differ
    release = threading.Event()
    real_solve = pig_solver.solve

    def slow_solve(rules):  # held until the test releases it: whatever waited for it would wait for the test
        assert release.wait(DEADLINE)
        return real_solve(rules)

    monkeypatch.setattr(pig_solver, "solve", slow_solve)
    monkeypatch.setattr(pig_player, "SOLVE_ELSEWHERE", False)  # the thread solves itself: the patch holds it
    future = pig_player.solve_in_background(options)
    assert future is not None and not future.done()  # returns at once: the solve is still held
    assert pig_player.solve_in_background(options) is future  # one solve per variant
    for i, j, k in differ[:20]:  # meanwhile: the fallback, without waiting
        expected = HOLD if fallback_holds(rules, i, j, k) else ROLL
        assert choose(view_for([i, j], k, **options), "hard") == expected
        assert not future.done()  # decided while the solve is held: it did not wait for it
    solvers = [t for t in threading.enumerate() if t.name == "pig-solver"]
    assert len(solvers) == 1 and solvers[0].daemon  # a long solve never holds up the bot's exit
    release.set()
    assert future.result(timeout=DEADLINE) == optimal
    assert pig_player.solve_in_background(options) is None  # ready: nothing to do
    for i, j, k in differ[:20]:  # now the table
        expected = ROLL if optimal.rolls(i, j, k) else HOLD
        assert choose(view_for([i, j], k, **options), "hard") == expected


def test_background_solve_runs_in_another_process_and_caches_its_table(numpy, monkeypatch, tmp_path):
    import bot.ai.pig_solver as pig_solver

    rules = PigRules(dice=2, target=26, double_ones="lose_score")  # no bigger table answers for it
    optimal = solve(rules).policy()
    monkeypatch.setattr(pig_solver, "solve", lambda rules: pytest.fail("solved in the bot's process"))
    future = pig_player.solve_in_background(rules.to_dict())
    assert future is not None and future.result(timeout=DEADLINE) == optimal  # the child's table, handed back
    assert PigPolicy.load(tmp_path / "cache" / f"{rules.key}.bin") == optimal  # saved where the player reads it
    assert get_policy(rules, disk=False) == optimal


def test_a_decision_without_a_table_asks_for_a_solve(no_background_solves):
    assert choose(view_for([0, 0], 21, target=177), "hard") == HOLD  # the fallback
    assert no_background_solves and PigRules.from_options(no_background_solves[0]) == PigRules(target=177)
    no_background_solves.clear()
    choose(view_for([0, 0], 21), "hard")  # shipped: no solve
    assert not no_background_solves


def test_runtime_play_needs_only_the_standard_library():
    code = (
        "import sys; sys.modules['numpy'] = None\n"
        "from bot.ai.pig_player import choose, get_policy\n"
        "from bot.ai.pig_tables import PigRules\n"
        "from bot.games.pig import ENGINE, PigOptions\n"
        "from bot.games.dice import SeededDice\n"
        "state, _ = ENGINE.new_game(2, PigOptions(dice=2), SeededDice(3))\n"
        "state.rolls_this_turn, state.turn_total = 1, 30\n"
        "assert get_policy(PigRules(dice=2)) is not None\n"
        "print(choose(ENGINE.view(state, state.current), 'hard'))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "hold"


def test_the_table_service_warms_the_hard_players_table(no_background_solves):
    from types import SimpleNamespace

    from bot.tables.computers import Computers

    def table(game, *levels, **options):
        seats = [SimpleNamespace(is_bot=level is not None, level=level) for level in levels]
        return SimpleNamespace(id=1, game=game, seats=seats, options={"dice": 1, "target": 230, **options})

    Computers.warm(table("pig", None, "normal"))  # no hard computer: nothing to solve
    Computers.warm(table("mia", None, "hard"))
    assert not no_background_solves
    Computers.warm(table("pig", None, "hard", dice=2))
    assert [PigRules.from_options(o) for o in no_background_solves] == [PigRules(dice=2, target=230)]


@pytest.mark.parametrize(
    ("rules", "bigger"),
    [
        (PigRules(target=50), PigRules(target=100)),
        (PigRules(dice=2, target=50), PigRules(dice=2, target=100)),
        (PigRules(target=37), PigRules(target=100)),
        (PigRules(dice=2, target=23, double_ones="bust", must_roll_after_doubles=True), None),
    ],
    ids=lambda r: getattr(r, "key", ""),
)
def test_a_bigger_targets_table_answers_for_a_smaller_one(numpy, rules, bigger):
    """The game depends only on the points each player still needs: the table for 100, read from
    (i + 50, j + 50, k), is the table for 50, bit for bit (the shipped 50s are checked against it)."""
    base = load_shipped(bigger) if bigger else solve(rules.with_target(rules.target + 17)).policy()
    shifted = ShiftedPolicy(base, rules.target)
    own = solve(rules).policy()
    i, j, k = state_grid(rules)
    assert [shifted.rolls(*map(int, s)) for s in zip(i, j, k, strict=True)] == own.to_array().tolist()
    if load_shipped(rules) is not None:
        assert load_shipped(rules) == own


def test_get_policy_uses_a_bigger_table_without_solving(monkeypatch):
    monkeypatch.setattr(pig_player, "numpy_available", lambda: False)
    policy = get_policy(PigRules(target=73))
    assert isinstance(policy, ShiftedPolicy) and policy.base.rules == ONE_DIE
    assert get_policy(PigRules(dice=2, target=20)).base.rules == BIG_PIG.with_target(50)  # the smallest bigger
    assert get_policy(PigRules(target=101)) is None
    assert get_policy(PigRules(dice=2, target=40, double_ones="lose_score")) is None  # a wipe does not shift
    with pytest.raises(ValueError):
        ShiftedPolicy(load_shipped(ONE_DIE), 101)


def test_a_decision_never_reads_the_disk_cache_itself(numpy, tmp_path, no_background_solves):
    rules = PigRules(dice=2, target=36, double_ones="lose_score")
    table = solve(rules).policy()
    table.save(tmp_path / "cache" / f"{rules.key}.bin")
    state = next(
        (i, j, k)
        for i in range(36)
        for j in range(36)
        for k in range(1, 36 - i)
        if table.rolls(i, j, k) == fallback_holds(rules, i, j, k)
    )
    view = view_for([state[0], state[1]], state[2], **rules.to_dict())
    assert choose(view, "hard") == (HOLD if fallback_holds(rules, *state) else ROLL)  # the fallback, at once
    assert [PigRules.from_options(o) for o in no_background_solves] == [rules]  # the worker will read the file
    assert get_policy(rules, compute=True) == table  # (what the worker does: no solve, the file)
    assert choose(view, "hard") == (ROLL if table.rolls(*state) else HOLD)
