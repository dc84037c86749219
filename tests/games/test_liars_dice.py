"""Liar's Dice: every worked example of rules/liars-dice.md §6 (named after its rule id), plus the engine's edges."""

from __future__ import annotations

import json

import pytest

from bot.games import get_engine
from bot.games.base import Action, IllegalMove, InvalidOptions, clone
from bot.games.dice import ScriptedDice, SeededDice
from bot.games.liars_dice import CHALLENGE, ENGINE, RAISE_RULES, LiarsOptions, LiarsState, legal_bids
from bot.i18n import t
from bot.render import error_text
from bot.render.liar import bid_text
from tests.games.playout import assert_unchanged_on_illegal

A, B, C = 0, 1, 2
HAND_A = [2, 2, 5, 6, 6]  # §6 "Resolution": A = [2,2,5,6,6], B = [1,2,3,4,6]
HAND_B = [1, 2, 3, 4, 6]


def new(players: int = 2, faces=(), first: int = A, **options):
    """A game whose round-1 starter and dice are scripted (seat 0's dice first)."""
    dice = ScriptedDice(faces, samples=[[first]])
    state, events = ENGINE.new_game(players, LiarsOptions(**options), dice)
    return state, events, dice


def play(state, dice, *moves):
    """Apply ``(seat, "bid:3:4")`` moves in order; returns the state and all their events."""
    log = []
    for seat, text in moves:
        state, events = ENGINE.apply(state, seat, Action.parse(text), dice)
        log += events
    return state, log


def kinds(events):
    return [e.kind for e in events]


def one(events, kind):
    found = [e for e in events if e.kind == kind]
    assert len(found) == 1, kinds(events)
    return found[0]


def after(prev: tuple[int, int], rule: str, wild: bool = False):
    """Seat A opened with ``prev``; 10 dice in play (2 players x 5); seat B is to act."""
    state, _, dice = new(2, [2] * 10, raise_rule=rule, wild_ones=wild)
    state, _ = play(state, dice, (A, f"bid:{prev[0]}:{prev[1]}"))
    assert state.current == B
    return state


def bids_of(state) -> set[tuple[int, int]]:
    return {a.args for a in ENGINE.legal_actions(state, state.current) if a.name == "bid"}


def check_raises(state, legal, illegal, code="bid_not_higher"):
    offered = bids_of(state)
    for q, f in legal:
        assert (q, f) in offered, f"{q}x{f} should be legal"
        ENGINE.apply(state, state.current, Action("bid", (q, f)), SeededDice(0))
    for q, f in illegal:
        assert (q, f) not in offered, f"{q}x{f} should be illegal"
        err = assert_unchanged_on_illegal(ENGINE, state, state.current, Action("bid", (q, f)))
        assert err.code == code, (q, f, err)


# --- §6 Raise legality: previous bid "three fours", 10 dice, no wild ones (rule L-3) ---------------------------

LEGALITY_TABLE = {
    "sum": ([(3, 5), (4, 4), (5, 3), (7, 2)], [(2, 6), (4, 3), (1, 6), (10, 1)]),
    "simple": ([(4, 4), (10, 4), (1, 5), (2, 6), (3, 5)], [(5, 3), (3, 4), (2, 4), (9, 1)]),
    "poker": ([(4, 1), (4, 4), (9, 1), (3, 5), (3, 6)], [(2, 6), (1, 6), (3, 3), (3, 4)]),
    "pirates": ([(5, 1), (5, 3), (1, 5), (2, 6), (4, 5), (3, 6)], [(4, 4), (4, 3), (4, 2), (3, 4), (2, 4)]),
    "lefthand": ([(4, 4), (10, 4), (3, 5), (3, 6)], [(4, 5), (5, 3), (2, 6), (4, 3)]),
}


def test_L3_sum_table_after_three_fours():
    check_raises(after((3, 4), "sum"), *LEGALITY_TABLE["sum"])


def test_L3_simple_table_after_three_fours():
    check_raises(after((3, 4), "simple"), *LEGALITY_TABLE["simple"])


def test_L3_poker_table_after_three_fours():
    check_raises(after((3, 4), "poker"), *LEGALITY_TABLE["poker"])


def test_L3_pirates_table_after_three_fours_four_fours_is_illegal():
    check_raises(after((3, 4), "pirates"), *LEGALITY_TABLE["pirates"])


def test_L3_lefthand_table_after_three_fours():
    check_raises(after((3, 4), "lefthand"), *LEGALITY_TABLE["lefthand"])


@pytest.mark.parametrize("rule", RAISE_RULES)
def test_L3_legal_bids_are_exactly_the_rule_predicate_after_three_fours(rule):
    pred = {
        "sum": lambda q, f: q * f > 12,
        "simple": lambda q, f: (f == 4 and q > 3) or f > 4,
        "poker": lambda q, f: q > 3 or (q == 3 and f > 4),
        "pirates": lambda q, f: q > 4 or f > 4,
        "lefthand": lambda q, f: (f == 4 and q > 3) or (q == 3 and f > 4),
    }[rule]
    expected = {(q, f) for q in range(1, 11) for f in range(1, 7) if pred(q, f)}
    assert bids_of(after((3, 4), rule)) == expected


# --- §6 Extra legality cases -------------------------------------------------------------------------------------


def test_L3_sum_seed_4_1_example_after_two_fours():
    check_raises(after((2, 4), "sum"), [(3, 3), (5, 2), (2, 5)], [(4, 2), (1, 6)])


def minimum_products(state) -> set[tuple[int, int]]:
    """The legal bids with the smallest product (the minimum raises under the sum rule)."""
    bids = bids_of(state)
    low = min(q * f for q, f in bids)
    return {(q, f) for q, f in bids if q * f == low}


def test_L3_sum_wikipedia_product_example_after_three_threes_minimum_raises_are_products_of_ten():
    state = after((3, 3), "sum")
    check_raises(state, [(2, 5), (5, 2), (10, 1)], [(9, 1), (2, 4)])
    assert min(q * f for q, f in bids_of(state)) == 10
    assert ENGINE.min_raise(state) == (2, 5)


def test_L1_L3_sum_after_three_threes_with_ten_dice_ten_ones_is_a_minimum_raise_beside_two_fives_and_five_twos():
    state = after((3, 3), "sum")
    assert state.total == 10
    assert minimum_products(state) == {(2, 5), (5, 2), (10, 1)}
    new_state, events = ENGINE.apply(state, B, Action("bid", (10, 1)), SeededDice(0))
    assert new_state.bid == [10, 1] and new_state.bidder == B


def test_L1_L3_sum_wild_ones_after_three_threes_ten_ones_is_not_a_bid():
    state = after((3, 3), "sum", wild=True)
    assert minimum_products(state) == {(2, 5), (5, 2)}
    check_raises(state, [(2, 5), (5, 2)], [(2, 4), (3, 3)], code="bid_not_higher")
    check_raises(state, [], [(10, 1), (9, 1)], code="ones_not_biddable")


@pytest.mark.parametrize(("players", "per_player", "total"), [(2, 4, 8), (3, 3, 9)])
def test_L1_L3_sum_after_three_threes_with_fewer_than_ten_dice_ten_ones_is_over_the_cap(players, per_player, total):
    state, _, dice = new(players, [2] * total, raise_rule="sum", dice_per_player=per_player)
    state, _ = play(state, dice, (A, "bid:3:3"))
    assert state.total == total
    assert minimum_products(state) == {(2, 5), (5, 2)}
    check_raises(state, [], [(10, 1)], code="quantity_over_cap")


def test_L3_pirates_wikipedia_example_after_five_threes():
    check_raises(after((5, 3), "pirates"), [(6, 1), (1, 6)], [(5, 4), (5, 5)])


def test_L3_pirates_after_one_six_with_ten_dice_only_quantity_seven_or_more():
    state = after((1, 6), "pirates")
    assert bids_of(state) == {(q, f) for q in range(7, 11) for f in range(1, 7)}


def test_L2_pirates_after_ten_twos_with_ten_dice_must_challenge():
    state = after((10, 2), "pirates")
    assert ENGINE.legal_actions(state, B) == [Action("challenge")]
    err = assert_unchanged_on_illegal(ENGINE, state, B, Action("bid", (10, 6)))
    assert err.code == "must_challenge"
    text = error_text(err, "en", "liar")
    assert "pirates' rule" in text and "call **Liar!**" in text and "with 10 dice in play" in text, text
    assert err.params["min_quantity"] is None


@pytest.mark.parametrize("rule", RAISE_RULES)
def test_L2_no_legal_raise_after_ten_sixes_any_rule_must_challenge(rule):
    state = after((10, 6), rule)
    assert ENGINE.legal_actions(state, B) == [Action("challenge")]
    assert ENGINE.min_raise(state) is None
    state, events = ENGINE.apply(state, B, Action("challenge"), SeededDice(0))
    assert "reveal" in kinds(events)


def test_L1_wild_ones_ones_are_not_bids_and_the_opening_minimum_is_one_two():
    state, _, _ = new(2, [2] * 10, wild_ones=True)
    legal = ENGINE.legal_actions(state, A)
    assert legal[0] == Action("bid", (1, 2))
    assert all(a.args[1] != 1 for a in legal)
    assert len(legal) == 10 * 5
    for q in (1, 2):
        err = assert_unchanged_on_illegal(ENGINE, state, A, Action("bid", (q, 1)))
        assert err.code == "ones_not_biddable"
        assert "the lowest bid is 1 × ⚁" in error_text(err, "en", "liar")


def test_L3_pirates_wild_after_one_two():
    check_raises(after((1, 2), "pirates", wild=True), [(1, 3), (3, 2)], [(2, 2)])


def test_L3_simple_wild_after_three_sixes_only_more_sixes():
    state = after((3, 6), "simple", wild=True)
    assert bids_of(state) == {(q, 6) for q in range(4, 11)}


def test_L3_lefthand_wild_after_two_fives():
    check_raises(after((2, 5), "lefthand", wild=True), [(3, 5), (2, 6)], [(3, 6)])


def test_L3_poker_wild_after_four_sixes_five_twos_ok_four_ones_not_a_bid():
    state = after((4, 6), "poker", wild=True)
    check_raises(state, [(5, 2)], [])
    check_raises(state, [], [(4, 1)], code="ones_not_biddable")


# --- Error messages name the raise rule and the smallest legal raise ----------------------------------------------

SMALLEST_AFTER_THREE_FOURS = {
    "poker": (3, 5, "3 fives"),
    "simple": (4, 4, "4 fours"),
    "sum": (7, 2, "7 twos"),  # product 14: 13 is prime and 13 x 1 is over the cap
    "pirates": (1, 5, "1 five"),
    "lefthand": (3, 5, "3 fives"),
}


@pytest.mark.parametrize("rule", RAISE_RULES)
def test_L3_bid_not_higher_names_the_rule_and_the_smallest_legal_raise(rule):
    state = after((3, 4), rule)
    q, f, words = SMALLEST_AFTER_THREE_FOURS[rule]
    err = assert_unchanged_on_illegal(ENGINE, state, B, Action("bid", (3, 4)))
    assert err.code == "bid_not_higher"
    text = error_text(err, "en", "liar")
    assert t(f"liar.rule.{rule}") in text and t(f"liar.rule_why.{rule}", product=12, top=4) in text, text
    assert f"smallest legal raise is {bid_text(q, f)}" in text and f"({words.split()[1]})" in text, text
    assert err.params["rule"] == rule
    assert (err.params["min_quantity"], err.params["min_face"]) == (q, f)
    assert (err.params["bid_quantity"], err.params["bid_face"]) == (3, 4)
    # the smallest raise is legal and listed first
    assert ENGINE.legal_actions(state, B)[0] == Action("bid", (q, f))
    ENGINE.apply(state, B, Action("bid", (q, f)), SeededDice(0))


def test_L1_quantity_over_cap_and_malformed_bids_are_refused():
    state, _, _ = new(2, [2] * 10)
    cases = {
        Action("bid", (11, 2)): "quantity_over_cap",
        Action("bid", (0, 2)): "bad_quantity",
        Action("bid", (2, 7)): "bad_face",
        Action("bid", (2, 0)): "bad_face",
        Action("bid", (2,)): "bad_bid",
        Action("bid", ("x", 2)): "bad_bid",
        Action("challenge"): "no_bid_to_challenge",
        Action("challenge", (1,)): "illegal_action",
        Action("spot_on"): "illegal_action",
    }
    for action, code in cases.items():
        err = assert_unchanged_on_illegal(ENGINE, state, A, action)
        assert err.code == code, (action, err)
    err = assert_unchanged_on_illegal(ENGINE, state, A, Action("bid", (11, 2)))
    assert err.params["cap"] == 10 and "Only 10 dice are in play" in error_text(err, "en", "liar")
    assert assert_unchanged_on_illegal(ENGINE, state, B, Action("bid", (1, 2))).code == "not_your_turn"


# --- §6 Resolution (rule L-4) ---------------------------------------------------------------------------------------


def resolve(moves, wild, starter, players=2, faces=None):
    state, _, dice = new(players, faces or HAND_A + HAND_B, first=starter, wild_ones=wild)
    return play(state, dice, *moves)


def test_L4_example_1_B_bids_four_twos_A_challenges_no_wild_B_loses():
    state, events = resolve([(B, "bid:4:2"), (A, "challenge")], wild=False, starter=B)
    reveal = one(events, "reveal")
    assert reveal.public
    assert reveal.data["hands"] == [HAND_A, HAND_B]
    assert reveal.data["count"] == 3 and reveal.data["bid_true"] is False
    assert (reveal.data["loser"], reveal.data["winner"]) == (B, A)
    assert ENGINE.outcome(state).ranking == ((A,), (B,))


def test_L4_example_1_wild_ones_the_one_counts_as_a_two_A_loses():
    state, events = resolve([(B, "bid:4:2"), (A, "challenge")], wild=True, starter=B)
    reveal = one(events, "reveal")
    assert reveal.data["count"] == 4 and reveal.data["bid_true"] is True
    assert (reveal.data["loser"], reveal.data["winner"]) == (A, B)
    assert ENGINE.outcome(state).ranking == ((B,), (A,))


@pytest.mark.parametrize(("wild", "count"), [(False, 3), (True, 4)])
def test_L4_example_2_A_bids_three_sixes_B_challenges_B_loses(wild, count):
    state, events = resolve([(A, "bid:3:6"), (B, "challenge")], wild=wild, starter=A)
    reveal = one(events, "reveal")
    assert reveal.data["count"] == count
    assert reveal.data["loser"] == B
    assert ENGINE.outcome(state).winners == (A,)


@pytest.mark.parametrize(("wild", "count"), [(False, 1), (True, 2)])
def test_L4_example_3_seed_five_threes_challenged_bidder_loses_either_way(wild, count):
    state, events = resolve([(A, "bid:5:3"), (B, "challenge")], wild=wild, starter=A)
    reveal = one(events, "reveal")
    assert reveal.data["count"] == count and reveal.data["bid_true"] is False
    assert reveal.data["loser"] == A
    assert ENGINE.outcome(state).winners == (B,)


@pytest.mark.parametrize(
    ("hand_c", "wild", "loser", "winner"),
    [
        ([1, 3, 4, 5, 5], False, C, B),  # fives = 1 + 2 = 3 >= 3: C loses
        ([1, 3, 3, 4, 5], False, B, C),  # fives = 2 < 3: B loses
        ([1, 3, 3, 4, 5], True, C, B),  # fives + ones = 2 + 2 = 4 >= 3: C loses
    ],
)
def test_L4_example_4_three_players_C_challenges_B_A_unaffected_and_neutral_in_single(hand_c, wild, loser, winner):
    state, events = resolve(
        [(A, "bid:2:5"), (B, "bid:3:5"), (C, "challenge")],
        wild=wild,
        starter=A,
        players=3,
        faces=HAND_A + HAND_B + hand_c,
    )
    challenge = one(events, "challenge")
    assert challenge.data == {"player": C, "bidder": B, "quantity": 3, "face": 5}
    reveal = one(events, "reveal")
    assert (reveal.data["loser"], reveal.data["winner"]) == (loser, winner)
    out = ENGINE.outcome(state)
    assert out.ranking == ((winner,), (A,), (loser,))  # D-L7: A has no result
    assert out.scores[A] == 0 and out.scores[winner] == 1 and out.scores[loser] == -1
    assert state.counts == [5, 5, 5]  # single mode: nobody loses a die


def test_L5_example_5_loot_B_loses_A_has_six_B_four_B_starts_then_B_goes_out_and_A_wins_with_ten():
    state, _, dice = new(2, HAND_A + HAND_B + [2] * 10, mode="loot")
    state, events = play(state, dice, (A, "bid:3:2"), (B, "challenge"))  # twos = 3: true, B loses
    assert one(events, "die_passed").data == {"from": B, "to": A, "counts": [6, 4]}
    assert state.counts == [6, 4] and state.total == 10
    assert one(events, "round").data["starter"] == B and state.current == B  # L-6: the loser starts
    assert state.round_no == 2
    for b_dice in (4, 3, 2, 1):
        assert state.counts == [10 - b_dice, b_dice]
        if b_dice > 1:
            dice.push(*[2] * 10)  # the roll of the round this challenge leads to
        state, events = play(state, dice, (B, "bid:10:6"), (A, "challenge"))  # no sixes: B loses
        assert sum(state.counts) == 10  # loot conserves the dice
    assert state.counts == [10, 0]
    assert one(events, "eliminated").data == {"player": B}
    assert one(events, "game_over").data["reason"] == "last_standing"
    out = ENGINE.outcome(state)
    assert out.ranking == ((A,), (B,)) and out.scores == (10, 0)
    assert ENGINE.legal_actions(state, A) == ENGINE.legal_actions(state, B) == []


def test_L5_example_6_lose_die_B_loses_total_nine_and_the_cap_becomes_nine():
    state, _, dice = new(2, HAND_A + HAND_B + [3] * 9, mode="lose_die")
    state, events = play(state, dice, (A, "bid:3:2"), (B, "challenge"))
    assert one(events, "die_lost").data == {"player": B, "counts": [5, 4]}
    assert state.counts == [5, 4] and state.total == 9
    assert max(a.args[0] for a in ENGINE.legal_actions(state, B)) == 9
    err = assert_unchanged_on_illegal(ENGINE, state, B, Action("bid", (10, 2)))
    assert err.code == "quantity_over_cap" and err.params["cap"] == 9


def test_L2_example_7_out_of_turn_challenge_only_C_may_challenge_and_only_B_bid():
    state, _, dice = new(3, [2] * 15)
    state, _ = play(state, dice, (A, "bid:2:5"), (B, "bid:3:5"))
    err = assert_unchanged_on_illegal(ENGINE, state, A, Action("challenge"))
    assert err.code == "not_your_turn"
    assert ENGINE.legal_actions(state, A) == []
    state, events = play(state, dice, (C, "challenge"))
    assert one(events, "challenge").data["bidder"] == B
    assert one(events, "reveal").data["quantity"] == 3


# --- Rounds, starters, game end (L-5, L-6) ---------------------------------------------------------------------


def test_L6_round_one_starter_is_drawn_from_the_injected_dice():
    state, events, _ = new(3, [2] * 15, first=C)
    assert state.current == C == state.round_starter
    assert events[0].data == {"players": 3, "starter": C}
    starters = {ENGINE.new_game(4, LiarsOptions(), SeededDice(seed))[0].current for seed in range(60)}
    assert starters == {0, 1, 2, 3}


def test_L6_eliminated_loser_the_next_seat_with_dice_to_their_left_starts():
    state, _, dice = new(3, [2, 3, 4], mode="lose_die", dice_per_player=1, first=C)
    dice.push(2, 2)
    state, events = play(state, dice, (C, "bid:3:6"), (A, "challenge"))  # C bid falsely and is out
    assert state.counts == [1, 1, 0]
    assert one(events, "eliminated").data == {"player": C}
    assert state.current == A == one(events, "round").data["starter"]  # next to C's left, wrapping
    assert [e.to for e in events if e.kind == "dice"] == [A, B]  # only seats with dice roll
    state, events = play(state, dice, (A, "bid:1:2"), (B, "challenge"))  # true: B loses, A wins
    out = ENGINE.outcome(state)
    assert out.ranking == ((A,), (B,), (C,))  # the later elimination ranks higher
    assert out.scores == (1, 0, 0)


def test_L6_starter_winner_option_the_challenge_winner_starts():
    state, _, dice = new(2, HAND_A + HAND_B + [2] * 10, mode="lose_die", starter="winner")
    state, events = play(state, dice, (A, "bid:3:2"), (B, "challenge"))  # true: B loses, A wins
    assert state.current == A == one(events, "round").data["starter"]


def test_L5_loot_max_rounds_most_dice_wins():
    state, _, dice = new(3, [2] * 15, mode="loot", max_rounds=1)
    state, events = play(state, dice, (A, "bid:1:6"), (B, "challenge"))  # no sixes: A loses to B
    assert one(events, "game_over").data["reason"] == "max_rounds"
    out = ENGINE.outcome(state)
    assert out.ranking == ((B,), (C,), (A,)) and out.scores == (4, 6, 5)


def test_L5_loot_max_rounds_ties_share_first_place():
    state, _, dice = new(2, [2] * 20, mode="loot", max_rounds=2)
    state, _ = play(state, dice, (A, "bid:1:6"), (B, "challenge"))  # A loses: 4 / 6
    assert state.counts == [4, 6] and state.current == A
    state, _ = play(state, dice, (A, "bid:1:2"), (B, "challenge"))  # true: B loses: 5 / 5
    out = ENGINE.outcome(state)
    assert out.ranking == ((A, B),) and out.winners == (A, B) and out.scores == (5, 5)


def test_L5_single_mode_one_challenge_ends_the_game_and_nothing_else_is_legal():
    state, events = resolve([(A, "bid:3:6"), (B, "challenge")], wild=False, starter=A)
    assert ENGINE.is_over(state) and ENGINE.to_act(state) == ()
    assert one(events, "game_over").data == {
        "reason": "challenge",
        "winners": [A],
        "ranking": [[A], [B]],
        "scores": [1, -1],
    }
    err = assert_unchanged_on_illegal(ENGINE, state, A, Action("bid", (1, 2)))
    assert err.code == "game_over"


# --- Events, views and secrecy ----------------------------------------------------------------------------------


def test_round_start_sends_each_seat_only_its_own_dice():
    state, events, _ = new(3, [6, 5, 4, 3, 2] + HAND_B + [1, 1, 1, 1, 1], first=B)
    assert kinds(events) == ["start", "round", "dice", "dice", "dice", "turn"]
    assert one(events, "round").data == {"round": 1, "starter": B, "counts": [5, 5, 5], "total": 15, "redeal": False}
    private = {e.to: e.data for e in events if e.kind == "dice"}
    assert private == {
        A: {"round": 1, "dice": [2, 3, 4, 5, 6]},  # hands are kept sorted
        B: {"round": 1, "dice": HAND_B},
        C: {"round": 1, "dice": [1, 1, 1, 1, 1]},
    }
    assert all(e.public for e in events if e.kind != "dice")
    assert events[-1].data == {"player": B}


def test_view_holds_own_dice_and_dice_counts_never_other_faces():
    state, _, dice = new(2, HAND_A + HAND_B)
    state, _ = play(state, dice, (A, "bid:2:6"))
    view = ENGINE.view(state, A)
    assert view["hand"] == HAND_A and view["counts"] == [5, 5]
    assert view["bid"] == {"quantity": 2, "face": 6} and view["bidder"] == A and view["bids"] == [[A, 2, 6]]
    assert view["legal"] == [] and ENGINE.view(state, B)["legal"][-1] == "challenge"
    assert ENGINE.view(state, B)["hand"] == HAND_B
    assert "hands" not in json.dumps(view)
    spectator = ENGINE.view(state, None)
    assert spectator["hand"] is None and spectator["legal"] == []
    for p in (A, B, None):
        assert ENGINE.view(ENGINE.scramble(state, p, SeededDice(9)), p) == ENGINE.view(state, p)
    other = ENGINE.scramble(state, A, ScriptedDice([1] * 5))
    assert other.hands == [HAND_A, [1] * 5] and ENGINE.view(other, B) != ENGINE.view(state, B)


def test_view_after_a_reveal_shows_that_round_hands_but_not_the_new_round():
    state, _, dice = new(2, HAND_A + HAND_B + [3] * 6 + [4] * 4, mode="loot")
    state, _ = play(state, dice, (A, "bid:3:2"), (B, "challenge"))
    view = ENGINE.view(state, A)
    assert view["last_reveal"]["hands"] == [HAND_A, HAND_B] and view["last_reveal"]["round"] == 1
    assert view["round"] == 2 and view["hand"] == [3] * 6
    assert "[4, 4, 4, 4]" not in json.dumps(view)
    assert ENGINE.view(ENGINE.scramble(state, A, SeededDice(1)), A) == view


# --- Time-outs, forfeits ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("wild", "minimum"), [(False, "bid:1:1"), (True, "bid:1:2")])
def test_timeout_at_the_opening_makes_the_minimum_bid(wild, minimum):
    state, _, dice = new(2, [2] * 10, wild_ones=wild)
    assert ENGINE.timeout_action(state, A) == Action.parse(minimum)
    state, events = ENGINE.timeout(state, A, dice)
    assert events[0].kind == "timeout" and events[0].data == {"player": A, "action": minimum}
    assert state.bids == [[A] + list(Action.parse(minimum).args)]


def test_timeout_after_a_bid_challenges_it():
    state, _, dice = new(2, HAND_A + HAND_B)
    state, _ = play(state, dice, (A, "bid:3:6"))
    state, events = ENGINE.timeout(state, B, dice)
    assert kinds(events)[:3] == ["timeout", "challenge", "reveal"]
    assert ENGINE.outcome(state).winners == (A,)
    with pytest.raises(IllegalMove):
        ENGINE.timeout(state, A, dice)


def test_forfeit_by_the_seat_to_act_voids_the_round_and_redeals():
    state, _, dice = new(3, [2] * 15, mode="lose_die")
    state, _ = play(state, dice, (A, "bid:4:2"))
    dice.push(3, 3, 3, 3, 3, 4, 4, 4, 4, 4)
    state, events = ENGINE.forfeit(state, B, dice)
    assert kinds(events) == ["forfeit", "round", "dice", "dice", "turn"]
    assert one(events, "forfeit").data == {"player": B, "counts": [5, 0, 5]}
    assert one(events, "round").data == {"round": 1, "starter": A, "counts": [5, 0, 5], "total": 10, "redeal": True}
    assert state.bid is None and state.bids == [] and state.current == A
    assert state.hands == [[3] * 5, [], [4] * 5]
    assert ENGINE.forfeit(state, B, dice)[1] == []  # leaving twice changes nothing


def test_forfeit_of_the_round_starter_passes_the_opening_to_the_next_seat():
    state, _, dice = new(3, [2] * 15)
    state, _ = play(state, dice, (A, "bid:4:2"))
    state, events = ENGINE.forfeit(state, A, dice.push(*[2] * 10))
    assert state.current == B == state.round_starter


def test_forfeit_down_to_one_seat_ends_the_game_and_forfeits_rank_last():
    state, _, dice = new(3, [2] * 15, mode="loot")
    state, _ = play(state, dice.push(*[2] * 15), (A, "bid:1:6"), (B, "challenge"))  # A loses a die
    state, _ = ENGINE.forfeit(state, C, dice.push(*[2] * 10))
    state, events = ENGINE.forfeit(state, B, dice)
    assert one(events, "game_over").data["reason"] == "forfeit"
    out = ENGINE.outcome(state)
    assert out.ranking == ((A,), (B,), (C,)) and out.scores == (4, 0, 0)
    assert ENGINE.forfeit(state, A, dice)[1] == []


def test_single_mode_forfeit_ranks_below_the_challenge_loser():
    state, _, dice = new(3, [2] * 15)
    state, _ = ENGINE.forfeit(state, C, dice.push(*[2] * 10))
    state, _ = play(state, dice, (A, "bid:1:6"), (B, "challenge"))
    out = ENGINE.outcome(state)
    assert out.ranking == ((B,), (A,), (C,)) and out.scores == (-1, 1, -1)


# --- Options, persistence, registry --------------------------------------------------------------------------------


def test_options_defaults_follow_the_rules_table():
    assert LiarsOptions().to_dict() == {
        "dice_per_player": 5,
        "raise_rule": "poker",
        "wild_ones": False,
        "mode": "single",
        "starter": "loser",
        "max_rounds": 0,
    }
    assert ENGINE.player_range(LiarsOptions()) == (2, 6)
    assert get_engine("liar") is ENGINE and ENGINE.name == "liar"


@pytest.mark.parametrize(
    ("data", "option"),
    [
        ({"dice_per_player": 0}, "dice_per_player"),
        ({"dice_per_player": 7}, "dice_per_player"),
        ({"raise_rule": "bluff"}, "raise_rule"),
        ({"mode": "calza"}, "mode"),
        ({"mode": "loot", "starter": "left"}, "starter"),
        ({"wild_ones": "maybe"}, "wild_ones"),
        ({"mode": "loot", "max_rounds": -1}, "max_rounds"),
        ({"max_rounds": 10}, "max_rounds"),  # single is one round
        ({"starter": "winner"}, "starter"),  # single is one round
        ({"no_such_option": 1}, "no_such_option"),
    ],
)
def test_invalid_options_are_rejected_naming_the_option(data, option):
    with pytest.raises(InvalidOptions) as info:
        ENGINE.options(data)
    assert info.value.option == option and option in str(info.value)


def test_options_from_text():
    opts = ENGINE.options({"mode": "loot", "max_rounds": "30", "wild_ones": "yes", "dice_per_player": "3"})
    assert (opts.mode, opts.max_rounds, opts.wild_ones, opts.dice_per_player) == ("loot", 30, True, 3)
    assert ENGINE.options({"mode": "loot", "max_rounds": "none"}).max_rounds == 0
    assert ENGINE.options({"mode": "loot", "max_rounds": None}).max_rounds == 0
    assert ENGINE.options(opts.changed()) == opts


def test_player_count_is_two_to_six():
    for n in (1, 7):
        with pytest.raises(IllegalMove) as info:
            ENGINE.new_game(n, LiarsOptions(), SeededDice(0))
        assert info.value.code == "player_count"


def test_json_round_trip_mid_game_after_a_reveal():
    state, _, dice = new(3, [2] * 15 + [5] * 15, mode="loot")
    state, _ = play(state, dice, (A, "bid:2:2"), (B, "bid:9:2"), (C, "challenge"))
    state, _ = play(state, dice, (C, "bid:2:5"))  # the loser C starts round 2
    text = ENGINE.dumps(state)
    assert ENGINE.loads(text) == state and ENGINE.dumps(ENGINE.loads(text)) == text
    assert isinstance(ENGINE.loads(text), LiarsState)


def test_apply_leaves_its_input_as_it_was_and_replaces_what_it_changes():
    """States share the lists a move leaves alone: a move replaces what it changes and never edits in place."""
    state, _, dice = new(2, HAND_A + HAND_B + [2] * 9 + [3] * 8, mode="lose_die")
    state, _ = play(state, dice, (A, "bid:3:2"), (B, "challenge"), (B, "bid:1:2"))
    for seat, action, changed in ((A, Action("bid", (2, 2)), ("bids", "bid")), (A, CHALLENGE, ("counts", "hands"))):
        before = {name: clone(getattr(state, name)) for name in LiarsState.__slots__}
        after = ENGINE.apply(state, seat, action, dice)[0]
        assert {name: getattr(state, name) for name in LiarsState.__slots__} == before  # the input is unchanged
        for name in changed:
            assert getattr(after, name) is not getattr(state, name) and getattr(after, name) != before[name], name


def test_legal_bids_cache_lists_the_opening_in_rank_order():
    assert legal_bids("poker", False, 2)[:4] == tuple(Action("bid", b) for b in [(1, 1), (1, 2), (1, 3), (1, 4)])
    assert legal_bids("simple", False, 2)[:3] == tuple(Action("bid", b) for b in [(1, 1), (2, 1), (1, 2)])
    assert len(legal_bids("poker", False, 36)) == 216


def test_public_actions_are_the_seat_to_acts_legal_actions_and_in_every_view():
    state, _, dice = new(3, [1, 2, 3, 4, 5] * 3)
    for bid in ("bid:2:3", "bid:3:3"):  # the opening bids, then raises and the challenge
        seat = state.current
        legal = ENGINE.legal_actions(state, seat)
        assert ENGINE.public_actions(state) == {seat: legal}
        for viewer in (None, 0, 1, 2):
            assert ENGINE.view(state, viewer)["public"] == [a.encode() for a in legal]
        state, _ = play(state, dice, (seat, bid))
    assert Action.parse("challenge") in ENGINE.public_actions(state)[state.current]


def test_channel_controls_offer_the_views_public_bids_not_a_rederived_list():
    from bot.render.liar import controls

    state, _, _ = new(2, [1, 2, 3, 4, 5] * 2)
    view = ENGINE.view(state, None)
    view["public"] = ["bid:4:6"]  # the renderer offers what the engine declared, nothing it works out itself
    items = controls(view)
    assert [getattr(i, "action", None) for i in items][:1] == ["bid:4:6"]
    assert all(o[1] == "bid:4:6" for i in items if hasattr(i, "options") for o in i.options)
