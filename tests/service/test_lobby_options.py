"""The lobby's options changed by the host (the ⚙ form's service side) and a lobby opened with guests (a rematch's
computer players): validated as a create validates them, committed before anything is shown, nothing changed on a
refusal."""

from __future__ import annotations

import json

import pytest

from bot.games import Event
from bot.games.dice import SeededDice
from bot.tables import Seat
from tests.service.test_lobby_host_tools import ROBOT, refused
from tests.service.test_tables import ALICE, BOB, CHANNEL, GUILD, close_service, open_service


async def stored(service):
    row = await service.store.fetch_one("SELECT options, meta FROM games WHERE channel_id = ?", (CHANNEL,))
    return json.loads(row["options"]), json.loads(row["meta"])


async def test_the_host_changes_the_lobbys_options_and_they_are_committed_logged_and_kept_after_a_restart(database):
    service = await open_service(database, SeededDice(1))
    await service.create(GUILD, CHANNEL, ALICE, "liar")
    await service.join(CHANNEL, BOB)
    table = await service.set_options(CHANNEL, ALICE.id, {"mode": "loot", "wild_ones": "true"})
    assert table.options["mode"] == "loot" and table.options["wild_ones"] is True
    options, meta = await stored(service)
    assert options == table.options
    assert meta["log"][-1] == ["options_changed", {"options": {"wild_ones": True, "mode": "loot"}}]
    await close_service(service)
    service = await open_service(database, SeededDice(1))
    assert service.table(CHANNEL).options["mode"] == "loot"
    await service.start_game(CHANNEL, ALICE.id)
    assert service.table(CHANNEL).engine.options(service.table(CHANNEL).options).mode == "loot"
    await close_service(service)


@pytest.mark.parametrize(
    ("options", "code"),
    [
        ({"dice_per_player": "9"}, "bad_option"),  # out of range, as `/liar new dice_per_player:9` would be
        ({"dice_per_player": "abc"}, "bad_option"),
        ({"raise_rule": "forged"}, "bad_option"),
        ({"no_such_option": "1"}, "bad_option"),
        ({"max_rounds": "3"}, "bad_option"),  # a multi-round option in single mode: the engine's combination check
    ],
)
async def test_a_bad_option_is_refused_as_a_create_refuses_it_and_nothing_changes(database, options, code):
    service = await open_service(database, SeededDice(1))
    await service.create(GUILD, CHANNEL, ALICE, "liar")
    before = dict(service.table(CHANNEL).options)
    with refused(code) as caught:
        await service.set_options(CHANNEL, ALICE.id, options)
    with refused(code) as made:  # the very refusal a create gives for the same options
        await service.create(GUILD, CHANNEL + 1, ALICE, "liar", options)
    assert caught.value.params["problem"].code == made.value.params["problem"].code
    assert service.table(CHANNEL).options == before
    assert (await stored(service))[0] == before
    await close_service(service)


async def test_only_the_host_or_a_manager_changes_options_and_only_in_the_lobby(database):
    service = await open_service(database, SeededDice(1))
    await service.create(GUILD, CHANNEL, ALICE, "pig")
    await service.join(CHANNEL, BOB)
    before = dict(service.table(CHANNEL).options)
    with refused("only_host_options"):
        await service.set_options(CHANNEL, BOB.id, {"target": "50"})
    assert service.table(CHANNEL).options == before
    await service.set_options(CHANNEL, BOB.id, {"target": "50"}, is_admin=True)
    assert service.table(CHANNEL).options["target"] == 50
    await service.start_game(CHANNEL, ALICE.id)
    with refused("not_in_lobby"):
        await service.set_options(CHANNEL, ALICE.id, {"target": "60"})
    await close_service(service)


async def test_unchanged_options_write_nothing(database):
    service = await open_service(database, SeededDice(1))
    await service.create(GUILD, CHANNEL, ALICE, "pig")
    table = service.table(CHANNEL)
    log = list(table.log)
    await service.set_options(CHANNEL, ALICE.id, {"target": str(table.options["target"])})
    assert list(table.log) == log
    await close_service(service)


async def test_options_the_seated_players_do_not_fit_are_refused(database):
    service = await open_service(database, SeededDice(1))
    await service.create(GUILD, CHANNEL, ALICE, "mythic", {"allow_two_players": True})
    await service.join(CHANNEL, BOB)
    table = service.table(CHANNEL)
    _, most = table.engine.player_range(table.engine.options(table.options))
    for n in range(len(table.seats), most):
        await service.join(CHANNEL, Seat(100 + n, f"P{n}"))
    # every option set keeps the most players Mythical Dice seats: a full table still takes a change
    await service.set_options(CHANNEL, ALICE.id, {"hand_leader": "last_trick_winner"})
    assert table.options["hand_leader"] == "last_trick_winner"
    await close_service(service)


async def test_a_lobby_opens_with_guests_and_a_logged_invitation(database):
    service = await open_service(database, SeededDice(1))
    invite = Event("lobby_note", {"note": 1})
    table = await service.create(GUILD, CHANNEL, ALICE, "pig", guests=[ROBOT], logged=[invite])
    assert [s.id for s in table.seats] == [ALICE.id, ROBOT.id]
    assert list(table.log)[-1] == ("lobby_note", {"note": 1})
    await close_service(service)
    service = await open_service(database, SeededDice(1))
    table = service.table(CHANNEL)
    assert [s.id for s in table.seats] == [ALICE.id, ROBOT.id] and table.seats[1].level == "easy"
    assert list(table.log)[-1] == ("lobby_note", {"note": 1})  # the opening log is stored with the lobby
    await close_service(service)


async def test_too_many_guests_are_refused_and_no_table_opens(database):
    service = await open_service(database, SeededDice(1))
    bots = [Seat(-n, f"Bot {n}", "easy") for n in range(1, 12)]
    with refused("table_full"):
        await service.create(GUILD, CHANNEL, ALICE, "pig", guests=bots)
    with refused("no_table"):
        service.table(CHANNEL)
    await close_service(service)
