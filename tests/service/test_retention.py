"""Retention: finished games past the period keep their row, results and verifiable record, not per-move rows."""

from __future__ import annotations

import json

import pytest

from bot.games import Action, get_engine
from bot.games.dice import ReplayDice, SeededDice
from bot.store import open_store
from bot.tables import Seat, TableService
from bot.tables import retention as retention_module
from bot.tables.retention import DAY, retention_days
from tests.waiting import eventually

GUILD = 1
ALICE, BOB = Seat(100, "Alice"), Seat(200, "Bob")


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


async def finished_pig(service, channel):
    await service.create(GUILD, channel, ALICE, "pig", {"target": 20})
    await service.join(channel, BOB)
    table = await service.start_game(channel, ALICE.id)
    while table.running:
        seat = table.state.current
        await service.act(channel, table.seats[seat].id, "hold" if table.state.turn_total >= 8 else "roll")
    return table


async def test_old_finished_games_are_compacted_in_batches_and_stay_verifiable(database, monkeypatch):
    monkeypatch.setattr(retention_module, "BATCH", 2)
    clock = Clock()
    store = await open_store(database)
    service = TableService(store, SeededDice(2), clock=clock, run_dispatcher=False, retention=30)
    await service.start()
    old = [await finished_pig(service, channel) for channel in (1, 2, 3)]
    clock.now += 20 * DAY
    recent = await finished_pig(service, 4)
    await service.create(GUILD, 5, ALICE, "pig")  # an open lobby is never touched
    before = {
        t.id: [tuple(r) for r in await store.fetch_all(
            "SELECT seq, seat, action, dice FROM actions WHERE game_id = ? ORDER BY seq", (t.id,))]
        for t in old
    }
    results = (await store.fetch_one("SELECT COUNT(*) FROM results"))[0]

    clock.now += 10 * DAY + 1  # the first three are 30 days old now, the fourth 10
    batches = store.batches
    assert await service.compact() == 3
    assert store.batches == batches + 2  # two games, then one
    for table in old:
        row = await store.fetch_one("SELECT status, state, record, meta FROM games WHERE id = ?", (table.id,))
        assert row["status"] == "finished" and row["state"] == table.engine.dumps(table.state)
        assert "log" not in json.loads(row["meta"])
        record = json.loads(row["record"])
        assert [(s, seat, a, json.dumps(d, separators=(",", ":")) if d else None) for s, seat, a, d in record] == \
            before[table.id]
        assert (await store.fetch_one("SELECT COUNT(*) FROM actions WHERE game_id = ?", (table.id,)))[0] == 0
        # the record replays the game to its final state with its own dice
        engine = get_engine("pig")
        options = engine.options(table.options)
        (_, _, _, start_dice), *moves = record
        state, _ = engine.new_game(2, options, ReplayDice(start_dice or []))
        for _, seat, action, dice in moves:
            state, _ = engine.apply(state, seat, Action.parse(action), ReplayDice(dice or []))
        assert engine.dumps(state) == table.engine.dumps(table.state)
    assert (await store.fetch_one("SELECT COUNT(*) FROM actions WHERE game_id = ?", (recent.id,)))[0] > 0
    assert (await store.fetch_one("SELECT COUNT(*) FROM results"))[0] == results
    assert await service.compact() == 0  # nothing twice
    clock.now += 21 * DAY
    assert await service.compact() == 1  # the fourth's turn
    assert (await store.fetch_one("SELECT status FROM games WHERE channel_id = 5"))[0] == "lobby"
    await service.stop()
    await store.close()


async def test_retention_zero_keeps_everything_and_the_setting_is_checked(database, monkeypatch):
    clock = Clock()
    store = await open_store(database)
    service = TableService(store, SeededDice(2), clock=clock, run_dispatcher=False, retention=0)
    await service.start()
    await finished_pig(service, 1)
    clock.now += 10_000 * DAY
    assert await service.compact() == 0
    await service.stop()
    await store.close()
    monkeypatch.setenv("DICETAVERN_RETENTION_DAYS", "7")
    assert retention_days() == 7
    monkeypatch.delenv("DICETAVERN_RETENTION_DAYS")
    assert retention_days() == 90
    for bad in ("-1", "soon"):
        with pytest.raises(ValueError):
            retention_days(bad)


async def test_the_background_task_compacts_at_start(database):
    clock = Clock()
    store = await open_store(database)
    service = TableService(store, SeededDice(2), clock=clock, run_dispatcher=False, retention=1)
    await service.start()
    await finished_pig(service, 1)
    await service.stop()
    clock.now += 2 * DAY
    service = TableService(store, SeededDice(2), clock=clock, retention=1)  # with its background tasks
    await service.start()

    async def compacted() -> bool:
        return (await store.fetch_one("SELECT record FROM games"))[0] is not None

    await eventually(compacted, what="the game to be compacted")
    assert (await store.fetch_one("SELECT COUNT(*) FROM actions"))[0] == 0
    await service.stop()
    await store.close()
