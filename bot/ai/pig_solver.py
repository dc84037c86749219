"""Optimal play of Pig and Big Pig: the solver that computes the roll/hold tables.

The solver follows Neller & Presser, "Optimal Play of the Dice Game Pig" (UMAP Journal 25(1), 2004),
for two players maximising the probability of winning (rules/pig.md, "Strategy notes"):
``P(i, j, k)`` is the win probability of the player to move with banked score ``i``, opponent score
``j`` and turn total ``k``; ``P = 1`` once ``i + k >= target``;
``P = max(P_roll, P_hold)`` with ``P_hold = 1 - P(j, i + k, 0)`` (only after a roll, rule P-1) and
``P_roll = p_bust * (1 - P(j, i, 0)) + sum_r p_r * P(i, j, k + r)``.

**How it is solved.** Banked scores never decrease (except in the ``double_ones=lose_score``
variant, handled below), so the states are split into *score-sum layers* ``s = i + j`` and solved
from the highest layer down. Inside a layer, holding leads to a higher (already solved) layer and
rolling on leads to a larger ``k``; the only cycle is a bust, ``(i, j, 0) <-> (j, i, 0)``. For a
fixed roll/hold policy every state of a pair's turn is *linear* in the bust value ``b``
(``V = a + c b``), so the pair ``x_i = a_i + c_i (1 - x_j)``, ``x_j = a_j + c_j (1 - x_i)`` is
solved exactly; the greedy policy is then recomputed and the step repeated until the policy no
longer changes (policy iteration, i.e. Newton's method on the piecewise-linear equations; it
takes about 4 passes per layer; plain value iteration is the fallback if it ever cycles). Every pass
is vectorised with numpy over all the pairs of a layer; the turn total ``k`` is the only Python loop.
With ``double_ones=lose_score`` a snake-eyes roll sends the roller to 0, which links a layer to
lower ones; that variant wraps the layered solve in an outer fixed-point iteration on
``P(j, 0, 0)`` (about 15 rounds, ~10 s at target 100).

**The fast path** (:func:`solve`) runs the same equations as a skewed *wavefront* over every layer at
once (:func:`_wave_pass`): layer ``s`` handles turn total ``k`` at time ``2 (S - s) - k``, so a hold's
layer is always finished and each time step is one block of numpy work (~4t steps instead of ~t^2
per-layer steps). The bust values are guessed (the previous pass's values; in the first pass, the
nearest finished layer's); each layer's decisions are checked against its exact values when it completes, and passes
repeat (global policy iteration) until all are greedy, re-solving the few last failing layers in
place with the per-layer code. It gives the same bits as the per-layer solver (:func:`solve_layered`,
kept as the reference and for :func:`evaluate`); tests check both against plain value iteration.

**Two or more opponents.** The solution is heads-up; the player applies it with ``j`` = the leading
opponent's score (bot/ai/pig_player.py documents this approximation).

The tables and their file format are :mod:`bot.ai.pig_tables`, which needs nothing beyond the standard
library; numpy is imported lazily inside the solving functions only.

Regenerate the shipped tables with ``python -m bot.ai.pig_solver --ship`` (or
``python scripts/gen_pig_tables.py``).
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.ai import pig_columns
from bot.ai.pig_tables import (
    DATA_DIR,
    DOUBLE_ONES,
    SHIPPED,
    SOLVER_VERSION,
    PigPolicy,
    PigRules,
    load_shipped,
    require_numpy,
)

# --------------------------------------------------------------------------------------------
# Solving and exact evaluation (numpy, imported lazily)


@dataclass
class Solution:
    """A solved game: the roll bits (table order, packed as in :mod:`bot.ai.pig_tables`) and
    ``p0[i, j] = P(i, j, 0)``."""

    rules: PigRules
    bits: bytes
    p0: Any
    seconds: float
    passes: int = 0
    rounds: int = 1
    min_margin: float = float("inf")
    stats: dict[str, Any] = field(default_factory=dict)

    @property
    def p_first(self) -> float:
        """P(the first player wins) with optimal play by both."""
        return float(self.p0[0, 0])

    @property
    def roll(self) -> Any:
        """The decisions as a numpy bool array in table order (``rules.states`` bytes: small targets only)."""
        return self.policy().to_array()

    def policy(self) -> PigPolicy:
        meta = {
            "p_first": round(self.p_first, 10),
            "min_margin": float(f"{self.min_margin:.2g}"),
            "solver": SOLVER_VERSION,
        }
        return PigPolicy(self.rules, self.bits, meta)


@dataclass
class _Kernel:
    """The roll distribution laid out for the sweeps: gains ``gmin..gmax`` as dense probability rows."""

    t: int
    gmin: int
    gmax: int
    p_free: Any  # P(gain), turn goes on freely
    p_forced: Any  # P(gain), a re-roll is forced (must_roll_after_doubles)
    p_bust: float
    p_wipe: float

    @property
    def width(self) -> int:
        return self.gmax - self.gmin + 1

    @property
    def forced(self) -> bool:
        return bool(self.p_forced.any())


class _Side:
    """Per-layer work arrays for one player-to-move."""

    def __init__(self, np: Any, kern: _Kernel, lo: int, n: int, hold: Any, const: Any) -> None:
        cols = kern.t + kern.gmax
        self.lo, self.n = lo, n
        self.vac = np.empty((cols, 2, n))  # value as a + c * b (b = the bust value), per turn total k
        self.vac[:, 0] = 1.0  # turn totals at or past the target: a win
        self.vac[:, 1] = 0.0
        self.rac = self.vac.copy() if kern.forced else None  # roll values (states with a forced re-roll)
        self.mask = np.ones((cols, n), dtype=bool)  # roll?
        self.hold = hold  # (k, pair): 1 - P_opp(j, i + k, 0); -inf at k = 0
        self.const = const  # wipe term (lose_score) or None


def _sweep(np: Any, kern: _Kernel, sd: _Side, b: Any, greedy: bool) -> tuple[Any, Any, float]:
    """One backward pass over k for every pair of a layer: ``P(i, j, 0) = a + c * b`` per pair.

    ``greedy``: choose roll/hold by comparing values at the bust values ``b`` (and record the
    policy in ``sd.mask``); else follow ``sd.mask``. Returns ``a``, ``c`` and the smallest
    ``|P_roll - P_hold|`` met (greedy only).
    """
    t, n, lo, gmin, gmax, width = kern.t, sd.n, sd.lo, kern.gmin, kern.gmax, kern.width
    vac, rac, mask, h, const = sd.vac, sd.rac, sd.mask, sd.hold, sd.const
    margin = np.inf
    for k in range(t - 1, -1, -1):
        m = min(n, t - k - lo)  # pairs with i + k < t (pairs are sorted by i)
        if m <= 0:
            continue
        ac = kern.p_free @ vac[k + gmin : k + gmax + 1].reshape(width, 2 * n)
        if rac is not None:
            ac = ac + kern.p_forced @ rac[k + gmin : k + gmax + 1].reshape(width, 2 * n)
        a = ac[:m]
        c = ac[n : n + m] + kern.p_bust
        if const is not None:
            a = a + const[:m]
        if rac is not None:
            rac[k, 0, :m] = a
            rac[k, 1, :m] = c
        if k == 0:  # no hold before the first roll
            vac[0, 0, :m] = a
            vac[0, 1, :m] = c
            continue
        hk = h[k, :m]
        if greedy:
            diff = a + c * b[:m] - hk
            r = diff > 0
            mask[k, :m] = r
            margin = min(margin, float(np.abs(diff).min()))
        else:
            r = mask[k, :m]
        vac[k, 0, :m] = np.where(r, a, hk)
        vac[k, 1, :m] = np.where(r, c, 0.0)
    return vac[0, 0].copy(), vac[0, 1].copy(), margin


def _layered(
    rules: PigRules,
    policies: tuple[Any, Any] | None = None,
    wipe_values: tuple[Any, Any] | None = None,
) -> dict[str, Any]:
    """One layered sweep. Optimise (``policies is None``) or evaluate two fixed flat bool policies.

    ``wipe_values[side][j]``: the value to the roller's opponent of a wiped roller, i.e. the
    opponent's ``P(j, 0, 0)`` (``lose_score`` only). Returns ``p0`` (per side), ``roll``, stats.
    """
    np = require_numpy()
    t = rules.target
    kern = _kernel(np, rules)
    ks = np.arange(t)
    offsets = t * (ks * t - ks * (ks - 1) // 2)
    optimise = policies is None
    nsides = 1 if optimise else 2
    p0 = [np.zeros((t, t)) for _ in range(nsides)]
    roll = np.zeros(rules.states, dtype=bool) if optimise else None
    passes = 0
    fallbacks = 0
    min_margin = np.inf

    for s in range(2 * t - 2, -1, -1):  # score-sum layers, highest first
        lo, hi = max(0, s - t + 1), min(s, t - 1)
        n = hi - lo + 1
        i = np.arange(lo, hi + 1)
        j = s - i  # pair p = (i, j); its bust partner (j, i) is pair n - 1 - p
        ik = i[None, :] + ks[:, None]  # (k, pair)
        valid = ik < t
        idx = np.where(valid, offsets[i][None, :] + (j * (t - i))[None, :] + ks[:, None], 0)
        sides = []
        for side in range(nsides):
            other = p0[nsides - 1 - side]  # the opponent's P(j, i + k, 0), from higher layers
            hold = 1.0 - other[j[None, :], np.minimum(ik, t - 1)]
            hold[0] = -np.inf
            const = None
            if kern.p_wipe:
                assert wipe_values is not None, "a rule that wipes a roller needs the wiped roller's values"
                const = kern.p_wipe * (1.0 - wipe_values[side][j])
            sd = _Side(np, kern, lo, n, hold, const)
            if policies is not None:  # evaluating (not optimise)
                sd.mask[:t] = policies[side][idx] | ~valid
                sd.mask[0] = True
            sides.append(sd)

        if optimise:
            sd = sides[0]
            x = np.full(n, 0.5)
            prev = None
            for _ in range(64):  # policy iteration
                passes += 1
                a0, c0, margin = _sweep(np, kern, sd, 1.0 - x[::-1], True)
                ar, cr = a0[::-1], c0[::-1]
                x = (a0 + c0 - c0 * (ar + cr)) / (1.0 - c0 * cr)
                if prev is not None and np.array_equal(prev, sd.mask):
                    break
                prev = sd.mask.copy()
            else:  # it cycled: settle by value iteration (each pass is also greedy)
                fallbacks += 1
                for _ in range(100_000):
                    passes += 1
                    a0, c0, margin = _sweep(np, kern, sd, 1.0 - x[::-1], True)
                    new = a0 + c0 * (1.0 - x[::-1])
                    converged = np.abs(new - x).max() <= 1e-15
                    x = new
                    if converged:
                        break
            min_margin = min(min_margin, margin)
            p0[0][i, j] = x
            assert roll is not None  # made when optimising
            roll[idx[valid]] = sd.mask[:t][valid]
        else:
            passes += 2
            a0, c0, _ = _sweep(np, kern, sides[0], None, False)
            a1, c1, _ = _sweep(np, kern, sides[1], None, False)
            p0[0][i, j] = (a0 + c0 - c0 * (a1[::-1] + c1[::-1])) / (1.0 - c0 * c1[::-1])
            p0[1][i, j] = (a1 + c1 - c1 * (a0[::-1] + c0[::-1])) / (1.0 - c1 * c0[::-1])
    return {"p0": p0, "roll": roll, "passes": passes, "fallbacks": fallbacks, "min_margin": float(min_margin)}


Sweep = Callable[[tuple[Any, Any] | None], dict[str, Any]]


def _with_wipes(rules: PigRules, run: Sweep, nsides: int) -> dict[str, Any]:
    """Run a layered sweep; with ``lose_score`` iterate on the wiped-roller values to a fixed point."""
    np = require_numpy()
    if rules.dice == 1 or rules.double_ones != "lose_score":
        out = run(None)
        out["rounds"] = 1
        return out
    t = rules.target
    guess = [np.full(t, 0.5) for _ in range(nsides)]
    passes = 0
    rounds = 0
    while rounds < 200:
        rounds += 1
        # side s's opponent value after a wipe is the opponent's P(j, 0, 0)
        values = (guess[nsides - 1], guess[0]) if nsides == 2 else (guess[0], guess[0])
        out = run(values)
        passes += out["passes"]
        new = [out["p0"][s][:, 0].copy() for s in range(nsides)]
        delta = max(float(np.abs(new[s] - guess[s]).max()) for s in range(nsides))
        guess = new
        if delta <= 1e-14:
            break
    out["rounds"] = rounds
    out["passes"] = passes
    return out


def solve(rules: PigRules | None = None, **options: Any) -> Solution:
    """Solve a variant for the optimal (win-probability maximising) policy. Needs numpy.

    One die, Big Pig and ``double_ones=bust`` without a forced re-roll: :mod:`bot.ai.pig_columns` (a small
    step per cell and layer); the rest: :func:`solve_wavefront`. Both give the same bits (the tests check).
    """
    rules = rules or PigRules(**options)
    np = require_numpy()
    kern = _kernel(np, rules)
    if pig_columns.supports(kern):
        start = time.perf_counter()
        fast = pig_columns.solve_columns(np, rules, kern)
        i, j = np.indices((rules.target, rules.target))
        return Solution(
            rules,
            fast.bits,
            fast.q[i + j, i],
            time.perf_counter() - start,
            passes=fast.iterations,
            min_margin=fast.margin,
            stats={"fallbacks": fast.stats["layers_settled"], "layers_resolved": 0, **fast.stats},
        )
    return solve_wavefront(rules)


def solve_wavefront(rules: PigRules | None = None, **options: Any) -> Solution:
    """The wavefront solver (:func:`_wave_pass`), repeated until every decision is greedy at its own values;
    with ``double_ones=lose_score`` inside an outer fixed-point iteration on the wiped roller's values
    ``P(j, 0, 0)`` (see the module docstring). :func:`solve` uses it for the variants
    :mod:`bot.ai.pig_columns` does not cover (a forced re-roll or a score wipe)."""
    rules = rules or PigRules(**options)
    np = require_numpy()
    start = time.perf_counter()
    t = rules.target
    kern = _kernel(np, rules)
    guess = None  # the first pass guesses from the layers it has finished
    wipe = np.full(t, 0.5) if kern.p_wipe else None
    rounds = passes = redone = 0
    while True:
        rounds += 1
        const = None if wipe is None else kern.p_wipe * (1.0 - wipe)
        wave, n = _wave_solve(np, rules, guess, const)
        passes += n
        redone += wave.redone
        guess = wave.q
        if wipe is None:
            break
        new = wave.q[np.arange(t), np.arange(t)]  # P(j, 0, 0): the opponent's turn after a wipe
        delta = float(np.abs(new - wipe).max())
        wipe = new
        if delta <= 1e-14 or rounds >= 200:
            break
    bits = _pack_table(np, t, wave.bits)
    i, j = np.indices((t, t))
    p0 = wave.q[i + j, i]
    seconds = time.perf_counter() - start
    return Solution(
        rules,
        bits,
        p0,
        seconds,
        passes=passes,
        rounds=rounds,
        min_margin=wave.margin,
        stats={"fallbacks": 0, "layers_resolved": redone},
    )


def solve_layered(rules: PigRules | None = None, **options: Any) -> Solution:
    """The per-layer solver (one layer at a time, ~t^2 small numpy steps): the reference the tests
    compare the wavefront with."""
    rules = rules or PigRules(**options)
    np = require_numpy()
    start = time.perf_counter()
    out = _with_wipes(rules, lambda w: _layered(rules, None, w), 1)
    seconds = time.perf_counter() - start
    return Solution(
        rules,
        np.packbits(out["roll"], bitorder="little").tobytes(),
        out["p0"][0],
        seconds,
        passes=out["passes"],
        rounds=out["rounds"],
        min_margin=out["min_margin"],
        stats={"fallbacks": out["fallbacks"]},
    )


PolicyLike = Any  # PigPolicy | Solution | numpy bool array in table order


def as_array(rules: PigRules, policy: PolicyLike) -> Any:
    """A flat numpy bool policy (table order) from a PigPolicy, Solution or array."""
    np = require_numpy()
    if isinstance(policy, PigPolicy):
        arr = policy.to_array()
    elif isinstance(policy, Solution):
        arr = policy.policy().to_array()
    else:
        arr = np.asarray(policy, dtype=bool)
    if arr.shape != (rules.states,):
        raise ValueError(f"policy has shape {arr.shape}, expected ({rules.states},)")
    return arr


def state_grid(rules: PigRules) -> tuple[Any, Any, Any]:
    """Arrays ``(i, j, k)`` of every state, in table order."""
    np = require_numpy()
    t = rules.target
    parts_i, parts_j, parts_k = [], [], []
    for i in range(t):
        jj, kk = np.meshgrid(np.arange(t), np.arange(t - i), indexing="ij")
        parts_i.append(np.full(jj.size, i))
        parts_j.append(jj.ravel())
        parts_k.append(kk.ravel())
    return np.concatenate(parts_i), np.concatenate(parts_j), np.concatenate(parts_k)


def policy_from(rules: PigRules, decide: Callable[[Any, Any, Any], Any]) -> Any:
    """A flat bool policy from a vectorised ``decide(i, j, k) -> roll?`` (k = 0 always rolls)."""
    np = require_numpy()
    i, j, k = state_grid(rules)
    return np.asarray(decide(i, j, k), dtype=bool) | (k == 0)


def hold_at(rules: PigRules, n: int) -> Any:
    """The "hold at n" policy: roll while the turn total is below ``n`` (and the goal is not reached)."""
    return policy_from(rules, lambda i, j, k: k < n)


def evaluate(rules: PigRules, first: PolicyLike, second: PolicyLike) -> float:
    """Exact P(``first`` wins) when ``first`` moves first against ``second`` (Markov chain, no simulation)."""
    pols = (as_array(rules, first), as_array(rules, second))
    out = _with_wipes(rules, lambda w: _layered(rules, pols, w), 2)
    return float(out["p0"][0][0, 0])


def evaluate_both_seats(rules: PigRules, policy: PolicyLike, opponent: PolicyLike) -> tuple[float, float, float]:
    """P(``policy`` wins) going first, going second, and the average of the two."""
    first = evaluate(rules, policy, opponent)
    second = 1.0 - evaluate(rules, opponent, policy)
    return first, second, (first + second) / 2


# --------------------------------------------------------------------------------------------
# The fast solver: a skewed "wavefront" over all score-sum layers at once


def _kernel(np: Any, rules: PigRules) -> _Kernel:
    den, bust, wipe, outs = rules.outcomes()
    gmin = min(g for g, _, _ in outs)
    gmax = max(g for g, _, _ in outs)
    p_free = np.zeros(gmax - gmin + 1)
    p_forced = np.zeros(gmax - gmin + 1)
    for g, count, forced in outs:
        (p_forced if forced else p_free)[g - gmin] += count / den
    return _Kernel(rules.target, gmin, gmax, p_free, p_forced, bust / den, wipe / den)


@dataclass
class _Wave:
    """One wavefront pass: ``q[s, i] = P(i, s - i, 0)``, the roll bits ``bits[i, j, k // 8]`` (bit ``k % 8``),
    the rows (layers) whose decisions were not greedy at the true bust values (``failed``) and the smallest
    ``|P_roll - P_hold|`` met."""

    q: Any
    bits: Any
    failed: int
    redone: int
    margin: float


TIE = 1e-12  # bust values this close to a decision's threshold count as consistent with it


def _wave_pass(np: Any, rules: PigRules, kern: _Kernel, guess: Any, const: Any, fix: int) -> _Wave:
    """Every layer at once, each one ``k`` step per time step, skewed so a hold's layer is always finished.

    Layer ``s = i + j`` handles turn total ``k`` at time ``2 (S - s) - k`` (``S = 2t - 2``, the top layer):
    a hold at ``k`` needs layer ``s + k``, which finished at ``2 (S - s - k) < 2 (S - s) - k``. So each time
    step is a few numpy operations on a (layers x opponent score) block, ~4t steps in all, instead of the
    per-layer loop's ~t^2 small ones. The only unknown inside a layer is the bust value ``b`` (the cycle
    ``(i, j, 0) <-> (j, i, 0)``): values are carried as ``a + c b`` (exact for the decisions taken) and the
    decisions are taken at the guess ``guess`` of ``b``. When a layer completes, the pair equations are
    solved exactly and every decision is checked against the true ``b`` (each one holds on an interval of
    ``b``); a layer that fails is counted and, up to ``fix`` of them, re-solved on its own by policy
    iteration (the per-layer solver) before any lower layer reads it.
    """
    t = rules.target
    big = 2 * t - 2  # the top layer
    free = [(kern.gmin + n, float(p)) for n, p in enumerate(kern.p_free) if p]
    forced = [(kern.gmin + n, float(p)) for n, p in enumerate(kern.p_forced) if p]
    width = kern.gmax + 1  # ring slots: this step and the gmax before it
    layer = np.arange(big + 1)
    lo = np.maximum(0, layer - t + 1)  # smallest score in layer s
    hi = np.minimum(layer, t - 1)
    kmax = t - 1 - lo
    finish = 2 * (big - layer)
    start = finish - kmax
    end = int(finish[0])
    taus = np.arange(end + 1)
    first = np.searchsorted(-start, -taus, side="left")  # lowest active layer per step
    last = np.floor(big - taus / 2).astype(np.int64)  # highest active layer per step
    ring = int((last - first + 1).max()) + 1  # layers share ring rows modulo this
    va = np.ones((width, ring, t))  # values as a + c b, per ring slot (time), layer and opponent score j
    vc = np.zeros((width, ring, t))
    ra = rc = None
    if forced:  # roll values (a re-roll is forced after some rolls)
        ra, rc = np.ones((width, ring, t)), np.zeros((width, ring, t))
    q = np.zeros((big + 1, t))
    lo_b = np.full((big + 1, t), -np.inf)  # decisions hold for b in (lo_b, hi_b]
    hi_b = np.full((big + 1, t), np.inf)
    nbytes = (t + 7) // 8
    bits = np.zeros((t, t, nbytes), dtype=np.uint8)
    acc = np.zeros((ring, t), dtype=np.uint8)  # the last up-to-8 decisions of each pair
    opp = np.arange(t)
    work = [np.empty((ring, t)) for _ in range(6)]  # preallocated: big temporaries cost page faults
    flags = [np.empty((ring, t), dtype=bool) for _ in range(4)]
    failed = redone = 0
    margin = np.inf
    activated = big + 1
    for tau in range(end + 1):
        s_first, s_last = int(first[tau]), int(last[tau])
        for s in range(s_first, min(activated, s_last + 1)):  # layers starting now: past values are wins
            r = s % ring
            va[:, r], vc[:, r], acc[r] = 1.0, 0.0, 0
            if ra is not None and rc is not None:
                ra[:, r], rc[:, r] = 1.0, 0.0
        activated = s_first
        slot = tau % width
        done = big if tau == 0 else min(big, math.ceil(big - (tau - 1) / 2))  # lowest finished layer
        sa = s_first
        while sa <= s_last:  # contiguous ring rows
            sb = min(s_last, (sa // ring + 1) * ring - 1)
            r0, r1 = sa % ring, sb % ring + 1
            # columns: valid somewhere in the rows, and not yet won in all of them (i + k >= t)
            ja, jb = max(0, sa - t + 1, 2 * big - sb - tau - t + 1), min(sb, t - 1) + 1
            nr, nc = sb - sa + 1, jb - ja
            if nc <= 0:
                sa = sb + 1
                continue
            a, c, tmp, hold, diff, theta = (w[:nr, :nc] for w in work)
            won, roll, live, mask = (f[:nr, :nc] for f in flags)
            rows = layer[sa : sb + 1]
            ks = finish[sa : sb + 1] - tau
            _roll_sum(np, free, va, vc, tau, width, r0, r1, ja, jb, a, c, tmp, True)
            if ra is not None and rc is not None:
                _roll_sum(np, forced, ra, rc, tau, width, r0, r1, ja, jb, a, c, tmp, False)
            c += kern.p_bust
            if const is not None:
                a += const[None, ja:jb]
            np.less_equal(opp[None, ja:jb], (rows + ks - t)[:, None], out=won)  # i + k >= t
            if ra is not None and rc is not None:
                ra[slot, r0:r1, ja:jb] = np.where(won, 1.0, a)
                rc[slot, r0:r1, ja:jb] = np.where(won, 0.0, c)
            q0, q1 = 2 * big - sb - tau, 2 * big - sa - tau  # holding at k lands in layer s + k
            np.subtract(1.0, q[q1 : (q0 - 1 if q0 > 0 else None) : -1, ja:jb], out=hold)
            if guess is None:  # first pass: the nearest finished layer, both scores moved up equally
                d = (done - rows)[:, None] // 2
                np.subtract(1.0, q[done, np.minimum(opp[None, ja:jb] + d, t - 1)], out=tmp)
            else:
                np.subtract(1.0, guess[sa : sb + 1, ja:jb], out=tmp)
            np.multiply(c, tmp, out=diff)
            diff += a
            diff -= hold
            np.greater(diff, 0, out=roll)
            zero = ks == 0
            np.logical_not(won, out=live)
            live[zero] = False
            roll[zero] = True
            np.abs(diff, out=tmp)
            margin = min(margin, float(np.minimum.reduce(tmp, axis=None, where=live, initial=np.inf)))
            np.logical_and(roll, live, out=mask)  # rolls that are decisions
            # values: hold where not rolling, then wins; the bust coefficient only where rolling
            vslot = va[slot, r0:r1, ja:jb]
            np.copyto(vslot, hold)
            np.copyto(vslot, a, where=roll)
            vslot[won] = 1.0
            mask[zero] = True
            np.multiply(c, mask, out=vc[slot, r0:r1, ja:jb])
            mask[zero] = False
            # each decision stays greedy for b in (theta, +inf) when rolling, (-inf, theta] when holding
            np.subtract(hold, a, out=theta)
            theta /= c  # c >= P(bust) > 0 in every variant
            lob, hib = lo_b[sa : sb + 1, ja:jb], hi_b[sa : sb + 1, ja:jb]
            np.maximum(lob, theta, out=lob, where=mask)
            np.greater(live, roll, out=live)  # now: holds that are decisions
            np.minimum(hib, theta, out=hib, where=live)
            mask[zero] = True
            acc[r0:r1, ja:jb] |= mask.view(np.uint8) << (ks % 8).astype(np.uint8)[:, None]
            full = np.nonzero(ks % 8 == 0)[0]  # a full byte of decisions (k .. k + 7): store it
            if len(full):
                fs, fr = rows[full][:, None], (rows[full] % ring)[:, None]
                fj = opp[None, ja:jb]
                ok = (fj >= lo[fs]) & (fj <= hi[fs])
                fs, fj, fk = np.broadcast_arrays(fs, fj, (ks[full] // 8)[:, None])
                bits[(fs - fj)[ok], fj[ok], fk[ok]] = acc[np.broadcast_to(fr, ok.shape)[ok], fj[ok]]
                acc[fr, ja:jb] = 0
            if zero.any():  # layer s completes: solve its pairs' bust cycle exactly, then check
                f = int(np.nonzero(zero)[0][0])
                s = int(rows[f])
                js = np.arange(lo[s], hi[s] + 1)  # opponent scores; the mover has s - j
                a0, c0 = a[f, js - ja], c[f, js - ja]
                ar, cr = a0[::-1], c0[::-1]  # the bust partner (j, i)
                q[s, s - js] = (a0 + c0 - c0 * (ar + cr)) / (1.0 - c0 * cr)
                b = 1.0 - q[s, js]
                # a decision within TIE of indifference is optimal either way (and rounding may flip it)
                if not ((lo_b[s, js] - TIE < b) & (b <= hi_b[s, js] + TIE)).all():
                    failed += 1
                    if redone < fix:
                        redone += 1
                        _resolve_layer(np, kern, q, bits, s, t, const)
            sa = sb + 1
    return _Wave(q, bits, failed, redone, margin)


def _roll_sum(
    np: Any,
    gains: list[tuple[int, float]],
    va: Any,
    vc: Any,
    tau: int,
    width: int,
    r0: int,
    r1: int,
    ja: int,
    jb: int,
    a: Any,
    c: Any,
    tmp: Any,
    first: bool,
) -> None:
    """``a, c (+)= sum_g p_g V(k + g)`` from the ring (the value at ``k + g`` was made ``g`` steps ago),
    gains of equal probability summed before one multiply."""
    groups: dict[float, list[int]] = {}
    for g, p in gains:
        groups.setdefault(p, []).append(g)
    for p, same in groups.items():
        for arr, out in ((va, a), (vc, c)):
            dst = out if first else tmp
            if len(same) == 1:
                np.multiply(arr[(tau - same[0]) % width, r0:r1, ja:jb], p, out=dst)
            else:
                np.add(arr[(tau - same[0]) % width, r0:r1, ja:jb], arr[(tau - same[1]) % width, r0:r1, ja:jb], out=dst)
                for g in same[2:]:
                    dst += arr[(tau - g) % width, r0:r1, ja:jb]
                dst *= p
            if not first:
                out += tmp
        first = False


def _resolve_layer(np: Any, kern: _Kernel, q: Any, bits: Any, s: int, t: int, const: Any) -> None:
    """Re-solve one layer by policy iteration (the per-layer solver), from the wavefront's values."""
    big = 2 * t - 2
    lo, hi = max(0, s - t + 1), min(s, t - 1)
    n = hi - lo + 1
    i = np.arange(lo, hi + 1)
    j = s - i
    ks = np.arange(t)
    hold = 1.0 - q[np.minimum(s + ks, big)[:, None], j[None, :]]
    hold[0] = -np.inf
    sd = _Side(np, kern, lo, n, hold, None if const is None else const[j])
    x = q[s, i].copy()
    prev = None
    for _ in range(64):
        a0, c0, _margin = _sweep(np, kern, sd, 1.0 - x[::-1], True)
        ar, cr = a0[::-1], c0[::-1]
        x = (a0 + c0 - c0 * (ar + cr)) / (1.0 - c0 * cr)
        if prev is not None and np.array_equal(prev, sd.mask):
            break
        prev = sd.mask.copy()
    else:  # it cycles between decisions that tie to the last bits (seen at target 1000): value iteration
        for _ in range(100_000):
            a0, c0, _margin = _sweep(np, kern, sd, 1.0 - x[::-1], True)
            new = a0 + c0 * (1.0 - x[::-1])
            converged = float(np.abs(new - x).max()) <= 1e-15
            x = new
            if converged:
                break
    q[s, i] = x
    decided = sd.mask[:t] & (ks[:, None] + i[None, :] < t)  # (k, pair)
    padded = np.zeros((bits.shape[2] * 8, n), dtype=bool)
    padded[:t] = decided
    bits[i, j, :] = np.packbits(padded.T, axis=1, bitorder="little")


def _pack_table(np: Any, t: int, bits: Any) -> bytes:
    """The (i, j, k // 8) bytes as the table's flat bitmap (i, then j, then k; see pig_tables), a slice at a time."""
    out, carry = [], np.zeros(0, dtype=bool)
    for i in range(t):
        block = np.unpackbits(bits[i], axis=1, bitorder="little")[:, : t - i].astype(bool).ravel()
        run = np.concatenate((carry, block))
        cut = len(run) // 8 * 8
        out.append(np.packbits(run[:cut], bitorder="little").tobytes())
        carry = run[cut:]
    if len(carry):
        out.append(np.packbits(carry, bitorder="little").tobytes())
    return b"".join(out)


def _wave_solve(np: Any, rules: PigRules, guess: Any, const: Any) -> tuple[_Wave, int]:
    """Wavefront passes (global policy iteration: each pass decides at the last pass's values) until every
    layer is greedy at its own values; once few layers fail, the failing ones are re-solved in place."""
    kern = _kernel(np, rules)
    rows = 2 * rules.target - 1
    passes = 0
    while True:
        passes += 1
        # re-solving a layer costs about what the per-layer solver spends on it: worth it for a few only
        budget = max(4, rows // 50) if passes < 6 else rows
        wave = _wave_pass(np, rules, kern, guess, const, budget)
        if wave.failed == wave.redone:
            return wave, passes
        guess = wave.q


# --------------------------------------------------------------------------------------------
# Command line: regenerate the shipped tables, benchmark, check


def generate(rules: PigRules, out_dir: Path | None = None) -> tuple[Solution, Path]:
    solution = solve(rules)
    path = solution.policy().save((out_dir or DATA_DIR) / f"{rules.key}.bin")
    return solution, path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.ai.pig_solver", description=__doc__.split("\n")[0])
    parser.add_argument("--ship", action="store_true", help="regenerate the shipped tables in bot/ai/data")
    parser.add_argument("--check", action="store_true", help="verify the shipped tables equal a fresh solve")
    parser.add_argument("--dice", type=int, choices=(1, 2), default=1)
    parser.add_argument("--target", type=int, default=100)
    parser.add_argument("--double-ones", choices=DOUBLE_ONES, default="plus25")
    parser.add_argument("--doubles-multiplier", type=int, choices=(1, 2), default=2)
    parser.add_argument("--must-roll-after-doubles", action="store_true")
    parser.add_argument("--out", type=Path, default=None, help="write the table here (a folder)")
    args = parser.parse_args(argv)

    if args.ship or args.check:
        todo = [PigRules(**spec) for spec in SHIPPED]
    else:
        todo = [
            PigRules(
                dice=args.dice,
                target=args.target,
                double_ones=args.double_ones,
                doubles_multiplier=args.doubles_multiplier,
                must_roll_after_doubles=args.must_roll_after_doubles,
            )
        ]
    status = 0
    for rules in todo:
        if args.check:
            solution = solve(rules)
            shipped = load_shipped(rules)
            same = shipped is not None and shipped.bits == solution.policy().bits
            status |= not same
            print(f"{rules.key}: {'OK' if same else 'DIFFERENT'} (solved in {solution.seconds:.2f} s)")
            continue
        if args.ship or args.out is not None:
            solution, path = generate(rules, args.out)
            where = f" -> {path} ({path.stat().st_size:,} bytes)"
        else:
            solution, where = solve(rules), ""
        print(
            f"{rules.key}: P(first wins) = {solution.p_first:.6f}, hold point at 0-0 = "
            f"{solution.policy().hold_point(0, 0)}, {rules.states:,} states, {solution.seconds:.2f} s "
            f"({solution.passes} layer passes, {solution.rounds} round(s), min margin {solution.min_margin:.2g})"
            f"{where}"
        )
    return status


if __name__ == "__main__":
    sys.exit(main())
