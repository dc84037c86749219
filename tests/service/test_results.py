"""Results as win, loss or neutral: the table service records them, the migration backfills old rows, and the
leaderboard and stats queries count them (a neutral game is neither won nor lost)."""

from __future__ import annotations

import json
import sqlite3
from importlib import resources

from bot.games import Outcome
from bot.games.dice import ScriptedDice
from bot.store import open_store, repo
from bot.tables import Seat, TableService

GUILD, CHANNEL = 1, 10
SEATS = [Seat(100, "Alice"), Seat(200, "Bob"), Seat(300, "Carol")]


def test_an_outcome_names_each_seat_win_neutral_or_loss():
    outcome = Outcome(((2,), (0,), (1,)), (0, -1, 1), neutral=(0,))
    assert [outcome.result(seat) for seat in range(3)] == ["neutral", "loss", "win"]
    assert Outcome(((0, 1), (2,)), (5, 5, 1)).result(1) == "win"  # a shared first place is a win


async def test_a_single_round_liars_dice_game_records_the_uninvolved_seat_as_neutral(database):
    """D-L7: only the bidder and the challenger win or lose; the third seat is neutral, on the board too."""
    store = await open_store(database)
    service = TableService(store, ScriptedDice([1, 2, 3] * 5, samples=[[0]]), run_dispatcher=False)
    await service.start()
    await service.create(GUILD, CHANNEL, SEATS[0], "liar", {"dice_per_player": 1})
    for seat in SEATS[1:]:
        await service.join(CHANNEL, seat)
    table = await service.start_game(CHANNEL, SEATS[0].id)
    bidder = table.engine.to_act(table.state)[0]
    challenger = (bidder + 1) % 3
    await service.act(CHANNEL, SEATS[bidder].id, "bid:3:6")  # three sixes among three dice: a bluff
    await service.act(CHANNEL, SEATS[challenger].id, "challenge")
    neutral = 3 - bidder - challenger
    rows = await store.fetch_all("SELECT user_id, won, result FROM results ORDER BY place")
    assert [(r["user_id"], r["won"], r["result"]) for r in rows] == [
        (SEATS[challenger].id, 1, "win"),
        (SEATS[neutral].id, 0, "neutral"),
        (SEATS[bidder].id, 0, "loss"),
    ]
    board = {row.user_id: row for row in await repo.leaderboard(store, GUILD, "liar", 10)}
    assert (board[SEATS[neutral].id].wins, board[SEATS[neutral].id].losses) == (0, 0)
    assert board[SEATS[neutral].id].neutral == 1 and board[SEATS[neutral].id].win_rate == 0.0
    assert (board[SEATS[bidder].id].losses, board[SEATS[challenger].id].win_rate) == (1, 1.0)
    stats = await repo.player_stats(store, GUILD, SEATS[neutral].id)
    assert stats["liar"].games == 1 and stats["liar"].neutral == 1
    await service.stop()
    await store.close()


async def test_the_migration_backfills_wins_and_single_round_liars_dice_neutrals(tmp_path):
    """A database from before the result column: wins stay wins, single-round Liar's Dice seats with score 0
    become neutral, and a loot game's 0 (no dice left) stays a loss. (SQLite only: a PostgreSQL database starts
    at the whole schema, 0008.)"""
    path = tmp_path / "old.sqlite3"
    init = (resources.files("bot.store") / "migrations" / "0001_init.sql").read_text(encoding="utf-8")
    with sqlite3.connect(path) as conn:
        conn.executescript(init + "\nPRAGMA user_version=1;")
        for game_id, mode in ((1, "single"), (2, "loot")):
            conn.execute(
                "INSERT INTO games (id, guild_id, channel_id, game, status, host_id, options, seats, created_at,"
                " updated_at) VALUES (?, 1, ?, 'liar', 'finished', 100, ?, '[]', 0, 0)",
                (game_id, game_id, json.dumps({"mode": mode})),
            )
        rows = [(1, 100, 1, 1), (1, 200, 0, 0), (1, 300, -1, 0), (2, 100, 3, 1), (2, 200, 0, 0)]
        conn.executemany(
            "INSERT INTO results (game_id, guild_id, game, user_id, is_bot, place, score, won, finished_at)"
            " VALUES (?, 1, 'liar', ?, 0, 1, ?, ?, 0)",
            rows,
        )
    store = await open_store(path)
    found = await store.fetch_all("SELECT game_id, user_id, result FROM results ORDER BY game_id, user_id")
    assert [tuple(r) for r in found] == [
        (1, 100, "win"),
        (1, 200, "neutral"),
        (1, 300, "loss"),
        (2, 100, "win"),
        (2, 200, "loss"),
    ]
    await store.close()
