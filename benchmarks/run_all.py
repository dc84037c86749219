"""Every benchmark in turn, each in a process of its own: engines, tables, postgres, clickpath, render, restart,
memory, jsonlib, discord_cost, pig_solver, ratings, chart, tournament_picture (postgres says "skipped" without a
PostgreSQL server).

.venv/bin/python -m benchmarks.run_all --quick    # 105 s wall, 89 s CPU (2 cores, load 2.0-3.7, commit 814aefe)
.venv/bin/python -m benchmarks.run_all            # never timed as one run; its areas, timed alone, take 30+ min
.venv/bin/python -m benchmarks.run_all --only engines restart

Each area's line gives its wall and CPU time (the child's, from the OS), and the end says how many lines of the
run said MISSED: a figure that misses its issue's target (see docs/PERFORMANCE.md). A --quick run measures smaller
sizes in shorter windows than the targets are set at, so its verdicts say "at --quick sizes": a smoke test's.
"""

from __future__ import annotations

import importlib.util
import resource
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
    "production_click",
    "render",
    "restart",
    "memory",
    "jsonlib",
    "discord_cost",
    "pig_solver",
    "ratings",
    "chart",
    "tournament_picture",
]


def run_area(area: str, quick: bool, root: Path) -> tuple[int, int]:
    """Run one area in a child process, echoing its output; returns its exit status and how many lines said MISSED."""
    # A process per area: one area's heap, GC state and threads cannot colour the next one's figures.
    child = subprocess.Popen(
        [sys.executable, "-m", f"benchmarks.{area}", *(["--quick"] if quick else [])],
        cwd=root,
        stdout=subprocess.PIPE,
        text=True,
    )
    missed = 0
    assert child.stdout is not None
    for line in child.stdout:
        missed += "MISSED" in line
        print(line, end="", flush=True)
    return child.wait(), missed


def main() -> None:
    p = parser(__doc__.split("\n")[0])
    p.add_argument("--only", nargs="+", choices=AREAS, help="run only these areas")
    args = p.parse_args()
    print(f"Dice Tavern benchmarks{' (--quick)' if args.quick else ''}: {machine()}; {revision()}", flush=True)
    root = Path(__file__).resolve().parent.parent
    failed, missed = [], 0
    started = time.perf_counter()
    for area in args.only or AREAS:
        if importlib.util.find_spec(f"benchmarks.{area}") is None:
            print(f"[{area}: not in this tree, skipped]")
            continue
        began, cpu = time.perf_counter(), _children_cpu()
        status, area_missed = run_area(area, args.quick, root)
        missed += area_missed
        if status:  # one area's failure must not hide the others' figures
            failed.append(area)
        wall, used = time.perf_counter() - began, _children_cpu() - cpu
        print(f"[{area}: {wall:.0f} s wall, {used:.0f} s CPU{'; exit ' + str(status) if status else ''}]", flush=True)
    print(
        f"[all: {time.perf_counter() - started:.0f} s wall, {_children_cpu():.0f} s CPU; {machine()}]\n"
        f"{missed} line(s) said MISSED: a figure that misses its issue's target"
        + (" at --quick sizes (smaller and shorter than the target's conditions: a smoke test)" if args.quick else ""),
        flush=True,
    )
    if failed:
        raise SystemExit(f"failed: {', '.join(failed)}")


def _children_cpu() -> float:
    """CPU seconds (user + system) of the child processes that have ended, as the OS counts them."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


if __name__ == "__main__":
    main()
