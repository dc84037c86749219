"""Issue 10 at the table service: bad input changes nothing, closed tables say so, the double-click guard
survives a restart, and a forfeit after missed turns is told apart from a /leave."""

from __future__ import annotations

import asyncio
import json

import pytest

from bot.games import IllegalMove, get_engine
from bot.games.dice import ScriptedDice, SeededDice
from bot.i18n import has
from bot.render import error_text, event_text, seat_names, table_text
from bot.store import repo
from bot.tables import Seat, TableError
from tests.service.test_tables import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    GUILD,
    Clock,
    close_service,
    mover,
    open_service,
    pig_table,
)


@pytest.fixture
def db(database):
    """A store target on each backend (SQLite file, PostgreSQL schema)."""
    return database


FORGED = ["bid:²:5", "roll:²", "hold:①", "claim:٣", "play:" + "9" * 5000, "", ":", "::", "roll:" + "x" * 3000]


def snapshot(table):
    return table.engine.dumps(table.state), table.version, table.status


# -- the double-click guard across a restart ----------------------------------------------------


async def test_a_button_drawn_before_a_restart_applies_once_after_it(db):
    dice = ScriptedDice([4, 4, 4])
    service = await open_service(db, dice)
    table = await pig_table(service, ALICE, BOB)
    player, drawn_at = mover(table), table.version
    await service.act(CHANNEL, player, "roll", "click-1", seen_version=drawn_at)
    await close_service(service)

    service = await open_service(db, dice)  # a new process on the same file
    table = service.table(CHANNEL)
    with pytest.raises(TableError) as e:  # the same Roll button, clicked again after the restart
        await service.act(CHANNEL, player, "roll", "click-2", seen_version=drawn_at)
    assert e.value.code == "duplicate"
    assert table.state.rolls_this_turn == 1 and table.version == drawn_at + 1
    await service.act(CHANNEL, player, "roll", "click-3", seen_version=table.version)  # a fresh button works
    assert table.state.rolls_this_turn == 2
    await close_service(service)


async def test_the_restored_guard_is_the_one_in_memory_after_moves_commands_timeouts_and_forfeits(db):
    clock = Clock()
    dice = ScriptedDice([3] * 200)
    service = await open_service(db, dice, clock)
    table = await pig_table(service, ALICE, BOB, CAROL, target=500)
    first = mover(table)
    await service.act(CHANNEL, first, "roll", "b1", seen_version=table.version)  # a button
    await service.act(CHANNEL, first, "hold")  # a slash command (no version): a later old button is stale
    clock.now += 121
    assert await service.run_due() == 1  # the second player times out: not their own move
    third = mover(table)
    await service.act(CHANNEL, third, "roll", "b2", seen_version=table.version)
    await service.leave(CHANNEL, third)  # a forfeit by /leave: not a move either
    in_memory = dict(table.acted)
    assert set(in_memory) == {first, third}
    await close_service(service)

    service = await open_service(db, dice, clock)
    assert service.table(CHANNEL).acted == in_memory
    await close_service(service)


# -- closed tables --------------------------------------------------------------------------------


async def test_join_racing_the_last_leave_says_the_table_is_closed(db):
    service = await open_service(db, SeededDice(1))
    await service.create(GUILD, CHANNEL, ALICE, "pig")
    leave = asyncio.create_task(service.leave(CHANNEL, ALICE.id))
    join = asyncio.create_task(service.join(CHANNEL, BOB))
    done = await asyncio.gather(leave, join, return_exceptions=True)
    assert isinstance(done[1], TableError) and done[1].code == "table_closed"
    assert "closed" in error_text(done[1], "en") and "started" not in error_text(done[1], "en")
    await close_service(service)


async def test_every_request_waiting_on_a_table_that_closes_says_closed(db):
    service = await open_service(db, SeededDice(1))
    table = await pig_table(service, ALICE, BOB)
    player = mover(table)
    cancel = asyncio.create_task(service.cancel(CHANNEL, ALICE.id))
    waiting = [
        asyncio.create_task(service.act(CHANNEL, player, "roll", "late", seen_version=table.version)),
        asyncio.create_task(service.leave(CHANNEL, BOB.id)),
        asyncio.create_task(service.cancel(CHANNEL, ALICE.id)),  # not a second close
        asyncio.create_task(service.start_game(CHANNEL, ALICE.id)),
    ]
    done = await asyncio.gather(cancel, *waiting, return_exceptions=True)
    assert [getattr(r, "code", r) for r in done[1:]] == ["table_closed"] * 4
    logged = await repo.actions(service.store, table.id)
    assert [r["action"] for r in logged] == ["start"]
    await close_service(service)


async def test_joining_a_running_game_still_says_it_has_started(db):
    service = await open_service(db, SeededDice(1))
    await pig_table(service, ALICE, BOB)
    with pytest.raises(TableError) as e:
        await service.join(CHANNEL, CAROL)
    assert e.value.code == "not_in_lobby"
    await close_service(service)


async def test_a_lobby_closed_by_its_last_leave_no_longer_lists_the_leaver(db):
    service = await open_service(db, SeededDice(1))
    table = await service.create(GUILD, CHANNEL, ALICE, "pig")
    await service.join(CHANNEL, Seat(-1, "Robo", "easy"))
    await service.leave(CHANNEL, ALICE.id)  # no person left: the lobby closes
    assert table.status == "cancelled" and [s.name for s in table.seats] == ["Robo"]
    assert "Alice" not in "\n".join(table_text(table, "en").body)
    row = await service.store.fetch_one("SELECT seats FROM games WHERE id = ?", (table.id,))
    assert [s["name"] for s in json.loads(row["seats"])] == ["Robo"]
    await close_service(service)


# -- forfeits ---------------------------------------------------------------------------------------


def log_lines(table) -> list[str]:
    names = seat_names(table)
    return [line for kind, data in table.log if (line := event_text(table.game, kind, data, names, "en"))]


async def test_a_forfeit_after_three_timeouts_says_so_and_a_leave_says_left(db):
    clock = Clock()
    service = await open_service(db, ScriptedDice([3] * 100), clock)
    table = await pig_table(service, ALICE, BOB, CAROL, target=500)
    sleeper = table.engine.to_act(table.state)[0]
    while table.state.active[sleeper]:
        current = table.engine.to_act(table.state)[0]
        if current == sleeper:
            clock.now += 121
            assert await service.run_due() == 1
        else:
            await service.act(CHANNEL, table.seats[current].id, "roll")
            await service.act(CHANNEL, table.seats[current].id, "hold")
    name = table.seats[sleeper].name
    assert f"⌛ **{name}** forfeited after 3 missed turns in a row." in log_lines(table)
    assert not any("left" in line for line in log_lines(table))
    leaver = next(s for i, s in enumerate(table.seats) if i != sleeper)
    await service.leave(CHANNEL, leaver.id)
    assert f"🚪 **{leaver.name}** left the game." in log_lines(table)
    await close_service(service)


@pytest.mark.parametrize(
    ("game", "kind", "expected"),
    [
        ("liar", "forfeit", "forfeited after 3 missed turns in a row; their dice leave play"),
        ("mythic", "forfeit", "forfeited after 3 missed turns in a row; their hidden dice"),
        ("mex", "forfeit", "forfeited after 3 missed turns in a row."),
        ("mia", "forfeit", "forfeited after 3 missed turns in a row."),
    ],
)
def test_every_game_tells_a_timeout_forfeit_from_a_leave(game, kind, expected):
    names = ["Ann", "Ben", "Cy"]
    timed_out = event_text(game, kind, {"player": 1, "why": "timeouts", "missed": 3}, names, "en")
    left = event_text(game, kind, {"player": 1, "why": "leave"}, names, "en")
    assert expected in timed_out and "left" not in timed_out
    assert "left the game" in left
    eliminated = event_text("mia", "eliminated", {"player": 1, "reason": "forfeit", "why": "timeouts"}, names, "en")
    assert "left" not in eliminated


# -- bad input through the service ------------------------------------------------------------------


@pytest.mark.parametrize("game", ["pig", "mythic", "liar", "mia", "mex"])
async def test_forged_moves_are_refused_with_catalog_errors_and_change_nothing(db, game):
    service = await open_service(db, SeededDice(5))
    await service.create(GUILD, CHANNEL, ALICE, game)
    for seat in (BOB, CAROL):
        await service.join(CHANNEL, seat)
    table = await service.start_game(CHANNEL, ALICE.id)
    before = snapshot(table)
    for text in FORGED:
        for user in (ALICE.id, BOB.id, CAROL.id):
            try:
                await service.act(CHANNEL, user, text, seen_version=table.version)
            except TableError as error:
                assert has(f"error.{error.code}"), error.code
            except IllegalMove as error:
                assert has(f"{game}.error.{error.code}") or has(f"error.{error.code}"), error.code
                assert len(error_text(error, "en", game)) < 500
            assert snapshot(table) == before, text
    await close_service(service)


async def test_huge_numbers_in_default_options_are_refused_and_nothing_is_saved(db):
    service = await open_service(db, SeededDice(1))
    for nines in ("9" * 2500, "9" * 5000, "9" * 20):
        with pytest.raises(TableError) as e:
            await service.set_default_options(GUILD, "pig", {"target": nines})
        assert e.value.code == "bad_option" and len(error_text(e.value, "en", "pig")) < 200
    assert await service.settings(GUILD) == {}
    await close_service(service)


async def test_options_refused_without_a_reason_code_still_answer_in_catalog_words(db, monkeypatch):
    service = await open_service(db, SeededDice(1))
    try:
        engine = get_engine("pig")

        def broken(options):
            raise TypeError("Options.__init__() got an unexpected keyword argument 'x' (Python's own words)")

        monkeypatch.setattr(type(engine), "options", staticmethod(broken))
        with pytest.raises(TableError) as refused:
            await service.set_default_options(GUILD, "pig", {"target": "50"})
        text = error_text(refused.value, "en")
        assert "Python" not in text and "__init__" not in text
        assert "not valid for this game" in text
        assert await service.settings(GUILD) == {}  # nothing stored
    finally:
        await close_service(service)
