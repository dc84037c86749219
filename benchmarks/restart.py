"""Restart: time to restore games in progress (``TableService.start()`` on a database of open games).

The database is built through the real TableService and Store (a temporary SQLite file): N two-player
Pig games (target 500) are opened, started and played a few moves each (with interaction ids, as the
cogs pass them), so every game has a state, a public log, an action history and a turn deadline.
Then a fresh Store and TableService open the same file and ``start()`` is timed (the deadline
dispatcher is not started, ``run_dispatcher=False``). The phases of ``start()`` are timed separately
by wrapping the repo functions it calls (in this process only).

    python -m benchmarks.restart            # 10,000 games
    python -m benchmarks.restart --quick    # 1,000 games
    python -m benchmarks.restart --profile  # cProfile of start()
"""

from __future__ import annotations

import asyncio
import cProfile
import gc
import io
import itertools
import pstats
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks._common import header, parser, show, verdict
from benchmarks._service import next_move, open_many
from bot.games.dice import SeededDice
from bot.store import Store, repo
from bot.tables import TableService

TARGET_SECONDS = 2.0  # for 10,000 games


async def build(path: Path, games: int, moves: int) -> float:
    began = time.perf_counter()
    store = await Store.open(path)
    service = TableService(store, SeededDice(11), run_dispatcher=False)
    await service.start()
    channels = list(range(1000, 1000 + games))
    await open_many(service, channels, chunk=500)
    ids = itertools.count(1)

    async def play(channel: int) -> None:
        for _ in range(moves):
            table = service.by_channel.get(channel)
            if table is None:
                return
            user, action = next_move(table)
            await service.act(channel, user, action, str(next(ids)))

    for i in range(0, games, 1000):
        await asyncio.gather(*(play(c) for c in channels[i : i + 1000]))
    await service.stop()
    await store.close()
    return time.perf_counter() - began


class Phases:
    """Wraps the repo reads ``start()`` makes, to time each phase.

    Since f91383a ``start()`` reads the recent interaction ids of every open game in one query
    (``repo.recent_interactions(store, limit) -> {game_id: [ids]}``) instead of one query per game.
    """

    def __init__(self) -> None:
        self.seconds: dict[str, float] = {"open_games query": 0.0, "recent_interactions query": 0.0}
        self.calls: dict[str, int] = {"open_games query": 0, "recent_interactions query": 0}
        self._saved: dict[str, Any] = {}

    def wrap(self, name: str, label: str) -> None:
        original = getattr(repo, name)
        self._saved[name] = original

        async def timed(*args: Any, **kwargs: Any) -> Any:
            t0 = time.perf_counter()
            try:
                return await original(*args, **kwargs)
            finally:
                self.seconds[label] += time.perf_counter() - t0
                self.calls[label] += 1

        setattr(repo, name, timed)

    def __enter__(self) -> Phases:
        self.wrap("open_games", "open_games query")
        self.wrap("recent_interactions", "recent_interactions query")
        return self

    def __exit__(self, *exc: object) -> None:
        for name, original in self._saved.items():
            setattr(repo, name, original)


async def restore(path: Path, phases: bool = True, prof: cProfile.Profile | None = None) -> dict[str, Any]:
    gc.collect()
    t0 = time.perf_counter()
    store = await Store.open(path)
    t1 = time.perf_counter()
    service = TableService(store, SeededDice(12), run_dispatcher=False)
    if phases:
        with Phases() as p:
            t2 = time.perf_counter()
            tables = await service.start()
            t3 = time.perf_counter()
    else:
        p = None
        if prof:
            prof.enable()
        t2 = time.perf_counter()
        tables = await service.start()
        t3 = time.perf_counter()
        if prof:
            prof.disable()
    result = {
        "open_store": t1 - t0,
        "start": t3 - t2,
        "tables": len(tables),
        "armed": len(service.deadlines.heap),
        "running": sum(t.status == "running" for t in tables),
        "seen": sum(len(t.seen) for t in tables),  # interaction ids restored (idempotency across a restart)
        "phases": p,
    }
    await service.stop()
    await store.close()
    return result


async def main_async(games: int, moves: int, folder: Path, repeats: int, profile: bool) -> dict[str, Any]:
    path = folder / "restart.sqlite3"
    built = await build(path, games, moves)
    size = path.stat().st_size + sum(p.stat().st_size for p in folder.glob("restart.sqlite3-*"))
    print(f"built {games:,} open games with {moves} moves each in {built:.1f} s; database {size / 2**20:.1f} MiB")
    if profile:
        prof = cProfile.Profile()
        r = await restore(path, phases=False, prof=prof)
        print(f"start() under cProfile: {r['start']:.2f} s")
        out = io.StringIO()
        pstats.Stats(prof, stream=out).sort_stats("tottime").print_stats(20)
        print(out.getvalue())
        return r
    runs = [await restore(path) for _ in range(repeats)]
    best = min(runs, key=lambda r: r["start"])
    rows = [
        (
            f"run {i + 1}",
            r["tables"],
            r["running"],
            r["armed"],
            r["seen"],
            r["open_store"],
            r["start"],
            r["tables"] / r["start"],
        )
        for i, r in enumerate(runs)
    ]
    show(
        rows,
        ["restore", "tables", "running", "deadlines armed", "interaction ids", "Store.open s", "start() s", "tables/s"],
    )
    expected = games * moves
    if best["seen"] != expected:
        print(f"WARNING: {best['seen']:,} interaction ids restored, expected {expected:,} ({moves} per game)")
    p = best["phases"]
    rest = best["start"] - sum(p.seconds.values())
    print()
    show(
        [(name, p.calls[name], secs, secs / best["start"]) for name, secs in p.seconds.items()]
        + [("rows -> Table objects (json, engine.loads), heap", None, rest, rest / best["start"])],
        ["phase of start() (best run)", "calls", "seconds", "share"],
    )
    scaled = best["start"] * 10_000 / games
    note = "" if games == 10_000 else f" (scaled from {games:,} games: {scaled:.2f} s)"
    print(
        f"\ntarget: 10,000 games restored in < {TARGET_SECONDS:g} s: {best['start']:.2f} s for {games:,}{note} "
        f"{verdict(scaled < TARGET_SECONDS)}"
    )
    return best


def run(
    quick: bool = False, games: int | None = None, moves: int = 6, repeats: int = 3, profile: bool = False
) -> dict[str, Any]:
    games = games or (1_000 if quick else 10_000)
    header(f"Restart: restore {games:,} games in progress")
    with tempfile.TemporaryDirectory(prefix="dt-bench-") as folder:
        return asyncio.run(main_async(games, moves, Path(folder), 1 if quick else repeats, profile))


def main() -> None:
    p = parser(__doc__.split("\n")[0])
    p.add_argument("--games", type=int, help="open games to restore (default 10,000; --quick 1,000)")
    p.add_argument("--moves", type=int, default=6, help="moves played in each game before the restart")
    p.add_argument("--profile", action="store_true", help="cProfile start() instead of timing phases")
    args = p.parse_args()
    run(args.quick, args.games, args.moves, profile=args.profile)


if __name__ == "__main__":
    main()
