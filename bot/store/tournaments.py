"""Tournaments in the store (issue 28, migration 0014): the tournament row, its entrants, rounds and tables.

Every step of a tournament is written here before Discord hears of it: the pairings of a round (all its tables, with
no game id yet) in one write, each table's game id as the table opens. A table's outcome is read from its game's
results (``results`` rows by game id), so a table that finished while the bot was down counts on the next start.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.games.logged import TIMEOUT as TIMEOUT_ACTION
from bot.jsontext import dumps, loads
from bot.store.db import Store
from bot.store.sql import SQL, Statement

FORFEIT_TIMEOUTS = "forfeit:timeouts"

_INSERT = (
    "INSERT INTO tournaments (guild_id, channel_id, host_id, game, plan, status, locale, created_at, updated_at)"
    " VALUES (?,?,?,?,?,'signup',?,?,?)"
)
_INSERT_SQL = SQL(sqlite=_INSERT, postgresql=f"{_INSERT} RETURNING id")
_COLUMNS = "id, guild_id, channel_id, host_id, game, plan, status, paused, message_id, locale"


@dataclass
class EntrantRow:
    user_id: int
    name: str
    rating: float
    joined: float
    withdrawn: bool = False


@dataclass
class TableRow:
    round: int
    number: int
    players: tuple[int, ...]
    game_id: int | None = None
    channel_id: int | None = None
    outcome: dict[str, Any] | None = None  # set by the tournament (a no-contest), else read from the results


@dataclass
class TournamentRow:
    id: int
    guild_id: int
    channel_id: int
    host_id: int
    game: str
    plan: dict[str, Any]
    status: str
    paused: bool
    message_id: int | None
    locale: str
    entrants: list[EntrantRow] = field(default_factory=list)
    byes: dict[int, tuple[int, ...]] = field(default_factory=dict)  # round -> its byes
    announced: set[int] = field(default_factory=set)  # rounds whose announcement went out
    tables: list[TableRow] = field(default_factory=list)


def _row(row: Sequence[Any]) -> TournamentRow:
    return TournamentRow(
        int(row[0]),
        int(row[1]),
        int(row[2]),
        int(row[3]),
        str(row[4]),
        loads(row[5]),
        str(row[6]),
        bool(row[7]),
        None if row[8] is None else int(row[8]),
        str(row[9]),
    )


async def create(
    store: Store, guild_id: int, channel_id: int, host_id: int, game: str, plan: dict[str, Any], locale: str, now: float
) -> int:
    """A new tournament in sign-up; its id. The one-open-per-channel index refuses a second (IntegrityError)."""
    (tid,) = await store.write([(_INSERT_SQL, (guild_id, channel_id, host_id, game, dumps(plan), locale, now, now))])
    assert tid is not None
    return int(tid)


async def _fill(store: Store, t: TournamentRow) -> TournamentRow:
    rows = await store.fetch_all(
        "SELECT user_id, name, rating, joined, withdrawn FROM tournament_entrants WHERE tournament_id = ?"
        " ORDER BY joined, user_id",
        (t.id,),
    )
    t.entrants = [EntrantRow(int(r[0]), str(r[1]), float(r[2]), float(r[3]), bool(r[4])) for r in rows]
    for r in await store.fetch_all(
        "SELECT round, byes, announced FROM tournament_rounds WHERE tournament_id = ? ORDER BY round", (t.id,)
    ):
        t.byes[int(r[0])] = tuple(int(p) for p in loads(r[1]))
        if r[2]:
            t.announced.add(int(r[0]))
    t.tables = [
        TableRow(
            int(r[0]),
            int(r[1]),
            tuple(int(p) for p in loads(r[2])),
            None if r[3] is None else int(r[3]),
            None if r[4] is None else int(r[4]),
            None if r[5] is None else loads(r[5]),
        )
        for r in await store.fetch_all(
            "SELECT round, number, players, game_id, channel_id, outcome FROM tournament_tables"
            " WHERE tournament_id = ? ORDER BY round, number",
            (t.id,),
        )
    ]
    return t


async def load(store: Store, tournament_id: int) -> TournamentRow | None:
    row = await store.fetch_one(f"SELECT {_COLUMNS} FROM tournaments WHERE id = ?", (tournament_id,))
    return None if row is None else await _fill(store, _row(row))


async def open_ids(store: Store, owned: str | None = None) -> list[int]:
    """The tournaments in sign-up or running (``owned``: an SQL condition on guild_id, this process's shards)."""
    where = "status IN ('signup', 'running')" + ("" if owned is None else f" AND {owned}")
    return [int(r[0]) for r in await store.fetch_all(f"SELECT id FROM tournaments WHERE {where} ORDER BY id")]


def update(tournament_id: int, now: float, **fields: Any) -> Statement:
    names = sorted(fields)
    sets = ", ".join(f"{name} = ?" for name in names)
    return (
        f"UPDATE tournaments SET {sets}, updated_at = ? WHERE id = ?",
        (*(int(fields[n]) if isinstance(fields[n], bool) else fields[n] for n in names), now, tournament_id),
    )


def add_entrant(tournament_id: int, entrant: EntrantRow) -> Statement:
    return (
        "INSERT INTO tournament_entrants (tournament_id, user_id, name, rating, joined, withdrawn)"
        " VALUES (?,?,?,?,?,0)",
        (tournament_id, entrant.user_id, entrant.name, entrant.rating, entrant.joined),
    )


def delete_entrant(tournament_id: int, user_id: int) -> Statement:
    return ("DELETE FROM tournament_entrants WHERE tournament_id = ? AND user_id = ?", (tournament_id, user_id))


def set_rating(tournament_id: int, user_id: int, rating: float) -> Statement:
    return (
        "UPDATE tournament_entrants SET rating = ? WHERE tournament_id = ? AND user_id = ?",
        (rating, tournament_id, user_id),
    )


def withdraw(tournament_id: int, user_id: int) -> Statement:
    return (
        "UPDATE tournament_entrants SET withdrawn = 1 WHERE tournament_id = ? AND user_id = ?",
        (tournament_id, user_id),
    )


def add_round(tournament_id: int, number: int, byes: Sequence[int], tables: Sequence[TableRow]) -> list[Statement]:
    """A round's pairings, all in one write: its row and every table (no game id yet). Guarded: the write fails
    (IntegrityError, nothing written) unless each player is still an entrant not withdrawn, so a /privacy deletion
    committed since the pairing was made (it renames and withdraws the member) never gets their id back."""
    players = sorted({*byes, *(p for t in tables for p in t.players)})
    marks = ",".join("?" * len(players))
    out: list[Statement] = []
    if players:
        out.append(
            (  # the status CHECK refuses 'stale': the whole write rolls back
                "UPDATE tournaments SET status = 'stale' WHERE id = ? AND (SELECT COUNT(*) FROM tournament_entrants"
                f" WHERE tournament_id = ? AND withdrawn = 0 AND user_id IN ({marks})) <> ?",
                (tournament_id, tournament_id, *players, len(players)),
            )
        )
    out.append(
        (
            "INSERT INTO tournament_rounds (tournament_id, round, byes) VALUES (?,?,?)",
            (tournament_id, number, dumps(list(byes))),
        )
    )
    for t in tables:
        out.append(
            (
                "INSERT INTO tournament_tables (tournament_id, round, number, players, outcome) VALUES (?,?,?,?,?)",
                (
                    tournament_id,
                    number,
                    t.number,
                    dumps(list(t.players)),
                    None if t.outcome is None else dumps(t.outcome),
                ),
            )
        )
    return out


def mark_announced(tournament_id: int, number: int) -> Statement:
    return (
        "UPDATE tournament_rounds SET announced = 1 WHERE tournament_id = ? AND round = ?",
        (tournament_id, number),
    )


def set_table(tournament_id: int, number_round: int, number: int, **fields: Any) -> Statement:
    names = sorted(fields)
    sets = ", ".join(f"{name} = ?" for name in names)
    values = [dumps(fields[n]) if n == "outcome" else fields[n] for n in names]
    return (
        f"UPDATE tournament_tables SET {sets} WHERE tournament_id = ? AND round = ? AND number = ?",
        (*values, tournament_id, number_round, number),
    )


async def game_status(store: Store, game_id: int) -> str | None:
    row = await store.fetch_one("SELECT status FROM games WHERE id = ?", (game_id,))
    return None if row is None else str(row[0])


async def game_results(store: Store, game_id: int) -> dict[int, int]:
    """A finished game's places by user id ({} while it has none)."""
    rows = await store.fetch_all("SELECT user_id, place FROM results WHERE game_id = ?", (game_id,))
    return {int(r[0]): int(r[1]) for r in rows}


async def never_acted(store: Store, game_id: int, seats: Sequence[int]) -> set[int]:
    """The seats (numbers) whose every logged action was a timeout and who forfeited by timeouts: no-shows."""
    rows = await store.fetch_all("SELECT seat, action FROM actions WHERE game_id = ? AND seat IS NOT NULL", (game_id,))
    acted: set[int] = set()
    forfeited: set[int] = set()
    for seat, action in rows:
        text = str(action)
        if text == FORFEIT_TIMEOUTS:
            forfeited.add(int(seat))
        elif not text.startswith(TIMEOUT_ACTION):
            acted.add(int(seat))
    return {s for s in seats if s in forfeited and s not in acted}


async def game_of_table(store: Store, game_id: int) -> tuple[int, int, int] | None:
    """(tournament id, round, table number) of the tournament table that became ``game_id``."""
    row = await store.fetch_one(
        "SELECT tournament_id, round, number FROM tournament_tables WHERE game_id = ?", (game_id,)
    )
    return None if row is None else (int(row[0]), int(row[1]), int(row[2]))


# -- a member's data (/privacy export and delete, bot.store.privacy) --------------------------------------------
# A member is in ``tournaments.host_id``, their ``tournament_entrants`` row (id and name), and by id in the JSON of
# ``tournament_rounds.byes`` and ``tournament_tables.players`` / ``outcome``.
NAMING_TABLES = ("tournaments", "tournament_entrants", "tournament_rounds", "tournament_tables")
_THEIRS = (
    "SELECT id, guild_id, game, status, host_id, locale, created_at FROM tournaments WHERE host_id = ?"
    " OR id IN (SELECT tournament_id FROM tournament_entrants WHERE user_id = ?) ORDER BY id"
)


def _swap(value: Any, user_id: int, anonymous: int) -> Any:
    """Decoded JSON with the member's id replaced wherever it stands as a number."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return anonymous if value == user_id else value
    if isinstance(value, list):
        return [_swap(v, user_id, anonymous) for v in value]
    if isinstance(value, dict):
        return {k: _swap(v, user_id, anonymous) for k, v in value.items()}
    return value


async def names_member(store: Store, user_id: int) -> bool:
    """Whether a deletion must anonymise something here (a tournament they host, or one past sign-up they
    entered); an entry still in sign-up is only removed."""
    row = await store.fetch_one(
        "SELECT 1 FROM tournaments t WHERE t.host_id = ? OR (t.status <> 'signup' AND t.id IN"
        " (SELECT tournament_id FROM tournament_entrants WHERE user_id = ?))",
        (user_id, user_id),
    )
    return row is not None


async def delete_member(
    store: Store, user_id: int, anonymous: int | None, deleted_name: Callable[[str], str]
) -> list[Statement]:
    """The statements deleting ``user_id`` from the tournaments (``anonymous``: their anonymous id, needed when
    ``names_member``): an entry in sign-up is removed; past sign-up the entrant, their byes, tables and outcomes
    are anonymised like their results (so standings still recompute from the stored results), and in a running
    tournament they are withdrawn (never paired again); a tournament they host gets the anonymous host.
    ``deleted_name(locale)``: the word that replaces their name."""
    statements: list[Statement] = [
        (
            "DELETE FROM tournament_entrants WHERE user_id = ?"
            " AND tournament_id IN (SELECT id FROM tournaments WHERE status = 'signup')",
            (user_id,),
        )
    ]
    if anonymous is None:
        return statements
    for t in await store.fetch_all(_THEIRS, (user_id, user_id)):
        tid = int(t["id"])
        if t["host_id"] == user_id:
            statements.append(("UPDATE tournaments SET host_id = ? WHERE id = ?", (anonymous, tid)))
        if t["status"] == "signup":
            continue
        statements.append(
            (
                "UPDATE tournament_entrants SET user_id = ?, name = ?, withdrawn = ? WHERE tournament_id = ?"
                " AND user_id = ?",
                (anonymous, deleted_name(str(t["locale"])), 1, tid, user_id)
                if t["status"] == "running"
                else (anonymous, deleted_name(str(t["locale"])), 0, tid, user_id),
            )
        )
        for r in await store.fetch_all("SELECT round, byes FROM tournament_rounds WHERE tournament_id = ?", (tid,)):
            byes = loads(r["byes"])
            if user_id in byes:
                statements.append(
                    (
                        "UPDATE tournament_rounds SET byes = ? WHERE tournament_id = ? AND round = ?",
                        (dumps(_swap(byes, user_id, anonymous)), tid, r["round"]),
                    )
                )
        for x in await store.fetch_all(
            "SELECT round, number, players, outcome FROM tournament_tables WHERE tournament_id = ?", (tid,)
        ):
            players = loads(x["players"])
            if user_id not in players:
                continue
            outcome = None if x["outcome"] is None else dumps(_swap(loads(x["outcome"]), user_id, anonymous))
            statements.append(
                (
                    "UPDATE tournament_tables SET players = ?, outcome = ? WHERE tournament_id = ? AND round = ?"
                    " AND number = ?",
                    (dumps(_swap(players, user_id, anonymous)), outcome, tid, x["round"], x["number"]),
                )
            )
    return statements


async def export_member(store: Store, user_id: int) -> list[dict[str, Any]]:
    """The tournaments naming ``user_id`` (their entrant rows are copied whole by the export): each one's id,
    server, game, status, whether they host it, the rounds they had a bye in and the tables they sat at (round,
    number, game id: its result is in the export's results; ``no_contest`` when the host cancelled it)."""
    out = []
    for t in await store.fetch_all(_THEIRS, (user_id, user_id)):
        tid = int(t["id"])
        byes = [
            int(r["round"])
            for r in await store.fetch_all(
                "SELECT round, byes FROM tournament_rounds WHERE tournament_id = ? ORDER BY round", (tid,)
            )
            if user_id in loads(r["byes"])
        ]
        tables = [
            {"round": int(x["round"]), "number": int(x["number"]), "game_id": x["game_id"]}
            | ({"no_contest": True} if x["outcome"] is not None else {})
            for x in await store.fetch_all(
                "SELECT round, number, players, game_id, outcome FROM tournament_tables WHERE tournament_id = ?"
                " ORDER BY round, number",
                (tid,),
            )
            if user_id in loads(x["players"])
        ]
        out.append(
            {
                "id": tid,
                "guild_id": str(t["guild_id"]),
                "game": t["game"],
                "status": t["status"],
                "created_at": t["created_at"],
                "host": t["host_id"] == user_id,
                "byes": byes,
                "tables": tables,
            }
        )
    return out
