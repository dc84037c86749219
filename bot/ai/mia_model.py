"""Mia's solved heads-up round (bot/ai/data/mia-headsup.npz) and the per-opponent model built from the view's log.

The table (``benchmarks/mia_solve.py``, :mod:`bot.ai.mia_solver`) gives, for every stage "beat claim ``p``" (rank
positions, -1 for the opening), the equilibrium claim mix for each roll, the receiver's challenge probability for
each claim, and the stage's value. :class:`Model` starts from those equilibrium frequencies and moves towards what
each opponent has shown this game (the view's public ``log``): how often they challenged a claim of each value, and
how often their claims of each value were true when revealed. Beta-style smoothing: the equilibrium figure counts as
``PRIOR_WEIGHT`` observations, so a few reveals are enough to stop believing a player who always claims Mia.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from bot.ai.mia_solver import MIA_POS, PROB, N
from bot.games.mia import LOG_BLIND, LOG_CLAIM, LOG_GIVE_UP, LOG_REVEAL, LOG_UNSEEN, rank, ranked_values

DATA = Path(__file__).resolve().parent / "data" / "mia-headsup.npz"
PRIOR_WEIGHT = 2.0  # the equilibrium frequency counts as this many observations of an opponent
FREQ_WEIGHT = 6.0  # after this many spots where it could claim c, its claim share counts as much as the equilibrium
SHARE_WEIGHT = 20.0  # a claim share needs about this many spots before it says much
_CLAIMS = (LOG_CLAIM, LOG_UNSEEN, LOG_BLIND)


@dataclass(frozen=True)
class Solution:
    claim: np.ndarray  # [stage, r, c]: P(claim c | roll r), stage = p + 1
    challenge: np.ndarray  # [stage, c]: P(the receiver challenges c)
    value: np.ndarray  # [stage]: the holder's value (lives difference)

    def truth(self, stage: int) -> np.ndarray:
        """P(the claim is true | claim c) at ``stage`` when the claimant plays the equilibrium (by c)."""
        w = PROB[:, None] * self.claim[stage]
        total = w.sum(axis=0)
        true = np.array([w[c:, c].sum() for c in range(N)])
        naive = np.array([PROB[c:].sum() for c in range(N)])  # claims the equilibrium never makes
        return np.where(total > 1e-6, true / np.where(total > 1e-6, total, 1.0), naive)


@lru_cache(maxsize=8)
def solution(penalty: int, auto_reveal: bool) -> Solution:
    mode = "auto_reveal" if auto_reveal else "challengeable"
    key = f"p{min(max(penalty, 1), 3)}-{mode}"
    with np.load(DATA) as data:
        arrays = {k: data[f"{key}-{k}"].astype(float) for k in ("claim", "challenge", "value")}
    return Solution(**arrays)


@lru_cache(maxsize=2)
def positions(order: str) -> dict[int, int]:
    """Claim value -> rank position (0 = 31 ... 20 = Mia)."""
    return {v: i for i, v in enumerate(ranked_values(order))}


@dataclass
class Model:
    """What the seats have shown this game: responses to claims by value, and revealed truth by value."""

    challenged: dict[int, np.ndarray] = field(default_factory=dict)  # seat -> [c]: times they challenged c
    answered: dict[int, np.ndarray] = field(default_factory=dict)  # seat -> [c]: times they answered c
    true: dict[int, np.ndarray] = field(default_factory=dict)  # seat -> [c]: their claims of c shown true
    shown: dict[int, np.ndarray] = field(default_factory=dict)  # seat -> [c]: their claims of c revealed
    # seat -> [minimal?, c]: their claims of c (dice seen), and their claims when c was legal; split by whether c
    # was the lowest legal claim (where a minimal liar's lies land) or above it
    claimed: dict[int, np.ndarray] = field(default_factory=dict)
    could: dict[int, np.ndarray] = field(default_factory=dict)

    def _row(self, table: dict[int, np.ndarray], seat: int) -> np.ndarray:
        return table.setdefault(seat, np.zeros(N))

    def challenge_rate(self, seat: int, prior: np.ndarray, weight: float = PRIOR_WEIGHT) -> np.ndarray:
        """Smoothed per claim, then made non-decreasing in the claim (pooling neighbours' evidence): a higher claim
        is less likely true, so nobody sensible challenges it less often."""
        n = self.answered.get(seat, np.zeros(N))
        k = self.challenged.get(seat, np.zeros(N))
        return _increasing((weight * prior + k) / (weight + n), weight + n)

    def truth_rate(self, seat: int, c: int, p: int, prior: float, weight: float = PRIOR_WEIGHT) -> float:
        """P(the seat's claim c, made above p, is true): the equilibrium's figure moved towards how often the seat
        claims c in that spot (the lowest legal claim or not; all its claims, revealed or not: a value claimed far
        more often than it is rolled is mostly a lie), then smoothed with its revealed claims of c."""
        minimal = int(c == p + 1)
        could = float(self.could[seat][minimal, c]) if seat in self.could else 0.0
        if could and not minimal:  # the lowest legal claim is where any liar's lies land: no evidence there
            # the share of spots where it claimed c, with SHARE_WEIGHT spots at the truthful rate (PROB[c])
            share = (float(self.claimed[seat][minimal, c]) + SHARE_WEIGHT * PROB[c]) / (could + SHARE_WEIGHT)
            by_freq = min(1.0, float(PROB[c]) / share)
            trust = could / (could + FREQ_WEIGHT)
            prior = (1 - trust) * prior + trust * by_freq
        n = float(self.shown.get(seat, np.zeros(N))[c])
        k = float(self.true.get(seat, np.zeros(N))[c])
        return (weight * prior + k) / (weight + n)


def _increasing(values: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """The weighted least-squares non-decreasing fit (pool adjacent violators) of ``values`` (Mia, the last
    position, is left alone: facing a Mia is a different decision)."""
    blocks: list[list[float]] = []  # [mean, weight, length]
    for v, w in zip(values[:MIA_POS], weights[:MIA_POS], strict=True):
        blocks.append([float(v), float(w), 1])
        while len(blocks) > 1 and blocks[-2][0] > blocks[-1][0]:
            (v2, w2, n2), (v1, w1, n1) = blocks.pop(), blocks.pop()
            blocks.append([(v1 * w1 + v2 * w2) / (w1 + w2), w1 + w2, n1 + n2])
    out = np.concatenate([np.full(int(n), m) for m, _, n in blocks] + [values[MIA_POS:]])
    return out


def read_log(log: Sequence[Sequence[Any]], order: str) -> Model:
    """The model of every seat from the game's public log: (round, seat, kind, value) entries in order."""
    pos = positions(order)
    model = Model()
    for i, (rnd, seat, kind, value) in enumerate(log):
        if kind not in _CLAIMS:
            continue
        c = pos[int(value)]
        if kind == LOG_CLAIM:
            p = pos[int(log[i - 1][3])] if i and log[i - 1][0] == rnd and log[i - 1][2] in _CLAIMS else -1
            claimed = model.claimed.setdefault(seat, np.zeros((2, N)))
            could = model.could.setdefault(seat, np.zeros((2, N)))
            claimed[int(c == p + 1), c] += 1
            could[0, p + 2 :] += 1
            could[1, p + 1] += 1
        nxt = log[i + 1] if i + 1 < len(log) else None
        if nxt is None or nxt[0] != rnd:
            continue  # still standing, or the round was void (a forfeit)
        if nxt[2] == LOG_REVEAL:
            if kind != LOG_BLIND:  # a blind passer did not roll those dice: no evidence of their bluffing
                model._row(model.shown, seat)[c] += 1
                model._row(model.true, seat)[c] += rank(int(nxt[3]), order) >= rank(int(value), order)
            if nxt[1] != seat:  # a challenge (under auto_reveal the claimant's own Mia is revealed at once)
                model._row(model.answered, nxt[1])[c] += 1
                model._row(model.challenged, nxt[1])[c] += 1
        elif nxt[2] in _CLAIMS or nxt[2] == LOG_GIVE_UP:
            model._row(model.answered, nxt[1])[c] += 1  # believed (rolled, passed blind or conceded a Mia)
    return model


def previous_claim(log: Sequence[Sequence[Any]], rnd: int, order: str) -> int:
    """The rank position the standing claim had to beat: the round's claim before the last one (-1: none)."""
    pos = positions(order)
    claims = [pos[int(e[3])] for e in log if e[0] == rnd and e[2] in _CLAIMS]
    return claims[-2] if len(claims) >= 2 else -1


def last_claim(log: Sequence[Sequence[Any]], rnd: int, order: str) -> int:
    """The rank position of the round's standing claim (-1: none yet)."""
    pos = positions(order)
    claims = [pos[int(e[3])] for e in log if e[0] == rnd and e[2] in _CLAIMS]
    return claims[-1] if claims else -1
