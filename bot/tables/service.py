"""The table service: one table per channel, lobby -> act -> commit -> publish.

Every change takes the table's lock, applies the engine, commits, and only then hands the events to the presenter.
Persistence is an append-only action log with snapshots (issue 12): each move is one INSERT into ``actions`` (seat,
action text, interaction id, time, the dice the engine drew during it as ``RecordingDice`` JSON, the deadline it
left); the games row (state, meta: timeouts, public log, guard) is a snapshot, rewritten every ``SNAPSHOT_EVERY``
moves, at status changes and at round ends (``ROUND_ENDS``). ``games.version`` is the snapshot's version; the live
version is the last action's seq.

The rooms beside it: restore (``bot.tables.restore``, older rows converted once by ``bot.tables.upgrade``); a
restored table is brought up to date when first handed out (``table()``, ``by_id``, ``by_channel``); the lobby's
rules (``lobby``), per-server settings (``settings``), dice (``dice``), a game's end (``results``), and the timers
(``deadlines``) and computer players (``computers``), which reach the service only through ``port.TablePort``.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from typing import Any

from bot.games import Action, Event, get_engine
from bot.games.dice import DiceSource
from bot.games.logged import TIMEOUT
from bot.shards import Shards
from bot.store import Store, repo
from bot.store.sql import Statement, Step
from bot.tables import lobby, restore, results
from bot.tables.actions import parsed
from bot.tables.computers import Computers
from bot.tables.deadlines import Deadlines, forfeit_events, timed_out
from bot.tables.dice import DiceFactory, TableDice
from bot.tables.host import HostCommands
from bot.tables.lookup import Lookup
from bot.tables.model import Entry, LogEntry, Seat, Table, TableError, interaction_key, require_open
from bot.tables.port import NullPresenter, Presenter, Watchers
from bot.tables.rematch import RematchCommands
from bot.tables.retention import Retention, compact_expired, retention_days
from bot.tables.settings import Settings, SettingsCommands, validate_options
from bot.tables.upgrade import upgrade

log = logging.getLogger(__name__)

__all__ = ["DiceFactory", "NotOurShard", "Presenter", "TableService"]

LOBBY_IDLE = 15 * 60.0
# Moves between snapshots of the games row: restore replays fewer than this many per table (3.5 on average).
# Measured (500 tables, 100,000 moves): 16 -> 8 costs +0.26 KB of WAL and ~3 us of SQLite CPU per move, and halves
# the replay at start-up; 4 would cost +0.76 KB and ~6 us.
SNAPSHOT_EVERY = 8
# Events that end a round (or start the next): a cheap moment for a snapshot.
ROUND_ENDS = frozenset({"reveal", "round_over", "round_start", "round_void", "hand_started"})


class NotOurShard(Exception):
    """A create for a guild of another process's shard. Discord routes a guild's interactions to its shard's
    connection, so no person can cause this: it is a wiring mistake (a shard range that changed under the process)."""


class TableService(SettingsCommands, HostCommands, RematchCommands):
    """Implements ``bot.tables.port.TablePort`` for its timers and computer players."""

    def __init__(
        self,
        store: Store,
        dice: DiceSource | DiceFactory | None = None,
        presenter: Presenter | None = None,
        clock: Callable[[], float] = time.time,
        run_dispatcher: bool = True,
        bot_delay: tuple[float, float] = (0.8, 2.5),
        auto_bots: bool = True,
        retention: float | None = None,
        shards: Shards | None = None,
    ) -> None:
        """``dice``: None (provably fair dice per table), a factory, or one shared source (``bot.tables.dice``).
        ``shards``: the guilds this process serves (None: all); another process owns the rest of the store.
        ``retention``: days a finished game keeps its per-move rows (None: ``DICETAVERN_RETENTION_DAYS``, 90;
        0: forever), compacted by a task that runs with the dispatcher (``run_dispatcher``). ``auto_bots`` False:
        the caller moves computer players itself (terminal play)."""
        self.store = store
        self.shards = shards or Shards.all()
        self.dice = TableDice(dice)
        self.clock = clock
        self.by_channel = Lookup(self.ensure_loaded)
        self.by_id = Lookup(self.ensure_loaded)
        self.server_settings = Settings(store)
        self._opening: dict[int, str] = {}  # channel id -> game of a create in flight there
        self.deadlines = Deadlines(self)
        self._run_dispatcher = run_dispatcher
        self.computers = Computers(self, bot_delay, auto_bots)
        self.presenter = presenter or NullPresenter()
        self.retention = Retention(store, clock, retention_days(retention), owned=self.owned("guild_id"))
        self.watchers = Watchers()  # told of each table's end (the tournaments); see port.TableWatcher

    @property
    def presenter(self) -> Presenter:
        return self._presenter

    @presenter.setter
    def presenter(self, presenter: Presenter) -> None:
        # The Discord presenter attaches after start(): it is told again of turns already past half time.
        self._presenter = presenter
        self.deadlines.presenter_changed()

    @property
    def bot_delay(self) -> tuple[float, float]:
        """Computer players' pause before a move: (shortest, longest) seconds."""
        return self.computers.delay

    @bot_delay.setter
    def bot_delay(self, delay: tuple[float, float]) -> None:
        self.computers.delay = delay

    # -- life cycle ---------------------------------------------------------------------------

    async def start(self) -> list[Table]:
        """Restore every open table (older rows converted first, once per database), re-arm its deadline, start the
        dispatcher; returns the tables as restored (a running one is loaded when it is first handed out)."""
        await self.server_settings.load_languages()
        await upgrade(self.store, self.dice, self.clock())
        with restore.gc_paused():
            for table, turn_began in await restore.open_tables(self.store, self.owned("g.guild_id"), self.dice):
                self._index(table)
                self.deadlines.rearm(table, turn_began)
        if self._run_dispatcher:
            self.deadlines.start()
            self.retention.start()  # its first pass runs now, beside the start-up, not before it
        for table in self.by_id.peek_all():  # only tables with computer players could move now: the rest wait
            if any(seat.is_bot for seat in table.seats) and self.ensure_loaded(table):
                self.computers.schedule(table)
        return self.by_id.peek_all()

    async def owed_ends(self) -> list[Table]:
        """This process's finished tables whose end message is still owed (``bot.tables.restore.owed_ends``)."""
        return await restore.owed_ends(self.store, self.owned("g.guild_id"), self.dice)

    async def stop(self) -> None:
        """Stop firing deadlines and wait for in-flight actions to finish."""
        await self.deadlines.stop()
        await self.retention.stop()
        await self.computers.stop()
        await self.watchers.settle()  # what a table's end began (a tournament's next round) before the store closes
        for table in self.by_id.peek_all():
            async with table.lock:
                pass

    def ensure_loaded(self, table: Table) -> bool:
        """Bring a restored table up to date if it is not yet (``bot.tables.restore.load``); False: it could not
        be, and it is closed (in memory only: the database keeps it as it is)."""
        if table.pending is None or restore.load(table):
            return True
        self._drop(table)
        return False

    def owned(self, column: str) -> str | None:
        """The SQL condition on ``column`` (a guild id) for this process's guilds; None when it owns them all."""
        return None if self.shards.everything else self.shards.sql(column)

    def _index(self, table: Table) -> None:
        self.by_id.put(table.id, table)
        self.by_channel.put(table.channel_id, table)

    def _drop(self, table: Table) -> None:
        self.by_id.remove(table.id, table)
        self.by_channel.remove(table.channel_id, table)
        self.deadlines.forget(table.id)

    def table(self, channel_id: int) -> Table:
        """The channel's open table, loaded."""
        # by_channel.get(channel_id) without the Mapping's layers (every click comes here); pending: loaded first
        table = self.by_channel.peek(channel_id)
        if table is None or (table.pending is not None and not self.ensure_loaded(table)):
            raise TableError("no_table")
        return table

    def table_by_id(self, game_id: int) -> Table | None:
        return self.by_id.get(game_id)

    # -- settings (the rest of the /settings commands: bot.tables.settings.SettingsCommands) --------------------

    async def set_language(self, guild_id: int, language: str) -> list[Table]:
        """The server's language: every new table's, and every open table's whose host did not choose one (these
        are returned, shown again in it). An unknown code is refused and changes nothing."""
        switched = await self.server_settings.set_language(guild_id, language, self.by_id.peek_all())
        switched = [table for table in switched if self.ensure_loaded(table)]
        for table in switched:
            self.presenter.publish(table, [])  # the table message is drawn again, in the new language
        return switched

    # -- lobby --------------------------------------------------------------------------------

    async def create(
        self,
        guild_id: int,
        channel_id: int,
        host: Seat,
        game: str,
        options: dict[str, Any] | None = None,
        locale: str = "en",
        locale_chosen: bool = False,
        guests: Sequence[Seat] = (),
        logged: Sequence[Event] = (),
    ) -> Table:
        """``locale``: the table's language; ``locale_chosen``: the host chose it (the server's language then
        never changes it). ``guests``: seats taken with the host's (a rematch's computer players); ``logged``:
        events the new lobby's log starts with (a rematch's invitation)."""
        if not self.shards.owns(guild_id):
            log.error("a table was asked for in guild %s, of another shard than %s; refused", guild_id, self.shards)
            raise NotOurShard(guild_id)
        engine = get_engine(game)
        # One open table per channel: a create waits for no other channel's (its commit is an fsync), only a
        # second create in the same channel is refused while the first is in flight.
        existing = self.by_channel.peek(channel_id)
        if existing is not None or channel_id in self._opening:
            raise TableError("table_exists", game=existing.game if existing else self._opening[channel_id])
        self._opening[channel_id] = game
        try:
            defaults = (await self.guild_settings(guild_id)).game_options(game)
            chosen = validate_options(engine, {**defaults, **(options or {})}).to_dict()
            host = lobby.with_entropy(host)
            seats = lobby.opening_seats(engine, chosen, host, guests)
            now = self.clock()
            dice, fair = self.dice.new()  # drawn as the table opens: the commitment is public before any entropy
            table = Table(0, guild_id, channel_id, game, "lobby", host.id, chosen, seats, locale=locale)
            table.locale_chosen, table.dice, table.fair = locale_chosen, dice, fair
            table.add_log([(e.kind, e.data) for e in logged if e.public])
            fair_text = None if fair is None else self.dice.fair_json(fair)
            # the lobby row and its idle deadline in one transaction
            game_id, _ = await self.store.write(
                [repo.insert_game(lobby.new_row(table, now, fair_text)), repo.set_new_game_deadline(now + LOBBY_IDLE)]
            )
            assert game_id is not None  # an INSERT always has a row id
            table.id = game_id
            self.deadlines.arm(game_id, now + LOBBY_IDLE, 0)
            table.deadline = now + LOBBY_IDLE
            self._index(table)
        finally:
            del self._opening[channel_id]
        self.presenter.publish(table, [Event("lobby_open", {"host": 0}), *logged])
        return table

    async def join(self, channel_id: int, seat: Seat) -> Table:
        """``seat.entropy``: what the player adds to the client seed (the ``seed:`` text, else the join's
        interaction id), their part of it in seat order when the game starts."""
        seat = lobby.with_entropy(seat)
        table = self.table(channel_id)
        async with table.lock:
            lobby.check_join(table, seat)
            await self._save_lobby(table, table.seats + [seat])
            self.presenter.publish(table, [Event("joined", {"player": len(table.seats) - 1})])
        return table

    async def leave(self, channel_id: int, user_id: int) -> Table:
        table = self.table(channel_id)
        async with table.lock:
            require_open(table)
            seat = table.seat_of(user_id)
            if seat is None:
                raise TableError("not_a_player")
            if table.running:
                (state, events), dice = self.dice.draw(table, table.engine.forfeit, table.state, seat)
                await self._commit(table, state, forfeit_events(events, "leave"), [(seat, "forfeit:leave", None, dice)])
                return table
            lobby.require_lobby(table)
            await self._remove_seat(table, seat, Event("left", {"name": table.seats[seat].name}))
        return table

    async def _remove_seat(self, table: Table, seat: int, event: Event) -> None:
        seats, host_id, events = lobby.without_seat(table, seat, event)
        if host_id is None:
            await self._close(table, "cancelled", reason="empty", seats=seats)  # the closed lobby without them
            return
        await self._save_lobby(table, seats, host_id, events)
        self.presenter.publish(table, events)

    async def add_computer(self, channel_id: int, user_id: int, level: str, name: str) -> Table:
        return await self.join(channel_id, lobby.computer_seat(self.table(channel_id), user_id, level, name))

    async def _save_lobby(
        self,
        table: Table,
        seats: list[Seat],
        host_id: int | None = None,
        logged: list[Event] | None = None,
        options: dict[str, Any] | None = None,
    ) -> None:
        """Commit the lobby's new seats (and host, ``logged`` events for the table log, new ``options``), then
        change the table in memory."""
        now = self.clock()
        host_id = table.host_id if host_id is None else host_id
        entries = [(e.kind, e.data) for e in logged or []]
        extra: dict[str, Any] = {"meta": table.meta(entries)} if entries else {}
        if options is not None:
            extra["options"] = options
        await self.store.write(
            [
                repo.update_game(table.id, now, seats=[s.to_json() for s in seats], host_id=host_id, **extra),
                repo.set_deadline(table.id, now + LOBBY_IDLE, table.version),
            ]
        )
        table.seats, table.host_id = seats, host_id
        if options is not None:
            table.options = options
        table.add_log(entries)
        table.deadline = now + LOBBY_IDLE
        self.deadlines.arm(table.id, table.deadline, table.version)

    async def cancel(self, channel_id: int, user_id: int, is_admin: bool = False) -> Table:
        table = self.table(channel_id)
        async with table.lock:
            require_open(table)
            allowed = await self.watchers.may_cancel(table, user_id, is_admin)
            if allowed is False:  # a tournament's table: only the tournament's host (or an admin)
                raise TableError("tournament_only_host")
            if allowed is None and user_id != table.host_id and not is_admin:
                raise TableError("only_host_or_admin")
            await self._close(table, "cancelled", reason="cancelled")
        return table

    async def close(self, table: Table, reason: str, version: int) -> bool:
        """The port's close (a lobby left idle): only if the table is still at ``version`` with a deadline."""
        async with table.lock:
            if table.version != version or table.deadline is None:
                return False
            await self._close(table, "cancelled", reason=reason)
        return True

    async def _close(self, table: Table, status: str, reason: str, seats: list[Seat] | None = None) -> None:
        """Close the table; ``seats``: the lobby's seats as it closes (without a last player who left)."""
        now = self.clock()
        reveal = results.reveal(table)
        closed = [("closed", {"reason": reason})] + [(e.kind, e.data) for e in reveal]
        changed: dict[str, Any] = {} if seats is None else {"seats": [s.to_json() for s in seats]}
        if table.state is not None:  # a status change: the snapshot catches up with the log
            changed.update(state=table.engine.dumps(table.state), version=table.version)
            if table.fair is not None and table.chain is not None:  # a started game cancelled: its head, revealed
                changed["fair"] = self.dice.started_json(table, table.fair, table.chain)
        await self.store.write(
            [
                repo.update_game(table.id, now, status=status, meta=table.meta(closed), **changed),
                repo.set_deadline(table.id, None, table.version),
            ]
        )
        if seats is not None:
            table.seats = seats
        table.add_log(closed)
        table.status = status
        table.deadline = None
        self._drop(table)
        self.presenter.publish(table, [Event("closed", {"reason": reason}), *reveal])
        await self.watchers.table_closed(table)

    # -- playing ------------------------------------------------------------------------------

    async def act(
        self,
        channel_id: int,
        user_id: int,
        action: Action | str,
        interaction_id: str | None = None,
        seen_version: int | None = None,
    ) -> tuple[Table, list[Event]]:
        """Apply a player's action. Raises TableError or IllegalMove (with nothing changed).

        ``seen_version`` is the table version the player's button was drawn at: a second click of the
        same button (a double click, a lagging client) finds the player has acted since, and applies once.
        """
        action, text = parsed(action)
        table = self.table(channel_id)
        async with table.lock:
            if interaction_id is not None and interaction_key(interaction_id) in table.seen:
                raise TableError("duplicate")
            if seen_version is not None and table.acted.get(user_id, -1) > seen_version:
                raise TableError("duplicate")
            require_open(table)
            if not table.running:
                raise TableError("not_running")
            seat = table.seat_of(user_id)
            if seat is None:
                raise TableError("not_a_player")
            (state, events), dice = self.dice.draw(table, table.engine.apply, table.state, seat, action)
            table.timeouts[seat] = 0
            # _commit moves the double-click guard (table.acted): a button drawn before this move is stale. A slash
            # command (no seen_version) is deliberate and never refused, but it moves the guard too: start()
            # restores it from the snapshot and the log, which do not tell buttons from commands.
            await self._commit(table, state, events, [(seat, text, interaction_id, dice)])
            return table, events

    def view(self, channel_id: int, user_id: int) -> tuple[Table, dict[str, Any]]:
        table = self.table(channel_id)
        if table.state is None:
            raise TableError("not_running")
        return table, table.engine.view(table.state, table.seat_of(user_id))

    async def expire(self, table: Table, version: int) -> bool:
        """The port's expiry of a turn: each seat still to act times out; ``MAX_TIMEOUTS`` in a row forfeit it."""
        async with table.lock:
            if table.version != version or table.deadline is None or not table.running:
                return False
            state, events, entries = timed_out(table, self.dice.draw)
            if entries:
                await self._commit(table, state, events, entries)
        return True

    async def _commit(
        self,
        table: Table,
        state: Any,
        events: list[Event],
        entries: list[Entry],
        status: str = "running",
    ) -> None:
        """Persist the action log entries (and a snapshot when one is due), then publish."""
        engine = table.engine
        now = self.clock()
        before = table.version
        links = self.dice.links(table, entries)
        head = links[-1] if links else table.chain
        moved: dict[int, int] = {}  # a player's own moves; a timeout or forfeit is the service's doing (see start())
        for i, (seat, text, _, _) in enumerate(entries, before + 1):
            if seat is not None and text != TIMEOUT and not text.startswith("forfeit:"):
                moved[table.seats[seat].id] = i
        outcome = engine.outcome(state)
        if outcome is not None:
            status = "finished"
            # the seed goes public with the end (and into the log), and the chain's head with it
            events = [*events, *results.reveal(table, head)]
        version = before + len(entries)
        public: list[LogEntry] = []
        round_end = False
        for kind, data, to in events:
            if to is None:
                public.append((kind, data))
            if kind in ROUND_ENDS:
                round_end = True
        due = None if outcome is not None else now + await self.turn_timeout(table.guild_id)
        statements: list[Statement | Step] = [
            repo.insert_action(table.id, before + i + 1, seat, text, iid, now, dice, due, links[i])
            for i, (seat, text, iid, dice) in enumerate(entries)
        ]
        changed = status != table.status
        snapshot = changed or version - table.snapshot_version >= SNAPSHOT_EVERY or round_end
        if snapshot:
            fields: dict[str, Any] = {}
            fair = table.fair
            if fair is not None and (table.status == "lobby" or outcome is not None):
                # the start fixes the client seed and the start value; the end adds the chain's head
                fields["fair"] = self.dice.started_json(table, fair, head if outcome is not None else None)
            if changed:  # (an unchanged status is left out: setting it costs SQLite the indexes that read it)
                fields["status"] = status
            meta = table.meta(public, moved)
            statements.append(
                repo.update_game(table.id, now, state=engine.dumps(state), version=version, meta=meta, **fields)
            )
        if changed:  # a running game's deadline is its last action's; the deadlines row is the lobby's (or gone)
            statements.append(repo.set_deadline(table.id, due, version))
        if outcome is not None:
            statements += results.result_statements(table, outcome, now)
            if any(not seat.is_bot for seat in table.seats):  # someone to tell: owed until the presenter sent it
                statements.append(repo.owe_end(table.id))
        try:
            await self.store.write(statements)  # committed: from here on nothing is lost
        except BaseException:
            self.dice.rewind(table)
            raise
        if (fair := table.fair) is not None:
            table.draws = fair.nonce
        table.state, table.version, table.status, table.deadline = state, version, status, due
        table.chain = head
        if snapshot:
            table.snapshot_version = version
        table.add_log(public)
        if moved:
            table.acted.update(moved)
        seen = table.seen
        for _, _, iid, _ in entries:
            if iid:
                seen.append(interaction_key(iid))
        if due is not None:
            self.deadlines.arm_turn(table.id, due, now + (due - now) / 2, version)
        if outcome is not None:
            self._drop(table)
        self.presenter.publish(table, events)
        self.computers.schedule(table)
        if outcome is not None:
            await self.watchers.table_closed(table)

    # -- retention and deadlines --------------------------------------------------------------

    async def compact(self, now: float | None = None) -> int:
        """Compact the games past the retention period at ``now`` (the clock's time by default); how many."""
        when = self.clock() if now is None else now
        return await compact_expired(self.store, when, self.retention.days, owned=self.retention.owned)

    async def run_due(self, now: float | None = None) -> int:
        """Fire every deadline due by ``now`` (when there is no dispatcher); returns how many fired."""
        return await self.deadlines.run_due(now)
