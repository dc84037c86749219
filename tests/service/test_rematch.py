"""🔁 Rematch through the table service, on each backend: a new lobby from a finished game read from the store (its
options, language and chosen flag, its computer players re-seated, its other people invited in the log), with a
fresh fair-dice commitment, after a restart too; refused for a stranger, a game not finished, a game too old, a
channel with an open table (a double click applies once), with nothing changed."""

from __future__ import annotations

import asyncio
import json

import pytest

from bot.games.dice import ScriptedDice
from bot.games.fair import FairDice
from bot.store import open_store, privacy, repo
from bot.tables import Seat, TableError, TableService
from bot.tables.rematch import REMATCH_HOURS, invited

GUILD, CHANNEL = 1, 10
ALICE, BOB, CAROL = Seat(100, "Alice"), Seat(200, "Bob"), Seat(300, "Carol")
BOT_NAME = "Easy bot 1"


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


class Recorder:
    """A presenter that keeps every event it was shown."""

    def __init__(self) -> None:
        self.events: list = []

    def publish(self, table, events, *, refresh: bool = True) -> None:
        self.events += events


@pytest.fixture
def db(database):
    return database


async def open_service(db, dice, clock=None, presenter=None) -> TableService:
    store = await open_store(db)
    service = TableService(store, dice, presenter, clock=clock or Clock(), run_dispatcher=False, auto_bots=False)
    await service.start()
    return service


async def close_service(service: TableService) -> None:
    await service.stop()
    await service.store.close()


def refused(code):
    return pytest.raises(TableError, match=f"^{code}$")


async def finished_pig(service, *people, computer=True, **create):
    """A Pig game to 20 won by the first person's four sixes (the dice are the test's): people, then a computer
    player; returns its id. ``create``: the create's language arguments."""
    await service.create(GUILD, CHANNEL, people[0], "pig", {"target": 20, "dice": 1}, **create)
    for seat in people[1:]:
        await service.join(CHANNEL, seat)
    if computer:
        await service.add_computer(CHANNEL, people[0].id, "easy", BOT_NAME)
    table = await service.start_game(CHANNEL, people[0].id)
    while table.running:
        await service.act(CHANNEL, people[0].id, "roll")
    assert table.status == "finished" and tuple(table.engine.outcome(table.state).winners) == (0,)
    return table.id


async def games_rows(service) -> list:
    return [tuple(r) for r in await service.store.fetch_all("SELECT id, status, seats FROM games ORDER BY id")]


async def test_a_rematch_keeps_the_options_and_language_reseats_the_computers_and_invites_the_people(db):
    recorder = Recorder()
    service = await open_service(db, ScriptedDice([6] * 4), presenter=recorder)
    old = await finished_pig(service, ALICE, BOB, CAROL, locale="it", locale_chosen=True)
    stored = await repo.played_game(service.store, old)
    assert stored is not None and stored.status == "finished" and stored.locale == "it" and stored.locale_chosen
    recorder.events.clear()

    table = await service.rematch(old, Seat(BOB.id, "Bob", entropy="bob's click"), channel_id=CHANNEL)
    assert (table.status, table.game, table.channel_id, table.guild_id) == ("lobby", "pig", CHANNEL, GUILD)
    assert table.id != old and service.table(CHANNEL) is table
    assert table.options == stored.options and table.options["target"] == 20 and table.options["dice"] == 1
    assert (table.locale, table.locale_chosen) == ("it", True)
    assert table.host_id == BOB.id
    assert [(s.id, s.name, s.level, s.entropy) for s in table.seats] == [
        (BOB.id, "Bob", None, "bob's click"),
        (-1, BOT_NAME, "easy", None),
    ]
    # the log opens with the rematch and each other person of the last game, in seat order; they were published
    expected = [
        ("rematch", {"of": old}),
        ("rematch_invited", {"id": ALICE.id, "name": f"<@{ALICE.id}>"}),
        ("rematch_invited", {"id": CAROL.id, "name": f"<@{CAROL.id}>"}),
    ]
    assert list(table.log) == expected
    assert invited(table) == [ALICE.id, CAROL.id]
    assert [(e.kind, e.data) for e in recorder.events] == [("lobby_open", {"host": 0}), *expected]
    row = await service.store.fetch_one("SELECT host_id, options, meta FROM games WHERE id = ?", (table.id,))
    meta = json.loads(row["meta"])
    assert row["host_id"] == BOB.id and json.loads(row["options"]) == table.options
    assert (meta["locale"], meta.get("chosen")) == ("it", True)

    # the invited join as anyone joins, and the rematch plays
    await service.join(CHANNEL, ALICE)
    started = await service.start_game(CHANNEL, BOB.id)
    assert started.running and [s.id for s in started.seats] == [BOB.id, -1, ALICE.id]
    await close_service(service)

    # after a restart the rematch lobby of another finished game is read from the store alone
    service = await open_service(db, ScriptedDice([6] * 4))
    await service.cancel(CHANNEL, BOB.id)
    table = await service.rematch(old, Seat(ALICE.id, "Alice"))
    assert table.host_id == ALICE.id and invited(table) == [BOB.id, CAROL.id]
    assert (table.locale, table.locale_chosen, table.options) == ("it", True, stored.options)
    await close_service(service)


async def test_the_invitation_is_stored_with_the_lobby_and_kept_after_a_restart(db):
    service = await open_service(db, ScriptedDice([6] * 4))
    old = await finished_pig(service, ALICE, BOB)
    table = await service.rematch(old, ALICE)
    expected = [("rematch", {"of": old}), ("rematch_invited", {"id": BOB.id, "name": f"<@{BOB.id}>"})]
    await close_service(service)
    service = await open_service(db, ScriptedDice([6] * 4))
    restored = service.table(CHANNEL)
    assert restored.id == table.id and list(restored.log) == expected and invited(restored) == [BOB.id]
    await close_service(service)


async def test_a_rematch_against_computers_only_invites_nobody_and_a_language_not_chosen_stays_not_chosen(db):
    service = await open_service(db, ScriptedDice([6] * 4))
    old = await finished_pig(service, ALICE, locale="de")
    table = await service.rematch(old, ALICE)
    assert list(table.log) == [("rematch", {"of": old})] and invited(table) == []
    assert (table.locale, table.locale_chosen) == ("de", False)
    assert [(s.id, s.level) for s in table.seats] == [(ALICE.id, None), (-1, "easy")]
    await close_service(service)


async def test_a_rematch_draws_a_fresh_fair_commitment(db):
    seeds = iter([bytes(range(32)), bytes(range(1, 33)), bytes(range(2, 34))])
    service = await open_service(db, lambda: FairDice(next(seeds), ""))
    await service.create(GUILD, CHANNEL, ALICE, "pig", {"target": 20})
    await service.join(CHANNEL, BOB)
    table = await service.start_game(CHANNEL, ALICE.id)
    while table.running:  # roll to 8 then hold: the fair dice decide who wins
        mover = table.seats[table.engine.to_act(table.state)[0]].id
        await service.act(CHANNEL, mover, "hold" if table.state.turn_total >= 8 else "roll")
    assert table.status == "finished"
    old_commitment = await repo.game_commitment(service.store, table.id)
    new = await service.rematch(table.id, BOB)
    assert new.fair is not None and new.fair.client_seed == ""  # committed now; the players' entropy comes at start
    assert new.fair.commitment != old_commitment
    assert await repo.game_commitment(service.store, new.id) == new.fair.commitment
    await close_service(service)


async def test_a_stranger_a_game_not_finished_and_an_unknown_or_foreign_game_are_refused_and_nothing_changes(db):
    service = await open_service(db, ScriptedDice([6] * 4))
    old = await finished_pig(service, ALICE, BOB)
    before = await games_rows(service)
    with refused("rematch_stranger") as caught:
        await service.rematch(old, CAROL)
    assert caught.value.params == {"id": old}
    with refused("rematch_unknown"):
        await service.rematch(old + 100, ALICE)
    with refused("stale_button"):  # a click from another channel than the game's
        await service.rematch(old, ALICE, channel_id=CHANNEL + 1)
    assert await games_rows(service) == before and CHANNEL not in service.by_channel

    # a game that is still open: no rematch of it (its own table is the one in the channel)
    await service.create(GUILD, CHANNEL, ALICE, "pig")
    lobby = service.table(CHANNEL).id
    with refused("rematch_not_finished"):
        await service.rematch(lobby, ALICE)
    # a cancelled game: no rematch either (and no end message to click)
    await service.cancel(CHANNEL, ALICE.id)
    before = await games_rows(service)
    with refused("rematch_not_finished"):
        await service.rematch(lobby, ALICE)
    with refused("rematch_stranger"):  # a stranger is told only that: not whether the game finished
        await service.rematch(lobby, CAROL)
    assert await games_rows(service) == before and CHANNEL not in service.by_channel
    await close_service(service)


async def test_a_game_finished_more_than_the_window_ago_is_too_old(db):
    clock = Clock()
    service = await open_service(db, ScriptedDice([6] * 4), clock)
    old = await finished_pig(service, ALICE, BOB)
    finished = (await repo.played_game(service.store, old)).finished_at
    assert finished == clock.now  # the results' time
    clock.now += REMATCH_HOURS * 3600 + 1
    before = await games_rows(service)
    with refused("rematch_too_old") as caught:
        await service.rematch(old, BOB)
    assert caught.value.params == {"id": old, "count": REMATCH_HOURS, "game": "pig"}
    assert await games_rows(service) == before and CHANNEL not in service.by_channel
    clock.now -= 1  # exactly the window: still a rematch
    assert (await service.rematch(old, BOB)).host_id == BOB.id
    await close_service(service)


async def test_a_channel_with_an_open_table_refuses_and_a_double_click_applies_once(db):
    service = await open_service(db, ScriptedDice([6] * 4))
    old = await finished_pig(service, ALICE, BOB)
    first, second = await asyncio.gather(service.rematch(old, ALICE), service.rematch(old, BOB), return_exceptions=True)
    opened = [r for r in (first, second) if not isinstance(r, BaseException)]
    failed = [r for r in (first, second) if isinstance(r, BaseException)]
    assert len(opened) == 1 and len(failed) == 1
    assert (
        isinstance(failed[0], TableError) and failed[0].code == "table_exists" and failed[0].params == {"game": "pig"}
    )
    before = await games_rows(service)
    with refused("table_exists"):  # the end message keeps its button: a click while the lobby is open
        await service.rematch(old, ALICE)
    assert await games_rows(service) == before and service.table(CHANNEL) is opened[0]
    await close_service(service)


async def test_a_deleted_members_invitation_is_anonymised_with_the_rest_of_their_data(db):
    service = await open_service(db, ScriptedDice([6] * 4))
    old = await finished_pig(service, ALICE, BOB)
    table = await service.rematch(old, ALICE)
    await service.cancel(CHANNEL, ALICE.id)  # the lobby closes unstarted, its log stored
    await privacy.delete_member(service.store, BOB.id, lambda locale, seat: "Deleted player")
    row = await service.store.fetch_one("SELECT meta FROM games WHERE id = ?", (table.id,))
    assert str(BOB.id) not in row["meta"]
    (entry,) = [data for kind, data in json.loads(row["meta"])["log"] if kind == "rematch_invited"]
    assert entry["id"] < 0 and entry["name"] == "Deleted player"
    await close_service(service)
