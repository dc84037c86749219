"""Every benchmark in turn: engines, tables, restart, discord_cost, pig_solver.

python -m benchmarks.run_all            # ~5 min on 2 cores
python -m benchmarks.run_all --quick    # ~1 min
python -m benchmarks.run_all --only engines restart
"""

from __future__ import annotations

import importlib
import time
import traceback

from benchmarks._common import machine, parser, revision

AREAS = ["engines", "tables", "restart", "discord_cost", "pig_solver"]


def main() -> None:
    p = parser(__doc__.split("\n")[0])
    p.add_argument("--only", nargs="+", choices=AREAS, help="run only these areas")
    args = p.parse_args()
    print(f"Dice Tavern benchmarks{' (--quick)' if args.quick else ''}: {machine()}; {revision()}")
    failed = []
    for area in args.only or AREAS:
        began = time.perf_counter()
        try:
            importlib.import_module(f"benchmarks.{area}").run(args.quick)
        except Exception:  # one area's failure must not hide the others' figures
            traceback.print_exc()
            failed.append(area)
        print(f"[{area}: {time.perf_counter() - began:.0f} s]")
    if failed:
        raise SystemExit(f"failed: {', '.join(failed)}")


if __name__ == "__main__":
    main()
