"""/dicestats on a server with 100,000 finished games (issue 27): what a look costs, and counting a history.

The database: one server's ``--games`` finished games (Pig, Mex, Mia, Liar's Dice and Mythical Dice in turn, 2 to 4
of 300 members a game), each a game played by the engines with seeded dice (a pool of ``POOL`` games per kind,
Pig players holding at 20, the others moving at random) and written as the table service leaves it: the games
row, every move's ``actions`` row with its dice JSON, the results, and its ``dice_tallies`` rows as counting it
left them. ``--compacted F``: that share of the games compacted by retention (``games.record``, no actions rows).
Bulk inserts: sqlite3 ``executemany`` in one transaction; asyncpg ``copy_records_to_table`` on PostgreSQL.

A *look* is what ``/dicestats`` does (``cogs.stats``): count the games finished since the last look
(``bot.store.dice_stats.catch_up`` with the command's budget), sum the tallies (``totals``), build the text and
draw the chart (``render_dice_chart``, in a worker thread as the cog does). Measured, wall and this process's CPU
(SQLite works in this process; PostgreSQL's backends are other processes, their CPU is not in it):

* **look**: the whole server, every game; one game; one member (about 1/100 of the games are theirs). Median and
  worst of ``--repeat`` looks; the target is under 3 s (Discord's interaction window; the cog defers at 2 s).
* **100 new games**: a look right after 100 more games finished (counted by that look).
* **a history never counted** (the bot upgraded on a server that already had the games): every tally deleted,
  then one look (it counts for its 1.5 s budget and answers with what it counted), and the rate it counts at;
  ``--full-count`` also times counting all of it (the background task's work).

    .venv/bin/python -m benchmarks.dice_stats                       # SQLite, 100,000 games (~3 min on 2 cores)
    .venv/bin/python -m benchmarks.dice_stats --postgres            # then PostgreSQL (DICETAVERN_BENCH_POSTGRES)
    .venv/bin/python -m benchmarks.dice_stats --quick               # 5,000 games
"""

from __future__ import annotations

import asyncio
import os
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from benchmarks import _postgres
from benchmarks._common import header, parser, show, verdict

GAMES = 100_000
QUICK_GAMES = 5_000
POOL = 60  # games played per kind; the database repeats them under new ids
KINDS = ("pig", "mex", "mia", "liar", "mythic")
GUILD = 42
MEMBERS = range(1_000, 1_300)
TARGET_S = 3.0
T0 = 1_700_000_000.0
# A finished game's public log as the table keeps it in games.meta, about 3 KB (until retention drops it): the games
# rows are as wide as the bot's, so a query that read them where it should not would show.
LOG = '{"log":[' + ",".join(f'"{i:02d} alice rolled a 4 and holds, 12 points in the pot"' for i in range(50)) + "]}"


def play(game: str, players: int, seed: int) -> tuple[list[tuple[Any, ...]], str]:
    """One game by the engines with seeded dice: its moves as logged, (seat, action, dice JSON or None), and its
    final state as the games row keeps it."""
    from bot.games import get_engine
    from bot.games.dice import RecordingDice, SeededDice
    from bot.jsontext import dumps

    engine = get_engine(game)
    rng = random.Random(seed)
    dice = RecordingDice(SeededDice(seed))
    state, _ = engine.new_game(players, engine.options({}), dice)
    calls = dice.take()
    moves: list[tuple[Any, ...]] = [(None, "start", dumps(calls) if calls else None)]
    while not engine.is_over(state):
        seat = engine.to_act(state)[0]
        legal = engine.legal_actions(state, seat)
        # Pig: roll (legal[0]), or hold at 20 (legal[-1]); the others at random
        hold = game == "pig" and state.turn_total >= 20
        action = (legal[-1] if hold else legal[0]) if game == "pig" else rng.choice(legal)
        state, _ = engine.apply(state, seat, action, dice)
        calls = dice.take()
        moves.append((seat, action.encode(), dumps(calls) if calls else None))
    return moves, engine.dumps(state)


def pool() -> list[tuple[str, int, list[tuple[Any, ...]], list[tuple[Any, ...]], str]]:
    """(kind, players, moves, dice_tallies rows less their first five columns, final state) for POOL games of each
    kind."""
    from bot.jsontext import loads
    from bot.store.dice_stats import NO_SEAT, tally_game

    out = []
    for k, kind in enumerate(KINDS):
        for i in range(POOL):
            players = 3 + i % 2 if kind == "mythic" else 2 + i % 3
            moves, state = play(kind, players, 1_000 * k + i)
            tallies = tally_game(kind, players, {}, [(s, a, loads(d) if d else None) for s, a, d in moves])
            rows = [
                (seat, *t.faces, t.trials, t.hits, t.expected)
                for seat, t in sorted(tallies.items())
                if seat == NO_SEAT or t.dice
            ]
            out.append((kind, players, moves, rows, state))
    return out


def rows_of(
    games: int, played: list[Any], compacted: float, first_id: int = 1, counted: bool = True
) -> dict[str, list]:
    """The rows of ``games`` finished games (ids from ``first_id``), each table's as a list of tuples."""
    from bot.jsontext import dumps, loads

    rng = random.Random(games + first_id)
    out: dict[str, list[tuple[Any, ...]]] = {"games": [], "actions": [], "results": [], "dice_tallies": []}
    for game_id in range(first_id, first_id + games):
        kind, players, moves, tallies, state = played[(game_id - 1) % len(played)]
        members = rng.sample(MEMBERS, players)
        seats = dumps([{"id": m, "name": f"m{m}"} for m in members])
        at = T0 + game_id * 60.0
        record, meta = None, LOG  # an uncompacted game keeps its public log in meta
        if rng.random() < compacted:
            meta = "{}"
            record = dumps(
                [[seq, seat, action, loads(d) if d else None] for seq, (seat, action, d) in enumerate(moves, 1)]
            )
        else:
            for seq, (seat, action, d) in enumerate(moves, start=1):
                out["actions"].append((game_id, seq, seat, action, None, at, d, None))
        row = (game_id, GUILD, game_id, kind, "finished", members[0], "{}", seats, state, meta, at, at, record)
        out["games"].append(row)
        for place, member in enumerate(members, start=1):
            result = "win" if place == 1 else "loss"
            out["results"].append((game_id, GUILD, kind, member, 0, place, 0, int(place == 1), result, at))
        if counted:
            out["dice_tallies"] += [(game_id, row[0], GUILD, kind, at, *row[1:]) for row in tallies]
    return out


COLUMNS = {
    "games": "id, guild_id, channel_id, game, status, host_id, options, seats, state, meta, created_at, updated_at,"
    " record",
    "actions": "game_id, seq, seat, action, interaction_id, at, dice, due",
    "results": "game_id, guild_id, game, user_id, is_bot, place, score, won, result, finished_at",
    "dice_tallies": "game_id, seat, guild_id, game, finished_at, n1, n2, n3, n4, n5, n6, trials, hits, expected",
}


def fill_sqlite(path: Path, rows: dict[str, list]) -> None:
    with sqlite3.connect(path) as conn:
        for table, values in rows.items():
            if values:
                marks = ",".join("?" * len(values[0]))
                conn.executemany(f"INSERT INTO {table} ({COLUMNS[table]}) VALUES ({marks})", values)


async def fill_postgres(url: str, rows: dict[str, list]) -> None:
    conn = await _postgres.connect(url)
    try:
        schema = dict(p.split("=", 1) for p in url.split("?", 1)[1].split("&"))["search_path"]
        for table, values in rows.items():
            if values:
                names = [c.strip() for c in COLUMNS[table].split(",")]
                await conn.copy_records_to_table(table, records=values, columns=names, schema_name=schema)
        await conn.execute("ANALYZE")
    finally:
        await conn.close()


async def look(store: Any, game: str | None = None, member: int | None = None) -> int:
    """One /dicestats: count what is new (the command's budget), sum, word it, draw it. The games it left."""
    from bot.store import dice_stats
    from cogs.stats import COUNT_BUDGET, dice_lines, render_dice_chart

    left = await dice_stats.catch_up(store, GUILD, budget=COUNT_BUDGET)
    stats = await dice_stats.totals(store, GUILD, game, member)
    dice_lines(stats, "en", None if member is None else "m")
    png = await asyncio.to_thread(render_dice_chart, stats.faces, "scope", "en")
    assert png.startswith(b"\x89PNG") and (stats.dice or left)
    return left


async def timed(work: Callable[[], Awaitable[Any]]) -> tuple[float, float, Any]:
    wall, cpu = time.perf_counter(), time.process_time()
    result = await work()
    return time.perf_counter() - wall, time.process_time() - cpu, result


async def measure(target: str, fill: Callable[[dict[str, list]], Awaitable[None]], args: Any, played: list) -> None:
    from bot.store import dice_stats, open_store

    store = await open_store(target)  # the schema, every migration
    await store.close()
    wall = time.perf_counter()
    await fill(rows_of(args.games, played, args.compacted))
    filled = time.perf_counter() - wall
    store = await open_store(target)
    try:
        count = (await store.fetch_one("SELECT COUNT(*) FROM actions"))[0]
        print(
            f"filled: {args.games:,} finished games, {count:,} actions rows ({args.compacted:.0%} compacted)"
            f" in {filled:.1f} s"
        )
        await look(store)  # matplotlib's import, mpmath's, the first chart: once per process
        member = next(iter(MEMBERS))
        rows = []
        for name, kwargs in (("look: server, all games", {}), ("look: server, Pig", {"game": "pig"}),
                             ("look: one member, all games", {"member": member})):  # fmt: skip
            runs = [await timed(lambda kwargs=kwargs: look(store, **kwargs)) for _ in range(args.repeat)]
            walls = sorted(r[0] for r in runs)
            worst = walls[-1]
            rows.append(
                (
                    name,
                    statistics.median(walls),
                    worst,
                    statistics.median(r[1] for r in runs),
                    verdict(worst < TARGET_S),
                )
            )
        new = rows_of(100, played, 0.0, first_id=args.games + 1, counted=False)
        await fill(new)
        w, c, left = await timed(lambda: look(store))
        rows.append(("look after 100 new games", w, w, c, verdict(w < TARGET_S and left == 0)))
        show(rows, ["what", "wall s (median)", "wall s (worst)", "CPU s here", f"under {TARGET_S:g} s"])

        await store.write([("DELETE FROM dice_tallies", ())])
        total = await dice_stats.uncounted(store, GUILD)
        w, c, left = await timed(lambda: look(store))
        counted = total - left
        rate = counted / w if w else 0.0
        print(
            f"a history never counted ({total:,} games): the first look answered in {w:.2f} s (CPU {c:.2f} s here),"
            f" having counted {counted:,} games ({rate:,.0f} games/s): {verdict(w < TARGET_S)};"
            f" the rest, {left:,}, is the background's (~{left / rate if rate else 0:,.0f} s at that rate)"
        )
        if args.full_count:
            w, c, left = await timed(lambda: dice_stats.catch_up(store, GUILD))
            print(f"counting the rest: {w:.1f} s wall, {c:.1f} s CPU here ({(total - counted) / w:,.0f} games/s)")
    finally:
        await store.close()


async def main_async(args: Any) -> None:
    header(f"/dicestats on a server with {args.games:,} finished games")
    print("leaves out: Discord (the reply, the chart's upload), the event loop's other work while a look runs")
    print(
        f"command: {Path(sys.executable).name} -m benchmarks.dice_stats {' '.join(sys.argv[1:])}  (cwd {os.getcwd()})"
    )
    wall = time.perf_counter()
    played = pool()
    moves = sum(len(p[2]) for p in played) / len(played)
    print(
        f"pool: {len(played)} games played by the engines in {time.perf_counter() - wall:.1f} s, {moves:.0f} moves each"
    )
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "dice.sqlite3"

        async def fill_sqlite_async(rows: dict[str, list]) -> None:
            await asyncio.to_thread(fill_sqlite, path, rows)

        print("\n-- SQLite (durability full, WAL) --")
        await measure(str(path), fill_sqlite_async, args, played)
        print(f"database file: {path.stat().st_size / 1e6:,.0f} MB")
    if args.postgres:
        url = _postgres.base_url(args.database_url)
        why = await _postgres.reachable(url)
        if why is not None:
            print(f"\nPostgreSQL not reachable at {_postgres.without_params(url)}: {why}; skipped")
            return
        print(f"\n-- PostgreSQL ({_postgres.describe(await _postgres.settings(url))}) --")
        schema = _postgres.scratch_name("dice_stats")
        target = await _postgres.create_schema(url, schema)
        try:

            async def fill_pg(rows: dict[str, list]) -> None:
                await fill_postgres(target, rows)

            await measure(target, fill_pg, args, played)
        finally:
            await _postgres.drop_schema(url, schema)


def main(argv: list[str] | None = None) -> None:
    p = parser(__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=None, help=f"finished games on the server (default {GAMES:,})")
    p.add_argument("--compacted", type=float, default=0.0, help="the share of them compacted by retention (0-1)")
    p.add_argument("--repeat", type=int, default=5, help="looks of each kind measured (default 5)")
    p.add_argument("--full-count", action="store_true", help="also time counting a whole history never counted")
    p.add_argument(
        "--postgres", action="store_true", help="PostgreSQL too (DICETAVERN_BENCH_POSTGRES or --database-url)"
    )
    p.add_argument("--database-url", default=None, help=f"PostgreSQL server (default {_postgres.DEFAULT_URL})")
    args = p.parse_args(argv)
    if args.games is None:
        args.games = QUICK_GAMES if args.quick else GAMES
    asyncio.run(main_async(args))


if __name__ == "__main__":
    main()
