"""Mythical Dice reference player ``sensible``: bid the sure-ish wins by die strength, play to make the bid.

* **Bidding**: one trick per special die (it shows its symbol 4 times in 6) and per red die (5 to
  7), clipped to the legal bids (``BID_WEIGHT``; in a short sweep against two ``normal`` players,
  lower weights such as 0.75 / 0.5 did worse).
* **Playing**: while it has fewer tricks than it bid it plays its strongest legal die (``STRENGTH``
  order), unless the trick already holds a face that die cannot beat, in which case it throws away
  its weakest; once it has its bid it plays its weakest legal die.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.ai.reference._base import make_choose
from bot.games.base import Action
from bot.games.mythical_dice import FLAG, SPECIALS, bag_types

KINDS = ("sensible",)
BID_WEIGHT = {"minotaur": 1.0, "griffin": 1.0, "mermaid": 1.0, "red": 1.0}
#: weakest first: the order in which it keeps / throws away dice
STRENGTH = ("purple", "gray", "yellow", "red", "mermaid", "griffin", "minotaur")
#: the special a special die's symbol loses to (MD-R1)
BEATEN_BY = {"minotaur": "mermaid", "griffin": "minotaur", "mermaid": "griffin"}
HIGHEST_NUMBER = {"red": 7, "yellow": 5, "purple": 3, "gray": 7}


def can_beat(kind: str, faces: Sequence[str]) -> bool:
    """Can a die of ``kind`` still win a trick that already shows ``faces`` (at its best face)?"""
    specials = {f for f in faces if f in SPECIALS}
    if kind in SPECIALS:
        return BEATEN_BY[kind] not in specials or (kind == "mermaid" and "minotaur" in specials)  # three -> Mermaid
    if specials:
        return False
    numbers = [int(f) for f in faces if f != FLAG]
    return not numbers or HIGHEST_NUMBER[kind] >= max(numbers)


def _decide(view: Mapping[str, Any], kind: str, rng: Any, actions: list[Action]) -> Action:
    types = bag_types((view.get("options") or {}).get("dice_set", "standard"))
    if all(a.name == "bid" for a in actions):
        bids = sorted(int(a.args[0]) for a in actions)
        want = round(sum(BID_WEIGHT.get(d["type"], 0.0) for d in view.get("your_dice") or []))
        return Action("bid", (min(max(want, bids[0]), bids[-1]),))
    plays = sorted((a for a in actions if a.name == "play"), key=lambda a: STRENGTH.index(types[int(a.args[0])]))
    if not plays:
        return actions[0]
    me = view["you"]
    bids, tricks = view.get("bids") or [], view.get("tricks") or []
    bid = bids[me] if me < len(bids) and bids[me] is not None else 0
    if tricks[me] >= bid:
        return plays[0]
    faces = [r["face"] for r in view.get("trick") or []]
    strongest = plays[-1]
    return strongest if can_beat(types[int(strongest.args[0])], faces) else plays[0]


choose = make_choose(_decide, KINDS, "Mythical Dice")
