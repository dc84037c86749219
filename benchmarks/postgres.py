"""Persisted actions at 1,000 tables on PostgreSQL beside SQLite, with pgbench's simple-update rate as the anchor.

The service part is ``benchmarks.tables`` (see its notes): all five games dealt round-robin over 1,000 tables, each
action through ``TableService.act`` and the real ``Store``, closed loop (every table acts again as soon as its
action returns) and open loop (Poisson arrivals at ``--rate``), the two stores taking turns run by run in one
process; PostgreSQL in a fresh schema of ``--database-url`` per run, dropped after. Each row is the median of
``--repeats`` windows of ``--seconds``.

The anchor: ``pgbench -N`` (simple-update: per transaction an UPDATE of pgbench_accounts, a SELECT, an INSERT into
pgbench_history) on the same server, from the same machine, in the same run, in a scratch database
(``dicetavern_bench_<hex>``, dropped after; a scratch schema of ``--database-url``'s database when the database
cannot be created), at 1 client and at as many clients as the store had connections. Its latencies are from
pgbench's per-transaction log, its server CPU from ``/proc`` as for the store.

Comparable figures: one pgbench transaction is 3 statements and one commit; one group commit of the store is one
transaction of every action pending when it starts (one INSERT each, a snapshot UPDATE every 8 moves), so compare
commits/s with pgbench's transactions/s, and actions/s with what one commit carries. Server settings are printed
and never changed. CPU "here" is this process (``time.process_time()``); PostgreSQL's work is in its server
processes and is shown apart: it is not in "here".

    python -m benchmarks.postgres                      # ~4 min
    python -m benchmarks.postgres --quick              # ~40 s
    python -m benchmarks.postgres --shape              # also what the PostgreSQL commits held: round trips
    python -m benchmarks.postgres --database-url postgresql://postgres@127.0.0.1:5432/test --pgbench-clients 1 4
"""

from __future__ import annotations

import asyncio
import os
import re
import resource
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks import _postgres, tables
from benchmarks._common import header, parser, percentile, show
from benchmarks._service import GAMES

STORES = ("sqlite", "postgresql")


class Shape:
    """What the PostgreSQL store's commits in the measured windows held (``--shape``): writes, statements, and the
    round trips its commit makes for them on the writer's connection (asyncpg sends one per statement, except a run
    of consecutive statements with the same text and no result, sent as one ``executemany``; a Step's calls are not
    counted)."""

    commits = writes = statements = trips = 0

    @classmethod
    def install(cls) -> None:
        from bot.store.postgres import PostgresStore
        from bot.store.sql import SQL, returns_rows

        original = PostgresStore._commit

        async def counted(self: Any, writes: list[Any]) -> Any:
            if not tables.MEASURING[0]:
                return await original(self, writes)
            last = None
            for statements in writes:
                for statement in statements:
                    text = None if callable(statement) else statement[0]
                    text = text.postgresql if isinstance(text, SQL) else text
                    cls.trips += text is None or text != last or returns_rows(text)
                    last = text
                cls.statements += len(statements)
            cls.commits += 1
            cls.writes += len(writes)
            return await original(self, writes)

        PostgresStore._commit = counted  # type: ignore[method-assign]

    @classmethod
    def report(cls) -> None:
        n = max(cls.commits, 1)
        print(
            f"  PostgreSQL commits in the measured windows: {cls.commits:,}, per commit "
            f"{cls.writes / n:,.0f} writes, {cls.statements / n:,.0f} statements, {cls.trips / n:,.0f} round trips "
            f"({cls.trips / max(cls.writes, 1):.2f} per write)"
        )


@dataclass
class Bench:
    """One pgbench run."""

    clients: int
    mode: str  # pgbench's query protocol: simple (its default) or prepared (as asyncpg runs the store's statements)
    tps: float  # pgbench's own figure, without the initial connection time
    latency_avg_ms: float  # pgbench's own figure
    p50_ms: float
    p99_ms: float
    transactions: int
    client_cpu_us: float  # pgbench's CPU per transaction (user + system, the whole run)
    server_cpu_us: float | None  # its backends' CPU per transaction, over the part of the run measured
    shared_cpu_us: float | None
    server_tps: float | None  # transactions/s the whole server committed meanwhile (every client, this one too)


def _pgbench(args: list[str], env: dict[str, str], timeout: float) -> str:
    done = subprocess.run(["pgbench", *args], env=env, capture_output=True, text=True, timeout=timeout)
    if done.returncode:
        raise RuntimeError(f"pgbench {' '.join(args)} failed: {done.stderr.strip()[-500:]}")
    return done.stdout + done.stderr


async def scratch_database(url: str) -> tuple[str, str, dict[str, str]]:
    """(libpq URL, what to drop, extra environment): a new database if we may create one, else a schema."""
    conn = await _postgres.connect(url)
    name = _postgres.scratch_name("dicetavern_bench")
    try:
        await conn.execute(f'CREATE DATABASE "{name}"')
        target = _postgres.without_params(url).rsplit("/", 1)[0] + f"/{name}"
        return target, f"database {name}", {}
    except Exception:  # noqa: BLE001 - no right to create databases: a schema of the given one instead
        await conn.execute(f'CREATE SCHEMA "{name}"')
        return _postgres.without_params(url), f"schema {name}", {"PGOPTIONS": f"-c search_path={name}"}
    finally:
        await conn.close()


async def drop_scratch(url: str, what: str) -> None:
    kind, name = what.split(" ", 1)
    conn = await _postgres.connect(url)
    try:
        await conn.execute(
            f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'
            if kind == "database"
            else f'DROP SCHEMA IF EXISTS "{name}" CASCADE'
        )
    finally:
        await conn.close()


def _log_latencies(prefix: Path, since: float, until: float) -> tuple[list[float], int]:
    """Every transaction's latency (s) from pgbench's per-client logs, and how many finished in [since, until]."""
    latencies: list[float] = []
    inside = 0
    for log in prefix.parent.glob(prefix.name + "*"):
        for line in log.read_text().splitlines():
            # client_id transaction_no latency_us script_no epoch_s epoch_us
            parts = line.split()
            latencies.append(int(parts[2]) / 1e6)
            inside += since <= int(parts[4]) + int(parts[5]) / 1e6 <= until
        log.unlink()
    latencies.sort()
    return latencies, inside


async def pgbench_run(url: str, env: dict[str, str], clients: int, mode: str, seconds: float, folder: Path) -> Bench:
    application = _postgres.scratch_name("pgbench")
    prefix = folder / f"log_{mode}_c{clients}"
    args = [
        "-N",
        "-n",
        "-M",
        mode,
        "-c",
        str(clients),
        "-j",
        str(min(clients, os.cpu_count() or 1)),
        "-T",
        str(round(seconds)),
    ]
    args += ["-l", f"--log-prefix={prefix}", url]
    server = _postgres.ServerCPU(url, application)
    await server.open()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    task = asyncio.create_task(asyncio.to_thread(_pgbench, args, {**env, "PGAPPNAME": application}, seconds + 60))
    # The server's CPU over the middle of the run, once every client is connected, until shortly before the end.
    began = time.time()
    await asyncio.sleep(min(1.0, seconds / 4))
    await server.start()
    since = time.time()
    await asyncio.sleep(max(0.1, began + seconds - 0.5 - time.time()))
    await server.stop()
    until = time.time()
    out = await task
    await server.close()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    tps = float(re.search(r"tps = ([\d.]+)", out).group(1))  # type: ignore[union-attr]
    avg = float(re.search(r"latency average = ([\d.]+) ms", out).group(1))  # type: ignore[union-attr]
    latencies, inside = _log_latencies(prefix, since, until)
    client_cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return Bench(
        clients,
        mode,
        tps,
        avg,
        percentile(latencies, 50) * 1e3,
        percentile(latencies, 99) * 1e3,
        len(latencies),
        client_cpu / max(len(latencies), 1) * 1e6,
        None if server.ours is None else server.ours / max(inside, 1) * 1e6,
        None if server.shared is None else server.shared / max(inside, 1) * 1e6,
        None if server.commits is None else server.commits / (until - since),
    )


async def anchor(url: str, clients: list[int], modes: list[str], seconds: float) -> list[Bench]:
    target, what, env = await scratch_database(url)
    env = {**os.environ, **env}
    try:
        with tempfile.TemporaryDirectory(prefix="dt-pgbench-") as folder:
            await asyncio.to_thread(_pgbench, ["-i", "-q", "-s", "1", target], env, 300)
            return [await pgbench_run(target, env, c, m, seconds, Path(folder)) for c in clients for m in modes]
    finally:
        await drop_scratch(url, what)


def service_rows(results: dict[str, tables.Row]) -> list[list[Any]]:
    rows = []
    for row in results.values():
        r = row.first

        def per_action(figure: Any, row: tables.Row = row) -> float | None:
            return row.us(lambda run: run.per_action(figure(run)))

        rate = row.median(lambda x: x.rate)
        rows.append(
            [
                r.store,
                r.mode,
                rate,
                row.median(lambda x: x.batches / x.seconds),
                row.median(lambda x: x.actions / max(x.batches, 1)),
                row.median(lambda x: x.p(50) * 1e3),
                row.median(lambda x: x.p(99) * 1e3),
                row.median(lambda x: x.latencies[-1] * 1e3),
                per_action(lambda x: x.cpu),
                per_action(lambda x: x.cpu - x.player_cpu),
                per_action(lambda x: x.server_cpu),
                per_action(lambda x: x.shared_cpu),
                row.median(lambda x: None if x.server_commits is None else x.server_commits / x.seconds),
                f"{min(x.rate for x in row.runs):,.0f}-{max(x.rate for x in row.runs):,.0f}",
            ]
        )
    return rows


SERVICE_HEADINGS = [
    "store",
    "loop",
    "actions/s",
    "commits/s",
    "actions/commit",
    "p50 ms",
    "p99 ms",
    "max ms",
    "CPU here us/action",
    "of which service+store",
    "server backends us",
    "server shared us",
    "server commits/s",
    "actions/s range",
]
BENCH_HEADINGS = [
    "pgbench -N",
    "tps",
    "latency avg ms",
    "p50 ms",
    "p99 ms",
    "transactions",
    "pgbench CPU us/tx",
    "server backends us/tx",
    "server shared us/tx",
    "server commits/s",
]


async def main_async(args: Any) -> None:
    url = _postgres.base_url(args.database_url)
    tables.DATABASE_URL = url
    header(f"PostgreSQL beside SQLite at {args.tables:,} tables, and pgbench -N on the same server")
    print(
        "leaves out: Discord (the gateway event, discord.py's parse, the HTTP reply), rendering, DMs, fair dice "
        "(SeededDice)"
    )
    why = await _postgres.reachable(url)
    if why is not None:
        print(f"PostgreSQL not reachable at {_postgres.without_params(url)}: {why}; skipped (--database-url)")
        return
    if shutil.which("pgbench") is None:
        print("pgbench not found on PATH: the anchor is skipped")
    found = await _postgres.settings(url)
    print(f"server: {_postgres.without_params(url)}: {_postgres.describe(found)} (as found, not changed)")
    print("SQLite: the Store's default durability, full: WAL with synchronous=FULL, fsync at every group commit")

    tables.WriterThread.install()
    if args.shape:
        Shape.install()
    games = args.games or list(GAMES)
    results: dict[str, tables.Row] = {}
    with tempfile.TemporaryDirectory(prefix="dt-bench-") as folder:
        for rate in [None, *args.rate] if "service" in args.parts else []:
            for row in await tables.repeated(
                STORES, games, args.tables, args.seconds, rate, Path(folder), args.repeats
            ):
                results[f"{row.first.store} {row.first.mode}"] = row
    if results:
        report_service(results, games, args)
        if args.shape:
            Shape.report()
    backends = max((r.backends for row in results.values() for r in row.runs if r.store == "postgresql"), default=1)
    if "anchor" not in args.parts or shutil.which("pgbench") is None:
        return
    clients = sorted(set(args.pgbench_clients or [1, backends]))
    header(f"pgbench -N (simple-update), scale 1, {args.pgbench_seconds:g} s per run, same server")
    benches = await anchor(url, clients, args.pgbench_modes, args.pgbench_seconds)
    report_anchor(benches, results.get("postgresql closed"))


def report_service(results: dict[str, tables.Row], games: list[str], args: Any) -> None:
    header(
        f"Persisted actions, {', '.join(games)} round-robin over {args.tables:,} tables: {args.seconds:g} s windows, "
        f"median of {args.repeats}"
    )
    show(service_rows(results), SERVICE_HEADINGS)
    backends = max((r.backends for row in results.values() for r in row.runs if r.store == "postgresql"), default=1)
    print(
        "  'CPU here' is this process (every thread); PostgreSQL's work is in its server processes, outside it:\n"
        "  'server backends' are the store's own connections, 'server shared' the WAL writer, checkpointer and\n"
        f"  background writer (shared with any other client of the server). The store had {backends} connection(s).\n"
        "  'server commits/s' counts every transaction the server committed meanwhile, any client's: above the\n"
        "  store's commits/s, other clients were writing to the same server (its WAL and fsyncs are shared)."
    )


def report_anchor(benches: list[Bench], closed: tables.Row | None) -> None:
    show(
        [
            [
                f"{b.clients} client(s), {b.mode}",
                b.tps,
                b.latency_avg_ms,
                b.p50_ms,
                b.p99_ms,
                b.transactions,
                b.client_cpu_us,
                b.server_cpu_us,
                b.shared_cpu_us,
                b.server_tps,
            ]
            for b in benches
        ],
        BENCH_HEADINGS,
    )
    one = next((b for b in benches if b.clients == 1 and b.mode == "prepared"), None) or next(
        (b for b in benches if b.clients == 1), None
    )
    if closed and one:
        commits = closed.median(lambda x: x.batches / x.seconds) or 0.0
        per = closed.median(lambda x: x.actions / max(x.batches, 1)) or 0.0
        print(
            f"\n  closed loop on PostgreSQL: {commits:,.0f} commits/s of {per:,.0f} actions each, against pgbench's "
            f"{one.tps:,.0f} transactions/s of 3 statements at 1 client ({one.mode})"
        )


def main() -> None:
    p = parser(__doc__.split("\n")[0])
    p.add_argument(
        "--database-url", help=f"the PostgreSQL server (default ${_postgres.URL_ENV} or {_postgres.DEFAULT_URL})"
    )
    p.add_argument("--tables", type=int, help="tables (default 1000; --quick 200)")
    p.add_argument("--games", nargs="+", choices=GAMES, help="games dealt round-robin (default all five)")
    p.add_argument("--rate", type=float, nargs="*", help="open-loop total rates, actions/s (default 2000; none: skip)")
    p.add_argument("--seconds", type=float, help="measured seconds per run (default 5, --quick 0.5)")
    p.add_argument("--repeats", type=int, help="runs per row, the median is shown (default 3, --quick 1)")
    p.add_argument("--pgbench-clients", type=int, nargs="+", help="pgbench clients (default 1 and the store's)")
    p.add_argument(
        "--pgbench-modes",
        nargs="+",
        choices=("simple", "extended", "prepared"),
        default=["simple", "prepared"],
        help="pgbench -M query protocols (default simple, its own default, and prepared, as asyncpg runs statements)",
    )
    p.add_argument("--pgbench-seconds", type=float, help="seconds per pgbench run (default 10, --quick 2)")
    p.add_argument("--shape", action="store_true", help="count the PostgreSQL commits' statements and round trips")
    p.add_argument("--parts", nargs="+", choices=("service", "anchor"), default=["service", "anchor"])
    args = p.parse_args()
    args.tables = args.tables or (200 if args.quick else 1000)
    args.rate = args.rate if args.rate is not None else [2_000.0]
    args.seconds = args.seconds or (0.5 if args.quick else 5.0)
    args.repeats = args.repeats or (1 if args.quick else 3)
    args.pgbench_seconds = args.pgbench_seconds or (2.0 if args.quick else 10.0)
    asyncio.run(main_async(args))


if __name__ == "__main__":
    main()
