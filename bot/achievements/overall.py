"""The achievements across games: rules over one member's finished games, oldest first."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bot.achievements.model import WIN, PlayerGame

OverallRule = Callable[[Sequence[PlayerGame]], bool]

# The games a win in every game asks for: fixed, so that a game added later does not take the achievement away.
EVERY_GAME = ("pig", "mia", "mex", "liar", "mythic")
TEN_WINS = 10
REGULAR_GAMES = 50


def _wins(history: Sequence[PlayerGame]) -> int:
    return sum(game.result == WIN for game in history)


def first_win(history: Sequence[PlayerGame]) -> bool:
    """A first win, in any game."""
    return _wins(history) >= 1


def ten_wins(history: Sequence[PlayerGame]) -> bool:
    """Ten wins, over all games."""
    return _wins(history) >= TEN_WINS


def every_game_win(history: Sequence[PlayerGame]) -> bool:
    """A win in each of Pig, Mia, Mex, Liar's Dice and Mythical Dice."""
    return set(EVERY_GAME) <= {game.game for game in history if game.result == WIN}


def regular(history: Sequence[PlayerGame]) -> bool:
    """Fifty finished games, won or not."""
    return len(history) >= REGULAR_GAMES


# -- where each rule is first reached ---------------------------------------------------------------------------
# Each rule above only ever becomes true as games are added; these give the length of the shortest prefix of a
# history (oldest first) that earns it, or None, in one pass: what the bisection of ``first_reached`` finds, without
# applying the rule to about log2(n) prefixes (tests/achievements/test_overall.py pins the two as equal).
Reached = Callable[[Sequence[PlayerGame]], int | None]


def _nth_win(history: Sequence[PlayerGame], n: int) -> int | None:
    wins = 0
    for i, game in enumerate(history):
        if game.result == WIN:
            wins += 1
            if wins == n:
                return i + 1
    return None


def _first_win_reached(history: Sequence[PlayerGame]) -> int | None:
    return _nth_win(history, 1)


def _ten_wins_reached(history: Sequence[PlayerGame]) -> int | None:
    return _nth_win(history, TEN_WINS)


def _every_game_win_reached(history: Sequence[PlayerGame]) -> int | None:
    missing = set(EVERY_GAME)
    for i, game in enumerate(history):
        if game.result == WIN:
            missing.discard(game.game)
            if not missing:
                return i + 1
    return None


def _regular_reached(history: Sequence[PlayerGame]) -> int | None:
    return REGULAR_GAMES if len(history) >= REGULAR_GAMES else None


REACHED: dict[OverallRule, Reached] = {
    first_win: _first_win_reached,
    ten_wins: _ten_wins_reached,
    every_game_win: _every_game_win_reached,
    regular: _regular_reached,
}
