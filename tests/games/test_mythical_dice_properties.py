"""Mythical Dice: property tests over random legal games with random options."""

from __future__ import annotations

import random
from collections import defaultdict

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.games.base import Action, act
from bot.games.dice import SeededDice
from bot.games.mythical_dice import ENGINE, MythicOptions, MythicState, bag_types
from tests.games.playout import assert_unchanged_on_illegal, random_playout

OPTIONS = st.builds(
    MythicOptions,
    hands_by_players=st.sampled_from(["", "3:3,4:3,5:2,6:2", "3:5,4:4,5:3,6:3", "3:1,4:1,5:1,6:1"]),
    dice_set=st.sampled_from(["standard", "3,3,3,7,7,8,8", "1,3,2,7,7,8,8"]),
    first_start_player=st.sampled_from(["random", "host"]),
    hand_leader=st.sampled_from(["rotate", "last_trick_winner"]),
    special_lead_sets_no_suit=st.booleans(),
    three_way=st.sampled_from(["mermaid_wins", "sequential"]),
    same_special_tie=st.sampled_from(["later", "earlier"]),
    all_flags=st.sampled_from(["first_roller", "nobody"]),
    griffin_bonus=st.sampled_from(["per_griffin", "per_trick"]),
    bonus_flag_scope=st.sampled_from(["trick", "hand", "face_only"]),
    bonuses_enabled=st.booleans(),
    tie_break=st.sampled_from(["share", "exact_bids"]),
)


def illegal_probe(state: MythicState, player: int, rng: random.Random) -> Action:
    """An action that is certainly illegal for ``player`` now."""
    if state.phase == "bidding":
        return act("bid", rng.choice([-1, state.hand_no + 1, 99]))
    foreign = [d for q in range(state.players) if q != player for d in state.hands[q]]
    return act("play", rng.choice(foreign or [999]))


def check_game(players: int, options: MythicOptions, seed: int, deep: bool) -> None:
    rng = random.Random(seed ^ 0x5EED)
    probes = 0

    def check(state, player, action, new, events):
        nonlocal probes
        # bids invisible before the reveal: no public event carries a value, no view shows another's bid
        if state.phase == "bidding":
            for e in events:
                if e.public and e.kind != "bids_revealed":
                    assert "bid" not in e.data and "bids" not in e.data
            if new.phase == "bidding":
                for q in [None, *range(players)]:
                    shown = ENGINE.view(new, q)["bids"]
                    assert all(b is None for p, b in enumerate(shown) if p != q)
        if probes < 12 and rng.random() < 0.2:  # an illegal move raises and changes nothing
            probes += 1
            assert_unchanged_on_illegal(ENGINE, state, player, illegal_probe(state, player, rng))

    state, log, _ = random_playout(ENGINE, players, options, seed, check=check, deep=deep)
    types = bag_types(options.dice_set)
    hands_total = options.hands_for(players)

    by_hand: dict[int, list] = defaultdict(list)
    hand = 0
    for e in log:
        if e.kind == "hand_started":
            hand = e.data["hand"]
        by_hand[hand].append(e)
    assert sorted(h for h in by_hand if h) == list(range(1, hands_total + 1))

    totals = [0] * players
    for h in range(1, hands_total + 1):
        events = by_hand[h]
        deals = [e for e in events if e.kind == "deal"]
        assert sorted(e.to for e in deals) == list(range(players))  # private, one per seat
        dealt = [d["id"] for e in deals for d in e.data["dice"]]
        assert len(dealt) == len(set(dealt)) == h * players  # hand x players dice, without replacement
        assert all(types[d["id"]] == d["type"] for e in deals for d in e.data["dice"])
        played = [e.data["die"] for e in events if e.kind == "played"]
        assert sorted(played) == sorted(dealt)  # every die played exactly once
        won = [e for e in events if e.kind == "trick_won"]
        discarded = [e for e in events if e.kind == "trick_discarded"]
        assert len(won) + len(discarded) == h  # h tricks, each awarded (or discarded under all_flags=nobody)
        if options.all_flags == "first_roller":
            assert not discarded
        revealed = [i for i, e in enumerate(events) if e.kind == "bids_revealed"]
        first_play = next(i for i, e in enumerate(events) if e.kind == "played")
        assert len(revealed) == 1 and revealed[0] < first_play
        bids = events[revealed[0]].data["bids"]
        (scored,) = [e.data for e in events if e.kind == "hand_scored"]
        assert scored["hand"] == h and scored["discarded"] == len(discarded)
        for row in scored["rows"]:
            p = row["player"]
            taken = sum(1 for e in won if e.data["player"] == p)
            assert row["bid"] == bids[p] and row["tricks"] == taken
            if row["bid"] == 0:
                assert row["base"] == (10 * h if taken == 0 else -10 * h) and row["bonus"] == 0
            elif taken == row["bid"]:
                assert row["base"] == 20 * taken and row["bonus"] >= 0 and row["bonus"] % 10 == 0
                if not options.bonuses_enabled:
                    assert row["bonus"] == 0
            else:
                assert row["base"] == -10 * abs(taken - row["bid"]) and row["bonus"] == 0
            assert row["score"] == row["base"] + row["bonus"]
            totals[p] += row["score"]
            assert row["total"] == totals[p]
        assert sum(row["tricks"] for row in scored["rows"]) == len(won)
    assert totals == state.scores
    outcome = ENGINE.outcome(state)
    assert list(outcome.scores) == totals
    assert sorted(p for place in outcome.ranking for p in place) == list(range(players))
    assert all(totals[p] == max(totals) for p in outcome.winners)
    assert log[-1].kind == "game_over"
    assert ENGINE.loads(ENGINE.dumps(state)) == state


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(3, 6), options=OPTIONS, seed=st.integers(0, 2**32))
def test_random_games_keep_the_rules(players, options, seed):
    check_game(players, options, seed, deep=False)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(3, 6), options=OPTIONS, seed=st.integers(0, 2**32))
def test_random_games_keep_the_contract_deeply(players, options, seed):
    check_game(players, options, seed, deep=True)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(3, 6), seed=st.integers(0, 2**32), data=st.data())
def test_random_forfeits_keep_hands_consistent(players, seed, data):
    """Players leave at random moments; every hand still awards h tricks in all and the game ends."""
    rng = random.Random(seed)
    dice = SeededDice(seed)
    options = data.draw(OPTIONS)
    state, log = ENGINE.new_game(players, options, dice)
    awarded = 0
    leave_at = {rng.randrange(1, 120): p for p in rng.sample(range(players), rng.randint(1, players))}
    step = 0
    while not ENGINE.is_over(state):
        step += 1
        assert step < 5000
        if step in leave_at:
            state, events = ENGINE.forfeit(state, leave_at[step], dice)
        else:
            mover = rng.choice(ENGINE.to_act(state))
            state, events = ENGINE.apply(state, mover, rng.choice(ENGINE.legal_actions(state, mover)), dice)
        log += events
        for e in events:
            if e.kind == "hand_started":
                awarded = 0
            elif e.kind in ("trick_won", "trick_discarded"):
                awarded += 1
            elif e.kind == "hand_scored":
                assert awarded == e.data["hand"]  # h tricks: won (by anyone, leavers included) or discarded
        if state.phase == "playing":
            live = [p for p in range(players) if state.active[p]]
            rolled = {r["player"] for r in state.trick}
            sizes = {len(state.hands[p]) + (p in rolled) for p in live}
            assert len(sizes) == 1  # everyone still in holds the same number of dice
        assert ENGINE.loads(ENGINE.dumps(state)) == state
    outcome = ENGINE.outcome(state)
    assert sorted(p for place in outcome.ranking for p in place) == list(range(players))
    assert all(state.active[p] for p in outcome.winners)
