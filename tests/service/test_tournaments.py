"""The tournament service (issue 28, ``bot.tables.tournaments``) over the real table service, on both databases:
sign-up refusals that change nothing, seeding by rating, rounds opened in threads (or queued in the channel), each
table's end reaching the tournament through the table service's watchers, a no-show forfeiting by the table's own
deadline, a host-cancelled table (a no-contest; anyone else refused), and a restart mid-round.

Whole tournaments (a 5-player Swiss with a bye, a 6-player knockout) are in test_tournament_play.py.
"""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from bot.games.dice import SeededDice
from bot.shards import parse
from bot.store import open_store
from bot.store import tournaments as store_t
from bot.tables import Seat, TableError, TableService
from bot.tables import tournaments as runner
from bot.tables.tournaments import TournamentService
from bot.tournaments import Plan, TournamentRefused
from tests.service.test_tables import Clock

GUILD, CHANNEL = 41, 7000
ALICE, BOB, CAROL, DAVE = Seat(100, "Alice"), Seat(200, "Bob"), Seat(300, "Carol"), Seat(400, "Dave")
EVE, FRED = Seat(500, "Eve"), Seat(600, "Fred")
STRANGER = Seat(999, "Stranger")
TOURNAMENT_TABLES = ("tournaments", "tournament_entrants", "tournament_rounds", "tournament_tables", "games")


class Venue:
    """Threads numbered from 9001 (or none: ``threads`` False), and every announcement."""

    def __init__(self, threads: bool = True) -> None:
        self.threads, self.next, self.said = threads, 9001, []

    async def open_channel(self, tournament, table):
        if not self.threads:
            return None
        self.next += 1
        return self.next - 1

    def announce(self, tournament, kind: str, data: dict[str, Any]) -> None:
        self.said.append((kind, data))

    def kinds(self) -> list[str]:
        return [kind for kind, _ in self.said]


async def services(db, venue, clock=None) -> tuple[TableService, TournamentService]:
    store = await open_store(db)
    tables = TableService(store, SeededDice(3), clock=clock or Clock(), run_dispatcher=False, auto_bots=False)
    await tables.start()
    return tables, TournamentService(store, tables, venue, clock=tables.clock)


async def close(tables: TableService) -> None:
    await tables.stop()
    await tables.store.close()


async def play_table(tables: TableService, game_id: int, rng: random.Random | None = None) -> None:
    """Play the Pig table of ``game_id`` to its end: roll until the turn holds a few points (3 to 9), then hold."""
    rng = rng or random.Random(game_id)
    for _ in range(2000):
        table = tables.table_by_id(game_id)  # loaded (a restored table's state is read on first use)
        if table is None or table.status != "running":
            await tables.watchers.settle()  # what its end began (the tournament's next round)
            return
        seat = table.engine.to_act(table.state)[0]
        legal = {a.encode() for a in table.engine.legal_actions(table.state, seat)}
        move = "hold" if "hold" in legal and table.state.turn_total >= rng.randint(3, 9) else "roll"
        await tables.act(table.channel_id, table.seats[seat].id, move)
    raise AssertionError("the game did not end")


async def rows(store, tables: tuple[str, ...] = TOURNAMENT_TABLES) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of the tournaments' tables and the games (to compare before and after a refusal)."""
    return {name: sorted(map(tuple, await store.fetch_all(f"SELECT * FROM {name}")), key=repr) for name in tables}


def refused(code):
    return pytest.raises(TableError, match=f"^{code}$")


async def signed_up(service: TournamentService, plan: Plan, seats, **options: Any) -> store_t.TournamentRow:
    await service.create(GUILD, CHANNEL, ALICE, "pig", plan, options=options or {"target": 20})
    for seat in seats:
        await service.join(CHANNEL, seat)
    t = await service.in_channel(CHANNEL)
    assert t is not None
    return t


async def test_refusals_change_nothing(database, monkeypatch):
    """A stranger starting, joining twice, a full tournament and the host tools in a stranger's hands: each refused
    with its code, and not one row changes."""
    monkeypatch.setattr(runner, "MAX_ENTRANTS", 3)
    tables, service = await services(database, Venue())
    try:
        with refused("tournament_none"):
            await service.join(CHANNEL, ALICE)
        with pytest.raises(TournamentRefused) as bad_format:
            await service.create(GUILD, CHANNEL, ALICE, "pig", Plan("ladder", 2))
        assert bad_format.value.code == "format"
        with pytest.raises(TournamentRefused) as round_robin:
            await service.create(GUILD, CHANNEL, ALICE, "pig", Plan("round_robin", 3))
        assert round_robin.value.code == "round_robin_seats"
        assert (await rows(tables.store))["tournaments"] == []
        await signed_up(service, Plan("swiss", 2, 2), (ALICE,))
        before = await rows(tables.store)
        with refused("tournament_exists"):
            await service.create(GUILD, CHANNEL, BOB, "pig", Plan("knockout", 2))
        with refused("tournament_joined"):
            await service.join(CHANNEL, ALICE)
        with refused("tournament_only_host"):
            await service.start(CHANNEL, STRANGER.id)
        with pytest.raises(TournamentRefused) as too_few:  # the host, with one entrant
            await service.start(CHANNEL, ALICE.id)
        assert (too_few.value.code, too_few.value.params) == ("entrants", {"entrants": 1, "min": 2})
        with refused("tournament_only_host"):
            await service.cancel(CHANNEL, STRANGER.id)
        with refused("tournament_only_host"):
            await service.remove(CHANNEL, STRANGER.id, ALICE.id)
        with refused("tournament_not_entrant"):
            await service.remove(CHANNEL, ALICE.id, STRANGER.id)
        with refused("tournament_not_joined"):
            await service.leave(CHANNEL, STRANGER.id)
        with refused("tournament_not_running"):
            await service.set_paused(CHANNEL, ALICE.id, True)
        assert await rows(tables.store) == before

        await service.join(CHANNEL, BOB)
        await service.join(CHANNEL, CAROL)
        before = await rows(tables.store)
        with refused("tournament_full"):
            await service.join(CHANNEL, DAVE)
        assert await rows(tables.store) == before

        await service.start(CHANNEL, ALICE.id)
        before = await rows(tables.store)
        with refused("tournament_started"):
            await service.join(CHANNEL, DAVE)
        with refused("tournament_started"):
            await service.start(CHANNEL, ALICE.id)
        with refused("tournament_only_host"):
            await service.set_paused(CHANNEL, BOB.id, True)
        with refused("tournament_not_paused"):
            await service.set_paused(CHANNEL, ALICE.id, False)
        assert await rows(tables.store) == before
        await service.set_paused(CHANNEL, ALICE.id, True)
        with refused("tournament_paused"):
            await service.set_paused(CHANNEL, ALICE.id, True)

        await service.cancel(CHANNEL, STRANGER.id, is_admin=True)  # an admin may
        assert await service.in_channel(CHANNEL) is None
        assert {r[0] for r in await tables.store.fetch_all("SELECT status FROM games")} == {"cancelled"}
    finally:
        await close(tables)


async def test_rounds_of_tables_with_too_many_seats_are_refused(database):
    tables, service = await services(database, Venue())
    try:
        with pytest.raises(TournamentRefused) as seats:
            await service.create(GUILD, CHANNEL, ALICE, "pig", Plan("swiss", 99, 2))
        assert seats.value.code == "seats"
        await signed_up(service, Plan("swiss", 2, 9), (ALICE, BOB, CAROL))
        before = await rows(tables.store)
        with pytest.raises(TournamentRefused) as too_many:
            await service.start(CHANNEL, ALICE.id)
        assert too_many.value.code == "rounds"
        assert await rows(tables.store) == before
    finally:
        await close(tables)


async def test_seeding_is_by_rating_at_the_start(database):
    """Knockout seeds 1 v 4 and 2 v 3 by rating ordinal (a newcomer 0), whatever the order of joining; a rating
    that changes after joining counts."""
    tables, service = await services(database, Venue())
    try:
        ordinals = {ALICE.id: -1.0, BOB.id: 7.5, CAROL.id: 3.0}  # Dave unrated: 0
        await tables.store.write(
            [
                (
                    "INSERT INTO ratings (guild_id, season, game, user_id, mu, sigma, ordinal, updated_at)"
                    " VALUES (?, 0, 'pig', ?, ?, 5, ?, 1)",  # ordinal = mu - 3 sigma
                    (GUILD, user, first + 15, first),
                )
                for user, first in ((u, o if u != CAROL.id else 0.5) for u, o in ordinals.items())
            ]
        )
        t = await signed_up(service, Plan("knockout", 2), (ALICE, BOB, CAROL, DAVE))
        assert {e.user_id: e.rating for e in t.entrants}[CAROL.id] == 0.5
        await tables.store.write(
            [("UPDATE ratings SET mu = 18, ordinal = 3.0 WHERE user_id = ? AND guild_id = ?", (CAROL.id, GUILD))]
        )
        await service.start(CHANNEL, ALICE.id)
        t = await service.in_channel(CHANNEL)
        assert t is not None
        assert {e.user_id: e.rating for e in t.entrants} == {**ordinals, DAVE.id: 0.0}
        # seeds: Bob 7.5, Carol 3.0, Dave 0.0, Alice -1.0
        assert {frozenset(x.players) for x in t.tables} == {
            frozenset({BOB.id, ALICE.id}),
            frozenset({CAROL.id, DAVE.id}),
        }
    finally:
        await close(tables)


async def test_a_swiss_opens_threads_and_each_table_end_brings_the_next_round(database):
    venue = Venue()
    tables, service = await services(database, venue)
    try:
        await signed_up(service, Plan("swiss", 2, 2), (ALICE, BOB, CAROL))
        await service.start(CHANNEL, ALICE.id)
        t = await service.in_channel(CHANNEL)
        assert t is not None and t.status == "running"
        (first,) = [x for x in t.tables if x.round == 1]
        assert first.channel_id == 9001 and first.game_id is not None and len(t.byes[1]) == 1
        table = tables.table(9001)
        assert table.status == "running" and table.options["target"] == 20
        assert [s.id for s in table.seats] == list(first.players)
        assert venue.said == [("round", {"round": 1, "tables": [_shown(first)], "byes": list(t.byes[1])})]
        await play_table(tables, first.game_id)  # its end reaches the tournament: round 2 opens
        t = await service.in_channel(CHANNEL)
        assert t is not None and sorted(t.byes) == [1, 2] and t.byes[2] != t.byes[1]
        (second,) = [x for x in t.tables if x.round == 2]
        assert second.channel_id == 9002 and venue.kinds() == ["round", "round"]
        assert second.game_id is not None
        await play_table(tables, second.game_id)
        finished = await store_t.load(tables.store, t.id)
        assert finished is not None and finished.status == "finished"
        assert venue.kinds() == ["round", "round", "over"] and len(venue.said[-1][1]["winners"]) >= 1
        assert await service.in_channel(CHANNEL) is None
    finally:
        await close(tables)


def _shown(x: store_t.TableRow) -> dict[str, Any]:
    return {"number": x.number, "players": list(x.players), "channel_id": x.channel_id, "game_id": x.game_id}


async def test_without_threads_the_tables_queue_in_the_channel(database):
    venue = Venue(threads=False)
    tables, service = await services(database, venue)
    try:
        await signed_up(service, Plan("swiss", 2, 1), (ALICE, BOB, CAROL, DAVE))
        await service.start(CHANNEL, ALICE.id)
        t = await service.in_channel(CHANNEL)
        assert t is not None
        one, two = sorted((x for x in t.tables if x.round == 1), key=lambda x: x.number)
        assert one.game_id is not None and two.game_id is None and one.channel_id == two.channel_id == CHANNEL
        assert venue.kinds() == ["round"]  # one announcement, the queued table in it
        await play_table(tables, one.game_id)
        t = await service.in_channel(CHANNEL)
        assert t is not None
        two = [x for x in t.tables if (x.round, x.number) == (1, 2)][0]
        assert two.game_id is not None and tables.table(CHANNEL).id == two.game_id
        assert venue.kinds() == ["round"]
        await play_table(tables, two.game_id)
        assert venue.kinds() == ["round", "over"]
    finally:
        await close(tables)


async def test_another_table_in_the_channel_holds_the_queue_until_it_ends(database):
    """Someone opens an ordinary table in the tournament's channel between two queued tables: the next tournament
    table opens when it ends."""
    venue = Venue(threads=False)
    tables, service = await services(database, venue)
    try:
        await signed_up(service, Plan("swiss", 2, 1), (ALICE, BOB, CAROL, DAVE))
        await service.start(CHANNEL, ALICE.id)
        t = await service.in_channel(CHANNEL)
        assert t is not None
        one = [x for x in t.tables if x.number == 1][0]
        await tables.cancel(CHANNEL, ALICE.id)  # the host's no-contest frees the channel ...
        await tables.watchers.settle()
        t = await service.in_channel(CHANNEL)
        assert t is not None
        two = [x for x in t.tables if x.number == 2][0]
        assert two.game_id is not None  # ... and the second table opened at once
        await play_table(tables, two.game_id)
        assert (await service.outcome(one)) is not None
        done = await store_t.load(tables.store, t.id)
        assert done is not None and done.status == "finished"
        # the channel is free again for anyone
        other = await tables.create(GUILD, CHANNEL, EVE, "pig", {"target": 20})
        assert other.id not in {x.game_id for x in done.tables}
    finally:
        await close(tables)


async def test_a_player_who_never_acts_forfeits_by_the_deadline_and_is_a_no_show(database):
    clock = Clock()
    tables, service = await services(database, Venue(), clock)
    try:
        await signed_up(service, Plan("swiss", 2, 1), (ALICE, BOB), target=100)
        await service.start(CHANNEL, ALICE.id)
        table = tables.table(9001)
        present = table.seats[table.engine.to_act(table.state)[0]].id
        absent = ALICE.id if present == BOB.id else BOB.id
        for _ in range(60):
            if table.status != "running":
                break
            mover = table.seats[table.engine.to_act(table.state)[0]].id
            if mover == present:
                await tables.act(9001, mover, "hold" if table.state.turn_total >= 6 else "roll")
            else:  # the absent player's turn runs out (the table's own deadline)
                assert table.deadline is not None
                clock.now = table.deadline + 1
                assert await tables.run_due() == 1
        assert table.status == "finished"
        await tables.watchers.settle()
        forfeits = await tables.store.fetch_all(
            "SELECT COUNT(*) FROM actions WHERE game_id = ? AND action = 'forfeit:timeouts'", (table.id,)
        )
        assert forfeits[0][0] == 1
        t = await store_t.load(tables.store, (await service.of_table(table.id)).id)  # type: ignore[union-attr]
        assert t is not None and t.status == "finished"  # the table's end finished the one-round tournament
        outcome = await service.outcome(t.tables[0])
        assert outcome is not None and outcome.no_shows == frozenset({absent}) and outcome.places == {present: 1}
        snap = await service.snapshot(t)
        (top, last) = snap.standings()
        assert (top.player, top.points, last.player, last.points) == (present, 1.0, absent, 0.0)
    finally:
        await close(tables)


async def test_a_tournament_table_is_cancelled_only_by_the_tournament_host(database):
    """Its seated players (the table's own host among them) are refused and nothing changes; the tournament's
    host cancels it as a no-contest (both share place 1), and the tournament goes on."""
    venue = Venue()
    tables, service = await services(database, venue)
    try:
        await signed_up(service, Plan("swiss", 2, 2), (BOB, CAROL, DAVE))  # Alice hosts, does not play
        await service.start(CHANNEL, ALICE.id)
        table = tables.table(9001)
        pair = {s.id for s in table.seats}
        before = await rows(tables.store)
        for seat in table.seats:  # seat 0 is the table's host
            with refused("tournament_only_host"):
                await tables.cancel(9001, seat.id)
        with refused("tournament_only_host"):
            await tables.cancel(9001, STRANGER.id)
        assert await rows(tables.store) == before and table.status == "running"
        assert await service.may_cancel_table(table.id, table.seats[0].id, False) is False
        assert await service.may_cancel_table(table.id, STRANGER.id, True) is True
        assert await service.may_cancel_table(123456, BOB.id, False) is None  # no tournament's table

        await tables.cancel(9001, ALICE.id)

        await tables.watchers.settle()
        t = await service.in_channel(CHANNEL)
        assert t is not None
        first = [x for x in t.tables if x.round == 1][0]
        assert first.outcome is not None  # written as the table closed
        outcome = await service.outcome(first)
        assert outcome is not None and outcome.places == dict.fromkeys(pair, 1) and not outcome.no_shows
        assert venue.kinds() == ["round", "round"]  # the next round opened
        second = [x for x in t.tables if x.round == 2][0]
        await tables.cancel(second.channel_id, STRANGER.id, is_admin=True)  # an admin may too
        await tables.watchers.settle()
        done = await store_t.load(tables.store, t.id)
        assert done is not None and done.status == "finished"
        # two no-contests (a draw each: half a point) and a bye (a win) each, but for the one without a bye
        points = {s.player: s.points for s in (await service.snapshot(done)).standings()}
        byes = {p for b in done.byes.values() for p in b}
        assert points == {p: (1.5 if p in byes else 1.0) for p in (BOB.id, CAROL.id, DAVE.id)}
        # Once the tournament is over its tables follow the table's own rule again (a rematch lobby there).
        lobby = await tables.create(GUILD, 9001, BOB, "pig", {"target": 20})
        assert await service.may_cancel_table(lobby.id, BOB.id, False) is None
    finally:
        await close(tables)


async def test_a_withdrawn_player_forfeits_their_table_and_is_not_paired_again(database):
    tables, service = await services(database, Venue())
    try:
        await signed_up(service, Plan("swiss", 2, 2), (ALICE, BOB, CAROL, DAVE))
        await service.start(CHANNEL, ALICE.id)
        t = await service.in_channel(CHANNEL)
        assert t is not None
        dave = next(x for x in t.tables if DAVE.id in x.players)
        other = next(x for x in t.tables if DAVE.id not in x.players)
        await service.remove(CHANNEL, ALICE.id, DAVE.id)
        await tables.watchers.settle()
        with refused("tournament_not_entrant"):
            await service.remove(CHANNEL, ALICE.id, DAVE.id)
        gone = tables.table_by_id(dave.game_id)  # type: ignore[arg-type]
        assert gone is None  # his table ended with his forfeit
        assert other.game_id is not None
        await play_table(tables, other.game_id)
        t = await service.in_channel(CHANNEL)
        assert t is not None
        assert all(DAVE.id not in x.players for x in t.tables if x.round == 2)
        assert DAVE.id not in t.byes[2]
    finally:
        await close(tables)


async def test_a_restart_mid_round_neither_loses_nor_reopens_a_table(database):
    """Round 1 of a 4-player, 2-round Swiss: one table ends while the bot is down (nobody hears of it), the other
    is still playing across the restart. ``start_up`` counts the first; the second goes on where it was, and its end
    opens round 2; no table is opened twice."""
    venue = Venue()
    tables, service = await services(database, venue)
    await signed_up(service, Plan("swiss", 2, 2), (ALICE, BOB, CAROL, DAVE))
    await service.start(CHANNEL, ALICE.id)
    t = await service.in_channel(CHANNEL)
    assert t is not None
    one, two = sorted((x for x in t.tables if x.round == 1), key=lambda x: x.number)
    assert one.game_id is not None and two.game_id is not None
    table_two = tables.table_by_id(two.game_id)
    assert table_two is not None
    await tables.act(table_two.channel_id, table_two.seats[0].id, "roll")  # started, not over
    tables.watchers.clear()  # the tournament service is gone: the bot is going down
    await play_table(tables, one.game_id)
    await close(tables)

    tables, service = await services(database, venue)
    try:
        t = await service.in_channel(CHANNEL)
        assert t is not None and [x.round for x in t.tables] == [1, 1]  # not yet heard
        await service.start_up()
        await service.start_up()  # idempotent
        t = await service.in_channel(CHANNEL)
        assert t is not None and t.status == "running" and [x.round for x in t.tables] == [1, 1]
        assert [(x.game_id, x.channel_id) for x in t.tables] == [(one.game_id, 9001), (two.game_id, 9002)]
        assert tables.table_by_id(two.game_id) is not None and tables.table_by_id(one.game_id) is None
        assert await service.outcome(t.tables[0]) is not None and await service.outcome(t.tables[1]) is None
        await play_table(tables, two.game_id)
        t = await service.in_channel(CHANNEL)
        assert t is not None and [x.round for x in t.tables] == [1, 1, 2, 2]
        games = await tables.store.fetch_all("SELECT COUNT(*) FROM games")
        assert games[0][0] == 4  # no table opened twice
        for x in t.tables[2:]:
            assert x.game_id is not None
            await play_table(tables, x.game_id)
        done = await store_t.load(tables.store, t.id)
        assert done is not None and done.status == "finished"
        assert venue.kinds().count("round") == 2 and venue.kinds()[-1] == "over"
    finally:
        await close(tables)


async def test_a_restart_before_the_next_round_opened_opens_it_once(database):
    """The last table of round 1 ends while the tournament service is not listening: ``start_up`` pairs and opens
    round 2 (announced once)."""
    venue = Venue()
    tables, service = await services(database, venue)
    await signed_up(service, Plan("swiss", 2, 2), (ALICE, BOB, CAROL))
    await service.start(CHANNEL, ALICE.id)
    t = await service.in_channel(CHANNEL)
    assert t is not None and t.tables[0].game_id is not None
    tables.watchers.clear()
    await play_table(tables, t.tables[0].game_id)
    await close(tables)
    tables, service = await services(database, venue)
    try:
        await service.start_up()
        await service.start_up()
        t = await service.in_channel(CHANNEL)
        assert t is not None and [x.round for x in t.tables] == [1, 2]
        assert venue.kinds() == ["round", "round"]
        games = await tables.store.fetch_all("SELECT COUNT(*) FROM games")
        assert games[0][0] == 2
    finally:
        await close(tables)


@pytest.mark.parametrize("crash", ["before_the_game_id", "before_the_start"])
async def test_a_crash_while_a_table_opens_is_repaired_at_start_up(database, crash):
    """The bot stops after a table's lobby was created, before its game id was written (it is adopted from its
    thread) or before it started (it is started): after ``start_up`` it runs, and no table is opened twice."""
    venue = Venue()
    tables, service = await services(database, venue)
    real_create = tables.create

    async def create(*args, **kwargs):
        await real_create(*args, **kwargs)
        raise RuntimeError("the bot stops")

    async def start_game(*args, **kwargs):
        raise RuntimeError("the bot stops")

    if crash == "before_the_game_id":
        tables.create = create  # type: ignore[method-assign]
    else:
        tables.start_game = start_game  # type: ignore[method-assign]
    await signed_up(service, Plan("swiss", 2, 1), (ALICE, BOB))
    with pytest.raises(RuntimeError):
        await service.start(CHANNEL, ALICE.id)
    await close(tables)

    tables, service = await services(database, venue)
    try:
        await service.start_up()
        t = await service.in_channel(CHANNEL)
        assert t is not None and len(t.tables) == 1 and t.tables[0].game_id is not None
        table = tables.table(9001)
        assert table.id == t.tables[0].game_id and table.status == "running"
        assert sorted(s.id for s in table.seats) == [ALICE.id, BOB.id]
        games = await tables.store.fetch_all("SELECT COUNT(*) FROM games")
        assert games[0][0] == 1
        assert venue.kinds() == ["round"]
        await play_table(tables, table.id)
        assert venue.kinds() == ["round", "over"]
    finally:
        await close(tables)


async def test_a_failing_watcher_does_not_undo_the_end_it_was_told_of(database, caplog):
    """The table's end is committed before any watcher hears of it: one that raises is logged, the next still told."""
    tables, _ = await services(database, Venue())

    class Broken:
        async def may_cancel(self, table, user_id, is_admin):
            return None

        async def table_closed(self, table):
            raise RuntimeError("broken")

        async def settle(self):
            pass

    class Heard:
        def __init__(self) -> None:
            self.ends: list[tuple[int, str]] = []

        async def may_cancel(self, table, user_id, is_admin):
            return None

        async def table_closed(self, table):
            self.ends.append((table.id, table.status))

        async def settle(self):
            pass

    heard = Heard()
    tables.watchers[:] = [Broken(), heard]
    try:
        table = await tables.create(GUILD, CHANNEL, ALICE, "pig", {"target": 20})
        await tables.join(CHANNEL, BOB)
        await tables.start_game(CHANNEL, ALICE.id)
        await play_table(tables, table.id)
        lobby = await tables.create(GUILD, CHANNEL, ALICE, "pig", {"target": 20})
        await tables.cancel(CHANNEL, ALICE.id)  # no watcher claims it: the table's own rule
        assert heard.ends == [(table.id, "finished"), (lobby.id, "cancelled")]
        rows_ = await tables.store.fetch_all("SELECT status FROM games ORDER BY id")
        assert [r[0] for r in rows_] == ["finished", "cancelled"]
        assert "a watcher failed on the end of table" in caplog.text
    finally:
        await close(tables)


async def test_a_table_end_does_not_wait_for_the_next_round_to_open(database):
    """The last move of a round returns while the next round's thread is still being made (a slow Discord): the
    round opens in the background, and ``stop`` waits for it before the store closes."""
    gate = asyncio.Event()

    class SlowVenue(Venue):
        async def open_channel(self, tournament, table):
            if table.round > 1:
                await gate.wait()
            return await super().open_channel(tournament, table)

    venue = SlowVenue()
    tables, service = await services(database, venue)
    try:
        await signed_up(service, Plan("swiss", 2, 2), (ALICE, BOB, CAROL))
        await service.start(CHANNEL, ALICE.id)
        table = tables.table(9001)
        for _ in range(2000):
            if table.status != "running":
                break
            seat = table.engine.to_act(table.state)[0]
            move = "hold" if table.state.rolls_this_turn and table.state.turn_total >= 5 else "roll"
            await tables.act(9001, table.seats[seat].id, move)  # the last one returns at once
        assert table.status == "finished" and venue.kinds() == ["round"]
        for _ in range(200):  # the background advance pairs round 2, then waits on the thread
            t = await service.in_channel(CHANNEL)
            assert t is not None
            if sorted(t.byes) == [1, 2]:
                break
            await asyncio.sleep(0.01)
        assert sorted(t.byes) == [1, 2] and [x.round for x in t.tables] == [1, 2]  # paired, committed
        assert t.tables[1].game_id is None and venue.kinds() == ["round"]  # its thread not yet made
        gate.set()
        await tables.watchers.settle()
        t = await service.in_channel(CHANNEL)
        assert t is not None and [x.channel_id for x in t.tables] == [9001, 9002] and venue.kinds() == ["round"] * 2
    finally:
        gate.set()  # a failed check must not leave stop() waiting on the thread
        await close(tables)


async def test_start_up_brings_forward_only_the_tournaments_of_this_process_s_shards(database, monkeypatch):
    """Two processes share the store: the one serving shard 0 of 2 never advances (nor opens tables for) a
    tournament on a server of shard 1; the one serving every shard advances both."""
    even, odd = 2 << 22, 3 << 22  # shard_of: 0 and 1 of 2
    tables, service = await services(database, Venue())
    for n, guild in enumerate((even, odd)):
        await service.create(guild, CHANNEL + n, ALICE, "pig", Plan("swiss", 2, 1), options={"target": 20})
    ids = {guild: (await service.in_channel(CHANNEL + n)).id for n, guild in enumerate((even, odd))}  # type: ignore[union-attr]
    await close(tables)

    for shards, expected in ((parse("0", 2), [ids[even]]), (None, [ids[even], ids[odd]])):
        store = await open_store(database)
        tables = TableService(store, SeededDice(3), clock=Clock(), run_dispatcher=False, auto_bots=False, shards=shards)
        await tables.start()
        service = TournamentService(store, tables, Venue(), clock=tables.clock)
        advanced: list[int] = []

        async def advance(tid: int, advanced: list[int] = advanced) -> None:
            advanced.append(tid)

        monkeypatch.setattr(service, "advance", advance)
        try:
            await service.start_up()
            assert advanced == expected
        finally:
            await close(tables)
