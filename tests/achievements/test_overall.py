"""The achievements across games, over histories of real finished games: each earned and closely missed, and
the game with which each was first reached."""

from __future__ import annotations

from bot.achievements import PlayerGame, earned_overall, first_reached
from tests.achievements.table import Table, history_entry

GAMES = ("pig", "mia", "mex", "liar", "mythic")


def pig(game_id: int, won: bool) -> Table:
    """A game of Pig seat 0 wins (four rolls to 20) or loses (a bust, then seat 1's 20)."""
    table = Table("pig", 2, {"target": 20})
    if not won:
        table.push(1).log(0, "roll")
        for face in (6, 6, 6, 2):
            table.push(face).log(1, "roll")
    else:
        for face in (6, 6, 6, 2):
            table.push(face).log(0, "roll")
    assert table.over
    return table


def pig_history(*wins: bool) -> list[PlayerGame]:
    return [history_entry(pig(n, won).record(n), 0, 1000.0 + n) for n, won in enumerate(wins, start=1)]


def won_once(game: str, game_id: int, finished_at: float) -> PlayerGame:
    """A finished game of ``game`` won by seat 1, the others left at once (the shortest real win)."""
    players = 3 if game == "mythic" else 2
    table = Table(game, players, {}, faces=[1] * 40)
    for seat in range(players):
        if seat != 1:
            table.log(seat, "forfeit:leave")
    record = table.record(game_id)
    assert record.results[1].result == "win"
    return history_entry(record, 1, finished_at)


def test_first_win_and_when():
    history = pig_history(False, False, True, False)
    assert "first_win" in earned_overall(history)
    assert first_reached(history)["first_win"] == 3


def test_first_win_missed_with_losses_only():
    assert "first_win" not in earned_overall(pig_history(False, False))
    assert earned_overall([]) == ()


def test_ten_wins_reached_with_the_tenth():
    history = pig_history(*[True] * 9, False, True)
    assert "ten_wins" in earned_overall(history)
    assert first_reached(history)["ten_wins"] == 11


def test_ten_wins_missed_at_nine():
    assert "ten_wins" not in earned_overall(pig_history(*[True] * 9, False))


def test_every_game_win_with_the_fifth_game():
    history = [won_once(game, n, 2000.0 + n) for n, game in enumerate(GAMES, start=1)]
    assert "every_game_win" in earned_overall(history)
    assert first_reached(history)["every_game_win"] == 5


def test_every_game_win_missed_with_a_loss_in_the_last_game():
    history = [won_once(game, n, 2000.0 + n) for n, game in enumerate(GAMES[1:], start=1)]
    history += pig_history(False, False)  # Pig played, never won
    assert "every_game_win" not in earned_overall(history)


def test_regular_at_fifty_games_won_or_not():
    history = pig_history(*[False] * 49, True)
    assert "regular" in earned_overall(history)
    assert first_reached(history)["regular"] == 50


def test_regular_missed_at_forty_nine():
    assert "regular" not in earned_overall(pig_history(*[False] * 49))


def test_history_is_read_in_finish_order_not_list_order():
    history = pig_history(True, False)
    history.reverse()
    reached = first_reached(history)
    assert reached["first_win"] == 1
