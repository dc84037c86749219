"""Achievements in the store (bot.store.achievements) over real games played through the table service, on both
backends: written in the write that finishes a game, the same rows from the backfill of games played before (their
moves in ``actions`` or compacted), each once per member and server, never for a computer player or a deleted
member; rarity without opted-out members; ``/privacy`` export and delete; the backfill at start."""

from __future__ import annotations

import random
from typing import Any

from bot.achievements import GameRecord, LoggedMove, PlayerGame, Result, Seat, earned, first_reached
from bot.games.dice import ScriptedDice
from bot.store import Store, history, open_store, privacy, repo
from bot.store import achievements as store_a
from bot.tables import Seat as TableSeat
from bot.tables import TableService
from cogs.privacy import deleted_name

GUILD, OTHER_GUILD = 52, 53
ALICE, BOB, CAROL = TableSeat(1100, "Alice"), TableSeat(1200, "Bob"), TableSeat(1300, "Carol")
ROWS = "SELECT guild_id, user_id, achievement, game_id, at FROM achievements ORDER BY guild_id, user_id, achievement"


async def open_service(db: str, dice: ScriptedDice, run_dispatcher: bool = False) -> TableService:
    service = TableService(await open_store(db), dice, run_dispatcher=run_dispatcher, auto_bots=False)
    await service.start()
    return service


async def close(service: TableService) -> None:
    await service.stop()
    await service.store.close()


async def pig(
    service: TableService,
    dice: ScriptedDice,
    channel: int,
    *rolls: tuple[int, int],
    guild: int = GUILD,
    second: TableSeat | None = BOB,
) -> int:
    """A game of Pig to 20 (seat 0, Alice, starts): each (seat, face) rolled in turn; a 1 passes the turn, and 20
    reached holds and wins. ``second`` None: a computer player takes the second seat."""
    table = await service.create(guild, channel, ALICE, "pig", {"target": 20})
    if second is None:
        await service.add_computer(channel, ALICE.id, "easy", "Robo")
    else:
        await service.join(channel, second)
    dice.samples.append([0])  # seat 0 starts
    await service.start_game(channel, ALICE.id)
    for seat, face in rolls:
        dice.push(face)
        await service.act(channel, table.seats[seat].id, "roll")
    assert table.status == "finished"
    return table.id


def one_turn(seat: int = 0) -> list[tuple[int, int]]:
    return [(seat, face) for face in (6, 6, 6, 2)]


async def rows(store: Store) -> list[tuple[Any, ...]]:
    return [tuple(r) for r in await store.fetch_all(ROWS)]


async def forget(store: Store) -> None:
    """The database as migration 0015 leaves one with games played before it: nothing earned, nothing evaluated."""
    await store.write([("DELETE FROM achievements", ()), ("DELETE FROM achievement_games", ())])


async def recomputed(store: Store) -> list[tuple[Any, ...]]:
    """Every row, recomputed apart from the store's code: each finished game read back (bot.store.history) and
    replayed by bot.achievements, each person's history from their results rows."""
    found: dict[tuple[int, int, str], tuple[int, float]] = {}
    finished = await store.fetch_all("SELECT id FROM games WHERE status = 'finished' ORDER BY updated_at, id")
    for (game_id,) in finished:
        record = await history.game_record(store, game_id)
        assert record is not None
        results = {
            r["user_id"]: r for r in await store.fetch_all("SELECT * FROM results WHERE game_id = ?", (game_id,))
        }
        seats = tuple(Seat(s["id"], s.get("level") is not None or s["id"] < 0) for s in record.seats)
        game = GameRecord(
            game_id,
            record.game,
            record.options,
            seats,
            tuple(LoggedMove(m.seat, m.action, m.dice) for m in record.moves),
            tuple(Result(results[s.member_id]["place"], results[s.member_id]["result"], 0) for s in seats),
        )
        at = max(r["finished_at"] for r in results.values())
        for member, ids in earned(game).items():
            for a in ids:
                found.setdefault((record.guild_id, member, a), (game_id, at))
    people = await store.fetch_all("SELECT DISTINCT guild_id, user_id FROM results WHERE is_bot = 0 AND user_id > 0")
    for guild, member in people:
        mine = await store.fetch_all(
            "SELECT game_id, game, result, place, finished_at FROM results WHERE guild_id = ? AND user_id = ?",
            (guild, member),
        )
        games = [PlayerGame(r[0], r[1], r[2], r[3], r[4]) for r in mine]
        when = {g.game_id: g.finished_at for g in games}
        for a, game_id in first_reached(games).items():
            found[(guild, member, a)] = (game_id, when[game_id])
    return sorted((g, m, a, game_id, at) for (g, m, a), (game_id, at) in found.items())


async def test_a_finished_game_earns_in_its_own_write_for_people_only(database):
    dice = ScriptedDice()
    service = await open_service(database, dice)
    try:
        game_id = await pig(service, dice, 10, *one_turn())
        found = await rows(service.store)
        assert [r[:4] for r in found] == [
            (GUILD, ALICE.id, a, game_id) for a in ("first_win", "pig_no_bust", "pig_one_turn_win")
        ]
        finished = await service.store.fetch_one("SELECT MAX(finished_at) FROM results WHERE game_id = ?", (game_id,))
        assert {r[4] for r in found} == {finished[0]}
        assert await store_a.of_game(service.store, game_id) == {
            ALICE.id: ["pig_one_turn_win", "pig_no_bust", "first_win"]
        }
        assert await store_a.pending(service.store) == 0
        earned_list = await store_a.earned_by(service.store, GUILD, ALICE.id)
        assert [(e.achievement, e.game_id, e.game) for e in earned_list] == [
            ("pig_one_turn_win", game_id, "pig"),
            ("pig_no_bust", game_id, "pig"),
            ("first_win", game_id, "pig"),
        ]
        assert await store_a.earned_by(service.store, GUILD, BOB.id) == []
        robo = await pig(service, dice, 11, (0, 1), *one_turn(1), second=None)  # the computer player wins
        assert await store_a.of_game(service.store, robo) == {}
    finally:
        await close(service)


async def test_the_first_game_keeps_an_achievement_and_nothing_is_awarded_twice(database):
    dice = ScriptedDice()
    service = await open_service(database, dice)
    try:
        first = await pig(service, dice, 10, *one_turn())
        second = await pig(service, dice, 10, *one_turn())  # the same achievements again
        before = await rows(service.store)
        assert {r[3] for r in before} == {first}
        assert await store_a.of_game(service.store, second) == {}
        await service.store.write([store_a.evaluate([first, second], 999.0)])  # evaluated again: nothing new
        assert await store_a.backfill(service.store, 999.0) == 0
        assert await rows(service.store) == before
    finally:
        await close(service)


async def test_the_backfill_of_games_played_before_gives_the_rows_of_live_play(database):
    dice = ScriptedDice()
    service = await open_service(database, dice)
    store = service.store
    try:
        await pig(service, dice, 10, *one_turn())
        await pig(service, dice, 10, (0, 1), *one_turn(1))  # Bob's one-turn win after Alice's bust
        await pig(service, dice, 11, (0, 1), *one_turn(1), second=None)
        other = await pig(service, dice, 12, (0, 6), (0, 1), (1, 1), *one_turn(), guild=OTHER_GUILD)
        await play_random(service, dice, "mia", {"lives": 2}, 13, seed=5)
        await play_random(service, dice, "liar", {"mode": "lose_die", "dice_per_player": 2}, 14, seed=6)
        await store.write(repo.compact_game(other))  # retention ran on one: its moves are in games.record
        live = await rows(store)
        assert live == await recomputed(store)
        assert {r[0] for r in live} == {GUILD, OTHER_GUILD}
        await forget(store)
        assert await store_a.pending(store) == 6
        assert await store_a.backfill(store, 5000.0, batch=4) == 6  # two batches
        assert await rows(store) == live
        assert await store_a.pending(store) == 0
        assert await store_a.backfill(store, 6000.0) == 0
    finally:
        await close(service)


async def play_random(
    service: TableService, dice: ScriptedDice, game: str, options: dict[str, Any], channel: int, seed: int
) -> int:
    """A game of Alice, Bob and Carol of random legal moves (the scripted dice get seeded faces as needed)."""
    rng = random.Random(seed)
    table = await service.create(GUILD, channel, ALICE, game, options)
    await service.join(channel, BOB)
    await service.join(channel, CAROL)
    dice.push(*[rng.randint(1, 6) for _ in range(400)])
    await service.start_game(channel, ALICE.id)
    while table.running:
        seat = table.engine.to_act(table.state)[0]
        dice.push(*[rng.randint(1, 6) for _ in range(20)])
        await service.act(channel, table.seats[seat].id, rng.choice(table.engine.legal_actions(table.state, seat)))
    return table.id


async def test_rarity_counts_the_servers_players_but_not_an_opted_out_one(database):
    dice = ScriptedDice()
    service = await open_service(database, dice)
    store = service.store
    try:
        await pig(service, dice, 10, *one_turn())  # Alice: first_win
        await pig(service, dice, 10, (0, 1), *one_turn(1), second=CAROL)  # Carol: first_win
        found = await store_a.rarity(store, GUILD)
        assert (found.players, found.holders["first_win"], found.percent("first_win")) == (3, 2, 67)
        assert found.percent("ten_wins") == 0
        await store.write([privacy.set_opted_out(CAROL.id, True)])
        found = await store_a.rarity(store, GUILD)
        assert (found.players, found.holders["first_win"], found.percent("first_win")) == (2, 1, 50)
        assert [e.achievement for e in await store_a.earned_by(store, GUILD, CAROL.id)] == [
            "pig_one_turn_win",
            "pig_no_bust",
            "first_win",
        ]  # she keeps her own list
        assert (await store_a.rarity(store, OTHER_GUILD)).players == 0
    finally:
        await close(service)


async def test_privacy_export_has_them_and_delete_removes_them_for_good(database):
    dice = ScriptedDice()
    service = await open_service(database, dice)
    store = service.store
    try:
        game_id = await pig(service, dice, 10, *one_turn())
        data = await privacy.export_member(store, ALICE.id, [ALICE.name])
        assert [(r["achievement"], r["game_id"], r["guild_id"]) for r in data["achievements"]] == [
            ("first_win", game_id, GUILD),
            ("pig_no_bust", game_id, GUILD),
            ("pig_one_turn_win", game_id, GUILD),
        ]
        assert (await privacy.export_member(store, BOB.id, [BOB.name]))["achievements"] == []
        done = await privacy.delete_member(store, ALICE.id, deleted_name)
        assert await rows(store) == []
        await forget(store)  # evaluated again from scratch: the anonymous seat is nobody's
        assert await store_a.backfill(store, 7000.0) == 1
        assert await rows(store) == []
        assert done.anonymous_id is not None
        assert await store_a.earned_by(store, GUILD, done.anonymous_id) == []
    finally:
        await close(service)


async def test_the_backfill_at_start_runs_in_the_background_on_this_process_servers(database):
    dice = ScriptedDice()
    service = await open_service(database, dice)
    store = service.store
    try:
        await pig(service, dice, 10, *one_turn())
        await pig(service, dice, 11, *one_turn(), guild=OTHER_GUILD)
        live = await rows(store)
        await forget(store)
        mine = store_a.Backfill(store, lambda: 8000.0, owned=f"g.guild_id = {GUILD}")
        mine.start()
        assert await mine.wait() == 1
        assert await rows(store) == [r for r in live if r[0] == GUILD]
        assert await store_a.pending(store) == 1  # the other server's game: another process's
        await mine.stop()
    finally:
        await close(service)
