"""What an action-log entry means to an engine: the one place that turns a logged action back into an engine call.

The table service logs ``start`` (the deal), ``timeout`` and ``forfeit:<why>`` (its own doing) and every move as the
game encodes it (``Action.encode``). Restoring a table, replaying a finished game and verifying its dice all read the
log through ``apply_logged``, so the three cannot disagree about what an entry means.
"""

from __future__ import annotations

from typing import Any

from bot.games.base import Action, Engine, Event
from bot.games.dice import DiceSource

START, TIMEOUT, FORFEIT = "start", "timeout", "forfeit:"


class LogOrderError(ValueError):
    """A log that cannot be a game: ``second_start`` or ``before_start`` (a move with no game yet)."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


def apply_logged(
    engine: Engine, state: Any, seat: int | None, text: str, dice: DiceSource, players: int, options: Any
) -> tuple[Any, list[Event]]:
    """The state and events after the logged action ``text`` of ``seat``; ``state`` is None before ``start``.
    ``players`` and ``options`` (a dict or the engine's Options) are read by ``start`` only. Refusals propagate
    (IllegalMove, InvalidOptions): a log of the service's never has one."""
    if text == START:
        if state is not None:
            raise LogOrderError("second_start")
        return engine.new_game(players, options if not isinstance(options, dict) else engine.options(options), dice)
    if state is None or seat is None:
        raise LogOrderError("before_start")
    if text == TIMEOUT:
        return engine.timeout(state, seat, dice)
    if text.startswith(FORFEIT):
        return engine.forfeit(state, seat, dice)
    return engine.apply(state, seat, Action.parse(text), dice)
