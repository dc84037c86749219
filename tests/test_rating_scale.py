"""The rating players see (bot.ratings.shown): 1000 for a newcomer, whole points, never reordering a board."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.ratings import NEW, SHOWN_START, Finish, settle, shown


def test_a_newcomer_shows_1000_and_one_game_moves_it_by_tens_of_points() -> None:
    assert NEW.shown == SHOWN_START == 1000
    after = settle({}, [Finish(1, 1, "win"), Finish(2, 2, "loss")])
    assert 1040 <= after[1].shown <= 1200  # a win: up by a readable amount
    assert 850 <= after[2].shown < 1000  # a loss: down, far from negative (the ordinal was -1.8)


@given(st.lists(st.floats(min_value=-60, max_value=60, allow_nan=False), min_size=2, max_size=20))
def test_the_shown_scale_never_reorders(ordinals: list[float]) -> None:
    ranked = sorted(ordinals, reverse=True)
    shown_ranked = [shown(o) for o in ranked]
    assert shown_ranked == sorted(shown_ranked, reverse=True)
    assert all(value >= 0 for value in shown_ranked)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.booleans(), min_size=1, max_size=30), st.integers(min_value=2, max_value=6))
def test_a_new_player_is_never_negative_whatever_their_first_games(wins: list[bool], seats: int) -> None:
    """Even losing every game at a full table, a new player's shown rating stays well above zero."""
    book: dict = {}
    for won in wins:
        places = [1 if won else seats] + [2 + i if won else 1 + i for i in range(seats - 1)]
        finishes = [Finish(1, places[0], "win" if won else "loss")]
        finishes += [Finish(10 + i, places[1 + i], "") for i in range(seats - 1)]
        book.update(settle(book, finishes))
        assert book[1].shown > 0
