"""A click's action text as the service applies it: parsed once per distinct text, and the text it logs."""

from __future__ import annotations

from bot.games import Action

_PARSED: dict[str, tuple[Action, str]] = {}  # an action's text -> (its Action, that Action's own text)
PARSED_MOST = 4096  # distinct texts kept (the games' buttons and commands are far fewer): emptied when full


def parsed(action: Action | str) -> tuple[Action, str]:
    """``(Action.parse(action), its encode())`` for a text, remembered: a button sends the same few texts all day
    (an ``Action`` is a tuple, so one may serve many moves); ``(action, action.encode())`` for an Action."""
    if not isinstance(action, str):
        return action, action.encode()
    known = _PARSED.get(action)
    if known is None:
        move = Action.parse(action)
        if len(_PARSED) >= PARSED_MOST:
            _PARSED.clear()
        known = _PARSED[action] = (move, move.encode())
    return known
