"""Mex achievements: each earned by a scripted game, and missed by a close one. Seat 0 starts (``seat1``); with
one throw each and no early end, every throw ends its turn; the round's loser starts the next."""

from __future__ import annotations

from typing import Any

from bot.achievements import earned
from tests.achievements.table import Table, member

A, B = 0, 1
MEX = (2, 1)


def mex(players: int = 2, **options: Any) -> Table:
    return Table("mex", players, {"first_starter": "seat1", "max_throws": 1, "allow_end_round_early": False, **options})


def throws(table: Table, *faces: tuple[int, int]) -> Table:
    """Each pair thrown by whoever is to act, in turn."""
    for pair in faces:
        (seat,) = table.engine.to_act(table.state)
        table.push(*pair).log(seat, "throw")
    return table


def of(table: Table, seat: int = A) -> tuple[str, ...]:
    assert table.over
    return earned(table.record()).get(member(seat), ())


def test_mex_three_mexes_and_flawless():
    table = mex(starting_lives=6)
    throws(table, MEX, (3, 1))  # seat 1 loses 2 (one Mex thrown), starts the next round
    throws(table, (3, 1), MEX)
    throws(table, (4, 1), MEX)  # seat 1 is out
    assert {"mex_three_mexes", "mex_first_throw", "mex_flawless"} <= set(of(table))
    assert of(table, B) == ()


def test_mex_three_mexes_missed_when_the_third_is_a_tie_break_throw():
    table = mex(starting_lives=5, tiebreak_mode_choice="always_mex")
    throws(table, MEX, (3, 1))  # seat 1: 3 lives
    throws(table, (3, 1), MEX)  # seat 1: 1 life
    throws(table, (3, 1), (3, 1))  # seat 1 then seat 0 tie lowest: an extra round counted as Mex
    throws(table, (4, 1), MEX)  # seat 1 throws 4-1 and seat 0 a Mex: seat 1 loses one life, and is out
    assert table.events[-1].kind == "game_over"
    assert "mex_three_mexes" not in of(table)


def test_mex_first_throw_missed_when_the_mex_is_the_second_throw():
    table = mex(max_throws=2, starting_lives=1)
    throws(table, (3, 1), MEX)  # seat 0's second throw is a Mex (and sets the limit to two)
    throws(table, (4, 1))
    table.log(B, "stand")  # seat 1 stands on 4-1: the lowest, out
    assert "mex_first_throw" not in of(table)
    assert "mex_flawless" in of(table)


def test_mex_first_throw_missed_by_a_mex_in_an_extra_round():
    table = mex(starting_lives=1, tiebreak_mode_choice="always_mex")
    throws(table, (3, 1), (3, 1), MEX, (4, 1))  # a tie; seat 0's Mex is the first throw of the extra round
    assert "mex_first_throw" not in of(table)
    assert "mex_three_mexes" not in of(table)


def test_mex_last_life_and_not_flawless():
    table = mex(starting_lives=2)
    throws(table, (3, 1), (4, 1))  # seat 0 loses a life, starts again
    throws(table, (4, 1), (3, 1))  # seat 1 loses a life, starts
    throws(table, (3, 1), (4, 1))  # seat 1 is out
    assert "mex_last_life" in of(table)
    assert "mex_flawless" not in of(table)


def test_mex_last_life_missed_in_a_game_of_one_life():
    table = mex(starting_lives=1)
    throws(table, (4, 1), (3, 1))
    assert "mex_last_life" not in of(table)  # one life left, none lost
    assert "mex_flawless" in of(table)


def test_mex_flawless_missed_when_the_other_leaves_before_any_round():
    table = mex(starting_lives=3)
    table.log(B, "forfeit:leave")
    assert table.engine.outcome(table.state).winners == (A,)
    assert "mex_flawless" not in of(table)


def test_mex_full_table_five_players():
    table = mex(5, starting_lives=1)
    for left in (5, 4, 3, 2):  # the first thrower of each round throws the lowest and goes out
        throws(table, (3, 1), *[(4, k) for k in range(1, left)])
    assert "mex_full_table" in of(table, 4)
    assert all("mex_full_table" not in of(table, seat) for seat in range(4))


def test_mex_full_table_missed_at_four_players():
    table = mex(4, starting_lives=1)
    for left in (4, 3, 2):
        throws(table, (3, 1), *[(4, k) for k in range(1, left)])
    assert not any("mex_full_table" in of(table, seat) for seat in range(4))
