"""What a game's end writes besides its last move: the fair dice's seed revealed, the results, the ratings and the
achievements."""

from __future__ import annotations

from typing import Any

from bot.games import Event
from bot.store import achievements, ratings, repo
from bot.store.sql import Statement, Step
from bot.tables.model import Table


def reveal(table: Table, head: str | None = None) -> list[Event]:
    """The game is over (finished or cancelled): its fair dice's seed is published, as an event the presenters
    show (the seed was in games.fair all along; nothing showed it before), with the start value, the action log's
    chain head (``head``, else the table's) and whether the bot's owner played."""
    fair = table.fair
    if fair is None:
        return []
    started = table.state is not None
    data = {
        "game_id": table.id,
        "seed": fair.reveal(),
        "commitment": fair.commitment,
        "client_seed": fair.client_seed if started else None,
        "draws": fair.nonce,
        "start": fair.start if started else None,
        "chain": (head or table.chain) if started else None,
        "owner_seated": table.owner_seated,
    }
    return [Event("fair_reveal", data)]


def result_statements(table: Table, outcome: Any, now: float) -> list[Statement | Step]:
    """The results rows and, in the same transaction, the ratings they move (``bot.store.ratings.record``) and the
    achievements the game earned (``bot.store.achievements.evaluate``, after the results it reads)."""
    statements: list[Statement | Step] = []
    seats = []
    place = 1
    for group in outcome.ranking:
        for seat in group:
            s = table.seats[seat]
            result, score = outcome.result(seat), outcome.scores[seat]
            statements.append(
                repo.insert_result(table.id, table.guild_id, table.game, s.id, s.is_bot, place, score, result, now)
            )
            seats.append((s.id, s.level, place, result, score))
        place += len(group)
    statements.append(ratings.record(table.id, table.guild_id, table.game, ratings.finishes_of(seats), now))
    statements.append(achievements.evaluate([table.id], now))
    return statements
