"""Achievements in the store (issue 28, migration 0015): evaluating finished games, the backfill, and the reads of
``/achievements``, ``/stats`` and the end-of-game message.

A finished game is evaluated by ``evaluate`` (a ``Step``, ``bot.store.sql``) in the same write as its results
(``bot.tables.results.result_statements``): it reads the game's row, its moves (``actions``, or ``games.record``
once compacted: the same moves and dice) and its results inside that transaction, replays the game
(``bot.achievements.earned``), reads each person's results on that server for the achievements across games
(``bot.achievements.first_reached``) and writes what they earned, each once per member and server (the first game
keeps it: ``ON CONFLICT DO NOTHING``), and the game as evaluated (``achievement_games``). ``backfill`` evaluates,
``BATCH`` per transaction and oldest first, every finished game not evaluated yet (games finished before migration
0015, or by a process without it): ``Backfill`` runs it once at start, in the background. Only people earn: a seat
with a computer level, a computer player's id (-1 to -10) or a deleted member's anonymous id (below -1,000,000)
never does.

A member who opted out (``users.opted_out``) keeps their own list, but is counted on neither side of a server's
rarity; ``/privacy delete`` removes their rows and ``/privacy export`` copies them (``bot.store.privacy``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from bot.achievements import ACHIEVEMENTS, GameRecord, LoggedMove, PlayerGame, Result, Seat, earned, first_reached
from bot.games import specs
from bot.jsontext import dumps, loads
from bot.store.db import Store
from bot.store.sql import SQL, Cursor, Step, each

log = logging.getLogger(__name__)

BATCH = 25  # games evaluated per transaction (a replay each, ~1-4 ms: the writer is never held long)

_ORDER = {a.id: n for n, a in enumerate(ACHIEVEMENTS)}
_IDS = SQL(
    sqlite="(SELECT value FROM json_each(?))",
    postgresql="(SELECT value::bigint FROM jsonb_array_elements_text(?::jsonb))",
)
_ONE = SQL(sqlite="(?)", postgresql="(?)")  # one game (the write that finishes it): no JSON array to expand
_GAMES_OF = "SELECT id, guild_id, game, options, seats, record FROM games WHERE status = 'finished' AND id IN {0}"
_MOVES_OF = "SELECT game_id, seat, action, dice FROM actions WHERE game_id IN {0} ORDER BY game_id, seq"
_RESULTS_OF = "SELECT game_id, user_id, place, result, score, finished_at FROM results WHERE game_id IN {0}"
_GAMES, _MOVES, _RESULTS = (each(sql, _IDS) for sql in (_GAMES_OF, _MOVES_OF, _RESULTS_OF))
_GAME, _GAME_MOVES, _GAME_RESULTS = (each(sql, _ONE) for sql in (_GAMES_OF, _MOVES_OF, _RESULTS_OF))
# Members' results on a server, read by (guild, game, member): the whole key of results_board, one game and one
# member at a time (without the game the index finds every result of the server). The games are the registered
# ones; the members are all those of one server that a write evaluates (one statement for them, not one each).
_HISTORY = (
    "SELECT user_id, game_id, game, result, place, finished_at FROM results"
    " WHERE guild_id = ? AND game IN ({games}) AND user_id IN ({members}) AND is_bot = 0"
    " ORDER BY user_id, finished_at, game_id"
)
_INSERT = (
    "INSERT INTO achievements (guild_id, user_id, achievement, game_id, at) VALUES (?,?,?,?,?)"
    " ON CONFLICT (guild_id, user_id, achievement) DO NOTHING"
)
_EVALUATED = "INSERT INTO achievement_games (game_id, at) VALUES (?,?) ON CONFLICT (game_id) DO NOTHING"
_PENDING = (
    "SELECT g.id FROM games g WHERE g.status = 'finished'"
    " AND NOT EXISTS (SELECT 1 FROM achievement_games e WHERE e.game_id = g.id){owned}"
    " ORDER BY g.updated_at, g.id LIMIT ?"
)
# The server's players for its rarity: people with a result there, not opted out.
_PLAYERS = (
    "SELECT DISTINCT r.user_id FROM results r WHERE r.guild_id = ? AND r.is_bot = 0 AND r.user_id > 0"
    " AND NOT EXISTS (SELECT 1 FROM users u WHERE u.user_id = r.user_id AND u.opted_out = 1)"
)


def is_person(seat: dict[str, Any]) -> bool:
    """A seat of a person who can earn: no computer level, a Discord id (computer players and deleted members have
    ids below 0)."""
    member = seat.get("id")
    return seat.get("level") is None and isinstance(member, int) and member > 0


def _record(row: Sequence[Any], moves: list[LoggedMove], results: dict[int, Sequence[Any]]) -> GameRecord | None:
    """The game as ``bot.achievements`` reads it; None when a seat has no results row (nothing can be said)."""
    game_id, _, game, options, seats_text, _ = row
    seats = loads(seats_text) or []
    found = []
    for seat in seats:
        result = results.get(seat.get("id"))
        if result is None:
            return None
        found.append(Result(int(result[2]), str(result[3]), int(result[4])))
    sitters = tuple(Seat(int(s["id"]), computer=not is_person(s)) for s in seats)
    return GameRecord(int(game_id), str(game), loads(options) or {}, sitters, tuple(moves), tuple(found))


def _evaluate(cursor: Cursor, game_ids: Sequence[int], now: float) -> None:
    unique = sorted(set(game_ids))
    if len(unique) == 1:
        ids: Any = unique[0]
        read_games, read_moves, read_results = _GAME, _GAME_MOVES, _GAME_RESULTS
    else:
        ids = dumps(unique)
        read_games, read_moves, read_results = _GAMES, _MOVES, _RESULTS
    games = cursor.execute(read_games, (ids,)).fetchall()
    if not games:
        return
    logged: dict[int, list[LoggedMove]] = {}
    if any(g[5] is None for g in games):
        for game_id, seat, action, dice in cursor.execute(read_moves, (ids,)).fetchall():
            logged.setdefault(int(game_id), []).append(LoggedMove(seat, action, loads(dice) if dice else None))
    results: dict[int, dict[int, Sequence[Any]]] = {}
    for r in cursor.execute(read_results, (ids,)).fetchall():
        results.setdefault(int(r[0]), {})[int(r[1])] = r
    rows: list[tuple[Any, ...]] = []
    people: set[tuple[int, int]] = set()  # (guild, member) whose history may have reached something
    for g in games:
        game_id, guild = int(g[0]), int(g[1])
        if g[5] is not None:  # compacted: [[seq, seat, action, dice, ...], ...]
            moves = [LoggedMove(m[1], m[2], m[3]) for m in loads(g[5]) or ()]
        else:
            moves = logged.get(game_id, [])
        mine = results.get(game_id, {})
        record = _record(g, moves, mine)
        if record is None:
            continue
        at = float(max(r[5] for r in mine.values()))
        for member, found in earned(record).items():
            rows += [(guild, member, achievement, game_id, at) for achievement in found]
        people |= {(guild, seat.member_id) for seat in record.seats if not seat.computer}
    games_known = sorted({spec.id for spec in specs()})
    games_marks = ", ".join("?" * len(games_known))
    members_of: dict[int, list[int]] = {}
    for guild, member in sorted(people):
        members_of.setdefault(guild, []).append(member)
    for guild, members in members_of.items():
        histories: dict[int, list[PlayerGame]] = {member: [] for member in members}
        history_sql = _HISTORY.format(games=games_marks, members=", ".join("?" * len(members)))
        for r in cursor.execute(history_sql, (guild, *games_known, *members)).fetchall():
            histories[int(r[0])].append(PlayerGame(int(r[1]), str(r[2]), str(r[3]), int(r[4]), float(r[5])))
        for member, history in histories.items():
            at_of = {game.game_id: game.finished_at for game in history}
            rows += [(guild, member, a, game_id, at_of[game_id]) for a, game_id in first_reached(history).items()]
    cursor.executemany(_INSERT, rows)
    cursor.executemany(_EVALUATED, [(int(g[0]), now) for g in games])


def evaluate(game_ids: Sequence[int], now: float) -> Step:
    """The step that evaluates finished games (the others among ``game_ids`` are left alone): for the write that
    finishes a game, after its results rows; or a batch of the backfill."""

    def step(cursor: Cursor) -> None:
        _evaluate(cursor, game_ids, now)

    return step


async def backfill(store: Store, now: float, batch: int = BATCH, owned: str | None = None) -> int:
    """Evaluate every finished game not evaluated yet, oldest first, ``batch`` per transaction; how many. ``owned``:
    an SQL condition on ``g.guild_id`` (``Shards.sql``): only this process's servers."""
    sql = _PENDING.format(owned=f" AND {owned}" if owned else "")
    done = 0
    while True:
        ids = [int(r[0]) for r in await store.fetch_all(sql, (batch,))]
        if ids:
            await store.write([evaluate(ids, now)])
            done += len(ids)
        if len(ids) < batch:
            return done
        await asyncio.sleep(0)  # moves go in between batches


class Backfill:
    """One pass of ``backfill`` in the background, beside the start-up rather than before it (the Discord bot starts
    it as its achievements load: ``cogs.achievements``). A game finishing meanwhile is evaluated in its own write,
    so one pass at start catches every other. ``owned``: this process's servers (SQL on ``g.guild_id``)."""

    def __init__(self, store: Store, clock: Callable[[], float], owned: str | None = None) -> None:
        self.store, self.clock, self.owned = store, clock, owned
        self._task: asyncio.Task[int] | None = None

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self.run(), name="achievements-backfill")

    async def run(self) -> int:
        """Evaluate every game still to evaluate; how many (0 after a failure, logged: the next start retries)."""
        try:
            done = await backfill(self.store, self.clock(), owned=self.owned)
        except Exception:
            log.exception("the achievements' backfill failed; the next start tries again")
            return 0
        if done:
            log.info("achievements: %d finished games evaluated", done)
        return done

    async def wait(self) -> int:
        """The started pass's count, once it is done (0 if none was started)."""
        return await self._task if self._task is not None else 0

    async def stop(self) -> None:
        if self._task is not None and not self._task.done():
            self._task.cancel()
            try:
                await self._task
            except asyncio.CancelledError:
                pass
        self._task = None


async def pending(store: Store, guild_id: int | None = None) -> int:
    """How many finished games (of one server, or of all) are not evaluated yet."""
    where = "" if guild_id is None else " AND g.guild_id = ?"
    row = await store.fetch_one(
        "SELECT COUNT(*) FROM games g WHERE g.status = 'finished'"
        f" AND NOT EXISTS (SELECT 1 FROM achievement_games e WHERE e.game_id = g.id){where}",
        () if guild_id is None else (guild_id,),
    )
    return int(row[0]) if row else 0


# -- reads ------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Earned:
    """One achievement a member holds on a server: the game that earned it (its id and kind) and when it finished."""

    achievement: str
    game_id: int
    game: str | None  # None: the game's row is gone
    at: float


async def earned_by(store: Store, guild_id: int, user_id: int) -> list[Earned]:
    """The member's achievements on the server, in ``ACHIEVEMENTS`` order (an id no longer known: left out)."""
    rows = await store.fetch_all(
        "SELECT a.achievement, a.game_id, g.game, a.at FROM achievements a LEFT JOIN games g ON g.id = a.game_id"
        " WHERE a.guild_id = ? AND a.user_id = ?",
        (guild_id, user_id),
    )
    found = [Earned(r[0], int(r[1]), r[2], float(r[3])) for r in rows if r[0] in _ORDER]
    return sorted(found, key=lambda e: _ORDER[e.achievement])


@dataclass(frozen=True)
class Rarity:
    """A server's players (people with a result there, not opted out) and how many of them hold each achievement."""

    players: int
    holders: dict[str, int]

    def percent(self, achievement: str) -> int:
        """The share of the server's players who hold it, in whole percent (1 at least when anyone does)."""
        held = self.holders.get(achievement, 0)
        if not held or not self.players:
            return 0
        return max(1, round(100 * held / self.players))


async def rarity(store: Store, guild_id: int) -> Rarity:
    """How rare each achievement is on the server; an opted-out member is counted on neither side."""
    players = await store.fetch_one(f"SELECT COUNT(*) FROM ({_PLAYERS}) p", (guild_id,))
    rows = await store.fetch_all(
        f"SELECT a.achievement, COUNT(*) FROM achievements a WHERE a.guild_id = ? AND a.user_id IN ({_PLAYERS})"
        " GROUP BY a.achievement",
        (guild_id, guild_id),
    )
    return Rarity(int(players[0]) if players else 0, {r[0]: int(r[1]) for r in rows})


async def of_game(store: Store, game_id: int) -> dict[int, list[str]]:
    """Member -> the achievements this game earned them (first earned with it), in ``ACHIEVEMENTS`` order."""
    rows = await store.fetch_all("SELECT user_id, achievement FROM achievements WHERE game_id = ?", (game_id,))
    found: dict[int, list[str]] = {}
    for user_id, achievement in rows:
        if achievement in _ORDER:
            found.setdefault(int(user_id), []).append(achievement)
    return {member: sorted(ids, key=_ORDER.__getitem__) for member, ids in found.items()}
