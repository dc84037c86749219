"""Restore from the action log: a snapshot plus the moves after it, replayed with their recorded dice."""

from __future__ import annotations

import random

import pytest

from bot.games import Action, InvalidOptions, get_engine
from bot.games.dice import DiceExhausted, RecordingDice, ReplayDice, ScriptedDice, SeededDice
from bot.jsontext import loads
from bot.store import SQL, open_store, schema
from bot.tables import Seat, TableService
from bot.tables import service as service_module
from tests.waiting import eventually

GUILD, CHANNEL = 1, 10
SEATS = [Seat(100, "Alice"), Seat(200, "Bob"), Seat(300, "Carol")]


WITHOUT_SEEN = SQL(
    sqlite="UPDATE games SET meta = json_remove(meta, '$.seen')",
    postgresql="UPDATE games SET meta = (meta::jsonb - 'seen')::text",
)
# The database as older code left it: bot.tables.upgrade has not converted its rows yet.
UPGRADE_PENDING = ("DELETE FROM data_upgrades", ())


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


async def open_service(db, dice, clock):
    store = await open_store(db)
    service = TableService(store, dice, clock=clock, run_dispatcher=False)
    await service.start()
    return service


async def close_service(service):
    await service.stop()
    await service.store.close()


def picture(service):
    """Everything a restore must bring back, as act/timeout/forfeit left it."""
    table = service.by_channel.get(CHANNEL)
    if table is None:
        return None
    return (
        table.engine.dumps(table.state),
        table.meta(),  # timeouts per seat, locale and the public log
        table.version,
        table.deadline,
        list(table.seen),
        dict(table.acted),
        table.status,
    )


async def play(db, game, options, seed, steps, restart):
    """Play ``steps`` turns: mostly random legal moves with interaction ids, sometimes a turn left to time out
    (three in a row forfeit). ``restart``: close and reopen the store after every step. Returns the pictures."""
    clock, dice, rng = Clock(), SeededDice(seed), random.Random(seed)
    service = await open_service(db, dice, clock)
    await service.create(GUILD, CHANNEL, SEATS[0], game, options)
    for seat in SEATS[1:]:
        await service.join(CHANNEL, seat)
    await service.start_game(CHANNEL, SEATS[0].id)
    pictures = [picture(service)]
    for step in range(steps):
        table = service.by_channel.get(CHANNEL)
        if table is None:
            break
        clock.now += 1
        if rng.random() < 0.2:
            clock.now = table.deadline + 1
            assert await service.run_due() == 1
        else:
            seat = rng.choice(table.engine.to_act(table.state))
            action = rng.choice(table.engine.legal_actions(table.state, seat))
            iid = f"i{step}" if step % 2 else str(1_250_000_000_000_000_000 + step)  # Discord's are snowflakes
            await service.act(CHANNEL, table.seats[seat].id, action, iid, seen_version=table.version)
        if restart:
            await close_service(service)
            service = await open_service(db, dice, clock)
        pictures.append(picture(service))
    rows = await service.store.fetch_all("SELECT state, status, version, meta FROM games")
    await close_service(service)
    return pictures, [tuple(r) for r in rows]


@pytest.mark.parametrize(
    "game, options",
    [("pig", {"target": 60}), ("liar", {"mode": "lose_die"}), ("mythic", {}), ("mia", {}), ("mex", {})],
)
async def test_reopening_the_store_after_every_step_continues_exactly_as_an_uninterrupted_run(
    database, new_database, game, options
):
    steps = 3 * service_module.SNAPSHOT_EVERY + 5  # several snapshots, and a restart at every point between
    reference, ref_rows = await play(await new_database(), game, options, 5, steps, restart=False)
    restarted, rows = await play(database, game, options, 5, steps, restart=True)
    assert len(reference) > service_module.SNAPSHOT_EVERY
    for i, (expected, got) in enumerate(zip(reference, restarted, strict=True)):
        assert got == expected, f"step {i}"
    assert rows == ref_rows  # the same snapshots were written


async def test_a_move_is_one_insert_and_the_games_row_is_rewritten_only_every_few_moves(database):
    service = await open_service(database, ScriptedDice([2] * 200), Clock())
    await service.create(GUILD, CHANNEL, SEATS[0], "pig", {"target": 500})
    await service.join(CHANNEL, SEATS[1])
    table = await service.start_game(CHANNEL, SEATS[0].id)
    player = table.seats[table.state.current].id
    for n in range(service_module.SNAPSHOT_EVERY + 3):
        await service.act(CHANNEL, player, "roll")
        row = await service.store.fetch_one("SELECT version FROM games")
        expected = 1 + service_module.SNAPSHOT_EVERY if n + 2 > service_module.SNAPSHOT_EVERY else 1
        assert row["version"] == expected, n
    count = await service.store.fetch_one("SELECT COUNT(*), MAX(seq) FROM actions")
    assert tuple(count) == (service_module.SNAPSHOT_EVERY + 4, table.version)
    await close_service(service)


async def test_a_cancelled_game_writes_its_last_state_and_version(database):
    service = await open_service(database, ScriptedDice([3, 4, 5]), Clock())
    await service.create(GUILD, CHANNEL, SEATS[0], "pig", {})
    await service.join(CHANNEL, SEATS[1])
    table = await service.start_game(CHANNEL, SEATS[0].id)
    player = table.seats[table.state.current].id
    for _ in range(3):
        await service.act(CHANNEL, player, "roll")
    await service.cancel(CHANNEL, SEATS[0].id)
    row = await service.store.fetch_one("SELECT state, version, status FROM games")
    assert (row["state"], row["version"], row["status"]) == (table.engine.dumps(table.state), 4, "cancelled")
    await close_service(service)


async def test_a_database_written_before_the_log_restores_without_replaying(tmp_path, monkeypatch):
    """Version-3 databases: a games row written with every move, actions without dice or deadline. (SQLite only:
    a PostgreSQL database starts at the whole schema, 0008.)"""
    ref_db, old_db = tmp_path / "ref.sqlite3", tmp_path / "old.sqlite3"
    monkeypatch.setattr(service_module, "SNAPSHOT_EVERY", 1)  # the old write pattern: the row after every move
    clock = Clock()
    service = await open_service(ref_db, SeededDice(3), clock)
    await service.create(GUILD, CHANNEL, SEATS[0], "liar", {})
    await service.join(CHANNEL, SEATS[1])
    table = await service.start_game(CHANNEL, SEATS[0].id)
    for step in range(3):
        clock.now += 5
        seat = table.engine.to_act(table.state)[0]
        await service.act(CHANNEL, table.seats[seat].id, table.engine.legal_actions(table.state, seat)[0], f"x{step}")
    expected = picture(service)
    games = [tuple(r) for r in await service.store.fetch_all(
        "SELECT id, guild_id, channel_id, game, status, host_id, options, seats, state, version, message_id, meta,"
        " created_at, updated_at FROM games")]
    actions = [tuple(r) for r in await service.store.fetch_all(
        "SELECT game_id, seq, seat, action, interaction_id, at FROM actions")]
    deadlines = [(table.id, table.deadline, table.version)]  # the old code upserted it with every move
    await close_service(service)

    every = schema.migrations()
    monkeypatch.setattr(schema, "migrations", lambda dialect="sqlite": [m for m in every if m[0] <= 3])
    old = await open_store(old_db)
    await old.write(
        [("INSERT INTO games VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)", g) for g in games]
        + [("INSERT INTO actions VALUES (?,?,?,?,?,?)", a) for a in actions]
        + [("INSERT INTO deadlines VALUES (?,?,?)", d) for d in deadlines]
    )
    await old.close()
    monkeypatch.setattr(schema, "migrations", lambda dialect="sqlite": every)

    service = await open_service(old_db, SeededDice(99), clock)  # any draw would differ from SeededDice(3)'s
    assert picture(service) == expected
    assert (await service.store.fetch_one("SELECT COUNT(*) FROM actions WHERE dice IS NULL"))[0] == 4
    await close_service(service)


def test_recording_and_replaying_dice_serve_the_same_draws_and_refuse_any_other():
    recorder = RecordingDice(SeededDice(8))
    plain = SeededDice(8)
    assert recorder.roll(3, 6) == plain.roll(3, 6)
    assert recorder.sample(["a", "b", "c", "d"], 2) == plain.sample(["a", "b", "c", "d"], 2)
    calls = recorder.take()
    assert recorder.calls == [] and calls[0][:2] == ["r", 6] and calls[1][:2] == ["s", 4] and len(calls[1][2]) == 2
    scripted = RecordingDice(ScriptedDice([5], samples=[[2, 0]]))
    assert scripted.roll(1, 6) == [5] and scripted.sample("xyz", 2) == ["z", "x"]
    assert scripted.take() == [["r", 6, [5]], ["s", 3, [2, 0]]]

    replay = ReplayDice([["r", 6, [5]], ["s", 3, [2, 0]]])
    assert replay.roll(1, 6) == [5] and replay.sample("xyz", 2) == ["z", "x"] and replay.exhausted
    with pytest.raises(DiceExhausted):
        replay.roll(1, 6)
    with pytest.raises(ValueError):
        ReplayDice([["r", 6, [5]]]).roll(1, 8)  # another die
    with pytest.raises(ValueError):
        ReplayDice([["r", 6, [5]]]).sample([1, 2, 3], 1)  # another kind of call
    with pytest.raises(ValueError):
        ReplayDice([["r", 6, [5, 6]]]).roll(1, 6)  # another count


def test_every_engine_replays_its_own_record():
    rng = random.Random(4)
    for game in ("pig", "liar", "mythic", "mia", "mex"):
        engine = get_engine(game)
        recorder = RecordingDice(SeededDice(6))
        state, _ = engine.new_game(3, engine.options({}), recorder)
        replayed, _ = engine.new_game(3, engine.options({}), ReplayDice(recorder.take()))
        for _ in range(40):
            if engine.is_over(state):
                break
            assert engine.dumps(replayed) == engine.dumps(state)
            seat = rng.choice(engine.to_act(state))
            action = rng.choice(engine.legal_actions(state, seat))
            state, _ = engine.apply(state, seat, action, recorder)
            replayed, _ = engine.apply(replayed, seat, action, ReplayDice(recorder.take()))
        assert engine.dumps(replayed) == engine.dumps(state)


async def test_a_repeated_snowflake_interaction_is_refused_across_a_restart(database):
    from bot.tables import TableError

    clock, dice = Clock(), ScriptedDice([4, 4, 4])
    service = await open_service(database, dice, clock)
    await service.create(GUILD, CHANNEL, SEATS[0], "pig", {})
    await service.join(CHANNEL, SEATS[1])
    table = await service.start_game(CHANNEL, SEATS[0].id)
    player = table.seats[table.state.current].id
    await service.act(CHANNEL, player, "roll", "1250000000000000001")
    with pytest.raises(TableError):
        await service.act(CHANNEL, player, "roll", "1250000000000000001")
    await close_service(service)
    service = await open_service(database, dice, clock)
    with pytest.raises(TableError) as refused:
        await service.act(CHANNEL, player, "roll", "1250000000000000001")
    assert refused.value.code == "duplicate"
    await service.act(CHANNEL, player, "roll", "01250000000000000001")  # another text: another interaction
    assert service.table(CHANNEL).state.rolls_this_turn == 2
    await close_service(service)


async def test_interaction_ids_are_kept_as_ints_only_when_their_text_is_a_plain_snowflake(database):
    from bot.store import repo
    from bot.tables.model import interaction_key

    assert interaction_key("1250000000000000001") == 1250000000000000001
    ids = ["12", "007", "-5", "x", " 7", "1_0", "²", "0", "9223372036854775807", "9223372036854775808", "1" * 20]
    ids += ["1e5", "+5", "5 ", "1.0", "0x10", "34"]
    store = await open_store(database)
    await store.write(
        [("INSERT INTO games (id, guild_id, channel_id, game, status, host_id, options, seats, created_at, updated_at)"
          " VALUES (1, 1, 1, 'pig', 'running', 1, '{}', '[]', 0, 0)", ())]
        + [("INSERT INTO actions (game_id, seq, action, interaction_id, at) VALUES (1, ?, 'roll', ?, 0)", (n + 1, i))
           for n, i in enumerate(ids)]
    )
    restored = (await repo.recent_interactions(store, 64))[1]
    assert restored == [interaction_key(i) for i in reversed(ids)]  # SQL and Python agree, value and type
    assert [type(k) for k in restored] == [type(interaction_key(i)) for i in reversed(ids)]
    assert [type(k) for k in restored].count(int) == 3  # 12, 9223372036854775807, 34; not 007 or 2**63
    await store.close()


async def test_interaction_ids_come_from_the_snapshot_and_the_moves_after_it_or_from_the_log_for_an_old_one(database):
    """The snapshot's meta holds the recent ids (start-up reads no query for them); a meta written before it did
    has them read from the log. Both give the ids the table held, in order."""
    from bot.tables import TableError

    db, clock = database, Clock()
    service = await open_service(db, ScriptedDice([3] * 200), clock)
    await service.create(GUILD, CHANNEL, SEATS[0], "pig", {"target": 500})
    await service.join(CHANNEL, SEATS[1])
    table = await service.start_game(CHANNEL, SEATS[0].id)
    player = table.seats[table.state.current].id
    for n in range(service_module.SNAPSHOT_EVERY * 2 + 3):  # ids at, before and after a snapshot
        await service.act(CHANNEL, player, "roll", str(1_250_000_000_000_000_000 + n) if n % 3 else f"i{n}")
    expected = list(table.seen)
    await close_service(service)

    service = await open_service(db, ScriptedDice([3] * 10), clock)
    assert list(service.table(CHANNEL).seen) == expected
    await close_service(service)

    store = await open_store(db)
    await store.write([(WITHOUT_SEEN, ()), UPGRADE_PENDING])  # as the code before wrote it
    await store.close()
    service = await open_service(db, ScriptedDice([3] * 10), clock)
    assert list(service.table(CHANNEL).seen) == expected
    with pytest.raises(TableError) as refused:
        await service.act(CHANNEL, player, "roll", f"i{service_module.SNAPSHOT_EVERY * 2 + 2}")  # the last move
    assert refused.value.code == "duplicate"
    await close_service(service)


def test_equal_options_are_built_once_and_only_an_equal_value_of_the_same_type_shares_them():
    pig = get_engine("pig")
    assert pig.options({"target": 50}) is pig.options({"target": 50})
    assert pig.options({"target": "50"}).target == 50
    with pytest.raises(InvalidOptions):
        pig.options({"target": 50.5})
    with pytest.raises(InvalidOptions):
        pig.options({"target": 50.0})  # equal to a memo's 50, but refused as before
    assert pig.loads(pig.dumps(pig.new_game(2, pig.options({"target": 70}), SeededDice(1))[0])).options.target == 70


async def test_a_restored_log_is_read_when_first_needed_and_moves_before_that_join_it(database, new_database):
    """The restored log stays JSON text (decoded at its first read); moves made before that are added to it."""
    from bot.tables.model import split_meta

    async def run(db, restart_at):
        clock, dice = Clock(), SeededDice(21)
        service = await open_service(db, dice, clock)
        await service.create(GUILD, CHANNEL, SEATS[0], "pig", {"target": 500})
        await service.join(CHANNEL, SEATS[1])
        await service.start_game(CHANNEL, SEATS[0].id)
        for n in range(40):
            if n == restart_at:
                await close_service(service)
                service = await open_service(db, dice, clock)
                assert service.table(CHANNEL).log_text is not None
            table = service.table(CHANNEL)
            seat = table.engine.to_act(table.state)[0]
            legal = table.engine.legal_actions(table.state, seat)
            action = "hold" if n % 5 == 4 and Action.parse("hold") in legal else "roll"
            await service.act(CHANNEL, table.seats[seat].id, action, f"i{n}")
        table = service.table(CHANNEL)
        log, meta = list(table.log), table.meta()
        await close_service(service)
        return log, meta

    assert await run(database, 29) == await run(await new_database(), None)
    for text in (
        '{"timeouts":[0],"locale":"en","log":[["x",{"acted":1,"log":[2]}]],"acted":[[1,2]],"seen":["a"]}',
        '{"timeouts":[],"log":[],"locale":"en"}',
        '{"timeouts":[1],"locale":"en","log":[],"acted":[]}',
    ):
        meta, log = split_meta(text)
        assert ({**meta, "log": loads(log)} if log is not None else meta) == loads(text)


async def _restarted(db, dice, clock, force):
    """Reopen; ``force`` loads the table at once (an eager restore), else the table's first use does the replay."""
    service = await open_service(db, dice, clock)
    table = service.by_channel.peek(CHANNEL)
    assert table is not None and table.pending is not None and table.state is None  # (not replayed yet)
    if force:
        assert service.ensure_loaded(table) and table.state is not None and table.pending is None
    return service


@pytest.mark.parametrize("first_use", ["act", "view", "deadline", "cancel", "status"])
async def test_a_table_replayed_at_its_first_use_is_the_table_an_eager_restore_gives(
    database, new_database, first_use
):
    """Start-up defers each table's replay to its first use: whichever use comes first, what follows is the same."""
    from bot.tables import TableError

    async def run(db, force):
        clock, dice = Clock(), SeededDice(31)
        service = await open_service(db, dice, clock)
        await service.create(GUILD, CHANNEL, SEATS[0], "liar", {})
        await service.join(CHANNEL, SEATS[1])
        table = await service.start_game(CHANNEL, SEATS[0].id)
        for n in range(service_module.SNAPSHOT_EVERY + 3):  # a snapshot, then moves to replay
            clock.now += 1
            seat = table.engine.to_act(table.state)[0]
            await service.act(CHANNEL, table.seats[seat].id, table.engine.legal_actions(table.state, seat)[0], f"i{n}")
        await close_service(service)
        service = await _restarted(db, dice, clock, force)
        table = service.by_channel.peek(CHANNEL)  # as it is: its first use below goes through the service
        seen: object = None
        if first_use == "act":
            with pytest.raises(TableError):  # a repeated interaction: refused, after the replay
                await service.act(CHANNEL, SEATS[0].id, "x", "i3")
            seat = table.engine.to_act(table.state)[0]
            await service.act(CHANNEL, table.seats[seat].id, table.engine.legal_actions(table.state, seat)[0], "new")
        elif first_use == "view":
            seen = service.view(CHANNEL, SEATS[1].id)[1]
        elif first_use == "deadline":
            clock.now = table.deadline + 1
            assert await service.run_due() == 1
        elif first_use == "cancel":
            await service.cancel(CHANNEL, SEATS[0].id)
            seen = tuple(await service.store.fetch_one("SELECT state, version, meta, status FROM games"))
        else:  # the row's fields are current before the replay
            seen = (table.status, table.version, table.deadline, table.running)
        result = (seen, picture(service), table.engine.dumps(table.state))
        await close_service(service)
        return result

    assert await run(database, False) == await run(await new_database(), True)


async def test_a_computer_player_whose_turn_it_is_moves_after_a_restart(database):
    clock, dice = Clock(), SeededDice(2)
    service = await open_service(database, dice, clock)
    service.computers.enabled = False  # the first run moves nobody by itself
    await service.create(GUILD, CHANNEL, SEATS[0], "pig", {"target": 500})
    await service.add_computer(CHANNEL, SEATS[0].id, "easy", "Robo")
    table = await service.start_game(CHANNEL, SEATS[0].id)
    while 1 not in table.engine.to_act(table.state):  # the person plays until it is the computer's turn
        await service.act(CHANNEL, SEATS[0].id, "roll")  # (until a one passes the turn)
    version = table.version
    await close_service(service)

    store = await open_store(database)
    service = TableService(store, dice, clock=clock, run_dispatcher=False, bot_delay=(0, 0))
    await service.start()
    await eventually(lambda: service.by_channel[CHANNEL].version > version, what="the computer to move")  # it moved
    await close_service(service)


async def test_a_table_whose_log_does_not_replay_closes_at_its_first_use(database):
    from bot.tables import TableError

    db, clock, dice = database, Clock(), ScriptedDice([3] * 50)
    service = await open_service(db, dice, clock)
    await service.create(GUILD, CHANNEL, SEATS[0], "pig", {"target": 500})
    await service.join(CHANNEL, SEATS[1])
    table = await service.start_game(CHANNEL, SEATS[0].id)
    player = table.seats[table.state.current].id
    for _ in range(3):
        await service.act(CHANNEL, player, "roll")
    await close_service(service)
    store = await open_store(db)
    await store.write([("UPDATE actions SET dice = '[[\"r\",6,[3,3]]]' WHERE seq = 3", ())])  # not what it drew
    await store.close()
    service = await open_service(db, dice, clock)
    with pytest.raises(TableError) as refused:
        await service.act(CHANNEL, player, "roll")
    assert refused.value.code == "no_table" and CHANNEL not in service.by_channel
    with pytest.raises(TableError):
        await service.act(CHANNEL, player, "roll")
    row = await service.store.fetch_one("SELECT status, version FROM games")
    assert tuple(row) == ("running", 1)  # nothing written
    await close_service(service)


async def test_the_lookups_hand_out_loaded_tables_and_leave_out_one_that_does_not_replay(database):
    db, clock, dice = database, Clock(), ScriptedDice([3] * 50)
    service = await open_service(db, dice, clock)
    for channel in (CHANNEL, CHANNEL + 1):
        await service.create(GUILD, channel, SEATS[0], "pig", {"target": 500})
        await service.join(channel, SEATS[1])
        table = await service.start_game(channel, SEATS[0].id)
        await service.act(channel, table.seats[table.state.current].id, "roll")
    await close_service(service)
    store = await open_store(db)
    await store.write([("UPDATE actions SET dice = '[[\"r\",6,[3,3]]]' WHERE seq = 2 AND game_id = 2", ())])
    await store.close()

    service = await open_service(db, dice, clock)
    assert len(service.by_id) == 2 and CHANNEL + 1 in service.by_channel  # counting and `in` load nothing
    assert all(table.pending is not None for table in service.by_id.peek_all())
    (good,) = service.by_id.values()  # each loaded as it is handed out; the one that does not replay left out
    assert good.channel_id == CHANNEL and good.pending is None and good.state.rolls_this_turn == 1
    assert service.by_channel.get(CHANNEL + 1) is None and 2 not in service.by_id and len(service.by_channel) == 1
    await close_service(service)
