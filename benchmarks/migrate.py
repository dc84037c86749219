"""``dicetavern migrate`` speed: a synthetic SQLite database of finished games copied to PostgreSQL (COPY) and back.

The database: ``--games`` finished Pig games, each with ``--actions`` action rows, two results, ratings and rating
history rows for two players, as the bot writes them (the rows' sizes are close to real ones: short JSON actions,
a ~1 KB state). Each direction is run ``--repeats`` times into a fresh target (a new schema of ``--database-url``,
a new SQLite file) and reported as rows/s over the whole command: migrations, the copy, the read-back verification
and the commit. CPU "here" is this process (``time.process_time()``); PostgreSQL's own work is not in it. The
server is ``--database-url``, else ``DICETAVERN_BENCH_POSTGRES``, else the local one; without one it says "skipped".

    python -m benchmarks.migrate            # 2,000 games x 100 actions: 214,028 rows, ~1 min
    python -m benchmarks.migrate --quick    # 200 games, one run each way
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path

from benchmarks import _postgres
from benchmarks._common import header, parser, show
from bot.store import open_store
from bot.store.copy import copy_database


async def build(path: Path, games: int, actions: int) -> int:
    """A SQLite database at the current schema holding ``games`` finished games; returns its row count."""
    await (await open_store(path)).close()  # the schema
    conn = sqlite3.connect(path)
    state = json.dumps({"scores": [57, 100], "turn": 0, "log": ["roll 4"] * 80})
    with conn:
        for game in range(1, games + 1):
            guild, at = 10 + game % 7, 1_700_000_000.0 + game * 60
            conn.execute(
                "INSERT INTO games (id, guild_id, channel_id, game, status, host_id, options, seats, state, version,"
                " meta, created_at, updated_at) VALUES (?, ?, ?, 'pig', 'finished', 1, '{\"target\": 100}',"
                ' \'[{"id": 1, "name": "A"}, {"id": 2, "name": "B"}]\', ?, ?, \'{}\', ?, ?)',
                (game, guild, 1000 + game, state, actions, at, at + 50),
            )
            conn.executemany(
                "INSERT INTO actions (game_id, seq, seat, action, interaction_id, at, dice, due)"
                " VALUES (?, ?, ?, 'roll', ?, ?, '[[\"r\", 6, [4]]]', ?)",
                [(game, seq, seq % 2, str(10**18 + seq), at + seq, at + seq + 120) for seq in range(1, actions + 1)],
            )
            for user, place in ((1, 1), (2, 2)):
                conn.execute(
                    "INSERT INTO results (game_id, guild_id, game, user_id, place, score, won, finished_at, result)"
                    " VALUES (?, ?, 'pig', ?, ?, ?, ?, ?, ?)",
                    (
                        game,
                        guild,
                        user,
                        place,
                        100 if place == 1 else 57,
                        place == 1,
                        at + 50,
                        "win" if place == 1 else "loss",
                    ),
                )
                for kind in ("pig", "all"):
                    conn.execute(
                        "INSERT INTO rating_history VALUES (?, ?, ?, 0, ?, 25.5, 8.1, 1.2, ?)",
                        (game, user, guild, kind, at + 50),
                    )
        for guild in range(10, 17):
            for user in (1, 2):
                for kind in ("pig", "all"):
                    conn.execute(
                        "INSERT INTO ratings (guild_id, season, game, user_id, mu, sigma, ordinal, games, updated_at)"
                        " VALUES (?, 0, ?, ?, 25.5, 8.1, 1.2, 9, 0)",
                        (guild, kind, user),
                    )
    rows = sum(
        conn.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0]
        for t in ("games", "actions", "results", "ratings", "rating_history")
    )
    conn.close()
    return rows


async def timed(source: str, target: str) -> tuple[float, float, int]:
    wall, cpu = time.perf_counter(), time.process_time()
    report = await copy_database(source, target)
    assert report.ok and report.committed
    return time.perf_counter() - wall, time.process_time() - cpu, report.rows


async def one_run(direction: str, source: Path, url: str, folder: Path) -> tuple[float, float, int]:
    """One copy in ``direction`` into a fresh target; PostgreSQL -> SQLite first fills a scratch schema to copy."""
    schema = _postgres.scratch_name("migrate")
    target = await _postgres.create_schema(url, schema)
    try:
        if direction == SQLITE_TO_PG:
            return await timed(f"sqlite:{source}", target)
        await copy_database(f"sqlite:{source}", target)
        return await timed(target, f"sqlite:{folder / f'{schema}.sqlite3'}")
    finally:
        await _postgres.drop_schema(url, schema)


SQLITE_TO_PG, PG_TO_SQLITE = "SQLite -> PostgreSQL", "PostgreSQL -> SQLite"


async def main() -> None:
    p = parser(__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=None, help="finished games in the database (default 2,000)")
    p.add_argument("--actions", type=int, default=100, help="action rows per game")
    p.add_argument("--repeats", type=int, default=None, help="runs per direction (default 3)")
    p.add_argument("--database-url", default=None, help=f"PostgreSQL (default: {_postgres.URL_ENV} or the local one)")
    args = p.parse_args()
    games = args.games or (200 if args.quick else 2000)
    repeats = args.repeats or (1 if args.quick else 3)
    url = _postgres.base_url(args.database_url)
    header(f"migrate: {games:,} finished games x {args.actions} actions, both directions, {repeats} run(s) each")
    print("leaves out: the running bot (an offline command) and PostgreSQL's server CPU")
    why = await _postgres.reachable(url)
    if why is not None:
        print(f"skipped: no PostgreSQL at {url} ({why})")
        return
    print(f"server: {_postgres.describe(await _postgres.settings(url))}")
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        source = folder / "source.sqlite3"
        rows = await build(source, games, args.actions)
        print(f"source: {rows:,} rows, {source.stat().st_size / 1e6:.1f} MB")
        results = []
        for direction in (SQLITE_TO_PG, PG_TO_SQLITE):
            runs = [await one_run(direction, source, url, folder) for _ in range(repeats)]
            assert all(copied == rows for _, _, copied in runs)
            wall = statistics.median(r[0] for r in runs)
            cpu = statistics.median(r[1] for r in runs)
            results.append([direction, wall, cpu, rows / wall])
        show(results, ["direction", "wall s (median)", "CPU s here", "rows/s"])
    print("Wall is the whole command (schema, copy, read-back check, commit); PostgreSQL's own CPU is not in 'here'.")


if __name__ == "__main__":
    asyncio.run(main())
