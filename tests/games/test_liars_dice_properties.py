"""Liar's Dice property tests: random legal games under random options keep the rules' invariants."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.games.base import Action
from bot.games.dice import SeededDice
from bot.games.liars_dice import ENGINE, MODES, RAISE_RULES, STARTERS, LiarsOptions, is_raise, legal_bids
from tests.games.playout import assert_unchanged_on_illegal, random_playout

SETTINGS = settings(max_examples=200, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def games(draw):
    """Players and options. Big loot tables get a round limit: a random loot game moves one die per
    round, so with dozens of dice it runs to thousands of steps (it always ends, just slowly)."""
    players = draw(st.integers(2, 6))
    mode = draw(st.sampled_from(MODES))
    dice_per_player = draw(st.integers(1, 6))
    extra = {}
    if mode != "single":
        extra["starter"] = draw(st.sampled_from(STARTERS))
        big = mode == "loot" and players * dice_per_player > 12
        extra["max_rounds"] = draw(st.integers(1, 40) if big else st.sampled_from([0, 0, 0, 3, 10]))
    options = LiarsOptions(
        dice_per_player=dice_per_player,
        raise_rule=draw(st.sampled_from(RAISE_RULES)),
        wild_ones=draw(st.booleans()),
        mode=mode,
        **extra,
    )
    return players, options


def random_illegal(state, player: int, rng: random.Random) -> Action:
    """Some action ``player`` may not take now."""
    legal = set(ENGINE.legal_actions(state, player))
    if state.bid is None:
        pool = [Action("challenge"), Action("bid", (state.total + 1, 2)), Action("bid", (0, 3))]
    else:
        pool = [Action("bid", tuple(state.bid)), Action("bid", (1, 7))]
    if state.options.wild_ones:
        pool.append(Action("bid", (1, 1)))
    pool += [a for a in legal_bids(state.options.raise_rule, state.options.wild_ones, state.total) if a not in legal][
        :5
    ]
    return rng.choice(pool)


def invariants(seed: int):
    rng = random.Random(seed ^ 0x5EED)

    def check(state, player, action, new, events):
        o = state.options
        assert all(c >= 0 for c in new.counts), "dice counts never go negative"
        if not new.finished:  # at the end the hands are the last round's, already revealed
            assert [len(h) for h in new.hands] == new.counts
        if o.mode == "loot":
            assert new.total == state.total, "loot conserves the dice"
        elif o.mode == "lose_die":
            assert new.total in (state.total, state.total - 1)
        else:
            assert new.counts == state.counts
        # Secrecy: a private "dice" event goes only to its owner; a view never holds faces hidden from its seat.
        for e in events:
            if e.kind == "dice":
                assert e.data["dice"] == new.hands[e.to]
        p = rng.randrange(len(new.counts))
        view = ENGINE.view(new, p)
        assert view["hand"] == new.hands[p]
        assert ENGINE.view(ENGINE.scramble(new, p, SeededDice(rng.random())), p) == view
        if new.last_reveal is not None and not new.finished:
            assert new.last_reveal["round"] < new.round_no, "only a finished round's hands are revealed"
        # JSON round trip.
        assert ENGINE.loads(ENGINE.dumps(new)) == new
        # Illegal actions raise IllegalMove and change nothing.
        if not new.finished:
            mover = new.current
            assert_unchanged_on_illegal(ENGINE, new, mover, random_illegal(new, mover, rng))
            idle = [i for i in range(len(new.counts)) if i != mover]
            assert_unchanged_on_illegal(ENGINE, new, rng.choice(idle), Action("challenge"))

    return check


def check_result(state, players: int) -> None:
    out = ENGINE.outcome(state)
    assert sorted(p for place in out.ranking for p in place) == list(range(players))
    assert len(out.scores) == players
    o = state.options
    if state.end_reason == "max_rounds":
        assert out.winners, "a round limit may share first place, but someone wins"
    else:
        assert len(out.winners) == 1, "exactly one winner"
    if o.mode == "single":
        assert sorted(out.scores) == sorted([1, -1] + [0] * (players - 2))
        assert state.end_reason == "challenge"
    else:
        assert list(out.scores) == state.counts
        if o.mode == "loot":
            assert sum(out.scores) == players * o.dice_per_player
        if state.end_reason == "last_standing":
            assert sum(1 for c in state.counts if c) == 1


@SETTINGS
@given(game=games(), seed=st.integers(0, 2**32 - 1))
def test_random_games_with_random_options_keep_the_invariants(game, seed):
    players, options = game
    deep = seed % 8 == 0  # every eighth game also runs the full per-step contract checks
    state, _, steps = random_playout(ENGINE, players, options, seed, check=invariants(seed), deep=deep)
    check_result(state, players)


@settings(max_examples=60, deadline=None, derandomize=True)
@given(game=games(), seed=st.integers(0, 2**32 - 1))
def test_random_forfeits_and_timeouts_always_end_the_game(game, seed):
    players, options = game
    rng = random.Random(seed)
    dice = SeededDice(seed)
    state, _ = ENGINE.new_game(players, options, dice)
    for _ in range(5_000):
        if ENGINE.is_over(state):
            break
        roll = rng.random()
        if roll < 0.05:
            seat = rng.randrange(players)
            before = state.total
            state, events = ENGINE.forfeit(state, seat, dice)
            assert state.counts[seat] == 0 and state.total <= before
            if events:
                assert events[0].kind == "forfeit"
        elif roll < 0.3:
            state, events = ENGINE.timeout(state, state.current, dice)
            assert events[0].kind == "timeout"
        else:
            action = rng.choice(ENGINE.legal_actions(state, state.current))
            state, _ = ENGINE.apply(state, state.current, action, dice)
        assert ENGINE.loads(ENGINE.dumps(state)) == state
    else:
        # A long loot game: everyone but the last seat walks away.
        for seat in range(players - 1):
            state, _ = ENGINE.forfeit(state, seat, dice)
    assert ENGINE.is_over(state)
    out = ENGINE.outcome(state)
    assert sorted(p for place in out.ranking for p in place) == list(range(players))
    gone = [p for p in range(players) if state.forfeited[p]]
    if gone:  # seats that walked away rank last, one place each
        tail = out.ranking[-len(gone) :]
        assert all(len(place) == 1 for place in tail) and {place[0] for place in tail} == set(gone)


def rules_predicate(rule: str, q: int, f: int, q2: int, f2: int) -> bool:
    """Rule L-3, transcribed from the rules file's pseudocode independently of the engine."""
    return {
        "sum": q2 * f2 > q * f,
        "simple": (f2 == f and q2 > q) or (f2 > f),
        "poker": (q2 > q) or (q2 == q and f2 > f),
        "pirates": q2 > max(q, f) or f2 > max(q, f),
        "lefthand": (f2 == f and q2 > q) or (q2 == q and f2 > f),
    }[rule]


@settings(max_examples=300, deadline=None, derandomize=True)
@given(
    rule=st.sampled_from(RAISE_RULES),
    wild=st.booleans(),
    total=st.integers(1, 36),
    data=st.data(),
)
def test_legal_bids_are_exactly_the_L1_domain_filtered_by_the_L3_predicate(rule, wild, total, data):
    faces = range(2, 7) if wild else range(1, 7)
    q = data.draw(st.integers(1, total))
    f = data.draw(st.sampled_from(list(faces)))
    expected = {(q2, f2) for q2 in range(1, total + 1) for f2 in faces if rules_predicate(rule, q, f, q2, f2)}
    got = [a.args for a in legal_bids(rule, wild, total, q, f)]
    assert set(got) == expected and len(got) == len(expected)
    assert all(is_raise(rule, q, f, *b) for b in got)
