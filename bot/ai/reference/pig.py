"""Pig reference player ``sensible``: hold at 20 (25 with two dice), or as soon as holding reaches the target.

Under ``equal_turns``, once an opponent has the target it keeps rolling until it passes them
(holding short of that cannot win).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.ai.reference._base import make_choose
from bot.games.base import Action
from bot.games.pig import HOLD, ROLL

KINDS = ("sensible",)
HOLD_AT = {1: 20, 2: 25}


def _decide(view: Mapping[str, Any], kind: str, rng: Any, actions: list[Action]) -> Action:
    options = view.get("options") or {}
    me = view["you"]
    scores = [int(s) for s in view["scores"]]
    active = list(view.get("active") or [True] * len(scores))
    target = int(options.get("target", 100))
    i, k = scores[me], int(view.get("turn_total", 0))
    j = max((s for seat, s in enumerate(scores) if seat != me and active[seat]), default=0)
    if options.get("equal_turns") and j >= target:
        hold = i + k > j
    else:
        hold = k > 0 and (i + k >= target or k >= HOLD_AT.get(int(options.get("dice", 1)), 20))
    want = HOLD if hold else ROLL
    return want if want in actions else (ROLL if ROLL in actions else actions[0])


choose = make_choose(_decide, KINDS, "Pig")
