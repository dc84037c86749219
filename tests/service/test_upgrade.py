"""The one-off upgrade of older rows (bot.tables.upgrade): each data format older code wrote, converted at start-up,
restores the game as today's format of the same game does; a second run changes nothing; it runs once."""

from __future__ import annotations

import json
import random

import pytest

from bot.games.dice import SeededDice
from bot.games.fair import FairDice
from bot.store import SQL, open_store
from bot.tables import Seat, TableService
from bot.tables import service as service_module
from bot.tables.dice import TableDice
from bot.tables.upgrade import upgrade

GUILD, CHANNEL = 1, 10
SEATS = [Seat(100, "Alice"), Seat(200, "Bob"), Seat(300, "Carol")]
PENDING = ("DELETE FROM data_upgrades", ())  # the database as older code left it: not converted yet


def without(key: str) -> SQL:
    """A running game's meta as the code before ``key`` wrote it."""
    return SQL(
        sqlite=f"UPDATE games SET meta = json_remove(meta, '$.{key}') WHERE status = 'running'",
        postgresql=f"UPDATE games SET meta = (meta::jsonb - '{key}')::text WHERE status = 'running'",
    )


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def fixed_fair() -> FairDice:
    return FairDice(bytes(range(32)), "")


async def open_service(db, dice, clock):
    service = TableService(await open_store(db), dice, clock=clock, run_dispatcher=False, auto_bots=False)
    await service.start()
    return service


async def close(service) -> None:
    await service.stop()
    await service.store.close()


async def write(db, *statements) -> None:
    store = await open_store(db)
    await store.write(list(statements))
    await store.close()


async def play(db, dice, clock, moves: int = 13) -> None:
    """A three-player Liar's Dice game, ``moves`` turns in (fewer than 64 actions): moves with interaction ids (as
    snowflakes and as text), and a turn left to time out."""
    rng = random.Random(3)
    service = await open_service(db, dice, clock)
    await service.create(GUILD, CHANNEL, SEATS[0], "liar", {"mode": "lose_die"})
    for seat in SEATS[1:]:
        await service.join(CHANNEL, seat)
    table = await service.start_game(CHANNEL, SEATS[0].id)
    for n in range(moves):
        clock.now += 3
        if n == 4:
            clock.now = table.deadline + 1
            assert await service.run_due() == 1
            continue
        seat = table.engine.to_act(table.state)[0]
        iid = str(1_250_000_000_000_000_000 + n) if n % 2 else f"i{n}"
        action = rng.choice(table.engine.legal_actions(table.state, seat)[:3])  # low bids: the game goes on
        await service.act(CHANNEL, table.seats[seat].id, action, iid, seen_version=table.version)
    assert table.running
    await close(service)


def picture(service) -> tuple:
    """What a restore brings back (the guard as a dict: the order its keys are stored in is no behaviour)."""
    table = service.table(CHANNEL)
    meta = json.loads(table.meta())
    meta["acted"] = sorted(meta["acted"])
    meta.pop("seen", None)  # (as list(table.seen) below)
    fair = None if table.fair is None else (table.fair.commitment, table.fair.client_seed, table.fair.nonce)
    state = None if table.state is None else table.engine.dumps(table.state)
    return (state, meta, table.version, table.deadline, list(table.seen), table.status, table.draws, fair)


async def restored(db, dice, clock) -> tuple:
    service = await open_service(db, dice, clock)
    try:
        return picture(service)
    finally:
        await close(service)


async def rows(db) -> list:
    store = await open_store(db)
    try:
        return [
            [tuple(r) for r in await store.fetch_all(f"SELECT * FROM {table} ORDER BY 1, 2")]
            for table in ("games", "actions", "deadlines")
        ]
    finally:
        await store.close()


async def upgraded_twice(db, dice, clock) -> tuple:
    """Restore after the upgrade; then the upgrade once more (as if never recorded): no row changes, the same table."""
    first = await restored(db, dice, clock)
    converted = await rows(db)
    await write(db, PENDING)
    assert await restored(db, dice, clock) == first
    assert await rows(db) == converted
    return first


@pytest.mark.parametrize(
    "missing",
    [("acted",), ("seen",), ("draws",), ("acted", "seen", "draws")],
    ids=lambda keys: "+".join(keys),
)
async def test_a_running_games_meta_from_before_a_key_restores_as_todays(database, new_database, missing):
    """Meta from before the double-click guard (acted), the recent ids (seen) and the fair draws count (draws)."""
    clock = Clock()
    reference = await new_database()
    await play(reference, fixed_fair, clock)
    expected = await restored(reference, fixed_fair, clock)
    assert expected[4] and expected[7] is not None  # (the game has interaction ids and fair dice to restore)

    await play(database, fixed_fair, Clock())
    await write(database, *[(without(key), ()) for key in missing], PENDING)
    assert await upgraded_twice(database, fixed_fair, Clock()) == expected


async def test_a_lobby_from_before_fair_dice_is_given_its_commitment_once(database):
    service = await open_service(database, SeededDice(1), Clock())  # plain dice: the lobby has no games.fair
    await service.create(GUILD, CHANNEL, SEATS[0], "pig", {})
    await close(service)
    await write(database, PENDING)
    first = await upgraded_twice(database, None, Clock())
    assert first[7] is not None  # its commitment, made once, stored, and the same at every restore after
    store = await open_store(database)
    stored = json.loads((await store.fetch_one("SELECT fair FROM games"))[0])
    await store.close()
    assert stored["commitment"] == first[7][0] and stored["client_seed"] is None


async def test_a_lobby_of_plain_dice_stays_without_a_commitment(database):
    """A service whose dice are not fair upgrades no lobby (as its restore gave them its dice before)."""
    service = await open_service(database, SeededDice(1), Clock())
    await service.create(GUILD, CHANNEL, SEATS[0], "pig", {})
    await close(service)
    await write(database, PENDING)
    assert (await upgraded_twice(database, SeededDice(1), Clock()))[7] is None


@pytest.mark.parametrize("log", ["undated", "none"])
async def test_a_game_written_with_every_move_restores_its_deadline_from_the_deadlines_row(
    database, new_database, monkeypatch, log
):
    """The old write pattern (the games row after every move, the deadline upserted into the deadlines row), with a
    log whose rows have no deadline (before 0004) or no log at all (before the actions table)."""
    monkeypatch.setattr(service_module, "SNAPSHOT_EVERY", 1)
    clock = Clock()
    reference = await new_database()
    await play(reference, SeededDice(4), clock)
    expected = await restored(reference, SeededDice(4), clock)

    await play(database, SeededDice(4), Clock())
    old = "UPDATE actions SET due = NULL" if log == "undated" else "DELETE FROM actions"
    await write(database, (old, ()), ("UPDATE deadlines SET due = ?", (expected[3],)), PENDING)
    got = await upgraded_twice(database, SeededDice(4), Clock())
    if log == "none":  # its last move's id was only ever in the log (a snapshot precedes its own move's id)
        expected = (*expected[:4], expected[4][:-1], *expected[5:])
    assert got == expected


async def test_the_upgrade_runs_once_per_database(database):
    store = await open_store(database)
    try:
        await store.write([PENDING])
        assert await upgrade(store, TableDice(None), 5.0)
        assert not await upgrade(store, TableDice(None), 6.0)
        assert [tuple(r) for r in await store.fetch_all("SELECT name, done_at FROM data_upgrades")] == [
            ("one-format", 5.0)
        ]
    finally:
        await store.close()
