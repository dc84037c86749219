"""Mythical Dice (rules/mythical-dice.md): the worked examples of §9 and the engine's decisions."""

from __future__ import annotations

import copy
import json

import pytest

from bot.games import get_engine
from bot.games.base import IllegalMove, InvalidOptions, act
from bot.games.dice import ScriptedDice, SeededDice
from bot.games.mythical_dice import (
    ENGINE,
    FACES,
    MythicOptions,
    MythicState,
    bag_types,
    hand_score,
    legal_dice,
    trick_winner,
)
from tests.games.playout import assert_unchanged_on_illegal

TYPES = bag_types()
HOST = MythicOptions(first_start_player="host")
A, B, C, D = 0, 1, 2, 3


def roll_for(kind: str, face: str) -> int:
    """The d6 roll that shows ``face`` on a die of type ``kind``."""
    return FACES[kind].index(face) + 1


def deal_ids(holdings: list[list[str]]) -> list[list[int]]:
    """Pick distinct bag ids of the given die types, seat by seat."""
    used: set[int] = set()
    out = []
    for kinds in holdings:
        seat = []
        for kind in kinds:
            die = next(i for i, t in enumerate(TYPES) if t == kind and i not in used)
            used.add(die)
            seat.append(die)
        out.append(seat)
    return out


def game_at(hand: int, holdings: list[list[str]], options: MythicOptions = HOST, leader: int = A):
    """A game in the bidding of ``hand`` with the scripted dice; ``leader`` leads (rotating start player)."""
    players = len(holdings)
    draws = [d for seat in deal_ids(holdings) for d in seat]
    assert all(len(h) == hand for h in holdings)
    if hand == 1 and leader == 0:
        return ENGINE.new_game(players, options, ScriptedDice(samples=[draws]))
    state, _ = ENGINE.new_game(players, options, SeededDice(0))
    s = copy.deepcopy(state)
    s.hand_no = hand
    s.start_player = (leader - (hand - 1)) % players
    return s, ENGINE.start_hand(s, ScriptedDice(samples=[draws]))


def bid_all(state: MythicState, bids: list[int]):
    events = []
    for seat, bid in enumerate(bids):
        state, ev = ENGINE.apply(state, seat, act("bid", bid), SeededDice(0))
        events += ev
    return state, events


def die_of(state: MythicState, seat: int, kind: str) -> int:
    return next(d for d in state.hands[seat] if TYPES[d] == kind)


def play(state: MythicState, seat: int, kind: str, face: str):
    """``seat`` rolls one of their ``kind`` dice and it shows ``face``."""
    return ENGINE.apply(state, seat, act("play", die_of(state, seat, kind)), ScriptedDice([roll_for(kind, face)]))


def play_trick(state: MythicState, plays: list[tuple[int, str, str]]):
    events = []
    for seat, kind, face in plays:
        assert ENGINE.to_act(state) == (seat,)
        state, ev = play(state, seat, kind, face)
        events += ev
    return state, events


def kinds(events, kind):
    return [e for e in events if e.kind == kind]


def won_trick(rolls: list[tuple[str, str]], win: int) -> dict:
    return {"rolls": [{"player": i, "die": 0, "type": t, "face": f} for i, (t, f) in enumerate(rolls)], "win": win}


# --- §9 worked examples ---------------------------------------------------------------------


@pytest.mark.parametrize(("players", "hands", "last_deal"), [(3, 8, 24), (4, 8, 32), (5, 7, 35), (6, 6, 36)])
def test_MD_1_example_1_hand_count(players, hands, last_deal):
    state, _ = ENGINE.new_game(players, ENGINE.options(), SeededDice(players))
    assert state.hands_total == hands
    s = copy.deepcopy(state)
    s.hand_no = hands
    events = ENGINE.start_hand(s, SeededDice(1))
    dealt = [d["id"] for e in kinds(events, "deal") for d in e.data["dice"]]
    assert len(dealt) == len(set(dealt)) == last_deal
    assert all(len(h) == hands for h in s.hands)


def test_MD_1_example_1_hand_count_by_playing_to_the_end():
    dice = SeededDice(9)
    state, log = ENGINE.new_game(6, ENGINE.options(), dice)
    while not ENGINE.is_over(state):
        state, events = ENGINE.timeout(state, ENGINE.to_act(state)[0], dice)
        log += events
    assert [e.data["hand"] for e in kinds(log, "hand_scored")] == [1, 2, 3, 4, 5, 6]
    assert sum(len(e.data["dice"]) for e in kinds(log, "deal") if e.data["hand"] == 6) == 36


def test_MD_L3_example_2_legal_moves():
    state, _ = game_at(3, [["red", "yellow", "yellow"], ["red", "purple", "griffin"], ["yellow", "gray", "gray"]])
    state, _ = bid_all(state, [0, 0, 0])
    state, _ = play(state, A, "red", "7")
    red, purple, griffin = die_of(state, B, "red"), die_of(state, B, "purple"), die_of(state, B, "griffin")
    assert ENGINE.legal_actions(state, B) == [act("play", d) for d in sorted([red, griffin])]
    err = assert_unchanged_on_illegal(ENGINE, state, B, act("play", purple))
    assert err.code == "must_follow_colour" and err.params["colour"] == "red"
    state, _ = play(state, B, "red", "5")
    assert ENGINE.legal_actions(state, C) == [act("play", d) for d in sorted(state.hands[C])]
    assert {TYPES[d] for d in state.hands[C]} == {"yellow", "gray"}


def test_MD_R2_example_3_gray_7_beats_red_7_on_the_later_roller_tie():
    state, _ = game_at(1, [["red"], ["red"], ["gray"]])
    state, _ = bid_all(state, [1, 0, 0])
    state, events = play_trick(state, [(A, "red", "7"), (B, "red", "7"), (C, "gray", "7")])
    assert kinds(events, "trick_won")[0].data["player"] == C


def test_MD_R2_example_4_a_flag_never_beats_a_number():
    state, _ = game_at(1, [["gray"], ["gray"], ["gray"]])
    state, _ = bid_all(state, [0, 0, 0])
    state, events = play_trick(state, [(A, "gray", "flag"), (B, "gray", "1"), (C, "gray", "flag")])
    assert kinds(events, "trick_won")[0].data["player"] == B


def test_MD_R3_example_5_all_flags_first_roller_wins():
    state, _ = game_at(1, [["minotaur"], ["gray"], ["gray"]])
    state, _ = bid_all(state, [1, 0, 0])
    state, events = play_trick(state, [(A, "minotaur", "flag"), (B, "gray", "flag"), (C, "gray", "flag")])
    assert [e.data["suit"] for e in kinds(events, "played")] == [None, "gray", "gray"]
    assert kinds(events, "trick_won")[0].data["player"] == A


def test_MD_R3_example_5_all_flags_nobody_the_same_leader_leads_again():
    options = MythicOptions(first_start_player="host", all_flags="nobody")
    state, _ = game_at(2, [["minotaur", "red"], ["gray", "red"], ["gray", "red"]], options)
    state, _ = bid_all(state, [1, 0, 0])
    state, events = play_trick(state, [(A, "minotaur", "flag"), (B, "gray", "flag"), (C, "gray", "flag")])
    assert not kinds(events, "trick_won")
    assert kinds(events, "trick_discarded")[0].data["leader"] == A
    assert ENGINE.to_act(state) == (A,) and state.tricks == [0, 0, 0]
    state, events = play_trick(state, [(A, "red", "7"), (B, "red", "5"), (C, "red", "6")])
    scored = kinds(events, "hand_scored")[0].data
    assert scored["discarded"] == 1
    assert sum(row["tricks"] for row in scored["rows"]) == 1  # h - discarded tricks were awarded


def test_MD_L1_example_6_special_lead_then_a_number_die_sets_the_suit():
    holdings = [["mermaid", "yellow", "yellow"], ["purple", "yellow", "yellow"], ["purple", "red", "griffin"]]
    state, _ = game_at(3, holdings)
    state, _ = bid_all(state, [0, 0, 1])
    state, _ = play(state, A, "mermaid", "mermaid")
    state, events = play(state, B, "purple", "2")
    assert events[0].data["suit"] == "purple"
    red = die_of(state, C, "red")
    assert act("play", red) not in ENGINE.legal_actions(state, C)
    assert assert_unchanged_on_illegal(ENGINE, state, C, act("play", red)).params["colour"] == "purple"
    assert len(ENGINE.legal_actions(state, C)) == 2  # purple or griffin
    state, events = play(state, C, "griffin", "griffin")
    assert kinds(events, "trick_won")[0].data["player"] == C  # Griffin > Mermaid


def test_MD_L1_example_13_special_lead_under_the_literal_seed_reading_sets_no_suit():
    options = MythicOptions(first_start_player="host", special_lead_sets_no_suit=True)
    holdings = [["mermaid", "yellow", "yellow"], ["purple", "yellow", "yellow"], ["purple", "red", "griffin"]]
    state, _ = game_at(3, holdings, options)
    state, _ = bid_all(state, [0, 0, 1])
    state, _ = play(state, A, "mermaid", "mermaid")
    state, events = play(state, B, "purple", "2")
    assert events[0].data["suit"] is None
    red = die_of(state, C, "red")
    assert act("play", red) in ENGINE.legal_actions(state, C)  # example 6 (the default) makes Red illegal
    assert len(ENGINE.legal_actions(state, C)) == 3
    state, events = play(state, C, "red", "7")
    assert kinds(events, "played")[0].data["suit"] is None
    assert kinds(events, "trick_won")[0].data["player"] == A  # the Mermaid still beats a number


def test_MD_L1_example_13_a_number_lead_still_sets_the_suit_under_the_option():
    options = MythicOptions(first_start_player="host", special_lead_sets_no_suit=True)
    state, _ = game_at(1, [["red"], ["red"], ["purple"]], options)
    state, _ = bid_all(state, [0, 0, 0])
    state, events = play(state, A, "red", "5")
    assert events[0].data["suit"] == "red"
    assert ENGINE.legal_actions(state, B) == [act("play", die_of(state, B, "red"))]


def test_MD_R1_example_7_same_special_later_roller_wins():
    state, _ = game_at(1, [["griffin"], ["red"], ["griffin"]])
    state, _ = bid_all(state, [0, 0, 1])
    state, events = play_trick(state, [(A, "griffin", "griffin"), (B, "red", "7"), (C, "griffin", "griffin")])
    assert kinds(events, "trick_won")[0].data["player"] == C


def test_MD_R1_example_7_option_same_special_tie_earlier():
    state, _ = game_at(
        1, [["griffin"], ["red"], ["griffin"]], MythicOptions(first_start_player="host", same_special_tie="earlier")
    )
    state, _ = bid_all(state, [0, 0, 1])
    state, events = play_trick(state, [(A, "griffin", "griffin"), (B, "red", "7"), (C, "griffin", "griffin")])
    assert kinds(events, "trick_won")[0].data["player"] == A


EXAMPLE_8 = [(A, "mermaid", "mermaid"), (B, "griffin", "griffin"), (C, "minotaur", "minotaur"), (D, "red", "6")]


def test_MD_R1_example_8_three_way_cycle_mermaid_wins_and_earns_50():
    state, _ = game_at(1, [["mermaid"], ["griffin"], ["minotaur"], ["red"]])
    state, _ = bid_all(state, [1, 0, 0, 0])
    state, events = play_trick(state, EXAMPLE_8)
    assert kinds(events, "trick_won")[0].data["player"] == A
    row = kinds(events, "hand_scored")[0].data["rows"][A]
    assert (row["base"], row["bonus"], row["score"]) == (20, 50, 70)


def test_MD_R1_example_8_option_three_way_sequential():
    options = MythicOptions(first_start_player="host", three_way="sequential")
    state, _ = game_at(1, [["mermaid"], ["griffin"], ["minotaur"], ["red"]], options)
    state, _ = bid_all(state, [1, 0, 0, 0])
    state, events = play_trick(state, EXAMPLE_8)
    assert kinds(events, "trick_won")[0].data["player"] == C


def test_MD_P1_P4_example_9_scoring_in_hand_5():
    holdings = [
        ["mermaid", "red", "purple", "yellow", "gray"],
        ["minotaur", "red", "purple", "yellow", "gray"],
        ["yellow", "red", "griffin", "yellow", "gray"],
        ["yellow", "red", "purple", "yellow", "gray"],
    ]
    state, _ = game_at(5, holdings)
    state, events = bid_all(state, [2, 0, 3, 0])
    assert kinds(events, "bids_revealed")[0].data["bids"] == [2, 0, 3, 0]
    tricks = [
        [(A, "mermaid", "mermaid"), (B, "minotaur", "minotaur"), (C, "yellow", "3"), (D, "yellow", "3")],  # A, +50
        [(A, "red", "7"), (B, "red", "5"), (C, "red", "6"), (D, "red", "5")],  # A
        [(A, "purple", "1"), (B, "purple", "2"), (C, "griffin", "griffin"), (D, "purple", "3")],  # C
        [(C, "yellow", "3"), (D, "yellow", "5"), (A, "yellow", "4"), (B, "yellow", "4")],  # D
        [(D, "gray", "7"), (A, "gray", "1"), (B, "gray", "flag"), (C, "gray", "1")],  # D
    ]
    winners = []
    for plays in tricks:
        state, events = play_trick(state, plays)
        winners.append(kinds(events, "trick_won")[0].data["player"])
    assert winners == [A, A, C, D, D]
    rows = kinds(events, "hand_scored")[0].data["rows"]
    assert [(r["bid"], r["tricks"], r["score"]) for r in rows] == [(2, 2, 90), (0, 0, 50), (3, 1, -20), (0, 2, -50)]
    assert rows[A]["bonus"] == 50
    assert sum(r["tricks"] for r in rows) == 5
    assert state.scores == [90, 50, -20, -50] and state.hand_no == 6


EXAMPLE_10 = [("minotaur", "minotaur"), ("griffin", "griffin"), ("griffin", "griffin"), ("red", "5")]


def test_MD_P4_example_10_griffin_bonus():
    trick = won_trick(EXAMPLE_10, 0)
    assert sum(hand_score(1, [trick], 4, MythicOptions())) == 80
    assert sum(hand_score(1, [trick], 4, MythicOptions(griffin_bonus="per_trick"))) == 50
    flagged = won_trick(EXAMPLE_10[:3] + [("gray", "flag")], 0)
    assert hand_score(1, [flagged], 4, MythicOptions()) == (20, 0)


def test_MD_P4_example_10_griffin_bonus_played_out():
    state, _ = game_at(1, [["minotaur"], ["griffin"], ["griffin"], ["red"]])
    state, _ = bid_all(state, [1, 0, 0, 0])
    plays = [(A, "minotaur", "minotaur"), (B, "griffin", "griffin"), (C, "griffin", "griffin"), (D, "red", "5")]
    state, events = play_trick(state, plays)
    row = kinds(events, "hand_scored")[0].data["rows"][A]
    assert (row["base"], row["bonus"]) == (20, 60)


def test_MD_P2_example_11_no_bonus_on_a_missed_bid():
    assert hand_score(2, [won_trick(EXAMPLE_10, 0)], 4, MythicOptions()) == (-10, 0)


def test_MD_P3a_example_12_zero_bid_with_a_discarded_trick_scores_ten_times_the_hand_number():
    options = MythicOptions(first_start_player="host", all_flags="nobody")
    holdings = [["red", "gray", "purple"]] * 3
    state, _ = game_at(3, holdings, options)
    state, _ = bid_all(state, [1, 0, 0])
    state, events = play_trick(state, [(A, "red", "7"), (B, "red", "5"), (C, "red", "6")])
    assert kinds(events, "trick_won")[0].data["player"] == A
    state, events = play_trick(state, [(A, "gray", "flag"), (B, "gray", "flag"), (C, "gray", "flag")])
    assert kinds(events, "trick_discarded") and ENGINE.to_act(state) == (A,)
    state, events = play_trick(state, [(A, "purple", "1"), (B, "purple", "1"), (C, "purple", "3")])
    scored = kinds(events, "hand_scored")[0].data
    assert scored["hand"] == 3 and scored["discarded"] == 1
    rows = scored["rows"]
    table = [(r["bid"], r["tricks"], r["base"], r["bonus"]) for r in rows]
    assert table == [(1, 1, 20, 0), (0, 0, 30, 0), (0, 1, -30, 0)]  # B: 10 x h with h = 3, not 10 x 2
    assert state.scores == [20, 30, -30]


def test_MD_P3a_zero_bid_uses_the_hand_number_not_the_tricks_awarded():
    assert hand_score(0, [], 3, MythicOptions(all_flags="nobody")) == (30, 0)
    assert hand_score(0, [won_trick([("red", "7")], 0)], 3, MythicOptions(all_flags="nobody")) == (-30, 0)


# --- more scoring ---------------------------------------------------------------------------


def test_MD_P3_zero_bids_score_ten_per_trick_in_the_hand():
    assert hand_score(0, [], 6, MythicOptions()) == (60, 0)
    assert hand_score(0, [won_trick([("red", "7")], 0)] * 3, 6, MythicOptions()) == (-60, 0)


def test_MD_P4_bonus_flag_scope_options():
    clean = won_trick([("mermaid", "mermaid"), ("minotaur", "minotaur")], 0)
    flagged_trick = won_trick([("mermaid", "mermaid"), ("minotaur", "minotaur"), ("gray", "flag")], 0)
    plain_flag = won_trick([("red", "7"), ("gray", "flag")], 0)
    assert hand_score(1, [flagged_trick], 3, MythicOptions(bonus_flag_scope="trick")) == (20, 0)
    assert hand_score(1, [flagged_trick], 3, MythicOptions(bonus_flag_scope="face_only")) == (20, 50)
    assert hand_score(2, [clean, plain_flag], 3, MythicOptions(bonus_flag_scope="trick")) == (40, 50)
    assert hand_score(2, [clean, plain_flag], 3, MythicOptions(bonus_flag_scope="hand")) == (40, 0)
    assert hand_score(1, [clean], 3, MythicOptions(bonuses_enabled=False)) == (20, 0)
    # a Minotaur die that shows a flag is no Minotaur face: no +50
    assert hand_score(
        1,
        [won_trick([("mermaid", "mermaid"), ("minotaur", "flag")], 0)],
        3,
        MythicOptions(bonus_flag_scope="face_only"),
    ) == (20, 0)


def test_MD_R1_special_flag_counts_as_flag_and_numbers_win():
    rolls = won_trick([("griffin", "flag"), ("purple", "1"), ("mermaid", "flag")], 0)["rolls"]
    assert trick_winner(rolls, MythicOptions()) == 1


def test_MD_L3_off_colour_follower_may_play_anything():
    lead = [{"player": 0, "die": 6, "type": "red", "face": "7"}]
    hand = deal_ids([["yellow", "purple", "griffin"]])[0]
    assert legal_dice(hand, lead, MythicOptions()) == hand


# --- bidding, secrecy, actions ----------------------------------------------------------------


def test_MD_4_bids_are_hidden_until_all_are_in():
    state, events = ENGINE.new_game(4, HOST, SeededDice(2))
    assert {e.to for e in kinds(events, "deal")} == {0, 1, 2, 3}
    assert ENGINE.to_act(state) == (0, 1, 2, 3)
    state, events = ENGINE.apply(state, 2, act("bid", 1), SeededDice(0))
    assert [e.kind for e in events] == ["bid_placed"] and "bid" not in events[0].data
    assert ENGINE.to_act(state) == (0, 1, 3)
    assert ENGINE.view(state, 2)["bids"] == [None, None, 1, None]
    for seat in (None, 0, 1, 3):
        view = ENGINE.view(state, seat)
        assert view["bids"] == [None] * 4 and view["has_bid"] == [False, False, True, False]
        assert "1" not in json.dumps(view["bids"])
    state, _ = ENGINE.apply(state, 0, act("bid", 0), SeededDice(0))
    state, _ = ENGINE.apply(state, 3, act("bid", 1), SeededDice(0))
    state, events = ENGINE.apply(state, 1, act("bid", 0), SeededDice(0))
    assert [e.kind for e in events] == ["bid_placed", "bids_revealed"]
    assert events[1].data["bids"] == [0, 0, 1, 1] and events[1].public
    assert ENGINE.view(state, None)["bids"] == [0, 0, 1, 1]
    assert ENGINE.to_act(state) == (0,)


def test_view_hides_other_hands():
    state, _ = ENGINE.new_game(3, HOST, SeededDice(4))
    state, _ = bid_all(state, [1, 0, 0])
    for seat in range(3):
        view = ENGINE.view(state, seat)
        assert [d["id"] for d in view["your_dice"]] == state.hands[seat]
        assert view["hand_sizes"] == [1, 1, 1]
        others = {d for q in range(3) if q != seat for d in state.hands[q]}
        assert not others & {d["id"] for d in view["your_dice"]}
    assert ENGINE.view(state, None)["your_dice"] == []


def test_scramble_redeals_hidden_dice_with_the_same_counts():
    state, _ = ENGINE.new_game(4, HOST, SeededDice(1))
    s = copy.deepcopy(state)
    s.hand_no = 6
    ENGINE.start_hand(s, SeededDice(2))
    s, _ = ENGINE.apply(s, 1, act("bid", 3), SeededDice(0))
    changed = 0
    for seed in range(10):
        other = ENGINE.scramble(s, 0, SeededDice(seed))
        assert ENGINE.view(other, 0) == ENGINE.view(s, 0)
        assert other.hands[0] == s.hands[0]
        assert [len(h) for h in other.hands] == [len(h) for h in s.hands]
        every = [d for h in other.hands for d in h]
        assert len(every) == len(set(every))
        changed += other.hands != s.hands or other.bids != s.bids
    assert changed


@pytest.mark.parametrize(
    ("seat", "action", "code"),
    [
        (0, act("bid", 4), "bid_out_of_range"),
        (0, act("bid", -1), "bid_out_of_range"),
        (1, act("bid", 0), "already_bid"),
        (0, act("play", 0), "still_bidding"),
        (0, act("bid"), "bad_action"),
        (0, act("bid", "x"), "bad_action"),
        (0, act("pass"), "illegal_action"),
        (7, act("bid", 0), "not_your_turn"),
    ],
)
def test_illegal_bids(seat, action, code):
    state, _ = ENGINE.new_game(3, HOST, SeededDice(0))
    s = copy.deepcopy(state)
    s.hand_no = 3
    ENGINE.start_hand(s, SeededDice(0))
    s, _ = ENGINE.apply(s, 1, act("bid", 2), SeededDice(0))
    err = assert_unchanged_on_illegal(ENGINE, s, seat, action)
    assert err.code == code
    if code == "bid_out_of_range":
        assert (err.params["lo"], err.params["hi"]) == (0, 3)


def test_illegal_plays():
    state, _ = game_at(2, [["red", "red"], ["yellow", "gray"], ["purple", "purple"]])
    state, _ = bid_all(state, [1, 1, 0])
    assert assert_unchanged_on_illegal(ENGINE, state, B, act("play", state.hands[B][0])).code == "not_your_turn"
    err = assert_unchanged_on_illegal(ENGINE, state, A, act("play", state.hands[B][0]))
    assert err.code == "die_not_in_hand" and err.params["die"] == state.hands[B][0]
    assert assert_unchanged_on_illegal(ENGINE, state, A, act("bid", 1)).code == "bidding_closed"
    assert assert_unchanged_on_illegal(ENGINE, state, A, act("play", 99)).code == "die_not_in_hand"


def test_dice_are_rolled_only_when_played():
    dice = ScriptedDice()  # no faces scripted: any roll before a play would raise DiceExhausted
    state, _ = ENGINE.new_game(3, HOST, dice)
    state, _ = bid_all(state, [0, 0, 0])
    state, events = ENGINE.apply(state, 0, act("play", state.hands[0][0]), ScriptedDice([6]))
    assert events[0].kind == "played" and events[0].data["roll"] == 6


def test_hand_leader_rotates_and_option_last_trick_winner():
    state, _ = game_at(1, [["red"], ["gray"], ["gray"]])
    state, _ = bid_all(state, [1, 0, 0])
    state, events = play_trick(state, [(A, "red", "5"), (B, "gray", "7"), (C, "gray", "1")])
    assert kinds(events, "trick_won")[0].data["player"] == B
    assert kinds(events, "hand_started")[0].data["leader"] == B  # hand 2: start player + 1
    options = MythicOptions(first_start_player="host", hand_leader="last_trick_winner")
    state, _ = game_at(1, [["red"], ["gray"], ["gray"]], options)
    state, _ = bid_all(state, [1, 0, 0])
    state, events = play_trick(state, [(A, "red", "5"), (B, "gray", "flag"), (C, "gray", "7")])
    assert kinds(events, "hand_started")[0].data["leader"] == C


def test_random_start_player_uses_the_dice():
    state, events = ENGINE.new_game(5, ENGINE.options(), ScriptedDice(samples=[[3]]))
    assert state.start_player == 3 and state.leader == 3
    assert events[0].data["start_player"] == 3


# --- timeout, forfeit, outcome, persistence -------------------------------------------------------


def test_timeout_bids_zero_then_plays_the_first_legal_die():
    state, _ = game_at(2, [["red", "yellow"], ["yellow", "red"], ["gray", "gray"]])
    state, events = ENGINE.timeout(state, B, SeededDice(0))
    assert events[0].kind == "timeout" and state.bids[B] == 0 and "bid" not in events[1].data
    state, _ = bid_all_except(state, [1, None, 1])
    state, _ = play(state, A, "yellow", "5")
    state, events = ENGINE.timeout(state, B, ScriptedDice([1]))
    assert events[1].data["type"] == "yellow"  # must follow yellow: the red die (lower id) is illegal


def bid_all_except(state, bids):
    for seat, bid in enumerate(bids):
        if bid is not None:
            state, _ = ENGINE.apply(state, seat, act("bid", bid), SeededDice(0))
    return state, []


def test_forfeit_during_bidding_discards_the_pending_bid_and_reveals_the_rest():
    state, _ = ENGINE.new_game(4, HOST, SeededDice(3))
    state, _ = ENGINE.apply(state, 1, act("bid", 1), SeededDice(0))
    state, _ = ENGINE.apply(state, 2, act("bid", 0), SeededDice(0))
    state, _ = ENGINE.apply(state, 3, act("bid", 1), SeededDice(0))
    state, events = ENGINE.forfeit(state, 0, SeededDice(0))
    assert [e.kind for e in events] == ["forfeit", "bids_revealed"]
    assert events[1].data["bids"] == [None, 1, 0, 1]
    assert state.hands[0] == [] and ENGINE.to_act(state) == (1,)  # the leader left: next seat leads


def test_forfeit_mid_trick_withdraws_the_roll_and_the_hand_still_awards_h_tricks():
    state, _ = game_at(2, [["red", "red"], ["yellow", "yellow"], ["purple", "purple"], ["gray", "gray"]])
    state, _ = bid_all(state, [1, 1, 0, 0])
    state, _ = play(state, A, "red", "7")
    state, _ = play(state, B, "yellow", "5")
    state, events = ENGINE.forfeit(state, A, SeededDice(0))  # the leader with the winning die leaves
    assert [e.kind for e in events] == ["forfeit"]
    assert [r["player"] for r in state.trick] == [B] and state.leader == B
    assert ENGINE.view(state, None)["suit"] == "yellow"
    state, events = play_trick(state, [(C, "purple", "3"), (D, "gray", "1")])
    assert kinds(events, "trick_won")[0].data["player"] == B
    state, events = play_trick(state, [(B, "yellow", "3"), (C, "purple", "1"), (D, "gray", "7")])
    scored = kinds(events, "hand_scored")[0].data
    assert [row["player"] for row in scored["rows"]] == [B, C, D]
    assert sum(row["tricks"] for row in scored["rows"]) == 2 and [r["tricks"] for r in scored["rows"]] == [1, 0, 1]
    assert scored["totals"][A] == 0


def test_forfeit_of_the_player_to_act_moves_the_turn_on():
    state, _ = game_at(1, [["red"], ["yellow"], ["purple"], ["gray"]])
    state, _ = bid_all(state, [1, 0, 0, 0])
    state, _ = play(state, A, "red", "6")
    state, _ = ENGINE.forfeit(state, B, SeededDice(0))
    assert ENGINE.to_act(state) == (C,)
    state, _ = play(state, C, "purple", "1")
    state, events = ENGINE.forfeit(state, D, SeededDice(0))  # the last roller leaves: the trick resolves
    assert kinds(events, "trick_won")[0].data["player"] == A
    assert kinds(events, "hand_scored")[0].data["rows"][0]["score"] == 20


def test_forfeit_down_to_one_player_ranks_leavers_last():
    dice = SeededDice(8)
    state, _ = ENGINE.new_game(4, ENGINE.options(), dice)
    state, _ = ENGINE.forfeit(state, 2, dice)
    state, _ = ENGINE.forfeit(state, 0, dice)
    assert not ENGINE.is_over(state)
    state, events = ENGINE.forfeit(state, 3, dice)
    assert ENGINE.is_over(state) and events[-1].kind == "game_over"
    assert ENGINE.outcome(state).ranking == ((1,), (3,), (0,), (2,))
    assert ENGINE.forfeit(state, 1, dice)[1] == []


def test_MD_E2_ties_share_the_win_or_break_on_exact_bids():
    state, _ = ENGINE.new_game(3, HOST, SeededDice(0))
    s = copy.deepcopy(state)
    s.phase, s.scores, s.exact_bids = "over", [50, 80, 80], [3, 2, 5]
    assert ENGINE.outcome(s).ranking == ((1, 2), (0,))
    s.options = MythicOptions(tie_break="exact_bids")
    assert ENGINE.outcome(s).ranking == ((2,), (1,), (0,))


def test_game_over_event_and_no_more_moves():
    dice = SeededDice(11)
    state, log = ENGINE.new_game(3, MythicOptions(hands_by_players="3:2"), dice)
    while not ENGINE.is_over(state):
        state, events = ENGINE.timeout(state, ENGINE.to_act(state)[0], dice)
        log += events
    over = log[-1]
    assert over.kind == "game_over" and over.data["scores"] == state.scores
    assert tuple(tuple(p) for p in over.data["ranking"]) == ENGINE.outcome(state).ranking
    assert assert_unchanged_on_illegal(ENGINE, state, 0, act("bid", 0)).code == "game_over"
    json.dumps([e.data for e in log])


def test_json_round_trip_mid_trick():
    state, _ = game_at(2, [["red", "griffin"], ["yellow", "mermaid"], ["purple", "minotaur"]])
    state, _ = bid_all(state, [1, 1, 0])
    state, _ = play(state, A, "griffin", "flag")
    text = ENGINE.dumps(state)
    assert ENGINE.loads(text) == state and ENGINE.dumps(ENGINE.loads(text)) == text


# --- options -------------------------------------------------------------------------------------


def test_MD_8_option_defaults_follow_the_rules_table():
    o = ENGINE.options()
    assert (o.first_start_player, o.hand_leader, o.three_way, o.same_special_tie) == (
        "random",
        "rotate",
        "mermaid_wins",
        "later",
    )
    assert (o.all_flags, o.griffin_bonus, o.bonus_flag_scope) == ("first_roller", "per_griffin", "trick")
    assert o.special_lead_sets_no_suit is False and o.bonuses_enabled is True and o.allow_two_players is False
    assert [o.hands_for(n) for n in (3, 4, 5, 6)] == [8, 8, 7, 6]
    assert o.dice_set == "standard" and len(bag_types(o.dice_set)) == 36
    assert [bag_types().count(t) for t in ("minotaur", "griffin", "mermaid", "red", "yellow", "purple", "gray")] == [
        1,
        3,
        2,
        7,
        7,
        8,
        8,
    ]
    assert get_engine("mythic") is ENGINE and ENGINE.player_range(o) == (3, 6)


@pytest.mark.parametrize(
    ("data", "option"),
    [
        ({"three_way": "cycle"}, "three_way"),
        ({"all_flags": "last"}, "all_flags"),
        ({"bonus_flag_scope": "game"}, "bonus_flag_scope"),
        ({"griffin_bonus": "x"}, "griffin_bonus"),
        ({"same_special_tie": "x"}, "same_special_tie"),
        ({"hand_leader": "x"}, "hand_leader"),
        ({"first_start_player": "x"}, "first_start_player"),
        ({"tie_break": "x"}, "tie_break"),
        ({"bonuses_enabled": "maybe"}, "bonuses_enabled"),
        ({"hands_by_players": "5:8"}, "hands_by_players"),  # 40 dice > 36
        ({"hands_by_players": "7:2"}, "hands_by_players"),
        ({"hands_by_players": "three"}, "hands_by_players"),
        ({"dice_set": "1,2,3"}, "dice_set"),
        ({"dice_set": "1,1,1,1,1,1,1"}, "dice_set"),  # 7 dice cannot deal 8 hands
    ],
)
def test_invalid_options_name_the_option(data, option):
    with pytest.raises(InvalidOptions) as info:
        ENGINE.options(data)
    assert info.value.option == option


def test_option_forms_and_two_players():
    o = MythicOptions(hands_by_players={"3": 4, 4: 3})
    assert o.hands_by_players == "3:4,4:3" and o.hands_for(3) == 4 and o.hands_for(6) == 6
    assert ENGINE.options(o.to_dict()) == o and o.changed() == {"hands_by_players": "3:4,4:3"}
    assert MythicOptions(dice_set="1, 3, 2, 7, 7, 8, 8").dice_set == "standard"
    custom = MythicOptions(dice_set="2,3,2,8,8,8,8")
    assert bag_types(custom.dice_set).count("minotaur") == 2 and len(bag_types(custom.dice_set)) == 39
    two = MythicOptions(allow_two_players=True)
    assert ENGINE.player_range(two) == (2, 6)
    state, _ = ENGINE.new_game(2, two, SeededDice(0))
    assert state.hands_total == 8
    with pytest.raises(IllegalMove):
        ENGINE.new_game(2, ENGINE.options(), SeededDice(0))
