"""Mex reference player ``sensible``: simple thresholds on the throw, the throws left and its lives.

The lowest final value loses the round, so:

* a throw that beats the lowest value already standing is safe: stand;
* otherwise, after someone has stood, throw again while throws remain;
* the first player (who sets the throw limit for everyone) stands on 64 or better with two
  throws left and on 54 or better with one; on its last life it wants a double with two left
  and 62 with one (``FIRST_STAND``).

It never keeps a die, never ends a round early, and picks Mex counting in a tie-break.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.ai.reference._base import make_choose
from bot.games.base import Action
from bot.games.mex import STAND, THROW, mex_value

KINDS = ("sensible",)
#: (last life?) -> throws left -> stand at or above this value, for the first player
FIRST_STAND = {False: {2: 64, 1: 54}, True: {2: 100, 1: 62}}


def _decide(view: Mapping[str, Any], kind: str, rng: Any, actions: list[Action]) -> Action:
    modes = [a for a in actions if a.name == "choose"]
    if modes:
        want = Action("choose", ("mex",))
        return want if want in modes else modes[0]
    r = view["round"]
    me = view["you"]
    throws = r["throws"][me]
    if not throws or THROW not in actions or STAND not in actions:
        return THROW if THROW in actions else (STAND if STAND in actions else actions[0])
    value = mex_value(throws[-1])
    final = r["final"]
    earlier = [v for q in r["order"][: r["pos"]] if (v := final[q]) is not None]
    if earlier:
        return STAND if value > min(earlier) else THROW
    limit = r["throw_limit"] or int((view.get("options") or {}).get("max_throws", 3))
    left = limit - len(throws)
    last_life = int(view["lives"][me]) <= 1
    return STAND if value >= FIRST_STAND[last_life].get(left, 0) else THROW


choose = make_choose(_decide, KINDS, "Mex")
