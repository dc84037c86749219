"""Mex property tests: random legal games under random options keep the rules' invariants."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.games.base import Action, act
from bot.games.dice import SeededDice
from bot.games.mex import CANDIDATES, END_ROUND, ENGINE, PENALTIES, STAND, MexOptions, MexState, penalty
from tests.games.playout import assert_unchanged_on_illegal, random_playout

# Everything a player could send: every real move plus malformed ones.
EVERY_ACTION = [*CANDIDATES, act("hold", 3), act("hold"), act("choose", "dice"), act("throw", 1), Action("pass")]


@st.composite
def options(draw) -> MexOptions:
    max_throws = draw(st.integers(1, 3))
    needs_two = st.booleans() if max_throws > 1 else st.just(False)
    return MexOptions(
        starting_lives=draw(st.integers(1, 6)),
        max_throws=max_throws,
        mex_penalty=draw(st.sampled_from(PENALTIES)),
        allow_end_round_early=draw(st.booleans()),
        tiebreak_mode_choice=draw(st.sampled_from(["chooser", "always_mex", "always_pips"])),
        first_starter=draw(st.sampled_from(["random", "host", "seat1"])),
        mex_ends_turn=draw(st.booleans()),
        points_enabled=draw(st.booleans()),
        mex_passes_lead=draw(needs_two),
        hold_one_or_two=draw(needs_two),
    )


def checker(players: int, opts: MexOptions):
    """Per-step checks: lives in range, JSON round trip, and refusal of moves outside legal_actions."""
    steps = Counter()

    def check(state: MexState, player: int, action: Action, new: MexState, events) -> None:
        steps["n"] += 1
        assert all(0 <= lives <= opts.starting_lives for lives in new.lives)
        assert ENGINE.loads(ENGINE.dumps(new)) == new
        legal = ENGINE.legal_actions(state, player)
        assert action in legal
        illegal = [a for a in EVERY_ACTION if a not in legal]
        assert_unchanged_on_illegal(ENGINE, state, player, illegal[steps["n"] % len(illegal)])
        idle = [p for p in range(players) if p != player]
        code = assert_unchanged_on_illegal(ENGINE, state, idle[steps["n"] % len(idle)], legal[0]).code
        assert code == ("not_chooser" if legal[0].name == "choose" else "not_your_turn")
        check_at_the_limit(new, player)

    return check


def check_at_the_limit(new: MexState, player: int) -> None:
    """MX-3b: a player still to act in a normal round after using every allowed throw may not throw,
    and stays only because end_round is open to them."""
    r = new.round
    if new.winner is not None or r.tiebreak is not None or ENGINE.to_act(new) != (player,):
        return
    limit = new.options.max_throws if r.throw_limit is None else r.throw_limit
    if len(r.throws[player]) >= limit and not r.must_throw:
        assert ENGINE.legal_actions(new, player) == [STAND, END_ROUND]


def check_game(state: MexState, events, players: int, opts: MexOptions) -> None:
    """Whole-game invariants, recomputed from the event log alone."""
    outcome = ENGINE.outcome(state)
    assert outcome is not None
    # Exactly one winner; every seat ranked once.
    assert len(outcome.ranking[0]) == 1 and all(len(place) == 1 for place in outcome.ranking)
    assert sorted(p for (p,) in outcome.ranking) == list(range(players))
    alive = [p for p in range(players) if state.lives[p] > 0]
    assert alive == [outcome.ranking[0][0]]
    assert [e.kind for e in events].count("game_over") == 1 and events[-1].kind == "game_over"

    lives = [opts.starting_lives] * players
    points = [0] * players
    seen_points = [0] * players
    starter = None
    rounds = losers = 0
    order: list[int] = []
    mexes: set[int] = set()
    throws: Counter = Counter()
    limit = None
    for event in events:
        data = event.data
        assert event.to is None  # Mex hides nothing
        if event.kind == "round_start":
            rounds += 1
            assert data["round"] == rounds
            if starter is not None:
                assert data["starter"] == starter
            order, mexes, throws, limit = data["order"], set(), Counter(), None
        elif event.kind == "throw" and data["extra"] == 0:
            throws[data["player"]] += 1
            assert throws[data["player"]] <= (limit or opts.max_throws)  # MX-3 / MX-3a
            if data["mex"]:
                mexes.add(data["player"])
        elif event.kind == "throw":
            assert data["mode"] in ("mex", "pips")
        elif event.kind == "stand":
            assert data["throws"] == throws[data["player"]]
        elif event.kind == "limit_set":
            assert limit is None and 1 <= data["limit"] <= opts.max_throws
            limit = data["limit"]
        elif event.kind == "round_over":
            losers += 1  # exactly one loser per normal round
            loser = data["loser"]
            assert isinstance(loser, int) and loser in order
            normal_mexes = data["mex_count"]
            assert normal_mexes >= len(mexes)
            if opts.mex_ends_turn:
                assert normal_mexes == len(mexes)  # a Mex ends the turn: at most one per player
            assert data["penalty"] == penalty(opts.mex_penalty, normal_mexes)
            lives[loser] = max(0, lives[loser] - data["penalty"])
            for p in order:
                points[p] += -1 if p == loser else 1 + 2 * (p in mexes)
            # MX-1a: the loser starts next, or the first alive seat clockwise after them.
            seats = [(loser + k) % players for k in range(players)]
            starter = next(q for q in seats if lives[q] > 0)
        elif event.kind == "life_lost":
            assert data["lives"] == lives[data["player"]] >= 0
        elif event.kind == "eliminated":
            assert lives[data["player"]] == 0
        elif event.kind == "points":
            seen_points = [a + b for a, b in zip(seen_points, data["deltas"], strict=True)]
            assert data["points"] == seen_points
        elif event.kind == "game_over" and opts.points_enabled:
            points[data["winner"]] += 5
    assert rounds == losers  # every round that started ended with one loser
    assert lives == state.lives
    if opts.points_enabled:
        assert points == state.points == seen_points
        assert outcome.scores == tuple(points)
    else:
        assert state.points == seen_points == [0] * players
        assert outcome.scores == tuple(lives)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(opts=options(), players=st.integers(2, 6), seed=st.integers(0, 2**32))
def test_random_games_keep_the_rules(opts, players, seed):
    state, events, _ = random_playout(ENGINE, players, opts, seed, check=checker(players, opts), deep=False)
    check_game(state, events, players, opts)


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(opts=options(), players=st.integers(2, 8), seed=st.integers(0, 2**32))
def test_random_games_keep_the_contract_deeply(opts, players, seed):
    state, events, _ = random_playout(ENGINE, players, opts, seed, deep=True)
    check_game(state, events, players, opts)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(opts=options(), players=st.integers(2, 6), seed=st.integers(0, 2**32))
def test_random_forfeits_and_timeouts_end_the_game(opts, players, seed):
    """Random moves mixed with timeouts and players leaving (whoever is to act): the game still ends well."""
    rng = random.Random(seed)
    dice = SeededDice(seed)
    state, _ = ENGINE.new_game(players, opts, dice)
    left = []
    for _ in range(5000):
        if ENGINE.is_over(state):
            break
        (mover,) = ENGINE.to_act(state)
        roll = rng.random()
        if roll < 0.03:
            quitter = rng.choice([p for p in range(players) if p not in state.out])
            state, events = ENGINE.forfeit(state, quitter, dice)
            assert events[0].kind == "forfeit"
            left.append(quitter)
        elif roll < 0.25:
            before = ENGINE.dumps(state)
            state, events = ENGINE.timeout(state, mover, dice)
            assert events[0].kind == "timeout" and ENGINE.dumps(state) != before
        else:
            state, _ = ENGINE.apply(state, mover, rng.choice(ENGINE.legal_actions(state, mover)), dice)
        assert ENGINE.loads(ENGINE.dumps(state)) == state
        if not ENGINE.is_over(state):
            (mover,) = ENGINE.to_act(state)
            assert mover not in state.out and ENGINE.legal_actions(state, mover)
    outcome = ENGINE.outcome(state)
    assert outcome is not None
    assert sorted(p for (p,) in outcome.ranking) == list(range(players))
    assert outcome.ranking[0][0] not in left
    assert [p for (p,) in outcome.ranking[1:]] == state.out[::-1]
