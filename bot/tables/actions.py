"""A click's action text as the service applies it: parsed once per distinct text, and the text it logs."""

from __future__ import annotations

from functools import lru_cache

from bot.games import Action

PARSED_MOST = 4096  # distinct texts kept (the games' buttons and commands are far fewer)


def parsed(action: Action | str) -> tuple[Action, str]:
    """``(Action.parse(action), its encode())`` for a text, remembered: a button sends the same few texts all day
    (an ``Action`` is a tuple, so one may serve many moves); ``(action, action.encode())`` for an Action."""
    if not isinstance(action, str):
        return action, action.encode()
    return _parsed_text(action)


@lru_cache(maxsize=PARSED_MOST)
def _parsed_text(text: str) -> tuple[Action, str]:
    move = Action.parse(text)
    return move, move.encode()
