"""The click path: one button click's CPU, from ``TableService.act`` to the table reply's render.

A click is what ``cogs/tables.py: Click.move`` does for a button on the table message: ``act`` with the
interaction id and the version the button was drawn at (the lock, the engine, the commit through the real ``Store``
on a temporary SQLite file), then the reply as ``Click.table_reply`` builds it: the V2 layout of
``cogs/utils/components.py: table_message``, then what discord.py does with them
before the HTTP call (``Embed.to_dict``, ``View.to_components``). The Discord HTTP call itself is not included.

CPU is ``time.process_time()`` (every thread, so SQLite's commit counts) over the measured window divided by the
clicks; the reply's render (build, and discord.py's serialisation) and the benchmark's own move choice are timed
with ``time.thread_time`` and shown separately. Two loads, each the median of ``--repeats`` runs:

* **1 table**: clicks one after another on one table (every click waits for its own commit);
* **1,000 tables**: every table clicking as fast as it can (the commits are grouped). Games that finish are
  re-opened; their CPU is taken out at what one re-open cost in the one-table run of the same games.

The garbage collector is tuned as the bot tunes it after start-up (``bot.client.tune_gc``).
Games: Pig (target 500, hold at 20) and the others with a random legal move (``benchmarks/_service.py``).

    python -m benchmarks.clickpath           # ~2 min
    python -m benchmarks.clickpath --quick
"""

from __future__ import annotations

import asyncio
import gc
import random
import statistics
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks._common import header, parser, show, verdict
from benchmarks._service import GAMES, SNOWFLAKE, bot_gc, game_of, next_move, open_many, open_table
from bot.games.dice import SeededDice
from bot.store import open_store
from bot.tables import TableService
from cogs.utils.components import table_message

TARGET_CPU = 150e-6  # s per click, act + commit + the reply's render


@dataclass
class Clicks:
    clicks: int = 0
    cpu: float = 0.0  # process CPU (every thread)
    build: float = 0.0  # table_message (the V2 layout)
    serialise: float = 0.0  # Embed.to_dict + View.to_components
    player: float = 0.0  # the benchmark choosing the move
    opening: float = 0.0  # process CPU re-opening finished games (not clicks), meaningful with one table
    alone: float = 0.0  # sum of process CPU from act to the end of the render, click by click
    reopened: int = 0

    def us(self, seconds: float) -> float:
        return seconds / self.clicks * 1e6 if self.clicks else float("nan")


def render(table: Any) -> tuple[float, float]:
    """The table reply as ``Click.table_reply`` builds it; returns (build, serialise) thread CPU."""
    c0 = time.thread_time()
    view = table_message(table, table.locale)
    c1 = time.thread_time()
    view.to_components()  # what discord.py sends
    return c1 - c0, time.thread_time() - c1


async def measure(games: Sequence[str], n: int, seconds: float, folder: Path) -> Clicks:
    store = await open_store(folder / f"click-{time.monotonic_ns()}.sqlite3")
    service = TableService(store, SeededDice(3), run_dispatcher=False)
    await service.start()
    undo = bot_gc()  # as the bot does once start() has restored the tables
    channels = list(range(1000, 1000 + n))
    await open_many(service, channels, games=games)
    ids = iter(range(SNOWFLAKE, SNOWFLAKE * 2))
    result = Clicks()
    warmup = min(1.0, seconds / 4)
    began = time.perf_counter()
    start, stop = began + warmup, began + warmup + seconds
    marks: list[float] = []

    async def mark() -> None:
        await asyncio.sleep(max(0.0, start - time.perf_counter()))
        marks.append(time.process_time())
        await asyncio.sleep(max(0.0, stop - time.perf_counter()))
        marks.append(time.process_time())

    def in_window() -> bool:
        return start <= time.perf_counter() <= stop

    async def clicker(channel: int) -> None:
        rng = random.Random(channel)
        while time.perf_counter() < stop:
            table = service.by_channel.get(channel)
            if table is None:  # a finished game: open the next one (not a click; see main_async)
                c = time.process_time()
                await open_table(service, channel, game_of(channel, games))
                if in_window():
                    result.opening += time.process_time() - c  # exact only when n == 1 (nothing else runs)
                    result.reopened += 1
                continue
            c = time.thread_time()
            user, action = next_move(table, rng)
            player = time.thread_time() - c
            p = time.process_time()
            table, _ = await service.act(channel, user, action, str(next(ids)), table.version)
            build, serialise = render(table)
            if in_window():  # the clicks finished in the window: in steady state, the window's CPU is theirs
                result.clicks += 1
                result.alone += time.process_time() - p  # the whole process, this click only when n == 1
                result.player += player
                result.build += build
                result.serialise += serialise
            await asyncio.sleep(0)

    for channel in channels[:5]:  # the first render loads the catalog and discord.py's lazy parts
        render(service.by_channel[channel])
    gc.collect()
    marker = asyncio.create_task(mark())
    await asyncio.gather(*(clicker(c) for c in channels))
    await marker
    window = marks[1] - marks[0]
    undo()
    # One table: nothing else runs, so the per-click deltas are the click. Many: the window's CPU less the players;
    # main_async also takes out the re-opened games at the cost one open had in the one-table runs.
    result.cpu = result.alone if n == 1 else window - result.player
    await service.stop()
    await store.close()
    return result


async def main_async(games: Sequence[str], sizes: Sequence[int], seconds: float, repeats: int, folder: Path) -> None:
    header(f"Click path: act + commit + the table reply's render; {seconds:g} s windows, median of {repeats} runs")
    print(
        "leaves out: the gateway event and discord.py's parse of it, the HTTP reply, DMs and later edits, fair dice "
        "(SeededDice): benchmarks.production_click has them"
    )
    rows = []
    verdicts = []
    sets = [(g,) for g in games] + ([tuple(games)] if len(games) > 1 else [])
    for chosen in sets:
        open_cost = 0.0  # process CPU of one re-open (create, join, start), from the one-table runs
        for n in sorted(sizes):
            runs = [await measure(chosen, n, seconds, folder) for _ in range(repeats)]
            if n == 1:
                opens = sum(r.reopened for r in runs)
                open_cost = sum(r.opening for r in runs) / opens if opens else 0.0
            else:
                for r in runs:
                    r.cpu -= r.reopened * open_cost

            def med(figure: Any, runs: list[Clicks] = runs) -> float:
                return statistics.median(figure(r) for r in runs)

            whole = med(lambda r: r.us(r.cpu))
            build, ser = med(lambda r: r.us(r.build)), med(lambda r: r.us(r.serialise))
            label = "all five" if set(chosen) == set(GAMES) else "+".join(chosen)
            rows.append(
                (
                    label,
                    n,
                    med(lambda r: r.clicks / seconds),
                    whole,
                    whole - build - ser,
                    build,
                    ser,
                    med(lambda r: r.us(r.player)),
                    med(lambda r: 1000 * r.reopened / max(r.clicks, 1)),
                )
            )
            verdicts.append((label, n, whole))
        show(
            rows,
            [
                "game",
                "tables",
                "clicks/s",
                "CPU us/click",
                "act + commit",
                "render: embed + view",
                "render: to_dict/components",
                "player (excluded)",
                "re-opened /1k",
            ],
        )
        rows = []
    print("\ntarget: <= 150 us CPU per click (act + commit + render; the benchmark's player excluded):")
    for label, n, whole in verdicts:
        print(f"  {label:8} {n:>5,} tables: {whole:.0f} us {verdict(whole <= TARGET_CPU * 1e6)}")


def run(
    quick: bool = False,
    games: Sequence[str] | None = None,
    sizes: Sequence[int] | None = None,
    seconds: float | None = None,
    repeats: int | None = None,
) -> None:
    games = list(games or GAMES)
    sizes = list(sizes or ([1, 100] if quick else [1, 1000]))
    seconds = seconds or (1.0 if quick else 3.0)
    repeats = repeats or (1 if quick else 3)
    with tempfile.TemporaryDirectory(prefix="dt-bench-") as folder:
        asyncio.run(main_async(games, sizes, seconds, repeats, Path(folder)))


def main() -> None:
    p = parser(__doc__.split("\n")[0])
    p.add_argument("--games", nargs="+", choices=GAMES, help="games (default: all five, then all five mixed)")
    p.add_argument("--tables", type=int, nargs="+", help="table counts (default 1 1000; --quick 1 100)")
    p.add_argument("--seconds", type=float, help="measured seconds per run (default 3, --quick 1)")
    p.add_argument("--repeats", type=int, help="runs per row, the median is shown (default 3, --quick 1)")
    args = p.parse_args()
    run(args.quick, args.games, args.tables, args.seconds, args.repeats)


if __name__ == "__main__":
    main()
