"""Mia: every worked example of rules/mia.md §7, option variants, illegal moves, secrecy, timeouts, forfeits."""

from __future__ import annotations

import json

import pytest

from bot.games.base import IllegalMove, InvalidOptions, act
from bot.games.dice import ScriptedDice, SeededDice
from bot.games.mia import (
    AWAIT_CLAIM,
    AWAIT_MIA_RESPONSE,
    AWAIT_RESPONSE,
    CHALLENGE,
    CHALLENGE_MIA,
    GAME_OVER,
    GIVE_UP,
    MIA,
    PEEK,
    ROLL,
    VALUES,
    MiaOptions,
    MiaState,
    MiaView,
    rank,
    ranked_values,
    value_of,
    values_above,
)
from bot.games.mia import ENGINE as MIA_ENGINE
from bot.render import Menu, error_text
from bot.render import mia as render
from tests.games.playout import assert_unchanged_on_illegal, random_playout

A, B, C, D = 0, 1, 2, 3
NEXT_ROUND = (3, 2)  # dice for the round that starts after a resolution (value 32, never interesting)


def start(first: tuple[int, int], players: int = 4, **options) -> MiaState:
    """A new game where seat A (0) starts with ``first`` under the cup."""
    state, events = MIA_ENGINE.new_game(players, MiaOptions(**options), ScriptedDice(first))
    assert state.round_starter == A and state.holder == A
    assert events[-1].to == A and events[-1].data["dice"] == list(first)
    return state


def play(state: MiaState, *steps: tuple[int, str], faces: tuple[int, ...] = ()) -> tuple[MiaState, list]:
    """Apply ``(seat, "claim:53")`` steps with the given scripted faces; returns the state and all events."""
    dice = ScriptedDice(faces)
    events = []
    for seat, text in steps:
        name, *args = text.split(":")
        state, ev = MIA_ENGINE.apply(state, seat, act(name, *map(int, args)), dice)
        events += ev
    assert not dice.faces, "unused scripted faces"
    return state, events


def kinds(events) -> list[str]:
    return [e.kind for e in events]


def of(events, kind: str) -> list[dict]:
    return [e.data for e in events if e.kind == kind]


def lost(events) -> dict[int, int]:
    return {d["player"]: d["lost"] for d in of(events, "life_lost")}


def claims(state: MiaState, seat: int) -> list[int]:
    return [a.args[0] for a in MIA_ENGINE.legal_actions(state, seat) if a.name == "claim"]


# ----- §7 worked examples --------------------------------------------------------------------------------


def test_mia_example_1_values_and_order_M1_M2():
    assert value_of((5, 3)) == 53 and value_of((3, 5)) == 53
    assert value_of((1, 2)) == MIA == 21
    assert value_of((4, 4)) == 44
    assert len(VALUES) == 21
    hi = rank  # ones_high is the default
    assert hi(11) > hi(66) and hi(66) > hi(65) and hi(32) > hi(31) and hi(21) > hi(11)
    assert rank(66, "sixes_high") > rank(11, "sixes_high")
    for order in ("ones_high", "sixes_high"):
        for d in (11, 22, 33, 44, 55, 66):
            assert rank(d, order) > rank(65, order)
            assert rank(MIA, order) > rank(d, order)
    assert ranked_values()[-7:] == [66, 55, 44, 33, 22, 11, 21]
    assert ranked_values("sixes_high")[-7:] == [11, 22, 33, 44, 55, 66, 21]
    assert ranked_values()[:3] == [31, 32, 41]


def test_mia_example_2_legal_raises_M4():
    assert values_above(33) == [22, 11, 21]
    assert values_above(33, "sixes_high") == [44, 55, 66, 21]
    for order in ("ones_high", "sixes_high"):
        assert sorted(values_above(65, order)) == [11, 21, 22, 33, 44, 55, 66]
        assert len(values_above(64, order)) == 8 and values_above(64, order)[0] == 65
    # Through the engine: A claims 64, B believes and rolls; the claim list is exactly the 8 raises.
    state, _ = play(start((4, 1)), (A, "claim:64"), (B, "roll"), faces=(2, 3))
    assert state.phase == AWAIT_CLAIM and state.holder == B
    assert claims(state, B) == values_above(64)
    for bad in (64, 63):
        error = assert_unchanged_on_illegal(MIA_ENGINE, state, B, act("claim", bad))
        assert error.code == "claim_not_higher"
        assert error.params["claim"] == 64 and error.params["min"] == 65
        assert f"**{bad}** does not beat **64**: announce at least **65**." == error_text(error, "en", "mia")
    state, _ = play(start((4, 1), doubles_order="sixes_high"), (A, "claim:33"), (B, "roll"), faces=(2, 3))
    assert claims(state, B) == [44, 55, 66, 21]


def test_mia_example_3_understatement_is_truthful_M6():
    state, events = play(start((6, 2)), (A, "claim:54"), (B, "challenge"), faces=NEXT_ROUND)
    assert of(events, "reveal") == [{"dice": [6, 2], "value": 62, "claim": 54, "claimant": A, "truthful": True}]
    assert lost(events) == {B: 1}
    assert state.lives == [6, 5, 6, 6]
    assert state.round_starter == C and state.holder == C and state.round == 2


def test_mia_example_4_caught_bluff_M6_M7():
    state, events = play(start((4, 1)), (A, "claim:63"), (B, "challenge"), faces=NEXT_ROUND)
    assert lost(events) == {A: 1}
    assert of(events, "life_lost")[0]["reason"] == "caught_bluffing"
    assert state.round_starter == B


def test_mia_example_5_forced_bluff_then_caught_M4_M6():
    state, events = play(start((5, 2)), (A, "claim:52"), (B, "roll"), (B, "peek"), (B, "claim:61"), (C, "challenge"),
                         faces=(3, 1, *NEXT_ROUND))
    assert of(events, "dice")[0] == {"player": B, "dice": [3, 1], "value": 31}
    assert of(events, "reveal")[0]["value"] == 31 and of(events, "reveal")[0]["truthful"] is False
    assert lost(events) == {B: 1}
    assert state.round_starter == C


def test_mia_example_6_blind_roll_M4_DM2():
    state, events = play(start((6, 4)), (A, "claim:64"), (B, "roll"), faces=(6, 6))
    assert kinds(events) == ["claim", "roll"] and all(e.public for e in events)
    view = MIA_ENGINE.view(state, B)
    assert view["dice"] is None and "peek" in view["legal"]  # B rolled but has not looked
    state, events = play(state, (B, "claim:65"), (C, "challenge"), faces=NEXT_ROUND)
    assert of(events, "reveal")[0]["dice"] == [6, 6]
    assert lost(events) == {C: 1}
    assert state.round_starter == D


def test_mia_example_7_mia_conceded_M5():
    state, _ = play(start((3, 1)), (A, "claim:21"))
    assert state.phase == AWAIT_MIA_RESPONSE
    assert MIA_ENGINE.legal_actions(state, B) == [GIVE_UP, CHALLENGE_MIA]
    state, events = play(state, (B, "give_up"), faces=NEXT_ROUND)
    assert "reveal" not in kinds(events)
    assert not any(e.data.get("dice") == [3, 1] for e in events)  # the dice stay hidden
    assert lost(events) == {B: 1}
    assert state.round_starter == C


def test_mia_example_8_mia_checked_real_M5():
    state, events = play(start((2, 1)), (A, "claim:21"), (B, "challenge_mia"), faces=NEXT_ROUND)
    assert of(events, "reveal")[0]["value"] == MIA
    assert lost(events) == {B: 2}
    assert of(events, "life_lost")[0]["reason"] == "real_mia"
    assert state.lives[B] == 4 and state.round_starter == C


def test_mia_example_9_mia_checked_bluff_M5():
    state, events = play(start((6, 6)), (A, "claim:21"), (B, "challenge_mia"), faces=NEXT_ROUND)
    assert lost(events) == {A: 1}
    assert state.round_starter == B


def test_mia_example_10_real_mia_understated_M6():
    state, events = play(start((2, 1)), (A, "claim:65"), (B, "challenge"), faces=NEXT_ROUND)
    assert lost(events) == {B: 1}  # not 2: the penalty of M-5 is only for an announced Mia
    assert state.round_starter == C


def test_mia_example_11_elimination_and_the_loser_M8():
    state = start((2, 1))
    state.lives = [6, 1, 1, 1]
    state, events = play(state, (A, "claim:21"), (B, "challenge_mia"), faces=(2, 1))
    assert of(events, "life_lost")[0] == {"player": B, "lost": 1, "penalty": 2, "lives": 0, "reason": "real_mia"}
    assert of(events, "eliminated") == [{"player": B, "first": True, "reason": "lives"}]
    assert state.alive == [True, False, True, True] and state.loser == B
    assert state.round_starter == C
    # C's Mia is real: D checks and is out; A (left of D) starts and C checks A's real Mia.
    state, events = play(state, (C, "claim:21"), (D, "challenge_mia"), faces=(1, 2))
    assert of(events, "eliminated") == [{"player": D, "first": False, "reason": "lives"}]
    assert state.round_starter == A
    assert MIA_ENGINE.outcome(state) is None
    state, events = play(state, (A, "claim:21"), (C, "challenge_mia"))
    assert state.phase == GAME_OVER and MIA_ENGINE.to_act(state) == ()
    over = of(events, "game_over")[0]
    assert over["winner"] == A and over["loser"] == B
    assert over["ranking"] == [[A], [C], [D], [B]]
    outcome = MIA_ENGINE.outcome(state)
    assert outcome.winners == (A,) and outcome.ranking == ((A,), (C,), (D,), (B,))
    assert outcome.scores == (6, 0, 0, 0)
    for seat in range(4):
        assert MIA_ENGINE.legal_actions(state, seat) == []
    assert assert_unchanged_on_illegal(MIA_ENGINE, state, A, ROLL).code == "game_over"


def test_mia_example_12_blind_pass_and_loop_guard_M4_DM3():
    state, events = play(start((6, 5), blind_pass="any"), (A, "claim:43"), (B, "blind_pass:54"), (C, "challenge"),
                         faces=NEXT_ROUND)
    assert of(events, "blind_pass") == [{"player": B, "value": 54}]
    assert of(events, "reveal")[0] == {"dice": [6, 5], "value": 65, "claim": 54, "claimant": B, "truthful": True}
    assert lost(events) == {C: 1}
    # Loop guard: after N-1 = 3 equal-value blind passes the next player may not pass at that value.
    state, _ = play(start((6, 5), blind_pass="any"), (A, "claim:43"), (B, "blind_pass:54"), (C, "blind_pass:54"),
                    (D, "blind_pass:54"), (A, "blind_pass:54"))
    assert state.blind_streak == 3 and state.holder == B
    legal = MIA_ENGINE.legal_actions(state, B)
    assert CHALLENGE in legal and ROLL in legal and act("blind_pass", 54) not in legal
    assert act("blind_pass", 61) in legal  # a higher blind pass is still a raise
    error = assert_unchanged_on_illegal(MIA_ENGINE, state, B, act("blind_pass", 54))
    assert error.code == "loop_guard" and error.params["claim"] == 54


def test_mia_example_12_the_next_player_may_blind_pass_at_54_instead_M4_DM3():
    state, _ = play(start((6, 5), blind_pass="any"), (A, "claim:43"), (B, "blind_pass:54"))
    assert act("blind_pass", 54) in MIA_ENGINE.legal_actions(state, C)
    state, events = play(state, (C, "blind_pass:54"))
    assert state.claim == 54 and state.claimant == C and state.holder == D and state.blind_streak == 1
    assert state.cup_dice == [6, 5]  # no re-roll


def test_mia_example_12_c_loses_and_d_starts_M4_M6_M7():
    state, events = play(start((6, 5), blind_pass="any"), (A, "claim:43"), (B, "blind_pass:54"), (C, "challenge"),
                         faces=NEXT_ROUND)
    assert lost(events) == {C: 1} and state.round_starter == D


def test_mia_example_12_a_higher_blind_pass_restarts_the_loop_guard_count_M4_DM3():
    state, _ = play(start((6, 5), blind_pass="any"), (A, "claim:43"), (B, "blind_pass:54"), (C, "blind_pass:54"),
                    (D, "blind_pass:54"), (A, "blind_pass:54"))
    state, _ = play(state, (B, "blind_pass:61"))
    assert state.blind_streak == 0 and state.claimant == B and state.holder == C
    assert act("blind_pass", 61) in MIA_ENGINE.legal_actions(state, C)
    state, _ = play(state, (C, "blind_pass:61"), (D, "blind_pass:61"), (A, "blind_pass:61"))
    assert state.blind_streak == 3 and act("blind_pass", 61) not in MIA_ENGINE.legal_actions(state, B)


def test_mia_blind_passer_is_responsible_and_the_original_passer_relieved_DM3():
    # A rolled 43 and lies 54; B passes blind at 54 and is now the one a challenge is against.
    state, events = play(start((4, 3), blind_pass="any"), (A, "claim:54"), (B, "blind_pass:54"), (C, "challenge"),
                         faces=NEXT_ROUND)
    assert of(events, "reveal")[0]["claimant"] == B
    assert lost(events) == {B: 1}  # not A: the blind pass relieved A
    assert state.round_starter == C


@pytest.mark.parametrize("mode", ["left_of_loser", "loser", "challenger"])
def test_several_losers_start_left_of_the_announcer_under_every_option_M7(mode):
    # B announces a real Mia under auto_reveal: A, C and D lose; C (left of B) starts whatever the option.
    state, events = play(start((4, 3), mia_mode="auto_reveal", next_round_starter=mode), (A, "claim:43"),
                         (B, "roll"), (B, "claim:21"), faces=(2, 1, *NEXT_ROUND))
    assert lost(events) == {A: 1, C: 1, D: 1}
    assert state.round_starter == C


@pytest.mark.parametrize("mode", ["left_of_loser", "loser", "challenger"])
def test_several_losers_skip_an_eliminated_seat_left_of_the_announcer_M7(mode):
    state = start((2, 1), mia_mode="auto_reveal", next_round_starter=mode)
    state.lives[B] = 1
    state, events = play(state, (A, "claim:21"), faces=NEXT_ROUND)
    assert [d["player"] for d in of(events, "eliminated")] == [B]
    assert state.round_starter == C


def test_mia_example_13_the_challenger_starts_M7a():
    state, events = play(start((6, 6), next_round_starter="challenger"), (A, "claim:43"), (B, "challenge"),
                         faces=NEXT_ROUND)
    assert lost(events) == {B: 1} and state.round_starter == B


def test_mia_example_13_a_mia_conceder_counts_as_the_challenger_M7a_DM5():
    state, events = play(start((4, 3), next_round_starter="challenger"), (A, "claim:21"), (B, "give_up"),
                         faces=NEXT_ROUND)
    assert lost(events) == {B: 1} and state.round_starter == B


def test_mia_example_13_a_timeout_has_no_challenger_so_left_of_the_loser_starts_M7a_DM9():
    state, _ = play(start((4, 3), next_round_starter="challenger"), (A, "claim:43"))
    state, events = MIA_ENGINE.timeout(state, B, ScriptedDice(NEXT_ROUND))
    assert lost(events) == {B: 1} and state.round_starter == C


def test_mia_example_13_auto_reveal_has_no_challenger_so_left_of_the_loser_starts_M7a():
    state, events = play(start((6, 6), next_round_starter="challenger", mia_mode="auto_reveal"), (A, "claim:21"),
                         faces=NEXT_ROUND)
    assert of(events, "reveal")[0]["value"] == 66
    assert lost(events) == {A: 1} and state.round_starter == B


def test_an_eliminated_conceder_is_replaced_by_the_next_alive_on_the_left_M7a():
    state = start((4, 3), next_round_starter="challenger")
    state.lives[B] = 1
    state, events = play(state, (A, "claim:21"), (B, "give_up"), faces=NEXT_ROUND)
    assert not state.alive[B] and state.round_starter == C


# ----- options --------------------------------------------------------------------------------------------


def test_options_defaults_follow_the_rules_table():
    o = MiaOptions()
    assert (o.doubles_order, o.lives, o.mia_check_penalty, o.mia_mode, o.blind_pass, o.next_round_starter,
            o.stop_at_first_elimination) == ("ones_high", 6, 2, "challengeable", "off", "left_of_loser", False)
    assert MIA_ENGINE.player_range(o) == (2, 10)


@pytest.mark.parametrize(
    "option, value",
    [("doubles_order", "twos_high"), ("lives", 0), ("lives", 11), ("mia_check_penalty", 0), ("mia_check_penalty", 4),
     ("mia_mode", "instant"), ("blind_pass", "yes"), ("next_round_starter", "winner"),
     ("stop_at_first_elimination", "maybe")],
)
def test_bad_option_values_are_rejected_naming_the_option(option, value):
    with pytest.raises(InvalidOptions, match=option) as info:
        MIA_ENGINE.options({option: value})
    assert info.value.option == option


def test_options_from_text():
    o = MIA_ENGINE.options({"lives": "3", "stop_at_first_elimination": "yes", "blind_pass": "any"})
    assert o.lives == 3 and o.stop_at_first_elimination is True
    assert o.changed() == {"lives": 3, "stop_at_first_elimination": True, "blind_pass": "any"}


def test_sixes_high_reverses_the_doubles_M2():
    # A rolled 11 and claims 66: a lie under sixes_high, an understatement under ones_high.
    state, events = play(start((1, 1), doubles_order="sixes_high"), (A, "claim:66"), (B, "challenge"), faces=NEXT_ROUND)
    assert lost(events) == {A: 1}
    state, events = play(start((1, 1)), (A, "claim:66"), (B, "challenge"), faces=NEXT_ROUND)
    assert lost(events) == {B: 1}


@pytest.mark.parametrize("penalty", [1, 2, 3])
def test_mia_check_penalty_option_M5(penalty):
    state, events = play(start((2, 1), mia_check_penalty=penalty), (A, "claim:21"), (B, "challenge_mia"),
                         faces=NEXT_ROUND)
    assert lost(events) == {B: penalty}
    # The bluffer still loses exactly 1.
    state, events = play(start((5, 5), mia_check_penalty=penalty), (A, "claim:21"), (B, "challenge_mia"),
                         faces=NEXT_ROUND)
    assert lost(events) == {A: 1}


def test_auto_reveal_real_mia_costs_everyone_else_a_life():
    state, events = play(start((1, 2), mia_mode="auto_reveal"), (A, "claim:21"), faces=NEXT_ROUND)
    assert kinds(events)[:2] == ["claim", "reveal"]
    assert lost(events) == {B: 1, C: 1, D: 1}
    assert state.lives == [6, 5, 5, 5]
    assert state.round_starter == B  # several losers: left of the announcer (M-7)


def test_auto_reveal_bluffed_mia_costs_the_announcer():
    state, events = play(start((4, 3), mia_mode="auto_reveal"), (A, "claim:43"), (B, "roll"), (B, "claim:21"),
                         faces=(6, 6, *NEXT_ROUND))
    assert of(events, "reveal")[0]["value"] == 66
    assert lost(events) == {B: 1}
    assert state.round_starter == C


def test_auto_reveal_can_eliminate_several_at_once():
    state = start((1, 2), players=3, mia_mode="auto_reveal", lives=1)
    state, events = play(state, (A, "claim:21"))
    assert [d["player"] for d in of(events, "eliminated")] == [B, C]
    assert state.loser == B  # the first of them left of the announcer
    outcome = MIA_ENGINE.outcome(state)
    assert outcome.ranking == ((A,), (B, C))
    assert of(events, "game_over")[0]["ranking"] == [[A], [B, C]]


def test_blind_pass_off_is_rejected_and_not_offered():
    state, _ = play(start((4, 3)), (A, "claim:43"))
    assert MIA_ENGINE.legal_actions(state, B) == [CHALLENGE, ROLL]
    error = assert_unchanged_on_illegal(MIA_ENGINE, state, B, act("blind_pass", 43))
    assert error.code == "blind_pass_not_allowed" and error.params["reason"] == "off"


def test_blind_pass_first_receiver_only():
    state, _ = play(start((4, 3), blind_pass="first_receiver"), (A, "claim:43"))
    assert act("blind_pass", 43) in MIA_ENGINE.legal_actions(state, B)
    assert act("blind_pass", 42) not in MIA_ENGINE.legal_actions(state, B)
    error = assert_unchanged_on_illegal(MIA_ENGINE, state, B, act("blind_pass", 42))
    assert error.code == "claim_not_higher" and error.params["min"] == 43
    state, _ = play(state, (B, "blind_pass:43"))
    assert state.claimant == B and state.cup_dice == [4, 3] and state.holder == C
    assert MIA_ENGINE.legal_actions(state, C) == [CHALLENGE, ROLL]
    error = assert_unchanged_on_illegal(MIA_ENGINE, state, C, act("blind_pass", 43))
    assert error.code == "blind_pass_not_allowed" and error.params["reason"] == "first_receiver"
    # B is relieved only of responsibility for 43, the dice are A's: 43 >= 43, so C's challenge fails.
    state, events = play(state, (C, "challenge"), faces=NEXT_ROUND)
    assert lost(events) == {C: 1}


def test_the_claim_count_is_public_and_puts_the_first_receiver_blind_menu_on_the_table():
    state = start((4, 3), blind_pass="first_receiver")
    assert all(MIA_ENGINE.view(state, seat)["claims"] == 0 for seat in (A, B, C, D, None))
    state, _ = play(state, (A, "claim:43"))
    assert all(MIA_ENGINE.view(state, seat)["claims"] == 1 for seat in (A, B, C, D, None))
    menus = [c for c in render.controls(MIA_ENGINE.view(state, None)) if isinstance(c, Menu)]
    assert [m.name for m in menus] == ["blind"]
    assert [a for _, a in menus[0].options] == [f"blind_pass:{v}" for v in values_above(43, equal=True)]
    state, _ = play(state, (B, "blind_pass:43"))
    assert MIA_ENGINE.view(state, None)["claims"] == 2
    assert not any(isinstance(c, Menu) for c in render.controls(MIA_ENGINE.view(state, None)))


@pytest.mark.parametrize("mode", ["off", "first_receiver", "any"])
def test_the_table_blind_menu_is_exactly_the_holders_legal_blind_passes(mode):
    def check(state, player, action, new, events):
        for s in (state, new):
            if s.phase == GAME_OVER:
                continue
            legal = [f"blind_pass:{a.args[0]}" for a in MIA_ENGINE.legal_actions(s, s.holder) if a.name == "blind_pass"]
            menus = [c for c in render.controls(MIA_ENGINE.view(s, None)) if isinstance(c, Menu) and c.name == "blind"]
            assert [a for m in menus for _, a in m.options] == legal

    for seed in range(6):
        random_playout(MIA_ENGINE, 2 + seed % 3, MiaOptions(blind_pass=mode, lives=2), seed, check, deep=False)


def test_blind_pass_not_allowed_on_mia_M5():
    state, _ = play(start((4, 3), blind_pass="any"), (A, "claim:21"))
    error = assert_unchanged_on_illegal(MIA_ENGINE, state, B, act("blind_pass", 21))
    assert error.code == "blind_pass_not_allowed" and error.params["reason"] == "mia"


def test_blind_pass_announcing_mia_goes_to_the_mia_response():
    state, _ = play(start((2, 1), blind_pass="any"), (A, "claim:65"), (B, "blind_pass:21"))
    assert state.phase == AWAIT_MIA_RESPONSE and state.claimant == B and state.holder == C
    state, events = play(state, (C, "challenge_mia"), faces=NEXT_ROUND)
    assert lost(events) == {C: 2}


def test_loop_guard_with_two_players():
    state, _ = play(start((4, 3), players=2, blind_pass="any"), (A, "claim:43"), (B, "blind_pass:43"))
    assert state.holder == A
    assert act("blind_pass", 43) not in MIA_ENGINE.legal_actions(state, A)
    assert assert_unchanged_on_illegal(MIA_ENGINE, state, A, act("blind_pass", 43)).code == "loop_guard"
    # A roll resets the streak.
    state, _ = play(state, (A, "roll"), (A, "claim:51"), faces=(1, 3))
    assert state.blind_streak == 0 and act("blind_pass", 51) in MIA_ENGINE.legal_actions(state, B)


@pytest.mark.parametrize(
    "mode, liar_caught, wrong_challenge",
    [("left_of_loser", B, C), ("loser", A, B), ("challenger", B, B)],
)
def test_next_round_starter_option_M7(mode, liar_caught, wrong_challenge):
    _, events = play(start((4, 1), next_round_starter=mode), (A, "claim:63"), (B, "challenge"), faces=NEXT_ROUND)
    assert lost(events) == {A: 1} and of(events, "round_start")[0]["starter"] == liar_caught
    _, events = play(start((6, 3), next_round_starter=mode), (A, "claim:63"), (B, "challenge"), faces=NEXT_ROUND)
    assert lost(events) == {B: 1} and of(events, "round_start")[0]["starter"] == wrong_challenge


def test_next_round_starter_skips_the_eliminated_M7():
    for mode in ("left_of_loser", "loser", "challenger"):
        state = start((2, 1), next_round_starter=mode)
        state.lives[B] = 2
        state, _ = play(state, (A, "claim:21"), (B, "challenge_mia"), faces=NEXT_ROUND)
        assert state.round_starter == C, mode


def test_stop_at_first_elimination_M8():
    state = start((2, 1), stop_at_first_elimination=True, lives=2)
    state.lives = [2, 1, 2, 1]
    state, events = play(state, (A, "claim:21"), (B, "challenge_mia"))
    assert state.phase == GAME_OVER
    # Survivors by lives; the 2-2 tie between A and C goes to the seat first after the loser B, i.e. C.
    outcome = MIA_ENGINE.outcome(state)
    assert outcome.ranking == ((C,), (A,), (D,), (B,))
    assert of(events, "game_over")[0]["winner"] == C and of(events, "game_over")[0]["loser"] == B


def test_first_round_starter_is_drawn_from_the_dice():
    state, events = MIA_ENGINE.new_game(4, MiaOptions(), ScriptedDice((5, 4), samples=[[2]]))
    assert state.round_starter == C and MIA_ENGINE.to_act(state) == (C,)
    assert kinds(events) == ["start", "round_start", "dice"]
    assert events[-1].to == C and events[0].public and events[1].public


# ----- illegal moves ---------------------------------------------------------------------------------


def test_illegal_moves_have_specific_codes_and_change_nothing():
    state = start((4, 3))
    cases = [
        (B, act("claim", 43), "not_your_turn"),
        (A, CHALLENGE, "wrong_phase"),
        (A, GIVE_UP, "wrong_phase"),
        (A, PEEK, "already_looked"),
        (A, act("claim", 35), "bad_value"),
        (A, act("claim", 77), "bad_value"),
        (A, act("claim"), "illegal_action"),
        (A, act("claim", "x"), "illegal_action"),
        (A, act("roll", 3), "illegal_action"),
        (A, act("cheat"), "illegal_action"),
    ]
    for seat, action, code in cases:
        assert assert_unchanged_on_illegal(MIA_ENGINE, state, seat, action).code == code, action
    assert assert_unchanged_on_illegal(MIA_ENGINE, state, A, act("claim", 12)).params["did_you_mean"] == 21
    state, _ = play(state, (A, "claim:43"))
    for action, code in [(act("claim", 51), "wrong_phase"), (PEEK, "wrong_phase"), (CHALLENGE_MIA, "wrong_phase")]:
        error = assert_unchanged_on_illegal(MIA_ENGINE, state, B, action)
        assert error.code == code and error.params["expected"] == ["challenge", "roll"]
    state, _ = play(state, (B, "roll"), faces=(1, 1))
    assert assert_unchanged_on_illegal(MIA_ENGINE, state, B, ROLL).code == "wrong_phase"
    state, _ = play(state, (B, "peek"))
    assert assert_unchanged_on_illegal(MIA_ENGINE, state, B, PEEK).code == "already_looked"


def test_opening_claim_may_be_anything_and_challenged_M3():
    state = start((6, 6))
    assert claims(state, A) == ranked_values()  # all 21, lowest first
    assert MIA_ENGINE.legal_actions(state, A)[0].name == "claim"  # the starter has seen the dice: no peek
    state, events = play(state, (A, "claim:31"), (B, "challenge"), faces=NEXT_ROUND)
    assert lost(events) == {B: 1}


def test_believer_must_raise_even_after_peeking_a_better_roll():
    state, _ = play(start((4, 3)), (A, "claim:11"), (B, "roll"), (B, "peek"), faces=(2, 1))
    assert claims(state, B) == [21]
    assert MIA_ENGINE.legal_actions(state, B) == [act("claim", 21)]


# ----- secrecy and events ------------------------------------------------------------------------------


def test_secrecy_of_the_cup():
    state = start((5, 3))
    assert MIA_ENGINE.view(state, A)["dice"] == [5, 3]
    for seat in (B, C, D, None):
        assert MIA_ENGINE.view(state, seat)["dice"] is None
    assert "cup_dice" not in MIA_ENGINE.view(state, None)
    state, events = play(state, (A, "claim:53"))
    assert MIA_ENGINE.view(state, A)["dice"] == [5, 3]  # A still knows what A rolled
    assert MIA_ENGINE.view(state, B)["dice"] is None
    state, events = play(state, (B, "roll"), faces=(4, 4))
    assert all(MIA_ENGINE.view(state, s)["dice"] is None for s in (A, B, C, D, None))
    state, events = play(state, (B, "peek"))
    assert kinds(events) == ["peek", "dice"] and events[0].public and events[1].to == B
    assert events[1].data == {"player": B, "dice": [4, 4], "value": 44}
    assert MIA_ENGINE.view(state, B)["dice"] == [4, 4]
    assert MIA_ENGINE.view(state, A)["dice"] is None
    for seat in (A, B, C, D):
        assert MIA_ENGINE.view(MIA_ENGINE.scramble(state, seat, SeededDice(seat)), seat) == MIA_ENGINE.view(state, seat)


def test_event_data_is_plain_json():
    state, events = play(start((2, 1), blind_pass="any"), (A, "claim:43"), (B, "blind_pass:43"), (C, "roll"),
                         (C, "peek"), (C, "claim:21"), (D, "challenge_mia"), faces=(3, 1, *NEXT_ROUND))
    assert kinds(events) == ["claim", "blind_pass", "roll", "peek", "dice", "claim", "challenge_mia", "reveal",
                             "life_lost", "round_start", "dice"]
    json.dumps([e.data for e in events])
    assert lost(events) == {C: 1}  # C's Mia was a 31
    assert [e.to for e in events if not e.public] == [C, D]  # C's peek; then D starts and sees the new roll


def test_json_round_trip():
    state, _ = play(start((2, 1), blind_pass="any"), (A, "claim:43"), (B, "blind_pass:44"))
    assert MIA_ENGINE.loads(MIA_ENGINE.dumps(state)) == state
    state, _ = play(start((2, 1), lives=1, players=2), (A, "claim:21"), (B, "give_up"))
    assert state.phase == GAME_OVER
    assert MIA_ENGINE.loads(MIA_ENGINE.dumps(state)) == state


# ----- timeout and forfeit -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "steps, faces, who",
    [
        ((), (), A),
        (((A, "claim:43"),), (), B),
        (((A, "claim:43"), (B, "roll")), (5, 5), B),
        (((A, "claim:21"),), (), B),
    ],
)
def test_timeout_concedes_one_life_DM9(steps, faces, who):
    state, _ = play(start((4, 3)), *steps, faces=faces)
    before = MIA_ENGINE.dumps(state)
    with pytest.raises(IllegalMove) as info:
        MIA_ENGINE.timeout(state, (who + 1) % 4, ScriptedDice())
    assert info.value.code == "not_your_turn"
    new, events = MIA_ENGINE.timeout(state, who, ScriptedDice(NEXT_ROUND))
    assert MIA_ENGINE.dumps(state) == before
    assert kinds(events)[:2] == ["timeout", "life_lost"] and "reveal" not in kinds(events)
    assert lost(events) == {who: 1}
    assert new.round_starter == (who + 1) % 4


def test_forfeit_of_the_player_to_act_voids_the_round():
    state, _ = play(start((4, 3)), (A, "claim:43"))
    new, events = MIA_ENGINE.forfeit(state, B, ScriptedDice(NEXT_ROUND))
    assert kinds(events) == ["forfeit", "eliminated", "round_void", "round_start", "dice"]
    assert new.alive == [True, False, True, True] and new.lives[B] == 0 and new.loser == B
    assert new.round_starter == C and new.phase == AWAIT_CLAIM
    # the claimant leaving also voids the round: C was waiting on A's claim
    new, events = MIA_ENGINE.forfeit(state, A, ScriptedDice(NEXT_ROUND))
    assert "round_void" in kinds(events) and new.round_starter == B


def test_forfeit_of_a_bystander_keeps_the_round():
    state, _ = play(start((4, 3)), (A, "claim:43"))
    new, events = MIA_ENGINE.forfeit(state, C, ScriptedDice())
    assert kinds(events) == ["forfeit", "eliminated"]
    assert new.phase == AWAIT_RESPONSE and new.holder == B and new.claim == 43
    new, _ = play(new, (B, "roll"), (B, "claim:44"), faces=(1, 1))
    assert new.holder == D  # C is skipped


def test_forfeit_to_the_last_player_ends_the_game():
    state = start((4, 3), players=3)
    state, _ = MIA_ENGINE.forfeit(state, C, ScriptedDice())
    state, events = MIA_ENGINE.forfeit(state, A, ScriptedDice(NEXT_ROUND))
    assert state.phase == GAME_OVER and of(events, "game_over")[0]["winner"] == B
    assert MIA_ENGINE.outcome(state).ranking == ((B,), (A,), (C,)) and state.loser == C
    assert MIA_ENGINE.forfeit(state, B, ScriptedDice())[1] == []


def test_forfeit_with_stop_at_first_elimination_ends_the_game():
    state = start((4, 3), stop_at_first_elimination=True)
    state.lives = [3, 6, 6, 5]
    state, events = MIA_ENGINE.forfeit(state, C, ScriptedDice())
    assert MIA_ENGINE.outcome(state).ranking == ((B,), (D,), (A,), (C,))


def test_the_view_is_a_mia_view_and_the_table_controls_are_the_engines_public_actions():
    """The table message offers exactly the holder's legal moves, from the view; it re-derives no rule."""
    def check(state, player, action, new, events):
        for s in (state, new):
            public = [a.encode() for seat in MIA_ENGINE.to_act(s) for a in MIA_ENGINE.legal_actions(s, seat)]
            for seat in (None, *range(len(s.lives))):
                view = MIA_ENGINE.view(s, seat)
                assert set(view) == MiaView.__required_keys__
                assert view["public"] == public
            offered = []
            for c in render.controls(MIA_ENGINE.view(s, None)):
                offered += [a for _, a in c.options] if isinstance(c, Menu) else [c.action]
            assert sorted(offered) == sorted(public)

    for seed in range(4):
        random_playout(MIA_ENGINE, 2 + seed % 3, MiaOptions(blind_pass="any", lives=2), seed, check, deep=False)
