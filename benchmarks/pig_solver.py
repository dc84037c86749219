"""Pig solver: time to solve Pig for optimal play (bot/ai/pig_solver.py), and to load a shipped table (pig_tables.py).

Solves target 100 with one die (Pig) and two dice (Big Pig defaults: double ones +25, doubles x2), each a
few times (best and median of the runs; the first run includes numpy's warm-up), checks the result
against the table shipped in bot/ai/data, and, without --quick, the slow ``double_ones=lose_score``
variant (an outer fixed-point iteration around the layered solve).

    python -m benchmarks.pig_solver
    python -m benchmarks.pig_solver --quick
"""

from __future__ import annotations

import statistics
import time

from benchmarks._common import header, parser, show


def run(quick: bool = False, repeats: int | None = None) -> dict[str, float]:
    header("Pig solver (numpy, policy iteration per score-sum layer)")
    try:
        import numpy  # noqa: F401

        from bot.ai.pig_solver import solve
        from bot.ai.pig_tables import PigRules, load_shipped
    except (ImportError, RuntimeError) as error:
        print(f"solver unavailable ({error}): skipped")
        return {}
    repeats = repeats or (1 if quick else 3)
    cases = [("Pig, 1 die", PigRules(dice=1, target=100)), ("Big Pig, 2 dice", PigRules(dice=2, target=100))]
    if not quick:
        cases.append(
            ("Big Pig, 2 dice, double ones lose score", PigRules(dice=2, target=100, double_ones="lose_score"))
        )
    rows, out = [], {}
    for label, rules in cases:
        times, solution = [], None
        for _ in range(repeats if rules.double_ones != "lose_score" else 1):
            t0 = time.perf_counter()
            solution = solve(rules)
            times.append(time.perf_counter() - t0)
        assert solution is not None
        t0 = time.perf_counter()
        shipped = load_shipped(rules)
        load = time.perf_counter() - t0
        same = "-" if shipped is None else ("same" if shipped.bits == solution.policy().bits else "DIFFERENT")
        out[rules.key] = min(times)
        rows.append(
            (
                label,
                rules.target,
                rules.states,
                min(times),
                statistics.median(times),
                solution.passes,
                solution.rounds,
                f"{solution.p_first:.6f}",
                same,
                load * 1e3 if shipped else None,
            )
        )
    show(
        rows,
        [
            "variant",
            "target",
            "states",
            "best s",
            "median s",
            "layer passes",
            "rounds",
            "P(first wins)",
            "vs shipped table",
            "load shipped ms",
        ],
    )
    print("(Neller & Presser 2004 give P(first wins) = 0.5306 for Pig to 100)")
    return out


def main() -> None:
    args = parser(__doc__.split("\n")[0]).parse_args()
    run(args.quick)


if __name__ == "__main__":
    main()
