"""Mia achievements: each earned by a scripted game, and missed by a close one. Seat 0 starts; the bot rolls the
starter's dice at each round's start (the faces pushed before the move that starts the round)."""

from __future__ import annotations

from bot.achievements import earned
from tests.achievements.table import Table, member

A, B = 0, 1


def of(table: Table, seat: int = A) -> tuple[str, ...]:
    assert table.over
    return earned(table.record()).get(member(seat), ())


def truthful_31(table: Table, claimant: int, challenger: int, *next_round: int) -> Table:
    """``claimant`` holds 3-1 and says so; ``challenger`` challenges and loses a life."""
    return table.push(*next_round).do((claimant, "claim:31"), (challenger, "challenge"))


def caught_bluff(table: Table, starter: int, bluffer: int, *next_round: int) -> Table:
    """``starter`` announces 3-1 truly; ``bluffer`` believes, rolls 3-2 and claims 4-1; ``starter`` catches it."""
    table.push(3, 2).do((starter, "claim:31"), (bluffer, "roll"), (bluffer, "peek"), (bluffer, "claim:41"))
    return table.push(*next_round).do((starter, "challenge"))


def test_mia_flawless_and_not_last_life_with_every_life_kept():
    table = Table("mia", 2, {"lives": 2}, faces=(3, 1))
    truthful_31(table, A, B, 3, 1)  # the next round starts left of the loser: seat 0 again
    truthful_31(table, A, B)
    assert "mia_flawless" in of(table)
    assert "mia_last_life" not in of(table)


def test_mia_last_life_and_not_flawless_after_one_life_lost():
    table = Table("mia", 2, {"lives": 2}, faces=(3, 2))
    table.push(3, 1).do((A, "claim:41"), (B, "challenge"))  # caught bluffing: seat 0 has one life, seat 1 starts
    table.push(3, 2).do((B, "claim:41"))
    table.push(3, 1).do((A, "challenge"))  # seat 1 caught: one life each, seat 0 starts
    truthful_31(table, A, B)
    assert "mia_last_life" in of(table)
    assert "mia_flawless" not in of(table)


def test_mia_real_mia_revealed():
    table = Table("mia", 2, {"lives": 2}, faces=(2, 1))
    table.do((A, "claim:21"), (B, "challenge_mia"))  # real: seat 1 loses two lives
    assert "mia_real_mia" in of(table)


def test_mia_real_mia_missed_by_a_mia_bluff():
    table = Table("mia", 2, {"lives": 1}, faces=(3, 2))
    table.do((A, "claim:21"), (B, "challenge_mia"))
    assert "mia_real_mia" not in of(table) and "mia_real_mia" not in of(table, B)


def test_mia_bluff_hunter_three_bluffs_caught():
    table = Table("mia", 2, {"lives": 3}, faces=(3, 1))
    caught_bluff(table, A, B, 3, 1)  # seat 1 loses; the next round starts left of them: seat 0
    caught_bluff(table, A, B, 3, 1)
    caught_bluff(table, A, B)
    assert "mia_bluff_hunter" in of(table)
    assert "mia_bluff_hunter" not in of(table, B)


def test_mia_bluff_hunter_missed_at_two():
    table = Table("mia", 2, {"lives": 2}, faces=(3, 1))
    caught_bluff(table, A, B, 3, 1)
    caught_bluff(table, A, B)
    assert "mia_bluff_hunter" not in of(table)


def test_mia_full_table_five_players():
    table = Table("mia", 5, {"lives": 1, "stop_at_first_elimination": True}, faces=(3, 1))
    truthful_31(table, A, B)
    winner = table.engine.outcome(table.state).winners[0]
    assert "mia_full_table" in of(table, winner)
    assert all("mia_full_table" not in of(table, seat) for seat in range(5) if seat != winner)


def test_mia_full_table_missed_at_four_players():
    table = Table("mia", 4, {"lives": 1, "stop_at_first_elimination": True}, faces=(3, 1))
    truthful_31(table, A, B)
    assert not any("mia_full_table" in of(table, seat) for seat in range(4))
