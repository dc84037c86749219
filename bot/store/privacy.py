"""A member's data: the leaderboard opt-out, and deleting them (``/privacy delete``).

Deleting removes what is only theirs (ratings, rating history, the ``users`` row: language, DM state, opt-out) and
anonymises what they share with other players: in every game they sat at, their Discord id becomes an anonymous
id and their name a catalog word, in ``results``, the games' seats, host, state and meta (log, double-click guard).
The others' results, places and ratings stay as they are, and the game still replays and verifies: ``actions`` and
``games.record`` name seats by number, never by id, and the client seed holds the seats' entropy, not their ids.

An anonymous id is below ``ANONYMOUS_BELOW`` (Discord ids are positive, computer players' -1 to -10), one per
deleted member, allocated in the ``users`` table itself: a row with ``opted_out = 1`` (so the anonymous results stay
off every leaderboard) and nothing else. Everything is one transaction, written without touching ``updated_at``
(/history orders by it, retention reads it).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bot.jsontext import dumps, loads
from bot.store.db import Store
from bot.store.errors import IntegrityError
from bot.store.repo import Row
from bot.store.sql import SQL, Statement, each

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
_THEIR_GAMES = SQL(
    sqlite=f"SELECT g.id, g.host_id, g.seats, g.state, g.meta FROM games g WHERE {_SEATED.sqlite} OR g.host_id = ?"
    f" OR g.id IN (SELECT game_id FROM results WHERE user_id = ?) OR (g.status NOT IN {OPEN} AND instr(g.meta, ?) > 0)",
    postgresql=f"SELECT g.id, g.host_id, g.seats, g.state, g.meta FROM games g WHERE {_SEATED.postgresql}"
    " OR g.host_id = ? OR g.id IN (SELECT game_id FROM results WHERE user_id = ?)"
    f" OR (g.status NOT IN {OPEN} AND strpos(g.meta, ?) > 0)",
)


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


async def delete_member(store: Store, user_id: int, deleted_name: Callable[[str, int | None], str]) -> Deleted:
    """Delete ``user_id``'s data in one transaction (see the module's notes). ``deleted_name(locale, seat)`` is
    the word that replaces their name in a game whose table spoke ``locale`` (``seat``, from 1, when the plain
    word is taken at that table). Raises StillSeated while they sit at an open table."""
    if user_id <= 0:
        raise ValueError("only a Discord member's data can be deleted")
    for attempt in range(ATTEMPTS):
        seated = await open_tables(store, user_id)
        if seated:
            raise StillSeated(seated)
        statements, done = await _plan(store, user_id, deleted_name)
        try:
            await store.write(statements)
            return done
        except IntegrityError:
            # The guard (a seat taken since) or the anonymous id (another deletion took it): see which.
            if await open_tables(store, user_id):
                raise StillSeated(await open_tables(store, user_id)) from None
            if attempt == ATTEMPTS - 1:
                raise
    raise AssertionError("unreachable")


async def _plan(
    store: Store, user_id: int, deleted_name: Callable[[str, int | None], str]
) -> tuple[list[Statement], Deleted]:
    games = await store.fetch_all(_THEIR_GAMES, (user_id, user_id, user_id, str(user_id)))
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
        ("DELETE FROM users WHERE user_id = ?", (user_id,)),
    ]
    anonymous: int | None = None
    if games or results:
        row = await store.fetch_one("SELECT MIN(user_id) FROM users")
        lowest = row[0] if row and row[0] is not None else 0
        anonymous = min(lowest, ANONYMOUS_BELOW) - 1
        statements.append(("INSERT INTO users (user_id, opted_out) VALUES (?, 1)", (anonymous,)))
        statements.append(("UPDATE results SET user_id = ? WHERE user_id = ?", (anonymous, user_id)))
        for game in games:
            statements.append(_anonymise_game(game, user_id, anonymous, deleted_name))
    return statements, Deleted(anonymous, len(games), results, ratings)


def _anonymise_game(
    game: Row, user_id: int, anonymous: int, deleted_name: Callable[[str, int | None], str]
) -> Statement:
    """The games row with the member replaced: seats, host, state and meta (its log's names and ids)."""
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
