"""``dicetavern migrate`` speed: a synthetic SQLite database of finished games copied to PostgreSQL (COPY) and back.

The database: ``--games`` finished Pig games, each with ``--actions`` action rows, two results, ratings and rating
history rows for two players, as the bot writes them (the rows' sizes are close to real ones: short JSON actions,
a ~1 KB state). Each direction is run ``--repeats`` times into a fresh target (a new schema of ``--database-url``,
a new SQLite file) and reported as rows/s over the whole command: migrations, the copy, the read-back verification
and the commit. CPU "here" is this process (``time.process_time()``); PostgreSQL's own work is not in it.

    python -m benchmarks.migrate                       # 2,000 games x 100 actions: ~210,000 rows
    python -m benchmarks.migrate --games 200 --repeats 1
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sqlite3
import statistics
import tempfile
import time
import uuid
from pathlib import Path

import asyncpg  # type: ignore[import-untyped]

from bot.store import Store
from bot.store.copy import copy_database

DEFAULT_URL = "postgresql://postgres@127.0.0.1:5432/test"


async def build(path: Path, games: int, actions: int) -> int:
    """A SQLite database at the current schema holding ``games`` finished games; returns its row count."""
    await (await Store.open(path)).close()  # the schema
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


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--actions", type=int, default=100)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--database-url", default=DEFAULT_URL)
    args = parser.parse_args()
    admin = await asyncpg.connect(args.database_url)
    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder) / "source.sqlite3"
        rows = await build(source, args.games, args.actions)
        print(f"{rows:,} rows ({args.games:,} games x {args.actions} actions), {source.stat().st_size / 1e6:.1f} MB")
        for direction in ("sqlite -> postgresql", "postgresql -> sqlite"):
            walls, cpus = [], []
            for n in range(args.repeats):
                schema = f"bench_{uuid.uuid4().hex[:10]}"
                await admin.execute(f"CREATE SCHEMA {schema}")
                url = f"{args.database_url}{'&' if '?' in args.database_url else '?'}search_path={schema}"
                try:
                    if direction.startswith("sqlite"):
                        wall, cpu, copied = await timed(f"sqlite:{source}", url)
                    else:
                        await copy_database(f"sqlite:{source}", url)
                        wall, cpu, copied = await timed(url, f"sqlite:{Path(folder) / f'back{n}.sqlite3'}")
                finally:
                    await admin.execute(f"DROP SCHEMA {schema} CASCADE")
                assert copied == rows
                walls.append(wall)
                cpus.append(cpu)
            wall, cpu = statistics.median(walls), statistics.median(cpus)
            print(
                f"{direction:<22} {wall:6.2f} s wall, {cpu:6.2f} s CPU here (median of {args.repeats}):"
                f" {rows / wall:,.0f} rows/s"
            )
    await admin.close()


if __name__ == "__main__":
    asyncio.run(main())
