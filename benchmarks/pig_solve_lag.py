"""The event loop's tick lag during a Pig solve at a new target (issue 30): in the bot's thread, and in another process.

The bot solves the hard player's table for a Pig variant with no shipped or cached table from its ``pig-solver``
thread (``bot.ai.pig_player.solve_in_background``). Until issue 30 the thread solved it itself, inside the bot's
process, sharing the GIL with the event loop; now it hands the solve to a spawned process
(``pig_player.solve_elsewhere``, ``SOLVE_ELSEWHERE``). Measured here, alternating, each a solve of a new target
(``--target``, one die; a fresh cache folder and memory cache every run, so nothing is read back), each through
``solve_in_background`` as the bot calls it:

* **thread**: the anchor, ``SOLVE_ELSEWHERE = False``: the solve in the solver thread (before issue 30);
* **process**: the bot's path now: the solve in a spawned process (its start-up counted), the table handed back;
* **idle**: the loop with no solve, for as long as the last thread solve took.

The loop runs a tick sampler (a task sleeping 5 ms at a time: the time between its wake-ups, less the 5 ms) and a
stand-in for clicks (a task that spends ~0.3 ms of CPU every 10 ms, as a busy table service would), and reports
p50 / p99 / max tick lag, the solve's wall time and this process's CPU (user + system) meanwhile. Leaves out:
the bot's real clicks (discord.py, the store), the load of the machine's other core (stated in the header).

    python -m benchmarks.pig_solve_lag            # target 400, 3 runs each (~20 s on 2 cores)
    python -m benchmarks.pig_solve_lag --target 1000 --repeats 1   # a 13 s solve (~40 s)
    python -m benchmarks.pig_solve_lag --quick    # target 250, 1 run each
"""

from __future__ import annotations

import asyncio
import os
import statistics
import tempfile
import time
from typing import Any

from benchmarks._common import header, parser, percentile, show, verdict
from bot.ai import pig_player
from bot.ai.pig_tables import PigRules

TICK = 0.005
CLICK_EVERY = 0.01
CLICK_CPU = 0.0003
SAME = 0.001  # a p99 within this of idle's is unchanged


async def measure(mode: str, rules: PigRules, idle_for: float) -> dict[str, Any]:
    ticks: list[float] = []
    done = asyncio.Event()

    async def sample() -> None:
        last = time.perf_counter()
        while not done.is_set():
            await asyncio.sleep(TICK)
            now = time.perf_counter()
            ticks.append(now - last - TICK)
            last = now

    async def clicks() -> None:
        while not done.is_set():
            spin = time.process_time() + CLICK_CPU
            while time.process_time() < spin:
                pass
            await asyncio.sleep(CLICK_EVERY)

    with tempfile.TemporaryDirectory(prefix="dt-pig-") as folder:
        os.environ[pig_player.CACHE_ENV] = folder
        pig_player.clear_memory_cache()
        tasks = [asyncio.create_task(sample()), asyncio.create_task(clicks())]
        await asyncio.sleep(0.1)
        ticks.clear()
        c0, t0 = time.process_time(), time.perf_counter()
        if mode == "idle":
            await asyncio.sleep(idle_for)
        else:  # the bot's path; "thread" is the anchor (the solve in the solver thread itself, as before issue 30)
            pig_player.SOLVE_ELSEWHERE = mode == "process"
            future = pig_player.solve_in_background(rules.to_dict())
            assert future is not None
            await asyncio.wrap_future(future)
            pig_player.SOLVE_ELSEWHERE = True
        c1, t1 = time.process_time(), time.perf_counter()
        done.set()
        await asyncio.gather(*tasks)
    lags = sorted(ticks)
    return {
        "mode": mode,
        "wall": t1 - t0,
        "cpu": c1 - c0,
        "p50": percentile(lags, 50),
        "p99": percentile(lags, 99),
        "max": lags[-1],
        "ticks": len(lags),
    }


async def main_async(target: int, repeats: int) -> None:
    rules = PigRules(dice=1, target=target)
    runs: list[dict[str, Any]] = []
    idle_for = 5.0
    for _ in range(repeats):  # alternating
        for mode in ("thread", "process", "idle"):
            r = await measure(mode, rules, idle_for)
            if mode == "thread":
                idle_for = r["wall"]
            runs.append(r)
    show(
        [(r["mode"], r["wall"], r["cpu"], r["p50"] * 1e3, r["p99"] * 1e3, r["max"] * 1e3, r["ticks"]) for r in runs],
        ["solve in", "wall s", "this process CPU s", "p50 tick ms", "p99 tick ms", "max tick ms", "ticks"],
    )
    p99 = {m: statistics.median(r["p99"] for r in runs if r["mode"] == m) for m in ("idle", "thread", "process")}
    print(
        f"\nmedian p99 tick lag: idle {p99['idle'] * 1e3:.1f} ms, thread {p99['thread'] * 1e3:.1f} ms, "
        f"process {p99['process'] * 1e3:.1f} ms"
    )
    for mode in ("thread", "process"):  # "unchanged": within 1 ms of idle
        print(
            f"  p99 unchanged during a solve in a {mode} (within {SAME * 1e3:g} ms of idle): "
            f"{verdict(p99[mode] - p99['idle'] <= SAME)}"
        )


def main() -> None:
    p = parser(__doc__.split("\n")[0])
    p.add_argument("--target", type=int, help="the new target to solve (one die; default 400, --quick 250)")
    p.add_argument("--repeats", type=int, help="runs of each, alternating (default 3, --quick 1)")
    args = p.parse_args()
    target = args.target or (250 if args.quick else 400)
    repeats = args.repeats or (1 if args.quick else 3)
    header(f"Pig solve at target {target}: the event loop's tick lag, solve in a thread or in another process")
    print("leaves out: the bot's real clicks (a CPU stand-in instead: 0.3 ms every 10 ms), discord.py, the store")
    asyncio.run(main_async(target, repeats))


if __name__ == "__main__":
    main()
