"""Table service with persistence: sustained actions per second through the full TableService.

Each table is a two-player Pig game with target 500 (games last ~600 actions; a finished game is
re-opened in the same channel and the time that takes counts against the run). One asyncio task per
table plays its table's current player (roll until the turn total reaches 20, then hold) through
``TableService.act`` with an interaction id, as the cogs do. Two load models:

* **closed loop** (saturation): every task acts again as soon as its previous action returned, so with
  N tables there are always N actions in flight; throughput is the capacity, and by Little's law the
  latency is N / throughput.
* **open loop** (``--rate``): actions arrive as a Poisson process at a fixed total rate spread over the
  tables; latency is measured from the scheduled arrival, so it includes any queueing.

``1 / CPU per action`` is the rate one fully available core would sustain at the measured CPU cost (the
event loop and SQLite's thread rarely overlap in the closed loop: every table waits on the same commit);
it is the steadier figure on a shared machine, where wall-clock rates move with other processes' load.

Persistence is SQLite on a temporary file (the real ``Store``, WAL, group commit) or a no-op store
stand-in (``benchmarks/_service.py: NullStore``). Memory is measured in a separate pass with tracemalloc.

    python -m benchmarks.tables                  # ~2.5 min
    python -m benchmarks.tables --quick
    python -m benchmarks.tables --profile 1000   # cProfile the persisted closed loop at 1,000 tables
"""

from __future__ import annotations

import asyncio
import cProfile
import gc
import io
import itertools
import pstats
import random
import tempfile
import time
import tracemalloc
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmarks._common import header, parser, percentile, show, verdict
from benchmarks._service import NullStore, next_move, open_many, open_pig
from bot.games.dice import SeededDice
from bot.store import Store
from bot.store import db as store_db
from bot.tables import TableService

TARGET_PERSISTED = 20_000  # actions/s with 1,000 tables
TARGET_P99 = 0.010  # s
TARGET_BYTES = 30 * 1024  # per active table
MEMORY_MOVES = 70  # enough to fill every per-table buffer (public log: 24 events, interaction ids: 64)
SNOWFLAKE = 1_250_000_000_000_000_000  # interaction ids look like Discord's (19 digits)


@dataclass
class Run:
    store: str
    tables: int
    mode: str  # "closed" or "open @ N/s"
    actions: int = 0
    seconds: float = 0.0
    restarts: int = 0
    batches: int = 0
    cpu: float = 0.0  # process CPU seconds (every thread) in the measured window
    writer_cpu: float = 0.0  # of which in SQLite's group commit, on the store's own thread
    gc_seconds: float = 0.0  # wall time in garbage collections during the measured window
    latencies: list[float] = field(default_factory=list)

    @property
    def cpu_per_action(self) -> float:
        return self.cpu / self.actions if self.actions else float("nan")

    @property
    def rate(self) -> float:
        return self.actions / self.seconds if self.seconds else 0.0

    def p(self, q: float) -> float:
        return percentile(self.latencies, q)


class WriterThread:
    """Time spent in the store's group-commit function on the store's thread (wrapped in this process only)."""

    cpu = 0.0
    wall = 0.0
    _installed = False

    @classmethod
    def install(cls) -> None:
        if cls._installed:
            return
        original = store_db._commit_batch

        def timed(conn: Any, batch: Any) -> Any:
            w, c = time.perf_counter(), time.thread_time()
            try:
                return original(conn, batch)
            finally:
                cls.cpu += time.thread_time() - c
                cls.wall += time.perf_counter() - w

        store_db._commit_batch = timed
        cls._installed = True


async def make_service(kind: str, folder: Path) -> TableService:
    if kind == "sqlite":
        store: Any = await Store.open(folder / f"bench-{time.monotonic_ns()}.sqlite3")
    else:
        store = NullStore()
    service = TableService(store, SeededDice(7), run_dispatcher=False)
    await service.start()
    return service


async def close_service(service: TableService) -> None:
    await service.stop()
    await service.store.close()


async def drive(
    service: TableService, channels: list[int], seconds: float, warmup: float, rate: float | None, run: Run
) -> None:
    """Play every table until ``seconds`` after the warm-up; record actions and latencies after the warm-up."""
    ids = itertools.count(1)
    start = time.perf_counter()
    measure_from = start + warmup
    stop = measure_from + seconds
    latencies: list[float] = []
    counted = 0
    restarts = 0
    batches_before = None

    async def player(channel: int, rng: random.Random) -> None:
        nonlocal counted, restarts
        per_table = rate / len(channels) if rate else 0.0
        due = start + (rng.expovariate(per_table) if per_table else 0.0)
        while True:
            if per_table:  # sleep(0) when late still yields, so one late table cannot hog the loop
                await asyncio.sleep(max(0.0, due - time.perf_counter()))
            began = due if per_table else time.perf_counter()
            if began >= stop:
                return
            table = service.by_channel.get(channel)
            if table is None:  # the game finished: open a new one, as players would
                await open_pig(service, channel)
                restarts += 1
                continue
            user, action = next_move(table)
            await service.act(channel, user, action, str(SNOWFLAKE + next(ids)))
            done = time.perf_counter()
            if began >= measure_from and done <= stop:
                latencies.append(done - began)
                counted += 1
            if per_table:
                due += rng.expovariate(per_table)
            else:
                await asyncio.sleep(0)  # let the other tables in (the no-op store never suspends)

    cpu = [0.0, 0.0]
    writer = [0.0, 0.0]

    async def mark_batches() -> None:
        nonlocal batches_before
        await asyncio.sleep(max(0.0, measure_from - time.perf_counter()))
        batches_before = service.store.batches
        cpu[0], writer[0] = time.process_time(), WriterThread.cpu
        await asyncio.sleep(max(0.0, stop - time.perf_counter()))
        cpu[1], writer[1] = time.process_time(), WriterThread.cpu

    gc_time = [0.0, 0.0]  # [total in the window, start of the current collection]

    def gc_timer(phase: str, info: dict) -> None:
        now = time.perf_counter()
        if phase == "start":
            gc_time[1] = now
        elif measure_from <= gc_time[1] <= stop:
            gc_time[0] += now - gc_time[1]

    gc.callbacks.append(gc_timer)
    marker = asyncio.create_task(mark_batches())
    try:
        await asyncio.gather(*(player(c, random.Random(c)) for c in channels))
        await marker
    finally:
        gc.callbacks.remove(gc_timer)
    run.gc_seconds = gc_time[0]
    latencies.sort()
    run.actions, run.seconds, run.latencies, run.restarts = counted, seconds, latencies, restarts
    run.batches = service.store.batches - (batches_before or 0)
    run.cpu = cpu[1] - cpu[0]
    run.writer_cpu = writer[1] - writer[0]


async def one_run(kind: str, n: int, seconds: float, rate: float | None, folder: Path) -> Run:
    service = await make_service(kind, folder)
    channels = list(range(1000, 1000 + n))
    await open_many(service, channels)
    run = Run(kind, n, f"open @ {rate:,.0f}/s" if rate else "closed")
    gc.collect()
    await drive(service, channels, seconds, min(1.0, seconds / 4), rate, run)
    await close_service(service)
    return run


async def memory_pass(kind: str, n: int, actions_per_table: int, folder: Path) -> dict[str, float]:
    """tracemalloc: bytes per active table after opening ``n`` games and playing some actions on each."""
    gc.collect()
    tracemalloc.start()
    service = await make_service(kind, folder)
    gc.collect()
    base, _ = tracemalloc.get_traced_memory()
    tracemalloc.reset_peak()
    channels = list(range(1000, 1000 + n))
    await open_many(service, channels)
    ids = itertools.count(1)

    async def play(channel: int) -> None:
        for _ in range(actions_per_table):
            table = service.by_channel.get(channel)
            if table is None:
                return
            user, action = next_move(table)
            await service.act(channel, user, action, str(SNOWFLAKE + next(ids)))
            await asyncio.sleep(0)

    await asyncio.gather(*(play(c) for c in channels))
    gc.collect()
    current, peak = tracemalloc.get_traced_memory()
    heap_entries = len(service.deadlines.heap)
    # What the stale deadline entries cost: keep one (the live) entry per table and measure again.
    live = {t.id: (t.deadline, t.id, t.version) for t in service.by_id.values() if t.deadline is not None}
    service.deadlines.heap = sorted(live.values())
    gc.collect()
    trimmed, _ = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    open_tables = len(service.by_id)
    await close_service(service)
    return {
        "tables": open_tables,
        "bytes_per_table": (current - base) / n,
        "bytes_per_table_one_deadline": (trimmed - base) / n,
        "heap_entries": heap_entries,
        "peak": peak,
        "current": current - base,
    }


def breakdown(repeat: int = 20_000) -> None:
    """CPU per action of the pieces of ``TableService.act`` (one Pig table, in-memory store, tight loop)."""
    from bot.games import Action, get_engine
    from bot.store import repo

    header("Where one action's CPU goes (one table, no-op store, tight loop; best of 3)")

    def best(fn: Any, n: int = repeat) -> float:
        times = []
        for _ in range(3):
            t0 = time.process_time()
            for _ in range(n):
                fn()
            times.append((time.process_time() - t0) / n)
        return min(times)

    async def setup() -> tuple[TableService, Any]:
        service = TableService(NullStore(), SeededDice(5), run_dispatcher=False)
        await service.start()
        await open_pig(service, 1)
        ids = itertools.count(1)
        for _ in range(40):  # fill the public log (24 events) as on any table past its first turns
            user, action = next_move(service.by_channel[1])
            await service.act(1, user, action, str(SNOWFLAKE + next(ids)))
        return service, ids

    async def acts(service: TableService, ids: Any, n: int) -> float:
        t0 = time.process_time()
        for _ in range(n):
            table = service.by_channel.get(1)
            if table is None:
                await open_pig(service, 1)
                table = service.by_channel[1]
            user, action = next_move(table)
            await service.act(1, user, action, str(SNOWFLAKE + next(ids)))
        return (time.process_time() - t0) / n

    async def whole() -> tuple[float, Any]:
        service, ids = await setup()
        return min([await acts(service, ids, repeat) for _ in range(3)]), service.by_channel[1]

    act_cpu, table = asyncio.run(whole())
    engine = get_engine("pig")
    state, dice, roll = table.state, SeededDice(9), Action("roll")
    _, events = engine.apply(state, state.current, roll, dice)
    public = [(e.kind, e.data) for e in events if e.public]  # what _commit passes to Table.meta
    parts = [
        (
            "engine.apply (Pig roll; clone of the state)",
            best(lambda: engine.apply(state, state.current, roll, dice)),
        ),
        ("engine.dumps(state) (state JSON)", best(lambda: engine.dumps(state))),
        (
            f"Table.meta(new events) + repo.update_game (meta JSON: log of {len(table.log)} pre-encoded events"
            f" + {len(public)} new)",
            best(lambda: repo.update_game(1, 0.0, status="running", state="x", version=1, meta=table.meta(public))),
        ),
        ("Table.engine -> get_engine -> import_module (x3 per act)", 3 * best(lambda: table.engine)),
        ("Action.parse", best(lambda: Action.parse("roll"))),
    ]
    rows = [("TableService.act, whole (no-op store)", act_cpu * 1e6, 1.0)]
    rows += [(name, t * 1e6, t / act_cpu) for name, t in parts]
    rest = act_cpu - sum(t for _, t in parts)
    rows.append(("the rest (_commit bookkeeping, locks, events, deadline heap)", rest * 1e6, rest / act_cpu))
    show(rows, ["piece", "CPU us", "share of act"])


async def main_async(sizes: list[int], rates: list[float], seconds: float, mem_tables: int, folder: Path) -> dict:
    WriterThread.install()
    header(f"Table service: closed loop, {seconds:g} s per row after a warm-up (Pig, target 500, 2 players)")
    results: dict[tuple[str, int, str], Run] = {}
    rows = []
    for n in sizes:
        pair = {}
        for kind in ("sqlite", "memory"):
            run = await one_run(kind, n, seconds, None, folder)
            results[(kind, n, "closed")] = pair[kind] = run
        for kind in ("sqlite", "memory"):
            run = pair[kind]
            ratio = pair["sqlite"].rate / pair["memory"].rate if pair["memory"].rate else None
            rows.append(
                (
                    kind,
                    n,
                    run.rate,
                    1 / run.cpu_per_action if run.actions else None,
                    run.p(50) * 1e3,
                    run.p(99) * 1e3,
                    run.cpu_per_action * 1e6,
                    run.writer_cpu / run.actions * 1e6 if kind == "sqlite" and run.actions else None,
                    run.actions / max(run.batches, 1) if kind == "sqlite" else None,
                    run.gc_seconds / seconds,
                    run.restarts,
                    ratio if kind == "sqlite" else None,
                )
            )
    show(
        rows,
        [
            "store",
            "tables",
            "actions/s",
            "1 / CPU per action",
            "p50 ms",
            "p99 ms",
            "CPU us/action",
            "of which SQLite thread",
            "actions/commit",
            "GC share",
            "games re-opened",
            "sqlite / memory",
        ],
    )

    if rates:
        n = max(sizes)
        header(f"Table service: open loop (Poisson arrivals) at {n:,} tables, {seconds:g} s per row")
        rows = []
        for rate in rates:
            for kind in ("sqlite", "memory"):
                run = await one_run(kind, n, seconds, rate, folder)
                results[(kind, n, run.mode)] = run
                rows.append(
                    (
                        kind,
                        n,
                        f"{rate:,.0f}",
                        run.rate,
                        run.p(50) * 1e3,
                        run.p(99) * 1e3,
                        run.latencies[-1] * 1e3 if run.latencies else None,
                        run.cpu_per_action * 1e6,
                        run.actions / max(run.batches, 1) if kind == "sqlite" else None,
                    )
                )
        show(
            rows,
            [
                "store",
                "tables",
                "offered/s",
                "actions/s",
                "p50 ms",
                "p99 ms",
                "max ms",
                "CPU us/action",
                "actions/commit",
            ],
        )

    header(f"Memory (tracemalloc, separate pass): {mem_tables:,} open tables, {MEMORY_MOVES} moves each")
    rows = []
    memory = {}
    for kind in ("sqlite", "memory"):
        m = memory[kind] = await memory_pass(kind, mem_tables, MEMORY_MOVES, folder)
        rows.append(
            (
                kind,
                m["tables"],
                m["bytes_per_table"],
                m["bytes_per_table_one_deadline"],
                m["heap_entries"],
                m["peak"] / 2**20,
                m["current"] / 2**20,
            )
        )
    show(
        rows,
        [
            "store",
            "open tables",
            "bytes/table",
            "bytes/table (1 deadline entry)",
            "deadline heap entries",
            "peak MiB",
            "held MiB",
        ],
    )

    big = max(sizes)
    s, m = results.get(("sqlite", big, "closed")), results.get(("memory", big, "closed"))
    print("\ntargets:")
    if s and m:
        print(
            f"  persisted actions/s at {big:,} tables >= {TARGET_PERSISTED:,}: {s.rate:,.0f} "
            f"{verdict(s.rate >= TARGET_PERSISTED) if big >= 1000 else '(not measured at 1,000)'}"
        )
        print(
            f"  persistence costs at most half (sqlite/memory >= 0.5): {s.rate / m.rate:.2f} "
            f"{verdict(s.rate / m.rate >= 0.5)}"
        )
        print(f"  p99 < 10 ms at {big:,} tables, closed loop: {s.p(99) * 1e3:.1f} ms {verdict(s.p(99) < TARGET_P99)}")
    for key, run in results.items():
        if key[0] == "sqlite" and key[2] != "closed":
            print(
                f"  p99 < 10 ms at {big:,} tables, {key[2]}: {run.p(99) * 1e3:.1f} ms {verdict(run.p(99) < TARGET_P99)}"
            )
    b = memory["sqlite"]["bytes_per_table"]
    print(
        f"  < 30 KB per active table: {b / 1024:.1f} KB {verdict(b < TARGET_BYTES)} (SQLite store; "
        f"{memory['sqlite']['bytes_per_table_one_deadline'] / 1024:.1f} KB without the stale deadline entries)"
    )
    return {"runs": results, "memory": memory}


def run(
    quick: bool = False,
    sizes: list[int] | None = None,
    rates: list[float] | None = None,
    seconds: float | None = None,
    mem_tables: int | None = None,
) -> dict:
    sizes = sizes or [1, 100, 1000]
    rates = rates if rates is not None else ([1_000.0] if quick else [1_000.0, 4_000.0])
    seconds = seconds or (1.0 if quick else 5.0)
    mem_tables = mem_tables or (100 if quick else 300)
    breakdown(5_000 if quick else 20_000)
    with tempfile.TemporaryDirectory(prefix="dt-bench-") as folder:
        return asyncio.run(main_async(sizes, rates, seconds, mem_tables, Path(folder)))


def profile(n: int, seconds: float, kind: str) -> None:
    async def go(folder: Path) -> None:
        service = await make_service(kind, folder)
        channels = list(range(1000, 1000 + n))
        await open_many(service, channels)
        prof = cProfile.Profile()
        r = Run(kind, n, "closed")
        prof.enable()
        await drive(service, channels, seconds, 0.0, None, r)
        prof.disable()
        await close_service(service)
        print(f"{kind}, {n} tables: {r.rate:,.0f} actions/s under cProfile (event-loop thread only)")
        out = io.StringIO()
        pstats.Stats(prof, stream=out).sort_stats("tottime").print_stats(25)
        print(out.getvalue())

    with tempfile.TemporaryDirectory(prefix="dt-bench-") as folder:
        asyncio.run(go(Path(folder)))


def main() -> None:
    p = parser(__doc__.split("\n")[0])
    p.add_argument("--tables", type=int, nargs="+", help="table counts (default 1 100 1000)")
    p.add_argument("--rate", type=float, nargs="*", help="open-loop total rates, actions/s (default 1000 4000)")
    p.add_argument("--seconds", type=float, help="measured seconds per row (default 5, --quick 1)")
    p.add_argument("--memory-tables", type=int, help="tables in the tracemalloc pass (default 300, --quick 100)")
    p.add_argument("--profile", type=int, metavar="TABLES", help="cProfile the closed loop at this many tables")
    p.add_argument("--store", choices=("sqlite", "memory"), default="sqlite", help="store for --profile")
    args = p.parse_args()
    if args.profile:
        profile(args.profile, args.seconds or 3.0, args.store)
    else:
        run(args.quick, args.tables, args.rate, args.seconds, args.memory_tables)


if __name__ == "__main__":
    main()
