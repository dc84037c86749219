"""Mythical Dice achievements: each earned by a scripted game, and missed by a close one.

Two players (``allow_two_players``), a bag of red and yellow dice only, seat 0 starts and the hand's leader rotates.
The scripted draw deals the bag's first dice in order, so every hand is red: the trick's winner is the one who rolls
a 1 (a 7), the others roll a 6 (a 5)."""

from __future__ import annotations

from bot.achievements import earned
from tests.achievements.table import Table, member

A, B = 0, 1
BAG = "0,0,0,12,12,0,0"  # minotaur, griffin, mermaid, red, yellow, purple, gray


def mythic(hands: int = 3, players: int = 2) -> Table:
    per = ",".join(f"{n}:{hands}" for n in range(2, 7))
    options = {"allow_two_players": True, "hands_by_players": per, "dice_set": BAG, "first_start_player": "host"}
    return Table("mythic", players, options)


def hand(table: Table, bids: list[int], winners: list[int]) -> Table:
    """One hand: every seat bids, then each trick is won by the seat named (each plays their lowest die)."""
    state = table.state
    assert len(winners) == state.hand_no
    for seat, bid in enumerate(bids):
        table.log(seat, f"bid:{bid}")
    for winner in winners:
        for _ in range(table.players):
            seat = table.state.current
            table.push(1 if seat == winner else 6).log(seat, f"play:{min(table.state.hands[seat])}")
    return table


def of(table: Table, seat: int = A) -> tuple[str, ...]:
    assert table.over
    return earned(table.record()).get(member(seat), ())


def test_mythic_all_exact_and_winner_exact():
    table = mythic()
    hand(table, [1, 0], [A])
    hand(table, [1, 1], [A, B])
    hand(table, [2, 1], [A, B, A])
    assert {"mythic_all_exact", "mythic_winner_exact"} <= set(of(table))
    assert "mythic_all_exact" in of(table, B)  # exact too, and not the winner
    assert "mythic_winner_exact" not in of(table, B)


def test_mythic_all_exact_missed_by_one_hand():
    table = mythic()
    hand(table, [1, 0], [A])
    hand(table, [1, 1], [A, B])
    hand(table, [1, 2], [A, B, A])  # seat 0 bid 1, took 2
    assert "mythic_all_exact" not in of(table)
    assert "mythic_winner_exact" in of(table)  # two exact, one missed


def test_mythic_big_bid_and_sweep():
    table = mythic()
    hand(table, [0, 0], [B])
    hand(table, [0, 0], [B, B])
    hand(table, [3, 0], [A, A, A])
    assert {"mythic_big_bid", "mythic_sweep"} <= set(of(table))
    assert "mythic_zero" in of(table, B)


def test_mythic_big_bid_missed_at_two_and_sweep_missed_in_a_hand_of_two():
    table = mythic()
    hand(table, [1, 0], [A])
    hand(table, [2, 0], [A, A])  # every trick of a hand of two
    hand(table, [2, 1], [A, A, B])
    assert "mythic_big_bid" not in of(table)
    assert "mythic_sweep" not in of(table)


def test_mythic_sweep_without_an_exact_bid():
    table = mythic()
    hand(table, [0, 1], [B])
    hand(table, [0, 2], [B, B])
    hand(table, [1, 0], [A, A, A])
    assert "mythic_sweep" in of(table)
    assert "mythic_big_bid" not in of(table)


def test_mythic_zero_missed_by_a_trick_taken_and_in_a_smaller_hand():
    table = mythic()
    hand(table, [0, 1], [B])
    hand(table, [0, 2], [B, B])  # nothing bid, nothing taken: a hand of two dice
    hand(table, [0, 2], [B, B, A])  # nothing bid, one taken
    assert "mythic_zero" not in of(table)


def test_mythic_winner_exact_missed_with_as_many_missed():
    table = mythic(hands=2)
    hand(table, [1, 1], [A])  # seat 0 exact (+20), seat 1 missed (-10)
    hand(table, [0, 2], [A, B])  # seat 0 missed (-20): 0 against -20
    assert table.engine.outcome(table.state).winners == (A,)
    assert "mythic_winner_exact" not in of(table)


def test_mythic_all_exact_missed_when_the_game_ends_early():
    table = mythic(players=3)
    hand(table, [1, 0, 0], [A])
    table.log(B, "forfeit:leave")
    table.log(2, "forfeit:leave")  # one player left: the game ends after one hand of three
    assert "mythic_all_exact" not in of(table)
