"""Ratings and seasons in the store (issue 15): recording a finished game, the back-fill, the boards and /stats reads.

A finished game's ratings are a ``Step`` (``bot.store.sql``) in the same write as its results rows: it runs off the
event loop (a worker thread of the store's) inside that transaction, reads the players' current
ratings in the server's current season, rates (``bot.ratings.settle``) and writes them with a history row each.
Reading inside the transaction means two games finishing at once (a Hard computer plays at many tables) each see
the other's result, and a failed batch leaves neither results nor ratings. The move path never reads any of this.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from bot.ratings import ALL, LEVEL_IDS, LEVELS, Finish, Standing, player_id, settle
from bot.store.db import Store
from bot.store.errors import IntegrityError
from bot.store.repo import Row
from bot.store.sql import SQL, Cursor, Step

SEASON_NAME_MAX = 32
PROVISIONAL_GAMES = 5  # fewer rated games than this: listed apart on the board, as provisional

Key = tuple[int, int, str, int]  # (guild, season, game, player)

_COLUMNS = "mu, sigma, games, wins, neutral, streak, best_streak, best_score"
# A row replaced whole when its key is there (neither table has another unique index, nor anything referring to it)
_UPSERT = (
    "INSERT INTO ratings (guild_id, season, game, user_id, mu, sigma, ordinal, games, wins, neutral,"
    " streak, best_streak, best_score, updated_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)"
    " ON CONFLICT (guild_id, season, game, user_id) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma,"
    " ordinal = excluded.ordinal, games = excluded.games, wins = excluded.wins, neutral = excluded.neutral,"
    " streak = excluded.streak, best_streak = excluded.best_streak, best_score = excluded.best_score,"
    " updated_at = excluded.updated_at"
)
_HISTORY = (
    "INSERT INTO rating_history (game_id, user_id, guild_id, season, game, mu, sigma, ordinal, at)"
    " VALUES (?,?,?,?,?,?,?,?,?) ON CONFLICT (game_id, user_id, game) DO UPDATE SET guild_id = excluded.guild_id,"
    " season = excluded.season, mu = excluded.mu, sigma = excluded.sigma, ordinal = excluded.ordinal,"
    " at = excluded.at"
)
# Each result with its game's results in finish order, and a computer player's level from the game's seats.
_FINISHED = SQL(
    sqlite="SELECT r.game_id, r.guild_id, r.game, r.user_id, r.place, r.result, r.score, r.finished_at,"
    " CASE WHEN r.is_bot THEN (SELECT json_extract(s.value, '$.level') FROM games g, json_each(g.seats) s"
    " WHERE g.id = r.game_id AND json_extract(s.value, '$.id') = r.user_id) END,"
    " r.is_bot"
    " FROM results r ORDER BY r.finished_at, r.game_id",
    postgresql="SELECT r.game_id, r.guild_id, r.game, r.user_id, r.place, r.result, r.score, r.finished_at,"
    " CASE WHEN r.is_bot <> 0 THEN (SELECT s.value ->> 'level' FROM games g, jsonb_array_elements(g.seats::jsonb) s"
    " WHERE g.id = r.game_id AND s.value -> 'id' = to_jsonb(r.user_id)) END,"
    " r.is_bot"
    " FROM results r ORDER BY r.finished_at, r.game_id",
)


@cache
def _books(players: int) -> str:
    """The server's current season (0 before its first) beside each of ``players`` players' ratings on two boards in
    it: ``(season, game, user_id, mu, ...)``, one row with NULLs after the season when none has a rating. Parameters:
    the guild, the two boards, the players."""
    columns = ", ".join(f"r.{name.strip()}" for name in _COLUMNS.split(","))
    marks = ", ".join(f"?{4 + i}" for i in range(players))
    return (
        f"SELECT s.season, r.game, r.user_id, {columns} FROM"
        " (SELECT COALESCE(MAX(number), 0) AS season FROM seasons WHERE guild_id = ?1) s"
        f" LEFT JOIN ratings r ON r.guild_id = ?1 AND r.season = s.season AND r.game IN (?2, ?3)"
        f" AND r.user_id IN ({marks})"
    )


def _standing(row: Sequence[Any]) -> Standing:
    mu, sigma, games, wins, neutral, streak, best_streak, best_score = row
    return Standing(mu, sigma, games, wins, neutral, streak, best_streak, best_score)


def current_season(cursor: Cursor, guild_id: int) -> int:
    row = cursor.execute("SELECT MAX(number) FROM seasons WHERE guild_id = ?", (guild_id,)).fetchone()
    return int(row[0]) if row and row[0] is not None else 0


def _rows(key: Key, standing: Standing, game_id: int, at: float) -> tuple[tuple[Any, ...], tuple[Any, ...] | None]:
    """The ratings row and the history row (None for a computer level: its chart is never drawn)."""
    guild, season, game, player = key
    value = standing.ordinal
    rating: tuple[Any, ...] = (guild, season, game, player, standing.mu, standing.sigma, value, standing.games)
    rating += (standing.wins, standing.neutral, standing.streak, standing.best_streak, standing.best_score, at)
    history = (
        None if player in LEVELS else (game_id, player, guild, season, game, standing.mu, standing.sigma, value, at)
    )
    return rating, history


def record(game_id: int, guild_id: int, game: str, finishes: Sequence[Finish], at: float) -> Step:
    """The step that rates one finished game (its own game's board and 'all'), for the write of its results."""

    def step(cursor: Cursor) -> None:
        if len(finishes) < 2:
            return
        players = sorted({f.player for f in finishes})
        # One read for the season and both boards (each statement is a hop to the store's connection).
        found = cursor.execute(_books(len(players)), (guild_id, game, ALL, *players)).fetchall()
        season = int(found[0][0])  # the season's row is there even when no player has a rating yet
        books: dict[str, dict[int, Standing]] = {game: {}, ALL: {}}
        for row in found:
            if row[1] is not None:
                books[row[1]][row[2]] = _standing(row[3:])
        ratings, history = [], []
        settled = {game: settle(books[game], finishes)}
        # The same standings before give the same standings after (settle is a function of the two): a game's
        # players who play no other game on the server are rated once, not twice (openskill's rate is most of this).
        settled[ALL] = settled[game] if books[ALL] == books[game] else settle(books[ALL], finishes)
        for board in (game, ALL):
            for player, standing in settled[board].items():
                rating, line = _rows((guild_id, season, board, player), standing, game_id, at)
                ratings.append(rating)
                if line is not None:
                    history.append(line)
        cursor.executemany(_UPSERT, ratings)
        cursor.executemany(_HISTORY, history)

    return step


def finishes_of(seats: Iterable[tuple[int, str | None, int, str, int]]) -> list[Finish]:
    """(user id, level, place, result, score) per seat -> the Finish list ``settle`` rates. A computer player of a
    level without a rating (none today) is left out rather than fail the finish."""
    return [
        Finish(player_id(user, level), place, result, score)
        for user, level, place, result, score in seats
        if level is None or level in LEVEL_IDS
    ]


def backfill(cursor: Cursor) -> None:
    """Every board from the results already stored, in finish order (migration 0008; idempotent). Each server's
    games go to its current season: when the migration runs no server has started a season yet.

    Held in memory and written once at the end: the same ``settle`` as the live path, without a read per game."""
    cursor.execute("DELETE FROM ratings")
    cursor.execute("DELETE FROM rating_history")
    rows = cursor.execute(_FINISHED).fetchall()
    seasons: dict[int, int] = {}
    book: dict[Key, Standing] = {}
    history: list[tuple[Any, ...]] = []
    updated: dict[Key, float] = {}
    start = 0
    for end in range(1, len(rows) + 1):
        if end < len(rows) and rows[end][0] == rows[start][0]:
            continue
        game_rows = rows[start:end]
        start = end
        game_id, guild, game, at = game_rows[0][0], game_rows[0][1], game_rows[0][2], game_rows[0][7]
        if guild not in seasons:
            seasons[guild] = current_season(cursor, guild)
        season = seasons[guild]
        # (a computer player's seat whose level is not found in the game's seats is left out, as an unknown level)
        finishes = finishes_of((r[3], r[8] if r[9] else None, r[4], r[5], r[6]) for r in game_rows if not r[9] or r[8])
        for board in (game, ALL):
            prefix = (guild, season, board)
            mine = {f.player: book[k] for f in finishes if (k := (*prefix, f.player)) in book}
            for player, standing in settle(mine, finishes).items():
                key = (*prefix, player)
                book[key], updated[key] = standing, at
                if player not in LEVELS:
                    history.append(_rows(key, standing, game_id, at)[1] or ())
    cursor.executemany(_UPSERT, (_rows(key, standing, 0, updated[key])[0] for key, standing in book.items()))
    cursor.executemany(_HISTORY, history)


# -- seasons ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Season:
    number: int
    name: str | None  # None: the first season, named from the catalog
    started_at: float | None
    ended_at: float | None


class SeasonRefused(Exception):
    """A season name refused; ``code`` keys ``rating.error_<code>`` in the catalog."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code)
        self.code, self.params = code, params


def check_season_name(name: str) -> str:
    """The name as stored (stripped), or a refusal: 1 to 32 printable characters, not starting with ``#`` (the
    ``#<number>`` form names a season by number)."""
    name = name.strip()
    if not name:
        raise SeasonRefused("season_name_empty")
    if len(name) > SEASON_NAME_MAX:
        raise SeasonRefused("season_name_long", max=SEASON_NAME_MAX, count=len(name))
    if name.startswith("#") or not name.isprintable():
        raise SeasonRefused("season_name_chars")
    return name


async def seasons(store: Store, guild_id: int) -> list[Season]:
    """The server's seasons, newest first (the first one even before any row exists for it)."""
    rows = await store.fetch_all(
        "SELECT number, name, started_at, ended_at FROM seasons WHERE guild_id = ? ORDER BY number DESC", (guild_id,)
    )
    found = [Season(r[0], r[1], r[2], r[3]) for r in rows]
    if not found or found[-1].number != 0:
        found.append(Season(0, None, None, None))
    return found


async def season_of(store: Store, guild_id: int, text: str | None) -> Season:
    """The season ``text`` names (its name in any case, or ``#<number>``); None or blank: the current one."""
    known = await seasons(store, guild_id)
    if text is None or not text.strip():
        return known[0]
    wanted = text.strip()
    for season in known:
        if season.name is not None and season.name.casefold() == wanted.casefold():
            return season
    if wanted.startswith("#") and wanted[1:].isascii() and wanted[1:].isdigit() and len(wanted) <= 10:
        for season in known:
            if season.number == int(wanted[1:]):
                return season
    raise SeasonRefused("unknown_season", season=wanted[:SEASON_NAME_MAX])


async def start_season(store: Store, guild_id: int, name: str, now: float) -> int:
    """Close the current season and open the next, named ``name``; its number. Refuses a name taken (any case)."""
    name = check_season_name(name)
    if any(s.name is not None and s.name.casefold() == name.casefold() for s in await seasons(store, guild_id)):
        raise SeasonRefused("season_name_taken", name=name)
    opened: list[int] = []

    def step(cursor: Cursor) -> None:
        current = current_season(cursor, guild_id)
        if current == 0:  # the first season gets its row now, from the server's first result
            cursor.execute(
                "INSERT INTO seasons (guild_id, number, name, started_at) VALUES (?, 0, NULL,"
                " COALESCE((SELECT MIN(finished_at) FROM results WHERE guild_id = ?), ?)) ON CONFLICT DO NOTHING",
                (guild_id, guild_id, now),
            )
        cursor.execute("UPDATE seasons SET ended_at = ? WHERE guild_id = ? AND number = ?", (now, guild_id, current))
        cursor.execute(
            "INSERT INTO seasons (guild_id, number, name, started_at) VALUES (?,?,?,?)",
            (guild_id, current + 1, name, now),
        )
        opened.append(current + 1)

    try:
        await store.write([step])
    except IntegrityError:  # the same name, started at the same moment by someone else
        raise SeasonRefused("season_name_taken", name=name) from None
    return opened[-1]


# -- boards -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Entry:
    user_id: int
    standing: Standing

    @property
    def provisional(self) -> bool:
        return self.standing.games < PROVISIONAL_GAMES


_SHOWN = "r.user_id > 0 AND NOT EXISTS (SELECT 1 FROM users u WHERE u.user_id = r.user_id AND u.opted_out = 1)"
_ORDER = f"r.games < {PROVISIONAL_GAMES}, r.ordinal DESC, r.games DESC, r.user_id"
_GLOBAL = (
    "SELECT gs.guild_id, COALESCE((SELECT MAX(number) FROM seasons s WHERE s.guild_id = gs.guild_id), 0) AS season"
    " FROM guild_settings gs WHERE gs.key = 'global' AND gs.value = 'true'"
)


def _entry(row: Row) -> Entry:
    return Entry(row["user_id"], _standing([row[c] for c in _COLUMNS.split(", ")]))


async def board(
    store: Store, guild_id: int, season: int, game: str, limit: int, offset: int = 0
) -> tuple[list[Entry], int]:
    """One page of a server's board (members not opted out; established first, then provisional), and its size."""
    where = f"r.guild_id = ? AND r.season = ? AND r.game = ? AND {_SHOWN}"
    rows = await store.fetch_all(
        f"SELECT r.user_id, {_COLUMNS} FROM ratings r WHERE {where} ORDER BY {_ORDER} LIMIT ? OFFSET ?",
        (guild_id, season, game, limit, offset),
    )
    total = await store.fetch_one(f"SELECT COUNT(*) FROM ratings r WHERE {where}", (guild_id, season, game))
    return [_entry(r) for r in rows], int(total[0]) if total else 0


async def global_board(store: Store, game: str, limit: int, offset: int = 0) -> tuple[list[Entry], int]:
    """The board across the servers that opted in (``/settings global on``), each in its current season: each
    member once, at their best server's rating (an established one before a provisional one)."""
    best = (
        f"WITH shown AS ({_GLOBAL}), best AS (SELECT r.*, ROW_NUMBER() OVER (PARTITION BY r.user_id"
        f" ORDER BY r.games >= {PROVISIONAL_GAMES} DESC, r.ordinal DESC) AS n FROM ratings r"
        f" JOIN shown ON shown.guild_id = r.guild_id AND shown.season = r.season WHERE r.game = ? AND {_SHOWN})"
    )
    rows = await store.fetch_all(
        f"{best} SELECT r.user_id, {_COLUMNS} FROM best r WHERE n = 1 ORDER BY {_ORDER} LIMIT ? OFFSET ?",
        (game, limit, offset),
    )
    total = await store.fetch_one(f"{best} SELECT COUNT(*) FROM best WHERE n = 1", (game,))
    return [_entry(r) for r in rows], int(total[0]) if total else 0


async def computer_levels(store: Store, guild_id: int, season: int, game: str) -> dict[str, Standing]:
    """The computer levels' ratings on a board: level -> standing (only levels that have played)."""
    rows = await store.fetch_all(
        f"SELECT r.user_id, {_COLUMNS} FROM ratings r WHERE r.guild_id = ? AND r.season = ? AND r.game = ?"
        f" AND r.user_id IN ({','.join(str(p) for p in LEVELS)}) ORDER BY r.user_id DESC",
        (guild_id, season, game),
    )
    return {LEVELS[r["user_id"]]: _entry(r).standing for r in rows}


# -- one member -------------------------------------------------------------------------------


async def standing(store: Store, guild_id: int, season: int, game: str, user_id: int) -> Standing | None:
    row = await store.fetch_one(
        f"SELECT {_COLUMNS} FROM ratings WHERE guild_id = ? AND season = ? AND game = ? AND user_id = ?",
        (guild_id, season, game, user_id),
    )
    return _standing(list(row)) if row else None


async def rank(store: Store, guild_id: int, season: int, game: str, user_id: int) -> int | None:
    """The member's place among the board's established members (None: provisional, opted out, or unrated)."""
    row = await store.fetch_one(
        f"SELECT 1 + (SELECT COUNT(*) FROM ratings r WHERE r.guild_id = me.guild_id AND r.season = me.season"
        f" AND r.game = me.game AND r.games >= {PROVISIONAL_GAMES} AND {_SHOWN} AND (r.ordinal > me.ordinal"
        f" OR (r.ordinal = me.ordinal AND (r.games > me.games OR (r.games = me.games AND r.user_id < me.user_id)))))"
        f" FROM ratings me WHERE me.guild_id = ? AND me.season = ? AND me.game = ? AND me.user_id = ?"
        f" AND me.games >= {PROVISIONAL_GAMES} AND NOT EXISTS (SELECT 1 FROM users u WHERE u.user_id = me.user_id"
        f" AND u.opted_out = 1)",
        (guild_id, season, game, user_id),
    )
    return int(row[0]) if row else None


async def favourite_game(store: Store, guild_id: int, season: int, user_id: int) -> str | None:
    """The game the member played most this season (ties: the one played most recently)."""
    row = await store.fetch_one(
        "SELECT game FROM ratings WHERE guild_id = ? AND season = ? AND user_id = ? AND game <> ?"
        " ORDER BY games DESC, updated_at DESC LIMIT 1",
        (guild_id, season, user_id, ALL),
    )
    return row[0] if row else None


async def history(store: Store, guild_id: int, season: int, game: str, user_id: int) -> list[tuple[Any, ...]]:
    """(mu, sigma, ordinal, result, at) after each of the member's rated games on a board, oldest first; the result
    is the member's in that game (``win``, ``loss``, ``neutral``; None where no results row is left), ``at`` when it
    was rated."""
    rows = await store.fetch_all(
        "SELECT h.mu, h.sigma, h.ordinal, r.result, h.at FROM rating_history h"
        " LEFT JOIN results r ON r.game_id = h.game_id AND r.user_id = h.user_id"
        " WHERE h.guild_id = ? AND h.user_id = ? AND h.game = ? AND h.season = ? ORDER BY h.at, h.game_id",
        (guild_id, user_id, game, season),
    )
    return [(r[0], r[1], r[2], r[3], r[4]) for r in rows]
