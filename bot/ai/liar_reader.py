"""Liar's Dice: reading the other seats' bids (Bayesian), and a two-ply look-ahead on that reading.

**Reading.** Every opponent's hand is one of the multisets of its dice (252 for five dice), with its
chance as the prior. Each bid it made this round is evidence: a bidder is modelled as choosing the
face of its raise by how likely the cheapest raise on each face is from its own hand (a softmax
over faces with ``BETA``; the probability players and most people do this), with a floor ``EPS`` for
bluffs and noise. The posterior over each opponent's hand is the prior times those likelihoods;
the seats are independent given the bids, so the count of a face over the table is the convolution
of their posteriors plus the seat's own dice.

**Look-ahead** (:meth:`Reader.raise_value`, used by the hard player). Challenging is worth
P(the standing bid is false). A raise b is worth, over the next seat's posterior hands h: if that
seat would call b, P(b true | h); otherwise it raises to the bid its model picks, b'(h), and then —
heads-up, where the reply is ours — the better of challenging b' (P(b' false | h)) and going on
(``GO_ON``); with more seats, ``AFTER`` (the round usually passes us by). Whether it calls: half
the callers are taken to credit us with one die of the face (the probability player) and half to
judge from their own dice (``CREDIT``); heads-up without wild ones, callers instead read our bids
as we read theirs (its chance of b from its own count of the face and the table's reading of our
bids, b included: :meth:`Reader.public_me`; ``READER_SHARE``), which measured better there and
worse with wild ones or more seats.

Opponents with more than ``MAX_DICE`` dice (loot games) are not enumerated: the caller falls back.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from functools import lru_cache
from itertools import combinations_with_replacement, permutations
from typing import Any

from bot.games.liars_dice import legal_bids

BETA = 8.0  # how sharply a bidder prefers the face its hand supports best
EPS = 0.05  # floor of a bid's likelihood (bluffs, other habits)
GO_ON = 0.5  # heads-up: our chance when the round goes on past our reply
AFTER = {"single": 0.1, "lose_die": 0.8, "loot": 0.5}  # more seats: the value of a round that passes us by
READER_SHARE = {False: 1.0, True: 0.0}  # heads-up, by wild ones: the share of callers who read our bids
CREDIT = 0.5  # the next seat's call: the share of callers who credit the bidder with one die of the face
MAX_DICE = 6  # an opponent's hands are enumerated up to this many dice


@lru_cache(maxsize=64)
def hand_table(n: int, wild: bool) -> tuple[tuple[tuple[int, ...], ...], tuple[float, ...]]:
    """(counts per hand: dice counting as face f at index f, for f = 1..6; P(hand))."""
    counts, prior = [], []
    for hand in combinations_with_replacement(range(1, 7), n):
        c = [0] * 7
        for f in range(1, 7):
            c[f] = sum(1 for d in hand if d == f or (wild and d == 1 and f != 1))
        counts.append(tuple(c))
        prior.append(len(set(permutations(hand))) / 6**n)
    return tuple(counts), tuple(prior)


@lru_cache(maxsize=4096)
def binomial(n: int, p: float) -> tuple[float, ...]:
    """P(Binomial(n, p) = k) for k = 0..n."""
    return tuple(math.comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1))


@lru_cache(maxsize=8192)
def tail(n: int, p: float, need: int) -> float:
    """P(Binomial(n, p) >= need)."""
    if need <= 0:
        return 1.0
    if need > n:
        return 0.0
    return sum(binomial(n, p)[need:])


@lru_cache(maxsize=4096)
def cheapest(rule: str, wild: bool, total: int, q: int, f: int) -> tuple[tuple[int, int], ...]:
    """The smallest legal raise on each face over (q, f) (q == 0: the opening), as (quantity, face)."""
    best: dict[int, int] = {}
    for a in legal_bids(rule, wild, total, q, f):
        q2, f2 = int(a.args[0]), int(a.args[1])
        if f2 not in best or q2 < best[f2]:
            best[f2] = q2
    return tuple((q2, f2) for f2, q2 in sorted(best.items()))


def convolve(a: Sequence[float], b: Sequence[float]) -> list[float]:
    """The distribution of the sum of two independent counts."""
    out = [0.0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b):
                out[i + j] += x * y
    return out


class Reader:
    """One seat's reading of the table (its view only)."""

    def __init__(self, view: Mapping[str, Any], beta: float | None = None) -> None:
        self.beta = BETA if beta is None else beta
        o = view.get("options") or {}
        self.me: int = int(view["you"])
        self.wild = bool(o.get("wild_ones", False))
        self.rule = str(o.get("raise_rule", "poker"))
        self.mode = str(o.get("mode", "single"))
        self.hand = list(view.get("hand") or [])
        self.counts = [int(c) for c in view.get("counts") or []]
        self.total = sum(self.counts)
        self.bids = [(int(s), int(q), int(f)) for s, q, f in view.get("bids") or []]
        self.mine = [0] + [
            sum(1 for d in self.hand if d == f or (self.wild and d == 1 and f != 1)) for f in range(1, 7)
        ]
        self.opps = [s for s, c in enumerate(self.counts) if c and s != self.me]
        self.post = {s: self._posterior(s) for s in self.opps}
        n = len(self.counts)
        self.next = next(s for s in ((self.me + k) % n for k in range(1, n)) if self.counts[s])
        self._rest: dict[int, list[float]] = {}
        self._dist: dict[int, list[float]] = {}
        self._me: list[float] | None = None  # our hand as the table reads our bids

    def p(self, f: int) -> float:
        return 1 / 3 if self.wild and f != 1 else 1 / 6

    def _posterior(self, seat: int) -> list[float]:
        """P(seat's hand | its bids this round)."""
        counts, prior = hand_table(self.counts[seat], self.wild)
        post = list(prior)
        prev = (0, 0)
        for s, q, f in self.bids:
            if s == seat:
                self._weigh(post, counts, seat, prev, q, f)
            prev = (q, f)
        norm = sum(post)
        return [x / norm for x in post] if norm > 0 else list(prior)

    def _weigh(
        self, post: list[float], counts: Sequence[Sequence[int]], seat: int, prev: tuple[int, int], q: int, f: int
    ) -> None:
        """Multiply ``post`` by the likelihood of the seat's bid (q, f) over ``prev``, hand by hand."""
        unseen = self.total - self.counts[seat]
        options = cheapest(self.rule, self.wild, self.total, *prev)
        # exp(beta * P(cheapest raise on g true | c dice of g)) per face g and count c
        table = {
            g: [math.exp(self.beta * tail(unseen, self.p(g), q2 - c)) for c in range(self.counts[seat] + 1)]
            for q2, g in options
        }
        if f not in table:
            return
        row_f = table[f]
        rows = list(table.items())
        for h, c in enumerate(counts):
            z = 0.0
            for g, row in rows:
                z += row[c[g]]
            post[h] *= EPS + (1 - EPS) * row_f[c[f]] / z

    def others(self, f: int) -> list[float]:
        """P(k dice count as f among the opponents other than the next seat)."""
        key = 100 + f
        if key not in self._rest:
            dist = [1.0]
            for s in self.opps:
                if s != self.next:
                    dist = convolve(dist, self.face_dist(s, f))
            self._rest[key] = dist
        return self._rest[key]

    def public_me(self, q: int, f: int) -> list[float]:
        """P(we hold k dice counting as f) as the table reads our bids this round and a new bid (q, f)."""
        counts, _ = hand_table(len(self.hand), self.wild)
        if self._me is None:
            self._me = self._posterior(self.me)
        post = list(self._me)
        self._weigh(post, counts, self.me, (self.bids[-1][1], self.bids[-1][2]) if self.bids else (0, 0), q, f)
        norm = sum(post) or 1.0
        out = [0.0] * (len(self.hand) + 1)
        for h, w in enumerate(post):
            out[counts[h][f]] += w / norm
        return out

    def face_dist(self, seat: int, f: int) -> list[float]:
        """P(seat holds k dice counting as f)."""
        key = seat * 8 + f
        if key not in self._dist:
            counts, _ = hand_table(self.counts[seat], self.wild)
            out = [0.0] * (self.counts[seat] + 1)
            for h, w in enumerate(self.post[seat]):
                out[counts[h][f]] += w
            self._dist[key] = out
        return self._dist[key]

    def rest(self, f: int) -> list[float]:
        """P(at least k dice count as f among the seat's own dice and every opponent but the next), k = 0, 1, ..."""
        if f not in self._rest:
            dist = [0.0] * self.mine[f] + [1.0]
            for s in self.opps:
                if s != self.next:
                    dist = convolve(dist, self.face_dist(s, f))
            at_least = [0.0] * (len(dist) + 1)
            for k in range(len(dist) - 1, -1, -1):
                at_least[k] = at_least[k + 1] + dist[k]
            self._rest[f] = at_least
        return self._rest[f]

    def true_given(self, q: int, f: int, c_next: int) -> float:
        """P(bid (q, f) true) when the next seat holds ``c_next`` dice counting as f."""
        r = self.rest(f)
        k = q - c_next
        return 1.0 if k <= 0 else (r[k] if k < len(r) else 0.0)

    def p_true(self, q: int, f: int) -> float:
        """P(bid (q, f) true) over the whole table, as read."""
        return sum(w * self.true_given(q, f, k) for k, w in enumerate(self.face_dist(self.next, f)) if w)

    def raise_value(self, q: int, f: int) -> float:
        """Our chance (win = 1) after bidding (q, f), by the two-ply look-ahead (module docstring)."""
        nxt = self.next
        n = self.counts[nxt]
        counts, _ = hand_table(n, self.wild)
        unseen = self.total - n
        heads_up = len(self.opps) == 1
        after = GO_ON if heads_up else AFTER.get(self.mode, 0.3)
        # P(the next seat calls), by its count c of f: a mix of callers who judge from their own dice,
        # crediting us with one die of f (the probability player) or not (the plain one), and, heads-up,
        # callers who read our bids as we read theirs (the table's reading of our bids, b included)
        p = self.p(f)
        call = [
            CREDIT * (tail(unseen - 1, p, q - c - 1) < 0.5) + (1 - CREDIT) * (tail(unseen, p, q - c) < 0.5)
            for c in range(n + 1)
        ]
        share = READER_SHARE[self.wild] if heads_up and len(self.hand) <= MAX_DICE else 0.0  # our hands enumerable
        if share:
            seen = convolve(self.public_me(q, f), self.others(f))
            at_least = [sum(seen[k:]) for k in range(len(seen))] + [0.0]
            reads = [(1.0 if q - c <= 0 else at_least[min(q - c, len(seen))]) < 0.5 for c in range(n + 1)]
            call = [share * r + (1 - share) * x for r, x in zip(reads, call, strict=True)]
        options = cheapest(self.rule, self.wild, self.total, q, f)
        # its raise: the cheapest raise on the face it finds likeliest (crediting us with one die of f)
        score = [(g, q2, [tail(unseen - 1, self.p(g), q2 - c - (g == f)) for c in range(n + 1)]) for q2, g in options]
        true_f = [self.true_given(q, f, c) for c in range(n + 1)]
        if not heads_up or not score:  # what follows a raise does not depend on the hand beyond its count of f
            go_on = after if score else None
            return sum(
                w * (call[k] * true_f[k] + (1 - call[k]) * (true_f[k] if go_on is None else go_on))
                for k, w in enumerate(self.face_dist(nxt, f))
                if w
            )
        # heads-up: our reply to its raise is the better of challenging it and going on
        reply = [(g, [max(1.0 - self.true_given(q2, g, c), after) for c in range(n + 1)], row) for g, q2, row in score]
        value = 0.0
        for h, w in enumerate(self.post[nxt]):
            if w < 1e-5:  # negligible hands (the rest of the posterior's mass is counted in full)
                continue
            c = counts[h]
            k = c[f]
            stay = w * call[k]
            best, back = -1.0, 0.0
            for g, rep, row in reply:
                v = row[c[g]]
                if v > best:
                    best, back = v, rep[c[g]]
            value += stay * true_f[k] + (w - stay) * back
        return value
