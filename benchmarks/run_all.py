"""Every benchmark in turn, each in a process of its own: engines, tables, postgres, clickpath, render, restart,
memory, jsonlib, discord_cost, pig_solver, ratings, chart (postgres says "skipped" without a PostgreSQL server).

python -m benchmarks.run_all            # ~28 min on 2 cores
python -m benchmarks.run_all --quick    # ~4 min
python -m benchmarks.run_all --only engines restart
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import time
from pathlib import Path

from benchmarks._common import machine, parser, revision

AREAS = [
    "engines",
    "tables",
    "postgres",
    "clickpath",
    "render",
    "restart",
    "memory",
    "jsonlib",
    "discord_cost",
    "pig_solver",
    "ratings",
    "chart",
]


def main() -> None:
    p = parser(__doc__.split("\n")[0])
    p.add_argument("--only", nargs="+", choices=AREAS, help="run only these areas")
    args = p.parse_args()
    print(f"Dice Tavern benchmarks{' (--quick)' if args.quick else ''}: {machine()}; {revision()}", flush=True)
    root = Path(__file__).resolve().parent.parent
    failed = []
    for area in args.only or AREAS:
        if importlib.util.find_spec(f"benchmarks.{area}") is None:
            print(f"[{area}: not in this tree, skipped]")
            continue
        began = time.perf_counter()
        # A process per area: one area's heap, GC state and threads cannot colour the next one's figures.
        done = subprocess.run(
            [sys.executable, "-m", f"benchmarks.{area}", *(["--quick"] if args.quick else [])], cwd=root
        )
        if done.returncode:  # one area's failure must not hide the others' figures
            failed.append(area)
        print(f"[{area}: {time.perf_counter() - began:.0f} s]", flush=True)
    if failed:
        raise SystemExit(f"failed: {', '.join(failed)}")


if __name__ == "__main__":
    main()
