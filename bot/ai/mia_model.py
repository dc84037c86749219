"""Mia's solved heads-up round (bot/ai/data/mia-headsup.npz) and the per-opponent model built from the view's log.

The table (``benchmarks/mia_solve.py``, :mod:`bot.ai.mia_solver`) gives, for every stage "beat claim ``p``" (rank
positions, -1 for the opening), the equilibrium claim mix for each roll, the receiver's challenge probability for
each claim, and the stage's value. :class:`Model` reads what each seat has shown this game (the view's public
``log``):

* as a receiver, every claim it answered (``hard`` weighs kinds of receiver by them, :mod:`bot.ai.mia_types`), and
  how often it challenged a claim of each value: that rate counts as ``PRIOR_WEIGHT`` observations, and the rates
  are made non-decreasing in the claim (neighbours pool their evidence);
* as an announcer, every claim it made (:mod:`bot.ai.mia_types` weighs kinds of announcer by them), and how often
  its claims of each value were true when revealed (smoothed the same way).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from bot.ai import mia_types
from bot.ai.mia_solver import MIA_POS, N, Solution, solve
from bot.games.mia import LOG_BLIND, LOG_CLAIM, LOG_GIVE_UP, LOG_REVEAL, LOG_UNSEEN, rank, ranked_values

DATA = Path(__file__).resolve().parent / "data" / "mia-headsup.npz"
PRIOR_WEIGHT = 2.0  # the equilibrium frequency counts as this many observations of an opponent
_CLAIMS = (LOG_CLAIM, LOG_UNSEEN, LOG_BLIND)


@lru_cache(maxsize=8)
def solution(penalty: int, auto_reveal: bool) -> Solution:
    """The shipped solution for these settings (penalty clipped to 1..3); solved here, more coarsely (about 1 s),
    if the data file is missing (an install without the package data)."""
    penalty = min(max(penalty, 1), 3)
    key = f"p{penalty}-{'auto_reveal' if auto_reveal else 'challengeable'}"
    names = ("claim", "challenge", "value")
    if not DATA.exists():
        solved = solve(penalty, auto_reveal, iterations=400)
        return Solution(solved["claim"], solved["challenge"], solved["value"])
    with np.load(DATA) as data:
        claim, challenge, value = (data[f"{key}-{k}"].astype(float) for k in names)
        return Solution(claim, challenge, value)


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
    history: dict[int, list[mia_types.Claim]] = field(default_factory=dict)  # seat -> its claims, dice seen
    answers: dict[int, list[mia_types.Answer]] = field(default_factory=dict)  # seat -> the claims it answered

    def _row(self, table: dict[int, np.ndarray], seat: int) -> np.ndarray:
        return table.setdefault(seat, np.zeros(N))

    def challenge_rate(self, seat: int, prior: np.ndarray, weight: float = PRIOR_WEIGHT) -> np.ndarray:
        """``prior`` (the equilibrium's rates, or what the kinds of receiver point to) smoothed per claim with the
        seat's answers, then made non-decreasing in the claim (pooling neighbours' evidence): a higher claim is
        less likely true, so nobody sensible challenges it less often."""
        n = self.answered.get(seat, np.zeros(N))
        k = self.challenged.get(seat, np.zeros(N))
        return _increasing((weight * prior + k) / (weight + n), weight + n)

    def truth_rate(self, seat: int, c: int, p: int, sol: Solution, weight: float = PRIOR_WEIGHT) -> float:
        """P(the seat's claim c, made above p, is true): what the kinds of announcer its claims so far point to
        (:mod:`bot.ai.mia_types`), smoothed with its revealed claims of c."""
        prior = mia_types.truth(self.history.get(seat, []), c, p, sol)
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
        nxt = log[i + 1] if i + 1 < len(log) else None
        if nxt is not None and nxt[0] != rnd:
            nxt = None  # still standing, or the round was void (a forfeit)
        shown = None
        if nxt is not None and nxt[2] == LOG_REVEAL and kind != LOG_BLIND:  # a blind passer did not roll those dice
            shown = rank(int(nxt[3]), order) >= rank(int(value), order)
            model._row(model.shown, seat)[c] += 1
            model._row(model.true, seat)[c] += shown
        p = pos[int(log[i - 1][3])] if i and log[i - 1][0] == rnd and log[i - 1][2] in _CLAIMS else -1
        if kind in (LOG_CLAIM, LOG_UNSEEN):
            model.history.setdefault(seat, []).append((p, c, shown))
        if nxt is None:
            continue
        if nxt[2] == LOG_REVEAL:
            if nxt[1] != seat:  # a challenge (under auto_reveal the claimant's own Mia is revealed at once)
                model._row(model.answered, nxt[1])[c] += 1
                model._row(model.challenged, nxt[1])[c] += 1
                model.answers.setdefault(nxt[1], []).append((p, c, True))
        elif nxt[2] in _CLAIMS or nxt[2] == LOG_GIVE_UP:
            model._row(model.answered, nxt[1])[c] += 1  # believed (rolled, passed blind or conceded a Mia)
            model.answers.setdefault(nxt[1], []).append((p, c, False))
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
