"""Mythical Dice reference player ``sensible``: bid the sure-ish wins by die strength, play to make the bid.

* **Bidding**: one trick per special die (it shows its symbol 4 times in 6) and per red die (5 to
  7), clipped to the legal bids (``BID_WEIGHT``; in a short sweep against two ``normal`` players,
  lower weights such as 0.75 / 0.5 did worse).
* **Playing**: a die "can win" when its best face beats every face already in the trick (MD-R1/R2,
  ignoring the players still to roll). While short of its bid it plays its strongest die that can
  win (``STRENGTH`` order) when it leads, and when following the cheapest die that can beat the
  faces shown (``CHEAP_FOLLOW``: it keeps the Minotaur for a trick a red die cannot take), else
  throws away its weakest; once it has its bid it plays its strongest die that cannot win
  (getting rid of danger), else its weakest.

Against two ``normal`` players it wins about 0.27-0.29 (fair 0.333) in short sweeps; neither
other bid weights (down to each type's average P(win) at three players) nor "strongest die while
short" play did better within the noise: ``normal`` (exact P(win) per die and a best-score bid)
is simply the stronger player here. ``CHEAP_FOLLOW`` (ai-mythic) against two of the player
without it: 0.356 [0.319, 0.395] over 600 games (margin +5 points a game; small, kept because it
is the sensible play); lower red bid weights (0.6; 0.5 with yellow 0.25) did worse (0.31-0.32).

Other bidders (issue 31), each playing as ``sensible`` does:

* ``expected``: bids its expected tricks, the sum over its dice of P(win) (rounded), P(win) being the chance
  that each face of the die beats one random face of the full bag per other player (ties counted half,
  the players still to roll ignored otherwise);
* ``zero``: bids zero with a weak hand (no special die and at most one red), else its expected tricks (as
  ``expected``);
* ``specials``: bids high: one per special and red die, half a trick per yellow, rounded up.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from bot.ai.reference._base import make_choose
from bot.games.base import Action
from bot.games.mythical_dice import FACES, FLAG, SPECIALS, bag_types

#: other simple bidders (issue 31); all play as ``sensible`` does
KINDS = ("sensible", "expected", "zero", "specials")
#: ``specials``' bid weights: it bids high on a hand with specials (and counts a yellow as half a trick)
SPECIALS_WEIGHT = {"minotaur": 1.0, "griffin": 1.0, "mermaid": 1.0, "red": 1.0, "yellow": 0.5}
BID_WEIGHT = {"minotaur": 1.0, "griffin": 1.0, "mermaid": 1.0, "red": 1.0}
#: weakest first: the order in which it keeps / throws away dice
STRENGTH = ("purple", "gray", "yellow", "red", "mermaid", "griffin", "minotaur")
#: the special a special die's symbol loses to (MD-R1)
BEATEN_BY = {"minotaur": "mermaid", "griffin": "minotaur", "mermaid": "griffin"}
CHEAP_FOLLOW = True
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


def _strength(face: str) -> int:
    """A face's strength against a single other face (specials above numbers, flag 0)."""
    return 8 if face in SPECIALS else (0 if face == FLAG else int(face))


def p_beats(face: str, bag: Sequence[str]) -> float:
    """P(``face`` beats one face of a random die of ``bag``), ties half (the special cycle exactly)."""
    total = 0.0
    for kind in bag:
        for other in FACES[kind]:
            if face in SPECIALS and other in SPECIALS:
                total += 0.5 if face == other else float(BEATEN_BY[other] == face)
            else:
                a, b = _strength(face), _strength(other)
                total += 1.0 if a > b else 0.5 if a == b and a > 0 else 0.0
    return total / (6 * len(bag))


@lru_cache(maxsize=256)
def expected_wins(kind: str, bag: tuple[str, ...], others: int) -> float:
    """``expected``'s P(win) of a die: each face against ``others`` independent random faces."""
    return sum(p_beats(face, bag) ** others for face in FACES[kind]) / 6


def bid_for(kind: str, dice: Sequence[str], bag: tuple[str, ...], players: int) -> int:
    if kind == "expected":
        return round(sum(expected_wins(d, bag, max(1, players - 1)) for d in dice))
    if kind == "specials":
        return -int(-sum(SPECIALS_WEIGHT.get(d, 0.0) for d in dice) // 1)
    if kind == "zero":
        weak = not any(d in SPECIALS for d in dice) and sum(d == "red" for d in dice) <= 1
        return 0 if weak else bid_for("expected", dice, bag, players)
    return round(sum(BID_WEIGHT.get(d, 0.0) for d in dice))


def _decide(view: Mapping[str, Any], kind: str, rng: Any, actions: list[Action]) -> Action:
    types = bag_types((view.get("options") or {}).get("dice_set", "standard"))
    if all(a.name == "bid" for a in actions):
        bids = sorted(int(a.args[0]) for a in actions)
        dice = [str(d["type"]) for d in view.get("your_dice") or []]
        players = sum(1 for a in view.get("active") or () if a) or len(view.get("bids") or ()) or 3
        want = bid_for(kind, dice, types, players)
        return Action("bid", (min(max(want, bids[0]), bids[-1]),))
    plays = sorted((a for a in actions if a.name == "play"), key=lambda a: STRENGTH.index(types[int(a.args[0])]))
    if not plays:
        return actions[0]
    me = view["you"]
    bids, tricks = view.get("bids") or [], view.get("tricks") or []
    bid = bids[me] if me < len(bids) and bids[me] is not None else 0
    faces = [r["face"] for r in view.get("trick") or []]
    beaters = [a for a in plays if can_beat(types[int(a.args[0])], faces)]
    if tricks[me] < bid:  # short of the bid: a die that can still win, else throw away the weakest
        if not beaters:
            return plays[0]
        # leading: the strongest (the later rollers are unknown); following: the cheapest that beats the trick
        return beaters[0] if faces and CHEAP_FOLLOW else beaters[-1]
    losers = [a for a in plays if a not in beaters]
    return losers[-1] if losers else plays[0]  # has its bid: dump the strongest die that cannot win, else the weakest


choose = make_choose(_decide, KINDS, "Mythical Dice")
