"""/privacy for tournaments (``bot.store.tournaments`` through ``bot.store.privacy``), on both databases: the export
holds the member's entries and tournaments; deleting removes an entry still in sign-up and anonymises the rest
(host, entrant, byes, tables, outcomes) with the results' anonymous id, so nothing names them and the standings
recompute from the stored rows exactly as before; in a running tournament they are never paired again."""

from __future__ import annotations

import dataclasses
import json
import random

from bot.store import privacy
from bot.tables import Seat
from bot.tournaments import Plan, standings
from cogs.privacy import deleted_name
from tests.service.test_privacy import BRAM, CORA, ZEPH, everything, mentions
from tests.service.test_tables import Clock
from tests.service.test_tournament_play import recomputed
from tests.service.test_tournaments import GUILD, Venue, close, play_table, services

DORA = Seat(733_245_118_904_221_700, "Dorothea Wexley")
HERE, THERE = 412_000_000_000_000_030, 412_000_000_000_000_040


async def sign_up(service, clock: Clock, channel: int, host: Seat, people, plan: Plan):
    await service.create(GUILD, channel, host, "pig", plan, options={"target": 20})
    for seat in people:
        clock.now += 1  # joined in this order (the seeds' tie-break after the rating)
        await service.join(channel, seat)
    t = await service.in_channel(channel)
    assert t is not None
    return t


async def play_all(tables, service, tournament_id: int, rng: random.Random) -> None:
    from bot.store import tournaments as store_t

    for _ in range(32):
        t = await store_t.load(tables.store, tournament_id)
        assert t is not None
        playing = [x for x in t.tables if x.game_id is not None and tables.table_by_id(x.game_id) is not None]
        if not playing:
            return
        await play_table(tables, playing[0].game_id, rng)


def renamed(rows, old: int, new: int):
    return [dataclasses.replace(s, player=new if s.player == old else s.player) for s in rows]


async def test_export_and_delete_of_a_finished_and_a_signing_up_tournament(database):
    clock = Clock()
    tables, service = await services(database, Venue(), clock)
    store = tables.store
    try:
        done = await sign_up(service, clock, HERE, ZEPH, (ZEPH, BRAM, CORA), Plan("swiss", 2, 2))
        await service.start(HERE, ZEPH.id)
        await play_all(tables, service, done.id, random.Random(5))
        waiting = await sign_up(service, clock, THERE, BRAM, (BRAM, ZEPH), Plan("knockout", 2))
        plan, entrants, rounds, outcomes, withdrawn = await recomputed(store, done.id)
        before = standings(plan, entrants, rounds, outcomes, frozenset(withdrawn))
        assert ZEPH.id in {p for r in rounds for p in r.players()}

        data = json.loads(privacy.export_bytes(await privacy.export_member(store, ZEPH.id, [ZEPH.name])))
        assert [(e["tournament_id"], e["name"]) for e in data["tournament_entrants"]] == [
            (done.id, ZEPH.name),
            (waiting.id, ZEPH.name),
        ]
        exported = {t["id"]: t for t in data["tournaments"]}
        assert set(exported) == {done.id, waiting.id}
        assert exported[done.id]["host"] and not exported[waiting.id]["host"]
        assert exported[done.id]["status"] == "finished" and exported[waiting.id]["tables"] == []
        sat = [(x["round"], x["number"]) for x in exported[done.id]["tables"]]
        assert sat == [(r.number, x.number) for r in rounds for x in r.tables if ZEPH.id in x.players]
        assert exported[done.id]["byes"] == [r.number for r in rounds if ZEPH.id in r.byes]
        text = json.dumps(data["tournaments"]) + json.dumps(data["tournament_entrants"])
        assert str(BRAM.id) not in text and BRAM.name not in text and CORA.name not in text

        gone = await privacy.delete_member(store, ZEPH.id, deleted_name, [ZEPH.name])
        anonymous = gone.anonymous_id
        assert anonymous is not None and anonymous < privacy.ANONYMOUS_BELOW
        after = await everything(store)
        assert mentions(after, str(ZEPH.id), ZEPH.name) == []
        # the sign-up entry is gone, the tournament in sign-up otherwise as it was
        left = await service.in_channel(THERE)
        assert left is not None and [e.user_id for e in left.entrants] == [BRAM.id]
        # the finished one recomputes to the same standings, under the anonymous id
        plan, entrants, rounds, outcomes, withdrawn = await recomputed(store, done.id)
        assert standings(plan, entrants, rounds, outcomes, frozenset(withdrawn)) == renamed(before, ZEPH.id, anonymous)
        (row,) = await store.fetch_all("SELECT host_id FROM tournaments WHERE id = ?", (done.id,))
        assert row[0] == anonymous
        assert [
            r[0]
            for r in await store.fetch_all(
                "SELECT name FROM tournament_entrants WHERE tournament_id = ? AND user_id = ?", (done.id, anonymous)
            )
        ] == ["deleted player"]
        empty = await privacy.export_member(store, ZEPH.id, [ZEPH.name])
        assert empty["tournaments"] == [] and empty["tournament_entrants"] == []
    finally:
        await close(tables)


async def test_deleting_a_member_waiting_on_a_bye_withdraws_them_from_the_running_tournament(database):
    clock = Clock()
    tables, service = await services(database, Venue(), clock)
    store = tables.store
    try:
        # Dora hosts; the three play a 3-round Swiss; whoever has the first bye asks to be deleted.
        t = await sign_up(service, clock, HERE, DORA, (ZEPH, BRAM, CORA), Plan("swiss", 2, 3))
        await service.start(HERE, DORA.id)
        t = await service.in_channel(HERE)
        assert t is not None
        (resting,) = t.byes[1]
        seat = next(s for s in (ZEPH, BRAM, CORA) if s.id == resting)
        gone = await privacy.delete_member(store, seat.id, deleted_name, [seat.name])
        assert gone.anonymous_id is not None
        assert mentions(await everything(store), str(seat.id), seat.name) == []
        await play_all(tables, service, t.id, random.Random(7))
        t = await service.in_channel(HERE)
        assert t is None  # over
        _, entrants, rounds, _, withdrawn = await recomputed(store, await _only(store))
        assert len(rounds) == 3  # the two left meet each round: a repeat they cannot avoid
        assert withdrawn == {gone.anonymous_id}
        assert all(gone.anonymous_id not in r.players() for r in rounds[1:])
        assert gone.anonymous_id in rounds[0].byes
        assert {e.player for e in entrants} == ({ZEPH.id, BRAM.id, CORA.id} - {seat.id}) | {gone.anonymous_id}
    finally:
        await close(tables)


async def _only(store) -> int:
    (row,) = await store.fetch_all("SELECT id FROM tournaments")
    return int(row[0])


async def test_a_deletion_between_a_pairing_and_its_write_is_never_undone(database, monkeypatch):
    """The member is deleted after the next round was paired from a snapshot naming them, before it is written:
    the write is refused (nothing of it stored), the round paired again without them."""
    from bot.store import tournaments as store_t
    from bot.store.errors import IntegrityError

    clock = Clock()
    tables, service = await services(database, Venue(), clock)
    store = tables.store
    try:
        t = await sign_up(service, clock, HERE, DORA, (ZEPH, BRAM, CORA, DORA), Plan("swiss", 2, 2))
        await service.start(HERE, DORA.id)
        real_snapshot = service.snapshot
        deleted: list[int] = []

        async def snapshot(row):
            snap = await real_snapshot(row)
            if len(snap.rounds) == 1 and len(snap.outcomes) == 2 and not deleted:  # round 2 about to be paired
                gone = await privacy.delete_member(store, ZEPH.id, deleted_name, [ZEPH.name])
                assert gone.anonymous_id is not None
                deleted.append(gone.anonymous_id)
            return snap

        monkeypatch.setattr(service, "snapshot", snapshot)
        await play_all(tables, service, t.id, random.Random(3))
        assert deleted, "the deletion ran while round 2 was being paired"
        assert mentions(await everything(store), str(ZEPH.id), ZEPH.name) == []
        _, _, rounds, _, withdrawn = await recomputed(store, t.id)
        assert withdrawn == set(deleted) and len(rounds) == 2
        assert not set(rounds[1].players()) & {ZEPH.id, *deleted}
        # the guard itself: a round naming a withdrawn entrant is refused whole
        before = await store.fetch_all("SELECT COUNT(*) FROM tournament_rounds")
        stale = [store_t.TableRow(3, 1, (BRAM.id, deleted[0]))]
        try:
            await store.write(store_t.add_round(t.id, 3, (), stale))
        except IntegrityError:
            pass
        else:
            raise AssertionError("a round naming a withdrawn entrant was written")
        assert await store.fetch_all("SELECT COUNT(*) FROM tournament_rounds") == before
        assert (await store_t.load(store, t.id)).status == "finished"  # type: ignore[union-attr]
    finally:
        await close(tables)
