"""PostgreSQL for the benchmarks: a scratch schema per run, the server's durability settings, and the server's CPU.

The server's work is not in ``time.process_time()`` of the benchmark: its backends are other processes. ``ServerCPU``
reads their CPU from ``/proc/<pid>/stat`` (the server must run on this machine; ``pg_stat_activity`` names the pids),
before and after a window: the backends of one application name (ours), and apart from them the server's shared
background processes (WAL writer, checkpointer, background writer), which also serve every other client of the server.
"""

from __future__ import annotations

import os
import secrets
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

DEFAULT_URL = "postgresql://postgres@127.0.0.1:5432/test"
URL_ENV = "DICETAVERN_BENCH_POSTGRES"  # else --database-url, else DEFAULT_URL
# The settings that decide what a commit costs; printed beside every PostgreSQL figure, never changed.
SETTINGS = ("server_version", "fsync", "synchronous_commit", "wal_sync_method", "full_page_writes", "commit_delay")
SHARED = ("walwriter", "checkpointer", "background writer")  # pg_stat_activity.backend_type of the shared processes
_TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def base_url(url: str | None = None) -> str:
    return url or os.environ.get(URL_ENV) or DEFAULT_URL


def with_params(url: str, **params: str) -> str:
    """``url`` with these query parameters set (asyncpg passes unknown ones to the server as settings)."""
    parts = urlsplit(url)
    query = dict(parse_qsl(parts.query))
    query.update(params)
    return urlunsplit(parts._replace(query=urlencode(query)))


def without_params(url: str) -> str:
    return urlunsplit(urlsplit(url)._replace(query=""))


def scratch_name(prefix: str = "bench") -> str:
    return f"{prefix}_{secrets.token_hex(4)}"


async def connect(url: str) -> Any:
    import asyncpg  # only the PostgreSQL runs need it

    return await asyncpg.connect(without_params(url))


async def reachable(url: str) -> str | None:
    """None when a server answers at ``url``, else why not."""
    try:
        conn = await connect(url)
    except Exception as error:  # noqa: BLE001 - any failure means "no server to measure"
        return f"{type(error).__name__}: {error}"
    await conn.close()
    return None


async def settings(url: str) -> dict[str, str]:
    conn = await connect(url)
    try:
        return {name: await conn.fetchval(f"SHOW {name}") for name in SETTINGS}
    finally:
        await conn.close()


def describe(found: dict[str, str]) -> str:
    return ", ".join(f"{k}={v}" for k, v in found.items())


async def create_schema(url: str, schema: str) -> str:
    """Create ``schema`` and return a URL whose connections use it (and carry it as their application name)."""
    conn = await connect(url)
    try:
        await conn.execute(f'CREATE SCHEMA "{schema}"')
    finally:
        await conn.close()
    return with_params(url, search_path=schema, application_name=schema)


async def drop_schema(url: str, schema: str) -> None:
    conn = await connect(url)
    try:
        await conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
    finally:
        await conn.close()


def cpu_of(pids: set[int]) -> float:
    """User + system CPU seconds of these processes so far (a pid that has gone counts nothing)."""
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat", encoding="ascii") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15 of stat)
    return total / _TICK


@dataclass
class ServerCPU:
    """CPU the server spent for one application name between ``start`` and ``stop``, and in its shared processes."""

    url: str
    application: str
    ours: float | None = None  # seconds in the backends of ``application`` (None: could not be read)
    shared: float | None = None  # seconds in the WAL writer, checkpointer and background writer
    backends: int = 0  # how many backends of ``application`` there were at the end
    # Transactions committed by the whole server (every database, every client) in the window, so a run can show
    # whether others were using the server meanwhile (the statistics reach the counter within about a second).
    commits: int | None = None
    _conn: Any = None  # one connection of its own (not of ``application``), opened by ``open``
    _pids: dict[int, float] = field(default_factory=dict)
    _shared0: float = 0.0
    _shared_pids: set[int] = field(default_factory=set)
    _commits0: int = 0

    async def open(self) -> None:
        try:
            self._conn = await connect(self.url)
        except Exception:  # noqa: BLE001 - the figure is optional; it shows "-" rather than fail the run
            self._conn = None

    async def close(self) -> None:
        if self._conn is not None:
            await self._conn.close()
            self._conn = None

    async def _find(self) -> tuple[set[int], set[int]] | None:
        if self._conn is None or not os.path.exists("/proc/self/stat"):
            return None
        rows = await self._conn.fetch(
            "SELECT pid, application_name, backend_type FROM pg_stat_activity "
            "WHERE application_name = $1 OR backend_type = ANY($2::text[])",
            self.application,
            list(SHARED),
        )
        ours = {r["pid"] for r in rows if r["application_name"] == self.application}
        return ours, {r["pid"] for r in rows if r["backend_type"] in SHARED}

    async def _commits(self) -> int:
        return int(await self._conn.fetchval("SELECT sum(xact_commit) FROM pg_stat_database"))

    async def start(self) -> None:
        found = await self._find()
        if found is None:
            return
        self._commits0 = await self._commits()
        ours, self._shared_pids = found
        self._pids = {pid: cpu_of({pid}) for pid in ours}
        self._shared0 = cpu_of(self._shared_pids)

    async def stop(self) -> None:
        found = await self._find()
        if found is None:
            return
        self.commits = await self._commits() - self._commits0
        if not (found[0] or self._pids):
            return
        ours = found[0]
        # A backend that appeared during the window counts all its CPU (it was opened for this run); one that
        # closed during it is lost (the store keeps its connections open).
        self.ours = sum(cpu_of({pid}) - self._pids.get(pid, 0.0) for pid in ours)
        self.shared = cpu_of(self._shared_pids) - self._shared0
        self.backends = len(ours)
