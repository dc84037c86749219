"""The host's lobby tools: removing a player, handing over the host role, and the host leaving."""

from __future__ import annotations

import json

import pytest

from bot.games.dice import SeededDice
from bot.tables import Seat, TableError
from tests.service.test_tables import ALICE, BOB, CAROL, CHANNEL, GUILD, close_service, open_service

ROBOT = Seat(-1, "Easy bot 1", "easy")


async def lobby(service, *seats):
    await service.create(GUILD, CHANNEL, seats[0], "pig")
    for seat in seats[1:]:
        await service.join(CHANNEL, seat)
    return service.table(CHANNEL)


async def stored(service):
    return await service.store.fetch_one(
        "SELECT host_id, seats, meta, status FROM games WHERE channel_id = ?", (CHANNEL,)
    )


@pytest.fixture
def db(database):
    """A store target on each backend (SQLite file, PostgreSQL schema)."""
    return database


def refused(code):
    return pytest.raises(TableError, match=f"^{code}$")


async def test_the_host_removes_a_person_and_a_computer_player_and_it_is_committed_and_logged(db):
    service = await open_service(db, SeededDice(1))
    table = await lobby(service, ALICE, BOB, ROBOT, CAROL)
    removed = await service.remove_player(CHANNEL, ALICE.id, BOB.id)
    assert removed == BOB
    assert [s.id for s in table.seats] == [ALICE.id, ROBOT.id, CAROL.id]
    assert await service.remove_player(CHANNEL, ALICE.id, ROBOT.id) == ROBOT
    assert [s.id for s in table.seats] == [ALICE.id, CAROL.id]
    row = await stored(service)
    assert [s["id"] for s in json.loads(row["seats"])] == [ALICE.id, CAROL.id]
    assert [tuple(e) for e in json.loads(row["meta"])["log"]] == [
        ("removed", {"name": "Bob"}),
        ("removed", {"name": "Easy bot 1"}),
    ]
    await close_service(service)
    service = await open_service(db, SeededDice(1))  # survives a restart, log included
    table = service.table(CHANNEL)
    assert [s.id for s in table.seats] == [ALICE.id, CAROL.id] and table.log[-1][0] == "removed"
    await service.join(CHANNEL, BOB)  # removing is not a ban: Bob may come back
    await close_service(service)


async def test_removing_is_refused_for_others_outsiders_oneself_and_a_running_game(db):
    service = await open_service(db, SeededDice(1))
    table = await lobby(service, ALICE, BOB, CAROL)
    with refused("only_host_remove"):
        await service.remove_player(CHANNEL, BOB.id, CAROL.id)
    with refused("target_not_seated"):
        await service.remove_player(CHANNEL, ALICE.id, 999)
    with refused("remove_self"):
        await service.remove_player(CHANNEL, ALICE.id, ALICE.id)
    assert [s.id for s in table.seats] == [ALICE.id, BOB.id, CAROL.id]
    await service.start_game(CHANNEL, ALICE.id)
    with refused("not_in_lobby"):
        await service.remove_player(CHANNEL, ALICE.id, BOB.id)
    with refused("not_in_lobby"):
        await service.transfer_host(CHANNEL, ALICE.id, BOB.id)
    assert len(table.seats) == 3 and table.host_id == ALICE.id
    await close_service(service)


async def test_a_server_manager_may_remove_even_the_host_and_the_role_passes_on(db):
    service = await open_service(db, SeededDice(1))
    table = await lobby(service, ALICE, ROBOT, BOB)
    await service.remove_player(CHANNEL, CAROL.id, ALICE.id, is_admin=True)
    assert table.host_id == BOB.id and [s.id for s in table.seats] == [ROBOT.id, BOB.id]
    assert [e[0] for e in table.log] == ["removed", "new_host"]
    await service.remove_player(CHANNEL, CAROL.id, BOB.id, is_admin=True)  # only a computer left: closed
    assert CHANNEL not in service.by_channel and table.status == "cancelled"
    assert (await stored(service))["status"] == "cancelled"
    await close_service(service)


async def test_the_host_hands_over_the_role_and_only_to_another_person(db):
    service = await open_service(db, SeededDice(1))
    table = await lobby(service, ALICE, ROBOT, BOB, CAROL)
    with refused("only_host_transfer"):
        await service.transfer_host(CHANNEL, BOB.id, BOB.id)
    with refused("host_to_computer"):
        await service.transfer_host(CHANNEL, ALICE.id, ROBOT.id)
    with pytest.raises(TableError) as error:
        await service.transfer_host(CHANNEL, ALICE.id, ALICE.id)
    assert error.value.code == "already_host" and error.value.params == {"name": "Alice"}
    with refused("target_not_seated"):
        await service.transfer_host(CHANNEL, ALICE.id, 999)
    assert table.host_id == ALICE.id
    assert await service.transfer_host(CHANNEL, ALICE.id, CAROL.id) == CAROL
    assert table.host_id == CAROL.id and (await stored(service))["host_id"] == CAROL.id
    assert table.log[-1] == ("new_host", {"name": "Carol"})
    with refused("only_host"):
        await service.start_game(CHANNEL, ALICE.id)  # Alice is a player now, not the host
    await service.transfer_host(CHANNEL, ALICE.id, BOB.id, is_admin=True)  # a server manager may
    assert table.host_id == BOB.id
    await close_service(service)
    service = await open_service(db, SeededDice(1))
    assert service.table(CHANNEL).host_id == BOB.id  # persisted
    await service.start_game(CHANNEL, BOB.id)
    await close_service(service)


async def test_a_leaving_host_hands_the_role_to_the_next_person_in_seat_order(db):
    service = await open_service(db, SeededDice(1))
    table = await lobby(service, ALICE, BOB, ROBOT, CAROL)
    await service.transfer_host(CHANNEL, ALICE.id, BOB.id)
    await service.leave(CHANNEL, BOB.id)  # next after Bob: the computer is skipped, Carol hosts
    assert table.host_id == CAROL.id
    assert list(table.log)[-2:] == [("left", {"name": "Bob"}), ("new_host", {"name": "Carol"})]
    await service.leave(CHANNEL, CAROL.id)  # wraps around to Alice
    assert table.host_id == ALICE.id and (await stored(service))["host_id"] == ALICE.id
    await service.leave(CHANNEL, ALICE.id)  # no person left: the lobby closes rather than strand a computer
    assert CHANNEL not in service.by_channel and (await stored(service))["status"] == "cancelled"
    await close_service(service)


async def test_nothing_changes_in_memory_when_the_commit_fails(db):
    service = await open_service(db, SeededDice(1))
    table = await lobby(service, ALICE, BOB)

    async def broken_write(statements):
        raise OSError("disk full")

    real_write, service.store.write = service.store.write, broken_write
    for attempt in (service.remove_player(CHANNEL, ALICE.id, BOB.id), service.transfer_host(CHANNEL, ALICE.id, BOB.id)):
        with pytest.raises(OSError):
            await attempt
    assert [s.id for s in table.seats] == [ALICE.id, BOB.id] and table.host_id == ALICE.id and not table.log
    service.store.write = real_write
    await close_service(service)
