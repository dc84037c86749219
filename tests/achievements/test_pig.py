"""Pig achievements: each earned by a scripted game, and missed by a close one."""

from __future__ import annotations

from bot.achievements import earned
from tests.achievements.table import Table, member

A, B = 0, 1


def game(*steps: tuple[int, str | tuple[int, ...]], **options) -> Table:
    """Seat 0 starts; a step is (seat, faces) to roll those faces, or (seat, "H") to hold."""
    table = Table("pig", 2, options)
    for seat, step in steps:
        if step == "H":
            table.log(seat, "hold")
        else:
            table.push(*step).log(seat, "roll")
    assert table.over
    return table


def rolls(seat: int, *faces: int) -> list[tuple[int, tuple[int, ...]]]:
    return [(seat, (face,)) for face in faces]


def of(table: Table, seat: int = A) -> tuple[str, ...]:
    return earned(table.record()).get(member(seat), ())


def test_pig_bank_30_a_turn_of_thirty_banked():
    table = game(*rolls(A, 6, 6, 6, 6, 6), (A, "H"), target=30, auto_hold_at_target=False)
    assert "pig_bank_30" in of(table)


def test_pig_bank_30_missed_at_twenty_nine():
    table = game(*rolls(A, 6, 6, 6, 6, 5), (A, "H"), target=29, auto_hold_at_target=False)
    assert "pig_bank_30" not in of(table)


def test_pig_one_turn_win_and_no_bust():
    table = game(*rolls(A, 6, 6, 6, 2), target=20)  # the automatic hold at 20 wins
    assert {"pig_one_turn_win", "pig_no_bust"} <= set(of(table))
    assert of(table, B) == ()  # the loser earns nothing here


def test_pig_one_turn_win_missed_with_two_banks_and_no_bust_still_earned():
    table = game(*rolls(A, 6), (A, "H"), *rolls(B, 1), *rolls(A, 6, 6, 2), target=20)
    assert "pig_one_turn_win" not in of(table)
    assert "pig_no_bust" in of(table)


def test_pig_no_bust_missed_after_one_bust_and_one_turn_win_still_earned():
    table = game(*rolls(A, 1), *rolls(B, 1), *rolls(A, 6, 6, 6, 2), target=20)
    assert "pig_no_bust" not in of(table)
    assert "pig_one_turn_win" in of(table)  # a bust banks nothing


def test_pig_ten_rolls_in_one_turn_banked():
    table = game(*rolls(A, *[2] * 10), target=20)
    assert "pig_ten_rolls" in of(table)


def test_pig_ten_rolls_missed_at_nine_then_one():
    table = game(*rolls(A, *[2] * 9), (A, "H"), *rolls(B, 1), *rolls(A, 2), target=20)
    assert "pig_ten_rolls" not in of(table)


def test_pig_double_ones_worth_25():
    table = game((A, (1, 1)), dice=2, target=20)
    assert "pig_double_ones" in of(table)


def test_pig_double_ones_missed_when_they_bust():
    table = game((A, (1, 1)), (B, (1, 2)), (A, (6, 6)), dice=2, target=20, double_ones="bust")
    assert "pig_double_ones" not in of(table)
    assert of(table) == ("pig_one_turn_win",)  # 24 in one turn, after a bust: no pig_no_bust


def test_a_computer_player_never_earns():
    table = game(*rolls(A, 6, 6, 6, 6, 6), (A, "H"), target=30, auto_hold_at_target=False)
    table.computers.add(A)
    assert earned(table.record()) == {}
