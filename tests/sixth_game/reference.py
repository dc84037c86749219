"""High Roll's reference player ``sensible``: it rolls (the only move)."""

from __future__ import annotations

from typing import Any

from bot.ai.reference._base import make_choose
from bot.games.base import Action

from .engine import HighRollView

KINDS = ("sensible",)


def _decide(view: HighRollView, kind: str, rng: Any, actions: list[Action]) -> Action:
    return actions[0]


choose = make_choose(_decide, KINDS, "High Roll")
