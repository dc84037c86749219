"""Heads-up Liar's Dice endgames solved offline: CFR+ over the whole bidding tree, and an exact best response.

Offline only (numpy, a test/benchmark dependency): the computer player reads the shipped tables with
:mod:`bot.ai.liar_tables`. One round, player 0 opens with ``a`` dice, player 1 answers with ``b``;
the challenge decides (+1 / -1). A player's information set is (its hand, the whole bid history):
perfect recall, so the tree has as many nodes as chains of legal raises (2**bids under the total
orders poker and simple: 4,096 with 1 die each, 262,144 with 1 against 2, 16.8 million with 2 each).

The tree is held level by level (level d = histories of d bids; player d % 2 acts there) with the
hands as a second axis, so one CFR+ iteration is a few numpy operations per level: a forward pass
for the reach probabilities and a backward pass for the counterfactual values. Children of a node
are contiguous in the next level, so sums and maxima over a node's raises are ``reduceat``.

:meth:`Game.best_response` is exact: at each of the responder's information sets it takes the best
action against the fixed strategy, over the full tree (no abstraction, no sampling).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import permutations
from typing import Any

import numpy as np

from bot.ai.liar_tables import HAND_BITS, Strategy, Tree, hands, tree

Array = np.ndarray[Any, Any]
Profile = tuple[list[Array], list[Array]]  # (raise weights per level: edges into level d, challenge weights)


def hand_weights(k: int) -> Array:
    """P(hand) for each sorted hand of k dice."""
    return np.array([len(set(permutations(h))) / 6**k for h in hands(k)])


def face_counts(k: int, wild: bool) -> Array:
    """[hand, face 1..6 (column f-1)]: dice counting as f (ones too with wild ones, for f != 1)."""
    out = np.zeros((len(hands(k)), 6), dtype=np.int64)
    for i, h in enumerate(hands(k)):
        for f in range(1, 7):
            out[i, f - 1] = sum(1 for d in h if d == f or (wild and d == 1 and f != 1))
    return out


def _empty() -> Array:
    return np.zeros(0, dtype=np.int64)


@dataclass
class Level:
    bid: Array  # last bid index per node (the root: len(bids))
    parent: Array  # index in the previous level
    pre: Array  # preorder number (liar_tables.Tree)
    starts: Array = field(default_factory=_empty)  # first child in the next level, of the nodes with children
    has: Array = field(default_factory=_empty)  # node has children
    first: Array = field(default_factory=_empty)  # first child per node (-1: none)
    groups: list[tuple[int, Array]] = field(default_factory=list)  # (bid, node indices) for the challenge payoffs


class Game:
    """The tree of one heads-up round and everything CFR+ needs about it."""

    def __init__(self, rule: str, wild: bool, a: int, b: int, dtype: type = np.float64) -> None:
        """``dtype``: of every per-hand array; float32 halves the memory traffic of solving a big tree (the
        shipped strategy is checked by a float64 Game)."""
        self.rule, self.wild, self.dice, self.dtype = rule, wild, (a, b), dtype
        self.t: Tree = tree(rule, wild, a + b)
        t = self.t
        nb = len(t.bids)
        self.w: tuple[Array, Array] = (hand_weights(a).astype(dtype), hand_weights(b).astype(dtype))
        c0, c1 = face_counts(a, wild), face_counts(b, wild)
        # payoff to the bidder when bid i is challenged, [bid, hand of player 0, hand of player 1]
        self.pay: Array = np.empty((nb, len(c0), len(c1)), dtype=dtype)
        for i, (q, f) in enumerate(t.bids):
            true = (c0[:, f - 1][:, None] + c1[:, f - 1][None, :]) >= q
            self.pay[i] = np.where(true, 1.0, -1.0)
        nraise = np.array([len(r) for r in t.raises])
        width = max(nraise)
        table = np.full((nb + 1, width), -1, dtype=np.int64)
        offs = np.zeros((nb + 1, width), dtype=np.int64)
        for i, r in enumerate(t.raises):
            table[i, : len(r)] = r
            offs[i, : len(r)] = [t.offset[i][c] for c in r]
        self.levels = [Level(np.array([nb]), np.array([0]), np.array([0]))]
        while True:
            lv = self.levels[-1]
            k = nraise[lv.bid]
            lv.has = k > 0
            first = np.concatenate(([0], np.cumsum(k)[:-1]))
            lv.first = np.where(lv.has, first, -1)
            lv.starts = first[lv.has]
            if not lv.has.any():
                break
            parent = np.repeat(np.arange(len(lv.bid)), k)
            pos = np.arange(len(parent)) - first[parent]
            bid = table[lv.bid[parent], pos]
            pre = lv.pre[parent] + offs[lv.bid[parent], pos]
            self.levels.append(Level(bid, parent, pre))
        for d, lv in enumerate(self.levels):
            if d:
                order = np.argsort(lv.bid, kind="stable")
                bounds = np.flatnonzero(np.diff(lv.bid[order])) + 1
                lv.groups = [(int(lv.bid[g[0]]), g) for g in np.split(order, bounds)]
        self.nodes = sum(len(lv.bid) for lv in self.levels)
        assert self.nodes == t.nodes
        nact = nraise + 1  # the raises and the challenge; the root has no challenge
        self.n_actions = [nact[lv.bid] - (0 if d else 1) for d, lv in enumerate(self.levels)]

    def hands_of(self, player: int) -> int:
        return len(self.w[player])

    # -- strategies ------------------------------------------------------------------------------------------

    def zeros(self) -> Profile:
        """Arrays shaped like a strategy: edge[d] (level d, hands of the actor at d - 1), chal[d] (level d)."""
        edge: list[Array] = []
        chal: list[Array] = []
        for d, lv in enumerate(self.levels):
            edge.append(np.zeros((len(lv.bid), self.hands_of((d - 1) % 2)), self.dtype) if d else np.zeros((1, 1)))
            chal.append(np.zeros((len(lv.bid), self.hands_of(d % 2)), self.dtype))
        return edge, chal

    def normalise(self, edge: list[Array], chal: list[Array]) -> Profile:
        """A strategy from nonnegative weights (regrets or average sums); all-zero: uniform."""
        se, sc = [np.zeros_like(e) for e in edge], [np.zeros_like(c) for c in chal]
        last = len(self.levels) - 1
        for d, lv in enumerate(self.levels):
            tot = chal[d].copy() if d else np.zeros_like(chal[d])
            if d < last and lv.has.any():
                tot[lv.has] += np.add.reduceat(edge[d + 1], lv.starts, axis=0)
            n_act: Array = self.n_actions[d].astype(self.dtype)
            zero = tot <= 0
            safe = np.where(zero, 1.0, tot)
            if d:
                sc[d] = np.where(zero, 1.0 / n_act[:, None], chal[d] / safe)
            if d < last:
                p = self.levels[d + 1].parent
                se[d + 1] = np.where(zero[p], 1.0 / n_act[p][:, None], edge[d + 1] / safe[p])
        return se, sc

    # -- passes ----------------------------------------------------------------------------------------------

    def reach(self, se: list[Array]) -> list[list[Array]]:
        """reach[p][d]: player p's own reach probability per node of level d and hand."""
        out: list[list[Array]] = [
            [np.ones((1, self.hands_of(0)), self.dtype)],
            [np.ones((1, self.hands_of(1)), self.dtype)],
        ]
        for d in range(1, len(self.levels)):
            p = self.levels[d].parent
            actor = (d - 1) % 2
            out[actor].append(out[actor][d - 1][p] * se[d])
            out[1 - actor].append(out[1 - actor][d - 1][p])
        return out

    def terminal(self, d: int, i: int, opp_reach: Array) -> Array:
        """Counterfactual value to player i of a challenge at each node of level d (d >= 1), per i's hand."""
        lv = self.levels[d]
        sign = 1.0 if (d - 1) % 2 == i else -1.0  # the bidder at level d is player (d - 1) % 2
        out: Array = np.empty((len(lv.bid), self.hands_of(i)), self.dtype)
        w = self.w[1 - i]
        for bid, idx in lv.groups:
            m = self.pay[bid] if i == 0 else self.pay[bid].T  # [hand of i, hand of the other]
            out[idx] = sign * (opp_reach[idx] * w) @ m.T
        return out

    def values(
        self, i: int, se: list[Array], sc: list[Array], reach: list[list[Array]], best: bool = False
    ) -> tuple[list[Array], list[Array]]:
        """Counterfactual values v[d] to player i per node and hand, and its challenge values term[d].

        ``best``: player i takes the best action at each of its information sets (the best response)."""
        n = len(self.levels)
        v: list[Array] = [np.zeros(0, self.dtype)] * n
        term: list[Array] = [np.zeros(0, self.dtype)] * n
        h = self.hands_of(i)
        for d in range(n - 1, -1, -1):
            lv = self.levels[d]
            mine = d % 2 == i
            if d:  # the other player's chance of challenging belongs in its reach when it is the one to act
                term[d] = self.terminal(d, i, reach[1 - i][d] if mine else reach[1 - i][d] * sc[d])
            if best and mine:
                cur = term[d].copy() if d else np.full((1, h), -np.inf, self.dtype)
                if d + 1 < n and lv.has.any():
                    cur[lv.has] = np.maximum(cur[lv.has], np.maximum.reduceat(v[d + 1], lv.starts, axis=0))
            else:
                cur = (term[d] * sc[d] if mine else term[d].copy()) if d else np.zeros((1, h), self.dtype)
                if d + 1 < n and lv.has.any():
                    child = v[d + 1] * se[d + 1] if mine else v[d + 1]
                    cur[lv.has] += np.add.reduceat(child, lv.starts, axis=0)
            v[d] = cur
        return v, term

    # -- CFR+ ------------------------------------------------------------------------------------------------

    def solve(
        self,
        iterations: int,
        target: float = 0.0,
        log: Callable[[int, dict[str, float]], None] | None = None,
        every: int = 0,
    ) -> Profile:
        """CFR+ (alternating updates, regrets floored at 0, linearly weighted average): the average strategy.

        Stops early once the average's NashConv (checked at powers of two, and every ``every`` iterations
        if set: a check costs about one iteration) is at most ``target``."""
        re, rc = self.zeros()
        ae, ac = self.zeros()
        n = len(self.levels)
        for t in range(1, iterations + 1):
            for i in (0, 1):
                se, sc = self.normalise(re, rc)
                reach = self.reach(se)
                v, term = self.values(i, se, sc, reach)
                for d in range(i, n, 2):  # player i acts at levels i, i + 2, ...
                    if d:
                        rc[d] = np.maximum(rc[d] + term[d] - v[d], 0.0)
                        ac[d] += t * reach[i][d] * sc[d]
                    if d + 1 < n:
                        p = self.levels[d + 1].parent
                        re[d + 1] = np.maximum(re[d + 1] + v[d + 1] - v[d][p], 0.0)
                        ae[d + 1] += t * reach[i][d][p] * se[d + 1]
            if t & (t - 1) == 0 or t == iterations or (every and t % every == 0):
                ex = self.exploitability(*self.normalise(ae, ac))
                if log is not None:
                    log(t, ex)
                if ex["nashconv"] <= target:
                    break
        return self.normalise(ae, ac)

    # -- evaluation ------------------------------------------------------------------------------------------

    def value(self, se: list[Array], sc: list[Array]) -> float:
        """The opener's expected payoff under the profile."""
        v, _ = self.values(0, se, sc, self.reach(se))
        return float(v[0][0] @ self.w[0])

    def best_response(self, i: int, se: list[Array], sc: list[Array]) -> float:
        """Player i's best-response payoff against the other's strategy in (se, sc): exact, over the full tree."""
        v, _ = self.values(i, se, sc, self.reach(se), best=True)
        return float(v[0][0] @ self.w[i])

    def exploitability(self, se: list[Array], sc: list[Array]) -> dict[str, float]:
        """value: the opener's payoff; gain0 / gain1: what a best responder in seat 0 / 1 wins over that value
        (against the strategy's other seat); nashconv = gain0 + gain1 (>= 0, 0 exactly at an equilibrium)."""
        val = self.value(se, sc)
        br0, br1 = self.best_response(0, se, sc), self.best_response(1, se, sc)
        return {"value": val, "gain0": br0 - val, "gain1": br1 + val, "nashconv": br0 + br1}

    # -- shipping --------------------------------------------------------------------------------------------

    def to_strategy(
        self, se: list[Array], sc: list[Array], meta: dict[str, Any], prune: float = 0.0, mass: float = 0.0
    ) -> Strategy:
        """The strategy as shipped: weights rounded to 0..255 (actions below ``prune`` dropped, and with ``mass``
        see :meth:`drop_rare`), and only the information sets it reaches itself (own reach > 0 under those
        weights: a player who follows it never meets the others)."""
        if mass:
            se, sc = self.drop_rare(se, sc, mass)
        qe = [np.round(np.where(e < prune, 0.0, e) * 255) for e in se]
        qc = [np.round(np.where(c < prune, 0.0, c) * 255) for c in sc]
        reach = self.reach(self.normalise(qe, qc)[0])
        recs: list[tuple[int, list[tuple[int, int]]]] = []
        n = len(self.levels)
        for d, lv in enumerate(self.levels):
            r = reach[d % 2][d]
            for node, x in zip(*np.nonzero(r > 0), strict=True):
                pairs: list[tuple[int, int]] = []
                nr = len(self.t.raises[int(lv.bid[node])])
                if nr and d + 1 < n:
                    col = qe[d + 1][lv.first[node] : lv.first[node] + nr, x]
                    pairs += [(k, int(w)) for k, w in enumerate(col) if w > 0]
                if d and qc[d][node, x] > 0:
                    pairs.append((nr, int(qc[d][node, x])))
                recs.append((int(lv.pre[node]) << HAND_BITS | int(x), pairs))
        recs.sort()
        return Strategy.build(meta, recs)

    def drop_rare(self, se: list[Array], sc: list[Array], mass: float) -> Profile:
        """Zero the actions a player takes with probability below ``mass`` from the root (its own reach into
        them, per hand), but never an information set's likeliest one: whole rare lines go, which a plain
        threshold on the local weight keeps (and a line's weight bounds what dropping it can cost)."""
        reach = self.reach(se)
        se, sc = [e.copy() for e in se], [c.copy() for c in sc]
        n = len(self.levels)
        for d, lv in enumerate(self.levels):
            own = reach[d % 2][d]
            best = sc[d].copy()  # at the root all zeros: there is no challenge
            if d + 1 < n and lv.has.any():
                best[lv.has] = np.maximum(best[lv.has], np.maximum.reduceat(se[d + 1], lv.starts, axis=0))
                p = self.levels[d + 1].parent
                se[d + 1][(own[p] * se[d + 1] < mass) & (se[d + 1] < best[p])] = 0.0
            if d:
                sc[d][(own * sc[d] < mass) & (sc[d] < best)] = 0.0
        return se, sc

    def from_strategy(self, s: Strategy) -> Profile:
        """A shipped strategy as level arrays (information sets it never reaches: uniform), for the checker."""
        qe, qc = self.zeros()
        n = len(self.levels)
        where = np.zeros((self.nodes, 3), dtype=np.int64)  # preorder -> (level, index, first child or -1)
        for d, lv in enumerate(self.levels):
            where[lv.pre, 0] = d
            where[lv.pre, 1] = np.arange(len(lv.bid))
            where[lv.pre, 2] = lv.first
        payload = s.payload
        mask = (1 << HAND_BITS) - 1
        for r, key in enumerate(s.keys):
            pre, x = key >> HAND_BITS, key & mask
            d, node, start = (int(v) for v in where[pre])
            nr = len(self.t.raises[int(self.levels[d].bid[node])])
            for j in range(s.offsets[r], s.offsets[r + 1], 2):
                k, wgt = payload[j], payload[j + 1]
                if k < nr and d + 1 < n:
                    qe[d + 1][start + k, x] = wgt
                else:
                    qc[d][node, x] = wgt
        return self.normalise(qe, qc)
