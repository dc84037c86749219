"""Liar's Dice achievements: each earned by a scripted game, and missed by a close one. Seat 0 opens the first
round (the scripted draw takes the first seat); each round deals seat by seat (the faces pushed before the move that
starts it); the loser of a challenge opens the next round."""

from __future__ import annotations

from typing import Any

from bot.achievements import earned
from tests.achievements.table import Table, member

A, B = 0, 1


def liar(dice: int, *deal: int, mode: str = "lose_die", **options: Any) -> Table:
    return Table("liar", 2, {"dice_per_player": dice, "mode": mode, **options}, faces=deal)


def of(table: Table, seat: int) -> tuple[str, ...]:
    assert table.over
    return earned(table.record()).get(member(seat), ())


def bid_and_challenge(table: Table, bidder: int, bid: str, *next_deal: int) -> Table:
    challenger = 1 - bidder
    return table.push(*next_deal).do((bidder, f"bid:{bid}"), (challenger, "challenge"))


def test_liar_last_die_challenge_correct_with_one_die():
    table = liar(1, 3, 5)
    bid_and_challenge(table, A, "2:3")  # one 3 on the table: seat 1 is right, seat 0 is out
    assert "liar_last_die_challenge" in of(table, B)
    assert "liar_last_die_challenge" not in of(table, A)


def test_liar_last_die_challenge_missed_with_two_dice():
    table = liar(2, 3, 4, 5, 6)
    bid_and_challenge(table, A, "2:3", 3, 4, 5)  # seat 1 is right, with two dice
    bid_and_challenge(table, A, "2:3")  # and again: seat 0 is out
    assert "liar_last_die_challenge" not in of(table, B)


def test_liar_last_die_challenge_missed_when_the_challenge_is_wrong():
    table = liar(1, 3, 3)
    bid_and_challenge(table, A, "2:3")  # two 3s: the bid stands, seat 1 (one die) is out
    assert "liar_last_die_challenge" not in of(table, B)


def test_liar_exact_bid_challenged():
    table = liar(1, 3, 3)
    bid_and_challenge(table, A, "2:3")
    assert "liar_exact_bid" in of(table, A)


def test_liar_exact_bid_missed_with_one_more_than_bid():
    table = liar(2, 3, 4, 3, 3)
    bid_and_challenge(table, A, "2:3", 2, 5, 6)  # three 3s: true, not exact; seat 1 loses a die and opens
    bid_and_challenge(table, B, "2:6")  # one 6: seat 1 is out
    assert "liar_exact_bid" not in of(table, A)


def test_liar_sharp_eye_and_flawless_three_correct_challenges():
    table = liar(3, 1, 2, 3, 4, 5, 6)
    bid_and_challenge(table, A, "3:6", 1, 2, 4, 5, 6)  # one 6: seat 0 loses a die, opens again
    bid_and_challenge(table, A, "3:6", 1, 4, 5, 6)
    bid_and_challenge(table, A, "3:6")
    assert {"liar_sharp_eye", "liar_flawless"} <= set(of(table, B))
    assert of(table, A) == ()


def test_liar_sharp_eye_missed_at_two():
    table = liar(2, 1, 2, 5, 6)
    bid_and_challenge(table, A, "3:6", 1, 5, 6)
    bid_and_challenge(table, A, "3:6")
    assert "liar_sharp_eye" not in of(table, B)
    assert "liar_flawless" in of(table, B)


def test_liar_flawless_missed_in_the_single_round_mode():
    table = liar(2, 1, 2, 5, 6, mode="single")
    bid_and_challenge(table, A, "3:6")
    assert table.engine.outcome(table.state).winners == (B,)
    assert "liar_flawless" not in of(table, B)


def test_liar_comeback_from_one_die_and_not_flawless():
    table = liar(2, 1, 2, 5, 6)
    bid_and_challenge(table, A, "3:6", 2, 2, 3)  # one 6: seat 0 is down to one die, opens again
    bid_and_challenge(table, A, "2:2", 2, 3)  # two 2s: seat 1 loses a die (one each), opens
    bid_and_challenge(table, B, "2:3")  # one 3: seat 1 is out
    assert "liar_comeback" in of(table, A)
    assert "liar_flawless" not in of(table, A)


def test_liar_comeback_missed_in_a_game_of_one_die():
    table = liar(1, 3, 5)
    bid_and_challenge(table, A, "2:3")
    assert "liar_comeback" not in of(table, B)


def test_liar_comeback_earned_by_passing_dice():
    table = liar(2, 1, 2, 5, 6, mode="loot")
    bid_and_challenge(table, A, "3:6", 2, 2, 2, 3)  # one 6: seat 0 passes a die (1 against 3), opens again
    bid_and_challenge(table, A, "2:2", 2, 5, 2, 6)  # three 2s: seat 1 passes one back (2 each), opens
    bid_and_challenge(table, B, "3:6", 2, 5, 6, 2)  # one 6: seat 1 passes (3 against 1), opens
    bid_and_challenge(table, B, "3:2")  # two 2s: seat 1 is out
    assert "liar_comeback" in of(table, A)
    assert "liar_comeback" not in of(table, B)
