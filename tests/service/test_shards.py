"""Shards: which guilds a process serves, and a table service that acts on those guilds' tables only."""

from __future__ import annotations

import pytest

from bot.games.dice import SeededDice
from bot.shards import ShardError, Shards, format_ids, group_dm_scope, parse, shard_of
from bot.store import open_store, repo, windows
from bot.tables import Seat, TableService
from bot.tables.retention import DAY
from bot.tables.service import NotOurShard

# Real snowflakes (their top bits are a millisecond timestamp): two guilds per shard of two.
EVEN_A, EVEN_B = 81384788765712384, 1157740395939999744  # shard 0 of 2
ODD_A, ODD_B = 613425648689741845, 1094659238917234809  # shard 1 of 2
ALICE, BOB = Seat(100, "Alice"), Seat(200, "Bob")


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


# -- parsing and the formula ---------------------------------------------------------------------------------


def test_the_guilds_chosen_here_lie_on_the_shards_the_tests_say():
    assert [shard_of(g, 2) for g in (EVEN_A, EVEN_B, ODD_A, ODD_B)] == [0, 0, 1, 1]


def test_shard_of_is_discords_formula_on_real_snowflakes():
    assert shard_of(81384788765712384, 16) == 2  # (81384788765712384 >> 22) = 19403655106
    assert shard_of(81384788765712384, 8) == 2
    assert shard_of(1157740395939999744, 3) == 0
    assert shard_of(2**63 - 1, 7) == 3


def test_parse_reads_single_ids_and_inclusive_ranges():
    shards = parse("0-3,6", 8)
    assert shards == Shards(frozenset({0, 1, 2, 3, 6}), 8)
    assert str(shards) == "0-3,6 of 8"
    assert parse(" 1 , 0 ", "2").ids == {0, 1}
    assert format_ids(frozenset({5, 0, 1, 2, 7, 8})) == "0-2,5,7-8"


@pytest.mark.parametrize(
    ("text", "count", "words"),
    [
        ("0-3", 2, "shard 0-3 is out of range: shards are 0 to 1 of 2"),
        ("2", 2, "shard 2 is out of range"),
        ("", 2, "no shard given"),
        ("1,,2", 4, "an empty item"),
        ("3-1", 4, "runs backwards"),
        ("x", 4, "'x' is not a shard number"),
        ("-1", 4, "'-1' is not a shard number"),
        ("0", 0, "the shard count must be at least 1, not 0"),
        ("0", "eight", "the shard count must be a whole number, not 'eight'"),
        ("0", 10**9, "the shard count must be at most"),
    ],
)
def test_parse_refuses_in_one_line_saying_why(text, count, words):
    with pytest.raises(ShardError, match=words) as caught:
        parse(text, count)
    assert "\n" not in str(caught.value)


def test_the_default_is_every_guild():
    everything = Shards.all()
    assert (everything.ids, everything.count) == ({0}, 1)
    assert everything.everything and not everything.sharded
    assert all(everything.owns(g) for g in (EVEN_A, ODD_A, 1))
    assert parse("0-1", 2).everything


def test_owns_follows_the_formula():
    evens, odds = parse("0", 2), parse("1", 2)
    assert evens.owns(EVEN_A) and evens.owns(EVEN_B) and not evens.owns(ODD_A)
    assert odds.owns(ODD_B) and not odds.owns(EVEN_B)
    with pytest.raises(ShardError):
        Shards(frozenset(), 2)
    with pytest.raises(ShardError):
        Shards(frozenset({3}), 2)


async def test_the_sql_condition_picks_the_same_guilds_as_owns(database):
    store = await open_store(database)
    try:
        guilds = [EVEN_A, EVEN_B, ODD_A, ODD_B, 2**63 - 1, 1 << 22, 3 << 22, 5, -ODD_A, -(3 << 22)]  # and group DMs
        for count in (2, 3, 8):
            for ids in ({0}, {1}, {0, count - 1}):
                shards = Shards(frozenset(ids), count)
                sql = " UNION ALL ".join(f"SELECT CAST({g} AS BIGINT) AS guild_id" for g in guilds)
                rows = await store.fetch_all(f"SELECT guild_id FROM ({sql}) AS g WHERE {shards.sql()}")
                assert sorted(r[0] for r in rows) == sorted(g for g in guilds if shards.owns(g))
    finally:
        await store.close()


# -- a service that serves some shards ----------------------------------------------------------------------


async def fill(path, clock):
    """A store with tables in guilds of both shards of two, written by one process that served them all: per guild
    a running Pig game against a computer (channel guild%1000+1) and a lobby (+2); and one finished game each."""
    store = await open_store(path)
    service = TableService(store, SeededDice(3), clock=clock, run_dispatcher=False, auto_bots=False, retention=30)
    await service.start()
    for guild in (EVEN_A, ODD_A):
        channel = guild % 1000
        await service.create(guild, channel + 3, ALICE, "pig", {"target": 20})
        await service.join(channel + 3, BOB)
        finished = await service.start_game(channel + 3, ALICE.id)
        while finished.running:
            move = "hold" if finished.state.turn_total >= 8 else "roll"
            await service.act(channel + 3, finished.seats[finished.state.current].id, move)
        await service.create(guild, channel + 1, ALICE, "pig")
        await service.add_computer(channel + 1, ALICE.id, "easy", "Computer")
        await service.start_game(channel + 1, ALICE.id)
        await service.create(guild, channel + 2, BOB, "mia")
    await service.stop()
    await store.close()


async def test_a_service_of_shard_0_restores_and_times_out_only_its_guilds_tables(database):
    clock = Clock()
    await fill(database, clock)
    store = await open_store(database)
    service = TableService(
        store, SeededDice(4), clock=clock, run_dispatcher=False, auto_bots=False, shards=parse("0", 2)
    )
    try:
        restored = await service.start()
        assert {t.guild_id for t in restored} == {EVEN_A}
        assert sorted(t.channel_id for t in restored) == [EVEN_A % 1000 + 1, EVEN_A % 1000 + 2]
        assert set(service.by_channel) == {EVEN_A % 1000 + 1, EVEN_A % 1000 + 2}
        assert {game_id for _, game_id, _ in service.deadlines.heap} == {t.id for t in restored}

        clock.now += 3600  # every deadline is long past: only this shard's tables move
        assert await service.run_due() == 2
        statuses = {
            (r["guild_id"], r["channel_id"]): (r["status"], r["version"])
            for r in await store.fetch_all("SELECT guild_id, channel_id, status, version FROM games")
        }
        assert statuses[(EVEN_A, EVEN_A % 1000 + 2)][0] == "cancelled"  # the idle lobby closed
        assert statuses[(ODD_A, ODD_A % 1000 + 2)][0] == "lobby"  # the other process's: untouched
        assert statuses[(ODD_A, ODD_A % 1000 + 1)] == ("running", 1)  # no timeout logged for it
        odd_id = next(
            r[0]
            for r in await store.fetch_all("SELECT id FROM games WHERE guild_id = ? AND status = 'running'", (ODD_A,))
        )
        assert (await store.fetch_one("SELECT MAX(seq) FROM actions WHERE game_id = ?", (odd_id,)))[0] == 1
    finally:
        await service.stop()
        await store.close()


async def test_computer_players_move_only_at_this_shards_tables(database):
    clock = Clock()
    await fill(database, clock)
    store = await open_store(database)
    service = TableService(store, SeededDice(4), clock=clock, run_dispatcher=False, shards=parse("1", 2))
    try:
        await service.start()
        table = service.table(ODD_A % 1000 + 1)
        if table.state.current == 0:  # Alice's turn: her move hands the computer its turn
            await service.act(table.channel_id, ALICE.id, "hold")
        assert set(service.computers._tasks) == {(table.id, 1)}  # and none for shard 0's table
    finally:
        await service.stop()
        await store.close()


async def test_compaction_takes_only_this_shards_finished_games(database):
    clock = Clock()
    await fill(database, clock)
    clock.now += 31 * DAY
    store = await open_store(database)
    service = TableService(store, SeededDice(4), clock=clock, run_dispatcher=False, retention=30, shards=parse("1", 2))
    try:
        await service.start()
        assert await service.compact() == 1
        compacted = await store.fetch_all("SELECT guild_id FROM games WHERE record IS NOT NULL")
        assert [r[0] for r in compacted] == [ODD_A]
    finally:
        await service.stop()
        await store.close()


async def test_a_table_for_another_shards_guild_is_refused(database):
    store = await open_store(database)
    service = TableService(store, SeededDice(4), run_dispatcher=False, shards=parse("0", 2))
    try:
        await service.start()
        with pytest.raises(NotOurShard):
            await service.create(ODD_B, 1, ALICE, "pig")
        assert service.by_channel == {}
        assert (await store.fetch_one("SELECT COUNT(*) FROM games"))[0] == 0
        await service.create(EVEN_B, 1, ALICE, "pig")
    finally:
        await service.stop()
        await store.close()


def test_a_group_dm_s_scope_lies_on_shard_0_where_discord_sends_its_interactions():
    """Interactions without a server (a group DM) come on shard 0: its scope, the channel id negated, is shard 0's
    in Python and in SQL alike, whatever the channel id's own bits say."""
    channel = (5 << 22) + 123  # as a server id it would be shard 1 of 2, 5 of 8
    scope = group_dm_scope(channel)
    assert scope < 0 and shard_of(channel, 2) == 1
    for count in (2, 8):
        assert shard_of(scope, count) == 0
        assert parse("0", count).owns(scope) and not parse(f"1-{count - 1}", count).owns(scope)


async def test_a_process_reads_back_only_its_shards_interaction_windows(database):
    """The tables on an interaction's message (issue 29) come back after a restart with their token: each process
    reads its own shards' windows: those of open tables, and of finished ones whose end message is still owed (it
    goes out through the token after the restart), not of one whose end was told."""
    clock = Clock()
    await fill(database, clock)
    store = await open_store(database)
    try:
        games = await store.fetch_all("SELECT id, guild_id, status FROM games")
        await store.write([windows.set_window(g["id"], f"token-{g['id']}", 1e10) for g in games])
        finished = [g for g in games if g["status"] == "finished" and shard_of(g["guild_id"], 2) == 0]
        assert len(finished) == 1  # owed: no presenter told its end
        owed = {r["game_id"] for r in await store.fetch_all("SELECT game_id FROM end_messages")}
        assert finished[0]["id"] in owed
        expected = {g["id"] for g in games if g["status"] in ("lobby", "running") and shard_of(g["guild_id"], 2) == 0}
        expected.add(finished[0]["id"])
        assert len(expected) < len(games)
        ours = await windows.open_windows(store, parse("0", 2).sql("g.guild_id"))
        assert {r["game_id"] for r in ours} == expected
        every = {r["game_id"] for r in await windows.open_windows(store)}
        assert expected < every
        await store.write([repo.end_told(finished[0]["id"])])  # told: its window is no longer read back
        ours = await windows.open_windows(store, parse("0", 2).sql("g.guild_id"))
        assert {r["game_id"] for r in ours} == expected - {finished[0]["id"]}
    finally:
        await store.close()
