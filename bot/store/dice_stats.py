"""Dice statistics (issue 27): every finished game's recorded dice, counted per face, per seat, with each game's
luck figure; a server's or a member's totals; the χ² goodness-of-fit test of the counts against fair dice.

Each finished game is counted once into ``dice_tallies`` (migration 0013): one row per seat that rolled and one
row, seat -1, that every counted game has (the dice no one seat rolled, and the mark that the game was counted).
The counting reads the game's moves (its ``actions`` rows, or ``games.record`` once retention compacted it: the
same moves and dice) and replays them through the engine (``bot.games.logged.apply_logged`` with the recorded
dice), because only the engine knows whose dice a call drew: a Liar's Dice deal rolls every seat's hand in one
move, a Mia round starts with the bot rolling for the round's starter. Each game's ``LUCK`` names the event that
reports a roll and the seat it is for (the n-th such event of a move is the n-th roll it drew, checked), and what
counts as lucky. A move that does not replay (a record from before the action log) still has its dice counted, as
no seat's.

``/dicestats`` sums those rows (a few per game, on the index ``dice_tallies_board``): under a second for a server
with 100,000 games (benchmarks/dice_stats.py). Games finished since the last look are counted first (``catch_up``;
``count_step`` counts a game in the write that finishes it); a server's first look at a long history counts for
``budget`` seconds, answers with what is counted, and the caller goes on counting in the background. A member is
matched to a seat through the game's seats (no member's id is kept in ``dice_tallies``: ``/privacy delete``
anonymises the seats, and with them this).

The p-value is the regularised upper incomplete gamma function of mpmath (Q(k/2, χ²/2) is the χ² distribution's
survival function); docs/FAIRNESS.md ("Dice statistics") says why mpmath and not SciPy, with the figures.
"""

from __future__ import annotations

import asyncio
import math
import time
import weakref
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.games import Event, get_engine
from bot.games.dice import ReplayDice
from bot.games.logged import apply_logged
from bot.games.mythical_dice import FACES, FLAG
from bot.jsontext import dumps, loads
from bot.store.db import Store
from bot.store.ratings import Season
from bot.store.sql import SQL, Cursor, Step, each

SIDES = 6  # every game rolls six-sided dice; a call of another die is not counted
NO_SEAT = -1  # the row of a game's dice that were no one seat's (and the mark that the game was counted)
BATCH = 100  # games counted per read and write
MIN_EXPECTED = 5.0  # the χ² test is shown only when every face expects at least this many (the usual rule)

Calls = Sequence[Sequence[Any]]  # one move's dice calls as stored (``bot.games.dice.DiceCall``)


# -- the luck figure of each game ------------------------------------------------------------------------------


def _player(event: Event) -> int | None:
    return event.data.get("player")


def _one_two(faces: Sequence[int]) -> bool:
    return sorted(faces) == [1, 2]


def _pair_chance(n: int) -> float | None:
    """A hand of ``n`` fair dice shows two or more of one face: 1 - 6·5·…·(7-n) / 6^n (None: certain or never)."""
    if not 2 <= n <= SIDES:
        return None
    return 1 - math.perm(SIDES, n) / SIDES**n


def _flag_chance(event: Event, faces: Sequence[int]) -> float | None:
    kind = event.data.get("type")
    sides = FACES.get(kind) if isinstance(kind, str) else None
    if sides is None:
        return None
    chance = sides.count(FLAG) / len(sides)
    return chance if 0 < chance < 1 else None  # a die with no flag (or only flags) says nothing about luck


def _flag(event: Event, faces: Sequence[int]) -> bool:
    return FACES[event.data["type"]][faces[0] - 1] == FLAG


@dataclass(frozen=True)
class Luck:
    """A game's luck figure: what a roll shows that helps (or hurts) its player, and how often fair dice show it.

    ``reports``: event kind -> the seat whose roll it reports (the n-th reporting event of a move is the move's
    n-th roll). ``chance``: fair dice's probability that this roll shows the figure (None: the roll is not one
    that can). ``hit``: whether it did. ``fewer_is_luckier``: the figure is a bad thing (a bust, a flag)."""

    reports: Mapping[str, Callable[[Event], int | None]]
    chance: Callable[[Event, Sequence[int]], float | None]
    hit: Callable[[Event, Sequence[int]], bool]
    fewer_is_luckier: bool = False


LUCK: dict[str, Luck] = {
    # Pig: a roll with a 1 busts the turn (P-2); with n dice fair dice bust 1 - (5/6)^n of the rolls.
    "pig": Luck(
        {"roll": _player},
        lambda _e, faces: 1 - ((SIDES - 1) / SIDES) ** len(faces),
        lambda _e, faces: 1 in faces,
        fewer_is_luckier=True,
    ),
    # Mex: a two-dice throw showing 2-1 (Mex, the best); 2 of 36. A throw beside a held die is one die: not counted.
    "mex": Luck(
        {"throw": _player},
        lambda _e, faces: 2 / SIDES**2 if len(faces) == 2 else None,
        lambda _e, faces: _one_two(faces),
    ),
    # Mia: a roll showing 2-1 (Mia, the best); 2 of 36. The bot's roll for a round's starter is the starter's.
    "mia": Luck(
        {"roll": _player, "round_start": lambda e: e.data.get("starter")},
        lambda _e, faces: 2 / SIDES**2 if len(faces) == 2 else None,
        lambda _e, faces: _one_two(faces),
    ),
    # Liar's Dice: a hand dealt with two or more dice of one face (something to bid on); 1 - 6!/(6-n)!/6^n.
    "liar": Luck(
        {"dice": lambda e: e.to},
        lambda _e, faces: _pair_chance(len(faces)),
        lambda _e, faces: len(set(faces)) < len(faces),
    ),
    # Mythical Dice: a played die showing a flag (it counts 0, MD-R2); the die's flags of its six faces.
    "mythic": Luck({"played": _player}, _flag_chance, _flag, fewer_is_luckier=True),
}


# -- counting one game -------------------------------------------------------------------------------------------


@dataclass
class Tally:
    """One seat's dice in one game (or many games summed): the count of each face, and the luck figure's rolls
    that could show it (``trials``), how many did (``hits``) and how many fair dice would on average."""

    faces: list[int] = field(default_factory=lambda: [0] * SIDES)
    trials: int = 0
    hits: int = 0
    expected: float = 0.0

    @property
    def dice(self) -> int:
        return sum(self.faces)


def tally_game(
    game: str, players: int, options: Mapping[str, Any], moves: Iterable[tuple[Any, ...]]
) -> dict[int, Tally]:
    """Seat -> the dice it rolled in a game, from its logged moves ``(seat, action, dice calls or None)`` in order;
    ``NO_SEAT`` holds the dice no one seat rolled (always present). Pure: the engine replays the recorded dice."""
    tallies: dict[int, Tally] = {NO_SEAT: Tally()}
    luck = LUCK.get(game)
    engine: Any = None
    if luck is not None:
        try:
            engine = get_engine(game)
        except KeyError:
            engine = None
    state: Any = None
    replaying = engine is not None
    for seat, action, calls in moves:
        rolls = [c for c in calls or () if c and c[0] == "r"]
        reports: list[tuple[Event, int | None]] | None = None
        if replaying and luck is not None:
            try:
                dice = ReplayDice(calls or ())
                state, events = apply_logged(engine, state, seat, action, dice, players, options)
                if not dice.exhausted:
                    raise ValueError("recorded dice the move did not use")
                found = [(e, seat_of(e)) for e in events if (seat_of := luck.reports.get(e.kind)) is not None]
                reports = found if len(found) == len(rolls) else None
            except Exception:  # a record that stops replaying: its dice still count, as no seat's
                replaying = False
        for index, call in enumerate(rolls):
            faces = call[2] if len(call) > 2 else ()
            if call[1] != SIDES or not all(type(f) is int and 1 <= f <= SIDES for f in faces):
                continue
            event, who = reports[index] if reports is not None else (None, None)
            owner = who if isinstance(who, int) and 0 <= who < players else NO_SEAT
            tally = tallies.get(owner)
            if tally is None:
                tally = tallies[owner] = Tally()
            for face in faces:
                tally.faces[face - 1] += 1
            if owner != NO_SEAT and event is not None and luck is not None and faces:
                chance = luck.chance(event, faces)
                if chance is not None:
                    tally.trials += 1
                    tally.expected += chance
                    tally.hits += bool(luck.hit(event, faces))
    return tallies


# -- keeping the tallies -------------------------------------------------------------------------------------------

_INSERT = (
    "INSERT INTO dice_tallies (game_id, seat, guild_id, game, finished_at, n1, n2, n3, n4, n5, n6, trials, hits,"
    " expected) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?) ON CONFLICT (game_id, seat) DO NOTHING"
)
# A server's finished games not counted yet, on the index of its finished games (games_history: the games rows, with
# their states and logs, are never read for it); SQLite's planner would otherwise take games_status, every server's.
_NOT_COUNTED = (
    " WHERE g.guild_id = ? AND g.status = 'finished'"
    " AND NOT EXISTS (SELECT 1 FROM dice_tallies d WHERE d.game_id = g.id AND d.seat = -1)"
)
_UNCOUNTED = SQL(
    sqlite=f"SELECT g.id FROM games g INDEXED BY games_history{_NOT_COUNTED}",
    postgresql=f"SELECT g.id FROM games g{_NOT_COUNTED}",
)
_BATCH = each("{0} ORDER BY g.updated_at, g.id LIMIT ?", _UNCOUNTED)  # the oldest first, in the index's order
_IDS = SQL(
    sqlite="(SELECT value FROM json_each(?))",
    postgresql="(SELECT value::bigint FROM jsonb_array_elements_text(?::jsonb))",
)
_GAMES = SQL(
    sqlite="SELECT g.id, g.game, g.seats, g.options, g.record,"
    " COALESCE((SELECT MAX(r.finished_at) FROM results r WHERE r.game_id = g.id), g.updated_at) AS finished_at"
    f" FROM games g WHERE g.status = 'finished' AND g.id IN {_IDS.sqlite}",
    postgresql="SELECT g.id, g.game, g.seats, g.options, g.record,"
    " COALESCE((SELECT MAX(r.finished_at) FROM results r WHERE r.game_id = g.id), g.updated_at) AS finished_at"
    f" FROM games g WHERE g.status = 'finished' AND g.id IN {_IDS.postgresql}",
)
_MOVES = SQL(
    sqlite=f"SELECT game_id, seat, action, dice FROM actions WHERE game_id IN {_IDS.sqlite} ORDER BY game_id, seq",
    postgresql=f"SELECT game_id, seat, action, dice FROM actions WHERE game_id IN {_IDS.postgresql}"
    " ORDER BY game_id, seq",
)


@dataclass(frozen=True)
class _Game:
    id: int
    guild_id: int
    game: str
    players: int
    options: dict[str, Any]
    finished_at: float
    moves: list[tuple[Any, ...]]  # (seat, action, dice calls or None)


def tally_rows(games: Iterable[_Game]) -> list[tuple[Any, ...]]:
    """The ``dice_tallies`` rows of ``games`` (blocking: a replay per game, ~1-4 ms; run it in a thread)."""
    rows = []
    for g in games:
        for seat, tally in sorted(tally_game(g.game, g.players, g.options, g.moves).items()):
            if seat != NO_SEAT and not tally.dice:
                continue
            rows.append(
                (g.id, seat, g.guild_id, g.game, g.finished_at, *tally.faces, tally.trials, tally.hits, tally.expected)
            )
    return rows


def insert_step(rows: Sequence[tuple[Any, ...]]) -> Step:
    def step(cursor: Cursor) -> None:
        if rows:
            cursor.executemany(_INSERT, rows)

    return step


def count_step(game_id: int) -> Step:
    """The step that counts one game as it finishes, for the write that finishes it (after its last move's row, in
    the same transaction: ``bot.tables.results.result_statements`` would add it beside the ratings' step). Then no
    look ever has that game to count; ``catch_up`` does the same for the games finished before (or without) it."""

    def step(cursor: Cursor) -> None:
        found = cursor.execute(_GAMES, (dumps([game_id]),)).fetchall()
        if not found:
            return  # not finished (a cancel): nothing to count
        game_id_, kind, seats, options, record, finished_at = found[0]
        if record is not None:
            moves = [(m[1], m[2], m[3]) for m in loads(record) or ()]
        else:
            logged = cursor.execute(_MOVES, (dumps([game_id]),)).fetchall()
            moves = [(seat, action, loads(dice) if dice else None) for _, seat, action, dice in logged]
        guild = cursor.execute("SELECT guild_id FROM games WHERE id = ?", (game_id,)).fetchone()[0]
        players, chosen = len(loads(seats) or []), loads(options) or {}
        rows = tally_rows([_Game(game_id_, guild, kind, players, chosen, float(finished_at), moves)])
        cursor.executemany(_INSERT, rows)

    return step


async def _read(store: Store, guild_id: int, ids: Sequence[int]) -> list[_Game]:
    """The finished games ``ids`` with their moves, from ``actions`` or, once compacted, ``games.record``."""
    text = dumps(sorted(ids))
    rows = await store.fetch_all(_GAMES, (text,))
    logged: dict[int, list[tuple[Any, ...]]] = {}
    if any(r["record"] is None for r in rows):
        for game_id, seat, action, dice in await store.fetch_all(_MOVES, (text,)):
            logged.setdefault(game_id, []).append((seat, action, loads(dice) if dice else None))
    games = []
    for r in rows:
        if r["record"] is not None:  # compacted: [[seq, seat, action, dice, ...], ...]
            moves = [(m[1], m[2], m[3]) for m in loads(r["record"]) or ()]
        else:
            moves = logged.get(r["id"], [])
        seats = loads(r["seats"]) or []
        options = loads(r["options"]) or {}
        games.append(_Game(r["id"], guild_id, r["game"], len(seats), options, float(r["finished_at"]), moves))
    return games


_locks: weakref.WeakKeyDictionary[Store, dict[int, asyncio.Lock]] = weakref.WeakKeyDictionary()


def _lock(store: Store, guild_id: int) -> asyncio.Lock:
    by_guild = _locks.setdefault(store, {})
    if guild_id not in by_guild:
        by_guild[guild_id] = asyncio.Lock()
    return by_guild[guild_id]


async def uncounted(store: Store, guild_id: int) -> int:
    """How many of the server's finished games are not counted yet."""
    row = await store.fetch_one(each("SELECT COUNT(*) FROM ({0}) u", _UNCOUNTED), (guild_id,))
    return int(row[0]) if row else 0


async def catch_up(
    store: Store,
    guild_id: int,
    budget: float | None = None,
    clock: Callable[[], float] = time.monotonic,
    batch: int = BATCH,
) -> int:
    """Count the server's finished games not counted yet, ``batch`` at a time (replays in a worker thread, the
    event loop free), for at most about ``budget`` seconds (None: all of them). Returns how many are left."""
    deadline = None if budget is None else clock() + budget
    while True:
        # One batch under the server's lock: two counts at once (a look, the background) take turns, each game once.
        async with _lock(store, guild_id):
            found = await store.fetch_all(_BATCH, (guild_id, batch))
            if not found:
                return 0
            games = await _read(store, guild_id, [r[0] for r in found])
            rows = await asyncio.to_thread(tally_rows, games)
            await store.write([insert_step(rows)])
        if len(found) < batch:
            return 0
        if deadline is not None and clock() >= deadline:
            return await uncounted(store, guild_id)


# -- reading the totals ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class GameDice:
    """The dice of one game kind summed over the games asked for."""

    game: str
    games: int
    tally: Tally


@dataclass(frozen=True)
class DiceStats:
    by_game: list[GameDice]  # game kinds in id order, only those with dice
    uncounted: int = 0  # finished games of the server not counted yet (the answer leaves them out)

    @property
    def games(self) -> int:
        return sum(g.games for g in self.by_game)

    @property
    def faces(self) -> list[int]:
        return [sum(g.tally.faces[i] for g in self.by_game) for i in range(SIDES)]

    @property
    def dice(self) -> int:
        return sum(self.faces)


_SUMS = "SUM(d.n1), SUM(d.n2), SUM(d.n3), SUM(d.n4), SUM(d.n5), SUM(d.n6), SUM(d.trials), SUM(d.hits), SUM(d.expected)"
_SEAT_IS = SQL(  # the member (a parameter) sat at seat d.seat of game g
    sqlite="json_extract(g.seats, '$[' || d.seat || '].id') = ?",
    postgresql="(g.seats::jsonb -> d.seat -> 'id') = to_jsonb(?::bigint)",
)


def season_bounds(season: Season | None) -> tuple[float | None, float | None]:
    """The finish times a season holds, [start, end): the first season from the beginning, the current one on."""
    if season is None:
        return None, None
    return (season.started_at if season.number > 0 else None), season.ended_at


async def totals(
    store: Store,
    guild_id: int,
    game: str | None = None,
    member_id: int | None = None,
    season: Season | None = None,
) -> DiceStats:
    """The counted dice of the server's finished games (of ``game``, of ``season``), or of ``member_id``'s seats
    in them. Counts what is counted: ``catch_up`` first for the games finished since."""
    where: list[str] = ["d.guild_id = ?"]
    params: list[Any] = [guild_id]
    if game is not None:
        where.append("d.game = ?")
        params.append(game)
    start, end = season_bounds(season)
    if start is not None:
        where.append("d.finished_at >= ?")
        params.append(start)
    if end is not None:
        where.append("d.finished_at < ?")
        params.append(end)
    if member_id is None:
        games = "SUM(CASE WHEN d.seat = -1 THEN 1 ELSE 0 END)"
        sql: str | SQL = (
            f"SELECT d.game, {games}, {_SUMS} FROM dice_tallies d WHERE {' AND '.join(where)}"
            " GROUP BY d.game ORDER BY d.game"
        )
    else:
        # Only the games the member has a result in (results' primary key), then their seat among the game's seats.
        mine = "d.seat >= 0 AND d.game_id IN (SELECT r.game_id FROM results r WHERE r.guild_id = ? AND r.user_id = ?)"
        head = f"SELECT d.game, COUNT(*), {_SUMS} FROM dice_tallies d JOIN games g ON g.id = d.game_id WHERE "
        tail = f" AND {mine} AND {{seat}} GROUP BY d.game ORDER BY d.game"
        sql = SQL(
            sqlite=head + " AND ".join(where) + tail.format(seat=_SEAT_IS.sqlite),
            postgresql=head + " AND ".join(where) + tail.format(seat=_SEAT_IS.postgresql),
        )
        params += [guild_id, member_id, member_id]
    rows = await store.fetch_all(sql, params)
    by_game = []
    for row in rows:
        tally = Tally([int(v or 0) for v in row[2:8]], int(row[8] or 0), int(row[9] or 0), float(row[10] or 0))
        if tally.dice:
            by_game.append(GameDice(row[0], int(row[1] or 0), tally))
    return DiceStats(by_game)


# -- the test ---------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ChiSquare:
    statistic: float
    dof: int
    p: float


def chi_square(observed: Sequence[int], expected: Sequence[float] | None = None) -> ChiSquare | None:
    """Pearson's χ² goodness of fit of ``observed`` against ``expected`` (default: every face alike) and its
    p-value, the probability that fair dice land at least this far off: Q(dof/2, χ²/2) by mpmath. None when a
    face expects fewer than ``MIN_EXPECTED`` (the χ² approximation does not hold there)."""
    total = sum(observed)
    if expected is None:
        expected = [total / len(observed)] * len(observed)
    if len(observed) < 2 or min(expected) < MIN_EXPECTED:
        return None
    statistic = sum((o - e) ** 2 / e for o, e in zip(observed, expected, strict=True))
    dof = len(observed) - 1
    from mpmath import gammainc, inf  # type: ignore[import-untyped]  # ~0.1 s to import: only once a test is asked

    p = float(gammainc(dof / 2, statistic / 2, inf, regularized=True))
    return ChiSquare(statistic, dof, min(max(p, 0.0), 1.0))
