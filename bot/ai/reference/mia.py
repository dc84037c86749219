"""Mia reference players: the rational player (``rational`` = ``sensible``), ``always_mia`` and ``claim62``.

``rational``:

* **Announcing**: it looks at its dice; a roll that beats the standing claim (or any opening
  roll) is announced truthfully, otherwise it lies minimally (the lowest legal value; not Mia
  under ``mia_mode=auto_reveal`` while anything else is legal).
* **Receiving a claim**: it challenges when the claim's probability is below 1/2, given that the
  claim had to beat the previous one: t = P(roll >= claim | roll > previous claim) for a fresh
  roll. The view names no previous claim within the round (only the standing one), so that is
  P(fresh roll >= claim): it challenges 62 and above (P(>= 62) = 16/36), believes 61 and below.
  Facing Mia it checks when ``mia_check_penalty`` x P(real Mia) < 1 (always, at P = 1/18).
  It never passes blind.

``always_mia`` announces Mia whatever it rolled (without looking); ``claim62`` claims 62 whenever
its roll is weaker than 62 and 62 is legal (truthful or minimal otherwise, like ``rational``).
Both respond to claims like ``rational``.

The fixed exploits (issue 31), each a simple strategy the computer players must not be farmed by:

* ``mia_lie``: truthful when its roll beats the standing claim, otherwise it announces Mia (the strategy that
  beat hard heads-up before issue 31); it responds like ``rational``;
* ``lowest``: always announces the lowest legal value, whatever it rolled (it never looks); responds like
  ``rational``;
* ``step2`` / ``step3``: always announces the value 2 / 3 ranks above the standing claim (an opening: the 2nd /
  3rd lowest value; Mia when that would pass it), whatever it rolled; responds like ``rational``;
* ``from<T>`` for every value T below Mia (``from31`` ... ``from11`` in the ``ones_high`` names, whatever the
  order): challenges every claim ranked at or above T and believes the rest (a Mia it always checks); it
  announces like ``rational``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.ai.reference._base import make_choose
from bot.games.base import Action
from bot.games.mia import CHALLENGE, CHALLENGE_MIA, GIVE_UP, MIA, PEEK, ROLL, rank, ranked_values, value_of

#: the challenge-from-T receivers, by the values' names (rank order follows ``doubles_order``)
FROM_KINDS = tuple(f"from{v}" for v in ranked_values() if v != MIA)
STEPS = {"lowest": 1, "step2": 2, "step3": 3}
KINDS = ("sensible", "rational", "always_mia", "claim62", "mia_lie", *STEPS, *FROM_KINDS)
#: P(a fresh roll = v) for each of the 21 values (1/18 for Mia and non-doubles, 1/36 for doubles).
PROB = {v: (1 if v // 10 == v % 10 else 2) / 36 for v in ranked_values()}
BLUFF_62 = 62


def p_at_least(value: int, order: str) -> float:
    """P(a fresh roll ranks >= ``value``)."""
    key = rank(value, order)
    return sum(p for v, p in PROB.items() if rank(v, order) >= key)


def claim_probability(claim: int, order: str) -> float:
    """The rational player's P(claim true): P(fresh roll >= claim), there being no previous claim in the view."""
    return p_at_least(claim, order)


def _decide(view: Mapping[str, Any], kind: str, rng: Any, actions: list[Action]) -> Action:
    order = (view.get("options") or {}).get("doubles_order", "ones_high")
    claims = [int(a.args[0]) for a in actions if a.name == "claim" and a.args]
    if kind == "always_mia" and MIA in claims:
        return Action("claim", (MIA,))
    if kind in STEPS and claims:
        claims.sort(key=lambda v: rank(v, order))
        return Action("claim", (claims[min(STEPS[kind], len(claims)) - 1],))
    if PEEK in actions:
        return PEEK
    if CHALLENGE_MIA in actions or GIVE_UP in actions:
        penalty = int((view.get("options") or {}).get("mia_check_penalty", 2))
        give_up = penalty * claim_probability(MIA, order) > 1
        want = GIVE_UP if give_up else CHALLENGE_MIA
        return want if want in actions else actions[0]
    claim = view.get("claim")
    if CHALLENGE in actions and claim is not None:
        if kind.startswith("from"):
            doubt = rank(int(claim), order) >= rank(int(kind[4:]), order)
        else:
            doubt = claim_probability(int(claim), order) < 0.5
        want = CHALLENGE if doubt else ROLL
        return want if want in actions else actions[0]
    if not claims:
        return ROLL if ROLL in actions else actions[0]
    claims.sort(key=lambda v: rank(v, order))
    dice = view.get("dice")
    mine = value_of(dice) if dice else None
    if kind == "claim62" and BLUFF_62 in claims and (mine is None or rank(mine, order) < rank(BLUFF_62, order)):
        return Action("claim", (BLUFF_62,))
    if mine is not None and mine in claims:
        return Action("claim", (mine,))
    if kind == "mia_lie" and MIA in claims:
        return Action("claim", (MIA,))
    lies = claims
    if (view.get("options") or {}).get("mia_mode") == "auto_reveal" and len(lies) > 1:
        lies = [v for v in lies if v != MIA]
    return Action("claim", (lies[0],))


choose = make_choose(_decide, KINDS, "Mia")
