"""Optimal play of Pig and Big Pig, and the compact roll/hold table the computer player ships.

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

**Table format** (stdlib only to read; see :class:`PigPolicy`). One bit per non-terminal state,
``1`` = roll, ``0`` = hold, for ``0 <= i, j < target`` and ``0 <= k < target - i`` (505,000
states = 63,125 bytes at target 100), in the order ``i``, then ``j``, then ``k``:
``index(i, j, k) = T * (i*T - i*(i-1)/2) + j*(T - i) + k``, packed least significant bit first.
A file is ``MAGIC`` + one line of JSON header (rules, state count, SHA-256 of the raw bitmap, the
first player's win probability) + the zlib-compressed bitmap.

numpy is imported lazily inside the solving functions only: loading and using a table needs
nothing beyond the standard library.

Regenerate the shipped tables with ``python -m bot.ai.pig_solver --ship`` (or
``python scripts/gen_pig_tables.py``).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import time
import zlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

MAGIC = b"DTPIG1\n"
DATA_DIR = Path(__file__).resolve().parent / "data"
SHIPPED: tuple[dict[str, Any], ...] = (
    {"dice": 1, "target": 100},
    {"dice": 2, "target": 100},  # Big Pig defaults: plus25, doubles x2, no forced re-roll
)
DOUBLE_ONES = ("plus25", "lose_score", "bust")


# --------------------------------------------------------------------------------------------
# Rules that change the optimal policy


@dataclass(frozen=True)
class PigRules:
    """The options that matter to the policy. Two-dice-only options are normalised away for one die.

    ``auto_hold_at_target`` does not change optimal play (an optimal player holds there anyway) and
    ``equal_turns`` is not modelled (the computer player documents its approximation).
    """

    dice: int = 1
    target: int = 100
    double_ones: str = "plus25"
    doubles_multiplier: int = 2
    must_roll_after_doubles: bool = False

    def __post_init__(self) -> None:
        if self.dice not in (1, 2):
            raise ValueError(f"dice must be 1 or 2, got {self.dice!r}")
        if isinstance(self.target, bool) or not isinstance(self.target, int) or not 2 <= self.target <= 1000:
            raise ValueError(f"target must be a whole number from 2 to 1000, got {self.target!r}")
        if self.double_ones not in DOUBLE_ONES:
            raise ValueError(f"double_ones must be one of {DOUBLE_ONES}, got {self.double_ones!r}")
        if self.doubles_multiplier not in (1, 2):
            raise ValueError(f"doubles_multiplier must be 1 or 2, got {self.doubles_multiplier!r}")
        if self.dice == 1:  # the two-dice options do not exist for one die
            object.__setattr__(self, "double_ones", "plus25")
            object.__setattr__(self, "doubles_multiplier", 2)
            object.__setattr__(self, "must_roll_after_doubles", False)
        else:
            object.__setattr__(self, "must_roll_after_doubles", bool(self.must_roll_after_doubles))

    @classmethod
    def from_options(cls, options: Any) -> PigRules:
        """From a ``PigOptions`` or its dict (``view["options"]``); unknown keys are ignored."""
        data = options if isinstance(options, Mapping) else options.to_dict()
        return cls(
            dice=int(data.get("dice", 1)),
            target=int(data.get("target", 100)),
            double_ones=str(data.get("double_ones", "plus25")),
            doubles_multiplier=int(data.get("doubles_multiplier", 2)),
            must_roll_after_doubles=bool(data.get("must_roll_after_doubles", False)),
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "dice": self.dice,
            "target": self.target,
            "double_ones": self.double_ones,
            "doubles_multiplier": self.doubles_multiplier,
            "must_roll_after_doubles": self.must_roll_after_doubles,
        }

    @property
    def key(self) -> str:
        """A file-name-safe id: ``pig-d1-t100``, ``pig-d2-plus25-x2-t100`` (``-mr``: must re-roll doubles)."""
        if self.dice == 1:
            return f"pig-d1-t{self.target}"
        forced = "-mr" if self.must_roll_after_doubles else ""
        return f"pig-d2-{self.double_ones}-x{self.doubles_multiplier}{forced}-t{self.target}"

    @property
    def states(self) -> int:
        """Non-terminal states ``(i, j, k)``: ``0 <= i, j < T``, ``0 <= k < T - i``."""
        t = self.target
        return t * t * (t + 1) // 2

    def outcomes(self) -> tuple[int, int, int, list[tuple[int, int, bool]]]:
        """``(denominator, bust, wipe, [(gain, count, forces_a_reroll)])`` for one roll."""
        if self.dice == 1:
            return 6, 1, 0, [(face, 1, False) for face in range(2, 7)]
        bust = wipe = 0
        merged: dict[tuple[int, bool], int] = {}
        for a in range(1, 7):
            for b in range(1, 7):
                if a == b == 1:
                    if self.double_ones == "plus25":
                        key = (25, self.must_roll_after_doubles)
                        merged[key] = merged.get(key, 0) + 1
                    elif self.double_ones == "lose_score":
                        wipe += 1
                    else:
                        bust += 1
                elif a == 1 or b == 1:
                    bust += 1
                else:
                    double = a == b
                    gain = (a + b) * (self.doubles_multiplier if double else 1)
                    key = (gain, double and self.must_roll_after_doubles)
                    merged[key] = merged.get(key, 0) + 1
        return 36, bust, wipe, [(g, n, f) for (g, f), n in sorted(merged.items())]


def state_index(target: int, i: int, j: int, k: int) -> int:
    """Bit index of state ``(i, j, k)`` in a table (see the module docstring)."""
    return target * (i * target - i * (i - 1) // 2) + j * (target - i) + k


# --------------------------------------------------------------------------------------------
# The shipped/cached table (stdlib only)


class PolicyFormatError(ValueError):
    pass


class PigPolicy:
    """A roll/hold table: ``rolls(i, j, k)`` is True when the table rolls (stdlib only)."""

    __slots__ = ("rules", "bits", "meta")

    def __init__(self, rules: PigRules, bits: bytes, meta: Mapping[str, Any] | None = None) -> None:
        if len(bits) != (rules.states + 7) // 8:
            raise PolicyFormatError(f"{rules.key}: expected {(rules.states + 7) // 8} bytes, got {len(bits)}")
        self.rules = rules
        self.bits = bytes(bits)
        self.meta = dict(meta or {})

    def rolls(self, i: int, j: int, k: int) -> bool:
        """The table's decision with score ``i``, opponent ``j``, turn total ``k`` (k = 0: roll)."""
        t = self.rules.target
        if i + k >= t:
            return False  # already won: hold (auto-hold does it anyway)
        if k <= 0:
            return True
        i = max(0, i)
        j = min(max(0, j), t - 1)
        n = state_index(t, i, j, k)
        return bool(self.bits[n >> 3] >> (n & 7) & 1)

    def hold_point(self, i: int, j: int) -> int | None:
        """The smallest turn total at which the table holds at scores ``(i, j)``; None if it never does."""
        for k in range(1, self.rules.target - i):
            if not self.rolls(i, j, k):
                return k
        return None

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.bits).hexdigest()

    def to_bytes(self) -> bytes:
        header = {"format": 1, "rules": self.rules.to_dict(), "states": self.rules.states, "sha256": self.sha256}
        header.update({k: v for k, v in self.meta.items() if k not in header})
        line = json.dumps(header, sort_keys=True, separators=(",", ":")).encode()
        return MAGIC + line + b"\n" + zlib.compress(self.bits, 9)

    @classmethod
    def from_bytes(cls, data: bytes) -> PigPolicy:
        if not data.startswith(MAGIC):
            raise PolicyFormatError("not a Dice Tavern Pig table (bad magic)")
        end = data.index(b"\n", len(MAGIC))
        header = json.loads(data[len(MAGIC) : end])
        if header.get("format") != 1:
            raise PolicyFormatError(f"unsupported table format {header.get('format')!r}")
        rules = PigRules(**header["rules"])
        bits = zlib.decompress(data[end + 1 :])
        if header.get("states") != rules.states or hashlib.sha256(bits).hexdigest() != header.get("sha256"):
            raise PolicyFormatError(f"{rules.key}: corrupt table (size or checksum mismatch)")
        meta = {k: v for k, v in header.items() if k not in ("format", "rules", "states", "sha256")}
        return cls(rules, bits, meta)

    def save(self, path: str | os.PathLike[str]) -> Path:
        """Write atomically (temp file + rename), creating the folder."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        tmp.write_bytes(self.to_bytes())
        os.replace(tmp, path)
        return path

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> PigPolicy:
        return cls.from_bytes(Path(path).read_bytes())

    def to_array(self) -> Any:
        """The decisions as a numpy bool array in table order (needs numpy)."""
        np = _numpy()
        raw = np.frombuffer(self.bits, dtype=np.uint8)
        return np.unpackbits(raw, bitorder="little")[: self.rules.states].astype(bool)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PigPolicy) and self.rules == other.rules and self.bits == other.bits

    def __hash__(self) -> int:
        return hash((self.rules, self.bits))

    def __repr__(self) -> str:
        return f"PigPolicy({self.rules.key}, sha256={self.sha256[:12]})"


def shipped_path(rules: PigRules) -> Path:
    return DATA_DIR / f"{rules.key}.bin"


def load_shipped(rules: PigRules) -> PigPolicy | None:
    """The table shipped in ``bot/ai/data`` for these rules, if any."""
    path = shipped_path(rules)
    if not path.is_file():
        return None
    policy = PigPolicy.load(path)
    if policy.rules != rules:
        raise PolicyFormatError(f"{path} holds {policy.rules.key}, expected {rules.key}")
    return policy


# --------------------------------------------------------------------------------------------
# Solving and exact evaluation (numpy, imported lazily)


def _numpy() -> Any:
    try:
        import numpy
    except ModuleNotFoundError as exc:  # pragma: no cover - depends on the environment
        raise RuntimeError("solving Pig tables needs numpy (pip install numpy)") from exc
    return numpy


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
        np = _numpy()
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
    np = _numpy()
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
            const = kern.p_wipe * (1.0 - wipe_values[side][j]) if kern.p_wipe else None
            sd = _Side(np, kern, lo, n, hold, const)
            if not optimise:
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
    np = _numpy()
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
    np = _numpy()
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
    np = _numpy()
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
    np = _numpy()
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
