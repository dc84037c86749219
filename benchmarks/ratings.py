"""Ratings (issue 15): the back-fill of a database's stored results, and the cost of rating one finished game.

* **back-fill**: a database at migration 0007 holding ``GAMES`` finished games (3 servers, 300 members, 2 to 5
  seats, a computer player in about one game in three, every game kind) is opened: migration 0008 and its Python
  back-fill run (``bot.store.ratings.backfill``: every board, in finish order). Wall and CPU of the whole
  migration, fsync included; target under 5 s for 10,000 games.
* **one finish**: the Step a finished game adds to its results' transaction (read the seats' ratings in two
  boards, rate, write ratings and history), run on the populated database inside a transaction, median and worst.
  It runs on the store's thread, never on the event loop, and only when a game ends.

    python -m benchmarks.ratings            # 10,000 games, ~10 s
    python -m benchmarks.ratings --quick    # 1,000 games
"""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
import statistics
import tempfile
import time
from importlib import resources
from pathlib import Path

from benchmarks._common import header, parser, show, verdict

GAMES = 10_000
TARGET_S = 5.0
KINDS = ("pig", "mia", "mex", "liar", "mythic")
LEVELS = ("easy", "normal", "hard")


def old_database(path: Path, games: int, seed: int = 15) -> None:
    """A database at migration 0007 with ``games`` finished games and their results."""
    folder = resources.files("bot.store") / "migrations"
    rng = random.Random(seed)
    with sqlite3.connect(path) as conn:
        for number in range(1, 8):
            (script,) = [f for f in folder.iterdir() if f.name.startswith(f"{number:04d}_")]
            conn.executescript(script.read_text(encoding="utf-8"))
        conn.execute("PRAGMA user_version = 7")
        game_rows, result_rows = [], []
        for game_id in range(1, games + 1):
            guild = 1 + game_id % 3
            members = rng.sample(range(1_000, 1_300), rng.randint(2, 4))
            seats = [{"id": m, "name": f"m{m}"} for m in members]
            if rng.random() < 0.35:
                seats.append({"id": -1, "name": "Robo", "level": rng.choice(LEVELS)})
            finished = 1_700_000_000.0 + game_id * 60 + rng.random()
            kind = rng.choice(KINDS)
            game_rows.append((game_id, guild, kind, json.dumps(seats), finished))
            order = rng.sample(seats, len(seats))
            for place, seat in enumerate(order, start=1):
                result = "win" if place == 1 else "loss"
                result_rows.append(
                    (game_id, guild, kind, seat["id"], "level" in seat, place, rng.randint(0, 50), place == 1, result)
                    + (finished,)
                )
        conn.executemany(
            "INSERT INTO games (id, guild_id, channel_id, game, status, host_id, options, seats, created_at,"
            " updated_at) VALUES (?, ?, 1, ?, 'finished', 1, '{}', ?, 0, ?)",
            game_rows,
        )
        conn.executemany(
            "INSERT INTO results (game_id, guild_id, game, user_id, is_bot, place, score, won, result, finished_at)"
            " VALUES (?,?,?,?,?,?,?,?,?,?)",
            result_rows,
        )


async def migrate(path: Path) -> tuple[float, float, int, int]:
    """Open the store (0008 and its back-fill run): (wall s, CPU s, ratings rows, history rows)."""
    from bot.store import open_store

    wall, cpu = time.perf_counter(), time.process_time()
    store = await open_store(path)
    elapsed = time.perf_counter() - wall, time.process_time() - cpu
    counts = await store.fetch_one("SELECT (SELECT COUNT(*) FROM ratings), (SELECT COUNT(*) FROM rating_history)")
    await store.close()
    assert counts is not None
    return elapsed[0], elapsed[1], counts[0], counts[1]


def one_finish(path: Path, repeats: int) -> tuple[list[float], list[float]]:
    """The rating Step of a 4-seat game (3 members and a Hard computer) on the populated database: ms each."""
    from bot.ratings import Finish
    from bot.store.ratings import record

    rng = random.Random(7)
    conn = sqlite3.connect(path, isolation_level=None)
    walls, cpus = [], []
    try:
        for n in range(repeats):
            members = rng.sample(range(1_000, 1_300), 3)
            finishes = [Finish(m, place, "win" if place == 1 else "loss") for place, m in enumerate(members, 1)]
            finishes.append(Finish(-3, 4, "loss"))
            step = record(1_000_000 + n, 1, "pig", finishes, 1_800_000_000.0 + n)
            cursor = conn.cursor()
            cursor.execute("BEGIN IMMEDIATE")
            wall, cpu = time.perf_counter(), time.process_time()
            step(cursor)
            walls.append((time.perf_counter() - wall) * 1000)
            cpus.append((time.process_time() - cpu) * 1000)
            cursor.execute("ROLLBACK")  # the database stays as the back-fill left it
    finally:
        conn.close()
    return walls, cpus


def main() -> None:
    args = parser(__doc__.split("\n")[0]).parse_args()
    games = GAMES // 10 if args.quick else GAMES
    header(f"ratings: back-fill of {games:,} stored games (migration 0008), and one finished game's rating")
    print("leaves out: Discord, the rest of the finished game's transaction (results, the games row), the event loop")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "old.sqlite3"
        old_database(path, games)
        wall, cpu, ratings, history = asyncio.run(migrate(path))
        show(
            [[f"{games:,} games", wall, cpu, ratings, history, verdict(wall < TARGET_S * games / GAMES)]],
            ["back-fill", "wall s", "CPU s", "ratings rows", "history rows", "target"],
        )
        walls, cpus = one_finish(path, 50 if args.quick else 300)
        walls.sort()
        show(
            [["4 seats, 2 boards", statistics.median(walls), statistics.median(cpus), walls[-1]]],
            ["one finish", "median wall ms", "median CPU ms", "worst wall ms"],
        )
    print(
        f"target: the back-fill of {GAMES:,} games under {TARGET_S:.0f} s. Wall above CPU: fsync, or other processes."
    )


if __name__ == "__main__":
    main()
