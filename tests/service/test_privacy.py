"""Deleting a member's data (``bot.store.privacy``) on real games' rows: nothing with their id or name is left in
any table, the other players' rows are as they were, and the games still replay and verify."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from bot.games.fair import FairDice
from bot.replay import export_of, replay
from bot.store import SQL, Store, history, open_store, privacy, repo
from bot.tables import Seat, TableService
from bot.verify import verify_export
from cogs.privacy import deleted_name

GUILD, CHANNEL, OTHER = 412_000_000_000_000_001, 412_000_000_000_000_010, 412_000_000_000_000_020
ZEPH = Seat(733_245_118_904_221_697, "Zephyrine Quillfeather")  # Discord-sized ids, names found nowhere else
BRAM = Seat(733_245_118_904_221_698, "Bramwell Otterby")
CORA = Seat(733_245_118_904_221_699, "Coralie Vantwest")
OPTIONS = {"pig": {"target": 20}, "mia": {"lives": 1}, "mex": {"starting_lives": 1}, "liar": {}, "mythic": {}}


async def open_service(db: str) -> TableService:
    service = TableService(await open_store(db), FairDice.new, run_dispatcher=False, auto_bots=False)
    await service.start()
    return service


async def close(service: TableService) -> None:
    await service.stop()
    await service.store.close()


async def play(service: TableService, game: str, seed: int, channel: int = CHANNEL) -> int:
    """A finished game: Zephyrine hosts, Coralie joins and leaves (a lobby event with her name), Bramwell and a
    computer player sit, then random legal moves to the end (the computer moved here too)."""
    table = await service.create(GUILD, channel, ZEPH, game, OPTIONS[game])
    await service.join(channel, CORA)
    await service.leave(channel, CORA.id)
    await service.join(channel, BRAM)
    await service.add_computer(channel, ZEPH.id, "easy", "Robo")
    await service.start_game(channel, ZEPH.id)
    rng = random.Random(seed)
    while table.running:
        seat = table.engine.to_act(table.state)[0]
        action = rng.choice(table.engine.legal_actions(table.state, seat))
        await service.act(channel, table.seats[seat].id, action)
    assert table.status == "finished"
    return table.id


async def rows(store: Store, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    return [tuple(r) for r in await store.fetch_all(sql, params)]


TABLES = SQL(
    sqlite="SELECT name FROM sqlite_master WHERE type = 'table'",
    postgresql="SELECT tablename FROM pg_tables WHERE schemaname = current_schema()",
)


async def everything(store: Store) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table (in one order on both backends: PostgreSQL keeps no key order)."""
    tables = [r[0] for r in await store.fetch_all(TABLES)]
    return {name: sorted(await rows(store, f'SELECT * FROM "{name}"'), key=repr) for name in tables}


async def add_member_data(store: Store) -> None:
    """What the other parts of the bot store about members: ratings (helper "ratings" writes them), settings."""
    statements = [repo.set_user_language(ZEPH.id, "de"), repo.set_discord_locale(ZEPH.id, "de")]
    statements += [repo.set_dms_closed(ZEPH.id, True, 5.0), repo.set_user_language(BRAM.id, "it")]
    for user, ordinal in ((ZEPH.id, 3.5), (BRAM.id, 1.25), (-1, 0.5)):
        statements.append(
            (
                "INSERT INTO ratings (guild_id, season, game, user_id, mu, sigma, ordinal, updated_at)"
                " VALUES (?, 7, 'pig', ?, 25, 7, ?, 1)",  # season 7: the games played here rate season 0
                (GUILD, user, ordinal),
            )
        )
        statements.append(
            (
                "INSERT INTO rating_history (game_id, user_id, guild_id, season, game, mu, sigma, ordinal, at)"
                " VALUES (999999, ?, ?, 7, 'pig', 25, 7, ?, 1)",  # a game id no game here has
                (user, GUILD, ordinal),
            )
        )
    for user in (ZEPH.id, BRAM.id):  # an achievement each (the games here earn theirs by chance: fair dice)
        statements.append(
            (
                "INSERT INTO achievements (guild_id, user_id, achievement, game_id, at)"
                " VALUES (?, ?, 'regular', 999999, 1)",  # fifty games: never earned here
                (GUILD, user),
            )
        )
    await store.write(statements)


def mentions(found: dict[str, list[tuple[Any, ...]]], *needles: str) -> list[str]:
    """Where any of ``needles`` occurs in any column of any row (as text)."""
    return [
        f"{table}: {row}"
        for table, table_rows in found.items()
        for row in table_rows
        if any(needle in str(value) for value in row for needle in needles)
    ]


async def test_deleting_a_member_leaves_no_trace_and_the_others_and_the_games_as_they_were(database):
    service = await open_service(database)
    store = service.store
    try:
        games = [await play(service, game, seed) for seed, game in enumerate(OPTIONS)]
        await add_member_data(store)
        await store.write(repo.compact_game(games[0]))  # retention ran on one game: its moves in games.record
        before = await everything(store)
        assert mentions(before, str(ZEPH.id), ZEPH.name)  # there is something to delete
        exports = {g: export_of(await history.game_record(store, g)) for g in games}
        others = "SELECT * FROM results WHERE user_id <> ? ORDER BY game_id, user_id"

        theirs_rated = sum(r[3] == ZEPH.id for r in before["ratings"]) + sum(
            r[1] == ZEPH.id for r in before["rating_history"]
        )
        done = await privacy.delete_member(store, ZEPH.id, deleted_name)

        after = await everything(store)
        assert mentions(after, str(ZEPH.id), ZEPH.name, "Zephyrine") == []
        assert done.anonymous_id is not None and done.anonymous_id < privacy.ANONYMOUS_BELOW
        assert (done.games, done.results, done.ratings) == (len(games), len(games), theirs_rated)
        # The others' results, ratings and settings are as they were; the member's results keep place and score.
        assert await rows(store, others, (done.anonymous_id,)) == [
            r for r in before["results"] if r[3] not in (ZEPH.id,)
        ]
        assert [r for r in after["ratings"]] == [r for r in before["ratings"] if r[3] != ZEPH.id]
        assert after["rating_history"] == [r for r in before["rating_history"] if r[1] != ZEPH.id]
        assert any(r[1] == ZEPH.id for r in before["achievements"])
        assert after["achievements"] == [r for r in before["achievements"] if r[1] != ZEPH.id]
        theirs = sorted((r[0], r[5], r[6], r[7]) for r in before["results"] if r[3] == ZEPH.id)
        anonymous = "SELECT game_id, place, score, won FROM results WHERE user_id = ? ORDER BY game_id"
        assert await rows(store, anonymous, (done.anonymous_id,)) == theirs
        users = {r[0]: r for r in after["users"]}
        assert users[BRAM.id] == next(r for r in before["users"] if r[0] == BRAM.id)
        assert ZEPH.id not in users and users[done.anonymous_id][1:] == (0, None, None, None, 1)
        assert after["actions"] == before["actions"]  # moves name seats, not people
        # Every game still replays and verifies; only the name in the export changed.
        for game_id in games:
            record = await history.game_record(store, game_id)
            assert record is not None and record.seats[0] == {
                **before_seat(before, game_id),
                "id": done.anonymous_id,
                "name": "deleted player",
            }
            assert replay(record.game, len(record.seats), record.options, record.moves).failed is None
            export = export_of(record)
            assert verify_export(export) is None
            assert export["players"] == ["deleted player", BRAM.name, "🤖 Robo"]
            assert {**export, "players": exports[game_id]["players"]} == exports[game_id]
        assert await repo.player_stats(store, GUILD, ZEPH.id) == {}
        assert await history.count_finished(store, GUILD, ZEPH.id) == 0
        assert [g.players for g in await history.finished_games(store, GUILD, BRAM.id)] == [
            ["deleted player", BRAM.name, "🤖 Robo"]
        ] * len(games)
    finally:
        await close(service)


def before_seat(before: dict[str, list[tuple[Any, ...]]], game_id: int) -> dict[str, Any]:
    seats = next(json.loads(r[7]) for r in before["games"] if r[0] == game_id)
    return dict(seats[0])


async def test_two_deleted_members_get_their_own_ids_and_names_at_one_table(database):
    service = await open_service(database)
    store = service.store
    try:
        game_id = await play(service, "pig", 1)
        first = await privacy.delete_member(store, ZEPH.id, deleted_name)
        second = await privacy.delete_member(store, BRAM.id, deleted_name)
        assert first.anonymous_id and second.anonymous_id
        assert second.anonymous_id < first.anonymous_id < privacy.ANONYMOUS_BELOW
        record = await history.game_record(store, game_id)
        assert record is not None
        assert [(s["id"], s["name"]) for s in record.seats] == [
            (first.anonymous_id, "deleted player"),
            (second.anonymous_id, "deleted player 2"),
            (-1, "Robo"),
        ]
        assert verify_export(export_of(record)) is None
        results = await rows(store, "SELECT user_id FROM results WHERE game_id = ? ORDER BY user_id", (game_id,))
        assert sorted(r[0] for r in results) == sorted([first.anonymous_id, second.anonymous_id, -1])
    finally:
        await close(service)


async def test_a_member_at_an_open_table_is_refused_and_nothing_changes(database):
    service = await open_service(database)
    store = service.store
    try:
        await play(service, "pig", 2)
        await add_member_data(store)
        await service.create(GUILD, OTHER, BRAM, "pig", {"target": 20})
        await service.join(OTHER, ZEPH)
        before = await everything(store)
        lobby = service.table(OTHER).id
        with pytest.raises(privacy.StillSeated) as refused:
            await privacy.delete_member(store, ZEPH.id, deleted_name)
        assert refused.value.game_ids == [lobby]
        assert await everything(store) == before
        await service.start_game(OTHER, BRAM.id)  # running: still refused
        with pytest.raises(privacy.StillSeated):
            await privacy.delete_member(store, ZEPH.id, deleted_name)
    finally:
        await close(service)


async def test_the_guard_refuses_a_seat_taken_between_the_check_and_the_write(database, monkeypatch):
    """The check and the transaction are apart: a join committed in between fails the whole transaction."""
    service = await open_service(database)
    store = service.store
    try:
        await play(service, "pig", 3)
        await service.create(GUILD, OTHER, BRAM, "pig", {"target": 20})
        checks = iter([[], [service.table(OTHER).id], [service.table(OTHER).id]])
        real_plan = privacy._plan

        async def plan_then_join(*args: Any) -> Any:
            planned = await real_plan(*args)
            await service.join(OTHER, ZEPH)  # lands before the deletion's transaction
            return planned

        async def seated(_store: Store, _user: int) -> list[int]:
            return next(checks)

        monkeypatch.setattr(privacy, "_plan", plan_then_join)
        monkeypatch.setattr(privacy, "open_tables", seated)
        before = await everything(store)
        with pytest.raises(privacy.StillSeated):
            await privacy.delete_member(store, ZEPH.id, deleted_name)
        after = await everything(store)
        changed = [t for t in before if t not in ("games", "deadlines") and before[t] != after[t]]  # the join
        assert changed == [] and mentions(after, "deleted player") == []
    finally:
        await close(service)


async def test_a_member_with_nothing_shared_loses_only_their_settings(database):
    store = await open_store(database)
    try:
        await store.write([repo.set_user_language(ZEPH.id, "cy"), privacy.set_opted_out(ZEPH.id, True)])
        done = await privacy.delete_member(store, ZEPH.id, deleted_name)
        assert done == privacy.Deleted(None, 0, 0, 0)
        assert await rows(store, "SELECT * FROM users") == []
        with pytest.raises(ValueError):
            await privacy.delete_member(store, -1, deleted_name)  # a computer player is nobody's to delete
    finally:
        await store.close()


async def test_opting_out_and_back_in(database):
    store = await open_store(database)
    try:
        assert not await privacy.opted_out(store, ZEPH.id)
        await store.write([repo.set_user_language(ZEPH.id, "el"), privacy.set_opted_out(ZEPH.id, True)])
        assert await privacy.opted_out(store, ZEPH.id)
        await store.write([privacy.set_opted_out(ZEPH.id, False)])
        assert not await privacy.opted_out(store, ZEPH.id)
        row = await store.fetch_one("SELECT language FROM users WHERE user_id = ?", (ZEPH.id,))
        assert row is not None and row[0] == "el"  # the other settings stay
    finally:
        await store.close()


async def test_an_event_naming_them_by_id_at_a_table_they_left_is_anonymised(database):
    """A lobby they left before it started holds no seat of theirs; an event there that names them beside their
    id (as ``{"name", "id"}``) is anonymised all the same, the other events stay."""
    service = await open_service(database)
    store = service.store
    try:
        lobby = await service.create(GUILD, OTHER, BRAM, "pig", {"target": 20})
        await service.join(OTHER, ZEPH)
        await service.leave(OTHER, ZEPH.id)
        await service.cancel(OTHER, BRAM.id)
        row = await store.fetch_one("SELECT meta FROM games WHERE id = ?", (lobby.id,))
        meta = json.loads(row["meta"])
        left = next(data for kind, data in meta["log"] if kind == "left")
        assert left == {"name": ZEPH.name}
        left["id"] = ZEPH.id  # the event as it would name them by id
        await store.write([("UPDATE games SET meta = ? WHERE id = ?", (json.dumps(meta), lobby.id))])

        done = await privacy.delete_member(store, ZEPH.id, deleted_name)
        row = await store.fetch_one("SELECT meta FROM games WHERE id = ?", (lobby.id,))
        log = json.loads(row["meta"])["log"]
        assert ["left", {"name": "deleted player", "id": done.anonymous_id}] in log
        assert mentions(await everything(store), str(ZEPH.id), ZEPH.name) == []
        assert [entry for entry in log if entry[0] != "left"] == [e for e in meta["log"] if e[0] != "left"]
    finally:
        await close(service)
