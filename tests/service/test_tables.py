"""The table service and the store on each backend (a SQLite file, a PostgreSQL schema)."""

from __future__ import annotations

import asyncio

import pytest

from bot.games import IllegalMove, act
from bot.games.dice import ScriptedDice, SeededDice
from bot.store import open_store, repo
from bot.tables import Seat, TableError, TableService
from tests.waiting import eventually

GUILD, CHANNEL = 1, 10
ALICE, BOB, CAROL = Seat(100, "Alice"), Seat(200, "Bob"), Seat(300, "Carol")


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def db(database):
    """A store target on each backend (SQLite file, PostgreSQL schema)."""
    return database


async def open_service(db, dice, clock=None):
    store = await open_store(db)
    service = TableService(store, dice, clock=clock or Clock(), run_dispatcher=False)
    await service.start()
    return service


async def close_service(service):
    await service.stop()
    await service.store.close()


async def pig_table(service, *seats, **options):
    await service.create(GUILD, CHANNEL, seats[0], "pig", options)
    for seat in seats[1:]:
        await service.join(CHANNEL, seat)
    return await service.start_game(CHANNEL, seats[0].id)


def mover(table):
    return table.seats[table.engine.to_act(table.state)[0]].id


async def test_lobby_rules(db):
    service = await open_service(db, SeededDice(1))
    await service.create(GUILD, CHANNEL, ALICE, "pig")
    with pytest.raises(TableError) as e:
        await service.create(GUILD, CHANNEL, BOB, "mia")
    assert e.value.code == "table_exists"
    with pytest.raises(TableError) as e:
        await service.join(CHANNEL, ALICE)
    assert e.value.code == "already_joined"
    with pytest.raises(TableError) as e:
        await service.start_game(CHANNEL, ALICE.id)
    assert e.value.code == "not_enough_players" and e.value.params["min"] == 2
    await service.join(CHANNEL, BOB)
    with pytest.raises(TableError) as e:
        await service.start_game(CHANNEL, BOB.id)
    assert e.value.code == "only_host"
    with pytest.raises(TableError) as e:
        await service.act(CHANNEL, ALICE.id, "roll")
    assert e.value.code == "not_running"
    await service.leave(CHANNEL, ALICE.id)  # the host leaves: Bob hosts
    table = service.table(CHANNEL)
    assert table.host_id == BOB.id and [s.id for s in table.seats] == [BOB.id]
    await service.leave(CHANNEL, BOB.id)  # empty: the lobby closes
    with pytest.raises(TableError) as e:
        service.table(CHANNEL)
    assert e.value.code == "no_table"
    await close_service(service)


async def test_bad_options_are_refused_with_the_option_named(db):
    service = await open_service(db, SeededDice(1))
    with pytest.raises(TableError) as e:
        await service.create(GUILD, CHANNEL, ALICE, "pig", {"target": 5})
    assert e.value.code == "bad_option" and e.value.params["option"] == "target"
    assert CHANNEL not in service.by_channel
    await close_service(service)


async def test_guild_default_options_and_timeout(db):
    service = await open_service(db, SeededDice(1))
    await service.set_default_options(GUILD, "pig", {"target": 50})
    with pytest.raises(TableError):
        await service.set_default_options(GUILD, "pig", {"dice": 7})
    with pytest.raises(TableError) as e:
        await service.set_timeout(GUILD, 5)
    assert e.value.code == "bad_timeout"
    await service.set_timeout(GUILD, 30)
    await close_service(service)
    service = await open_service(db, SeededDice(1))
    table = await service.create(GUILD, CHANNEL, ALICE, "pig", {"dice": 2})
    assert table.options["target"] == 50 and table.options["dice"] == 2
    assert await service.turn_timeout(GUILD) == 30
    await close_service(service)


async def test_only_the_player_to_act_may_act_and_nothing_changes(db):
    service = await open_service(db, ScriptedDice([3, 4]))
    table = await pig_table(service, ALICE, BOB)
    before = (table.engine.dumps(table.state), table.version)
    with pytest.raises(IllegalMove) as e:
        await service.act(CHANNEL, BOB.id, "roll")
    assert e.value.code == "not_your_turn"
    with pytest.raises(TableError) as e:
        await service.act(CHANNEL, CAROL.id, "roll")
    assert e.value.code == "not_a_player"
    with pytest.raises(IllegalMove) as e:
        await service.act(CHANNEL, ALICE.id, "hold")
    assert e.value.code == "hold_before_roll"
    assert (table.engine.dumps(table.state), table.version) == before
    assert [r["action"] for r in await repo.actions(service.store, table.id)] == ["start"]
    await close_service(service)


def scripted_faces(n=400, seed=7):
    rng = SeededDice(seed)
    return rng.roll(n)


async def test_reopening_the_store_between_any_two_actions_continues_the_same_game(db, tmp_path):
    faces = scripted_faces()
    # Reference: one uninterrupted game.
    ref = await open_service(str(tmp_path / "ref.sqlite3"), ScriptedDice([*faces]))
    await pig_table(ref, ALICE, BOB, target=40)
    table = ref.table(CHANNEL)
    while table.running:
        seat = table.engine.to_act(table.state)[0]
        await ref.act(CHANNEL, table.seats[seat].id, "hold" if table.state.turn_total >= 12 else "roll")
    reference = table.engine.dumps(table.state)
    await close_service(ref)

    dice = ScriptedDice([*faces])
    service = await open_service(db, dice)
    await pig_table(service, ALICE, BOB, target=40)
    restarts = 0
    while True:
        table = service.by_channel.get(CHANNEL)
        if table is None:
            break
        seat = table.engine.to_act(table.state)[0]
        action = "hold" if table.state.turn_total >= 12 else "roll"
        await service.act(CHANNEL, table.seats[seat].id, action)
        await close_service(service)  # crash-free restart after every single action
        service = await open_service(db, dice)
        restarts += 1
    rows = await service.store.fetch_all("SELECT state, status FROM games")
    assert rows[0]["status"] == "finished"
    assert rows[0]["state"] == reference
    assert restarts > 10
    results = await service.store.fetch_all("SELECT user_id, won FROM results ORDER BY place")
    assert len(results) == 2 and results[0]["won"] == 1
    await close_service(service)


async def test_twenty_concurrent_actions_apply_once_each_in_order_and_duplicates_are_refused(db):
    service = await open_service(db, ScriptedDice([2, 3, 4, 5, 6] * 8))
    table = await pig_table(service, ALICE, BOB, target=500)
    player = mover(table)
    ids = [f"i{n}" for n in range(20)]
    tasks = [asyncio.create_task(service.act(CHANNEL, player, "roll", iid)) for iid in ids]
    dupes = [asyncio.create_task(service.act(CHANNEL, player, "roll", iid)) for iid in ids[::4]]
    done = await asyncio.gather(*tasks, *dupes, return_exceptions=True)
    assert all(not isinstance(r, Exception) for r in done[:20])
    assert all(isinstance(r, TableError) and r.code == "duplicate" for r in done[20:])
    assert table.state.rolls_this_turn == 20
    assert table.state.turn_total == sum([2, 3, 4, 5, 6] * 4)
    logged = await repo.actions(service.store, table.id)
    assert [r["interaction_id"] for r in logged if r["interaction_id"]] == ids
    assert table.version == 21  # start + 20
    await close_service(service)


async def test_an_expired_deadline_applies_the_default_action(db):
    clock = Clock()
    service = await open_service(db, ScriptedDice([5]), clock)
    table = await pig_table(service, ALICE, BOB)
    first = table.engine.to_act(table.state)[0]
    await service.act(CHANNEL, table.seats[first].id, "roll")  # a 5
    clock.now += 119
    assert await service.run_due() == 0
    clock.now += 2
    assert await service.run_due() == 1
    assert table.state.scores[first] == 5  # Pig's default: hold after a roll
    assert table.state.current != first
    logged = await repo.actions(service.store, table.id)
    assert logged[-1]["action"] == "timeout"
    await close_service(service)


async def test_a_deadline_survives_a_restart(db):
    clock = Clock()
    service = await open_service(db, ScriptedDice(), clock)
    table = await pig_table(service, ALICE, BOB)
    first = table.engine.to_act(table.state)[0]
    await close_service(service)
    service = await open_service(db, ScriptedDice(), clock)
    clock.now += 121
    assert await service.run_due() == 1
    assert service.table(CHANNEL).state.current != first
    await close_service(service)


async def test_three_consecutive_timeouts_forfeit_the_player(db):
    clock = Clock()
    service = await open_service(db, ScriptedDice([3] * 100), clock)
    table = await pig_table(service, ALICE, BOB, CAROL)
    sleeper = table.engine.to_act(table.state)[0]
    for _ in range(3):
        for _ in range(3):  # one full round of timeouts for everyone
            if not table.running:
                break
            current = table.engine.to_act(table.state)[0]
            if current == sleeper:
                clock.now += 121
                assert await service.run_due() == 1
            else:
                await service.act(CHANNEL, table.seats[current].id, "roll")
                if table.running and table.engine.to_act(table.state)[0] == current:
                    await service.act(CHANNEL, table.seats[current].id, "hold")
    assert table.state.active[sleeper] is False
    logged = await repo.actions(service.store, table.id)
    assert [r["action"] for r in logged if r["seat"] == sleeper].count("timeout") == 3
    assert [r["action"] for r in logged if r["seat"] == sleeper][-1] == "forfeit:timeouts"
    await close_service(service)


async def test_an_idle_lobby_expires(db):
    clock = Clock()
    service = await open_service(db, SeededDice(1), clock)
    await service.create(GUILD, CHANNEL, ALICE, "pig")
    clock.now += 16 * 60
    assert await service.run_due() == 1
    assert CHANNEL not in service.by_channel
    row = await service.store.fetch_one("SELECT status FROM games")
    assert row["status"] == "cancelled"
    await close_service(service)


async def test_cancel_needs_the_host_or_an_admin(db):
    service = await open_service(db, SeededDice(1))
    await pig_table(service, ALICE, BOB)
    with pytest.raises(TableError) as e:
        await service.cancel(CHANNEL, BOB.id)
    assert e.value.code == "only_host_or_admin"
    await service.cancel(CHANNEL, BOB.id, is_admin=True)
    assert CHANNEL not in service.by_channel
    await close_service(service)


async def test_leaving_a_running_game_forfeits_and_the_last_player_wins(db):
    service = await open_service(db, SeededDice(1))
    table = await pig_table(service, ALICE, BOB)
    await service.leave(CHANNEL, BOB.id)
    assert table.status == "finished"
    board = await repo.leaderboard(service.store, GUILD, "pig", 10)
    assert [(r.user_id, r.wins, r.games) for r in board] == [(ALICE.id, 1, 1), (BOB.id, 0, 1)]
    await close_service(service)


async def test_a_single_action_is_one_logged_row_with_its_dice_and_deadline_in_one_transaction(db):
    clock = Clock()
    service = await open_service(db, ScriptedDice([4]), clock)
    table = await pig_table(service, ALICE, BOB)
    batches = service.store.batches
    await service.act(CHANNEL, mover(table), act("roll"), "i-1")
    assert service.store.batches == batches + 1
    row = await service.store.fetch_one("SELECT * FROM actions WHERE game_id = ? AND seq = 2", (table.id,))
    assert (row["action"], row["dice"], row["interaction_id"], row["at"]) == ("roll", '[["r",6,[4]]]', "i-1", clock.now)
    assert row["due"] == table.deadline == clock.now + 120
    snapshot = await service.store.fetch_one(
        "SELECT g.version, d.version AS dv FROM games g JOIN deadlines d ON d.game_id = g.id"
    )
    assert snapshot["version"] == snapshot["dv"] == 1  # the games row is the snapshot made at the start
    start = await service.store.fetch_one("SELECT dice FROM actions WHERE seq = 1")
    assert start["dice"] == '[["s",2,[0]]]'  # new_game's draw: the first player
    await close_service(service)


async def test_computer_players_move_through_the_service_and_count_as_computers(db):
    store = await open_store(db)
    service = TableService(store, SeededDice(11), clock=Clock(), run_dispatcher=False, bot_delay=(0, 0))
    await service.start()
    await service.create(GUILD, CHANNEL, ALICE, "pig", {"target": 30})
    with pytest.raises(TableError) as e:
        await service.add_computer(CHANNEL, BOB.id, "hard", "Bot")
    assert e.value.code == "only_host"
    await service.add_computer(CHANNEL, ALICE.id, "normal", "Robo")
    table = await service.start_game(CHANNEL, ALICE.id)
    assert table.seats[1].is_bot and table.seats[1].id < 0
    while table.running:
        if table.engine.to_act(table.state)[0] == 0:
            action = "hold" if table.state.turn_total >= 10 else "roll"
            await service.act(CHANNEL, ALICE.id, action)
        else:  # the computer player's task moves
            await eventually(
                lambda turn=table.version: table.version > turn or not table.running, what="the computer player to move"
            )
    assert table.status == "finished"
    rows = await store.fetch_all("SELECT user_id, is_bot FROM results ORDER BY user_id")
    assert [(r["user_id"] < 0, r["is_bot"]) for r in rows] == [(True, 1), (False, 0)]
    board = await repo.leaderboard(store, GUILD, "pig", 10)
    assert [r.user_id for r in board] == [ALICE.id]  # computers are not on the members' leaderboard
    await close_service(service)


async def test_a_double_click_on_the_same_button_applies_once(db):
    service = await open_service(db, ScriptedDice([3, 4, 5]))
    table = await pig_table(service, ALICE, BOB)
    player, drawn_at = mover(table), table.version
    first = asyncio.create_task(service.act(CHANNEL, player, "roll", "click-1", seen_version=drawn_at))
    second = asyncio.create_task(service.act(CHANNEL, player, "roll", "click-2", seen_version=drawn_at))
    results = await asyncio.gather(first, second, return_exceptions=True)
    assert isinstance(results[1], TableError) and results[1].code == "duplicate"
    assert table.state.rolls_this_turn == 1
    await service.act(CHANNEL, player, "roll", "click-3", seen_version=table.version)  # a fresh button works
    assert table.state.rolls_this_turn == 2
    await close_service(service)


async def test_an_interaction_applied_before_a_restart_is_refused_after_it(db):
    dice = ScriptedDice([4, 4])
    service = await open_service(db, dice)
    table = await pig_table(service, ALICE, BOB)
    player = mover(table)
    await service.act(CHANNEL, player, "roll", "same-interaction")
    await close_service(service)
    service = await open_service(db, dice)
    with pytest.raises(TableError) as e:
        await service.act(CHANNEL, player, "roll", "same-interaction")
    assert e.value.code == "duplicate"
    assert service.table(CHANNEL).state.rolls_this_turn == 1
    await close_service(service)


async def test_a_lobby_opens_in_one_transaction_and_creates_in_other_channels_do_not_wait(db):
    service = await open_service(db, SeededDice(1))
    before = service.store.batches
    tables = await asyncio.gather(*(service.create(GUILD, CHANNEL + i, ALICE, "pig") for i in range(5)))
    assert service.store.batches - before <= 5  # one commit per lobby at most (they may share one); was two each
    rows = await service.store.fetch_all("SELECT game_id, version FROM deadlines ORDER BY game_id")
    assert [(r[0], r[1]) for r in rows] == [(t.id, 0) for t in sorted(tables, key=lambda t: t.id)]
    await close_service(service)
    service = await open_service(db, SeededDice(1))  # each lobby's idle deadline restores with it
    assert sorted(service.by_id) == sorted(t.id for t in tables)
    assert all(service.by_id[t.id].deadline == t.deadline for t in tables)
    await close_service(service)


async def test_two_creates_in_one_channel_at_once_open_one_table(db):
    service = await open_service(db, SeededDice(1))
    results = await asyncio.gather(
        service.create(GUILD, CHANNEL, ALICE, "pig"), service.create(GUILD, CHANNEL, BOB, "mia"), return_exceptions=True
    )
    opened = [r for r in results if not isinstance(r, Exception)]
    refused = [r for r in results if isinstance(r, TableError)]
    assert len(opened) == 1 and len(refused) == 1
    assert refused[0].code == "table_exists" and refused[0].params == {"game": "pig"}
    assert service.table(CHANNEL) is opened[0]
    rows = await service.store.fetch_all("SELECT id FROM games")
    assert [r[0] for r in rows] == [opened[0].id]
    await close_service(service)
