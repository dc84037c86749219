"""Restart: time to restore games in progress (``TableService.start()``), with long games and with a long history.

Two databases, both restored by a fresh ``Store`` and ``TableService`` (``run_dispatcher=False``), ``start()``
timed (wall and process CPU), median of ``--repeats`` runs:

* **open**: ``--games`` (10,000) two-player Pig games (target 500, hold at 20) each played ``--moves`` (300) moves
  with interaction ids, as the cogs pass them; still running (a game that ended sooner is reported);
* **open + history**: the same, plus ``--finished`` (100,000) finished games of all five games (default options,
  random legal moves; played to the end). Restore must not slow down with history.

How they are built, and why that is equivalent: ``--seed`` games (500 open, 500 finished) are played through the
real ``TableService`` and ``Store``; the rest are copies of their rows made by SQL (``INSERT … SELECT`` into every
table with a ``game_id`` column, that id and ``games.id``/``channel_id`` shifted past the last one), so a copy
has byte for byte the rows a game played through the service has: the same snapshot, action log (moves, dice,
interaction ids, deadlines), meta and results. SQLite orders rows by key (``games.id``, ``actions (game_id,
seq)``), so the pages ``start()`` reads hold the same rows as if every game had been played. Playing 3 million
moves through the service instead would take ~25 minutes on this machine (300,000 took 155 s at load 5).

    python -m benchmarks.restart                     # ~5 min (building the databases ~3 min)
    python -m benchmarks.restart --quick
    python -m benchmarks.restart --games 10000 --moves 6 --finished 0
    python -m benchmarks.restart --profile           # cProfile of start() on the open database
    python -m benchmarks.restart --reshow --finished 0   # and the re-show after start(), burst and paced
    python -m benchmarks.restart --reshow --finished 0 --anchor ../anchor   # and another checkout's paced re-show

**The re-show** (``--reshow``, issue 30): what the bot does after ``start()`` (``cogs/tables.py``: the presenter's
``reshow``), each run in a child process of its own (``--child``), so its RSS holds nothing the parent built;
``burst`` (the anchor: the loop the bot ran before issue 30, every table loaded and queued in one go, a copy kept
here) and ``paced`` (``DiscordPresenter.reshow``) alternating, and with ``--anchor DIR`` the paced re-show of that
checkout (its code and its copy of this benchmark, on PYTHONPATH, on the same database) between them. The child
opens a fresh ``Store`` and ``TableService``, ``start()``, gives every table a message id, then re-shows every table
through the real ``DiscordPresenter`` (its edit workers and their spacing, ``table_message``) into a stand-in channel
whose edit serialises the view as discord.py sends it (``to_components`` and ``json.dumps``) and returns; until every
worker has ended. The GC tuned as the bot tunes it (``bot.client.tune_gc``). Measured: process CPU (user + system) of
the re-show per table (less the sampler's own, measured on the idle loop for a second first), its wall time, the event
loop's longest tick (a task sleeping 5 ms at a time: the longest time between its wake-ups, less the 5 ms) and p99,
and RSS (``/proc/self/statm``) per table after ``start()`` and after the re-show, over the process before the store
opened. "After the re-show" is with the tables idle since: the bot's tables compact an idle log as more are decoded
(``Table.compact``), so the last ``IDLE_AFTER`` (256) shown still hold theirs.
Leaves out: discord.py's HTTP client and aiohttp (the request itself, its rate limiter), the gateway.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import gc
import inspect
import io
import itertools
import json
import os
import pstats
import random
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import discord

from benchmarks._common import header, parser, show, verdict
from benchmarks._service import GAMES, SNOWFLAKE, game_of, next_move, open_many, open_table, play_moves
from bot.client import tune_gc
from bot.games.dice import SeededDice
from bot.store import open_store, repo
from bot.tables import TableService
from cogs.utils.presenter import DiscordPresenter

TARGET_SECONDS = 1.0  # 10,000 open games of 300 moves


async def play_open(path: Path, games: int, moves: int) -> dict[str, int]:
    """``games`` Pig tables (target 500) played ``moves`` moves each through the real service; what is left open."""
    store = await open_store(path)
    service = TableService(store, SeededDice(11), run_dispatcher=False)
    await service.start()
    channels = list(range(1000, 1000 + games))
    await open_many(service, channels, chunk=500)
    await play_moves(service, channels, moves)
    left = {"open": len(service.by_id), "moves": sum(t.version for t in service.by_id.values())}
    await service.stop()
    await store.close()
    return left


async def play_finished(path: Path, games: int) -> int:
    """``games`` games of all five (round-robin, default options) played to the end; returns the moves played."""
    store = await open_store(path)
    service = TableService(store, SeededDice(13), run_dispatcher=False)
    await service.start()
    ids = itertools.count(SNOWFLAKE)
    played = 0

    async def play(channel: int) -> None:
        nonlocal played
        rng = random.Random(channel)
        await open_table(service, channel, game_of(channel, GAMES), {"target": 100} if channel % 5 == 0 else None)
        while (table := service.by_channel.get(channel)) is not None:
            user, action = next_move(table, rng)
            await service.act(channel, user, action, str(next(ids)))
            played += 1

    channels = list(range(10**6, 10**6 + games))
    for i in range(0, games, 500):
        await asyncio.gather(*(play(c) for c in channels[i : i + 500]))
    await service.stop()
    await store.close()
    return played


def copy_games(conn: sqlite3.Connection, source: str, copies: int) -> None:
    """Append ``copies`` copies of every game in ``source`` (``main`` or an attached database) to ``main``."""
    tables = [
        name
        for (name,) in conn.execute(f"SELECT name FROM {source}.sqlite_master WHERE type = 'table'")
        if not name.startswith("sqlite_")
    ]
    columns = {t: [r[1] for r in conn.execute(f"PRAGMA {source}.table_info({t})")] for t in tables}
    with_game = [t for t in tables if "game_id" in columns[t]]
    first, last, low, high = conn.execute(
        f"SELECT min(id), max(id), min(channel_id), max(channel_id) FROM {source}.games"
    ).fetchone()
    if first is None:
        return
    top_id, top_channel = conn.execute("SELECT max(id), max(channel_id) FROM main.games").fetchone()
    top_id, top_channel = top_id or 0, top_channel or 0
    for k in range(copies):  # ids and channels shifted past everything in main, so copies never collide
        shift = top_id + 1 - first + k * (last - first + 1)
        channel_shift = top_channel + 1 - low + k * (high - low + 1)
        shifted = {"id": f"id + {shift}", "channel_id": f"channel_id + {channel_shift}"}
        cols = columns["games"]
        conn.execute(
            f"INSERT INTO main.games ({', '.join(cols)}) SELECT {', '.join(shifted.get(c, c) for c in cols)} "
            f"FROM {source}.games WHERE id BETWEEN {first} AND {last}"
        )
        for t in with_game:
            cols = columns[t]
            conn.execute(
                f"INSERT INTO main.{t} ({', '.join(cols)}) SELECT "
                f"{', '.join(f'game_id + {shift}' if c == 'game_id' else c for c in cols)} "
                f"FROM {source}.{t} WHERE game_id BETWEEN {first} AND {last}"
            )
    conn.commit()


def grow(path: Path, copies: int, source: Path | None = None) -> None:
    """Add ``copies`` copies of the games of ``source`` (default: of ``path`` itself) to ``path``."""
    conn = sqlite3.connect(path, isolation_level="DEFERRED")
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=OFF")  # a benchmark database built once: no durability needed while copying
    name = "main"
    if source is not None:
        conn.execute("ATTACH DATABASE ? AS template", (str(source),))
        name = "template"
    copy_games(conn, name, copies)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()


def clone_file(source: Path, target: Path) -> None:
    src, dst = sqlite3.connect(source), sqlite3.connect(target)
    src.backup(dst)
    src.close()
    dst.close()


async def build(folder: Path, games: int, moves: int, finished: int, seed: int) -> dict[str, Any]:
    """The open database (and, with ``finished``, the open + history one); returns paths and how they were built."""
    t0 = time.perf_counter()
    open_path = folder / "open.sqlite3"
    base = min(seed, games)
    left = await play_open(open_path, base, moves)
    played = time.perf_counter() - t0
    if games > base:
        grow(open_path, games // base - 1)
    info: dict[str, Any] = {"open": open_path, "played open": base, "left open": left, "seconds open": played}
    if finished:
        t1 = time.perf_counter()
        template = folder / "finished-template.sqlite3"
        fin_base = min(seed, finished)
        info["finished moves"] = await play_finished(template, fin_base)
        info["played finished"] = fin_base
        history = folder / "history.sqlite3"
        clone_file(open_path, history)
        grow(history, finished // fin_base, template)
        info["history"] = history
        info["seconds history"] = time.perf_counter() - t1
    info["seconds"] = time.perf_counter() - t0
    return info


class Phases:
    """Wraps every read in ``bot.store.repo`` while ``start()`` runs, to time what it asks SQLite for."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = {}
        self.calls: dict[str, int] = {}
        self._saved: dict[str, Callable[..., Any]] = {}

    def __enter__(self) -> Phases:
        for name, fn in list(vars(repo).items()):
            if inspect.iscoroutinefunction(fn):
                self._saved[name] = fn
                setattr(repo, name, self._timed(name, fn))
        return self

    def _timed(self, name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        async def timed(*args: Any, **kwargs: Any) -> Any:
            t0 = time.perf_counter()
            try:
                return await fn(*args, **kwargs)
            finally:
                self.seconds[name] = self.seconds.get(name, 0.0) + time.perf_counter() - t0
                self.calls[name] = self.calls.get(name, 0) + 1

        return timed

    def __exit__(self, *exc: object) -> None:
        for name, fn in self._saved.items():
            setattr(repo, name, fn)


async def restore(path: Path, prof: cProfile.Profile | None = None) -> dict[str, Any]:
    gc.collect()
    t0 = time.perf_counter()
    store = await open_store(path)
    t1 = time.perf_counter()
    service = TableService(store, SeededDice(12), run_dispatcher=False)
    with Phases() as phases:
        if prof:
            prof.enable()
        c2, t2 = time.process_time(), time.perf_counter()
        tables = await service.start()
        t3, c3 = time.perf_counter(), time.process_time()
        if prof:
            prof.disable()
    result = {
        "open_store": t1 - t0,
        "start": t3 - t2,
        "cpu": c3 - c2,
        "tables": len(tables),
        "running": sum(t.status == "running" for t in tables),
        "moves": sum(t.version for t in tables),
        "armed": len(service.deadlines.heap),
        # interaction ids restored (idempotency across a restart), each table loaded (replayed) to count them
        "seen": sum(len(t.seen) for t in service.by_id.values()),
        "phases": phases,
    }
    await service.stop()
    await store.close()
    return result


# -- the re-show after start() ---------------------------------------------------------------------------------------

TICK = 0.005  # the lag sampler's sleep
IDLE = 1.0  # seconds of the sampler alone, for its own CPU
BURST_TARGET = 1.0  # seconds: no longer stretch of the loop without a yield (issue 30)
PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


def rss() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * PAGE


class _Message:
    """Stands in for discord.py's PartialMessage: the edit's view serialised as discord.py sends it."""

    async def edit(self, *, view: Any, **_: Any) -> None:
        json.dumps({"components": view.to_components(), "flags": 1 << 15})


class _Channel:
    def get_partial_message(self, message_id: int) -> _Message:
        return _Message()

    async def send(self, *, view: Any, **_: Any) -> Any:  # pragma: no cover - every table has a message id here
        raise AssertionError("the re-show only edits here")


class _Http:
    """Stands in for discord.py's HTTPClient where the presenter edits through it (``cogs.utils.wire``): the request's
    JSON body made as discord.py makes it, not sent."""

    async def edit_message(self, channel_id: int, message_id: int, *, params: Any) -> None:
        if params.payload is not None:
            discord.utils._to_json(params.payload)  # what discord.py's request does with a JSON body
        else:  # pragma: no cover - a table message has no files
            raise AssertionError("the re-show sends no files")


class _Connection:
    """What ``cogs.utils.wire`` reads of discord.py's ConnectionState."""

    allowed_mentions = None

    def __init__(self) -> None:
        self.http = _Http()

    def prevent_view_updates_for(self, message_id: int) -> None:
        return None


class _Bot:
    """What the presenter reads of the bot (the channel edit for the presenter before issue 30's wire module; the
    connection's HTTP client for the one after)."""

    def __init__(self, store: Any, tables: TableService) -> None:
        self.store, self.tables, self._channel = store, tables, _Channel()
        self._connection = _Connection()

    def get_partial_messageable(self, channel_id: int, guild_id: int | None = None) -> _Channel:
        return self._channel


async def burst(presenter: DiscordPresenter) -> int:
    """The anchor: the re-show as the bot ran it before issue 30 (cogs/tables.py's loop), every table in one go."""
    tables = list(presenter.bot.tables.by_id.values())
    for table in tables:
        presenter.refresh(table)
    return len(tables)


async def child_reshow(path: Path, mode: str) -> dict[str, Any]:
    gc.collect()
    before = rss()
    store = await open_store(path)
    service = TableService(store, SeededDice(12), run_dispatcher=False)
    restored = await service.start()
    for table in service.by_id.peek_all():
        table.message_id = 10**18 + table.id
    gc.collect()
    after_start = rss()
    presenter = DiscordPresenter(_Bot(store, service))  # type: ignore[arg-type]
    await presenter.load()
    service.presenter = presenter
    saved = tune_gc()  # as the bot's setup_hook does once the cogs are loaded
    ticks: list[float] = []
    done = False

    async def sample() -> None:
        last = time.perf_counter()
        while not done:
            await asyncio.sleep(TICK)
            now = time.perf_counter()
            ticks.append(now - last - TICK)
            last = now

    sampler = asyncio.create_task(sample())
    c0, t0 = time.process_time(), time.perf_counter()
    await asyncio.sleep(IDLE)  # the sampler's own CPU on an idle loop, taken off the re-show's below
    idle = (time.process_time() - c0) / (time.perf_counter() - t0)
    ticks.clear()
    c0, t0 = time.process_time(), time.perf_counter()
    queued = await (burst(presenter) if mode == "burst" else presenter.reshow())
    while presenter._workers:  # every worker: its edit, its spacing, its end
        await asyncio.sleep(0.05)
    c1, t1 = time.process_time(), time.perf_counter()
    done = True
    await sampler
    gc.collect()
    after = rss()
    gc.unfreeze()
    gc.set_threshold(*saved)
    lags = sorted(ticks)
    result = {
        "mode": mode,
        "tables": len(restored),
        "queued": queued,
        "cpu": c1 - c0 - idle * (t1 - t0),
        "idle": idle,
        "wall": t1 - t0,
        "max_lag": lags[-1] if lags else 0.0,
        "p99_lag": lags[int(len(lags) * 0.99)] if lags else 0.0,
        "rss_start": after_start - before,
        "rss_after": after - before,
    }
    await service.stop()
    await store.close()
    return result


def reshow_in_child(path: Path, mode: str, tree: Path | None = None) -> dict[str, Any]:
    """One re-show in a child process; ``tree``: another checkout's (its code on PYTHONPATH, its benchmark)."""
    env = None if tree is None else {**os.environ, "PYTHONPATH": str(tree)}
    out = subprocess.run(
        [sys.executable, "-m", "benchmarks.restart", "--child", mode, "--db", str(path)],
        capture_output=True,
        text=True,
        check=True,
        cwd=tree or Path(__file__).resolve().parent.parent,
        env=env,
    )
    return dict(json.loads(out.stdout.strip().splitlines()[-1]))


ANCHOR = "paced @ anchor"  # --anchor: the paced re-show of another checkout, on the same database


def report_reshow(path: Path, repeats: int, games: int, anchor: Path | None = None) -> None:
    runs: dict[str, list[dict[str, Any]]] = {"burst": [], "paced": []}
    if anchor is not None:
        runs[ANCHOR] = []
    for _ in range(repeats):  # alternating, each in a fresh child
        for mode in runs:
            if mode == ANCHOR:
                runs[mode].append(reshow_in_child(path, "paced", anchor))
            else:
                runs[mode].append(reshow_in_child(path, mode))
    rows = []
    for mode, rs in runs.items():
        for r in rs:
            n = max(r["tables"], 1)
            rows.append(
                (
                    mode,
                    r["queued"],
                    r["cpu"],
                    r["cpu"] / n * 1e6,
                    r["wall"],
                    r["max_lag"] * 1000,
                    r["p99_lag"] * 1000,
                    r["rss_start"] / n / 1024,
                    r["rss_after"] / n / 1024,
                    r["idle"] * 100,
                )
            )
    print("\nthe re-show after start() (each run a child process; burst = the loop before issue 30):")
    show(
        rows,
        [
            "re-show",
            "tables",
            "CPU s",
            "CPU us/table",
            "wall s",
            "longest tick ms",
            "p99 tick ms",
            "RSS KiB/table after start()",
            "RSS KiB/table after re-show",
            "sampler CPU % (taken off)",
        ],
    )
    for mode, rs in runs.items():
        lag = statistics.median(r["max_lag"] for r in rs)
        per = statistics.median(r["rss_after"] / max(r["tables"], 1) for r in rs)
        print(
            f"  {mode} at {games:,} tables: longest tick {lag:.2f} s < {BURST_TARGET:g} s "
            f"{verdict(lag < BURST_TARGET)}; RSS {per / 1024:.1f} KiB/table after use <= 20 {verdict(per <= 20 * 1024)}"
        )


def size(path: Path) -> float:
    return sum(p.stat().st_size for p in path.parent.glob(path.name + "*")) / 2**20


async def main_async(
    games: int,
    moves: int,
    finished: int,
    seed: int,
    folder: Path,
    repeats: int,
    profile: bool,
    reshow: bool = False,
    anchor: Path | None = None,
) -> dict[str, Any]:
    info = await build(folder, games, moves, finished, seed)
    left = info["left open"]
    print(
        f"built in {info['seconds']:.0f} s: {info['played open']:,} Pig games played {moves} moves through the service "
        f"in {info['seconds open']:.0f} s ({left['open']:,} still open, {left['moves']:,} moves), copied to {games:,}; "
        f"database {size(info['open']):,.0f} MiB"
    )
    if finished:
        print(
            f"  history: {info['played finished']:,} finished games ({info['finished moves']:,} moves) played through "
            f"the service, copied to {finished:,}, added to a copy of it in {info['seconds history']:.0f} s; "
            f"database {size(info['history']):,.0f} MiB"
        )
    if profile:
        prof = cProfile.Profile()
        r = await restore(info["open"], prof=prof)
        print(f"start() under cProfile: {r['start']:.2f} s")
        out = io.StringIO()
        pstats.Stats(prof, stream=out).sort_stats("tottime").print_stats(25)
        print(out.getvalue())
        return r
    databases = [("open", info["open"])] + ([("open + history", info["history"])] if finished else [])
    results: dict[str, list[dict[str, Any]]] = {}
    for _ in range(repeats):  # alternating, so load changes touch both alike
        for label, path in databases:
            results.setdefault(label, []).append(await restore(path))
    rows = []
    for label, runs in results.items():
        med = runs[sorted(range(len(runs)), key=lambda i: runs[i]["start"])[len(runs) // 2]]
        rows.append(
            (
                label,
                med["tables"],
                med["running"],
                med["moves"],
                med["armed"],
                med["seen"] / max(med["tables"], 1),
                statistics.median(r["open_store"] for r in runs),
                statistics.median(r["start"] for r in runs),
                statistics.median(r["cpu"] for r in runs),
                f"{min(r['start'] for r in runs):.2f}-{max(r['start'] for r in runs):.2f}",
            )
        )
    show(
        rows,
        [
            "database",
            "tables",
            "running",
            "moves in them",
            "deadlines",
            "interaction ids/table",
            "open_store s",
            "start() s",
            "start() CPU s",
            "start() range",
        ],
    )
    print()
    phase_rows = []
    for label, runs in results.items():
        med = runs[sorted(range(len(runs)), key=lambda i: runs[i]["start"])[len(runs) // 2]]
        p = med["phases"]
        for name, secs in p.seconds.items():
            phase_rows.append((label, f"repo.{name}", p.calls[name], secs, secs / med["start"]))
        rest = med["start"] - sum(p.seconds.values())
        phase_rows.append(
            (label, "the rest: rows -> tables (JSON, engine), replay, heap", None, rest, rest / med["start"])
        )
    show(phase_rows, ["database", "phase of start() (median run)", "calls", "seconds", "share"])
    if reshow:
        await asyncio.to_thread(report_reshow, info["open"], repeats, games, anchor)
    scale = 10_000 / games
    print("\ntargets (10,000 open games of 300 moves):")
    for label, runs in results.items():
        t = statistics.median(r["start"] for r in runs)
        note = (
            ""
            if games == 10_000 and moves == 300
            else f" ({games:,} games of {moves}: scaled x{scale:g} {t * scale:.2f} s)"
        )
        print(f"  restore < {TARGET_SECONDS:g} s, {label}: {t:.2f} s{note} {verdict(t * scale < TARGET_SECONDS)}")
    if finished:
        a, b = (statistics.median(r["start"] for r in results[k]) for k in ("open", "open + history"))
        print(
            f"  with {finished:,} finished games / without: {b / a:.2f}x "
            f"(no slower with history, within 15 %: {verdict(b / a < 1.15)})"
        )
    return results


def run(
    quick: bool = False,
    games: int | None = None,
    moves: int | None = None,
    finished: int | None = None,
    seed: int | None = None,
    repeats: int | None = None,
    profile: bool = False,
    reshow: bool = False,
    anchor: Path | None = None,
) -> dict[str, Any]:
    games = games or (500 if quick else 10_000)
    moves = moves if moves is not None else (30 if quick else 300)
    finished = finished if finished is not None else (2_000 if quick else 100_000)
    seed = seed or (100 if quick else 500)
    repeats = repeats or (1 if quick else 3)
    header(f"Restart: restore {games:,} open games of {moves} moves, and with {finished:,} finished games beside them")
    print(
        "leaves out: connecting to Discord"
        + (
            "; the re-show's HTTP (discord.py, aiohttp): its views are serialised, not sent"
            if reshow
            else " and the re-show of every restored table (its redraw and edit), and each table's first use (its "
            "replay): --reshow measures them"
        )
    )
    with tempfile.TemporaryDirectory(prefix="dt-bench-") as folder:
        return asyncio.run(main_async(games, moves, finished, seed, Path(folder), repeats, profile, reshow, anchor))


def main() -> None:
    p = parser(__doc__.split("\n")[0])
    p.add_argument("--games", type=int, help="open games to restore (default 10,000; --quick 500)")
    p.add_argument("--moves", type=int, help="moves played in each open game (default 300; --quick 30)")
    p.add_argument("--finished", type=int, help="finished games in the history database (default 100,000; 0: none)")
    p.add_argument("--seed", type=int, help="games played through the service before copying (default 500)")
    p.add_argument("--repeats", type=int, help="restores per database, alternating; the median is shown (default 3)")
    p.add_argument("--profile", action="store_true", help="cProfile start() on the open database instead")
    p.add_argument("--reshow", action="store_true", help="also the re-show after start(), burst and paced")
    p.add_argument(
        "--anchor",
        type=Path,
        help="with --reshow: another checkout's paced re-show too, on the same database, alternating",
    )
    p.add_argument("--child", choices=("burst", "paced"), help=argparse.SUPPRESS)
    p.add_argument("--db", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.child:
        print(json.dumps(asyncio.run(child_reshow(Path(args.db), args.child))))
        return
    anchor = args.anchor.resolve() if args.anchor else None
    run(args.quick, args.games, args.moves, args.finished, args.seed, args.repeats, args.profile, args.reshow, anchor)


if __name__ == "__main__":
    main()
