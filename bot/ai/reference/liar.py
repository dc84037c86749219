"""Liar's Dice reference player ``probability`` (= ``sensible``): the probability player.

A bid (q, f) is judged by the binomial chance that it is true, seen from the seat's own dice,
with one refinement: the last bidder is credited with one die of the face they bid (their bid
says they probably hold one). With m matching dice of its own, c = 1 when the credited die counts
for f (the standing bid's face f, or a credited 1 under ``wild_ones``), and U unknown dice,
P(true) = P(Binomial(U - c, p) >= q - m - c), p = 1/6 (1/3 for a non-one face with wild ones).

It challenges when the standing bid is less likely than 1/2, otherwise bids the legal raise most
likely to be true (the smallest such raise on ties, in the engine's order of legal bids).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.ai.liar_reader import tail
from bot.ai.reference._base import make_choose
from bot.games.base import Action
from bot.games.liars_dice import CHALLENGE, bid_rank

KINDS = ("sensible", "probability")


def p_true(view: Mapping[str, Any], q: int, f: int) -> float:
    """P(at least q dice count as f), crediting the last bidder (not this seat) with one die of their face."""
    wild = bool((view.get("options") or {}).get("wild_ones", False))
    hand = list(view.get("hand") or [])
    total = int(view.get("total") or sum(view.get("counts") or []))
    unknown = max(0, total - len(hand))

    def counts_as(die: int) -> bool:
        return die == f or (wild and die == 1 and f != 1)

    mine = sum(1 for d in hand if counts_as(d))
    bid, bidder = view.get("bid"), view.get("bidder")
    credit = 0
    if bid and bidder is not None and bidder != view.get("you") and unknown > 0:
        unknown -= 1  # the credited die is no longer unknown
        credit = 1 if counts_as(int(bid["face"])) else 0
    p = 1 / 3 if wild and f != 1 else 1 / 6
    return tail(unknown, p, q - mine - credit)


def _decide(view: Mapping[str, Any], kind: str, rng: Any, actions: list[Action]) -> Action:
    bid = view.get("bid")
    if CHALLENGE in actions and bid and p_true(view, int(bid["quantity"]), int(bid["face"])) < 0.5:
        return CHALLENGE
    rule = (view.get("options") or {}).get("raise_rule", "poker")
    raises = sorted(
        ((int(a.args[0]), int(a.args[1])) for a in actions if a.name == "bid" and len(a.args) == 2),
        key=lambda b: bid_rank(rule, *b),
    )
    if not raises:
        return CHALLENGE if CHALLENGE in actions else actions[0]
    best = max(raises, key=lambda b: p_true(view, *b))  # max keeps the first (smallest) on ties
    return Action("bid", best)


choose = make_choose(_decide, KINDS, "Liar's Dice")
