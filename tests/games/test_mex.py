"""Mex: every worked example of rules/mex.md §9, plus options, illegal moves, timeout, forfeit and views."""

from __future__ import annotations

import json

import pytest

from bot.games.base import Action, IllegalMove, InvalidOptions, act
from bot.games.dice import ScriptedDice, SeededDice
from bot.games.mex import END_ROUND, MEX, STAND, THROW, MexOptions, MexView, mex_value, penalty, pips_value
from bot.games.mex import ENGINE as MEX_ENGINE
from bot.render import error_text
from bot.render import mex as render
from tests.games.playout import assert_unchanged_on_illegal, random_playout

A, B, C, D = range(4)
SEATS = {"A": A, "B": B, "C": C, "D": D}
THREE_WAY_TIE = ("A 31", "A stand", "B 31", "B stand", "C 31", "C stand", "D 65")  # example 7


def faces_of(value: int) -> tuple[int, ...]:
    """Two faces that make ``value`` under mex counting (MEX, 100..600, 31..65)."""
    if value == MEX:
        return (2, 1)
    if value >= 100:
        return (value // 100,) * 2
    return (value // 10, value % 10)


def start(players=3, **options):
    state, _ = MEX_ENGINE.new_game(players, MexOptions(**options), ScriptedDice())  # seat 0 (A) starts
    return state


def play(state, *steps):
    """Steps like "A 42" (throw a 42), "A MEX", "B 2,5" (throw these faces), "C stand", "B choose:pips"."""
    events = []
    for step in steps:
        seat, what = step.split()
        if what == "MEX":
            action, faces = THROW, faces_of(MEX)
        elif "," in what:
            action, faces = THROW, tuple(int(f) for f in what.split(",") if f)
        elif what.isdigit():
            action, faces = THROW, faces_of(int(what))
        else:
            action, faces = Action.parse(what), ()
        dice = ScriptedDice(faces)
        state, new = MEX_ENGINE.apply(state, SEATS[seat], action, dice)
        assert dice.faces == [], f"{step}: unused scripted faces {dice.faces}"
        events += new
    return state, events


def kinds(events):
    return [e.kind for e in events]


def first(events, kind):
    return next(e for e in events if e.kind == kind)


def last(events, kind):
    return [e for e in events if e.kind == kind][-1]


def points_deltas(events):
    return [e.data["deltas"] for e in events if e.kind == "points"]


def edited(state, **changes):
    """A state changed through the public JSON form (for set-ups mid-game)."""
    data = MEX_ENGINE.to_json(state)
    for key, value in changes.items():
        if key.startswith("round_"):
            data["round"][key.removeprefix("round_")] = value
        else:
            data[key] = value
    return MEX_ENGINE.from_json(data)


# --- §9 worked examples --------------------------------------------------------------------------


def test_mex_example_1_values_MX_V1_MX_V2_MX_V3():
    assert mex_value((3, 6)) == mex_value((6, 3)) == 63
    assert mex_value((4, 4)) == 400
    assert mex_value((1, 1)) == 100 > mex_value((6, 5)) == 65
    assert mex_value((1, 2)) == MEX > mex_value((6, 6)) == 600
    every = sorted({mex_value((a, b)) for a in range(1, 7) for b in range(1, 7)})
    assert len(every) == 21 and every[0] == mex_value((1, 3)) == 31
    assert every == [31, 32, 41, 42, 43, 51, 52, 53, 54, 61, 62, 63, 64, 65, 100, 200, 300, 400, 500, 600, MEX]
    assert pips_value((2, 5)) == 7 and pips_value((1, 2)) == 3 and pips_value((6, 6)) == 12


def test_mex_example_2_throw_limit_b_at_the_limit_chooses_stand_MX_3_MX_3a_MX_3b():
    state, events = play(start(3), "A 62", "A 500", "A stand")
    assert state.round.final[A] == 500
    assert first(events, "limit_set").data == {"player": A, "limit": 2}
    state, events = play(state, "B 31", "B 41")
    # MX-3b: limit reached, no third throw; no Mex yet and C still to throw, so B's turn stays open.
    assert "stand" not in kinds(events) and MEX_ENGINE.to_act(state) == (B,)
    assert MEX_ENGINE.legal_actions(state, B) == [STAND, END_ROUND]
    assert assert_unchanged_on_illegal(MEX_ENGINE, state, B, THROW).code == "throw_limit_reached"
    state, events = play(state, "B stand")
    assert state.round.final[B] == 41
    assert MEX_ENGINE.to_act(state) == (C,)
    state, events = play(state, "C 54", "C stand")
    over = first(events, "round_over").data
    assert over["loser"] == B and over["penalty"] == 1
    assert state.lives == [12, 11, 12]
    assert points_deltas(events) == [[1, -1, 1]]
    assert state.round.starter == B and MEX_ENGINE.to_act(state) == (B,)


def test_mex_example_2_c_at_the_limit_with_nobody_after_ends_the_turn_by_itself_MX_3b():
    state, _ = play(start(3), "A 62", "A 500", "A stand", "B 31", "B 41", "B stand", "C 54")
    assert MEX_ENGINE.legal_actions(state, C) == [THROW, STAND]  # one throw left; nobody after C
    state, events = play(state, "C 63")
    assert last(events, "stand").data == {"player": C, "value": 63, "throws": 2, "reason": "limit"}
    assert first(events, "round_over").data["loser"] == B


def test_mex_example_2_b_at_the_limit_ends_the_round_instead_MX_3b_MX_5():
    state, _ = play(start(3), "A 62", "A 500", "A stand", "B 31", "B 41")
    state, events = play(state, "B end_round")
    assert first(events, "end_round").data == {"player": B, "value": 41, "counted": 41, "skipped": [C]}
    assert "throw" not in kinds(events)  # C does not throw
    assert first(events, "life_lost").data == {"player": B, "lost": 1, "lives": 11}
    assert points_deltas(events) == [[1, -1, 1]]  # C survives without throwing: +1


def test_mex_example_2_the_last_throw_counts_MX_2b_MX_3b():
    state, events = play(start(3), "A 600", "A 31", "A 43")
    # At 3 throws A may not throw again; B is still to throw and no Mex: A chooses stand or end_round.
    assert "stand" not in kinds(events)
    assert MEX_ENGINE.legal_actions(state, A) == [STAND, END_ROUND]
    assert assert_unchanged_on_illegal(MEX_ENGINE, state, A, THROW).code == "throw_limit_reached"
    state, events = play(state, "A stand")
    assert state.round.final[A] == 43
    assert state.round.throw_limit == 3


def test_mex_limit_reached_ends_the_turn_when_it_cannot_end_the_round_MX_3a_MX_3b():
    state, events = play(start(3), "A MEX", "B 32")
    assert last(events, "stand").data == {"player": B, "value": 32, "throws": 1, "reason": "limit"}
    state, events = play(start(3, allow_end_round_early=False), "A 42", "A stand", "B 41")
    assert last(events, "stand").data["reason"] == "limit" and MEX_ENGINE.to_act(state) == (C,)
    state, events = play(start(3, mex_ends_turn=False), "A 42", "A stand", "B MEX")  # a Mex closes end_round
    assert last(events, "stand").data == {"player": B, "value": MEX, "throws": 1, "reason": "limit"}


def test_mex_decision_5_the_starter_at_max_throws_may_end_the_round_MX_3b_MX_5():
    state, _ = play(start(3), "A 42", "A 41", "A 31")
    assert MEX_ENGINE.legal_actions(state, A) == [STAND, END_ROUND]
    state, events = play(state, "A end_round")
    assert first(events, "end_round").data == {"player": A, "value": 31, "counted": 31, "skipped": [B, C]}
    assert first(events, "life_lost").data == {"player": A, "lost": 1, "lives": 11}


def test_mex_example_3_one_mex_MX_4_MX_R2_MX_P1():
    state, events = play(start(3), "A MEX")
    assert first(events, "stand").data["reason"] == "mex"
    assert state.round.throw_limit == 1 and state.round.mex_count == 1
    assert MEX_ENGINE.to_act(state) == (B,)
    state, events = play(state, "B 32", "C 54")  # limit 1: each turn ends after one throw
    over = first(events, "round_over").data
    assert over["loser"] == B and over["penalty"] == 2 and over["mex_count"] == 1
    assert state.lives == [12, 10, 12]
    assert points_deltas(events) == [[3, -1, 1]]


def test_mex_example_4_several_mexes_MX_R2():
    state, events = play(start(4), "A MEX", "B MEX", "C 41", "D 500")
    assert first(events, "round_over").data["loser"] == C
    assert first(events, "life_lost").data == {"player": C, "lost": 4, "lives": 8}
    assert points_deltas(events) == [[3, 3, -1, 1]]


def test_mex_example_4_three_mexes_cost_six_MX_R2():
    state, events = play(start(4), "A MEX", "B MEX", "C MEX", "D 41")
    assert first(events, "life_lost").data == {"player": D, "lost": 6, "lives": 6}


@pytest.mark.parametrize(("mode", "lost"), [("seed", 4), ("additive", 3), ("double_once", 2), ("doubling", 4)])
def test_mex_example_4_other_penalty_settings_for_two_mexes_MX_R2(mode, lost):
    state, events = play(start(4, mex_penalty=mode), "A MEX", "B MEX", "C 41", "D 500")
    assert first(events, "life_lost").data == {"player": C, "lost": lost, "lives": 12 - lost}


def test_mex_penalty_table_MX_R2():
    assert [penalty("seed", m) for m in range(4)] == [1, 2, 4, 6]
    assert [penalty("additive", m) for m in range(4)] == [1, 2, 3, 4]
    assert [penalty("double_once", m) for m in range(4)] == [1, 2, 2, 2]
    assert [penalty("doubling", m) for m in range(4)] == [1, 2, 4, 8]


def test_mex_example_5_tie_extra_round_pips_chosen_MX_T1_MX_T2_MX_V3():
    state, events = play(start(3), "A 41", "A stand", "B 41", "B stand", "C 300")
    assert first(events, "tiebreak").data == {"players": [A, B], "chooser": B, "mode": None, "depth": 1, "value": 41}
    assert MEX_ENGINE.to_act(state) == (B,)
    assert MEX_ENGINE.legal_actions(state, B) == [act("choose", "mex"), act("choose", "pips")]
    state, events = play(state, "B choose:pips", "A 2,5", "B 1,2")
    throws = [e.data for e in events if e.kind == "throw"]
    assert [(t["player"], t["value"], t["mode"], t["extra"], t["mex"]) for t in throws] == [
        (A, 7, "pips", 1, False),
        (B, 3, "pips", 1, False),
    ]
    assert first(events, "life_lost").data == {"player": B, "lost": 1, "lives": 11}
    assert points_deltas(events) == [[1, -1, 1]]
    assert state.round.starter == B


def test_mex_example_6_a_mex_in_the_extra_round_adds_nothing_MX_T5():
    state, events = play(start(3), "A MEX", "B 52", "C 52")
    assert first(events, "tiebreak").data["chooser"] == C
    state, events = play(state, "C choose:mex", "B 2,1", "C 6,6")
    assert [e.data["value"] for e in events if e.kind == "throw"] == [MEX, 600]
    assert first(events, "life_lost").data == {"player": C, "lost": 2, "lives": 10}
    assert points_deltas(events) == [[3, 1, -1]]


def test_mex_example_7_chained_extra_rounds_MX_T4():
    state, events = play(start(4), *THREE_WAY_TIE)
    assert first(events, "tiebreak").data["players"] == [A, B, C]
    assert first(events, "tiebreak").data["chooser"] == C
    state, events = play(state, "C choose:mex", "A 4,4", "B 31", "C 31")
    assert first(events, "tiebreak").data == {"players": [B, C], "chooser": C, "mode": None, "depth": 2, "value": 31}
    state, events = play(state, "C choose:mex", "B 53", "C 42")
    assert first(events, "life_lost").data == {"player": C, "lost": 1, "lives": 11}
    assert points_deltas(events) == [[1, 1, -1, 1]]


def test_mex_example_8_ending_early_as_the_lowest_MX_5():
    state, events = play(start(4), "A 500", "A stand", "B 32")
    assert END_ROUND in MEX_ENGINE.legal_actions(state, B)
    state, events = play(state, "B end_round")
    assert first(events, "end_round").data == {"player": B, "value": 32, "counted": 32, "skipped": [C, D]}
    assert first(events, "life_lost").data == {"player": B, "lost": 1, "lives": 11}
    assert first(events, "round_over").data["ended_early_by"] == B
    assert points_deltas(events) == [[1, -1, 1, 1]]
    assert "tiebreak" not in kinds(events)


def test_mex_example_9_ending_early_on_an_equal_lowest_MX_3b_MX_5():
    state, _ = play(start(4), "A 42", "A stand", "B 61")  # limit 1: B at the limit, C and D still to throw
    assert MEX_ENGINE.legal_actions(state, B) == [STAND, END_ROUND]
    state, _ = play(state, "B stand", "C 42")
    assert MEX_ENGINE.to_act(state) == (C,) and MEX_ENGINE.legal_actions(state, C) == [STAND, END_ROUND]
    state, events = play(state, "C end_round")
    assert first(events, "end_round").data["skipped"] == [D]
    assert first(events, "end_round").data["counted"] == 41
    assert "tiebreak" not in kinds(events)
    assert first(events, "life_lost").data == {"player": C, "lost": 1, "lives": 11}


def test_mex_example_10_no_early_end_after_a_mex_MX_5():
    state, events = play(start(4), "A 500", "A 600", "A stand")
    assert state.round.throw_limit == 2
    state, events = play(state, "B MEX", "C 31")
    assert first(events, "stand").data["reason"] == "mex"
    assert MEX_ENGINE.legal_actions(state, C) == [THROW, STAND]
    assert assert_unchanged_on_illegal(MEX_ENGINE, state, C, END_ROUND).code == "mex_thrown"
    state, _ = play(state, "C stand")
    assert MEX_ENGINE.to_act(state) == (D,)
    state, _ = play(state, "D 54")
    assert MEX_ENGINE.legal_actions(state, D) == [THROW, STAND]


def test_mex_example_11_elimination_and_last_player_standing_MX_E1_MX_P2():
    state = edited(start(3, starting_lives=3), lives=[1, 3, 0], out=[C], round_order=[A, B])
    state, events = play(state, "A 43", "A stand", "B 62")
    assert first(events, "life_lost").data == {"player": A, "lost": 1, "lives": 0}
    assert first(events, "eliminated").data == {"player": A, "place": 2}
    assert points_deltas(events) == [[-1, 1, 0], [0, 5, 0]]
    assert events[-1].kind == "game_over" and events[-1].data["winner"] == B
    outcome = MEX_ENGINE.outcome(state)
    assert outcome.ranking == ((B,), (A,), (C,))
    assert outcome.scores == (-1, 6, 0)
    assert MEX_ENGINE.to_act(state) == ()
    assert assert_unchanged_on_illegal(MEX_ENGINE, state, B, THROW).code == "game_over"


def test_mex_example_12_next_starter_when_the_loser_is_eliminated_MX_1a():
    state, events = play(start(4, starting_lives=1), "A 500", "A stand", "B 31", "B stand", "C 54", "C stand", "D 65")
    assert first(events, "eliminated").data["player"] == B
    assert first(events, "round_start").data["starter"] == C
    assert state.round.order == [C, D, A]
    assert MEX_ENGINE.to_act(state) == (C,)


# --- options -------------------------------------------------------------------------------------


def test_options_defaults_follow_the_rules_table():
    assert MexOptions().to_dict() == {
        "starting_lives": 12,
        "max_throws": 3,
        "mex_penalty": "seed",
        "allow_end_round_early": True,
        "tiebreak_mode_choice": "chooser",
        "first_starter": "random",
        "mex_ends_turn": True,
        "points_enabled": True,
        "mex_passes_lead": False,
        "hold_one_or_two": False,
    }
    assert MEX_ENGINE.options({"starting_lives": "5", "hold_one_or_two": "yes"}) == MexOptions(
        starting_lives=5, hold_one_or_two=True
    )


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("starting_lives", 0),
        ("starting_lives", 100),
        ("max_throws", 0),
        ("max_throws", 4),
        ("mex_penalty", "triple"),
        ("tiebreak_mode_choice", "coin"),
        ("first_starter", "oldest"),
        ("allow_end_round_early", 1),
        ("mex_ends_turn", "true"),
        ("points_enabled", None),
        ("mex_passes_lead", 0),
        ("hold_one_or_two", "x"),
    ],
)
def test_options_reject_bad_values_naming_the_option(option, value):
    with pytest.raises(InvalidOptions, match=option) as info:
        MexOptions(**{option: value})
    assert info.value.option == option


@pytest.mark.parametrize("option", ["hold_one_or_two", "mex_passes_lead"])
def test_options_reject_variants_that_need_a_second_throw(option):
    with pytest.raises(InvalidOptions, match=option):
        MexOptions(max_throws=1, **{option: True})
    MexOptions(max_throws=2, **{option: True})


def test_player_count_2_to_10():
    for players in (1, 11):
        with pytest.raises(IllegalMove, match="^player_count") as refused:
            MEX_ENGINE.new_game(players, MexOptions(), SeededDice(0))
        assert refused.value.params == {"lo": 2, "hi": 10}
        assert error_text(refused.value, "en", "mex") == "This game takes 2 to 10 players."
    assert MEX_ENGINE.player_range(MexOptions()) == (2, 10)


def test_first_starter_random_uses_the_dice_MX_1():
    state, events = MEX_ENGINE.new_game(4, MexOptions(), ScriptedDice(samples=[[2]]))
    assert events[0].data == {"players": 4, "starter": C, "lives": 12}
    assert state.round.order == [C, D, A, B]
    assert kinds(events) == ["start", "round_start", "turn"]


@pytest.mark.parametrize("how", ["host", "seat1"])
def test_first_starter_host_or_seat1_is_seat_0_MX_1(how):
    state, _ = MEX_ENGINE.new_game(4, MexOptions(first_starter=how), ScriptedDice(samples=[[2]]))
    assert state.round.starter == A


# --- legal moves and illegal-move codes -------------------------------------------------------------


def test_legal_actions_in_a_normal_turn_MX_2_MX_2a():
    state = start(3)
    assert MEX_ENGINE.legal_actions(state, A) == [THROW]
    assert MEX_ENGINE.legal_actions(state, B) == []
    state, _ = play(state, "A 42")
    assert MEX_ENGINE.legal_actions(state, A) == [THROW, STAND, END_ROUND]


@pytest.mark.parametrize("action", [STAND, END_ROUND])
def test_must_throw_first_MX_2(action):
    assert assert_unchanged_on_illegal(MEX_ENGINE, start(3), A, action).code == "must_throw_first"


def test_not_your_turn_and_unknown_moves():
    state = start(3)
    assert assert_unchanged_on_illegal(MEX_ENGINE, state, B, THROW).code == "not_your_turn"
    for action in (Action("no_such_move"), act("throw", 2), act("stand", "now")):
        assert assert_unchanged_on_illegal(MEX_ENGINE, state, A, action).code == "illegal_action"


def test_end_round_switched_off_MX_5():
    state, _ = play(start(3, allow_end_round_early=False), "A 42")
    assert MEX_ENGINE.legal_actions(state, A) == [THROW, STAND]
    assert assert_unchanged_on_illegal(MEX_ENGINE, state, A, END_ROUND).code == "end_round_disabled"


def test_the_last_player_cannot_end_the_round_MX_5():
    state, _ = play(start(3), "A 42", "A 43", "A stand", "B 52", "B stand", "C 31")
    assert END_ROUND not in MEX_ENGINE.legal_actions(state, C)
    assert assert_unchanged_on_illegal(MEX_ENGINE, state, C, END_ROUND).code == "nobody_left_to_throw"


def test_at_the_limit_no_hold_MX_3a():
    state, _ = play(start(3, hold_one_or_two=True), "A 42", "A stand", "B 1,5")
    assert MEX_ENGINE.legal_actions(state, B) == [STAND, END_ROUND]
    assert assert_unchanged_on_illegal(MEX_ENGINE, state, B, act("hold", 1)).code == "hold_no_throws_left"


def test_extra_round_codes_MX_T2_MX_T3():
    state, _ = play(start(3), "A 41", "A stand", "B 41", "B stand", "C 300")
    assert assert_unchanged_on_illegal(MEX_ENGINE, state, B, THROW).code == "must_choose_mode"
    assert assert_unchanged_on_illegal(MEX_ENGINE, state, B, act("choose", "dice")).code == "bad_mode"
    assert assert_unchanged_on_illegal(MEX_ENGINE, state, A, act("choose", "mex")).code == "not_chooser"
    state, _ = play(state, "B choose:mex")
    assert MEX_ENGINE.legal_actions(state, A) == [THROW]
    for action in (STAND, END_ROUND, act("hold", 1)):
        assert assert_unchanged_on_illegal(MEX_ENGINE, state, A, action).code == "extra_round_throw_only"
    assert assert_unchanged_on_illegal(MEX_ENGINE, state, A, act("choose", "pips")).code == "not_choosing"


def test_another_player_choosing_learns_who_picks_MX_T2():
    state, _ = play(start(3), "A 41", "A stand", "B 41", "B stand", "C 300")  # A and B tie; B threw last
    for seat in (A, C):  # a tied player and one outside the extra round
        for action in (act("choose", "mex"), act("choose", "pips"), act("choose", "dice")):
            error = assert_unchanged_on_illegal(MEX_ENGINE, state, seat, action)
            assert (error.code, error.params) == ("not_chooser", {"chooser": B})
    assert assert_unchanged_on_illegal(MEX_ENGINE, state, A, THROW).code == "not_your_turn"  # only choose:* is named
    state, _ = play(state, "B choose:pips")
    assert assert_unchanged_on_illegal(MEX_ENGINE, state, C, act("choose", "mex")).code == "not_your_turn"


def test_the_not_chooser_refusal_reads_with_names():
    state, _ = play(start(3), "A 41", "A stand", "B 41", "B stand", "C 300")
    error = assert_unchanged_on_illegal(MEX_ENGINE, state, A, act("choose", "mex"))
    named = error_text(error, "en", "mex", ["alice", "bob", "carol"])
    assert named == "Only **bob**, the last tied player, picks how the extra round is counted."
    assert error_text(error, "en", "mex") == "Only 1, the last tied player, picks how the extra round is counted."
    assert error.params == {"chooser": B}  # the names are drawn into a copy


def test_choose_outside_an_extra_round_is_refused():
    assert assert_unchanged_on_illegal(MEX_ENGINE, start(3), A, act("choose", "mex")).code == "not_choosing"


# --- the round -----------------------------------------------------------------------------------


def test_the_starter_may_end_the_round_and_loses_alone_MX_5():
    state, events = play(start(3), "A 31", "A end_round")
    assert first(events, "end_round").data == {"player": A, "value": 31, "counted": 31, "skipped": [B, C]}
    assert first(events, "life_lost").data == {"player": A, "lost": 1, "lives": 11}
    assert points_deltas(events) == [[-1, 1, 1]]


def test_ending_early_when_not_lowest_leaves_the_earlier_tie_MX_5():
    state, events = play(start(4), "A 41", "A stand", "B 41", "B stand", "C 500", "C end_round")
    assert first(events, "end_round").data["counted"] == 500
    assert first(events, "tiebreak").data["players"] == [A, B]
    state, events = play(state, "B choose:mex", "A 32", "B 31")
    assert first(events, "life_lost").data["player"] == B
    assert points_deltas(events) == [[1, -1, 1, 1]]


def test_ending_early_on_a_three_way_low_loses_alone_MX_5():
    state, events = play(start(4), "A 41", "A stand", "B 41", "B stand", "C 41", "C end_round")
    assert first(events, "end_round").data["counted"] == 40
    assert first(events, "life_lost").data["player"] == C


@pytest.mark.parametrize(("mode", "value"), [("always_mex", 43), ("always_pips", 7)])
def test_fixed_extra_round_counting_skips_the_choice(mode, value):
    state, events = play(start(3, tiebreak_mode_choice=mode), "A 41", "A stand", "B 41", "B stand", "C 300")
    tiebreak = first(events, "tiebreak").data
    assert tiebreak["mode"] == mode.removeprefix("always_")
    assert MEX_ENGINE.to_act(state) == (A,)
    assert MEX_ENGINE.legal_actions(state, A) == [THROW]
    state, events = play(state, "A 4,3")
    assert first(events, "throw").data["value"] == value


def test_mex_does_not_end_the_turn_when_switched_off_MX_4():
    state, events = play(start(3, mex_ends_turn=False), "A MEX")
    assert MEX_ENGINE.legal_actions(state, A) == [THROW, STAND]
    state, events = play(state, "A 63", "A stand")
    assert state.round.throw_limit == 2 and state.round.final[A] == 63 and state.round.mex_count == 1
    state, events = play(state, "B 41", "B MEX", "C 31", "C 32")
    assert first(events, "life_lost").data == {"player": C, "lost": 4, "lives": 8}
    assert points_deltas(events) == [[3, 3, -1]]


def test_mex_passes_lead_makes_the_next_player_set_the_limit():
    state, events = play(start(3, mex_passes_lead=True), "A MEX")
    assert first(events, "lead_passed").data == {"player": A, "to": B}
    assert state.round.throw_limit is None
    state, events = play(state, "B 41", "B 52", "B stand")
    assert first(events, "limit_set").data == {"player": B, "limit": 2}
    state, events = play(state, "C 31", "C 32")
    assert first(events, "life_lost").data == {"player": C, "lost": 2, "lives": 10}


def test_without_mex_passes_lead_a_first_throw_mex_sets_limit_one_MX_3():
    state, events = play(start(3), "A MEX")
    assert "lead_passed" not in kinds(events)
    assert first(events, "limit_set").data == {"player": A, "limit": 1}


def test_hold_one_or_two_keeps_a_die_for_the_rest_of_the_turn():
    state, _ = play(start(3, hold_one_or_two=True), "A 1,5")
    assert MEX_ENGINE.legal_actions(state, A) == [THROW, STAND, END_ROUND, act("hold", 1)]
    assert assert_unchanged_on_illegal(MEX_ENGINE, state, A, act("hold", 2)).code == "hold_no_such_die"
    state, events = play(state, "A hold:1")
    assert first(events, "hold").data == {"player": A, "face": 1}
    assert MEX_ENGINE.legal_actions(state, A) == [THROW]
    assert assert_unchanged_on_illegal(MEX_ENGINE, state, A, STAND).code == "must_throw_after_hold"
    state, events = play(state, "A 4,")  # one die only: the kept 1 stays
    assert first(events, "throw").data["faces"] == [1, 4] and first(events, "throw").data["held"] == 1
    assert assert_unchanged_on_illegal(MEX_ENGINE, state, A, act("hold", 1)).code == "hold_used"
    state, events = play(state, "A 2,")
    assert first(events, "throw").data["value"] == MEX
    assert state.round.final[A] == MEX and state.round.held is None


def test_hold_is_refused_when_switched_off():
    state, _ = play(start(3), "A 1,5")
    assert assert_unchanged_on_illegal(MEX_ENGINE, state, A, act("hold", 1)).code == "hold_disabled"


def test_points_switched_off_scores_by_lives():
    state = start(2, starting_lives=1, points_enabled=False)
    state, events = play(state, "A 43", "A stand", "B 62")
    assert "points" not in kinds(events)
    assert state.points == [0, 0]
    assert MEX_ENGINE.outcome(state).scores == (0, 1)


# --- timeout ---------------------------------------------------------------------------------------


def test_timeout_throws_once_then_stands():
    state, events = MEX_ENGINE.timeout(start(3), A, ScriptedDice(faces_of(42)))
    assert kinds(events) == ["timeout", "throw", "stand", "limit_set", "turn"]
    assert first(events, "stand").data["reason"] == "timeout"
    assert state.round.final[A] == 42 and state.round.throw_limit == 1


def test_timeout_after_a_throw_just_stands():
    state, _ = play(start(3), "A 42", "A 52")
    state, events = MEX_ENGINE.timeout(state, A, ScriptedDice())  # no dice needed
    assert state.round.final[A] == 52 and state.round.throw_limit == 2


def test_timeout_on_a_mex_ends_the_turn_once():
    state, events = MEX_ENGINE.timeout(start(3), A, ScriptedDice(faces_of(MEX)))
    assert kinds(events).count("stand") == 1 and MEX_ENGINE.to_act(state) == (B,)


def test_timeout_that_ends_the_round_leaves_the_next_round_alone():
    state, _ = play(start(2), "A 500", "A stand")
    state, events = MEX_ENGINE.timeout(state, B, ScriptedDice(faces_of(31)))
    assert kinds(events).count("stand") == 1 and "round_over" in kinds(events)
    assert state.round.number == 2 and state.round.throws[B] == [] and MEX_ENGINE.to_act(state) == (B,)


def test_timeout_after_a_hold_stands():
    state, _ = play(start(3, hold_one_or_two=True), "A 2,5", "A hold:2")
    state, _ = MEX_ENGINE.timeout(state, A, ScriptedDice())
    assert state.round.final[A] == 52


def test_timeout_of_the_chooser_picks_mex_MX_T2():
    state, _ = play(start(3), "A 41", "A stand", "B 41", "B stand", "C 300")
    state, events = MEX_ENGINE.timeout(state, B, ScriptedDice())
    assert first(events, "choose").data == {"player": B, "mode": "mex"}
    state, events = MEX_ENGINE.timeout(state, A, ScriptedDice((6, 6)))
    assert first(events, "throw").data["value"] == 600


def test_timeout_of_someone_else_is_refused():
    with pytest.raises(IllegalMove, match="^not_your_turn$"):
        MEX_ENGINE.timeout(start(3), B, ScriptedDice())


# --- forfeit ---------------------------------------------------------------------------------------


def test_forfeit_of_the_active_starter_passes_the_limit_on():
    state, _ = play(start(3), "A 42")
    state, events = MEX_ENGINE.forfeit(state, A, ScriptedDice())
    assert kinds(events) == ["forfeit", "turn"]
    assert first(events, "forfeit").data == {"player": A, "lives": 12, "place": 3}
    assert MEX_ENGINE.to_act(state) == (B,) and MEX_ENGINE.legal_actions(state, B) == [THROW]
    state, events = play(state, "B 41", "B 52", "B stand")
    assert first(events, "limit_set").data == {"player": B, "limit": 2}


def test_forfeit_of_a_finished_thrower_drops_their_value():
    state, _ = play(start(3), "A 31", "A stand", "B 41", "B stand")
    state, events = MEX_ENGINE.forfeit(state, A, ScriptedDice())
    assert kinds(events) == ["forfeit"]
    state, events = play(state, "C 500")
    assert first(events, "round_over").data["loser"] == B
    assert points_deltas(events) == [[0, -1, 1]]


def test_forfeit_of_the_last_thrower_resolves_the_round():
    state, _ = play(start(4), "A 41", "A stand", "B 31", "B stand", "C 52", "C stand")
    state, events = MEX_ENGINE.forfeit(state, D, ScriptedDice())
    assert first(events, "round_over").data["loser"] == B
    assert state.round.order == [B, C, A]


def test_forfeit_in_a_two_way_tie_leaves_the_other_as_loser_MX_T():
    state, _ = play(start(3), "A 41", "A stand", "B 41", "B stand", "C 300")
    state, events = MEX_ENGINE.forfeit(state, A, ScriptedDice())
    assert first(events, "life_lost").data["player"] == B


def test_forfeit_of_the_chooser_hands_the_choice_on_MX_T2():
    state, _ = play(start(4), *THREE_WAY_TIE)
    state, events = MEX_ENGINE.forfeit(state, C, ScriptedDice())
    assert kinds(events) == ["forfeit", "turn"]
    assert state.round.tiebreak.chooser == B and MEX_ENGINE.to_act(state) == (B,)


def test_forfeit_of_the_last_extra_round_thrower_resolves_it():
    state, _ = play(start(4), *THREE_WAY_TIE, "C choose:pips", "A 2,2", "B 1,1")
    state, events = MEX_ENGINE.forfeit(state, C, ScriptedDice())
    assert first(events, "life_lost").data["player"] == B


def test_forfeit_down_to_one_player_gives_the_last_standing_bonus_MX_P2():
    state, _ = play(start(3), "A 42")
    state, _ = MEX_ENGINE.forfeit(state, C, ScriptedDice())
    state, events = MEX_ENGINE.forfeit(state, A, ScriptedDice())
    assert kinds(events) == ["forfeit", "points", "game_over"]
    outcome = MEX_ENGINE.outcome(state)
    assert outcome.ranking == ((B,), (A,), (C,)) and outcome.scores == (0, 5, 0)
    again, events = MEX_ENGINE.forfeit(state, B, ScriptedDice())
    assert events == [] and again == state


# --- views, JSON, events ---------------------------------------------------------------------------------


def test_view_shows_everything_and_scramble_changes_nothing():
    state, _ = play(start(3), "A 41", "A stand", "B 41", "B stand", "C 300")
    view = MEX_ENGINE.view(state, B)
    assert view["round"]["throws"] == [[[4, 1]], [[4, 1]], [[3, 3]]]
    assert view["legal"] == ["choose:mex", "choose:pips"] and view["to_act"] == [B] and view["you"] == B
    assert MEX_ENGINE.view(state, None)["legal"] == []
    for seat in (A, B, C):
        assert MEX_ENGINE.view(MEX_ENGINE.scramble(state, seat, SeededDice(9)), seat) == MEX_ENGINE.view(state, seat)


def test_json_round_trip_mid_extra_round_and_mid_hold():
    state, _ = play(start(4), *THREE_WAY_TIE, "C choose:pips", "A 2,2")
    assert MEX_ENGINE.loads(MEX_ENGINE.dumps(state)) == state
    held, _ = play(start(3, hold_one_or_two=True), "A 2,5", "A hold:2")
    assert MEX_ENGINE.loads(MEX_ENGINE.dumps(held)) == held


def test_events_are_plain_json():
    steps = ("A 41", "A stand", "B 41", "B stand", "C MEX", "D 500", "B choose:pips", "A 2,5", "B 1,2")
    state, events = play(start(4), *steps)
    for event in events:
        assert event.to is None
        json.dumps(event.data)
    assert kinds(events)[-5:] == ["round_over", "life_lost", "points", "round_start", "turn"]


def test_the_view_is_a_mex_view_and_the_buttons_are_the_engines_public_actions():
    """Nothing is hidden in Mex: the channel's buttons are the active player's legal moves, read from the view."""
    def check(state, player, action, new, events):
        for s in (state, new):
            public = [a.encode() for seat in MEX_ENGINE.to_act(s) for a in MEX_ENGINE.legal_actions(s, seat)]
            for seat in (None, *range(len(s.lives))):
                view = MEX_ENGINE.view(s, seat)
                assert set(view) == MexView.__required_keys__
                assert view["public"] == public
            assert sorted(c.action for c in render.controls(MEX_ENGINE.view(s, None))) == sorted(public)

    for seed in range(4):
        random_playout(MEX_ENGINE, 2 + seed % 3, MexOptions(hold_one_or_two=True, starting_lives=2), seed, check)
