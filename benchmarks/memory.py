"""Memory of open tables: RSS and tracemalloc of a process holding 10,000 open tables, fresh and after a restore.

Every figure comes from a child process of its own (``python -m benchmarks.memory --child …``), so nothing the
parent built (the databases, the allocator's free lists) is counted, and tracemalloc (which itself costs memory
and time) runs in a separate child from the RSS measurement:

* **fresh**: a real ``Store`` (temporary SQLite file) and ``TableService``; ``--tables`` two-player Pig tables
  (target 500) opened and played ``--fresh-moves`` (70) moves each, enough to fill every per-table buffer (the
  public log, the recent interaction ids);
* **after a restore**: the database of ``benchmarks.restart`` (``--tables`` open Pig games of 300 moves: 500
  played through the service, the rest copied by SQL) opened by a fresh ``Store``; ``TableService.start()``.

Per table = (after - before) / tables, "before" being the process with everything imported and the service
started on an empty (fresh) or not yet opened (restore) database, after ``gc.collect()``. RSS is read from
``/proc/self/statm``, the peak from ``VmHWM`` in ``/proc/self/status`` (Linux). The tracemalloc child measures
a tenth of the tables (at least 500, or all) when fresh, as it slows the moves several times.

    python -m benchmarks.memory           # ~3 min
    python -m benchmarks.memory --quick
    python -m benchmarks.memory --idle-cost   # what an idle table's compacted log costs at its next use

``--idle-cost`` (issue 30): a Pig table played 300 moves (a full log, 24 events), its message drawn warm (from the
render cache), and drawn after ``Table.compact`` (the log put back to JSON text and the render cache dropped, as
an idle table's is), and the compaction with the log's decode alone: CPU per call, best of 5 rounds of 2,000.
"""

from __future__ import annotations

import asyncio
import gc
import json
import os
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

from benchmarks._common import header, parser, show, verdict
from benchmarks._service import open_many, play_moves
from bot.games.dice import SeededDice
from bot.store import open_store
from bot.tables import TableService

TARGET_BYTES = 20 * 1024  # per open table after a restore
PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


def rss() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * PAGE


def peak_rss() -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    return 0


async def child_fresh(tables: int, moves: int, trace: bool, folder: Path) -> dict[str, Any]:
    store = await open_store(folder / "fresh.sqlite3")
    service = TableService(store, SeededDice(3), run_dispatcher=False)
    await service.start()
    gc.collect()
    if trace:
        tracemalloc.start()
    before, traced_before = rss(), tracemalloc.get_traced_memory()[0] if trace else 0
    channels = list(range(1000, 1000 + tables))
    await open_many(service, channels, chunk=500)
    await play_moves(service, channels, moves)
    gc.collect()
    result = {"tables": len(service.by_id), "rss": rss() - before, "peak": peak_rss()}
    if trace:
        current, peak = tracemalloc.get_traced_memory()
        result.update(traced=current - traced_before, traced_peak=peak - traced_before)
    await service.stop()
    await store.close()
    return result


async def child_restore(db: Path, trace: bool) -> dict[str, Any]:
    gc.collect()
    if trace:
        tracemalloc.start()
    before = rss()
    t0 = time.perf_counter()
    store = await open_store(db)
    service = TableService(store, SeededDice(3), run_dispatcher=False)
    tables = await service.start()
    seconds = time.perf_counter() - t0
    gc.collect()
    result = {"tables": len(tables), "rss": rss() - before, "peak": peak_rss(), "seconds": seconds}
    if trace:
        current, peak = tracemalloc.get_traced_memory()
        result.update(traced=current, traced_peak=peak)
    await service.stop()
    await store.close()
    return result


def child(args: Any) -> None:
    if args.child == "fresh":
        with tempfile.TemporaryDirectory(prefix="dt-bench-") as folder:
            result = asyncio.run(child_fresh(args.tables, args.fresh_moves, args.trace, Path(folder)))
    else:
        result = asyncio.run(child_restore(Path(args.db), args.trace))
    print(json.dumps(result))


def in_child(*argv: str) -> dict[str, Any]:
    out = subprocess.run(
        [sys.executable, "-m", "benchmarks.memory", *argv],
        capture_output=True,
        text=True,
        check=True,
        cwd=Path(__file__).resolve().parent.parent,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def run(quick: bool = False, tables: int | None = None, fresh_moves: int = 70, moves: int | None = None) -> None:
    from benchmarks.restart import build

    tables = tables or (300 if quick else 10_000)
    moves = moves if moves is not None else (30 if quick else 300)
    traced = max(min(tables, 500), tables // 10)
    header(f"Memory: {tables:,} open Pig tables, fresh ({fresh_moves} moves each) and restored ({moves} moves each)")
    print(
        "leaves out: discord.py's caches (guilds, channels, members), the presenter's and renderer's per-table state "
        "once each table is shown, the SQLite page cache"
    )
    rows = []
    fresh = in_child("--child", "fresh", "--tables", str(tables), "--fresh-moves", str(fresh_moves))
    fresh_t = in_child("--child", "fresh", "--tables", str(traced), "--fresh-moves", str(fresh_moves), "--trace")
    with tempfile.TemporaryDirectory(prefix="dt-bench-") as folder:
        info = asyncio.run(build(Path(folder), tables, moves, 0, 100 if quick else 500))
        restored = [in_child("--child", "restore", "--db", str(info["open"])) for _ in range(1 if quick else 3)]
        restored_t = in_child("--child", "restore", "--db", str(info["open"]), "--trace")
    restored.sort(key=lambda r: r["rss"])
    median = restored[len(restored) // 2]
    for label, r, t in (("fresh", fresh, fresh_t), ("after a restore", median, restored_t)):
        rows.append(
            (
                label,
                r["tables"],
                r["rss"] / r["tables"] / 1024,
                r["rss"] / 2**20,
                r["peak"] / 2**20,
                t["tables"],
                t["traced"] / t["tables"] / 1024,
                t["traced_peak"] / 2**20,
            )
        )
    show(
        rows,
        [
            "tables",
            "held",
            "RSS KiB/table",
            "RSS delta MiB",
            "process peak RSS MiB",
            "traced tables",
            "tracemalloc KiB/table",
            "traced peak MiB",
        ],
    )
    if len(restored) > 1:
        print(
            f"  restored RSS per table over {len(restored)} children: "
            + ", ".join(f"{r['rss'] / r['tables'] / 1024:.1f}" for r in restored)
            + " KiB"
        )
    per = median["rss"] / median["tables"]
    print(
        f"\ntarget: < 20 KiB per open table after a restore (RSS): {per / 1024:.1f} KiB {verdict(per < TARGET_BYTES)}"
    )


def idle_cost(rounds: int = 5, calls: int = 2_000) -> dict[str, float]:
    """CPU per call (µs) of drawing a 300-move Pig table warm, after ``Table.compact``, and of compact + decode."""
    import random

    from bot.games.registry import spec
    from bot.jsontext import dumps
    from bot.render import table_text
    from bot.tables import model
    from bot.tables.model import Seat, Table

    model.IDLE_AFTER = 10**9  # only the compactions this measures
    engine = spec("pig").engine
    table = Table(1, 1, 101, "pig", "running", 11, {"target": 500}, [Seat(11, "alice"), Seat(12, "bob")])
    dice, rng = SeededDice(1), random.Random(1)
    state, _ = engine.new_game(2, engine.options({"target": 500}), dice)
    for _ in range(300):
        seat = engine.to_act(state)[0]
        state, events = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)), dice)
        table.state, table.version = state, table.version + 1
        table.add_log([(e.kind, e.data) for e in events if e.public])
        if engine.is_over(state):
            break

    def best(once: Any) -> float:
        times = []
        for _ in range(rounds):
            t0 = time.process_time()
            for _ in range(calls):
                once()
            times.append((time.process_time() - t0) / calls)
        return min(times) * 1e6

    def after_compact() -> None:
        table.compact()
        table_text(table, "en")

    def compact_decode() -> None:
        table.compact()
        _ = table.log

    table_text(table, "en")
    return {
        "events": len(table.log),
        "text": len(dumps(list(table.log))),
        "warm": best(lambda: table_text(table, "en")),
        "after compact": best(after_compact),
        "compact + decode": best(compact_decode),
    }


def main() -> None:
    p = parser(__doc__.split("\n")[0])
    p.add_argument("--tables", type=int, help="open tables (default 10,000; --quick 300)")
    p.add_argument("--fresh-moves", type=int, default=70, help="moves per fresh table (default 70)")
    p.add_argument("--moves", type=int, help="moves per restored game (default 300; --quick 30)")
    p.add_argument("--child", choices=("fresh", "restore"), help=argparse_hidden())
    p.add_argument("--db", help=argparse_hidden())
    p.add_argument("--trace", action="store_true", help=argparse_hidden())
    p.add_argument("--idle-cost", action="store_true", help="what an idle table's compacted log costs at its next use")
    args = p.parse_args()
    if args.idle_cost:
        header("Idle table: its message drawn warm, and after Table.compact (the log back to text)")
        print("leaves out: the move itself, the store, Discord")
        r = idle_cost()
        print(
            f"a 300-move Pig table, {r['events']} log events ({r['text']:,} characters of JSON): drawn warm "
            f"{r['warm']:.1f} us; after compact {r['after compact']:.1f} us; compact + the log's decode "
            f"{r['compact + decode']:.1f} us (CPU per call, best of 5 x 2,000)"
        )
    elif args.child:
        child(args)
    else:
        run(args.quick, args.tables, args.fresh_moves, args.moves)


def argparse_hidden() -> str:
    import argparse

    return argparse.SUPPRESS


if __name__ == "__main__":
    main()
