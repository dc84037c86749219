"""The SQL the application speaks, in one place. Write helpers return statements for ``Store.write``."""

from __future__ import annotations

import json
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from bot.jsontext import dumps, loads
from bot.store.db import Store
from bot.store.sql import SQL, Statement, each

# A row of either backend (sqlite3.Row, asyncpg.Record): row[0], row["name"], row.keys(), dict(row).
Row = Any

# -- games ----------------------------------------------------------------------------------


_INSERT_GAME = (
    "INSERT INTO games (guild_id, channel_id, game, status, host_id, options, seats, state, version,"
    " message_id, meta, created_at, updated_at, fair) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)"
)
# PostgreSQL has no lastrowid: the statement returns the id, which write() puts in its slot.
_INSERT_GAME_SQL = SQL(sqlite=_INSERT_GAME, postgresql=f"{_INSERT_GAME} RETURNING id")


def insert_game(row: dict[str, Any]) -> Statement:
    return (
        _INSERT_GAME_SQL,
        (
            row["guild_id"],
            row["channel_id"],
            row["game"],
            row["status"],
            row["host_id"],
            dumps(row["options"]),
            dumps(row["seats"]),
            row.get("state"),
            row.get("version", 0),
            row.get("message_id"),
            dumps(row.get("meta", {})),
            row["now"],
            row["now"],
            row.get("fair"),  # fair_json(...): the lobby's commitment is committed with the lobby itself
        ),
    )


# -- fair dice (issue 13) ---------------------------------------------------------------------
# games.fair is JSON {"commitment": sha256 hex, "client_seed": text or null until the game starts, "seed": hex}.
# The seed is secret until the game is over: the service reads it to draw, and only a finished or cancelled
# game's seed may leave the store (``finished_fair``; ``bot.store.history`` reads it the same way).

OVER = ("finished", "cancelled")


def fair_json(commitment: str, client_seed: str | None, seed: str, **started: Any) -> str:
    """The games.fair text (``update_game(..., fair=fair_json(...))`` stores it as it is). ``started``: what the
    start fixed (``start``, the start value; ``owner_seated``) and the end revealed (``chain``, the log's head)."""
    return dumps({"commitment": commitment, "client_seed": client_seed, "seed": seed, **started})


async def finished_fair(store: Store, game_id: int) -> dict[str, Any] | None:
    """games.fair of a game that is over (finished or cancelled): commitment, client seed and the revealed seed.
    None for a game still open (its seed is secret), an unknown game, or one played before fair dice."""
    row = await store.fetch_one("SELECT status, fair FROM games WHERE id = ?", (game_id,))
    if row is None or row["status"] not in OVER or not row["fair"]:
        return None
    return dict(loads(row["fair"]))


async def game_commitment(store: Store, game_id: int) -> str | None:
    """The public commitment of a game's fair dice (any status), without reading the seed out of the row."""
    row = await store.fetch_one(_COMMITMENT, (game_id,))
    return row[0] if row else None


_COMMITMENT = SQL(
    sqlite="SELECT json_extract(fair, '$.commitment') FROM games WHERE id = ?",
    postgresql="SELECT NULLIF(fair, '')::jsonb ->> 'commitment' FROM games WHERE id = ?",
)


async def logged_draws(store: Store, game_id: int) -> int:
    """How many draws a game's logged actions made (``bot.games.fair.count_draws`` over every dice row): where its
    stream goes on. Restore reads the snapshot's count instead; this is the fallback and the tests' check."""
    row = await store.fetch_one(_DRAWS, (game_id,))
    return int(row[0]) if row else 0


_DRAWS = SQL(
    sqlite="SELECT COALESCE(SUM(json_array_length(c.value, '$[2]')), 0)"
    " FROM actions a, json_each(a.dice) c WHERE a.game_id = ? AND a.dice IS NOT NULL",
    postgresql="SELECT COALESCE(SUM(jsonb_array_length(c.value -> 2)), 0)"
    " FROM actions a, jsonb_array_elements(a.dice::jsonb) c WHERE a.game_id = ? AND a.dice IS NOT NULL",
)


def update_game(game_id: int, now: float, **fields: Any) -> Statement:
    sets, params = [], []
    for key, value in fields.items():
        sets.append(f"{key} = ?")
        if key == "meta" and isinstance(value, str):
            params.append(value)  # Table.meta() hands over JSON text, built from pre-encoded log entries
        else:
            params.append(dumps(value) if key in ("options", "seats", "meta") else value)
    return f"UPDATE games SET {', '.join(sets)}, updated_at = ? WHERE id = ?", (*params, now, game_id)


def insert_action(
    game_id: int,
    seq: int,
    seat: int | None,
    action: str,
    interaction_id: str | None,
    now: float,
    dice: str | None = None,
    due: float | None = None,
    link: str | None = None,
) -> Statement:
    """One move of the log: ``dice`` is the JSON of its dice calls (None: it drew nothing), ``due`` the
    table's deadline after it, ``link`` its place in the hash chain (bot.games.chain; None: the game has none).
    Restore replays these rows on top of the last snapshot."""
    return (
        "INSERT INTO actions (game_id, seq, seat, action, interaction_id, at, dice, due, link)"
        " VALUES (?,?,?,?,?,?,?,?,?)",
        (game_id, seq, seat, action, interaction_id, now, dice, due, link),
    )


def set_deadline(game_id: int, due: float | None, version: int) -> Statement:
    if due is None:
        return "DELETE FROM deadlines WHERE game_id = ?", (game_id,)
    return (
        "INSERT INTO deadlines (game_id, due, version) VALUES (?,?,?)"
        " ON CONFLICT (game_id) DO UPDATE SET due = excluded.due, version = excluded.version",
        (game_id, due, version),
    )


def set_new_game_deadline(due: float) -> Statement:
    """The deadline of the game inserted by the statement just before this one in the same write (a lobby opens
    with one transaction, one fsync, instead of two)."""
    return _NEW_GAME_DEADLINE, (due,)


_NEW_GAME_DEADLINE = SQL(
    sqlite="INSERT INTO deadlines (game_id, due, version) VALUES (last_insert_rowid(), ?, 0)",
    # currval: the id this session's transaction just drew for games (the insert just before, same connection).
    postgresql="INSERT INTO deadlines (game_id, due, version)"
    " VALUES (currval(pg_get_serial_sequence('games', 'id')), ?, 0)",
)


@dataclass(frozen=True)
class PlayedGame:
    """One game's row as a rematch reads it (``played_game``): what it was, where, who sat, in which language, and
    when it finished (its results' time; the row's last change for a game without results)."""

    id: int
    status: str
    guild_id: int
    channel_id: int
    game: str
    options: dict[str, Any]
    seats: list[dict[str, Any]]  # Seat.to_json() of each seat
    locale: str
    locale_chosen: bool
    finished_at: float


# The meta's locale and chosen flag read in the database: the rest of the meta (the log) is not sent over.
_PLAYED = SQL(
    sqlite="SELECT g.id, g.status, g.guild_id, g.channel_id, g.game, g.options, g.seats,"
    " json_extract(g.meta, '$.locale') AS locale, COALESCE(json_extract(g.meta, '$.chosen'), 0) AS chosen,"
    " COALESCE((SELECT MAX(r.finished_at) FROM results r WHERE r.game_id = g.id), g.updated_at) AS finished_at"
    " FROM games g WHERE g.id = ?",
    postgresql="SELECT g.id, g.status, g.guild_id, g.channel_id, g.game, g.options, g.seats,"
    " g.meta::jsonb ->> 'locale' AS locale, COALESCE((g.meta::jsonb ->> 'chosen')::boolean, false) AS chosen,"
    " COALESCE((SELECT MAX(r.finished_at) FROM results r WHERE r.game_id = g.id), g.updated_at) AS finished_at"
    " FROM games g WHERE g.id = ?",
)


async def played_game(store: Store, game_id: int) -> PlayedGame | None:
    """A game of any status by its id (None: no such game), without its state, log or dice."""
    row = await store.fetch_one(_PLAYED, (game_id,))
    if row is None:
        return None
    return PlayedGame(
        id=row["id"],
        status=row["status"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        game=row["game"],
        options=dict(loads(row["options"]) or {}),
        seats=list(loads(row["seats"]) or []),
        locale=row["locale"] or "en",
        locale_chosen=bool(row["chosen"]),
        finished_at=float(row["finished_at"]),
    )


async def open_games(store: Store, owned: str | None = None) -> list[Row]:
    """``owned``: an SQL condition on ``g.guild_id`` (``bot.shards.Shards.sql``): this process's guilds."""
    return await store.fetch_all(
        "SELECT g.*, d.due, d.version AS deadline_version FROM games g LEFT JOIN deadlines d ON d.game_id = g.id"
        " WHERE g.status IN ('lobby', 'running')" + (f" AND {owned}" if owned else "")
    )


# Start-up reads are bounded per open game: the live version is found on the primary key (MAX(seq) of one game),
# and only the rows after the snapshot, or within the last ``limit`` seqs, are read; never a whole history.
_LIVE = "(SELECT MAX(m.seq) FROM actions m WHERE m.game_id = g.id)"


async def action_tails(store: Store, owned: str | None = None) -> list[Row]:
    """Every running game's actions from its snapshot's own (seq = games.version) on, by game and seq.

    The rows after the snapshot are what restore replays; the first row gives when the snapshot's move was made.
    """
    return await store.fetch_all(
        "SELECT a.game_id, a.seq, a.seat, a.action, a.dice, a.interaction_id, a.at, a.due, a.link"
        " FROM games g JOIN actions a ON a.game_id = g.id AND a.seq >= g.version"
        " WHERE g.status = 'running'" + (f" AND {owned}" if owned else "") + " ORDER BY a.game_id, a.seq"
    )


# An interaction id as ``bot.tables.model.interaction_key`` holds it: one whose text is exactly a positive SQLite
# integer (a plain decimal below 2**63: Discord's snowflakes) as that integer, anything else as its text.
_INTERACTION_KEY = (
    "CASE WHEN CAST(CAST(a.interaction_id AS INTEGER) AS TEXT) = a.interaction_id"
    " AND CAST(a.interaction_id AS INTEGER) > 0 THEN CAST(a.interaction_id AS INTEGER) ELSE a.interaction_id END"
)
# The same on PostgreSQL, as jsonb (a number or a string); CASE tests in order, so no cast sees a non-number.
_INTERACTION_KEY_PG = (
    "CASE WHEN a.interaction_id !~ '^[1-9][0-9]{0,18}$' THEN to_jsonb(a.interaction_id)"
    " WHEN a.interaction_id::numeric > 9223372036854775807 THEN to_jsonb(a.interaction_id)"
    " ELSE to_jsonb(a.interaction_id::bigint) END"
)
_RECENT = SQL(
    sqlite=f"SELECT g.id, (SELECT json_group_array(k) FROM (SELECT {_INTERACTION_KEY} AS k FROM actions a"
    f" WHERE a.game_id = g.id AND a.seq > {_LIVE} - ? AND a.interaction_id <> '' ORDER BY a.seq DESC"
    ")) FROM games g WHERE g.status IN ('lobby', 'running')",
    postgresql=f"SELECT g.id, (SELECT COALESCE(jsonb_agg({_INTERACTION_KEY_PG} ORDER BY a.seq DESC)::text, '[]')"
    f" FROM actions a WHERE a.game_id = g.id AND a.seq > {_LIVE} - ? AND a.interaction_id <> ''"
    ") FROM games g WHERE g.status IN ('lobby', 'running')",
)
_RECENT_OF = SQL(  # only the games in a JSON list
    sqlite=f"{_RECENT.sqlite} AND g.id IN (SELECT value FROM json_each(?))",
    postgresql=f"{_RECENT.postgresql} AND g.id IN (SELECT value::bigint FROM jsonb_array_elements_text(?::jsonb))",
)


async def recent_interactions(
    store: Store, limit: int, game_ids: Collection[int] | None = None
) -> dict[int, list[int | str]]:
    """The interaction ids among the last ``limit`` actions of every open game (or of those in ``game_ids``),
    newest first, as ``interaction_key`` has them. Start-up asks only for games whose snapshot predates
    ``meta.seen``."""
    # One row per game, its ids in a JSON array built by the database and read by orjson: no Python loop per id.
    if game_ids is None:
        rows = await store.fetch_all(_RECENT, (limit,))
    else:
        rows = await store.fetch_all(_RECENT_OF, (limit, dumps(sorted(game_ids))))
    return {game_id: ids for game_id, text in rows if (ids := loads(text))}


async def last_moves(store: Store, limit: int) -> list[tuple[int, int, int]]:
    """(game id, seat, seq) of each seat's last own move among the last ``limit`` actions of every running game.

    A move is what ``TableService.act`` logs: one entry whose seq is the table's version after it. Timeouts and
    forfeits (``timeout``, ``forfeit:…``) are the service's doing, not the player's, and ``start`` has no seat.
    """
    rows = await store.fetch_all(
        "SELECT g.id, a.seat, MAX(a.seq) FROM games g JOIN actions a"
        f" ON a.game_id = g.id AND a.seq > {_LIVE} - ?"
        " WHERE g.status = 'running' AND a.seat IS NOT NULL"
        " AND a.action <> 'timeout' AND a.action NOT LIKE 'forfeit:%'"
        " GROUP BY g.id, a.seat",
        (limit,),
    )
    return [(game_id, seat, seq) for game_id, seat, seq in rows]


async def actions(store: Store, game_id: int) -> list[Row]:
    return await store.fetch_all("SELECT * FROM actions WHERE game_id = ? ORDER BY seq", (game_id,))


# -- results, leaderboards, stats -----------------------------------------------------------


def insert_result(
    game_id: int,
    guild_id: int,
    game: str,
    user_id: int,
    is_bot: bool,
    place: int,
    score: int,
    result: str,
    now: float,
) -> Statement:
    """``result`` is ``win``, ``loss`` or ``neutral`` (``Outcome.result``)."""
    return (
        "INSERT INTO results (game_id, guild_id, game, user_id, is_bot, place, score, won, result, finished_at)"
        " VALUES (?,?,?,?,?,?,?,?,?,?) ON CONFLICT (game_id, user_id) DO UPDATE SET guild_id = excluded.guild_id,"
        " game = excluded.game, is_bot = excluded.is_bot, place = excluded.place, score = excluded.score,"
        " won = excluded.won, result = excluded.result, finished_at = excluded.finished_at",
        (game_id, guild_id, game, user_id, int(is_bot), place, score, int(result == "win"), result, now),
    )


@dataclass(frozen=True)
class BoardRow:
    user_id: int
    games: int
    wins: int
    best_score: int
    total_score: int
    losses: int = 0
    neutral: int = 0

    @property
    def win_rate(self) -> float:
        """Wins among the games that were decided for this player (a neutral result neither helps nor hurts)."""
        decided = self.games - self.neutral
        return self.wins / decided if decided else 0.0


_RECORD = SQL(
    sqlite="COUNT(*) AS games, SUM(result = 'win') AS wins, SUM(result = 'loss') AS losses,"
    " SUM(result = 'neutral') AS neutral, MAX(score) AS best, SUM(score) AS total",
    postgresql="COUNT(*) AS games, COUNT(*) FILTER (WHERE result = 'win') AS wins,"
    " COUNT(*) FILTER (WHERE result = 'loss') AS losses, COUNT(*) FILTER (WHERE result = 'neutral') AS neutral,"
    " MAX(score) AS best, SUM(score) AS total",
)
# Most wins, then the best win rate among decided games (PostgreSQL's ORDER BY cannot use an alias in an expression).
_BOARD_ORDER = SQL(
    sqlite="wins DESC, CAST(wins AS REAL) / MAX(1, COUNT(*) - SUM(result = 'neutral')) DESC, games DESC, user_id",
    postgresql="wins DESC, CAST(COUNT(*) FILTER (WHERE result = 'win') AS DOUBLE PRECISION)"
    " / GREATEST(1, COUNT(*) - COUNT(*) FILTER (WHERE result = 'neutral')) DESC, games DESC, user_id",
)


def _board_row(user_id: int, r: Row) -> BoardRow:
    return BoardRow(user_id, r["games"], r["wins"], r["best"], r["total"], r["losses"], r["neutral"])


async def leaderboard(store: Store, guild_id: int, game: str | None, limit: int, offset: int = 0) -> list[BoardRow]:
    where = "guild_id = ? AND is_bot = 0"
    params: list[int | str] = [guild_id]
    if game:
        where += " AND game = ?"
        params.append(game)
    sql = "SELECT user_id, {0} FROM results WHERE {where} GROUP BY user_id ORDER BY {1} LIMIT ? OFFSET ?"
    rows = await store.fetch_all(each(sql, _RECORD, _BOARD_ORDER, where=where), (*params, limit, offset))
    return [_board_row(r["user_id"], r) for r in rows]


async def leaderboard_size(store: Store, guild_id: int, game: str | None) -> int:
    where = "guild_id = ? AND is_bot = 0"
    params: list[int | str] = [guild_id]
    if game:
        where += " AND game = ?"
        params.append(game)
    row = await store.fetch_one(f"SELECT COUNT(DISTINCT user_id) FROM results WHERE {where}", params)
    return row[0] if row else 0


async def player_stats(store: Store, guild_id: int, user_id: int) -> dict[str, BoardRow]:
    rows = await store.fetch_all(
        each("SELECT game, {0} FROM results WHERE guild_id = ? AND user_id = ? GROUP BY game ORDER BY game", _RECORD),
        (guild_id, user_id),
    )
    return {r["game"]: _board_row(user_id, r) for r in rows}


# -- settings and users ---------------------------------------------------------------------


async def guild_settings(store: Store, guild_id: int) -> dict[str, Any]:
    rows = await store.fetch_all("SELECT key, value FROM guild_settings WHERE guild_id = ?", (guild_id,))
    return {r["key"]: json.loads(r["value"]) for r in rows}


def set_guild_setting(guild_id: int, key: str, value: Any) -> Statement:
    if value is None:
        return "DELETE FROM guild_settings WHERE guild_id = ? AND key = ?", (guild_id, key)
    return (
        "INSERT INTO guild_settings (guild_id, key, value) VALUES (?,?,?)"
        " ON CONFLICT (guild_id, key) DO UPDATE SET value = excluded.value",
        (guild_id, key, dumps(value)),
    )


async def dms_closed_users(store: Store) -> dict[int, float]:
    """Users marked "DMs closed", with when the mark was set (0.0 for marks older than the timestamp)."""
    rows = await store.fetch_all("SELECT user_id, dms_closed_at FROM users WHERE dms_closed = 1")
    return {r[0]: r[1] or 0.0 for r in rows}


def set_dms_closed(user_id: int, closed: bool, at: float | None = None) -> Statement:
    return (
        "INSERT INTO users (user_id, dms_closed, dms_closed_at) VALUES (?,?,?)"
        " ON CONFLICT (user_id) DO UPDATE SET dms_closed = excluded.dms_closed, dms_closed_at = excluded.dms_closed_at",
        (user_id, int(closed), at if closed else None),
    )


async def user_languages(store: Store) -> tuple[dict[int, str], dict[int, str]]:
    """({user id: their ``/me language``}, {user id: the Discord locale last seen on their interactions})."""
    rows = await store.fetch_all(
        "SELECT user_id, language, discord_locale FROM users WHERE language IS NOT NULL OR discord_locale IS NOT NULL"
    )
    return (
        {r[0]: r[1] for r in rows if r[1] is not None},
        {r[0]: r[2] for r in rows if r[2] is not None},
    )


def set_user_language(user_id: int, language: str | None) -> Statement:
    """A member's ``/me language`` (None: follow their Discord client again)."""
    return (
        "INSERT INTO users (user_id, language) VALUES (?,?)"
        " ON CONFLICT (user_id) DO UPDATE SET language = excluded.language",
        (user_id, language),
    )


def set_discord_locale(user_id: int, locale: str) -> Statement:
    return (
        "INSERT INTO users (user_id, discord_locale) VALUES (?,?)"
        " ON CONFLICT (user_id) DO UPDATE SET discord_locale = excluded.discord_locale",
        (user_id, locale),
    )


async def guild_languages(store: Store) -> dict[int, str]:
    """Every server's ``/settings language``: read once at start, so no click waits for it."""
    rows = await store.fetch_all("SELECT guild_id, value FROM guild_settings WHERE key = 'language'")
    return {r[0]: json.loads(r[1]) for r in rows}


def set_game_locale(game_id: int, locale: str) -> Statement:
    """Only the table's language in its meta (the rest of the meta is the snapshot's and stays as it is)."""
    return _SET_LOCALE, (locale, game_id)


_SET_LOCALE = SQL(
    sqlite="UPDATE games SET meta = json_set(meta, '$.locale', ?) WHERE id = ?",
    postgresql="UPDATE games SET meta = jsonb_set(meta::jsonb, '{locale}', to_jsonb(?::text))::text WHERE id = ?",
)


# -- end-of-game messages still owed ---------------------------------------------------------


def owe_end(game_id: int) -> Statement:
    """With the commit that finishes the game: its end message is owed until ``end_told``."""
    return "INSERT INTO end_messages (game_id) VALUES (?) ON CONFLICT (game_id) DO NOTHING", (game_id,)


def end_told(game_id: int) -> Statement:
    return "DELETE FROM end_messages WHERE game_id = ?", (game_id,)


async def owed_end_games(store: Store, owned: str | None = None) -> list[Row]:
    """The finished games whose end message is owed, as ``open_games`` has a row (no deadline), of the guilds
    ``owned`` accepts (an SQL condition on ``g.guild_id``; None: all)."""
    return await store.fetch_all(
        "SELECT g.*, NULL AS due FROM games g JOIN end_messages e ON e.game_id = g.id"
        " WHERE g.status = 'finished'" + (f" AND {owned}" if owned else "") + " ORDER BY g.id"
    )


# -- turn reminders -------------------------------------------------------------------------


async def reminders(store: Store) -> list[Row]:
    """Every reminder message still in a channel, with whether its game is still open."""
    return await store.fetch_all(
        "SELECT r.game_id, r.channel_id, r.message_id, r.version, g.status IN ('lobby', 'running') AS open"
        " FROM reminders r LEFT JOIN games g ON g.id = r.game_id"
    )


def set_reminder(game_id: int, channel_id: int, message_id: int | None, version: int = 0) -> Statement:
    if message_id is None:
        return "DELETE FROM reminders WHERE game_id = ?", (game_id,)
    return (
        "INSERT INTO reminders (game_id, channel_id, message_id, version) VALUES (?,?,?,?)"
        " ON CONFLICT (game_id) DO UPDATE SET channel_id = excluded.channel_id, message_id = excluded.message_id,"
        " version = excluded.version",
        (game_id, channel_id, message_id, version),
    )


async def turn_starts(store: Store) -> dict[int, float]:
    """When each running game's current turn began: the time of its latest action."""
    rows = await store.fetch_all(
        f"SELECT g.id, a.at FROM games g JOIN actions a ON a.game_id = g.id AND a.seq = {_LIVE}"
        " WHERE g.status = 'running'"
    )
    return {r[0]: r[1] for r in rows}


# -- retention ------------------------------------------------------------------------------


async def games_to_compact(store: Store, before: float, limit: int, owned: str | None = None) -> list[int]:
    """Up to ``limit`` finished or cancelled games last changed before ``before`` and not compacted yet (of the
    guilds ``owned`` accepts, an SQL condition on ``guild_id``: see ``open_games``)."""
    where = "status IN ('finished', 'cancelled') AND record IS NULL AND updated_at < ?" + (
        f" AND {owned}" if owned else ""
    )
    # (PostgreSQL's planner finds the partial index by itself and has no INDEXED BY)
    sql = SQL(
        sqlite=f"SELECT id FROM games INDEXED BY games_to_compact WHERE {where} ORDER BY updated_at LIMIT ?",
        postgresql=f"SELECT id FROM games WHERE {where} ORDER BY updated_at LIMIT ?",
    )
    rows = await store.fetch_all(sql, (before, limit))
    return [r[0] for r in rows]


_COMPACT = SQL(
    sqlite="UPDATE games SET record = (SELECT json_group_array(json_array(seq, seat, action, json(dice)))"
    " FROM (SELECT seq, seat, action, dice FROM actions WHERE game_id = ?1 ORDER BY seq)),"
    " meta = json_remove(meta, '$.log') WHERE id = ?1",
    postgresql="UPDATE games SET record = (SELECT COALESCE(jsonb_agg(jsonb_build_array(seq, seat, action, dice::jsonb)"
    " ORDER BY seq), '[]')::text FROM actions WHERE game_id = ?1),"
    " meta = (meta::jsonb - 'log')::text WHERE id = ?1",
)


def compact_game(game_id: int) -> list[Statement]:
    """Keep what verifies the game (its moves with their dice, ``record``: [[seq, seat, action, dice], ...]), the
    row (options, seats, final state) and its results; drop the per-move rows and the public log."""
    return [
        (_COMPACT, (game_id,)),
        ("DELETE FROM actions WHERE game_id = ?", (game_id,)),
    ]


async def stored_options(store: Store, game_id: int) -> dict[str, Any] | None:
    """The game's options as the store has them (a failed ⚙ Options submit, read back: was it saved?)."""
    row = await store.fetch_one("SELECT options FROM games WHERE id = ?", (game_id,))
    return loads(row["options"]) if row is not None else None


async def action_of_interaction(store: Store, game_id: int, interaction_id: str) -> bool:
    """Whether the game's action log holds an action of this interaction (a press whose answer failed, read back:
    was its move committed?)."""
    sql = "SELECT 1 FROM actions WHERE game_id = ? AND interaction_id = ? LIMIT 1"
    return await store.fetch_one(sql, (game_id, interaction_id)) is not None
