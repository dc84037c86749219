"""Table service with persistence: sustained actions per second through the full TableService, all five games.

Each table plays one game (Pig with target 500, the others with their default options; 2 players, Mythical Dice 3),
through ``TableService.act`` with an interaction id, as the cogs do. The players (``benchmarks/_service.py:
next_move``): Pig rolls until the turn total reaches 20 then holds; the other games take a uniformly random one of
the seat's ``engine.legal_actions``. A finished game is re-opened in the same channel (create, join, start) and the
time and CPU that takes count against the run. "all five" deals the games round-robin over the channels.

* **closed loop** (saturation): every table's task acts again as soon as its previous action returned, so with N
  tables there are N actions in flight; throughput is the capacity (latency is then N / throughput).
* **open loop** (``--rate``): Poisson arrivals at a fixed total rate spread over the tables; latency is measured
  from the scheduled arrival, so it includes any queueing. Target: p99 < 10 ms at 2,000/s over 1,000 tables.

Rates and CPU count the actions that *finished* in the measured window (the window's CPU is theirs, in steady
state); latencies are those of every action that *arrived* in the window, waited for however late it finishes.

Each row is the **median of ``--repeats`` runs** (default 3) of ``--seconds`` (default 5) measured after a warm-up
(1 s). CPU is ``time.process_time()`` (the whole process, every thread: the event loop and SQLite's thread) over
the measured window divided by the actions in it; "player" is the part of it spent choosing moves in this
benchmark (timed with ``time.thread_time``), which the bot does not do: "service + store" is CPU minus player.
The garbage collector is tuned as the bot tunes it after start-up (``bot.client.tune_gc``; ``--gc default`` leaves
it alone). Persistence is the real ``Store`` on a temporary SQLite file (its defaults: the durability it ships
with), the real ``Store`` on PostgreSQL (``--stores postgresql``: a fresh schema per run in ``--database-url``,
default ``postgresql://postgres@127.0.0.1:5432/test``, dropped after; the server's settings as they are), or the
no-op ``NullStore`` stand-in (the service still builds every statement). PostgreSQL's own work is done by its
server processes, outside this process's CPU: "server us" is the CPU of the store's backends (from ``/proc``, the
server on this machine), "shared us" that of the server's WAL writer, checkpointer and background writer, which
also serve any other client of the server.

    python -m benchmarks.tables                       # ~7 min
    python -m benchmarks.tables --quick               # ~30 s
    python -m benchmarks.tables --games pig --tables 1000 --rate --seconds 3 --repeats 1
    python -m benchmarks.tables --profile 1000        # cProfile the persisted closed loop, all five games
    python -m benchmarks.tables --dice fair --tables 1000 --rate   # production's dice (FairDice per table)
    python -m benchmarks.tables --stores sqlite postgresql --tables 1000   # both backends, driven identically
    python -m benchmarks.tables --open-only --tables 10000 --dice fair --stores sqlite   # the open loop alone
"""

from __future__ import annotations

import asyncio
import cProfile
import gc
import io
import itertools
import pstats
import random
import statistics
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmarks import _postgres
from benchmarks._common import header, parser, percentile, show, verdict
from benchmarks._service import GAMES, SNOWFLAKE, NullStore, bot_gc, game_of, next_move, open_many, open_table
from bot.games.dice import SeededDice
from bot.store import open_store
from bot.tables import TableService

TARGET_PERSISTED = 25_000  # actions/s with 1,000 tables
TARGET_CPU = 40e-6  # s of CPU per persisted action, service + store
TARGET_P99 = 0.010  # s, open loop at 2,000 actions/s over 1,000 tables
ALL = "all five"
PERSISTED = ("sqlite", "postgresql")  # the store kinds that are the real Store
DATABASE_URL = _postgres.base_url()  # --database-url
MEASURING = [False]  # True inside a measured window (diagnostics that wrap the store count only then)


@dataclass
class Run:
    store: str
    games: str
    tables: int
    mode: str  # "closed" or "open @ N/s"
    actions: int = 0
    seconds: float = 0.0
    reopened: int = 0
    batches: int = 0
    cpu: float = 0.0  # process CPU seconds (every thread) in the measured window
    player_cpu: float = 0.0  # of which this benchmark's players choosing moves
    writer_cpu: float | None = None  # of which SQLite's group commit on the store's thread, when it can be wrapped
    server_cpu: float | None = None  # PostgreSQL: CPU of the store's server backends (other processes)
    shared_cpu: float | None = None  # PostgreSQL: CPU of the server's WAL writer, checkpointer, background writer
    backends: int = 0  # PostgreSQL: the store's connections at the end of the window
    server_commits: int | None = None  # PostgreSQL: transactions the whole server committed in the window
    gc_seconds: float = 0.0  # wall time in garbage collections during the measured window
    latencies: list[float] = field(default_factory=list)

    @property
    def rate(self) -> float:
        return self.actions / self.seconds if self.seconds else 0.0

    def per_action(self, seconds: float | None) -> float | None:
        return seconds / self.actions if self.actions and seconds is not None else None

    def p(self, q: float) -> float:
        return percentile(self.latencies, q)


class WriterThread:
    """CPU in the store's group-commit function on its thread, if the store has one to wrap (this process only)."""

    cpu = 0.0
    available = False

    @classmethod
    def install(cls) -> None:
        import importlib

        if cls.available:
            return
        for name in ("bot.store.sqlite", "bot.store.db"):  # wherever the SQLite half's group commit lives
            try:
                store_db: Any = importlib.import_module(name)
            except ImportError:
                continue
            attribute = next((a for a in ("commit_batch", "_commit_batch") if hasattr(store_db, a)), None)
            if attribute is not None:
                original = getattr(store_db, attribute)
                break
        else:
            return

        def timed(*args: Any, **kwargs: Any) -> Any:
            c = time.thread_time()
            try:
                return original(*args, **kwargs)
            finally:
                cls.cpu += time.thread_time() - c

        setattr(store_db, attribute, timed)
        cls.available = True


_SCHEMAS: dict[int, str] = {}  # id(store) -> its scratch PostgreSQL schema, dropped by close_service


async def make_service(kind: str, folder: Path) -> TableService:
    store: Any
    if kind == "sqlite":
        store = await open_store(folder / f"bench-{time.monotonic_ns()}.sqlite3")
    elif kind == "postgresql":
        schema = _postgres.scratch_name()
        url = await _postgres.create_schema(DATABASE_URL, schema)
        try:
            store = await open_store(url)
        except BaseException:
            await _postgres.drop_schema(DATABASE_URL, schema)
            raise
        _SCHEMAS[id(store)] = schema
    else:
        store = NullStore()
    # --dice fair: None, as the bot passes it in production (FairDice.new per table: one HMAC block per die)
    service = TableService(store, SeededDice(7) if DICE == "seeded" else None, run_dispatcher=False)
    await service.start()
    return service


async def close_service(service: TableService) -> None:
    await service.stop()
    await service.store.close()
    schema = _SCHEMAS.pop(id(service.store), None)
    if schema is not None:
        await _postgres.drop_schema(DATABASE_URL, schema)


async def drive(
    service: TableService,
    channels: list[int],
    games: Sequence[str],
    seconds: float,
    warmup: float,
    rate: float | None,
    run: Run,
) -> None:
    """Play every table until ``seconds`` after the warm-up; record actions and latencies after the warm-up."""
    ids = itertools.count(1)
    start = time.perf_counter()
    measure_from = start + warmup
    stop = measure_from + seconds
    latencies: list[float] = []
    counted = reopened = 0
    player_cpu = 0.0

    async def player(channel: int, rng: random.Random) -> None:
        nonlocal counted, reopened, player_cpu
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
                await open_table(service, channel, game_of(channel, games))
                reopened += measure_from <= time.perf_counter() <= stop
                continue
            c = time.thread_time()
            user, action = next_move(table, rng)
            chose = time.thread_time() - c
            await service.act(channel, user, action, str(SNOWFLAKE + next(ids)))
            done = time.perf_counter()
            if measure_from <= began:  # every action that arrived in the window, however late it finished
                latencies.append(done - began)
            if measure_from <= done <= stop:  # throughput and CPU: the actions finished in the window
                counted += 1
                player_cpu += chose
            if per_table:
                due += rng.expovariate(per_table)
            else:
                await asyncio.sleep(0)  # let the other tables in (the no-op store never suspends)

    marks: dict[str, float] = {}
    schema = _SCHEMAS.get(id(service.store))
    server = _postgres.ServerCPU(DATABASE_URL, schema) if schema else None
    if server:
        await server.open()

    async def mark() -> None:
        await asyncio.sleep(max(0.0, measure_from - time.perf_counter()))
        marks.update(batches=service.store.batches, cpu=time.process_time(), writer=WriterThread.cpu)
        MEASURING[0] = True
        if server:
            await server.start()
        await asyncio.sleep(max(0.0, stop - time.perf_counter()))
        marks.update(cpu_end=time.process_time(), writer_end=WriterThread.cpu, batches_end=service.store.batches)
        MEASURING[0] = False
        if server:
            await server.stop()

    gc_time = [0.0, 0.0]  # [total in the window, start of the current collection]

    def gc_timer(phase: str, info: dict[str, Any]) -> None:
        now = time.perf_counter()
        if phase == "start":
            gc_time[1] = now
        elif measure_from <= gc_time[1] <= stop:
            gc_time[0] += now - gc_time[1]

    gc.callbacks.append(gc_timer)
    marker = asyncio.create_task(mark())
    try:
        await asyncio.gather(*(player(c, random.Random(c)) for c in channels))
        await marker
    finally:
        gc.callbacks.remove(gc_timer)
        if server:
            await server.close()
    latencies.sort()
    run.actions, run.seconds, run.latencies, run.reopened = counted, seconds, latencies, reopened
    run.gc_seconds, run.player_cpu = gc_time[0], player_cpu
    run.batches = int(marks["batches_end"] - marks["batches"])
    run.cpu = marks["cpu_end"] - marks["cpu"]
    if WriterThread.available and run.store == "sqlite":
        run.writer_cpu = marks["writer_end"] - marks["writer"]
    if server:
        run.server_cpu, run.shared_cpu, run.backends = server.ours, server.shared, server.backends
        run.server_commits = server.commits


GC_AS_BOT = True  # --gc default: leave the collector as Python starts it
OPEN_ONLY = False  # --open-only: no closed loops, only the open loop over the largest --tables
DICE = "seeded"  # --dice fair: each table's own provably fair dice, as production


async def one_run(kind: str, games: Sequence[str], n: int, seconds: float, rate: float | None, folder: Path) -> Run:
    service = await make_service(kind, folder)
    undo = bot_gc(GC_AS_BOT)  # as the bot does once start() has restored the tables
    try:
        channels = list(range(1000, 1000 + n))
        await open_many(service, channels, games=games)
        label = ALL if set(games) == set(GAMES) else "+".join(games)
        run = Run(kind, label, n, f"open @ {rate:,.0f}/s" if rate else "closed")
        await drive(service, channels, games, seconds, min(1.0, seconds / 4), rate, run)
        await close_service(service)
    except BaseException:
        await abandon(service)
        raise
    finally:
        undo()
    return run


async def abandon(service: TableService) -> None:
    """After a failed run: close what can be closed, and never leave a scratch PostgreSQL schema behind."""
    try:
        await asyncio.wait_for(close_service(service), 10)
    except Exception:  # noqa: BLE001 - the run's own error is the one to show
        pass
    schema = _SCHEMAS.pop(id(service.store), None)
    if schema is not None:
        await _postgres.drop_schema(DATABASE_URL, schema)


@dataclass
class Row:
    """The median of repeated runs of one configuration, figure by figure."""

    runs: list[Run]

    def median(self, figure: Callable[[Run], float | None]) -> float | None:
        values = [v for v in (figure(r) for r in self.runs) if v is not None]
        return statistics.median(values) if values else None

    @property
    def first(self) -> Run:
        return self.runs[0]

    def us(self, figure: Callable[[Run], float | None]) -> float | None:
        value = self.median(figure)
        return None if value is None else value * 1e6

    def cells(self) -> list[Any]:
        r = self.first
        ms = self.median(lambda x: x.p(50))
        p99 = self.median(lambda x: x.p(99))
        return [
            r.store,
            r.games,
            r.tables,
            self.median(lambda x: x.rate),
            self.us(lambda x: x.per_action(x.cpu)),
            self.us(lambda x: x.per_action(x.cpu - x.player_cpu)),
            self.us(lambda x: x.per_action(x.player_cpu)),
            self.us(lambda x: x.per_action(x.writer_cpu)),
            self.us(lambda x: x.per_action(x.server_cpu)),
            self.us(lambda x: x.per_action(x.shared_cpu)),
            None if ms is None else ms * 1e3,
            None if p99 is None else p99 * 1e3,
            self.median(lambda x: x.actions / max(x.batches, 1)) if r.store in PERSISTED else None,
            self.median(lambda x: x.gc_seconds / x.seconds),
            self.median(lambda x: 1000 * x.reopened / max(x.actions, 1)),
            f"{min(x.rate for x in self.runs):,.0f}-{max(x.rate for x in self.runs):,.0f}",
        ]


HEADINGS = [
    "store",
    "games",
    "tables",
    "actions/s",
    "CPU us/action",
    "service+store us",
    "player us",
    "SQLite thread us",
    "server us",
    "shared us",
    "p50 ms",
    "p99 ms",
    "actions/commit",
    "GC share",
    "re-opened /1k",
    "actions/s range",
]


async def repeated(
    kinds: Sequence[str], games: Sequence[str], n: int, seconds: float, rate: float | None, folder: Path, repeats: int
) -> list[Row]:
    """A row per store kind; the kinds take turns run by run, so a change in the machine's load falls on each."""
    runs: dict[str, list[Run]] = {kind: [] for kind in kinds}
    for _ in range(repeats):
        for kind in kinds:
            runs[kind].append(await one_run(kind, games, n, seconds, rate, folder))
    return [Row(r) for r in runs.values()]


def game_sets(games: Sequence[str]) -> list[tuple[str, ...]]:
    sets = [(g,) for g in games]
    return sets + [tuple(games)] if len(games) > 1 else sets


async def main_async(
    games: Sequence[str],
    sizes: Sequence[int],
    rates: Sequence[float],
    seconds: float,
    repeats: int,
    stores: Sequence[str],
    folder: Path,
) -> dict[str, Row]:
    WriterThread.install()
    header(
        f"Table service, closed loop: {seconds:g} s windows, median of {repeats} runs "
        f"(no-op store rows only at the largest size); dice: {'SeededDice' if DICE == 'seeded' else 'fair, per table'}"
    )
    print(
        "leaves out: Discord (the gateway event, discord.py's parse, the HTTP reply), rendering, DMs"
        + ("; fair dice (SeededDice: --dice fair has them)" if DICE == "seeded" else "")
    )
    results: dict[str, Row] = {}
    rows = []
    big = max(sizes)
    for chosen in game_sets(games) if not OPEN_ONLY else []:
        for n in sizes:
            kinds = [k for k in stores if k != "memory" or n == big]
            for row in await repeated(kinds, chosen, n, seconds, None, folder, repeats):
                results[f"{row.first.store}/{row.first.games}/{n}/closed"] = row
                rows.append(row.cells())
        show(rows, HEADINGS)  # as each game finishes, so a long run shows progress
        rows = []
    if rates:
        header(f"Table service, open loop (Poisson arrivals) over {big:,} tables, {', '.join(games)} round-robin")
        persisted = [k for k in stores if k in PERSISTED]
        for rate in rates:
            for row in await repeated(persisted, games, big, seconds, rate, folder, repeats):
                results[f"{row.first.store}/{row.first.games}/{big}/{row.first.mode}"] = row
                rows.append([row.first.mode, *row.cells(), row.median(lambda x: x.latencies[-1] * 1e3)])
        show(rows, ["load", *HEADINGS, "max ms"])

    print("\ntargets (medians; CPU = service + store, the benchmark's players excluded):")
    for label in [ALL if set(games) == set(GAMES) else "+".join(games), *games] if len(games) > 1 else list(games):
        row = results.get(f"sqlite/{label}/{big}/closed")
        if row is None:
            continue
        rate = row.median(lambda x: x.rate) or 0.0
        cpu = row.median(lambda x: x.per_action(x.cpu - x.player_cpu)) or float("nan")
        note = "" if big >= 1000 else " (not at 1,000 tables)"
        print(
            f"  {label:8} persisted at {big:,} tables: {rate:,.0f}/s (>= {TARGET_PERSISTED:,}: "
            f"{verdict(rate >= TARGET_PERSISTED)}), {cpu * 1e6:.1f} us CPU/action (<= 40: {verdict(cpu <= TARGET_CPU)})"
            f"{note}"
        )
    for key, row in results.items():
        if "open @" in key:
            p99 = row.median(lambda x: x.p(99)) or float("nan")
            print(
                f"  p99 < 10 ms, {row.first.store}, {row.first.mode} over {big:,} tables: {p99 * 1e3:.2f} ms "
                f"{verdict(p99 < TARGET_P99)}"
            )
    if "postgresql" in stores:
        print(
            "  PostgreSQL: 'CPU us/action' is this process only; the server's work is in 'server us' (the store's\n"
            "  backends) and 'shared us' (WAL writer, checkpointer, background writer: shared with other clients)"
        )
    return results


def run(
    quick: bool = False,
    games: Sequence[str] | None = None,
    sizes: Sequence[int] | None = None,
    rates: Sequence[float] | None = None,
    seconds: float | None = None,
    repeats: int | None = None,
    stores: Sequence[str] = ("sqlite", "memory"),
) -> dict[str, Row]:
    games = list(games or GAMES)
    sizes = list(sizes or ([1, 200] if quick else [1, 1000]))
    rates = list(rates if rates is not None else [2_000.0])
    seconds = seconds or (0.5 if quick else 5.0)
    repeats = repeats or (1 if quick else 3)
    with tempfile.TemporaryDirectory(prefix="dt-bench-") as folder:
        return asyncio.run(main_async(games, sizes, rates, seconds, repeats, stores, Path(folder)))


def profile(n: int, seconds: float, kind: str, games: Sequence[str]) -> None:
    async def go(folder: Path) -> None:
        service = await make_service(kind, folder)
        channels = list(range(1000, 1000 + n))
        await open_many(service, channels, games=games)
        prof = cProfile.Profile()
        r = Run(kind, ",".join(games), n, "closed")
        prof.enable()
        await drive(service, channels, games, seconds, 0.0, None, r)
        prof.disable()
        await close_service(service)
        print(f"{kind}, {n} tables ({', '.join(games)}): {r.rate:,.0f} actions/s under cProfile (event loop only)")
        out = io.StringIO()
        pstats.Stats(prof, stream=out).sort_stats("tottime").print_stats(30)
        print(out.getvalue())

    with tempfile.TemporaryDirectory(prefix="dt-bench-") as folder:
        asyncio.run(go(Path(folder)))


def main() -> None:
    p = parser(__doc__.split("\n")[0])
    p.add_argument("--games", nargs="+", choices=GAMES, help="games (default: all five, then all five mixed)")
    p.add_argument("--tables", type=int, nargs="+", help="table counts (default 1 1000; --quick 1 200)")
    p.add_argument("--rate", type=float, nargs="*", help="open-loop total rates, actions/s (default 2000; none: skip)")
    p.add_argument("--seconds", type=float, help="measured seconds per run (default 5, --quick 0.5)")
    p.add_argument("--repeats", type=int, help="runs per row, the median is shown (default 3, --quick 1)")
    p.add_argument("--stores", nargs="+", choices=("sqlite", "postgresql", "memory"), default=["sqlite", "memory"])
    p.add_argument("--database-url", help=f"PostgreSQL for --stores postgresql (default {_postgres.DEFAULT_URL})")
    p.add_argument("--gc", choices=("bot", "default"), default="bot", help="GC as the bot tunes it (default) or not")
    p.add_argument(
        "--dice",
        choices=("seeded", "fair"),
        default="seeded",
        help="SeededDice (reproducible, the default) or fair dice per table as production uses them",
    )
    p.add_argument(
        "--open-only", action="store_true", help="skip the closed loops: only the open loop over the largest --tables"
    )
    p.add_argument("--profile", type=int, metavar="TABLES", help="cProfile the closed loop at this many tables")
    p.add_argument("--store", choices=("sqlite", "postgresql", "memory"), default="sqlite", help="store for --profile")
    args = p.parse_args()
    global GC_AS_BOT, DATABASE_URL, DICE, OPEN_ONLY
    GC_AS_BOT = args.gc == "bot"
    OPEN_ONLY = args.open_only
    DICE = args.dice
    DATABASE_URL = _postgres.base_url(args.database_url)
    if args.profile:
        profile(args.profile, args.seconds or 3.0, args.store, args.games or GAMES)
    else:
        run(args.quick, args.games, args.tables, args.rate, args.seconds, args.repeats, args.stores)


if __name__ == "__main__":
    main()
