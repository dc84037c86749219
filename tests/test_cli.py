"""The `dicetavern` command: clear one-line errors, explicit command sync."""

from __future__ import annotations

import asyncio
import logging
import os
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any
from urllib.parse import parse_qs, urlparse

import discord
import pytest
from discord.ext import commands

from bot import cli
from bot.client import DiceTavern
from bot.games.dice import SeededDice
from bot.store import Store, open_store, repo
from bot.tables import Seat, TableService
from tests.fakediscord import FakeDiscord, handlers_done, run_bot
from tests.waiting import DEADLINE, eventually


@pytest.fixture
def env(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # no stray .env is read
    monkeypatch.setenv("DATABASE_PATH", str(tmp_path / "db.sqlite3"))
    root = logging.getLogger()
    handlers = list(root.handlers)
    yield monkeypatch
    root.handlers[:] = handlers  # main() installs discord.py's log handler on the (captured) stderr


def test_missing_token_is_a_one_line_error(env, capsys):
    env.delenv("DISCORD_TOKEN", raising=False)
    assert cli.main(["run"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["error: DISCORD_TOKEN is not set (put it in the environment or in a .env file)"]


async def test_rejected_token_is_a_one_line_error_and_sync_registers_commands(env, capsys):
    async with FakeDiscord(token="good-token") as fake:
        fake.add_guild("Tavern")
        env.setenv("DISCORD_TOKEN", "wrong-token")
        assert await asyncio.to_thread(cli.main, ["run"]) == 2
        err = capsys.readouterr().err
        assert "error: Discord rejected DISCORD_TOKEN" in err and "Traceback" not in err

        env.setenv("DISCORD_TOKEN", "good-token")
        assert await asyncio.to_thread(cli.main, ["sync"]) == 0
        names = {c["name"] for c in fake.registered_commands()}
        assert {"pig", "game", "leaderboard", "stats", "settings"} <= names
        assert "synced" in capsys.readouterr().out


def test_token_from_dotenv_file(env, tmp_path):
    env.delenv("DISCORD_TOKEN", raising=False)
    (tmp_path / ".env").write_text("DISCORD_TOKEN=from-file\n")
    assert cli._token() == "from-file"


# -- sync registers commands and nothing else ----------------------------------------------------------------------


async def _overdue_pig_game(db: str) -> None:
    """A started Pig game whose turn deadline passed an hour ago, as a stopped bot leaves it."""
    store = await open_store(db)
    service = TableService(store, SeededDice(1), clock=lambda: time.time() - 3600, run_dispatcher=False)
    await service.start()
    await service.create(1, 10, Seat(100, "Alice"), "pig", {})
    await service.join(10, Seat(200, "Bob"))
    await service.start_game(10, 100)
    await service.stop()
    await store.close()


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


async def test_sync_neither_opens_the_tables_nor_writes_the_database(env, tmp_path, capsys):
    db = tmp_path / "data" / "tavern.sqlite3"
    db.parent.mkdir()
    await _overdue_pig_game(str(db))
    before = _snapshot(db.parent)
    async with FakeDiscord() as fake:
        fake.add_guild("Tavern")
        env.setenv("DISCORD_TOKEN", "token")
        env.setenv("DATABASE_PATH", str(db))
        assert await asyncio.to_thread(cli.main, ["sync"]) == 0
        assert {"pig", "game"} <= {c["name"] for c in fake.registered_commands()}
    assert _snapshot(db.parent) == before  # the overdue move was not applied; not even a -wal file appeared
    store = await open_store(str(db))
    try:
        (game,) = await repo.open_games(store)
        assert game["due"] is not None and game["due"] < time.time()  # still overdue, for the bot to handle
    finally:
        await store.close()


async def test_sync_to_a_server_the_bot_is_not_in_is_a_one_line_error(env, capsys):
    async with FakeDiscord() as fake:
        fake.add_guild("Tavern")
        env.setenv("DISCORD_TOKEN", "token")
        assert await asyncio.to_thread(cli.main, ["sync", "--guild", "12345"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    err = [line for line in captured.err.splitlines() if line.strip()]
    assert len(err) == 1 and "Traceback" not in captured.err
    assert err[0].startswith("error: ") and "12345" in err[0] and "50001" in err[0]


def test_discord_errors_become_one_line():
    response = SimpleNamespace(status=400, reason="Bad Request")
    body = {"code": 50035, "message": "Invalid Form Body", "errors": {"0": {"name": {"_errors": [
        {"code": "BASE_TYPE_BAD_LENGTH", "message": "Must be between 1 and 32 in length."}]}}}}
    error = discord.HTTPException(response, body)
    assert "\n" in str(error)  # discord.py's own text has several lines
    failure = cli.discord_failure(error)
    assert failure is not None and failure.status == 2
    assert "\n" not in str(failure) and "50035" in str(failure) and "Must be between 1 and 32" in str(failure)
    assert cli.discord_failure(discord.LoginFailure("x")).status == 2
    assert cli.discord_failure(ConnectionRefusedError("refused")).status == 3  # not reached: a different status
    assert cli.discord_failure(PermissionError("a file")) is None  # an OSError, but not the network's
    assert cli.discord_failure(ValueError("a bug")) is None  # not a Discord failure: a traceback is right
    assert cli.discord_failure(commands.ExtensionFailed("cogs.pig", ValueError("a bug"))) is None  # nor a cog's


async def test_a_database_that_cannot_be_opened_is_a_one_line_error(env, tmp_path, capsys):
    async with FakeDiscord() as fake:
        fake.add_guild("Tavern")
        env.setenv("DISCORD_TOKEN", "token")
        env.setenv("DATABASE_PATH", str(tmp_path))  # a folder, not a database file
        assert await asyncio.to_thread(cli.main, ["run"]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert err.strip().splitlines()[-1].startswith(f"error: cannot open the database {tmp_path} (DATABASE_PATH): ")


@pytest.mark.parametrize(
    "variable, value", [("DICETAVERN_DURABILITY", "sometimes"), ("DICETAVERN_RETENTION_DAYS", "-3")]
)
def test_a_bad_durability_or_retention_setting_is_a_one_line_error(env, capsys, variable, value):
    env.setenv("DISCORD_TOKEN", "token")
    env.setenv(variable, value)
    assert cli.main(["run"]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and variable in err.strip().splitlines()[-1]


# -- start-up: the ready line, the sync hint, the heartbeat, no voice warnings ----------------------------------------


async def _run_until_ready(fake, caplog, **options) -> tuple[asyncio.Event, asyncio.Task[None]]:
    """Start `dicetavern run` in this loop; return once it is ready and has checked the registered commands."""
    stop, mark = asyncio.Event(), fake.mark()
    task = asyncio.create_task(cli._run("token", stop, guild_ready_timeout=0.1, **options))

    def checked() -> bool:
        ready = any(r.getMessage().startswith("ready: ") for r in caplog.records)
        fetched = [c for c in fake.calls(since=mark, method="GET", path_prefix="/applications/") if c.status]
        return task.done() or (ready and bool(fetched))

    await fake.wait_for(checked, DEADLINE, what="the ready line and the command check")
    await handlers_done()  # on_ready has read the answer and logged the hint, if any
    return stop, task


async def test_start_up_prints_one_ready_line_with_the_invite_and_a_sync_hint(env, tmp_path, caplog):
    caplog.set_level(logging.INFO)
    db = tmp_path / "tavern.sqlite3"
    env.setenv("DATABASE_PATH", str(db))
    async with FakeDiscord(bot_name="Tavern Bot") as fake:
        fake.add_guild("One")
        fake.add_guild("Two")
        stop, task = await _run_until_ready(fake, caplog)
        assert (tmp_path / "tavern.sqlite3.heartbeat").exists()  # connected: the health check passes
        stop.set()
        await task
        assert not (tmp_path / "tavern.sqlite3.heartbeat").exists()  # stopped: it fails at once

        messages = [r.getMessage() for r in caplog.records]
        (ready,) = [m for m in messages if m.startswith("ready: ")]
        assert "Tavern Bot" in ready and "2 servers" in ready and str(db) in ready
        invite = ready.split("invite ")[1]
        query = parse_qs(urlparse(invite).query)
        assert query["client_id"] == [str(fake.application_id)]
        expected = discord.Permissions(send_messages=True, embed_links=True, read_message_history=True)
        assert query["permissions"] == [str(expected.value)]
        assert query["scope"] == ["bot applications.commands"]
        assert any("run `dicetavern sync`" in m for m in messages)  # nothing registered yet
        assert not [m for m in messages if "voice" in m.lower()]

        caplog.clear()
        assert await cli._sync("token", None) > 0
        stop, task = await _run_until_ready(fake, caplog)
        stop.set()
        await task
        messages = [r.getMessage() for r in caplog.records]
        assert len([m for m in messages if m.startswith("ready: ")]) == 1
        assert not any("dicetavern sync" in m for m in messages)  # commands are registered: no hint


def test_no_voice_warnings(caplog, monkeypatch):
    monkeypatch.setattr(discord.VoiceClient, "warn_nacl", True)  # as on a machine without PyNaCl
    monkeypatch.setattr(discord.VoiceClient, "warn_dave", True, raising=False)
    caplog.set_level(logging.WARNING)
    DiceTavern(database_path=":memory:")
    assert not [r for r in caplog.records if "voice" in r.getMessage().lower()]


async def test_the_heartbeat_is_touched_while_connected(tmp_path):
    async with FakeDiscord() as fake:
        fake.add_guild("Tavern")
        bot = DiceTavern(database_path=str(tmp_path / "db.sqlite3"), guild_ready_timeout=0.1, heartbeat_interval=0.05)
        async with run_bot(fake, bot):
            os.utime(bot.heartbeat, (0, 0))
            await eventually(lambda: cli.health(bot.heartbeat, max_age=5)[0], what="the heartbeat to be touched")
        assert not bot.heartbeat.exists()


async def test_the_running_bot_collects_garbage_rarely_and_gives_the_settings_back_on_close(tmp_path):
    import gc

    from bot.client import GC_THRESHOLDS

    before = gc.get_threshold()
    async with FakeDiscord() as fake:
        fake.add_guild("Tavern")
        bot = DiceTavern(database_path=str(tmp_path / "db.sqlite3"), guild_ready_timeout=0.1)
        async with run_bot(fake, bot):
            assert gc.get_threshold() == GC_THRESHOLDS and gc.get_freeze_count() > 0
            assert bot._gc_task is not None and not bot._gc_task.done()  # the periodic full collection
    assert gc.get_threshold() == before
    untuned = DiceTavern(database_path=str(tmp_path / "db.sqlite3"), gc_tuning=False)
    assert untuned.gc_tuning is False


# -- health -------------------------------------------------------------------------------------------------------


def test_health_reads_the_heartbeat_age(tmp_path):
    beat = tmp_path / "db.sqlite3.heartbeat"
    assert cli.health(beat) == (False, f"unhealthy: no heartbeat file {beat} (the bot is not running, or has not "
                                "connected yet)")
    beat.touch()
    os.utime(beat, (1000, 1000))
    assert cli.health(beat, max_age=90, now=1089)[0]
    ok, message = cli.health(beat, max_age=90, now=1091)
    assert not ok and "91 s ago" in message


def test_health_command_uses_the_database_path(env, tmp_path, capsys):
    beat = tmp_path / "db.sqlite3.heartbeat"  # env sets DATABASE_PATH to tmp_path / "db.sqlite3"
    assert cli.main(["health"]) == 1
    beat.touch()
    assert cli.main(["health"]) == 0
    assert capsys.readouterr().out.startswith("healthy: ")
    os.utime(beat, (time.time() - 120, time.time() - 120))
    assert cli.main(["health"]) == 1
    assert cli.main(["health", "--max-age", "300"]) == 0


async def _fair_export(path: Path) -> dict:
    """A Pig game played to the end on the default (fair) dice, read back from the database and exported."""
    import random

    from bot.replay import export_of
    from bot.store import history

    store = await open_store(str(path / "fair.sqlite3"))
    service = TableService(store, run_dispatcher=False, auto_bots=False)
    await service.start()
    table = await service.create(1, 10, Seat(100, "Alice", entropy="a"), "pig", {"target": 20})
    await service.join(10, Seat(200, "Bob", entropy="b"))
    await service.start_game(10, 100)
    rng = random.Random(1)
    while table.running:
        seat = table.state.current
        await service.act(10, table.seats[seat].id, rng.choice(table.engine.legal_actions(table.state, seat)))
    record = await history.game_record(store, table.id)
    await service.stop()
    await store.close()
    assert record is not None
    return export_of(record)


def test_verify_checks_an_exported_game_offline(tmp_path, capsys):
    import json

    export = asyncio.run(_fair_export(tmp_path))
    good = tmp_path / "game.json"
    good.write_text(json.dumps(export), encoding="utf-8")
    assert cli.main(["verify", str(good)]) == 0
    out = capsys.readouterr().out
    assert "✓" in out and export["commitment"] in out

    roll = next(m for m in export["moves"] if m["dice"] and m["action"] == "roll")
    roll["dice"][0][2][0] = roll["dice"][0][2][0] % 6 + 1  # one changed die
    bad = tmp_path / "changed.json"
    bad.write_text(json.dumps(export), encoding="utf-8")
    assert cli.main(["verify", str(bad)]) == 1
    err = capsys.readouterr().err
    assert "✗" in err and f"move {roll['seq']} (roll)" in err  # the chain breaks at the changed move
    assert cli.main(["verify", str(tmp_path / "missing.json")]) == 1
    assert "Traceback" not in capsys.readouterr().err


# -- shards: flags, environment, the sharded client, its heartbeat and its leases -------------------------------------


def test_shards_come_from_the_flags_else_the_environment(env):
    from bot.shards import Shards, parse

    env.delenv("DICETAVERN_SHARDS", raising=False)
    env.delenv("DICETAVERN_SHARD_COUNT", raising=False)
    assert cli.shards_of(None, None) == Shards.all()
    assert cli.shards_of(None, "4") == parse("0-3", 4)  # a count alone: every shard of it, here
    env.setenv("DICETAVERN_SHARDS", "0-3")
    env.setenv("DICETAVERN_SHARD_COUNT", "8")
    assert cli.shards_of(None, None) == parse("0-3", 8)
    assert cli.shards_of("6", None) == parse("6", 8)  # each flag wins over its variable
    assert cli.shards_of("1", "2") == parse("1", 2)
    args = cli.build_parser().parse_args(["run", "--shards", "0-3,6", "--shard-count", "8"])
    assert (args.shards, args.shard_count) == ("0-3,6", "8")


@pytest.mark.parametrize(
    ("argv", "variables", "words"),
    [
        (["run", "--shards", "0-3"], {}, "--shards 0-3 needs --shard-count"),
        (["run"], {"DICETAVERN_SHARDS": "1"}, "--shards 1 needs --shard-count (or DICETAVERN_SHARD_COUNT)"),
        (["run", "--shards", "0-3", "--shard-count", "2"], {}, "shard 0-3 is out of range"),
        (["run", "--shards", "x", "--shard-count", "2"], {}, "'x' is not a shard number"),
        (["run", "--shard-count", "0"], {}, "the shard count must be at least 1"),
        (["run"], {"DICETAVERN_SHARDS": "0", "DICETAVERN_SHARD_COUNT": "two"}, "must be a whole number"),
        (["run"], {"DICETAVERN_LEASE_TTL": "-1"}, "DICETAVERN_LEASE_TTL"),
    ],
)
def test_bad_shards_are_a_one_line_error(env, capsys, argv, variables, words):
    env.setenv("DISCORD_TOKEN", "token")
    for name in ("DICETAVERN_SHARDS", "DICETAVERN_SHARD_COUNT"):
        env.delenv(name, raising=False)
    for name, value in variables.items():
        env.setenv(name, value)
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    (line,) = [line for line in err.splitlines() if line.strip()]
    assert line.startswith("error: ") and words in line


def test_a_bot_on_some_shards_is_an_auto_sharded_bot_on_them(tmp_path):
    from bot.client import ShardedDiceTavern
    from bot.shards import parse

    sharded = DiceTavern(database=str(tmp_path / "db.sqlite3"), shards=parse("1,3", 4))
    assert isinstance(sharded, ShardedDiceTavern) and isinstance(sharded, commands.AutoShardedBot)
    assert (sharded.shard_ids, sharded.shard_count) == ([1, 3], 4)
    assert sharded.shard_range == parse("1,3", 4)
    assert sharded.heartbeat == Path(f"{tmp_path}/db.sqlite3.shards-1_3-of-4.heartbeat")

    plain = DiceTavern(database_path=str(tmp_path / "db.sqlite3"))  # the older keyword still works
    assert type(plain) is DiceTavern and not isinstance(plain, commands.AutoShardedBot)
    assert plain.database == str(tmp_path / "db.sqlite3") and plain.shard_count is None
    assert type(DiceTavern(database=":memory:", shards=parse("0", 1))) is DiceTavern  # one shard: not sharded


def test_the_heartbeat_of_a_postgresql_bot_is_in_data_or_where_the_environment_says(env, tmp_path):
    from bot.client import heartbeat_path, shown_database
    from bot.shards import parse

    url = "postgresql://bot:secret@db:5432/tavern"
    env.delenv("DICETAVERN_HEARTBEAT", raising=False)
    assert heartbeat_path(url) == Path("data/dicetavern.heartbeat")
    assert heartbeat_path(url, parse("0-3", 8)) == Path("data/dicetavern.shards-0-3-of-8.heartbeat")
    assert shown_database(url) == "postgresql://bot:***@db:5432/tavern"  # logs and errors never show a password
    env.setenv("DICETAVERN_HEARTBEAT", str(tmp_path / "beat"))
    assert heartbeat_path(url, parse("0-3", 8)) == tmp_path / "beat"


def test_health_finds_the_heartbeat_of_the_shards_it_is_told(env, tmp_path, capsys):
    env.setenv("DATABASE_URL", "postgresql://bot@db/tavern")
    env.delenv("DICETAVERN_HEARTBEAT", raising=False)
    beat = tmp_path / "data" / "dicetavern.shards-1-of-2.heartbeat"  # (env: the working directory is tmp_path)
    beat.parent.mkdir()
    beat.touch()
    assert cli.main(["health", "--shards", "1", "--shard-count", "2"]) == 0
    assert cli.main(["health", "--shards", "0", "--shard-count", "2"]) == 1
    env.setenv("DICETAVERN_SHARDS", "1")
    env.setenv("DICETAVERN_SHARD_COUNT", "2")
    assert cli.main(["health"]) == 0
    capsys.readouterr()
    assert cli.main(["health", "--shards", "5"]) == 1
    assert "out of range" in capsys.readouterr().err


async def test_a_bot_that_loses_its_lease_stops_and_run_exits_with_status_4(env, tmp_path, caplog):
    caplog.set_level(logging.INFO)
    db = tmp_path / "tavern.sqlite3"
    env.setenv("DATABASE_PATH", str(db))
    env.setenv("DICETAVERN_LEASE_TTL", "0.3")  # renewed every 0.1 s
    async with FakeDiscord() as fake:
        fake.add_guild("One")
        stop, task = await _run_until_ready(fake, caplog)
        assert not task.done()
        thief = await open_store(str(db))
        try:
            (lease,) = await thief.fetch_all("SELECT owner, token FROM leases")
            assert lease["owner"]  # the running bot holds shard 0 of 1
            await thief.write([("UPDATE leases SET owner = 'thief', token = token + 1", ())])
        finally:
            await thief.close()
        with pytest.raises(cli.CliError) as caught:
            await asyncio.wait_for(task, DEADLINE)
    assert caught.value.status == cli.LEASE_LOST == 4
    assert not (tmp_path / "tavern.sqlite3.heartbeat").exists()
    messages = [r.getMessage() for r in caplog.records]
    assert any("lost the lease on shard 0 to thief" in m for m in messages)
    # the close ran to its end before the run did: the release read who holds the shard (a read left in flight
    # when the loop closed died on aiosqlite's thread instead)
    assert any("no longer held those on shards [0] (shard 0 lost to thief)" in m for m in messages)


async def test_a_bot_on_some_shards_reads_the_members_languages_again(tmp_path):
    """``/me language`` works in any server and in DMs (which reach shard 0's process): another process's change
    reaches this one's answers at the next read (``USERS_REFRESH``)."""
    from bot.shards import parse

    store = await open_store(str(tmp_path / "db.sqlite3"))
    try:
        bot = DiceTavern(database=str(tmp_path / "db.sqlite3"), shards=parse("1", 2))
        bot.store = store
        bot.presenter = SimpleNamespace(user_language={7: "de"})  # type: ignore[assignment]
        await store.write([repo.set_user_language(5, "it"), repo.set_discord_locale(6, "el")])
        await bot.refresh_user_languages()
        assert bot.presenter.user_language == {5: "it"}  # 7 cleared theirs elsewhere; 6 set none
    finally:
        await store.close()


async def test_a_language_set_here_while_the_languages_are_read_again_is_not_undone(tmp_path, monkeypatch):
    """The read began before the member's ``/me language`` was committed, so it holds the old choice: it must not
    replace the one this process has just applied."""
    from bot.shards import parse

    store = await open_store(str(tmp_path / "db.sqlite3"))
    try:
        bot = DiceTavern(database=str(tmp_path / "db.sqlite3"), shards=parse("1", 2))
        bot.store = store
        bot.presenter = SimpleNamespace(user_language={5: "it"})  # type: ignore[assignment]
        await store.write([repo.set_user_language(5, "it")])
        read = repo.user_languages

        async def read_then_member_changes(store: Store) -> Any:
            found = await read(store)
            bot.presenter.user_language[5] = "de"  # /me language de, applied while the read was in flight
            return found

        monkeypatch.setattr(repo, "user_languages", read_then_member_changes)
        await bot.refresh_user_languages()
        assert bot.presenter.user_language == {5: "de"}
    finally:
        await store.close()


async def test_a_bot_waiting_for_a_lease_stops_cleanly_when_told(env, tmp_path, caplog):
    caplog.set_level(logging.INFO)
    db = tmp_path / "tavern.sqlite3"
    env.setenv("DATABASE_PATH", str(db))
    store = await open_store(str(db))
    held = "INSERT INTO leases (shard, shard_count, owner, host, pid, token, expires_at) VALUES (0, 1, ?, ?, 1, 5, ?)"
    await store.write([(held, ("other", "another-host", time.time() + 600))])
    await store.close()
    async with FakeDiscord() as fake:
        fake.add_guild("One")
        stop = asyncio.Event()
        task = asyncio.create_task(cli._run("token", stop, guild_ready_timeout=0.1))
        waiting = "waiting for a lease: shard 0 is held by other (host another-host, pid 1)"
        await eventually(lambda: any(waiting in r.getMessage() for r in caplog.records), what="the wait")
        stop.set()
        await asyncio.wait_for(task, DEADLINE)  # returns: no traceback, no table restored, nothing connected for good
    messages = [r.getMessage() for r in caplog.records]
    assert not any(m.startswith(("restored", "ready: ")) for m in messages)
    assert not (tmp_path / "tavern.sqlite3.heartbeat").exists()


async def test_a_postgresql_server_that_does_not_answer_is_a_one_line_error_without_the_password(env, capsys):
    async with FakeDiscord() as fake:
        fake.add_guild("Tavern")
        env.setenv("DISCORD_TOKEN", "token")
        env.setenv("DATABASE_URL", "postgresql://bot:hunter2@127.0.0.1:1/tavern")  # nothing listens on port 1
        assert await asyncio.to_thread(cli.main, ["run"]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and "hunter2" not in err
    last = err.strip().splitlines()[-1]
    assert last.startswith("error: cannot open the database postgresql://bot:***@127.0.0.1:1/tavern (DATABASE_URL): ")
