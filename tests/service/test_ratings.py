"""Ratings (issue 15): the rating math (openskill's Plackett-Luce, ties), recording a finished game's ratings in the
transaction of its results, the back-fill of existing databases (finish order, the same ratings as live), seasons."""

from __future__ import annotations

import random
import sqlite3
from importlib import resources
from typing import Any

import asyncpg  # type: ignore[import-untyped]
import pytest

from bot import ratings as rating_math
from bot.games.dice import SeededDice
from bot.ratings import ALL, NEW, Finish, Standing, rate, settle
from bot.store import Store, open_store, ratings, repo
from bot.tables import Seat, TableService

GUILD, OTHER_GUILD = 41, 42
ALICE, BOB, CAROL = Seat(100, "Alice"), Seat(200, "Bob"), Seat(300, "Carol")


# -- the math -----------------------------------------------------------------------------------


def test_two_new_players_the_winner_gains_what_the_loser_loses():
    # openskill 6.2.0, PlackettLuce defaults (mu 25, sigma 25/3), ranks [1, 2]: checked against the library by hand.
    (winner, loser) = rate([(25.0, 25 / 3), (25.0, 25 / 3)], [1, 2])
    assert winner == pytest.approx((27.635389493140497, 8.06590141354368))
    assert loser == pytest.approx((22.364610506859503, 8.06590141354368))
    assert winner[0] + loser[0] == pytest.approx(50.0)  # two players: zero-sum in mu


def test_a_tie_shares_one_rating_and_both_beat_the_last():
    first, second, third = rate([(25.0, 25 / 3)] * 3, [1, 1, 3])
    assert first == second == pytest.approx((25.717262170187357, 8.205243377397993))
    assert third == pytest.approx((23.565475659625285, 8.205243377397993))


def test_the_ordinal_of_a_newcomer_is_zero_and_a_single_seat_is_not_rated():
    assert NEW.ordinal == pytest.approx(0.0)
    assert settle({}, [Finish(1, 1, "win")]) == {}
    with pytest.raises(ValueError):
        rate([(25.0, 8.0)], [1])


def test_settle_counts_games_wins_neutral_streaks_and_best_score():
    book = {1: Standing(games=3, wins=2, streak=2, best_streak=2, best_score=40), 2: Standing(games=3, streak=0)}
    after = settle(book, [Finish(1, 1, "win", 50), Finish(2, 2, "loss", 10), Finish(3, 2, "neutral", 0)])
    one, two, three = after[1], after[2], after[3]
    assert (one.games, one.wins, one.streak, one.best_streak, one.best_score) == (4, 3, 3, 3, 50)
    assert (two.games, two.wins, two.streak, two.losses) == (4, 0, 0, 4)
    assert (three.games, three.neutral, three.losses, three.streak) == (1, 1, 0, 0)
    kept = settle({3: Standing(streak=2, best_streak=2)}, [Finish(3, 2, "neutral"), Finish(4, 1, "win")])[3]
    assert kept.streak == 2  # a neutral result neither extends nor breaks a streak


def test_the_order_seats_come_in_changes_nothing():
    seats = [Finish(5, 2, "loss"), Finish(1, 1, "win"), Finish(3, 2, "loss"), Finish(-3, 4, "loss")]
    assert settle({}, seats) == settle({}, list(reversed(seats)))


def test_two_computer_players_of_one_level_move_its_rating_by_their_mean():
    hard = rating_math.LEVEL_IDS["hard"]
    after = settle({}, [Finish(hard, 1, "win"), Finish(100, 2, "loss"), Finish(hard, 3, "loss")])
    seats = rate([(25.0, 25 / 3)] * 3, [1, 2, 3])
    assert after[hard].mu == pytest.approx((seats[0][0] + seats[2][0]) / 2)
    assert (after[hard].games, after[hard].wins) == (1, 1)


# -- recording a finished game ------------------------------------------------------------------


async def open_service(path: str) -> TableService:
    service = TableService(await open_store(path), SeededDice(7), run_dispatcher=False, auto_bots=False)
    await service.start()
    return service


async def close(service: TableService) -> None:
    await service.stop()
    await service.store.close()


async def play(service: TableService, channel: int, seats: list[Seat], seed: int, guild: int = GUILD) -> int:
    """A Pig game to 20 between ``seats`` (a level for a computer player), random legal moves to the end."""
    people = [s for s in seats if s.level is None]
    table = await service.create(guild, channel, people[0], "pig", {"target": 20})
    for seat in seats[1:]:
        if seat.level is None:
            await service.join(channel, seat)
        else:
            await service.add_computer(channel, people[0].id, seat.level, seat.name)
    await service.start_game(channel, people[0].id)
    rng = random.Random(seed)
    while table.running:
        seat = table.engine.to_act(table.state)[0]
        await service.act(channel, table.seats[seat].id, rng.choice(table.engine.legal_actions(table.state, seat)))
    return table.id


async def rows(store: Store, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    return [tuple(r) for r in await store.fetch_all(sql, params)]


NO_SUCH_TABLE = (sqlite3.OperationalError, asyncpg.UndefinedTableError)
RATINGS = "SELECT * FROM ratings ORDER BY guild_id, season, game, user_id"
HISTORY = "SELECT * FROM rating_history ORDER BY game_id, user_id, game"


async def test_a_finished_game_is_rated_with_its_results(database):
    service = await open_service(database)
    store = service.store
    try:
        game_id = await play(service, 1, [ALICE, BOB, Seat(-1, "Robo", "hard")], seed=1)
        results = await rows(store, "SELECT user_id, place, result FROM results WHERE game_id = ?", (game_id,))
        hard = rating_math.LEVEL_IDS["hard"]
        finishes = [Finish(hard if u < 0 else u, p, r) for u, p, r in results]
        expected = settle({}, finishes)
        for board in ("pig", ALL):
            found = {s.user_id: s.standing for s in (await ratings.board(store, GUILD, 0, board, 10))[0]}
            assert set(found) == {ALICE.id, BOB.id}  # the computer player is rated, never on the members' board
            for user in (ALICE.id, BOB.id):
                assert found[user].mu == expected[user].mu and found[user].sigma == expected[user].sigma
            levels = await ratings.computer_levels(store, GUILD, 0, board)
            assert levels["hard"].mu == expected[hard].mu
        history = await rows(store, "SELECT user_id, game FROM rating_history ORDER BY user_id, game")
        assert history == [(ALICE.id, ALL), (ALICE.id, "pig"), (BOB.id, ALL), (BOB.id, "pig")]
    finally:
        await close(service)


async def test_a_failed_batch_leaves_neither_results_nor_ratings(database):
    store = await open_store(database)
    try:
        game = {"guild_id": GUILD, "channel_id": 1, "game": "pig", "status": "finished", "host_id": ALICE.id}
        await store.write([repo.insert_game({**game, "options": {}, "seats": [], "now": 5.0})])
        finishes = [Finish(ALICE.id, 1, "win"), Finish(BOB.id, 2, "loss")]
        write = [
            repo.insert_result(1, GUILD, "pig", ALICE.id, False, 1, 20, "win", 5.0),
            repo.insert_result(1, GUILD, "pig", BOB.id, False, 2, 3, "loss", 5.0),
            ratings.record(1, GUILD, "pig", finishes, 5.0),
            ("INSERT INTO no_such_table VALUES (1)", ()),  # the crash after the ratings, before the commit
        ]
        with pytest.raises(NO_SUCH_TABLE):
            await store.write(write)
        assert await rows(store, "SELECT * FROM results") == []
        assert await rows(store, RATINGS) == [] and await rows(store, HISTORY) == []
        await store.write(write[:3])  # without the crash both land
        assert len(await rows(store, RATINGS)) == 4 and len(await rows(store, "SELECT * FROM results")) == 2
    finally:
        await store.close()


async def test_a_rating_that_fails_keeps_the_game_running_and_records_nothing(database, monkeypatch):
    service = await open_service(database)
    store = service.store

    def broken(book: Any, finishes: Any) -> Any:
        raise RuntimeError("rating failed")

    try:
        monkeypatch.setattr(ratings, "settle", broken)
        with pytest.raises(RuntimeError):
            await play(service, 1, [ALICE, BOB], seed=2)
        table = service.table(1)
        assert table.running  # the finishing move was not applied in memory either
        assert await rows(store, "SELECT * FROM results") == [] and await rows(store, RATINGS) == []
        monkeypatch.undo()
        rng = random.Random(3)
        while table.running:
            seat = table.engine.to_act(table.state)[0]
            await service.act(1, table.seats[seat].id, rng.choice(table.engine.legal_actions(table.state, seat)))
        assert len(await rows(store, "SELECT * FROM results")) == 2 and len(await rows(store, RATINGS)) == 4
    finally:
        await close(service)


async def test_games_finishing_at_once_both_move_the_shared_computer_rating(database):
    service = await open_service(database)
    try:
        import asyncio

        await asyncio.gather(
            play(service, 1, [ALICE, Seat(-1, "R1", "easy")], seed=4),
            play(service, 2, [BOB, Seat(-1, "R2", "easy")], seed=5),
        )
        levels = await ratings.computer_levels(service.store, GUILD, 0, "pig")
        assert levels["easy"].games == 2
    finally:
        await close(service)


# -- back-fill ----------------------------------------------------------------------------------


async def test_the_backfill_gives_exactly_the_live_ratings(database):
    service = await open_service(database)
    store = service.store
    try:
        lineups = [[ALICE, BOB], [BOB, CAROL, Seat(-1, "R", "hard")], [CAROL, ALICE, Seat(-1, "R", "easy")]]
        for n in range(9):
            await play(service, 1 + n % 2, lineups[n % 3], seed=n, guild=GUILD if n % 4 else OTHER_GUILD)
        live = (await rows(store, RATINGS), await rows(store, HISTORY))
        assert len(live[0]) > 10
        await store.write([ratings.backfill])
        assert (await rows(store, RATINGS), await rows(store, HISTORY)) == live
    finally:
        await close(service)


def _database_before_ratings(path: str) -> None:
    """A database at migration 0007 with three games whose finish order is not their id order."""
    folder = resources.files("bot.store") / "migrations"
    with sqlite3.connect(path) as conn:
        for number in range(1, 8):
            (script,) = [f for f in folder.iterdir() if f.name.startswith(f"{number:04d}_")]
            conn.executescript(script.read_text(encoding="utf-8"))
        conn.execute("PRAGMA user_version = 7")
        seats = '[{"id": 100, "name": "A"}, {"id": -1, "name": "R", "level": "hard"}]'
        for game_id, finished, winner in ((1, 30.0, 100), (2, 10.0, -1), (3, 20.0, 100)):
            conn.execute(
                "INSERT INTO games (id, guild_id, channel_id, game, status, host_id, options, seats, created_at,"
                " updated_at) VALUES (?, ?, 1, 'pig', 'finished', 100, '{}', ?, 0, ?)",
                (game_id, GUILD, seats, finished),
            )
            for user in (100, -1):
                won = user == winner
                conn.execute(
                    "INSERT INTO results (game_id, guild_id, game, user_id, is_bot, place, score, won, result,"
                    " finished_at) VALUES (?, ?, 'pig', ?, ?, ?, ?, ?, ?, ?)",
                    (
                        game_id,
                        GUILD,
                        user,
                        user < 0,
                        1 if won else 2,
                        20 if won else 5,
                        won,
                        "win" if won else "loss",
                        finished,
                    ),
                )


async def test_the_migration_backfills_in_finish_order(tmp_path):
    # SQLite only: a SQLite file from before 0008 (a PostgreSQL database starts at 0008, with nothing to back-fill;
    # test_the_backfill_gives_exactly_the_live_ratings runs the back-fill on both).
    path = str(tmp_path / "old.db")
    _database_before_ratings(path)
    store = await open_store(path)
    try:
        hard = rating_math.LEVEL_IDS["hard"]
        book: dict[int, Standing] = {}
        for winner in (hard, 100, 100):  # games 2, 3, 1: by finished_at, not by id
            loser = 100 if winner == hard else hard
            book.update(settle(book, [Finish(winner, 1, "win", 20), Finish(loser, 2, "loss", 5)]))
        mine = await ratings.standing(store, GUILD, 0, "pig", 100)
        assert mine == book[100] and mine.streak == 2 and mine.best_streak == 2
        assert await ratings.standing(store, GUILD, 0, "pig", hard) == book[hard]
        assert await ratings.standing(store, GUILD, 0, ALL, 100) == book[100]
        order = await rows(store, "SELECT game_id FROM rating_history WHERE game = 'pig' ORDER BY at")
        assert order == [(2,), (3,), (1,)]
    finally:
        await store.close()


# -- seasons ------------------------------------------------------------------------------------


async def test_a_new_season_starts_fresh_and_keeps_the_old_standings(database):
    service = await open_service(database)
    store = service.store
    try:
        await play(service, 1, [ALICE, BOB], seed=1)
        before = (await ratings.board(store, GUILD, 0, "pig", 10))[0]
        number = await ratings.start_season(store, GUILD, "  Spring  ", 1000.0)
        assert number == 1
        assert (await ratings.board(store, GUILD, 1, "pig", 10))[0] == []
        await play(service, 1, [ALICE, CAROL], seed=2)
        assert (await ratings.board(store, GUILD, 0, "pig", 10))[0] == before  # the first season's final standings
        now = {e.user_id: e.standing.games for e in (await ratings.board(store, GUILD, 1, "pig", 10))[0]}
        assert now == {ALICE.id: 1, CAROL.id: 1}
        known = await ratings.seasons(store, GUILD)
        assert [(s.number, s.name) for s in known] == [(1, "Spring"), (0, None)]
        assert known[1].ended_at == 1000.0 and known[0].ended_at is None
        assert (await ratings.season_of(store, GUILD, "spring")).number == 1
        assert (await ratings.season_of(store, GUILD, "#0")).number == 0
        assert (await ratings.seasons(store, OTHER_GUILD))[0].number == 0  # seasons are per server
    finally:
        await close(service)


@pytest.mark.parametrize(
    ("name", "code"),
    [
        ("SPRING", "season_name_taken"),
        ("   ", "season_name_empty"),
        ("x" * 33, "season_name_long"),
        ("#2", "season_name_chars"),
        ("a\nb", "season_name_chars"),
    ],
)
async def test_season_names_are_refused_clearly_and_nothing_changes(database, name, code):
    store = await open_store(database)
    try:
        await ratings.start_season(store, GUILD, "Spring", 1.0)
        before = await rows(store, "SELECT * FROM seasons ORDER BY number")
        with pytest.raises(ratings.SeasonRefused) as refused:
            await ratings.start_season(store, GUILD, name, 2.0)
        assert refused.value.code == code
        assert await rows(store, "SELECT * FROM seasons ORDER BY number") == before
        with pytest.raises(ratings.SeasonRefused):
            await ratings.season_of(store, GUILD, "Autumn")
    finally:
        await store.close()


def test_seats_become_finishes_by_member_id_or_computer_level():
    seats = [(100, None, 1, "win", 9), (-2, "hard", 2, "loss", 3), (-1, "grandmaster", 3, "loss", 0)]
    assert ratings.finishes_of(seats) == [Finish(100, 1, "win", 9), Finish(-3, 2, "loss", 3)]  # unknown: left out


async def test_the_global_board_takes_opted_in_servers_once_per_member_at_their_best(database):
    store = await open_store(database)
    try:
        shut = 43  # a server that does not share its board

        def game(n: int, guild: int, winner: int, loser: int) -> Any:
            return ratings.record(n, guild, "pig", [Finish(winner, 1, "win"), Finish(loser, 2, "loss")], float(n))

        steps = [game(n, GUILD, ALICE.id, BOB.id) for n in range(1, 4)]  # Alice strong here
        steps += [game(n, OTHER_GUILD, CAROL.id, ALICE.id) for n in range(4, 6)]  # and weaker there
        steps += [game(6, shut, 999, 998)]
        await store.write(steps)
        await store.write([repo.set_guild_setting(g, "global", True) for g in (GUILD, OTHER_GUILD)])
        entries, total = await ratings.global_board(store, "pig", 10)
        assert total == 3 and [e.user_id for e in entries].count(ALICE.id) == 1
        alice = next(e for e in entries if e.user_id == ALICE.id)
        assert alice.standing == await ratings.standing(store, GUILD, 0, "pig", ALICE.id)  # her best server's
        assert {e.user_id for e in entries} == {ALICE.id, BOB.id, CAROL.id}  # 998 and 999: not shared
        await store.write([("INSERT INTO users (user_id, opted_out) VALUES (?, 1)", (BOB.id,))])
        assert {e.user_id for e in (await ratings.global_board(store, "pig", 10))[0]} == {ALICE.id, CAROL.id}
        assert (await ratings.board(store, GUILD, 0, "pig", 10))[1] == 1  # nor on his server's board
        assert await ratings.favourite_game(store, GUILD, 0, ALICE.id) == "pig"
        assert await ratings.rank(store, GUILD, 0, "pig", ALICE.id) is None  # 3 games: provisional
        await store.write([game(n, GUILD, CAROL.id, ALICE.id) for n in (7, 8)])
        assert await ratings.rank(store, GUILD, 0, "pig", ALICE.id) == 1  # 5 games; Bob opted out, Carol provisional
        assert await ratings.rank(store, GUILD, 0, "pig", BOB.id) is None
    finally:
        await store.close()
