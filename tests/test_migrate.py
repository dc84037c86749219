"""``dicetavern migrate``: a SQLite database with real content moves to PostgreSQL (and back) whole, its running game
goes on there, its boards read the same; refusals (a non-empty target, a leased source, a bad URL) are one line and
write nothing."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import shutil
import sqlite3
import time
from collections.abc import AsyncIterator
from importlib import resources
from pathlib import Path
from typing import Any

import asyncpg  # type: ignore[import-untyped]
import pytest

from bot.games.dice import SeededDice
from bot.i18n import t
from bot.store import Store, open_store, ratings, repo
from bot.store import copy as migrate
from bot.store.copy_ends import SQLiteEnd
from bot.tables import Seat, TableService
from bot.tables import service as service_module
from bot.tables.tournaments import TournamentService
from bot.tournaments import Plan
from tests.databases import postgres_schema

GUILD, FINISHED, RUNNING, CONTEST = 51, 500, 501, 503
ALICE, BOB, CAROL = Seat(100, "Alice"), Seat(200, "Bob"), Seat(300, "Carol")
TABLES = ["games", "actions", "deadlines", "results", "guild_settings", "users", "reminders", "seasons", "ratings"]
TABLES += ["data_upgrades"]  # bot.tables.upgrade's record of the older rows' conversion
TABLES += ["end_messages"]  # the end-of-game messages still owed (the games here finish with no presenter)
TABLES += ["dice_tallies"]  # /dicestats' counts per finished game and seat
TABLES += ["achievements", "achievement_games"]  # what each member earned, and the games evaluated for it
TABLES += ["tournaments", "tournament_entrants", "tournament_rounds", "tournament_tables"]  # a finished one
TABLES += ["interaction_windows"]  # the tables that live on an interaction's message (none here)


class Clock:
    def __init__(self) -> None:
        self.now = 1_700_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
async def postgres() -> AsyncIterator[str]:
    """A fresh, empty schema on the test PostgreSQL (skipped with the reason when none answers)."""
    async for url in postgres_schema():
        yield url


async def open_service(target: str, clock: Clock) -> TableService:
    store = await open_store(target)
    service = TableService(store, SeededDice(7), clock=clock, run_dispatcher=False, auto_bots=False)
    await service.start()
    return service


async def close(service: TableService) -> None:
    await service.stop()
    await service.store.close()


async def play_moves(service: TableService, channel: int, rng: random.Random, moves: int | None, clock: Clock) -> None:
    """``moves`` random legal moves at the table in ``channel`` (None: to the end of its game)."""
    table = service.by_channel[channel]
    done = 0
    while table.running and (moves is None or done < moves):
        clock.now += 1
        seat = table.engine.to_act(table.state)[0]
        action = rng.choice(table.engine.legal_actions(table.state, seat))
        await service.act(channel, table.seats[seat].id, action, f"i{clock.now:.0f}", seen_version=table.version)
        done += 1


async def build(path: Path, clock: Clock) -> None:
    """A database as a server leaves it: games finished in two seasons (results, ratings, a computer player's
    rating), a game running with moves after its last snapshot, server settings, a member's language."""
    service = await open_service(str(path), clock)
    try:
        rng = random.Random(3)
        await service.create(GUILD, FINISHED, ALICE, "pig", {"target": 20})
        await service.join(FINISHED, BOB)
        await service.add_computer(FINISHED, ALICE.id, "hard", "Hard")
        await service.start_game(FINISHED, ALICE.id)
        await play_moves(service, FINISHED, rng, None, clock)
        await ratings.start_season(service.store, GUILD, "Spring", clock.now)
        await service.create(GUILD, FINISHED, BOB, "pig", {"target": 20})
        await service.join(FINISHED, CAROL)
        await service.start_game(FINISHED, BOB.id)
        await play_moves(service, FINISHED, rng, None, clock)
        await service.set_timeout(GUILD, 300)
        await service.set_language(GUILD, "de")
        await service.store.write([repo.set_user_language(CAROL.id, "cy")])
        tournaments = TournamentService(service.store, service, clock=clock)  # a finished tournament of one table
        await tournaments.create(GUILD, CONTEST, CAROL, "pig", Plan("swiss", 2, 1), options={"target": 20})
        for seat in (CAROL, BOB):
            clock.now += 1
            await tournaments.join(CONTEST, seat)
        await tournaments.start(CONTEST, CAROL.id)
        await play_moves(service, CONTEST, rng, None, clock)
        await tournaments.settle()
        await service.create(GUILD, RUNNING, ALICE, "pig", {"target": 500})
        await service.join(RUNNING, CAROL)
        await service.start_game(RUNNING, ALICE.id)
        await play_moves(service, RUNNING, rng, service_module.SNAPSHOT_EVERY + 3, clock)
    finally:
        await close(service)


def picture(service: TableService) -> tuple[Any, ...]:
    table = service.by_channel[RUNNING]
    return (table.id, table.engine.dumps(table.state), table.meta(), table.version, table.deadline, table.status)


async def contents(target: str) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table the copy carries, sorted (the backends return rows in their own orders)."""
    store = await open_store(target)
    try:
        return {
            name: sorted((tuple(r) for r in await store.fetch_all(f"SELECT * FROM {name}")), key=repr)
            for name in [*TABLES, "rating_history"]
        }
    finally:
        await store.close()


async def boards(store: Store) -> list[Any]:
    return [await ratings.board(store, GUILD, season, game, 50) for season in (0, 1) for game in ("pig", "all")]


async def finish_running_game(target: str, clock: Clock) -> tuple[Any, ...]:
    """Restore the database's tables, play the running game to its end: its picture restored, the boards after."""
    service = await open_service(target, clock)
    try:
        restored = picture(service)
        await play_moves(service, RUNNING, random.Random(9), None, clock)
        return restored, await boards(service.store)
    finally:
        await close(service)


@pytest.mark.postgres
async def test_a_sqlite_database_moves_to_postgresql_whole_and_its_running_game_goes_on(tmp_path, postgres):
    clock = Clock()
    source = tmp_path / "tavern.sqlite3"
    await build(source, clock)
    before = await contents(str(source))
    assert before["actions"] and before["ratings"] and before["seasons"] and before["users"]
    assert [r[6] for r in before["tournaments"]] == ["finished"] and len(before["tournament_entrants"]) == 2

    report = await migrate.copy_database(f"sqlite:{source}", postgres, batch=7)  # several batches per table
    assert report.ok and report.committed
    assert {c.name: c.target for c in report.tables} == {name: len(rows) for name, rows in before.items()}
    assert await contents(postgres) == before  # every row, every value

    # The running game restores on PostgreSQL as on SQLite, and goes on identically to its end.
    control = tmp_path / "control.sqlite3"
    shutil.copy(source, control)
    at = clock.now
    expected = await finish_running_game(str(control), clock)
    clock.now = at
    assert await finish_running_game(postgres, clock) == expected
    # A new game's id continues after the copied ones.
    service = await open_service(postgres, clock)
    try:
        table = await service.create(GUILD, 502, BOB, "mia", {})
        assert table.id == max(row[0] for row in before["games"]) + 1
    finally:
        await close(service)

    assert await foreign_keys(postgres) == schema_foreign_keys()  # dropped for the copy, back and validated

    # And back: PostgreSQL to a new SQLite file gives the same rows again.
    back = tmp_path / "back.sqlite3"
    report = await migrate.copy_database(postgres, f"sqlite:{back}")
    assert report.ok and report.committed
    assert (await contents(str(back)))["ratings"] == (await contents(postgres))["ratings"]


async def foreign_keys(url: str) -> int:
    conn = await asyncpg.connect(url)
    try:
        return await conn.fetchval(
            "SELECT COUNT(*) FROM pg_constraint WHERE contype = 'f' AND connamespace = current_schema()::regnamespace"
        )
    finally:
        await conn.close()


def schema_foreign_keys() -> int:
    folder = resources.files("bot.store") / "migrations" / "postgresql"
    return sum(f.read_text().count(" REFERENCES ") for f in folder.iterdir() if f.name.endswith(".sql"))


@pytest.mark.postgres
async def test_a_row_without_its_parent_fails_the_copy_and_leaves_the_target_as_it_was(tmp_path, postgres):
    source = tmp_path / "tavern.sqlite3"
    await (await open_store(source)).close()
    with contextlib.closing(sqlite3.connect(source)) as conn, conn:  # without the store's PRAGMA foreign_keys
        conn.execute("INSERT INTO actions (game_id, seq, seat, action, at) VALUES (99, 1, 0, 'roll', 1.0)")
    with pytest.raises(migrate.CopyError) as refused:
        await migrate.copy_database(str(source), postgres)
    assert refused.value.key == "constraint_failed" and "actions" in str(refused.value)
    assert all(not rows for rows in (await contents(postgres)).values())
    assert await foreign_keys(postgres) == schema_foreign_keys() > 0


@pytest.mark.postgres
async def test_a_non_empty_target_is_refused_and_force_replaces_it(tmp_path, postgres, capsys):
    clock = Clock()
    source = tmp_path / "tavern.sqlite3"
    await build(source, clock)
    assert (await migrate.copy_database(str(source), postgres)).committed
    store = await open_store(postgres)
    await store.write([("DELETE FROM users WHERE user_id = ?", (CAROL.id,))])
    await store.close()
    after_delete = await contents(postgres)

    args = parse(["--from", f"sqlite:{source}", "--to", postgres])
    assert await asyncio.to_thread(migrate.run, args) == 2  # run() has its own event loop
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "--force" in err and "games" in err
    assert await contents(postgres) == after_delete  # untouched

    assert await asyncio.to_thread(migrate.run, parse(["--from", f"sqlite:{source}", "--to", postgres, "--force"])) == 0
    out = capsys.readouterr().out
    assert "users" in out and t("migrate.differs") not in out
    assert await contents(postgres) == await contents(str(source))


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    migrate.add_arguments(parser)
    return parser.parse_args(argv)


@pytest.mark.parametrize(
    ("target", "says"),
    [
        ("postgresql://postgres:secret@127.0.0.1:1/test", "cannot open postgresql://postgres:***@127.0.0.1:1/test: "),
        ("mysql://db.example/tavern", "mysql://db.example/tavern is neither"),
    ],
)
def test_a_bad_target_is_one_line_and_hides_the_password(tmp_path, capsys, target, says):
    source = tmp_path / "tavern.sqlite3"
    sqlite3.connect(source).close()
    assert migrate.run(parse(["--from", str(source), "--to", target])) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    (line,) = captured.err.splitlines()
    assert line.startswith(t("cli.error", message=says)) and "secret" not in line


def test_a_missing_source_is_refused_without_creating_it(tmp_path, capsys):
    missing = tmp_path / "nowhere.sqlite3"
    assert migrate.run(parse(["--from", f"sqlite:{missing}", "--to", str(tmp_path / "t.sqlite3")])) == 2
    assert not missing.exists() and str(missing) in capsys.readouterr().err


def lease(owner: str, until: float) -> tuple[str, tuple[Any, ...]]:
    return (
        "INSERT INTO leases (shard, shard_count, owner, host, pid, token, expires_at) VALUES (0, 1, ?, 'h', 1, 1, ?)",
        (owner, until),
    )


async def test_a_source_a_bot_holds_a_lease_on_is_refused(tmp_path):
    source = tmp_path / "tavern.sqlite3"
    store = await open_store(source)
    await store.write([lease("bot-0", time.time() + 30)])
    await store.close()
    with pytest.raises(migrate.CopyError) as refused:
        await migrate.copy_database(str(source), str(tmp_path / "copy.sqlite3"))
    assert refused.value.key == "leased" and "bot-0" in str(refused.value)
    # Released (or expired) leases do not hold a copy back, and stay behind: each database keeps its own.
    store = await open_store(source)
    await store.write([("UPDATE leases SET owner = '', expires_at = 0", ())])
    await store.close()
    report = await migrate.copy_database(str(source), str(tmp_path / "copy.sqlite3"))
    assert report.committed and "leases" not in [c.name for c in report.tables]


async def test_a_target_a_bot_holds_a_lease_on_is_refused_even_with_force(tmp_path):
    source, target = tmp_path / "tavern.sqlite3", tmp_path / "served.sqlite3"
    await (await open_store(source)).close()
    store = await open_store(target)
    await store.write([lease("bot-1", time.time() + 30), ("INSERT INTO users (user_id) VALUES (1)", ())])
    await store.close()
    with pytest.raises(migrate.CopyError) as refused:
        await migrate.copy_database(str(source), str(target), force=True)
    assert refused.value.key == "leased" and str(target) in str(refused.value)
    assert (await contents(str(target)))["users"] == [(1, 0, None, None, None, 0)]  # untouched


async def test_a_copy_that_does_not_match_is_rolled_back(tmp_path, monkeypatch):
    clock = Clock()
    source = tmp_path / "tavern.sqlite3"
    await build(source, clock)
    insert = SQLiteEnd.insert

    async def lossy(self: SQLiteEnd, table: str, columns: list[str], rows: list[tuple[Any, ...]]) -> None:
        await insert(self, table, columns, rows[:-1] if table == "actions" else rows)

    monkeypatch.setattr(SQLiteEnd, "insert", lossy)
    target = tmp_path / "copy.sqlite3"
    report = await migrate.copy_database(str(source), str(target))
    assert not report.ok and not report.committed
    assert [c.name for c in report.tables if not c.ok] == ["actions"]
    assert all(not rows for rows in (await contents(str(target))).values())  # nothing committed


async def test_a_dry_run_verifies_and_keeps_nothing(tmp_path):
    clock = Clock()
    source = tmp_path / "tavern.sqlite3"
    await build(source, clock)
    target = tmp_path / "copy.sqlite3"
    report = await migrate.copy_database(str(source), str(target), dry_run=True)
    assert report.ok and not report.committed and report.rows > 0
    assert all(not rows for rows in (await contents(str(target))).values())


def test_tables_come_after_the_tables_they_reference():
    references = {"actions": {"games"}, "results": {"games"}, "games": set(), "ratings": set(), "loop": {"loop"}}
    order = migrate.dependency_order(["actions", "ratings", "results", "games", "loop"], references)
    assert order == ["games", "actions", "ratings", "results", "loop"]


async def test_a_database_is_not_copied_onto_itself_however_it_is_spelled(tmp_path, monkeypatch):
    source = tmp_path / "tavern.sqlite3"
    await (await open_store(source)).close()
    monkeypatch.chdir(tmp_path)
    with pytest.raises(migrate.CopyError) as refused:
        await migrate.copy_database(f"sqlite:{source}", "sqlite:./tavern.sqlite3", force=True)
    assert refused.value.key == "same"


def test_values_convert_only_where_the_two_schemas_declare_different_kinds():
    assert migrate._converters(["INTEGER", "TEXT", "REAL"], ["bigint", "text", "double precision"]) is None
    assert migrate._converters(["int", "varchar(20)"], ["smallint", "character varying"]) is None  # same kinds
    convert = migrate._converters(["REAL", "INTEGER", "NUMERIC"], ["bigint", "text", "integer"])
    assert convert is not None
    assert convert([(3.0, 7, "12"), (None, None, None)]) == [(3, "7", 12), (None, None, None)]
    with pytest.raises(ValueError):
        convert([(2.5, 1, "1")])  # never rounded away


def test_a_batch_below_one_is_refused(tmp_path, capsys):
    assert migrate.run(parse(["--to", str(tmp_path / "t.sqlite3"), "--batch", "0"])) == 2
    assert "--batch" in capsys.readouterr().err
