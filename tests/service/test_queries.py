"""The store's queries that the service tests reach rarely or not at all, on each backend: the same rows in, the same
Python values out (the PostgreSQL texts use jsonb where SQLite uses its JSON functions)."""

from __future__ import annotations

import json

from bot.store import history, open_store, privacy, repo

GUILD, CHANNEL = 412_000_000_000_000_001, 412_000_000_000_000_010  # Discord-sized: past 32 bits
ANN, BEA = 733_245_118_904_221_697, 733_245_118_904_221_698
SEATS = [{"id": ANN, "name": "Ann", "level": None}, {"id": -2, "name": "Robo", "level": "normal"}]


def game_row(status: str, channel: int = CHANNEL, **extra) -> dict:
    row = {"guild_id": GUILD, "channel_id": channel, "game": "pig", "status": status, "host_id": ANN}
    return {**row, "options": {"target": 20}, "seats": SEATS, "now": 10.0, **extra}


async def test_a_running_game_s_reads(database):
    store = await open_store(database)
    try:
        fair = repo.fair_json("c0ffee", None, "5eed")
        game_id, _ = await store.write(
            [repo.insert_game(game_row("running", fair=fair)), repo.set_new_game_deadline(99.0)]
        )
        assert isinstance(game_id, int)
        dice = [json.dumps([["r", 6, [1, 2]]]), json.dumps([["r", 6, [3]], ["s", 4, [0, 3]]]), None]
        await store.write(
            [repo.insert_action(game_id, 1, None, "start", "", 11.0, dice[0], 40.0)]
            + [repo.insert_action(game_id, 2, 0, "roll", "1250000000000000001", 12.0, dice[1], 41.0)]
            + [repo.insert_action(game_id, 3, 1, "hold", "i3", 13.5, dice[2], 42.0)]
            + [repo.insert_action(game_id, 4, 0, "timeout", None, 14.0, None, 43.0)]
            + [repo.set_reminder(game_id, CHANNEL, 555, 3)]
        )
        assert await repo.game_commitment(store, game_id) == "c0ffee"
        assert await repo.finished_fair(store, game_id) is None  # the seed stays in while the game runs
        assert await repo.logged_draws(store, game_id) == 2 + 1 + 2
        assert await repo.turn_starts(store) == {game_id: 14.0}
        assert sorted(await repo.last_moves(store, 64)) == [(game_id, 0, 2), (game_id, 1, 3)]  # not the timeout
        assert await repo.recent_interactions(store, 64) == {game_id: ["i3", 1250000000000000001]}
        assert await repo.recent_interactions(store, 2, [game_id, 12345]) == {game_id: ["i3"]}
        (row,) = await repo.open_games(store)
        assert (row["id"], row["due"], row["deadline_version"], row["guild_id"]) == (game_id, 99.0, 0, GUILD)
        (reminder,) = await repo.reminders(store)
        assert (reminder["game_id"], reminder["message_id"], bool(reminder["open"])) == (game_id, 555, True)
        assert await privacy.open_tables(store, ANN) == [game_id] and await privacy.open_tables(store, BEA) == []

        await store.write([repo.set_game_locale(game_id, "cy")])
        meta = json.loads((await store.fetch_one("SELECT meta FROM games WHERE id = ?", (game_id,)))["meta"])
        assert meta == {"locale": "cy"}
    finally:
        await store.close()


async def test_a_finished_game_s_board_history_and_compaction(database):
    store = await open_store(database)
    try:
        (game_id,) = await store.write([repo.insert_game(game_row("finished", meta={"log": [["x", {}]], "k": 1}))])
        await store.write(
            [
                repo.insert_action(game_id, 1, None, "start", "", 11.0, json.dumps([["r", 6, [4]]]), 40.0),
                repo.insert_action(game_id, 2, 0, "hold", "a", 12.0, None, None),
                repo.insert_result(game_id, GUILD, "pig", ANN, False, 1, 20, "win", 30.0),
                repo.insert_result(game_id, GUILD, "pig", -2, True, 2, 5, "loss", 30.0),
                repo.insert_result(game_id, GUILD, "pig", ANN, False, 1, 21, "win", 30.0),  # written again: replaced
            ]
        )
        (board,) = await repo.leaderboard(store, GUILD, None, 10)
        assert (board.user_id, board.games, board.wins, board.losses, board.best_score, board.total_score) == (
            ANN,
            1,
            1,
            0,
            21,
            21,
        )
        assert await repo.leaderboard_size(store, GUILD, "pig") == 1
        (summary,) = await history.finished_games(store, GUILD, ANN)
        assert (summary.id, summary.winners, summary.finished_at) == (game_id, ["Ann"], 10.0)
        assert await repo.games_to_compact(store, 11.0, 5) == [game_id]
        assert await repo.games_to_compact(store, 10.0, 5) == []  # updated_at 10.0 is not before 10.0

        await store.write(repo.compact_game(game_id))
        row = await store.fetch_one("SELECT record, meta FROM games WHERE id = ?", (game_id,))
        assert json.loads(row["record"]) == [[1, None, "start", [["r", 6, [4]]]], [2, 0, "hold", None]]
        assert json.loads(row["meta"]) == {"k": 1}
        assert await repo.games_to_compact(store, 11.0, 5) == []
        record = await history.game_record(store, game_id)
        assert record is not None and [m.action for m in record.moves] == ["start", "hold"]
    finally:
        await store.close()
