"""The heads-up Mia round solved as a zero-sum game (CFR+), numpy only.

Claims are rank positions 0 (the lowest value, 31) to 20 (Mia); the roll probabilities by position are the
same under both ``doubles_order`` settings (rules/mia.md, Part B), so one solution serves both.

Why the round splits into stages: a player who believes a claim re-rolls, so the dice under the cup are fresh
and what came before the standing claim ``p`` changes nothing later. The game from "the holder must beat ``p``
with a fresh roll" on is the same whoever holds and however ``p`` was reached, so it is solved backwards,
``p`` = 19 down to the opening (``p`` = -1): each stage is a small two-player game (the holder knows its roll
``r`` and claims ``c > p``; the receiver sees ``c`` and challenges or believes), and believing hands the
receiver the stage ``c`` with value ``V[c]`` to its new holder. Payoff: the lives the receiver loses minus the
lives the holder loses (lives difference), from the holder's side.

A Mia claim is answered by checking (the "challenge" row) or conceding (the "believe" row): conceding costs the
receiver 1, checking a real Mia ``penalty``, checking a bluff costs the holder 1. Under ``auto_reveal`` a Mia
claim is revealed at once (real: the receiver loses 1; else the holder), so the receiver has no choice there.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

N = 21  # claim/roll rank positions; 20 is Mia
MIA_POS = 20
#: P(a roll has rank position i): Mia 2/36, the six doubles (positions 14..19) 1/36, the non-doubles 2/36
PROB = np.array([2 / 36] * 14 + [1 / 36] * 6 + [2 / 36])
STAGES = N  # stage index p + 1: 0 is the opening, p + 1 for "beat position p" (p = 0..19)


def _challenge_payoff(penalty: int, auto_reveal: bool) -> np.ndarray:
    """The holder's payoff when claim c (columns) is challenged (for Mia: checked, or revealed) with roll r (rows)."""
    r = np.arange(N)[:, None]
    chal = np.where(r >= np.arange(N)[None, :], 1.0, -1.0)
    real = np.arange(N) == MIA_POS
    chal[:, MIA_POS] = np.where(real, 1.0 if auto_reveal else float(penalty), -1.0)
    return chal


@dataclass(frozen=True)
class Solution:
    """A solved round (:func:`solve`'s arrays), as :func:`bot.ai.mia_model.solution` loads it and
    :mod:`bot.ai.mia_types` reads it; defined here, below both, so neither imports the other for it."""

    claim: np.ndarray  # [stage, r, c]: P(claim c | roll r), stage = p + 1
    challenge: np.ndarray  # [stage, c]: P(the receiver challenges c)
    value: np.ndarray  # [stage]: the holder's value (lives difference)
    # What mia_types derives from this solution (kinds, priors), kept with it: a cache keyed by id() would hand a
    # new solution a freed one's entries when the id is reused.
    memo: dict[Any, Any] = field(default_factory=dict, compare=False, repr=False)

    def truth(self, stage: int) -> np.ndarray:
        """P(the claim is true | claim c) at ``stage`` when the claimant plays the equilibrium (by c)."""
        w = PROB[:, None] * self.claim[stage]
        total = w.sum(axis=0)
        true = np.array([w[c:, c].sum() for c in range(N)])
        naive = np.array([PROB[c:].sum() for c in range(N)])  # claims the equilibrium never makes
        return np.where(total > 1e-6, true / np.where(total > 1e-6, total, 1.0), naive)


def solve_stage(
    p: int, value: np.ndarray, penalty: int, auto_reveal: bool, iterations: int
) -> tuple[np.ndarray, np.ndarray, float]:
    """CFR+ on stage ``p`` (-1 = opening); ``value[c]`` is the stage value for the holder who must beat ``c``.

    Returns (claim strategy [r, c], challenge probability [c], the stage value to the holder)."""
    legal = np.arange(N) > p
    chal = _challenge_payoff(penalty, auto_reveal)
    # believing a claim c < Mia hands the receiver stage c: the holder gets -value[c]; conceding a Mia: +1
    bel = np.where(np.arange(N) == MIA_POS, 1.0, -value)
    forced = np.zeros(N, dtype=bool)
    if auto_reveal:
        forced[MIA_POS] = True  # revealed at once: no receiver choice
    reg_h = np.zeros((N, N))
    reg_r = np.zeros((N, 2))  # [challenge, believe]
    avg_h = np.zeros((N, N))
    avg_r = np.zeros((N, 2))
    mask = np.broadcast_to(legal, (N, N))
    for t in range(1, iterations + 1):
        pos = np.where(mask, reg_h, 0.0)
        tot = pos.sum(axis=1, keepdims=True)
        sigma = np.where(tot > 0, pos / np.where(tot > 0, tot, 1), mask / legal.sum())
        pr = reg_r.clip(min=0)
        trr = pr.sum(axis=1, keepdims=True)
        tau = np.where(trr > 0, pr / np.where(trr > 0, trr, 1), 0.5)
        tau[forced] = (1.0, 0.0)
        q = tau[None, :, 0] * chal + tau[None, :, 1] * bel[None, :]  # holder's value of claiming c with roll r
        v = (sigma * q).sum(axis=1, keepdims=True)
        reg_h = np.where(mask, np.maximum(reg_h + q - v, 0.0), 0.0)
        w = PROB[:, None] * sigma  # chance x holder reach, per (r, c)
        u_chal = -(w * chal).sum(axis=0)  # receiver's counterfactual values
        u_bel = -(w * bel[None, :]).sum(axis=0)
        u_now = tau[:, 0] * u_chal + tau[:, 1] * u_bel
        reg_r = np.maximum(reg_r + np.stack([u_chal - u_now, u_bel - u_now], axis=1), 0.0)
        avg_h += t * sigma
        avg_r += t * tau
    sigma = avg_h / avg_h.sum(axis=1, keepdims=True)
    tau = avg_r / avg_r.sum(axis=1, keepdims=True)
    tau[forced] = (1.0, 0.0)
    q = tau[None, :, 0] * chal + tau[None, :, 1] * bel[None, :]
    stage_value = float((PROB * (sigma * q).sum(axis=1)).sum())
    return sigma, tau[:, 0], stage_value


def exploitability(
    p: int, sigma: np.ndarray, rho: np.ndarray, value: np.ndarray, penalty: int, auto_reveal: bool
) -> float:
    """How much a best response gains at stage ``p`` over the strategies' value (both sides added), with the
    later stages at their solved values."""
    legal = np.arange(N) > p
    chal = _challenge_payoff(penalty, auto_reveal)
    bel = np.where(np.arange(N) == MIA_POS, 1.0, -value)
    tau = rho.copy()
    if auto_reveal:
        tau[MIA_POS] = 1.0
    q = tau[None, :] * chal + (1 - tau[None, :]) * bel[None, :]
    v = float((PROB * (sigma * q).sum(axis=1)).sum())
    best_h = float((PROB * np.where(legal[None, :], q, -np.inf).max(axis=1)).sum())
    w = PROB[:, None] * sigma
    u_chal = -(w * chal).sum(axis=0)
    u_bel = -(w * bel[None, :]).sum(axis=0)
    if auto_reveal:
        u_bel[MIA_POS] = u_chal[MIA_POS]
    best_r = float(np.maximum(u_chal, u_bel).sum())
    return (best_h - v) + (best_r + v)


def solve(penalty: int = 2, auto_reveal: bool = False, iterations: int = 3000) -> dict[str, np.ndarray]:
    """Every stage: ``claim[s, r, c]``, ``challenge[s, c]``, ``value[s]`` (stage s = p + 1) and the
    exploitability of each stage, ``gap[s]`` (in lives, with later stages at their values)."""
    value = np.zeros(N)  # value[c]: the holder's value at stage "beat c"; c = 20 (Mia) is never a stage
    claim = np.zeros((STAGES, N, N))
    challenge = np.zeros((STAGES, N))
    values = np.zeros(STAGES)
    gap = np.zeros(STAGES)
    for p in range(MIA_POS - 1, -2, -1):
        sigma, rho, v = solve_stage(p, value, penalty, auto_reveal, iterations)
        s = p + 1
        claim[s], challenge[s], values[s] = sigma, rho, v
        gap[s] = exploitability(p, sigma, rho, value, penalty, auto_reveal)
        if p >= 0:
            value[p] = v
    return {"claim": claim, "challenge": challenge, "value": values, "gap": gap}
