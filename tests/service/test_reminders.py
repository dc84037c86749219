"""Turn reminders in the table service: the half-time point of each turn is a second deadline."""

from __future__ import annotations

from typing import Any

import pytest

from bot.games.dice import ScriptedDice, SeededDice
from bot.store import open_store
from bot.tables import TableService
from tests.service.test_tables import ALICE, BOB, CAROL, CHANNEL, GUILD, Clock, close_service, pig_table


class Recorder:
    """A presenter that writes down what it is asked to remind."""

    def __init__(self) -> None:
        self.reminders: list[tuple[int, int, list[int], float]] = []  # (table id, version, user ids, due)

    def publish(self, table: Any, events: list[Any], *, refresh: bool = True) -> None:
        pass

    def remind(self, table: Any, user_ids: list[int], due: float) -> None:
        self.reminders.append((table.id, table.version, list(user_ids), due))


@pytest.fixture
def db(database):
    """A store target on each backend (SQLite file, PostgreSQL schema)."""
    return database


async def open_service(db: str, dice: Any, clock: Clock, presenter: Any = None) -> TableService:
    store = await open_store(db)
    service = TableService(store, dice, presenter, clock=clock, run_dispatcher=False, auto_bots=False)
    await service.start()
    return service


async def test_half_time_reminds_the_player_to_act_once_and_a_move_starts_a_new_turn(db):
    clock, seen = Clock(), Recorder()
    service = await open_service(db, ScriptedDice([3] * 10), clock, seen)
    table = await pig_table(service, ALICE, BOB)
    clock.now += 59
    await service.run_due()
    assert seen.reminders == []
    clock.now += 2  # 61 s of 120
    assert await service.run_due() == 0  # a reminder is not a deadline: nothing timed out
    assert seen.reminders == [(table.id, table.version, [ALICE.id], table.deadline)]
    clock.now += 30
    await service.run_due()
    assert len(seen.reminders) == 1  # once per turn
    await service.act(CHANNEL, ALICE.id, "roll")  # a move: the turn's time starts again
    clock.now += 59
    await service.run_due()
    assert len(seen.reminders) == 1
    clock.now += 2
    await service.run_due()
    assert seen.reminders[-1] == (table.id, table.version, [ALICE.id], table.deadline)
    await close_service(service)


async def test_a_turn_that_times_out_is_not_reminded_after_the_fact(db):
    clock, seen = Clock(), Recorder()
    service = await open_service(db, ScriptedDice([3] * 10), clock, seen)
    table = await pig_table(service, ALICE, BOB)
    clock.now += 121  # past half time and past the deadline at once
    assert await service.run_due() == 1
    assert seen.reminders == []
    assert table.engine.to_act(table.state) == (1,)
    await close_service(service)


async def test_the_half_time_follows_the_servers_turn_timeout(db):
    clock, seen = Clock(), Recorder()
    service = await open_service(db, ScriptedDice([3] * 10), clock, seen)
    await service.set_timeout(GUILD, 30)
    await pig_table(service, ALICE, BOB)
    clock.now += 16
    await service.run_due()
    assert [users for _, _, users, _ in seen.reminders] == [[ALICE.id]]
    await close_service(service)


async def test_reminders_off_for_the_server(db):
    clock, seen = Clock(), Recorder()
    service = await open_service(db, ScriptedDice([3] * 10), clock, seen)
    assert await service.reminders_on(GUILD)
    await service.set_reminders(GUILD, False)
    await pig_table(service, ALICE, BOB)
    clock.now += 61
    await service.run_due()
    assert seen.reminders == []
    await close_service(service)
    service = await open_service(db, ScriptedDice([3] * 10), clock, seen)  # the setting is stored
    assert not await service.reminders_on(GUILD)
    await service.set_reminders(GUILD, True)
    assert await service.reminders_on(GUILD)
    await close_service(service)


async def test_computer_players_and_lobbies_get_no_reminders(db):
    clock, seen = Clock(), Recorder()
    service = await open_service(db, ScriptedDice([3] * 10), clock, seen)
    await service.create(GUILD, CHANNEL, ALICE, "pig")
    clock.now += 61
    await service.run_due()
    assert seen.reminders == []  # a lobby
    await service.add_computer(CHANNEL, ALICE.id, "normal", "Robo")
    table = await service.start_game(CHANNEL, ALICE.id)
    await service.act(CHANNEL, ALICE.id, "roll")
    await service.act(CHANNEL, ALICE.id, "hold")
    assert table.seats[table.engine.to_act(table.state)[0]].is_bot
    clock.now += 61
    await service.run_due()
    assert seen.reminders == []
    await close_service(service)


async def test_players_bidding_at_once_share_one_reminder(db):
    clock, seen = Clock(), Recorder()
    service = await open_service(db, SeededDice(4), clock, seen)
    await service.create(GUILD, CHANNEL, ALICE, "mythic")
    await service.join(CHANNEL, BOB)
    await service.join(CHANNEL, CAROL)
    await service.add_computer(CHANNEL, ALICE.id, "normal", "Robo")
    table = await service.start_game(CHANNEL, ALICE.id)
    assert len(table.engine.to_act(table.state)) == 4  # everyone bids at once
    await service.act(CHANNEL, BOB.id, "bid:0")
    clock.now += 61
    await service.run_due()
    assert [users for _, _, users, _ in seen.reminders] == [[ALICE.id, CAROL.id]]  # not bob, not the computer
    await close_service(service)


async def test_after_a_restart_a_turn_past_half_time_is_reminded_once_a_presenter_attaches(db):
    clock = Clock()
    service = await open_service(db, ScriptedDice([3] * 10), clock)
    await pig_table(service, ALICE, BOB)
    await service.act(CHANNEL, ALICE.id, "roll")
    await close_service(service)

    clock.now += 70  # the bot was down past half of alice's turn
    service = await open_service(db, ScriptedDice([3] * 10), clock)  # no presenter yet (the Discord one attaches
    await service.run_due()  # after start-up): nothing to remind with
    seen = Recorder()
    service.presenter = seen
    await service.run_due()
    table = service.table(CHANNEL)
    assert seen.reminders == [(table.id, table.version, [ALICE.id], table.deadline)]
    again = Recorder()
    service.presenter = again  # a presenter attached later is told again; it skips what it already shows
    await service.run_due()
    assert again.reminders == seen.reminders
    await close_service(service)


async def test_the_half_time_after_a_restart_is_that_of_the_turn_not_of_the_restart(db):
    clock, seen = Clock(), Recorder()
    service = await open_service(db, ScriptedDice([3] * 10), clock, seen)
    await pig_table(service, ALICE, BOB)
    await close_service(service)
    clock.now += 30
    service = await open_service(db, ScriptedDice([3] * 10), clock, seen)
    clock.now += 29  # 59 s into the turn
    await service.run_due()
    assert seen.reminders == []
    clock.now += 2
    await service.run_due()
    assert len(seen.reminders) == 1
    await close_service(service)


async def test_a_presenter_without_remind_plays_on_without_reminders(db):
    class Plain:  # like the terminal's presenter
        def publish(self, table: Any, events: list[Any], *, refresh: bool = True) -> None:
            pass

    clock = Clock()
    service = await open_service(db, ScriptedDice([3] * 10), clock, Plain())
    table = await pig_table(service, ALICE, BOB)
    clock.now += 61
    assert await service.run_due() == 0
    assert table.running
    await close_service(service)
