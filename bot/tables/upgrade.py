"""The one-off upgrade of the rows older code wrote to today's data format, so that restore reads one format.

``TableService.start`` runs it before it restores; it runs once per database (``data_upgrades``, migration 0010,
records it done) and converts every open game in one transaction. Each change is conditional on the row as it was
read, and each conversion finds nothing to do on a row already in today's format, so processes starting together
on one database cannot undo each other, and running it again changes nothing.

What older code wrote, and what it becomes (each as the restore of that code read it):

* a running game's meta without ``acted`` (written before the action log): the double-click guard at the
  snapshot, each seat's last own move (not a timeout or forfeit) among the game's last ``SEEN`` actions;
* a running game's meta without ``seen``: the interaction ids among those actions, up to the snapshot;
* a fair game's meta without ``draws``: the draws its actions made up to the snapshot;
* a lobby opened before fair dice: its commitment, made now (when the service deals fair dice);
* a running game whose last action has no ``due`` (a log from before 0004, when the deadlines row alone held the
  turn's deadline): that row's deadline, on the action.
"""

from __future__ import annotations

from typing import Any

from bot.games.fair import count_draws
from bot.games.logged import FORFEIT, TIMEOUT
from bot.jsontext import dumps, loads
from bot.store import Store
from bot.store.sql import Statement
from bot.tables.dice import TableDice
from bot.tables.model import SEEN, interaction_key

NAME = "one-format"  # this upgrade's row in data_upgrades
META_ORDER = ("timeouts", "locale", "log", "acted", "seen", "draws", "chosen")  # as ``Table.meta`` writes them

_DONE = "SELECT 1 FROM data_upgrades WHERE name = ?"
_RECORD = "INSERT INTO data_upgrades (name, done_at) VALUES (?, ?) ON CONFLICT (name) DO NOTHING"
_RUNNING = "SELECT id, version, seats, meta, fair FROM games WHERE status = 'running'"
_LOGGED = "SELECT seq, seat, action, interaction_id, dice FROM actions WHERE game_id = ? AND seq <= ? ORDER BY seq"
_RECENT = (  # the game's last ``SEEN`` actions, up to the snapshot
    "SELECT seq, seat, action, interaction_id, dice FROM actions WHERE game_id = ? AND seq <= ?"
    " AND seq > (SELECT MAX(m.seq) FROM actions m WHERE m.game_id = ?) - ? ORDER BY seq"
)
_META = "UPDATE games SET meta = ? WHERE id = ? AND meta = ?"
_LOBBIES = "SELECT id FROM games WHERE status = 'lobby' AND fair IS NULL"
_FAIR = "UPDATE games SET fair = ? WHERE id = ? AND fair IS NULL"
_UNDATED = (
    "SELECT a.game_id, a.seq, d.due FROM games g"
    " JOIN actions a ON a.game_id = g.id AND a.seq = (SELECT MAX(m.seq) FROM actions m WHERE m.game_id = g.id)"
    " JOIN deadlines d ON d.game_id = g.id"
    " WHERE g.status = 'running' AND a.due IS NULL"
)
_DUE = "UPDATE actions SET due = ? WHERE game_id = ? AND seq = ? AND due IS NULL"


async def upgrade(store: Store, dice: TableDice, now: float) -> bool:
    """Convert the older rows, unless done before; True if it ran now."""
    if await store.fetch_one(_DONE, (NAME,)) is not None:
        return False
    statements = await _metas(store)
    statements += await _lobbies(store, dice)
    statements += [(_DUE, (due, game_id, seq)) for game_id, seq, due in await store.fetch_all(_UNDATED)]
    await store.write([*statements, (_RECORD, (NAME, now))])
    return True


async def _metas(store: Store) -> list[Statement]:
    statements: list[Statement] = []
    for game_id, version, seats, text, fair in await store.fetch_all(_RUNNING):
        meta = loads(text)
        missing = ({"acted", "seen", "draws"} if fair else {"acted", "seen"}) - meta.keys()
        if not missing:
            continue
        recent = await store.fetch_all(_RECENT, (game_id, version, game_id, SEEN))
        added: dict[str, Any] = {}
        if "acted" in missing:
            added["acted"] = _guard(recent, [seat["id"] for seat in loads(seats)])
        if "seen" in missing and (seen := [interaction_key(row[3]) for row in recent if row[3]]):
            added["seen"] = seen
        if "draws" in missing:
            logged = await store.fetch_all(_LOGGED, (game_id, version))
            added["draws"] = sum(count_draws(loads(row[4])) for row in logged if row[4])
        if added:
            statements.append((_META, (_ordered({**meta, **added}), game_id, text)))
    return statements


def _guard(rows: list[Any], seat_ids: list[int]) -> list[list[int]]:
    """[[user id, seq], ...] of each seat's last own move among ``rows``, in seat order (``Table.acted``)."""
    last: dict[int, int] = {}
    for seq, seat, action, _, _ in rows:
        if seat is not None and 0 <= seat < len(seat_ids) and action != TIMEOUT and not action.startswith(FORFEIT):
            last[seat] = seq
    return [[seat_ids[seat], seq] for seat, seq in sorted(last.items())]


def _ordered(meta: dict[str, Any]) -> str:
    """The meta as JSON text with its keys in ``Table.meta``'s order (start-up splits the log off by it)."""
    known = {key: meta[key] for key in META_ORDER if key in meta}
    return dumps({**known, **{key: value for key, value in meta.items() if key not in known}})


async def _lobbies(store: Store, dice: TableDice) -> list[Statement]:
    statements: list[Statement] = []
    for (game_id,) in await store.fetch_all(_LOBBIES):
        _, fair = dice.new()
        if fair is None:  # the service's dice are not fair: the lobby plays on with them, as it did
            break
        statements.append((_FAIR, (TableDice.fair_json(fair), game_id)))
    return statements
