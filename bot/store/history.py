"""Reads for game history, replays and exports: a server's finished games, and one game's whole record.

Nothing here writes. A game's moves come from its ``actions`` rows, or from ``games.record`` once retention
compacted it (the same moves and dice, without times). ``games.fair`` is read as stored: the caller decides
what of it may be shown (only a game that is over has its seed revealed).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot.jsontext import loads
from bot.store.db import Store
from bot.store.sql import SQL, each

OVER = ("finished", "cancelled")  # a game whose seed is revealed: it can be replayed, exported and verified


@dataclass(frozen=True)
class GameSummary:
    """One line of ``/history``: a finished game (or one cancelled after it started), when it ended, who played,
    who won; for a cancelled one its revealed seed, so that cancelling until the dice suit shows."""

    id: int
    game: str
    finished_at: float
    players: list[str]  # seat names in seat order (computer players' names as the table shows them)
    winners: list[str]
    cancelled: bool = False
    seed: str | None = None  # a cancelled game's revealed server seed (None: played before fair dice)
    owner_seated: bool = False  # the bot's application owner held a seat


@dataclass(frozen=True)
class Move:
    """One logged action: ``start``, a move as the game encodes it, ``timeout`` or ``forfeit:<why>``."""

    seq: int
    seat: int | None
    action: str
    dice: list[list[Any]] | None  # the dice calls it made, in order (``bot.games.dice.DiceCall``), or None
    at: float | None  # None once the game was compacted
    link: str | None = None  # its link in the hash chain (bot.games.chain); None: no chain, or compacted


@dataclass(frozen=True)
class GameRecord:
    """Everything stored about one game (no Discord, no rendering)."""

    id: int
    guild_id: int
    channel_id: int
    game: str
    status: str
    options: dict[str, Any]
    seats: list[dict[str, Any]]  # {"id", "name", "level"} in seat order
    state: str | None  # the engine's JSON of the last snapshot (the final state of a game that is over)
    # {"commitment", "client_seed", "seed", "start", "chain", "owner_seated"}; None: played before fair dice
    fair: dict[str, Any] | None
    created_at: float
    updated_at: float
    moves: list[Move] = field(default_factory=list)

    @property
    def over(self) -> bool:
        return self.status in OVER

    @property
    def names(self) -> list[str]:
        return [s["name"] if s.get("level") is None else f"🤖 {s['name']}" for s in self.seats]


# A game that started and was cancelled has a state (a lobby cancelled before the start has none).
STARTED_CANCEL = "g.status = 'cancelled' AND g.state IS NOT NULL"


def _filters(guild_id: int, member_id: int | None, game: str | None) -> tuple[str, list[Any]]:
    where = f"g.guild_id = ? AND (g.status = 'finished' OR ({STARTED_CANCEL}))"
    params: list[Any] = [guild_id]
    if game:
        where += " AND g.game = ?"
        params.append(game)
    if member_id is not None:  # the results rows name every seat of a finished game (PRIMARY KEY game_id, user_id)
        # a cancelled game has no results: its seats (compact JSON, bot.jsontext) name the member
        where += (
            " AND (EXISTS (SELECT 1 FROM results r WHERE r.game_id = g.id AND r.user_id = ?)"
            f" OR ({STARTED_CANCEL} AND g.seats LIKE ?))"
        )
        params += [member_id, f'%"id":{int(member_id)},%']
    return where, params


async def count_finished(store: Store, guild_id: int, member_id: int | None = None, game: str | None = None) -> int:
    where, params = _filters(guild_id, member_id, game)
    row = await store.fetch_one(f"SELECT COUNT(*) FROM games g WHERE {where}", params)
    return row[0] if row else 0


async def finished_games(
    store: Store,
    guild_id: int,
    member_id: int | None = None,
    game: str | None = None,
    limit: int = 10,
    offset: int = 0,
) -> list[GameSummary]:
    """A server's finished games, newest first (``updated_at``: a finished game's row is last written as it ends)."""
    where, params = _filters(guild_id, member_id, game)
    page = f" FROM games g WHERE {where} ORDER BY g.updated_at DESC, g.id DESC LIMIT ? OFFSET ?"
    sql = each("SELECT g.id, g.game, g.seats, g.updated_at, g.status, g.fair, ({0}) AS won{page}", _WINNERS, page=page)
    rows = await store.fetch_all(sql, (*params, limit, offset))
    out = []
    for row in rows:
        seats = loads(row["seats"])
        winners = set(loads(row["won"]) or ())
        names = [s["name"] if s.get("level") is None else f"🤖 {s['name']}" for s in seats]
        fair = loads(row["fair"]) if row["fair"] else {}  # over: the seed may be shown
        out.append(
            GameSummary(
                id=row["id"],
                game=row["game"],
                finished_at=row["updated_at"],
                players=names,
                winners=[name for s, name in zip(seats, names, strict=True) if s["id"] in winners],
                cancelled=row["status"] == "cancelled",
                seed=fair.get("seed") if row["status"] == "cancelled" else None,
                owner_seated=bool(fair.get("owner_seated")),
            )
        )
    return out


_WINNERS = SQL(  # a JSON list of the game's winners' ids
    sqlite="SELECT json_group_array(r.user_id) FROM results r WHERE r.game_id = g.id AND r.result = 'win'",
    postgresql="SELECT COALESCE(jsonb_agg(r.user_id)::text, '[]') FROM results r"
    " WHERE r.game_id = g.id AND r.result = 'win'",
)


def _fair(text: str | None, status: str) -> dict[str, Any] | None:
    """games.fair as stored, without the seed while the game is not over: it never leaves the store before."""
    if not text:
        return None
    fair = dict(loads(text))
    if status not in OVER:
        fair.pop("seed", None)
    return fair


async def game_record(store: Store, game_id: int) -> GameRecord | None:
    """One game's row and every logged move, in seq order; None when there is no such game."""
    row = await store.fetch_one("SELECT * FROM games WHERE id = ?", (game_id,))
    if row is None:
        return None
    if row["record"] is not None:  # compacted: [[seq, seat, action, dice], ...]
        moves = [Move(seq, seat, action, dice, None) for seq, seat, action, dice in loads(row["record"])]
    else:
        rows = await store.fetch_all(
            "SELECT seq, seat, action, dice, at, link FROM actions WHERE game_id = ? ORDER BY seq", (game_id,)
        )
        moves = [
            Move(r["seq"], r["seat"], r["action"], loads(r["dice"]) if r["dice"] else None, r["at"], r["link"])
            for r in rows
        ]
    return GameRecord(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        game=row["game"],
        status=row["status"],
        options=loads(row["options"]),
        seats=loads(row["seats"]),
        state=row["state"],
        fair=_fair(row["fair"], row["status"]),
        created_at=row["created_at"],
        updated_at=row["updated_at"],
        moves=moves,
    )
