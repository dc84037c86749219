"""What the lease fence costs a write batch: the same one-statement batches with ``store.fence`` None and a Leases.

Every bot holds leases on its shards (one process on SQLite too: shard 0 of 1), so every write batch first reads its
leases in the same transaction (``bot.store.leases``). This measures that read: sequential batches of one action
INSERT, fence off and on, alternating rounds, on SQLite (durability fast: no fsync, so the read is not hidden behind
one; and full) and on PostgreSQL when a server answers (a scratch schema, dropped after).

    /work/venv/bin/python -m benchmarks.fence [--quick] [--batches N]
"""

from __future__ import annotations

import asyncio
import tempfile
import time
from pathlib import Path

from benchmarks import _postgres
from benchmarks._common import header, parser, show
from bot.store import Store, open_store
from bot.store.leases import Leases

ROUNDS = 3


async def measure(store: Store, fenced: bool, batches: int, first_seq: int) -> tuple[float, float]:
    """(wall µs, this process's CPU µs) per batch."""
    store.fence = None
    if fenced:
        leases = Leases(store, [0], 1, ttl=600)
        await leases.acquire()
        store.fence = leases
    insert = "INSERT INTO actions (game_id, seq, seat, action, at) VALUES (1, ?, 0, 'roll', 0)"
    wall, cpu = time.perf_counter(), time.process_time()
    for seq in range(first_seq, first_seq + batches):
        await store.write([(insert, (seq,))])
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    store.fence = None
    return wall / batches * 1e6, cpu / batches * 1e6


async def run_store(
    name: str, target: str, batches: int, rows: list[list[object]], durability: str | None = None
) -> None:
    store = await open_store(target, durability=durability)
    try:
        await store.write(
            [
                (
                    "INSERT INTO games (guild_id, channel_id, game, status, host_id, options, seats, version, meta,"
                    " created_at, updated_at) VALUES (1, 1, 'pig', 'running', 1, '{}', '[]', 0, '{}', 0, 0)",
                    (),
                )
            ]
        )
        await measure(store, True, 50, 1)  # warm: statements prepared, leases table read once
        seq = 100
        found: dict[bool, list[tuple[float, float]]] = {False: [], True: []}
        for _ in range(ROUNDS):
            for fenced in (False, True):
                found[fenced].append(await measure(store, fenced, batches, seq))
                seq += batches
        plain, fenced_ = (min(found[f], key=lambda r: r[0]) for f in (False, True))
        rows.append([name, plain[0], fenced_[0], fenced_[0] - plain[0], plain[1], fenced_[1], fenced_[1] - plain[1]])
    finally:
        await store.close()


async def main() -> None:
    args = parser(__doc__.splitlines()[0]).parse_args()
    batches = 200 if args.quick else 2000
    header(f"lease fence: {batches} one-INSERT batches in a row, best of {ROUNDS} alternating rounds")
    print(
        "leaves out: the rest of a batch (the service, more statements than one INSERT), Discord, the event loop's "
        "other work"
    )
    rows: list[list[object]] = []
    with tempfile.TemporaryDirectory() as folder:
        for durability in ("fast", "full"):
            path = Path(folder) / f"{durability}.sqlite3"
            await run_store(f"SQLite ({durability})", str(path), batches, rows, durability)
    url = _postgres.base_url()
    why = await _postgres.reachable(url)
    if why is None:
        schema = _postgres.scratch_name("fence")
        target = await _postgres.create_schema(url, schema)
        try:
            await run_store("PostgreSQL", target, batches, rows)
        finally:
            await _postgres.drop_schema(url, schema)
    show(rows, ["store", "wall µs", "fenced", "+", "CPU µs", "fenced", "+"])
    if why is not None:
        print(f"PostgreSQL not measured: {why}")
    print("(CPU: this process only; PostgreSQL's own backends are other processes)")


if __name__ == "__main__":
    asyncio.run(main())
