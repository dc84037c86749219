"""GC at 10,000 tables: every collector pass while ``benchmarks.tables`` plays, and the bot's periodic pass.

Drives ``benchmarks.tables``' own run (``one_run``: a fresh ``TableService`` on the real SQLite ``Store``, the
collector tuned as the bot tunes it once start-up is done, ``--tables`` tables opened, then the players for a 1 s
warm-up and ``--seconds``) and records every pass of the collector while the players play (``gc.callbacks``): how
many per generation, the longest (wall and the loop thread's CPU), and the share of the window's wall time, as
``benchmarks.tables`` counts it. Closed loop (every table acts again at once: ``--tables`` moves in flight) and open
loop (``--rate`` moves a second, Poisson), in that order, each in a child process of its own.

Then the bot's periodic pass (``bot.client.collect_periodically``) at ``--tables`` open tables (five moves played at
each): its pause the first time (everything not frozen at start-up) and the next time (what the previous pass left);
in a tree from before issue 30 the pass is a plain ``gc.collect()`` and does not freeze.

Leaves out: Discord (the gateway, discord.py, HTTP), rendering and the presenter, which the bot's process adds.

    python -m benchmarks.gc_pauses                     # ~4 min: 10,000 tables, 20 s windows
    python -m benchmarks.gc_pauses --tables 1000 --seconds 5
    python -m benchmarks.gc_pauses --census            # the closed loop only: what the young passes go through

``--census``: at the 20th, 30th and 40th gen-0 pass of the closed loop (counted from the start of play), the young
objects (``gc.get_objects(0)``) by type, with the references they hold (``gc.get_referents``), counted before the
pass; then the pass's own time per object.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks import tables as bench
from benchmarks._common import header, percentile, show
from benchmarks._service import GAMES, SNOWFLAKE, bot_gc, next_move, open_many, play_moves

CENSUS_AT = (20, 30, 40)  # gen-0 passes of the closed loop looked into by --census


def census() -> dict[str, Any]:
    young = gc.get_objects(0)
    types: dict[str, int] = {}
    for obj in young:
        name = type(obj).__qualname__
        types[name] = types.get(name, 0) + 1
    references = sum(len(gc.get_referents(obj)) for obj in young)
    top = sorted(types.items(), key=lambda kv: -kv[1])[:12]
    return {"objects": len(young), "references": references, "types": top}


async def loop_run(
    n: int, seconds: float, rate: float | None, games: tuple[str, ...], look: bool = False
) -> dict[str, Any]:
    passes: list[tuple[int, float, float]] = []
    began = [0.0, 0.0]
    playing = [False]
    looked: list[dict[str, Any]] = []
    young_passes = [0]

    def timer(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            if look and playing[0] and info["generation"] == 0:
                young_passes[0] += 1
                if young_passes[0] in CENSUS_AT:
                    looked.append(census())
            began[0], began[1] = time.perf_counter(), time.thread_time()
        elif playing[0]:
            passes.append((info["generation"], time.perf_counter() - began[0], time.thread_time() - began[1]))
            if looked and "seconds" not in looked[-1] and info["generation"] == 0:
                looked[-1]["seconds"] = time.thread_time() - began[1]

    real = bench.drive

    async def drive(*args: Any, **kwargs: Any) -> None:
        playing[0] = True
        try:
            await real(*args, **kwargs)
        finally:
            playing[0] = False

    bench.drive = drive  # type: ignore[assignment]
    gc.callbacks.append(timer)
    try:
        with tempfile.TemporaryDirectory(prefix="dt-gc-") as folder:
            run = await bench.one_run("sqlite", games, n, seconds, rate, Path(folder))
    finally:
        gc.callbacks.remove(timer)
        bench.drive = real  # type: ignore[assignment]
    by_gen = {g: [p for p in passes if p[0] == g] for g in (0, 1, 2)}
    return {
        "loop": f"open @ {rate:,.0f}/s" if rate else "closed",
        "actions/s": run.actions / run.seconds,
        "cpu/action": run.cpu / max(run.actions, 1),
        "gc share": run.gc_seconds / run.seconds,
        "passes": [len(by_gen[g]) for g in (0, 1, 2)],
        "longest wall": max((p[1] for p in passes), default=0.0),
        "longest cpu": max((p[2] for p in passes), default=0.0),
        "p99": percentile(run.latencies, 99),
        "census": looked,
    }


async def periodic_pass(n: int, games: tuple[str, ...]) -> dict[str, Any]:
    try:
        from bot.client import collect_and_freeze
    except ImportError:  # a tree from before issue 30: the periodic pass was a plain full collection

        def collect_and_freeze(everything: bool = False) -> int:
            return gc.collect()

    bench.DICE = "fair"
    with tempfile.TemporaryDirectory(prefix="dt-gc-") as folder:
        service = await bench.make_service("sqlite", Path(folder))
        undo = bot_gc(True)
        try:
            channels = list(range(1000, 1000 + n))
            await open_many(service, channels, games=games)
            await play_moves(service, channels, 5)
            tracked = len(gc.get_objects())
            timings = []
            ids = iter(range(SNOWFLAKE + 10**12, SNOWFLAKE + 2 * 10**12))
            for everything in (True, False, False):  # as the hourly pass, then two 5-minute passes
                t0 = time.perf_counter()
                collect_and_freeze(everything=everything)
                timings.append(time.perf_counter() - t0)
                for channel in channels[: n // 10]:  # some play between two passes: a tenth of the tables, a move
                    table = service.by_channel.get(channel)
                    if table is not None:
                        user, action = next_move(table)
                        await service.act(channel, user, action, str(next(ids)))
        finally:
            undo()
        await bench.close_service(service)
    return {"tracked": tracked, "first": timings[0], "next": timings[1:]}


def child(
    kind: str, n: int, seconds: float, rate: float, games: tuple[str, ...], census: bool = False
) -> dict[str, Any]:
    out = subprocess.run(
        [sys.executable, "-m", "benchmarks.gc_pauses", "--child", kind, "--tables", str(n), "--seconds", str(seconds)]
        + ["--rate", str(rate), "--games", ",".join(games)]
        + (["--census"] if census else []),
        capture_output=True,
        text=True,
        check=True,
        cwd=Path(__file__).resolve().parent.parent,
    )
    return dict(json.loads(out.stdout.strip().splitlines()[-1]))


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--tables", type=int, default=10_000)
    p.add_argument("--seconds", type=float, default=20.0)
    p.add_argument("--rate", type=float, default=2000.0, help="the open loop's moves a second")
    p.add_argument("--games", default=",".join(GAMES))
    p.add_argument("--census", action="store_true", help="the closed loop only: what the young passes go through")
    p.add_argument("--child", choices=("closed", "open", "periodic"), help=argparse.SUPPRESS)
    args = p.parse_args()
    games = tuple(args.games.split(","))
    bench.DICE = "fair"
    if args.child == "periodic":
        print(json.dumps(asyncio.run(periodic_pass(args.tables, games))))
        return
    if args.child:
        rate = args.rate if args.child == "open" else None
        print(json.dumps(asyncio.run(loop_run(args.tables, args.seconds, rate, games, args.census))))
        return
    if args.census:
        header(f"GC census at {args.tables:,} tables ({'+'.join(games)}, fair dice, SQLite), closed loop")
        print("leaves out: Discord (gateway, discord.py, HTTP), rendering and the presenter")
        r = child("closed", args.tables, args.seconds, args.rate, games, census=True)
        print(f"closed loop: GC {r['gc share'] * 100:.1f} % of wall; passes gen 0/1/2 {r['passes']}")
        for at, c in zip(CENSUS_AT, r["census"], strict=False):
            per = c.get("seconds", 0.0) / max(c["objects"], 1) * 1e9
            kinds = ", ".join(f"{name} {count:,}" for name, count in c["types"])
            print(
                f"  gen-0 pass {at}: {c['objects']:,} young objects, {c['references']:,} references, "
                f"{per:.0f} ns of the pass's CPU an object"
            )
            print(f"    by type: {kinds}")
        if not r["census"]:
            print("  fewer than 20 gen-0 passes while it played: nothing to look into")
        return
    header(f"GC at {args.tables:,} tables ({'+'.join(games)}, fair dice, SQLite), {args.seconds:g} s windows")
    print("leaves out: Discord (gateway, discord.py, HTTP), rendering and the presenter")
    rows = []
    for kind in ("closed", "open"):
        r = child(kind, args.tables, args.seconds, args.rate, games)
        rows.append(
            (
                r["loop"],
                r["actions/s"],
                r["cpu/action"] * 1e6,
                r["gc share"] * 100,
                " / ".join(str(k) for k in r["passes"]),
                r["longest wall"] * 1000,
                r["longest cpu"] * 1000,
                r["p99"] * 1000,
            )
        )
    show(
        rows,
        [
            "loop",
            "actions/s",
            "CPU us/action",
            "GC % of wall",
            "passes gen 0/1/2",
            "longest ms",
            "its CPU ms",
            "p99 ms",
        ],
    )
    r = child("periodic", args.tables, args.seconds, args.rate, games)
    print(
        f"the periodic pass at {args.tables:,} open tables ({r['tracked']:,} objects not frozen): "
        f"{r['first'] * 1000:.0f} ms over everything, then {', '.join(f'{t * 1000:.0f}' for t in r['next'])} ms"
    )


if __name__ == "__main__":
    main()
