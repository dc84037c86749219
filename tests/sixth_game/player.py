"""High Roll's computer player: there is only ever one move (roll), so every level plays it."""

from __future__ import annotations

from typing import Any

from bot.ai.common import make_choose
from bot.games.base import Action

from .engine import HighRollView


def _decide(view: HighRollView, level: str, rng: Any, actions: list[Action]) -> Action:
    return actions[0]  # called only with two or more actions: never, in this game


choose = make_choose(_decide, "High Roll")
