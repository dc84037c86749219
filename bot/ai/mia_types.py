"""Who is this claimant? A posterior over a few kinds of announcer, from every claim they made this game.

Each kind says how likely each claim is after the standing claim ``p`` (the roll unseen) and how likely such a claim
is true, so all of a seat's claims, revealed or not, weigh the kinds (Bayes), and the next claim's truth is the
posterior's average. The kinds:

* the equilibrium announcer (the solved round's own mix);
* ``jump to X`` for every value X: tells the truth when its roll beats X, and otherwise claims X while X is legal,
  the lowest legal value after that. X below every claim is the plain "truth, else the minimal lie" player; X = Mia
  claims Mia whenever it can.

Every kind also makes any legal claim now and then (``NOISE``), so no claim rules a kind out entirely. A player who
claims Mia every round, or 62 every time it is weaker, is recognised within a few claims.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from bot.ai.mia_solver import PROB, N

if TYPE_CHECKING:
    from bot.ai.mia_model import Solution

NOISE = 0.05
KINDS = N + 2  # 0: equilibrium; 1 + (X + 1) for X = -1 .. 20
PRIOR = np.array([0.4, 0.2] + [0.4 / N] * N)
AT_LEAST = np.array([PROB[c:].sum() for c in range(N)])  # P(roll >= c)
AT_MOST = np.cumsum(PROB)  # P(roll <= c)


def _jump(p: int, x: int) -> tuple[np.ndarray, np.ndarray]:
    """(P(claim c), P(true | claim c)) of the "jump to X" announcer above ``p``."""
    dist, truth = np.zeros(N), np.ones(N)
    if p < x:
        dist[x + 1 :] = PROB[x + 1 :]
        dist[x] = AT_MOST[x]
        truth[x] = PROB[x] / AT_MOST[x]
    elif p < 0:
        dist[:] = PROB  # the truth: there is no claim to beat
    else:
        dist[p + 2 :] = PROB[p + 2 :]
        dist[p + 1] = PROB[p + 1] + AT_MOST[p]
        truth[p + 1] = PROB[p + 1] / dist[p + 1]
    return dist, truth


_KINDS: dict[tuple[int, int], tuple[np.ndarray, np.ndarray]] = {}  # (id of the solution, p) -> kinds(...)


def kinds(sol: Solution, p: int) -> tuple[np.ndarray, np.ndarray]:
    """[kind, c]: P(claim c) and P(true | claim c) above ``p``, noise included (the solutions live as long as the
    process, in mia_model's cache, so their id is a key)."""
    key = (id(sol), p)
    if key not in _KINDS:
        dists, truths = [(PROB[:, None] * sol.claim[p + 1]).sum(axis=0)], [sol.truth(p + 1)]
        for x in range(-1, N):
            d, t = _jump(p, x)
            dists.append(d)
            truths.append(t)
        dist, truth = np.array(dists), np.array(truths)
        legal = np.arange(N) > p
        noise = legal / legal.sum()
        mixed = (1 - NOISE) * dist + NOISE * noise
        true = ((1 - NOISE) * dist * truth + NOISE * noise * AT_LEAST) / np.where(mixed > 0, mixed, 1.0)
        _KINDS[key] = (np.log(np.maximum(mixed, 1e-12)), true)
    return _KINDS[key]


def truth(history: Sequence[tuple[int, int]], c: int, p: int, sol: Solution) -> float:
    """P(claim c above p is true), from the posterior over kinds given the seat's earlier (p, c) claims."""
    log_post = np.log(PRIOR)
    for hp, hc in history:
        log_post = log_post + kinds(sol, hp)[0][:, hc]
    post = np.exp(log_post - log_post.max())
    post /= post.sum()
    return float((post * kinds(sol, p)[1][:, c]).sum())
