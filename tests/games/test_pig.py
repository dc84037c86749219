"""Pig: every worked example of docs/rules/pig.md plus option and property tests."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.games.base import IllegalMove, act
from bot.games.dice import ScriptedDice
from bot.games.pig import ENGINE as PIG
from bot.games.pig import HOLD, ROLL, PigOptions, PigView
from tests.games.playout import assert_unchanged_on_illegal, random_playout


def start(players=2, **options):
    state, _ = PIG.new_game(players, PigOptions(**options), ScriptedDice())  # seat 0 starts
    return state


def play(state, *faces_or_hold, player=None):
    """Roll the given faces (one int, or a pair for two dice); 'H' holds."""
    events = []
    for step in faces_or_hold:
        p = state.current if player is None else player
        if step == "H":
            state, ev = PIG.apply(state, p, HOLD, ScriptedDice())
        else:
            faces = step if isinstance(step, tuple) else (step,)
            state, ev = PIG.apply(state, p, ROLL, ScriptedDice(faces))
        events += ev
    return state, events


def test_pig_example_1_sherri_loses_turn_total_on_a_one_P2():
    state, events = play(start(), 3, 6, 6, 6, 4, 5, 6)
    assert state.turn_total == 36
    state, events = play(state, 1)
    assert state.scores == [0, 0]
    assert state.turn_total == 0
    assert state.current == 1
    assert events[0].data["lost"] == 36


def test_pig_example_2_craig_holds_21_P1():
    state, events = play(start(), 6, 3, 4, 2, 6, "H")
    assert state.scores[0] == 21
    assert state.current == 1
    assert [e.kind for e in events][-2:] == ["hold", "turn"]


def test_pig_example_3_first_roll_one_passes_and_hold_before_roll_rejected_P1_DP3():
    state = start()
    error = assert_unchanged_on_illegal(PIG, state, 0, HOLD)
    assert error.code == "hold_before_roll"
    state, _ = play(state, 1)
    assert state.scores == [0, 0] and state.current == 1
    assert PIG.legal_actions(state, 1) == [ROLL]


def test_pig_example_4_auto_hold_at_target_wins_P4():
    state = start()
    state.scores[0] = 95
    state, events = play(state, 6)
    assert state.scores[0] == 101
    assert state.winner == 0
    assert PIG.outcome(state).winners == (0,)
    assert events[-1].kind == "win"


def test_pig_example_4_without_auto_hold_a_one_loses_the_six_P4():
    state = start(auto_hold_at_target=False)
    state.scores[0] = 95
    state, _ = play(state, 6)
    assert state.winner is None and state.turn_total == 6
    state, _ = play(state, 1)
    assert state.scores[0] == 95 and state.current == 1


def test_pig_example_4_without_auto_hold_press_hold_to_win_P4():
    state = start(auto_hold_at_target=False)
    state.scores[0] = 95
    state, _ = play(state, 6, "H")
    assert state.winner == 0 and state.scores[0] == 101


def test_pig_example_5_hold_reaching_exactly_100_wins_P4():
    state = start(auto_hold_at_target=False)
    state.scores[0] = 88
    state, _ = play(state, 6, 6, "H")
    assert state.scores[0] == 100
    assert state.winner == 0


def test_pig_example_6_two_dice_values_P3():
    for faces, gain in [((3, 4), 7), ((5, 5), 20), ((6, 6), 24), ((2, 2), 8)]:
        state, events = play(start(dice=2), faces)
        assert state.turn_total == gain, faces
        assert events[0].data["gain"] == gain
    state, _ = play(start(dice=2), (3, 4), (1, 6))
    assert state.turn_total == 0 and state.current == 1 and state.scores == [0, 0]


def test_pig_example_7_two_dice_snake_eyes_plus_25_and_continue_P3_DP2():
    state, _ = play(start(dice=2), (2, 3), (4, 4), (1, 1))
    assert state.turn_total == 46 and state.current == 0
    state, _ = play(state, "H")
    assert state.scores[0] == 46


def test_pig_example_8_two_dice_lose_score_wipes_banked_score_P3():
    state = start(dice=2, double_ones="lose_score")
    state.scores[0] = 60
    state, _ = play(state, (3, 4), (3, 4))
    assert state.turn_total == 14
    state, events = play(state, (1, 1))
    assert state.scores[0] == 0 and state.turn_total == 0 and state.current == 1
    assert events[0].data["wipe"] is True


def test_pig_example_9_three_players_game_ends_at_once_P4_DP4():
    state = start(players=3, auto_hold_at_target=False)
    state.scores[0] = 97
    state, _ = play(state, 6, "H")
    assert state.winner == 0 and state.scores[0] == 103
    assert PIG.to_act(state) == ()
    error = assert_unchanged_on_illegal(PIG, state, 1, ROLL)
    assert error.code == "game_over"


def test_pig_equal_turns_finishes_the_round_and_ties_keep_playing():
    state = start(players=3, equal_turns=True, auto_hold_at_target=False)
    state.scores = [97, 99, 90]
    state, _ = play(state, 6, "H")  # A 103, but B and C still play this round
    assert state.winner is None and state.current == 1
    state, _ = play(state, 4, "H")  # B 103: a tie with A
    state, _ = play(state, 1)  # C busts: the round ends tied, so play goes on
    assert state.winner is None and state.current == 0
    state, _ = play(state, 2, "H")  # A 105
    state, _ = play(state, 1)
    state, _ = play(state, 1)
    assert state.winner == 0
    assert PIG.outcome(state).ranking == ((0,), (1,), (2,))


def example_10_start(**options):
    """Example 10: two players, target 100, A (seat 0) plays first with 97, B has 95."""
    state = start(equal_turns=True, **options)
    state.scores = [97, 95]
    return state


def test_pig_example_10_no_auto_hold_before_the_last_turn_of_the_round_P4a():
    state, events = play(example_10_start(), 6)  # 103 >= 100, but B still has a turn this round
    assert state.current == 0 and state.turn_total == 6 and state.scores == [97, 95]
    assert [e.kind for e in events] == ["roll"]
    assert PIG.legal_actions(state, 0) == [ROLL, HOLD]
    state, _ = play(state, "H")
    assert state.scores == [103, 95] and state.winner is None and state.current == 1


def test_pig_example_10_no_auto_hold_when_holding_would_lose_then_b_wins_105_103_P4a_P6():
    state, _ = play(example_10_start(), 6, "H")
    state, events = play(state, 6)  # 101 < 103: holding would lose, so B chooses
    assert state.current == 1 and state.turn_total == 6 and state.winner is None
    assert [e.kind for e in events] == ["roll"]
    state, events = play(state, 4)  # 105 > 103 and B is last in the round: automatic hold, B wins
    assert [e.kind for e in events] == ["roll", "hold", "win"]
    assert events[1].data["auto"] is True
    assert state.winner == 1 and state.scores == [103, 105]
    assert PIG.outcome(state).ranking == ((1,), (0,))


def test_pig_example_10_a_tie_is_not_auto_held_and_a_held_tie_plays_another_round_P4a_P6():
    state, _ = play(example_10_start(), 6, "H")
    state, events = play(state, 6, 2)  # 103: a tie with A, no automatic hold
    assert state.turn_total == 8 and state.current == 1 and "hold" not in [e.kind for e in events]
    assert PIG.legal_actions(state, 1) == [ROLL, HOLD]
    state, _ = play(state, "H")  # the round ends tied 103-103: both play another round
    assert state.winner is None and state.scores == [103, 103] and state.current == 0


def test_pig_example_10_b_busts_and_a_wins_103_95_at_the_end_of_the_round_P6():
    state, _ = play(example_10_start(), 6, "H")
    state, events = play(state, 6, 1)
    assert events[-1].kind == "win" and state.winner == 0
    assert state.scores == [103, 95]


def test_pig_example_10_without_equal_turns_a_first_six_auto_holds_and_wins_P4():
    state = start()
    state.scores = [97, 95]
    state, events = play(state, 6)
    assert state.winner == 0 and state.scores == [103, 95]
    assert [e.kind for e in events] == ["roll", "hold", "win"]


def test_pig_example_11_ties_keep_playing_every_active_player_plays_another_round_P6_P4a():
    state = start(players=3, equal_turns=True)
    state.scores = [97, 99, 60]
    state, _ = play(state, 6, "H")  # A 103 (not last in the round: no automatic hold)
    state, _ = play(state, 4, "H")  # B 103
    state, _ = play(state, 1)  # C stays at 60: the round ends A 103, B 103, C 60
    assert state.scores == [103, 103, 60] and state.winner is None and state.current == 0
    state, _ = play(state, 1)  # A stays 103
    state, _ = play(state, 1)  # B stays 103
    assert state.current == 2 and state.winner is None
    state, events = play(state, *[6] * 7)  # 60 + 42 = 102: past the target but not above 103
    assert state.turn_total == 42 and state.current == 2 and state.winner is None
    assert "hold" not in [e.kind for e in events]
    state, events = play(state, 6)  # 108 > 103, C last in the round: automatic hold, C wins
    assert [e.kind for e in events] == ["roll", "hold", "win"] and events[1].data["auto"] is True
    assert state.winner == 2 and state.scores == [103, 103, 108]
    assert PIG.outcome(state).ranking == ((2,), (0, 1))


def test_pig_no_auto_hold_under_equal_turns_keeps_a_forced_reroll_after_doubles_P4a():
    state = start(dice=2, equal_turns=True, must_roll_after_doubles=True)
    state.scores = [90, 0]
    state, events = play(state, (5, 5))  # 110 >= 100, but B still plays this round: no automatic hold
    assert [e.kind for e in events] == ["roll"] and state.turn_total == 20
    assert PIG.legal_actions(state, 0) == [ROLL]


def test_pig_double_ones_bust_is_like_a_single_one():
    state, _ = play(start(dice=2, double_ones="bust"), (3, 4), (1, 1))
    assert state.turn_total == 0 and state.current == 1


def test_pig_doubles_multiplier_one():
    state, _ = play(start(dice=2, doubles_multiplier=1), (5, 5))
    assert state.turn_total == 10


def test_pig_must_roll_after_doubles():
    state, _ = play(start(dice=2, must_roll_after_doubles=True), (3, 3))
    assert PIG.legal_actions(state, 0) == [ROLL]
    assert assert_unchanged_on_illegal(PIG, state, 0, HOLD).code == "must_roll_after_doubles"
    state, _ = play(state, (2, 3))
    assert PIG.legal_actions(state, 0) == [ROLL, HOLD]


def test_pig_out_of_turn_and_unknown_moves_are_refused():
    state = start()
    assert assert_unchanged_on_illegal(PIG, state, 1, ROLL).code == "not_your_turn"
    assert assert_unchanged_on_illegal(PIG, state, 0, act("claim", 21)).code == "illegal_action"


def test_pig_timeout_holds_after_a_roll_and_passes_before_one():
    state, _ = play(start(), 5)
    state, events = PIG.timeout(state, 0, ScriptedDice())
    assert state.scores[0] == 5 and state.current == 1
    state, events = PIG.timeout(state, 1, ScriptedDice())
    assert state.scores == [5, 0] and state.current == 0
    assert events[0].kind == "timeout"


def test_pig_forfeit_skips_the_player_and_last_one_wins():
    state = start(players=3)
    state, _ = PIG.forfeit(state, 0, ScriptedDice())
    assert state.current == 1
    state, _ = play(state, 4, "H")
    assert state.current == 2
    state, _ = play(state, 1)
    assert state.current == 1
    state, events = PIG.forfeit(state, 2, ScriptedDice())
    assert state.winner == 1
    assert PIG.outcome(state).ranking[-1] in ((0, 2), (2,), (0,))


@pytest.mark.parametrize(
    "bad", [{"dice": 3}, {"target": 10}, {"target": 501}, {"double_ones": "x"}, {"doubles_multiplier": 3}]
)
def test_pig_invalid_options_name_the_option(bad):
    with pytest.raises(ValueError, match=next(iter(bad))):
        PIG.options(bad)


pig_options = st.builds(
    PigOptions,
    dice=st.sampled_from([1, 2]),
    target=st.sampled_from([20, 50, 100]),
    double_ones=st.sampled_from(["plus25", "lose_score", "bust"]),
    doubles_multiplier=st.sampled_from([1, 2]),
    must_roll_after_doubles=st.booleans(),
    auto_hold_at_target=st.booleans(),
    equal_turns=st.booleans(),
)


def check_equal_turns_step(before, player, after, events) -> None:
    """P-4a / P-6: a win comes only at the end of a round with a sole highest score >= target, and the
    automatic hold happens exactly when holding wins (last in the round, strictly highest, target reached)."""
    kinds = [e.kind for e in events]
    others = [i for i in range(len(before.scores)) if before.active[i] and i != player]
    last_in_round = all(before.turns[i] == before.turns[player] + 1 for i in others)
    roll = events[0] if kinds and kinds[0] == "roll" else None
    if roll is not None and not roll.data["bust"] and before.options.auto_hold_at_target:
        total = before.scores[player] + roll.data["turn_total"]
        wins = last_in_round and total >= before.options.target and all(total > before.scores[i] for i in others)
        assert ("hold" in kinds) == wins, (kinds, total, before.scores, before.turns)
    for e in events:
        if e.kind == "hold" and e.data["auto"]:
            assert kinds[-1] == "win" and events[-1].data["player"] == player
    if "win" in kinds and sum(after.active) > 1:
        live = [i for i in range(len(after.scores)) if after.active[i]]
        assert len({after.turns[i] for i in live}) == 1, "a win before the end of the round"
        top = sorted((after.scores[i] for i in live), reverse=True)
        assert top[0] >= after.options.target and top[0] > top[1]


@settings(max_examples=200, deadline=None)
@given(options=pig_options, players=st.integers(2, 8), seed=st.integers(0, 2**32))
def test_pig_random_games_properties(options, players, seed):
    """Terminates with one winner; banked scores equal the sum of holds (minus wipes)."""
    banked = [0] * players

    def check(before, player, action, after, events):
        for e in events:
            if e.kind == "hold":
                banked[e.data["player"]] += e.data["banked"]
            if e.kind == "roll" and e.data["wipe"]:
                banked[e.data["player"]] = 0
        assert after.scores == banked
        assert all(s >= 0 for s in after.scores)
        if options.equal_turns:
            check_equal_turns_step(before, player, after, events)

    state, log, _ = random_playout(PIG, players, options, seed, check=check, deep=seed % 8 == 0)
    outcome = PIG.outcome(state)
    assert len(outcome.winners) == 1
    winner = outcome.winners[0]
    assert state.scores[winner] >= options.target
    if not options.equal_turns:
        assert sum(s >= options.target for s in state.scores) == 1
    assert sum(e.kind == "win" for e in log) == 1


def test_pig_hold_is_refused_for_illegal_states():
    with pytest.raises(IllegalMove):
        PIG.apply(start(), 0, HOLD, ScriptedDice())


def test_the_view_is_the_whole_state_plus_the_viewer_and_their_moves():
    """Pig hides nothing: its view carries exactly the state's fields (``to_json``), plus ``you`` and ``legal``."""
    state, _ = play(start(3, dice=2), (3, 4), (5, 2))
    assert PIG.view(state, 1) == {**PIG.to_json(state), "you": 1, "legal": []}
    assert PIG.view(state, 0) == {**PIG.to_json(state), "you": 0, "legal": ["roll", "hold"]}
    assert PIG.view(state, None) == {**PIG.to_json(state), "you": None, "legal": []}
    assert set(PIG.view(state, None)) == set(PigView.__annotations__)
