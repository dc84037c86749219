"""Liar's Dice heads-up endgames: play the shipped equilibrium strategy (:mod:`bot.ai.liar_tables`) when one fits.

It fits when exactly two seats hold dice and a table ships for the raise rule, wild ones and the
dice split (the round's opener's dice first). The strategy is for one round decided by one
challenge: exact in ``single`` games and in a ``lose_die`` game's last round (one die each); in
other rounds of multi-round games it plays the round, not the game, as well as it can.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.ai.liar_tables import hand_index, load
from bot.games.base import Action


def action(view: Mapping[str, Any], rng: Any, legal: list[Action]) -> Action | None:
    """The equilibrium action for this seat's ``view``, or None when no shipped table covers the position."""
    counts = [int(c) for c in view.get("counts") or []]
    seats = [s for s, c in enumerate(counts) if c]
    me = view.get("you")
    if len(seats) != 2 or me not in seats:
        return None
    bids = [(int(s), int(q), int(f)) for s, q, f in view.get("bids") or []]
    opener = bids[0][0] if bids else me
    other = seats[0] if seats[1] == opener else seats[1]
    if any(s != (opener if i % 2 == 0 else other) for i, (s, _, _) in enumerate(bids)):
        return None  # not alternating from the opener: not this tree (cannot happen heads-up)
    o = view.get("options") or {}
    strat = load(str(o.get("raise_rule", "poker")), bool(o.get("wild_ones", False)), counts[opener], counts[other])
    if strat is None:
        return None
    t = strat.tree
    found = t.node([(q, f) for _, q, f in bids])
    hand = tuple(sorted(int(d) for d in view.get("hand") or []))
    if found is None or len(hand) != counts[me]:
        return None
    node, last = found
    weights = strat.weights(node, hand_index(len(hand))[hand])
    if not weights:
        return None  # a history the strategy never reaches itself (cannot happen when it played every move)
    names = t.actions(last)
    if rng is None:
        pick = max(weights, key=lambda aw: aw[1])[0]
    else:
        x = rng.random() * sum(w for _, w in weights)
        pick = weights[-1][0]
        for a, w in weights:
            x -= w
            if x < 0:
                pick = a
                break
    chosen = Action.parse(names[pick])
    return chosen if chosen in legal else None
