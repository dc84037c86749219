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

The tables and their file format are :mod:`bot.ai.pig_tables`, which needs nothing beyond the standard
library; numpy is imported lazily inside the solving functions only.

Regenerate the shipped tables with ``python -m bot.ai.pig_solver --ship`` (or
``python scripts/gen_pig_tables.py``).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.ai.pig_tables import DATA_DIR, DOUBLE_ONES, SHIPPED, PigPolicy, PigRules, load_shipped, require_numpy

# --------------------------------------------------------------------------------------------
# Solving and exact evaluation (numpy, imported lazily)


@dataclass
class Solution:
    """A solved game: ``roll`` (bool per state, table order) and ``p0[i, j] = P(i, j, 0)``."""

    rules: PigRules
    roll: Any
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

    def policy(self) -> PigPolicy:
        np = require_numpy()
        bits = np.packbits(self.roll, bitorder="little").tobytes()
        meta = {"p_first": round(self.p_first, 10), "min_margin": float(f"{self.min_margin:.2g}")}
        return PigPolicy(self.rules, bits, meta)


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
    den, bust, wipe, outs = rules.outcomes()
    gmin = min(g for g, _, _ in outs)
    gmax = max(g for g, _, _ in outs)
    p_free = np.zeros(gmax - gmin + 1)
    p_forced = np.zeros(gmax - gmin + 1)
    for g, count, forced in outs:
        (p_forced if forced else p_free)[g - gmin] += count / den
    kern = _Kernel(t, gmin, gmax, p_free, p_forced, bust / den, wipe / den)
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
    """Solve a variant for the optimal (win-probability maximising) policy. Needs numpy."""
    rules = rules or PigRules(**options)
    start = time.perf_counter()
    out = _with_wipes(rules, lambda w: _layered(rules, None, w), 1)
    seconds = time.perf_counter() - start
    return Solution(
        rules,
        out["roll"],
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
        arr = policy.roll
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
