"""Pig solver and hard player (issue 17): solve times per target and variant, and the fallback's strength.

**Solve** (default): solves each variant at each target once (wall and CPU seconds, wavefront passes,
layers re-solved, P(first wins)); at the shipped targets it also checks the result against the table in
bot/ai/data. Variants: ``d1`` one die, ``bigpig`` (two dice, defaults), ``lose`` (double ones lose the
score, doubles x1: Two-Dice Pig), ``bust-mr`` (double ones bust, doubles x1, re-roll after doubles).

**Compare** (``--compare``): solves each variant at each target with :func:`bot.ai.pig_solver.solve` (the
per-cell solver of bot/ai/pig_columns.py where it applies) and with the wavefront solver, and reports both
times, how many decisions differ and the largest difference in P(i, j, 0).

**Strength** (``--strength``): win shares of the hard player's pieces against the other levels, one die.
Exact (Markov chain, no sampling: ``bot.ai.pig_solver.evaluate_both_seats``, seats averaged) at the
``--exact`` targets; simulated at ``--simulate`` targets (seats alternated, seeded dice, 95% Wilson
intervals), where ``fallback`` is the hard player while its table is being solved.

    nice -n 19 python -m benchmarks.pig_solver --targets 10,100,200,500 --variants d1,bigpig
    nice -n 19 python -m benchmarks.pig_solver --targets 1000 --variants d1
    nice -n 19 python -m benchmarks.pig_solver --compare --targets 100,200 --variants d1,bigpig,bust
    nice -n 19 python -m benchmarks.pig_solver --strength --exact 100,200 --simulate 500 --games 2000
    python -m benchmarks.pig_solver --quick
"""

from __future__ import annotations

import random
import resource
import time
from collections.abc import Callable
from typing import Any

from benchmarks._common import header, parser, show

VARIANTS: dict[str, dict[str, Any]] = {
    "d1": {"dice": 1},
    "bigpig": {"dice": 2},
    "lose": {"dice": 2, "double_ones": "lose_score", "doubles_multiplier": 1},
    "bust": {"dice": 2, "double_ones": "bust", "doubles_multiplier": 1},
    "bust-mr": {"dice": 2, "double_ones": "bust", "doubles_multiplier": 1, "must_roll_after_doubles": True},
}


def run(quick: bool = False, targets: list[int] | None = None, variants: list[str] | None = None) -> dict[str, float]:
    header("Pig solver (bot.ai.pig_solver.solve: per-cell columns solver, or the wavefront where it does not apply)")
    print(
        "leaves out: Discord, the store, and the bot's event loop, which a solve in production shares its process "
        "with"
    )
    import numpy  # noqa: F401  (the solver's dependency: fail early and plainly)

    from bot.ai.pig_solver import solve
    from bot.ai.pig_tables import PigRules, load_shipped

    targets = targets or ([10, 100] if quick else [10, 100, 200, 500])
    variants = variants or (["d1", "bigpig"] if quick else list(VARIANTS))
    rows, out = [], {}
    for name in variants:
        for target in targets:
            rules = PigRules(target=target, **VARIANTS[name])
            wall, cpu = time.perf_counter(), time.process_time()
            solution = solve(rules)
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            shipped = load_shipped(rules)
            same = "-" if shipped is None else ("same" if shipped.bits == solution.bits else "DIFFERENT")
            out[rules.key] = wall
            rows.append(
                (
                    rules.key,
                    "columns" if "wide_cells" in solution.stats else "wavefront",
                    rules.states,
                    round(wall, 2),
                    round(cpu, 2),
                    solution.passes,
                    solution.rounds,
                    solution.stats.get("layers_resolved", 0),
                    f"{solution.p_first:.6f}",
                    f"{solution.min_margin:.1g}",
                    same,
                )
            )
            print(*rows[-1], sep="  ", flush=True)
    show(
        rows,
        [
            "variant",
            "solver",
            "states",
            "wall s",
            "CPU s",
            "passes",
            "rounds",
            "re-solved",
            "P(first wins)",
            "margin",
            "shipped",
        ],
    )
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory {peak:.0f} MB (Neller & Presser 2004: P(first wins) = 0.5306 for Pig to 100)")
    return out


GAP_SAMPLE = 2000


def compare(targets: list[int], variants: list[str]) -> None:
    """The default solver against the wavefront: times, differing decisions, largest |delta P|."""
    import numpy as np

    from bot.ai.pig_solver import solve, solve_wavefront
    from bot.ai.pig_tables import PigRules

    header("Pig solvers compared: solve() (columns where it applies) vs the wavefront")
    rows = []
    for name in variants:
        for target in targets:
            rules = PigRules(target=target, **VARIANTS[name])
            timed = []
            for fn in (solve, solve_wavefront):
                wall, cpu = time.perf_counter(), time.process_time()
                solution = fn(rules)
                timed.append((solution, time.perf_counter() - wall, time.process_time() - cpu))
            (fast, fw, fc), (wave, ww, wc) = timed
            a = np.unpackbits(np.frombuffer(fast.bits, np.uint8), bitorder="little")[: rules.states]
            b = np.unpackbits(np.frombuffer(wave.bits, np.uint8), bitorder="little")[: rules.states]
            differ = np.flatnonzero(a != b)
            sample = differ[:: max(1, -(-len(differ) // GAP_SAMPLE))]  # each costs a Python loop over k
            gap = max((abs(_roll_minus_hold(rules, fast.p0, int(x))) for x in sample), default=0.0)
            rows.append(
                (
                    rules.key,
                    rules.states,
                    round(fc, 2),
                    round(fw, 2),
                    round(wc, 2),
                    round(ww, 2),
                    len(differ),
                    f"{gap:.1e}",
                    f"{float(np.abs(fast.p0 - wave.p0).max()):.1e}",
                    f"{fast.p_first:.6f}",
                )
            )
            print(*rows[-1], sep="  ", flush=True)
    show(
        rows,
        [
            "variant",
            "states",
            "CPU s",
            "wall s",
            "wave CPU s",
            "wave wall s",
            "decisions differ",
            f"max |roll-hold| there (<= {GAP_SAMPLE:,} of them)",
            "max |dP|",
            "P(first)",
        ],
    )


def _roll_minus_hold(rules: Any, p0: Any, index: int) -> float:
    """P_roll - P_hold at the state with this table index, by the values ``p0[i, j] = P(i, j, 0)``."""
    t = rules.target
    i = max(m for m in range(t) if t * (m * t - m * (m - 1) // 2) <= index)  # table order: i, then j, then k
    j, k = divmod(index - t * (i * t - i * (i - 1) // 2), t - i)
    den, bust, _wipe, outs = rules.outcomes()
    b = 1.0 - float(p0[j, i])
    value: dict[int, float] = {}
    for kk in range(t - i - 1, k - 1, -1):
        roll = bust / den * b + sum(n / den * (1.0 if i + kk + g >= t else value[kk + g]) for g, n, _ in outs)
        hold = 1.0 - float(p0[j, i + kk])
        value[kk] = roll if kk == 0 else max(roll, hold)
        if kk == k:
            return roll - hold
    return 0.0


# ------------------------------------------------------------------------------------------
# Strength


def _policies(np: Any, rules: Any) -> dict[str, Any]:
    """The one-die players as exact policies (bool per state, table order)."""
    from bot.ai.pig_player import END_RACE_MARGIN, KEEP_PACE_BASE, NORMAL_HOLD, keep_pace_scale
    from bot.ai.pig_solver import policy_from, solve

    end = rules.target - END_RACE_MARGIN

    def racing(i: Any, j: Any) -> Any:
        return (i >= end) | (j >= end)

    return {
        "hard": solve(rules).bits,
        "fallback": policy_from(
            rules,
            lambda i, j, k: (
                racing(i, j) | (k < KEEP_PACE_BASE + np.floor((j - i) * keep_pace_scale(rules.target) / 8 + 0.5))
            ),
        ),
        "normal": policy_from(rules, lambda i, j, k: racing(i, j) | (k < NORMAL_HOLD[1])),
        "hold25+race": policy_from(rules, lambda i, j, k: racing(i, j) | (k < 25)),
        "hold25": policy_from(rules, lambda i, j, k: k < 25),
        "ref:sensible": policy_from(rules, lambda i, j, k: k < 20),
    }


PAIRS = [
    ("hard", "normal"),
    ("hard", "ref:sensible"),
    ("normal", "ref:sensible"),
    ("fallback", "normal"),
    ("fallback", "hold25"),
    ("fallback", "hold25+race"),
    ("fallback", "hard"),
    ("hold25+race", "hard"),
]


def exact(targets: list[int]) -> None:
    import numpy as np

    from bot.ai.pig_solver import as_array, evaluate_both_seats
    from bot.ai.pig_tables import PigPolicy, PigRules

    header("Pig strength, exact (Markov chain; share of the first player named, seats averaged)")
    rows = []
    for target in targets:
        rules = PigRules(target=target)
        wall = time.perf_counter()
        pols = _policies(np, rules)
        pols["hard"] = as_array(rules, PigPolicy(rules, pols["hard"]))
        for a, b in PAIRS:
            first, second, avg = evaluate_both_seats(rules, pols[a], pols[b])
            rows.append((target, f"{a} vs {b}", f"{avg:.4f}", f"{first:.4f}", f"{second:.4f}"))
            print(*rows[-1], sep="  ", flush=True)
        print(f"(target {target}: {time.perf_counter() - wall:.0f} s)")
    show(rows, ["target", "matchup", "share", "going first", "going second"])


def _deciders(rules: Any) -> dict[str, Callable[[int, int, int], bool]]:
    """Hold? per player, from (my score, the leader's score, turn total): the player's own rules."""
    from bot.ai.pig_player import END_RACE_MARGIN, NORMAL_HOLD, fallback_holds, get_policy

    end = rules.target - END_RACE_MARGIN
    table = get_policy(rules, compute=True)
    assert table is not None
    return {
        "hard": lambda i, j, k: not table.rolls(i, j, k),
        "fallback": lambda i, j, k: fallback_holds(rules, i, j, k),
        "normal": lambda i, j, k: i < end and j < end and k >= NORMAL_HOLD[1],
        "hold25+race": lambda i, j, k: i < end and j < end and k >= 25,
        "hold25": lambda i, j, k: k >= 25,
        "ref:sensible": lambda i, j, k: k >= 20,
    }


def simulate(targets: list[int], games: int, seed: int) -> None:
    from bot.ai.pig_tables import PigRules
    from bot.simulate import wilson

    header(f"Pig strength, simulated ({games} games per matchup, seats alternated, seed {seed})")
    rows = []
    for target in targets:
        rules = PigRules(target=target)
        deciders = _deciders(rules)  # solves (or loads the cached table) first
        for a, b in PAIRS:
            wins = 0.0
            cpu = time.process_time()
            for n in range(games):
                dice = random.Random(f"{seed}:{target}:{n}")
                players = (deciders[a], deciders[b]) if n % 2 == 0 else (deciders[b], deciders[a])
                winner = _play(rules.target, players, dice)
                wins += winner == (0 if n % 2 == 0 else 1)
            lo, hi = wilson(wins, games)
            rows.append((target, f"{a} vs {b}", f"{wins / games:.3f}", f"{lo:.3f}-{hi:.3f}"))
            print(*rows[-1], f"CPU {time.process_time() - cpu:.1f} s", sep="  ", flush=True)
    show(rows, ["target", "matchup", "share", "95% CI"])


def _play(target: int, players: tuple[Callable[[int, int, int], bool], ...], dice: random.Random) -> int:
    """One heads-up one-die game (rules P-1, P-2, P-4 with the automatic hold): the winner's seat."""
    scores = [0, 0]
    p = 0
    while True:
        k = 0
        while True:
            face = dice.randint(1, 6)
            if face == 1:
                k = 0
                break
            k += face
            if scores[p] + k >= target:
                return p
            if players[p](scores[p], scores[1 - p], k):
                break
        scores[p] += k
        p = 1 - p


def _ints(text: str) -> list[int]:
    return [int(x) for x in text.split(",") if x]


def main() -> None:
    p = parser(__doc__.split("\n")[0])
    p.add_argument("--targets", type=_ints, default=None, help="comma-separated targets (default 10,100,200,500)")
    p.add_argument("--variants", type=lambda s: s.split(","), default=None, help=f"of {', '.join(VARIANTS)}")
    p.add_argument("--strength", action="store_true", help="win shares instead of solve times")
    p.add_argument("--compare", action="store_true", help="the default solver against the wavefront solver")
    p.add_argument("--exact", type=_ints, default=[100, 200], help="targets for exact values (default 100,200)")
    p.add_argument("--simulate", type=_ints, default=[500], help="targets for simulation (default 500)")
    p.add_argument("--games", type=int, default=2000, help="simulated games per matchup (default 2000)")
    p.add_argument("--seed", type=int, default=17)
    args = p.parse_args()
    if args.strength:
        if args.exact:
            exact(args.exact)
        if args.simulate:
            simulate(args.simulate, args.games, args.seed)
        return
    if args.compare:
        compare(args.targets or [100, 200], args.variants or ["d1", "bigpig", "bust"])
        return
    run(args.quick, args.targets, args.variants)


if __name__ == "__main__":
    main()
