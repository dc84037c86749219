"""Deleting a member an open table's log names (a lobby they left before it started, a rematch inviting them): the
row is anonymised in the transaction and the log in memory just before it, so the table's later snapshots (a join,
the start, the end) never write the name or id back; on both backends, and in no byte of the SQLite files."""

from __future__ import annotations

import json
import random
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from bot.store import privacy
from bot.tables import TableService
from cogs.privacy import deleted_name, scrub_open_tables
from tests.service.test_privacy import (
    BRAM,
    CHANNEL,
    CORA,
    GUILD,
    OTHER,
    ZEPH,
    close,
    everything,
    mentions,
    open_service,
)
from tests.service.test_privacy import play as play_a_game
from tests.service.test_privacy_files import found_in_files


def in_memory(service: TableService, user_id: int) -> Any:
    """What the cog hands ``delete_member``: the open tables' logs anonymised in memory."""
    return lambda names: scrub_open_tables(SimpleNamespace(tables=service), user_id, names)  # type: ignore[arg-type]


async def play_to_the_end(service: TableService, channel: int, seed: int) -> None:
    table = service.table(channel)
    rng = random.Random(seed)
    while table.running:
        seat = table.engine.to_act(table.state)[0]
        await service.act(channel, table.seats[seat].id, rng.choice(table.engine.legal_actions(table.state, seat)))


async def test_a_lobby_they_left_that_is_still_open_keeps_no_trace_through_its_game(database):
    service = await open_service(database)
    store = service.store
    try:
        lobby = await service.create(GUILD, OTHER, BRAM, "pig", {"target": 20})
        await service.join(OTHER, CORA)
        await service.leave(OTHER, CORA.id)
        assert ("left", {"name": CORA.name}) in list(lobby.log)

        done = await privacy.delete_member(store, CORA.id, deleted_name, [CORA.name], in_memory(service, CORA.id))
        assert done.games == 1
        assert ("left", {"name": "deleted player"}) in list(lobby.log)
        assert mentions(await everything(store), CORA.name, str(CORA.id)) == []

        await service.join(OTHER, ZEPH)  # each a snapshot of the lobby's row, from memory
        await service.start_game(OTHER, BRAM.id)
        await play_to_the_end(service, OTHER, 5)
        after = await everything(store)
        assert mentions(after, CORA.name, "Coralie", str(CORA.id)) == []
        (meta,) = [json.loads(r[11]) for r in after["games"] if r[0] == lobby.id]
        assert ["left", {"name": "deleted player"}] in meta["log"] or len(meta["log"]) == 24  # (a long log drops it)
        if not database.startswith("postgres"):
            assert found_in_files(Path(database), CORA.id, CORA.name) == []
    finally:
        await close(service)


async def test_a_rematch_inviting_them_is_anonymised_and_stays_so(database):
    service = await open_service(database)
    store = service.store
    try:
        old = await play_a_game(service, "pig", 6)
        rematch = await service.rematch(old, BRAM, channel_id=CHANNEL)
        assert ("rematch_invited", {"id": ZEPH.id, "name": f"<@{ZEPH.id}>"}) in list(rematch.log)

        await privacy.delete_member(store, ZEPH.id, deleted_name, [ZEPH.name], in_memory(service, ZEPH.id))
        word = {"id": privacy.OPEN_ANONYMOUS, "name": "deleted player"}
        assert ("rematch_invited", word) in list(rematch.log)
        row = await store.fetch_one("SELECT meta FROM games WHERE id = ?", (rematch.id,))
        assert ["rematch_invited", word] in json.loads(row["meta"])["log"]
        await service.join(CHANNEL, CORA)  # a snapshot from memory
        await service.start_game(CHANNEL, BRAM.id)
        assert mentions(await everything(store), ZEPH.name, str(ZEPH.id)) == []
        if not database.startswith("postgres"):
            assert found_in_files(Path(database), ZEPH.id, ZEPH.name) == []
    finally:
        await close(service)
