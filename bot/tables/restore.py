"""Restore: the open tables as the store has them, at start-up, and each running game brought up to date later.

Persistence is an append-only action log with snapshots (``bot.tables.service``). A running game comes back from
its snapshot (the games row: state, meta) plus the actions logged after it, replayed through the engine with the
recorded dice (``ReplayDice``: replay never draws) and the same bookkeeping ``act``, timeouts and forfeits do, so
state, log, timeout counters, double-click guard and fair stream come back exactly.

Start-up (``open_tables``) reads only what serving needs (ids, channel, status, version, deadline, seats; the log
stays text) and marks each running table ``pending``; ``load`` does the rest at the table's first use, when the
service hands it out. A table whose state does not load or whose log does not replay is closed then, in memory.

There is one data format, today's: older rows were converted once before (``bot.tables.upgrade``).
"""

from __future__ import annotations

import gc
import logging
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from bot.games.dice import ReplayDice
from bot.games.fair import FairDice, count_draws
from bot.games.logged import FORFEIT, TIMEOUT, apply_logged
from bot.jsontext import loads
from bot.store import Store, repo
from bot.tables.deadlines import forfeit_events
from bot.tables.dice import TableDice
from bot.tables.model import Pending, Seat, Table, interaction_key, split_meta

log = logging.getLogger(__name__)


@contextmanager
def gc_paused() -> Iterator[None]:
    """Restore builds many long-lived objects at once: collecting in between only finds nothing, many times."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


async def open_tables(store: Store, owned: str | None, dice: TableDice) -> list[tuple[Table, float | None]]:
    """Every open table of the guilds ``owned`` accepts (an SQL condition on ``g.guild_id``; None: all), each with
    when its current turn began (None: no move logged). Running tables are ``pending`` (see ``load``).

    A running game's deadline is the one its last action left; a table with no action logged (a lobby) has its
    deadlines row's."""
    rows = await repo.open_games(store, owned)
    tables = {row["id"]: table_from_row(row, dice) for row in rows}
    del rows  # the rows' JSON text is parsed: let it go before the next read
    tails = await repo.action_tails(store, owned)
    started: dict[int, float] = {}
    start = 0
    for end in range(1, len(tails) + 1):  # one game's rows at a time, in seq order
        if end < len(tails) and tails[end][0] == tails[start][0]:
            continue
        table = tables.get(tails[start][0])
        if table is not None and table.pending is not None:
            last = tails[end - 1]
            table.pending.tail = tails[start:end]
            table.version, table.deadline = last["seq"], last["due"]
            table.chain = last["link"]  # None: a game logged before the chain has none
            started[table.id] = last["at"]
        start = end
    return [(table, started.get(table.id)) for table in tables.values()]


async def owed_ends(store: Store, owned: str | None, dice: TableDice) -> list[Table]:
    """The finished tables of the guilds ``owned`` accepts whose end message was not yet sent (the process stopped
    between the game's last move and Discord taking it), each with its final state."""
    tables = []
    for row in await repo.owed_end_games(store, owned):
        table = table_from_row(row, dice)
        try:
            table.state = table.engine.loads(row["state"])
        except Exception:
            log.exception("game %s has a final state that does not load; its end message is not sent", table.id)
            continue
        tables.append(table)
    return tables


def table_from_row(row: Any, dice: TableDice) -> Table:
    """The table as its games row (joined with its deadline) has it; a running one ``pending``, its state undecoded."""
    table = Table(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        game=row["game"],
        status=row["status"],
        host_id=row["host_id"],
        options=loads(row["options"]),
        seats=[Seat(**s) for s in loads(row["seats"])],
        version=row["version"],
        message_id=row["message_id"],
        deadline=row["due"],
        snapshot_version=row["version"],
    )
    meta, log_text = split_meta(row["meta"])  # the log stays text until it is read
    table.load_meta(meta, log_text)
    stored = loads(row["fair"]) if row["fair"] else None
    if stored is not None:  # the stream as it was: the same seed and client seed, on from the snapshot's draws
        table.draws = meta.get("draws", 0)
        table.start = stored.get("start")
        table.owner_seated = bool(stored.get("owner_seated"))
        table.dice = table.fair = FairDice.from_hex(
            stored["seed"], stored.get("client_seed") or "", table.draws, table.start
        )
    else:
        table.dice = dice.without_commitment()
    if table.running:
        table.pending = Pending(row["state"], [])
    return table


def load(table: Table) -> bool:
    """Bring a ``pending`` table up to date: the snapshot's state decoded, the interaction ids of its tail (its
    actions from the snapshot's own on) seen, the moves after the snapshot replayed.

    False: its state does not load or its log does not replay (an engine changed incompatibly). It is then closed
    in memory only, as if never opened: the database keeps it as it is, and the error is logged.
    """
    pending = table.pending
    if pending is None:
        return True
    table.pending = None
    see(table, pending.tail)
    try:
        table.state = table.engine.loads(pending.state) if pending.state else None
    except Exception:
        log.exception("game %s has a state that does not load; left closed in memory", table.id)
    rows = [row for row in pending.tail if row["seq"] > table.snapshot_version]
    if table.state is None or (rows and not replay(table, rows)):
        table.status = "cancelled"
        table.deadline = None
        return False
    return True


def see(table: Table, rows: list[Any]) -> None:
    """Add the interaction ids of ``rows`` (from the snapshot's own move on) to those the snapshot holds.

    A snapshot is written before its own move's id joins ``seen`` (``TableService.commit``), so that one is added
    here, unless the snapshot already has it (one written after the move, as closing a table does)."""
    seen, snapshot = table.seen, table.snapshot_version
    for row in rows:
        iid = row["interaction_id"]
        if iid:
            key = interaction_key(iid)
            if row["seq"] > snapshot or key not in seen:
                seen.append(key)


def replay(table: Table, rows: list[Any]) -> bool:
    """Apply the logged actions after the snapshot, with their recorded dice, as act/timeout/forfeit did; False
    (logged) when they do not replay."""
    engine, state = table.engine, table.state
    timeouts, log_entries, acted = list(table.timeouts), [], {}
    drawn = 0  # the fair stream's draws these actions made: the live dice go on after them
    try:
        for row in rows:
            seat, text = row["seat"], row["action"]
            calls = loads(row["dice"]) if row["dice"] else ()
            drawn += count_draws(calls)
            dice = ReplayDice(calls)
            state, events = apply_logged(engine, state, seat, text, dice, len(table.seats), table.options)
            if text == TIMEOUT:
                timeouts[seat] += 1
            elif text.startswith(FORFEIT):
                events = forfeit_events(events, text.partition(":")[2])
            else:
                timeouts[seat] = 0
                acted[table.seats[seat].id] = row["seq"]
            if not dice.exhausted:
                raise ValueError(f"action {row['seq']} recorded dice it did not use")
            log_entries += [(e.kind, e.data) for e in events if e.public]
    except Exception:
        log.exception("game %s does not replay its log; left closed in memory", table.id)
        return False
    table.state, table.version, table.timeouts = state, rows[-1]["seq"], timeouts
    table.add_log(log_entries)
    table.acted.update(acted)
    fair = table.fair
    if fair is not None:
        fair.nonce = table.draws = table.draws + drawn
    return True
