"""The tournament service (issue 28): sign-up, seeding, opening each round's tables, reading their results.

The pure engine (``bot.tournaments``: pairing, standings) decides; this runs it against the store
(``bot.store.tournaments``, migration 0014) and the table service. It keeps nothing in memory but per-tournament
locks: every step is read from and committed to the database before anyone is told.

Lifecycle
---------
- ``create`` (status ``signup``; one open tournament per channel) -> ``join`` / ``leave`` / ``remove`` -> ``start``
  by the host or an admin (the plan checked against the entrants, each entrant seeded by their rating ordinal in the
  game this season, ``bot.store.ratings``; a newcomer 0) -> ``running`` -> ``finished`` (``is_over``) or
  ``cancelled`` (``cancel``: its open tables are cancelled with it). ``set_paused``: no new round opens while paused.
- A round: its pairings (tables and byes) in one write, then each table's channel (``Venue.open_channel``: a thread,
  or None: the tournament's channel, where its tables queue one at a time), then the table itself (``TableService
  .create`` with every player seated, then ``start_game``) and its game id; then one announcement
  (``Venue.announce(t, "round", ...)``), marked sent first (a crash loses it rather than repeating it).
- A table's end reaches the service through the table service's watchers (``bot.tables.port.TableWatcher``: this
  service appends itself to ``TableService.watchers``): ``table_closed`` runs after the end is committed and starts
  ``advance`` as a task (``settle`` waits for it; ``TableService.stop`` does), which opens a queued table, else
  (the round's tables all done) pairs the next round, else ends the tournament (``announce(t, "over", {winners,
  standings})``). An ordinary table ending in a running tournament's channel starts it too (a queued table may
  open there now).
- A table's outcome is its game's ``results`` (rated like any game). A player who never acted and forfeited by the
  table's own turn deadline (``MAX_TIMEOUTS`` timeouts, ``bot.tables.deadlines``) is a no-show. A table cancelled by
  the tournament's host (or an admin; anyone else is refused, ``tournament_only_host``, through the watcher's
  ``may_cancel``), or closed any other way, is a no-contest: all its players share place 1 (in a Swiss or a round
  robin each scores as a draw; in a knockout the better seed goes on, as docs/TOURNAMENTS.md says). A withdrawn or
  removed player's running table is forfeited for them.
- Restart: ``start_up`` (after ``TableService.start``, once the venue can open threads) calls ``advance`` for every
  running tournament, so a table that finished while the bot was down counts, a round owed opens, an unannounced
  round is announced. Opening is idempotent: a table with a game id is never opened again (a lobby left by a crash
  between its create and its start is started), one without is opened, or adopted from its channel after a crash
  between ``create`` and the game id's write.

Refusals: ``TableError`` codes ``tournament_none``, ``tournament_exists``, ``tournament_started``,
``tournament_joined``, ``tournament_full`` (max), ``tournament_not_joined``, ``tournament_only_host``,
``tournament_not_running``, ``tournament_paused``, ``tournament_not_paused``, ``tournament_not_entrant``; and the
engine's ``TournamentRefused`` (``format``, ``seats``, ``round_robin_seats``, ``entrants``, ``rounds``) from
``create`` and ``start``. A refusal changes nothing.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from bot.games import get_engine
from bot.store import ratings as rating_store
from bot.store import tournaments as store_t
from bot.store.db import Store
from bot.store.errors import IntegrityError
from bot.tables.model import Seat, Table, TableError
from bot.tables.service import TableService
from bot.tournaments import (
    Entrant,
    Outcome,
    Pairing,
    Plan,
    Round,
    Standing,
    TournamentRefused,
    check_plan,
    is_over,
    pair_round,
    standings,
    winners,
)

log = logging.getLogger(__name__)

MAX_ENTRANTS = 64  # a cap on sign-up: 32 tables of two at most in one round


class Venue(Protocol):
    """Where tables play and what people are told (the Discord cog; a recorder in tests)."""

    async def open_channel(self, tournament: store_t.TournamentRow, table: store_t.TableRow) -> int | None:
        """A new thread for ``table`` (its channel id), or None: play in the tournament's channel."""
        ...

    def announce(self, tournament: store_t.TournamentRow, kind: str, data: dict[str, Any]) -> None:
        """``kind``: round (data: round, tables, byes), over (winners, standings), cancelled, paused, resumed."""
        ...


class NullVenue:
    async def open_channel(self, tournament: store_t.TournamentRow, table: store_t.TableRow) -> int | None:
        return None

    def announce(self, tournament: store_t.TournamentRow, kind: str, data: dict[str, Any]) -> None:
        pass


@dataclass(frozen=True)
class Snapshot:
    """A tournament as the engine sees it, with its row."""

    row: store_t.TournamentRow
    plan: Plan
    entrants: list[Entrant]
    rounds: list[Round]
    outcomes: list[Outcome]
    withdrawn: frozenset[int]

    def standings(self) -> list[Standing]:
        return standings(self.plan, self.entrants, self.rounds, self.outcomes, self.withdrawn)

    def name(self, user_id: int) -> str:
        for e in self.row.entrants:
            if e.user_id == user_id:
                return e.name
        return str(user_id)


class TournamentService:
    def __init__(
        self, store: Store, tables: TableService, venue: Venue | None = None, clock: Callable[[], float] = time.time
    ) -> None:
        self.store, self.tables, self.clock = store, tables, clock
        self.venue: Venue = venue or NullVenue()
        self._locks: dict[int, asyncio.Lock] = {}
        self._tasks: set[asyncio.Task[None]] = set()  # advances begun by a table's end (table_closed)
        tables.watchers.append(self)  # every table's end reaches table_closed (bot.tables.port.TableWatcher)

    def _lock(self, tournament_id: int) -> asyncio.Lock:
        return self._locks.setdefault(tournament_id, asyncio.Lock())

    # -- reading ------------------------------------------------------------------------------------------------

    async def in_channel(self, channel_id: int) -> store_t.TournamentRow | None:
        row = await self.store.fetch_one(
            "SELECT id FROM tournaments WHERE channel_id = ? AND status IN ('signup', 'running')", (channel_id,)
        )
        return None if row is None else await store_t.load(self.store, int(row[0]))

    async def of_table(self, game_id: int) -> store_t.TournamentRow | None:
        """The tournament whose table became the game ``game_id`` (any status), or None."""
        found = await store_t.game_of_table(self.store, game_id)
        return None if found is None else await store_t.load(self.store, found[0])

    async def _require(self, channel_id: int) -> store_t.TournamentRow:
        t = await self.in_channel(channel_id)
        if t is None:
            raise TableError("tournament_none")
        return t

    async def snapshot(self, t: store_t.TournamentRow) -> Snapshot:
        entrants = [Entrant(e.user_id, e.rating, e.joined) for e in t.entrants]
        withdrawn = frozenset(e.user_id for e in t.entrants if e.withdrawn)
        rounds: list[Round] = []
        outcomes: list[Outcome] = []
        for number in sorted(t.byes):
            tables = [x for x in t.tables if x.round == number]
            rounds.append(Round(number, tuple(Pairing(x.number, x.players) for x in tables), t.byes[number]))
            for x in tables:
                outcome = await self.outcome(x)
                if outcome is not None:
                    outcomes.append(outcome)
        return Snapshot(t, Plan.from_json(t.plan), entrants, rounds, outcomes, withdrawn)

    async def outcome(self, x: store_t.TableRow) -> Outcome | None:
        """The table's outcome: set by the tournament, or its finished game's results (no-shows apart)."""
        if x.outcome is not None:
            return Outcome.from_json(x.outcome)
        if x.game_id is None:
            return None
        status = await store_t.game_status(self.store, x.game_id)
        if status == "cancelled":  # cancelled some other way (the table service's own expiry): a no-contest
            return Outcome(x.round, x.number, {p: 1 for p in x.players})
        if status != "finished":
            return None
        places = await store_t.game_results(self.store, x.game_id)
        absent = await store_t.never_acted(self.store, x.game_id, range(len(x.players)))
        no_shows = frozenset(x.players[s] for s in absent)
        shown = {p: places.get(p, len(x.players)) for p in x.players if p not in no_shows}
        return Outcome(x.round, x.number, shown, no_shows)

    # -- sign-up ------------------------------------------------------------------------------------------------

    async def create(
        self,
        guild_id: int,
        channel_id: int,
        host: Seat,
        game: str,
        plan: Plan,
        locale: str = "en",
        options: dict[str, Any] | None = None,
    ) -> store_t.TournamentRow:
        """``options``: the tournament's game options over the game's defaults (validated by the first table)."""
        engine = get_engine(game)
        fewest, most = engine.player_range(engine.options({}))
        check_plan(Plan(plan.format, plan.seats), 2, most, fewest)  # the rounds are checked at the start
        if await self.in_channel(channel_id) is not None:
            raise TableError("tournament_exists")
        try:
            tid = await store_t.create(
                self.store,
                guild_id,
                channel_id,
                host.id,
                game,
                {**plan.to_json(), "options": options or {}},
                locale,
                self.clock(),
            )
        except IntegrityError as error:  # a second create racing the first
            raise TableError("tournament_exists") from error
        t = await store_t.load(self.store, tid)
        assert t is not None
        return t

    async def set_message(self, tournament_id: int, message_id: int) -> None:
        await self.store.write([store_t.update(tournament_id, self.clock(), message_id=message_id)])

    async def join(self, channel_id: int, seat: Seat) -> store_t.TournamentRow:
        t = await self._require(channel_id)
        async with self._lock(t.id):
            t = await self._fresh(t.id)
            if t.status != "signup":
                raise TableError("tournament_started")
            if any(e.user_id == seat.id for e in t.entrants):
                raise TableError("tournament_joined")
            if len(t.entrants) >= MAX_ENTRANTS:
                raise TableError("tournament_full", max=MAX_ENTRANTS)
            rating = await self._rating(t, seat.id)
            await self.store.write(
                [store_t.add_entrant(t.id, store_t.EntrantRow(seat.id, seat.name[:64], rating, self.clock()))]
            )
            return await self._fresh(t.id)

    async def leave(self, channel_id: int, user_id: int) -> store_t.TournamentRow:
        t = await self._require(channel_id)
        async with self._lock(t.id):
            t = await self._fresh(t.id)
            if not any(e.user_id == user_id and not e.withdrawn for e in t.entrants):
                raise TableError("tournament_not_joined")
            if t.status == "signup":
                await self.store.write([store_t.delete_entrant(t.id, user_id)])
            else:
                await self.store.write([store_t.withdraw(t.id, user_id)])
        await self._forfeit_open_table(t, user_id)
        return await self._fresh(t.id)

    async def _rating(self, t: store_t.TournamentRow, user_id: int) -> float:
        """The seed: the member's rating ordinal in the game this season (0, a newcomer's, when unrated)."""
        season = (await rating_store.seasons(self.store, t.guild_id))[0].number
        standing = await rating_store.standing(self.store, t.guild_id, season, t.game, user_id)
        return 0.0 if standing is None else float(standing.ordinal)

    def _check_host(self, t: store_t.TournamentRow, user_id: int, is_admin: bool) -> None:
        if user_id != t.host_id and not is_admin:
            raise TableError("tournament_only_host")

    async def start(self, channel_id: int, user_id: int, is_admin: bool = False) -> store_t.TournamentRow:
        t = await self._require(channel_id)
        async with self._lock(t.id):
            t = await self._fresh(t.id)
            self._check_host(t, user_id, is_admin)
            if t.status != "signup":
                raise TableError("tournament_started")
            engine = get_engine(t.game)
            fewest, most = engine.player_range(engine.options({}))
            check_plan(Plan.from_json(t.plan), len(t.entrants), most, fewest)
            # seeded by the ratings as the tournament starts (games played since joining count)
            seeds = [store_t.set_rating(t.id, e.user_id, await self._rating(t, e.user_id)) for e in t.entrants]
            await self.store.write([*seeds, store_t.update(t.id, self.clock(), status="running")])
        await self.advance(t.id)
        return await self._fresh(t.id)

    async def cancel(self, channel_id: int, user_id: int, is_admin: bool = False) -> store_t.TournamentRow:
        """The host (or an admin) ends the tournament; its open tables are cancelled with it."""
        t = await self._require(channel_id)
        async with self._lock(t.id):
            t = await self._fresh(t.id)
            self._check_host(t, user_id, is_admin)
            await self.store.write([store_t.update(t.id, self.clock(), status="cancelled")])
        # Outside the lock: each table's end comes back here (table_closed -> advance, which finds it cancelled).
        for x in t.tables:
            table = None if x.game_id is None else self.tables.table_by_id(x.game_id)
            if table is not None and table.status in ("lobby", "running"):
                await self.tables.cancel(table.channel_id, table.host_id, is_admin=True)
        t = await self._fresh(t.id)
        self.venue.announce(t, "cancelled", {})
        return t

    async def set_paused(self, channel_id: int, user_id: int, paused: bool, is_admin: bool = False) -> None:
        t = await self._require(channel_id)
        async with self._lock(t.id):
            t = await self._fresh(t.id)
            self._check_host(t, user_id, is_admin)
            if t.status != "running":
                raise TableError("tournament_not_running")
            if t.paused == paused:
                raise TableError("tournament_paused" if paused else "tournament_not_paused")
            await self.store.write([store_t.update(t.id, self.clock(), paused=paused)])
        self.venue.announce(await self._fresh(t.id), "paused" if paused else "resumed", {})
        if not paused:
            await self.advance(t.id)

    async def remove(self, channel_id: int, user_id: int, target_id: int, is_admin: bool = False) -> None:
        t = await self._require(channel_id)
        async with self._lock(t.id):
            t = await self._fresh(t.id)
            self._check_host(t, user_id, is_admin)
            if not any(e.user_id == target_id and not e.withdrawn for e in t.entrants):
                raise TableError("tournament_not_entrant")
            if t.status == "signup":
                await self.store.write([store_t.delete_entrant(t.id, target_id)])
            else:
                await self.store.write([store_t.withdraw(t.id, target_id)])
        await self._forfeit_open_table(t, target_id)

    async def _forfeit_open_table(self, t: store_t.TournamentRow, user_id: int) -> None:
        """A withdrawn player's seat at a running table of ``t`` forfeits (outside the tournament's lock: the table's
        end comes back through ``table_closed``)."""
        for x in t.tables:
            table = None if x.game_id is None else self.tables.table_by_id(x.game_id)
            if table is not None and table.running and table.seat_of(user_id) is not None:
                await self.tables.leave(table.channel_id, user_id)

    async def may_cancel_table(self, game_id: int, user_id: int, is_admin: bool) -> bool | None:
        """Whether ``user_id`` may cancel the table ``game_id``: a running tournament's only by its host or an admin;
        None when it is no running tournament's (the table's own rule then)."""
        found = await store_t.game_of_table(self.store, game_id)
        if found is None:
            return None
        t = await store_t.load(self.store, found[0])
        if t is None or t.status != "running":
            return None
        return is_admin or t.host_id == user_id

    # -- the table service's watcher (bot.tables.port.TableWatcher) -------------------------------------------

    async def may_cancel(self, table: Table, user_id: int, is_admin: bool) -> bool | None:
        return await self.may_cancel_table(table.id, user_id, is_admin)

    async def table_closed(self, table: Table) -> None:
        """A table ended: a tournament's (a cancelled one is a no-contest) brings its tournament forward; any other
        in a running tournament's channel frees it for a table queued there."""
        found = await store_t.game_of_table(self.store, table.id)
        if found is not None:
            if table.status == "cancelled":
                await self.no_contest(table.id)
            self._spawn(found[0])
            return
        t = await self.in_channel(table.channel_id)
        if t is not None and t.status == "running":
            self._spawn(t.id)

    def _spawn(self, tournament_id: int) -> None:
        """``advance`` in the background: the table's end (a player's last move, a deadline) is not kept waiting
        while the next round's threads and tables open. ``settle`` waits for it."""
        task = asyncio.create_task(self._advance_logged(tournament_id), name=f"tournament-{tournament_id}")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _advance_logged(self, tournament_id: int) -> None:
        try:
            await self.advance(tournament_id)
        except Exception:  # repaired by the next table's end or start_up
            log.exception("tournament %s could not be advanced", tournament_id)

    async def settle(self) -> None:
        """Wait until every table end heard so far has been acted on (``TableService.stop`` waits for it)."""
        while self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)

    async def _fresh(self, tournament_id: int) -> store_t.TournamentRow:
        t = await store_t.load(self.store, tournament_id)
        if t is None:
            raise TableError("tournament_none")
        return t

    # -- running ------------------------------------------------------------------------------------------------

    async def start_up(self) -> None:
        """After a restart: bring every running tournament forward (tables that ended while down, rounds owed)."""
        # this process's shards only: another process owns (and opens the tables of) the other servers' tournaments
        for tid in await store_t.open_ids(self.store, self.tables.owned("guild_id")):
            try:
                await self.advance(tid)
            except Exception:  # one tournament's trouble must not stop the others
                log.exception("tournament %s could not be advanced", tid)

    async def table_ended(self, game_id: int) -> None:
        found = await store_t.game_of_table(self.store, game_id)
        if found is not None:
            await self.advance(found[0])

    async def advance(self, tournament_id: int) -> None:
        """Open what is owed: the current round's unopened tables (and its announcement, once), else (its tables
        all done) the next round, else the end. Idempotent: called on each table's end and at start-up."""
        async with self._lock(tournament_id):
            t = await self._fresh(tournament_id)
            stale = 0
            while t.status == "running":
                snap = await self.snapshot(t)
                number = len(snap.rounds)
                if any(x.game_id is None or self._in_lobby(x) for x in t.tables if x.round == number):
                    await self._open_tables(t, [x for x in t.tables if x.round == number])
                    t = await self._fresh(tournament_id)
                if number and number not in t.announced:
                    await self._announce_round(t, number)  # committed first: a crash loses it rather than repeat it
                    t = await self._fresh(tournament_id)
                current = [x for x in t.tables if x.round == number]
                done = {(o.round, o.table) for o in snap.outcomes}
                if any((x.round, x.number) not in done for x in current):
                    return  # tables still playing (or queued behind one in the channel: its end brings us back)
                if is_over(snap.plan, snap.entrants, snap.rounds, snap.outcomes, snap.withdrawn):
                    await self.store.write([store_t.update(t.id, self.clock(), status="finished")])
                    t = await self._fresh(tournament_id)
                    win = winners(snap.plan, snap.entrants, snap.rounds, snap.outcomes, snap.withdrawn)
                    self.venue.announce(t, "over", {"winners": list(win), "standings": snap.standings()})
                    return
                if t.paused:
                    return
                nxt = pair_round(snap.plan, snap.entrants, snap.rounds, snap.outcomes, snap.withdrawn)
                rows = [store_t.TableRow(nxt.number, p.number, p.players) for p in nxt.tables]
                try:
                    await self.store.write(store_t.add_round(t.id, nxt.number, nxt.byes, rows))
                except IntegrityError:  # an entrant deleted (/privacy) since the snapshot: pair again
                    stale += 1
                    if stale > 3:
                        raise
                t = await self._fresh(tournament_id)

    def _in_lobby(self, x: store_t.TableRow) -> bool:
        opened = None if x.game_id is None else self.tables.by_id.peek(x.game_id)
        return opened is not None and opened.status == "lobby"

    async def _announce_round(self, t: store_t.TournamentRow, number: int) -> None:
        await self.store.write([store_t.mark_announced(t.id, number)])
        tables = [
            {"number": x.number, "players": list(x.players), "channel_id": x.channel_id, "game_id": x.game_id}
            for x in t.tables
            if x.round == number
        ]
        self.venue.announce(t, "round", {"round": number, "tables": tables, "byes": list(t.byes.get(number, ()))})

    async def _open_tables(self, t: store_t.TournamentRow, tables: Sequence[store_t.TableRow]) -> None:
        """Open each of ``tables`` that has no game yet; in the tournament's channel only one at a time (the rest
        wait there until it ends: ``advance`` comes back to them)."""
        for x in tables:
            if x.game_id is not None:
                opened = self.tables.table_by_id(x.game_id)
                if opened is not None and opened.status == "lobby":  # a crash between its create and its start
                    await self.tables.start_game(opened.channel_id, opened.host_id)
                continue
            channel = x.channel_id
            if channel is None:
                channel = await self.venue.open_channel(t, x) or t.channel_id
                await self.store.write([store_t.set_table(t.id, x.round, x.number, channel_id=channel)])
            existing = self.tables.by_channel.peek(channel)
            if existing is not None:
                if sorted(s.id for s in existing.seats) == sorted(x.players) and existing.game == t.game:
                    # opened before a crash, its game id not yet written: adopt it
                    await self.store.write([store_t.set_table(t.id, x.round, x.number, game_id=existing.id)])
                    if existing.status == "lobby":
                        await self.tables.start_game(channel, existing.host_id)
                continue  # the channel is busy (the in-channel queue): this table waits
            await self._open_one(t, x, channel)

    async def _open_one(self, t: store_t.TournamentRow, x: store_t.TableRow, channel: int) -> None:
        names = {e.user_id: e.name for e in t.entrants}
        seats = [Seat(p, names.get(p, str(p))) for p in x.players]
        options = dict(t.plan.get("options") or {})
        table = await self.tables.create(t.guild_id, channel, seats[0], t.game, options, t.locale, guests=seats[1:])
        await self.store.write([store_t.set_table(t.id, x.round, x.number, game_id=table.id)])
        await self.tables.start_game(channel, seats[0].id)

    async def no_contest(self, game_id: int) -> None:
        """A tournament table cancelled by the host: its outcome is written as a no-contest (all share place 1)."""
        found = await store_t.game_of_table(self.store, game_id)
        if found is None:
            return
        tid, number_round, number = found
        t = await self._fresh(tid)
        for x in t.tables:
            if (x.round, x.number) == (number_round, number) and x.outcome is None:
                outcome = Outcome(number_round, number, {p: 1 for p in x.players})
                await self.store.write([store_t.set_table(tid, number_round, number, outcome=outcome.to_json())])


__all__ = ["MAX_ENTRANTS", "NullVenue", "Snapshot", "TournamentRefused", "TournamentService", "Venue"]
