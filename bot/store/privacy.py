"""A member's data: the leaderboard opt-out, a copy of it all (``/privacy export``), and deleting it (``/privacy
delete``).

What names a member (every table of the schema, tests/service/test_privacy_export.py keeps the list true):
``users`` (their settings), ``results``, ``ratings`` and ``rating_history`` (by ``user_id``), and ``games``: the
seats JSON (id and name), ``host_id``, and the meta's public log (an event naming them by id, or by name only: a
lobby they left). No other table holds a member's id or name (``actions`` and ``games.record`` name seats by
number, ``fair`` holds the seats' ``seed:`` texts, not who typed them). Tournaments (``bot.store.tournaments``) name
them as host, entrant (id and name) and by id in rounds' byes and tables' players and outcomes: an entry still in
sign-up is removed, the rest anonymised with the same anonymous id as their results (standings still recompute).

Deleting removes what is only theirs (ratings, rating history, the ``users`` row: language, DM state, opt-out) and
anonymises what they share with other players: in every game they sat at, their Discord id becomes an anonymous
id and their name a catalog word, in ``results``, the games' seats, host, state and meta (log, double-click guard);
in a closed game whose log names them by one of their names only (a lobby they left), that name becomes the word
too, unless someone still seated there has the same name; an open table's log (a lobby they left, a rematch
inviting them) is changed in its row by SQL ``replace`` and in memory by the caller (``before_write``). On SQLite
the write-ahead log is then checkpointed and truncated, and ``secure_delete`` (bot.store.sqlite) has zeroed the old
rows' bytes: nothing is left in the file's free space, its free pages or its log.
Achievements (``bot.store.achievements``) are theirs only, by ``user_id``: exported, and removed by a deletion.
The others' results, places and ratings stay as they are, and the game still replays and verifies: ``actions`` and
``games.record`` name seats by number, never by id, and the client seed holds the seats' entropy, not their ids.

An anonymous id is below ``ANONYMOUS_BELOW`` (Discord ids are positive, computer players' -1 to -10), one per
deleted member, allocated in the ``users`` table itself: a row with ``opted_out = 1`` (so the anonymous results stay
off every leaderboard) and nothing else. Everything is one transaction, written without touching ``updated_at``
(/history orders by it, retention reads it).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from bot.jsontext import dumps, loads
from bot.store import tournaments as store_t
from bot.store.db import Store
from bot.store.errors import IntegrityError
from bot.store.repo import Row, player_stats
from bot.store.sql import SQL, Statement, each
from bot.store.sqlite import SQLiteStore

log = logging.getLogger(__name__)

ANONYMOUS_BELOW = -1_000_000
OPEN = ("lobby", "running")
ATTEMPTS = 3  # a concurrent deletion may take the same anonymous id first: then read again and retry

_SEATED = SQL(  # the member (one parameter) has a seat at game g
    sqlite="EXISTS (SELECT 1 FROM json_each(g.seats) s WHERE json_extract(s.value, '$.id') = ?)",
    postgresql="g.seats::jsonb @> jsonb_build_array(jsonb_build_object('id', ?::bigint))",
)
_OPEN_TABLES = each("SELECT g.id FROM games g WHERE g.status IN {open} AND {0}", _SEATED, open=OPEN)
# The guard: a seat taken at an open table since the check fails the whole transaction (the status CHECK refuses
# the value), so nothing is half done.
_GUARD = each(
    "UPDATE games SET status = 'seated' WHERE status IN {open} AND id IN (SELECT g.id FROM games g"
    " WHERE g.status IN {open} AND {0})",
    _SEATED,
    open=OPEN,
)
# Every game that names the member: seated, host, in the results, or their id elsewhere in a closed game's meta (an
# event naming them by id at a table they left before it started). An open table's meta is also in memory, and
# its next snapshot would write it back.
_GAME_ROW = "g.id, g.host_id, g.seats, g.state, g.meta"  # what an anonymisation reads of a game


def _their_games(columns: str) -> SQL:
    return SQL(
        sqlite=f"SELECT {columns} FROM games g WHERE {_SEATED.sqlite} OR g.host_id = ?"
        " OR g.id IN (SELECT game_id FROM results WHERE user_id = ?)"
        f" OR (g.status NOT IN {OPEN} AND instr(g.meta, ?) > 0)",
        postgresql=f"SELECT {columns} FROM games g WHERE {_SEATED.postgresql}"
        " OR g.host_id = ? OR g.id IN (SELECT game_id FROM results WHERE user_id = ?)"
        f" OR (g.status NOT IN {OPEN} AND strpos(g.meta, ?) > 0)",
    )


_THEIR_GAMES = _their_games(_GAME_ROW)
# A closed game whose meta holds a text (one parameter): a name, as its JSON encoding writes it.
_META_HOLDS = SQL(sqlite="instr(g.meta, ?) > 0", postgresql="strpos(g.meta, ?) > 0")
_NAMED_GAMES = "SELECT {columns} FROM games g WHERE g.status NOT IN {open} AND ({0})"
_OPEN_NAMING = "SELECT g.id, g.seats, g.meta FROM games g WHERE g.status IN {open} AND ({0})"
# The id an open table's log gives a deleted member (a rematch's invitation): no member's, and above every
# anonymous id a deletion allocates (those are below it), so never one of them.
OPEN_ANONYMOUS = ANONYMOUS_BELOW


class StillSeated(Exception):
    """The member sits at an open table (lobby or running): they leave it first."""

    def __init__(self, game_ids: list[int]) -> None:
        super().__init__(game_ids)
        self.game_ids = game_ids


@dataclass(frozen=True)
class Deleted:
    """What ``delete_member`` did: the anonymous id (None when nothing of theirs was shared with others)."""

    anonymous_id: int | None
    games: int  # games anonymised
    results: int  # results rows anonymised
    ratings: int  # rating rows removed (current ratings and rating history)


def set_opted_out(user_id: int, opted_out: bool) -> Statement:
    """``/privacy optout`` / ``optin``: kept off every leaderboard (still rated)."""
    return (
        "INSERT INTO users (user_id, opted_out) VALUES (?,?)"
        " ON CONFLICT (user_id) DO UPDATE SET opted_out = excluded.opted_out",
        (user_id, int(opted_out)),
    )


async def opted_out(store: Store, user_id: int) -> bool:
    row = await store.fetch_one("SELECT opted_out FROM users WHERE user_id = ?", (user_id,))
    return bool(row and row[0])


async def open_tables(store: Store, user_id: int) -> list[int]:
    """The open games (lobby or running) where ``user_id`` has a seat."""
    rows = await store.fetch_all(_OPEN_TABLES, (user_id,))
    return [r[0] for r in rows]


async def delete_member(
    store: Store,
    user_id: int,
    deleted_name: Callable[[str, int | None], str],
    names: Iterable[str] = (),
    before_write: Callable[[set[str]], None] | None = None,
) -> Deleted:
    """Delete ``user_id``'s data in one transaction (see the module's notes). ``deleted_name(locale, seat)`` is
    the word that replaces their name in a game whose table spoke ``locale`` (``seat``, from 1, when the plain
    word is taken at that table). ``names``: their names now (Discord's user name, display name, server nickname),
    besides the ones their seats hold. ``before_write(every name of theirs)`` runs just before the write is queued,
    with nothing awaited between: the open tables' logs in memory are anonymised there (``scrub_log``), so a
    snapshot of one queued after the deletion cannot write the name back. Raises StillSeated while they sit at an
    open table."""
    if user_id <= 0:
        raise ValueError("only a Discord member's data can be deleted")
    for attempt in range(ATTEMPTS):
        seated = await open_tables(store, user_id)
        if seated:
            raise StillSeated(seated)
        statements, done, known = await _plan(store, user_id, deleted_name, names)
        try:
            if before_write is not None:
                before_write(known)
            await store.write(statements)
            if isinstance(store, SQLiteStore) and not await store.checkpoint():  # the log's old pages go with it
                log.warning("the write-ahead log could not be emptied after a deletion: another process reads it")
            return done
        except IntegrityError:
            # The guard (a seat taken since) or the anonymous id (another deletion took it): see which.
            if await open_tables(store, user_id):
                raise StillSeated(await open_tables(store, user_id)) from None
            if attempt == ATTEMPTS - 1:
                raise
    raise AssertionError("unreachable")


def _encoded(name: str) -> list[str]:
    """``name`` as a JSON text holds it (without the quotes): as ``bot.jsontext`` writes it, and ASCII-escaped as
    older code wrote it."""
    return list(dict.fromkeys([dumps(name)[1:-1], json.dumps(name)[1:-1]]))


async def _named_games(store: Store, names: set[str], skip: set[int], columns: str = _GAME_ROW) -> list[Row]:
    """The closed games (besides ``skip``) whose log names one of ``names`` that no seat there has."""
    texts = [text for name in sorted(names) for text in _encoded(name)]
    if not texts:
        return []
    found = SQL(
        sqlite=_NAMED_GAMES.format(" OR ".join([_META_HOLDS.sqlite] * len(texts)), open=OPEN, columns=columns),
        postgresql=_NAMED_GAMES.format(" OR ".join([_META_HOLDS.postgresql] * len(texts)), open=OPEN, columns=columns),
    )
    named = []
    for game in await store.fetch_all(found, texts):
        seated = {seat.get("name") for seat in loads(game["seats"])}
        if game["id"] not in skip and (_names_in(loads(game["meta"])) & names) - seated:
            named.append(game)
    return named


def _names_in(value: Any) -> set[str]:
    """Every ``name`` field's text in ``value`` (decoded JSON)."""
    if isinstance(value, list):
        return set().union(*map(_names_in, value)) if value else set()
    if isinstance(value, dict):
        found = {v for k, v in value.items() if k == "name" and isinstance(v, str)}
        return found.union(*map(_names_in, value.values()))
    return set()


async def _plan(
    store: Store, user_id: int, deleted_name: Callable[[str, int | None], str], names: Iterable[str] = ()
) -> tuple[list[Statement], Deleted, set[str]]:
    games = list(await store.fetch_all(_THEIR_GAMES, (user_id, user_id, user_id, str(user_id))))
    known = {name for name in names if name} | {
        seat["name"] for game in games for seat in loads(game["seats"]) if seat.get("id") == user_id
    }
    games += await _named_games(store, known, {g["id"] for g in games})
    counts = await store.fetch_one(
        "SELECT (SELECT COUNT(*) FROM results WHERE user_id = ?1),"
        " (SELECT COUNT(*) FROM ratings WHERE user_id = ?1) + (SELECT COUNT(*) FROM rating_history WHERE user_id = ?1)",
        (user_id,),
    )
    results, ratings = (counts[0], counts[1]) if counts else (0, 0)
    statements: list[Statement] = [
        (_GUARD, (user_id,)),  # first: see _GUARD
        ("DELETE FROM ratings WHERE user_id = ?", (user_id,)),
        ("DELETE FROM rating_history WHERE user_id = ?", (user_id,)),
        ("DELETE FROM achievements WHERE user_id = ?", (user_id,)),  # theirs only (bot.store.achievements)
        ("DELETE FROM users WHERE user_id = ?", (user_id,)),
    ]
    anonymous: int | None = None
    if games or results or await store_t.names_member(store, user_id):
        row = await store.fetch_one("SELECT MIN(user_id) FROM users")
        lowest = row[0] if row and row[0] is not None else 0
        anonymous = min(lowest, ANONYMOUS_BELOW) - 1
        statements.append(("INSERT INTO users (user_id, opted_out) VALUES (?, 1)", (anonymous,)))
        statements.append(("UPDATE results SET user_id = ? WHERE user_id = ?", (anonymous, user_id)))
        for game in games:
            statements.append(_anonymise_game(game, user_id, anonymous, deleted_name, known))
    statements += await store_t.delete_member(store, user_id, anonymous, lambda locale: deleted_name(locale, None))
    still_open = await _open_tables_naming(store, user_id, known, deleted_name)
    statements += still_open
    return statements, Deleted(anonymous, len(games) + len(still_open), results, ratings), known


async def _open_tables_naming(
    store: Store, user_id: int, known: set[str], deleted_name: Callable[[str, int | None], str]
) -> list[Statement]:
    """The open tables (they sit at none) whose log names them: a lobby they left, a rematch inviting them. Their
    meta is also in memory and rewritten by the next snapshot, so it is not read and written back here (that could
    undo a snapshot committed in between): SQL's replace() swaps the events' exact JSON text in the transaction."""
    texts = [text for name in sorted(known) for text in _encoded(name)] + [f"<@{user_id}>"]
    found = SQL(
        sqlite=_OPEN_NAMING.format(" OR ".join([_META_HOLDS.sqlite] * len(texts)), open=OPEN),
        postgresql=_OPEN_NAMING.format(" OR ".join([_META_HOLDS.postgresql] * len(texts)), open=OPEN),
    )
    statements: list[Statement] = []
    for game in await store.fetch_all(found, texts):
        meta = loads(game["meta"]) if game["meta"] else {}
        word = dumps(deleted_name(meta.get("locale", "en") if isinstance(meta, dict) else "en", None))
        seated = {seat.get("name") for seat in loads(game["seats"])}
        pairs = [(f'{{"name":"{text}"}}', f'{{"name":{word}}}') for n in sorted(known - seated) for text in _encoded(n)]
        pairs.append((f'{{"id":{user_id},"name":"<@{user_id}>"}}', f'{{"id":{OPEN_ANONYMOUS},"name":{word}}}'))
        pairs = [(old, new) for old, new in pairs if old in game["meta"]]
        if not pairs:
            continue
        sql, params = "meta", []
        for old, new in pairs:
            sql = f"replace({sql}, ?, ?)"
            params += [old, new]
        statements.append((f"UPDATE games SET meta = {sql} WHERE id = ?", (*params, game["id"])))
    return statements


def scrub_log(entries: Iterable[Any], user_id: int, names: set[str], word: str) -> list[tuple[str, Any]]:
    """An open table's log (``(kind, data)`` entries) with the member anonymised as ``_open_tables_naming`` does in
    its row: an event's ``name`` that is one of ``names`` becomes ``word``; their id ``OPEN_ANONYMOUS``."""
    replaced = dict.fromkeys(names, word)
    return [(kind, _replace(data, user_id, OPEN_ANONYMOUS, replaced, word)) for kind, data in entries]


def _anonymise_game(
    game: Row, user_id: int, anonymous: int, deleted_name: Callable[[str, int | None], str], known: set[str]
) -> Statement:
    """The games row with the member replaced: seats, host, state and meta (its log's names and ids). ``known``:
    every name of theirs, replaced in the log too unless another seat at this table has it."""
    meta = loads(game["meta"]) if game["meta"] else {}
    locale = meta.get("locale", "en") if isinstance(meta, dict) else "en"
    seats = loads(game["seats"])
    names: dict[str, str] = {}  # their name at this table -> the word that replaces it
    taken = {s.get("name") for s in seats if s.get("id") != user_id}
    for number, seat in enumerate(seats, 1):
        if seat.get("id") == user_id:
            word = deleted_name(locale, None)
            if word in taken:
                word = deleted_name(locale, number)
            names[seat["name"]] = word
            seat["id"], seat["name"] = anonymous, word
            taken.add(word)
    word = deleted_name(locale, None)
    names.update((name, word) for name in known - taken if name not in names)
    meta = _replace(meta, user_id, anonymous, names, word)
    state = game["state"]
    if state is not None and str(user_id) in state:  # engines name seats by number: this is only a safeguard
        state = dumps(_replace(loads(state), user_id, anonymous, names, word))
    host = anonymous if game["host_id"] == user_id else game["host_id"]
    # updated_at stays: /history orders finished games by it, and retention compacts by it.
    return (
        "UPDATE games SET seats = ?, host_id = ?, state = ?, meta = ? WHERE id = ?",
        (dumps(seats), host, state, dumps(meta), game["id"]),
    )


def _replace(value: Any, user_id: int, anonymous: int, names: dict[str, str], word: str) -> Any:
    """``value`` (decoded JSON) with the member's id replaced wherever it stands as a number, and their name
    wherever it is a ``name`` field: one of their names at the table (``names``: the lobby's events left, removed,
    new host), or the ``name`` beside their id in the same object (``word`` then: a table they did not sit at)."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return anonymous if value == user_id else value
    if isinstance(value, list):
        return [_replace(v, user_id, anonymous, names, word) for v in value]
    if isinstance(value, dict):
        theirs = any(item == user_id and not isinstance(item, bool) for item in value.values())
        out = {}
        for key, item in value.items():
            if key == "name" and isinstance(item, str) and (item in names or theirs):
                out[key] = names.get(item, word)
            else:
                out[key] = _replace(item, user_id, anonymous, names, word)
        return out
    return value


# -- /privacy export ----------------------------------------------------------------------------

EXPORT_FORMAT = "dicetavern-member-data/1"
# The tables keyed by a member's id, each copied whole (every column: one added later is in the copy too), in
# this order.
MEMBER_TABLES = {
    "users": "",
    "results": " ORDER BY finished_at, game_id",
    "ratings": " ORDER BY guild_id, season, game",
    "rating_history": " ORDER BY at, game_id, game",
    "achievements": " ORDER BY guild_id, at, achievement",
    "tournament_entrants": " ORDER BY tournament_id",
}
EXACT = 2**53  # integers past this are written as text: a JavaScript reader would round a Discord id
_EXPORT_GAME = "g.id, g.guild_id, g.game, g.status, g.host_id, g.seats, g.meta, g.created_at, g.updated_at"


def _plain(value: Any) -> Any:
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > EXACT:
        return str(value)
    return value


def _row(row: Row, drop: str = "user_id") -> dict[str, Any]:
    return {key: _plain(row[key]) for key in row.keys() if key != drop}  # noqa: SIM118 - asyncpg's Record too


async def export_member(
    store: Store, user_id: int, names: Iterable[str] = (), at: float | None = None
) -> dict[str, Any]:
    """Everything the database holds about ``user_id``: each row of ``MEMBER_TABLES`` that is theirs, their results'
    summary per server and game (what /stats shows), the seasons their ratings are in, and the games that name them
    (id, game, server, when, their seats' names, host or not; a game they only appear in by name in its log: a lobby
    they left). ``names``: their names now, as for ``delete_member``; ``at``: when (Unix seconds), said in it. Plain
    data, for ``export_bytes``."""
    tables = {
        table: [_row(r) for r in await store.fetch_all(f"SELECT * FROM {table} WHERE user_id = ?{order}", (user_id,))]
        for table, order in MEMBER_TABLES.items()
    }
    theirs = list(await store.fetch_all(_their_games(_EXPORT_GAME), (user_id, user_id, user_id, str(user_id))))
    known = {name for name in names if name} | {
        seat["name"] for game in theirs for seat in loads(game["seats"]) if seat.get("id") == user_id
    }
    named = await _named_games(store, known, {g["id"] for g in theirs}, _EXPORT_GAME)
    games = [_exported_game(g, user_id, known) for g in sorted([*theirs, *named], key=lambda g: g["id"])]
    stats: dict[str, dict[str, Any]] = {}
    for guild in sorted({r["guild_id"] for r in tables["results"]}, key=str):
        board = await player_stats(store, int(guild), user_id)
        stats[str(guild)] = {game: _summary(row) for game, row in board.items()}
    seasons = []
    for guild, number in sorted({(r["guild_id"], r["season"]) for r in tables["ratings"]}, key=str):
        season = await store.fetch_one("SELECT * FROM seasons WHERE guild_id = ? AND number = ?", (int(guild), number))
        seasons.append(_row(season, "") if season is not None else {"guild_id": guild, "number": number})
    users = tables.pop("users")
    return {
        "format": EXPORT_FORMAT,
        "user_id": str(user_id),
        **({"exported_at": at} if at is not None else {}),
        "settings": users[0] if users else None,
        **tables,
        "stats": stats,
        "seasons": seasons,
        "games": games,
        "tournaments": await store_t.export_member(store, user_id),
    }


def _summary(row: Any) -> dict[str, Any]:
    return {
        "games": row.games,
        "wins": row.wins,
        "losses": row.losses,
        "neutral": row.neutral,
        "best_score": row.best_score,
        "total_score": row.total_score,
    }


def _exported_game(game: Row, user_id: int, known: set[str]) -> dict[str, Any]:
    seats = loads(game["seats"])
    mine = [{"seat": n, "name": s.get("name")} for n, s in enumerate(seats, 1) if s.get("id") == user_id]
    others = {s.get("name") for s in seats if s.get("id") != user_id}
    logged = sorted((_names_in(loads(game["meta"]) if game["meta"] else {}) & known) - others)
    return {
        "id": game["id"],
        "guild_id": _plain(game["guild_id"]),
        "game": game["game"],
        "status": game["status"],
        "created_at": game["created_at"],
        "updated_at": game["updated_at"],
        "host": game["host_id"] == user_id,
        "seats": mine,
        "named_in_log": logged,
    }


def export_bytes(data: dict[str, Any]) -> bytes:
    """The export as the JSON file a member gets (UTF-8, indented to be read)."""
    return json.dumps(data, ensure_ascii=False, indent=1).encode()
