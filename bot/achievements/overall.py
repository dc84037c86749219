"""The achievements across games: rules over one member's finished games, oldest first."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bot.achievements.model import WIN, PlayerGame

OverallRule = Callable[[Sequence[PlayerGame]], bool]

# The games a win in every game asks for: fixed, so that a game added later does not take the achievement away.
EVERY_GAME = ("pig", "mia", "mex", "liar", "mythic")


def _wins(history: Sequence[PlayerGame]) -> int:
    return sum(game.result == WIN for game in history)


def first_win(history: Sequence[PlayerGame]) -> bool:
    """A first win, in any game."""
    return _wins(history) >= 1


def ten_wins(history: Sequence[PlayerGame]) -> bool:
    """Ten wins, over all games."""
    return _wins(history) >= 10


def every_game_win(history: Sequence[PlayerGame]) -> bool:
    """A win in each of Pig, Mia, Mex, Liar's Dice and Mythical Dice."""
    return set(EVERY_GAME) <= {game.game for game in history if game.result == WIN}


def regular(history: Sequence[PlayerGame]) -> bool:
    """Fifty finished games, won or not."""
    return len(history) >= 50
