"""Interaction windows (issue 29, migration 0016): the tables that live on an interaction's message, each with the
latest token that edits it and when that token's window ends. The transport (cogs.utils.interaction_transport)
writes a row as such a table opens and again at each click on it; a restart reads the open tables' rows back
(and those of tables whose end is still owed)."""

from __future__ import annotations

from typing import Any

from bot.store.db import Store
from bot.store.sql import Statement


def set_window(game_id: int, token: str, until: float) -> Statement:
    return (
        "INSERT INTO interaction_windows (game_id, token, until) VALUES (?,?,?)"
        " ON CONFLICT (game_id) DO UPDATE SET token = excluded.token, until = excluded.until",
        (game_id, token, until),
    )


async def open_windows(store: Store, owned: str | None = None) -> list[Any]:
    """The windows of the open tables (lobbies and running games) and of the finished ones whose end message is
    still owed (a restart between the last move and the end: it goes out through the token, the bot's is refused
    there), with their table's id; ``owned``: an SQL condition on ``g.guild_id`` (this process's shards,
    ``TableService.owned``), None for every table."""
    return await store.fetch_all(
        "SELECT w.game_id, w.token, w.until FROM interaction_windows w JOIN games g ON g.id = w.game_id"
        " WHERE (g.status IN ('lobby', 'running') OR g.id IN (SELECT game_id FROM end_messages))"
        + ("" if owned is None else f" AND {owned}")
    )
