"""The table service: one table per channel, lobby -> running -> finished.

Every change takes the table's lock, applies the engine, commits, and only then hands the events to the
presenter. Deadlines live in the database and one dispatcher task fires them (``bot.tables.deadlines``);
computer players move through ``act()`` like people (``bot.tables.computers``).

Persistence is an append-only action log with snapshots (issue 12):

* Each move is one INSERT into ``actions``: seat, action text, interaction id, time, the dice the engine drew
  during it (``RecordingDice``: every ``roll``/``sample`` call in order, as JSON; NULL when none) and the
  deadline it left. Game history, replays and dice verification read these rows.
* The games row (state, meta: timeouts and public log, deadline) is a snapshot, rewritten every
  ``SNAPSHOT_EVERY`` moves, at status changes (start, finish, cancel) and at round ends (``ROUND_ENDS``).
  ``games.version`` is the snapshot's version; the live version is the last action's seq.
* ``start()`` restores each running table from its snapshot plus the actions after it, replayed through the
  engine with the recorded dice (``ReplayDice``: replay never draws) and the same bookkeeping ``act``,
  ``timeout`` and ``forfeit`` do, so state, log, timeout counters and deadline come back exactly. The replay (and
  the log's decoding) waits for the table's first use (``Table.defer_replay``): start-up reads what it must to
  serve (ids, channel, status, version, deadline, seats); a table that turns out not to replay closes then. Rows from
  before the log (no dice) all lie at or before their snapshot: the game row was written every move then.
"""

from __future__ import annotations

import gc
import logging
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from typing import Any, Protocol, TypeVar, cast

from bot.games import Action, Event, InvalidOptions, get_engine
from bot.games.dice import DiceSource, RecordingDice, ReplayDice, SecureDice
from bot.games.fair import FairDice, client_seed_from, count_draws
from bot.games.logged import FORFEIT, TIMEOUT, apply_logged
from bot.jsontext import dumps, loads
from bot.store import Store, ratings, repo
from bot.tables.computers import Computers
from bot.tables.deadlines import Deadlines, forfeit_events
from bot.tables.model import SEEN, Seat, Table, TableError, check_language, interaction_key, split_meta
from bot.tables.retention import Retention, compact_expired, retention_days
from bot.tables.shards import Shards

log = logging.getLogger(__name__)

DEFAULT_TIMEOUT = 120.0
TIMEOUT_RANGE = (15, 3600)
LOBBY_IDLE = 15 * 60.0
# Moves between snapshots of the games row: restore replays fewer than this many per table (3.5 on average).
# Measured (500 tables, 100,000 moves): 16 -> 8 costs +0.26 KB of WAL and ~3 us of SQLite CPU per move, and halves
# the replay at start-up; 4 would cost +0.76 KB and ~6 us.
SNAPSHOT_EVERY = 8
# Events that end a round (or start the next): a cheap moment for a snapshot.
ROUND_ENDS = frozenset({"reveal", "round_over", "round_start", "round_void", "hand_started"})
# A log entry as the service builds it: (seat, action text, interaction id, dice JSON).
Entry = tuple[int | None, str, str | None, str | None]
# Where each table's dice come from: called as a table opens (FairDice.new: a fresh secret seed per table).
DiceFactory = Callable[[], DiceSource]
ENTROPY_MAX = 100  # characters of a player's ``seed:`` text
R = TypeVar("R")


@contextmanager
def _gc_paused() -> Iterator[None]:
    """Restore builds many long-lived objects at once: collecting in between only finds nothing, many times."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


class Presenter(Protocol):
    """Shows a table to people. Must return quickly: network work is scheduled, not awaited.

    A presenter may also have ``remind(table, user_ids, due)``: the turn of ``table.version`` is half over
    and these people have not acted (see ``Deadlines._remind``). It is called again for the same turn
    when a new presenter is attached, so it must ignore a turn it already reminds about.
    """

    def publish(self, table: Table, events: list[Event], *, refresh: bool = True) -> None: ...


class NullPresenter:
    def publish(self, table: Table, events: list[Event], *, refresh: bool = True) -> None:
        pass


def _dice_sources(dice: DiceSource | DiceFactory | None) -> tuple[DiceSource | None, DiceFactory | None]:
    """(the shared source, or None; the factory, or None): exactly one of them is set."""
    if dice is None:
        return None, FairDice.new
    if hasattr(dice, "roll"):  # a source: SeededDice, ScriptedDice, even one FairDice for every table
        return cast(DiceSource, dice), None
    return None, dice


class NotOurShard(Exception):
    """A create for a guild of another process's shard. Discord routes a guild's interactions to its shard's
    connection, so no person can cause this: it is a wiring mistake (a shard range that changed under the process)."""


class TableService:
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
        """``shards``: the guilds this process serves (None: every guild). Restore, deadlines, computer players,
        reminders and compaction concern those guilds' tables only; another process owns the rest of the store.

        ``retention``: days a finished game keeps its per-move rows (None: ``DICETAVERN_RETENTION_DAYS``, 90;
        0: forever); compacted by a background task that runs with the dispatcher (``run_dispatcher``).

        ``dice``: None (the default) gives every table its own provably fair dice (``FairDice.new`` as it opens;
        the commitment is public from the lobby on, the seed revealed when the game is over); a factory gives each
        table what it returns (a FairDice is fair and persisted, anything else is used as it is); a DiceSource
        (tests' SeededDice, ScriptedDice) is shared by every table, and no seed is persisted."""
        self.store = store
        self.shards = shards or Shards.all()
        self.dice, self.dice_factory = _dice_sources(dice)
        self._recorder = RecordingDice(SecureDice())  # wraps the table's dice for each engine call (see _draw)
        self.clock = clock
        self.by_channel: dict[int, Table] = {}
        self.by_id: dict[int, Table] = {}
        self._settings: dict[int, dict[str, Any]] = {}
        self.languages: dict[int, str] = {}  # guild id -> its ``/settings language`` (read at start: clicks need it)
        self._opening: dict[int, str] = {}  # channel id -> game of a create in flight there
        self.deadlines = Deadlines(self)
        self._run_dispatcher = run_dispatcher
        # auto_bots False: the caller moves computer players itself (terminal play)
        self.computers = Computers(self, bot_delay, auto_bots)
        self.presenter = presenter or NullPresenter()
        self.retention = Retention(store, clock, retention_days(retention), owned=self._owned("guild_id"))

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
        """Load every open table, re-arm its deadline, start the dispatcher; returns the tables."""
        self.languages = await repo.guild_languages(self.store)
        with _gc_paused():
            await self._restore()
        if self._run_dispatcher:
            self.deadlines.start()
            self.retention.start()  # its first pass runs now, beside the start-up, not before it
        for table in self.by_id.values():
            if any(seat.is_bot for seat in table.seats):  # (only these could move now: the others stay unreplayed)
                self.computers.schedule(table)
        return list(self.by_id.values())

    async def _restore(self) -> None:
        rows = await repo.open_games(self.store, self._owned("g.guild_id"))
        due: dict[int, tuple[float, int]] = {}
        unguarded: set[int] = set()  # tables whose meta predates ``acted``: their guard comes from the log
        unseen: set[int] = set()  # tables whose meta predates ``seen``: their interaction ids come from the log
        uncounted: list[Table] = []  # fair tables whose snapshot does not say how many draws were made
        committed: list[Any] = []  # fair dice for lobbies opened before fair dice (their game has not started)
        states: dict[int, str] = {}  # running tables' snapshot states, decoded as their replay runs (see below)
        for row in rows:
            table, guarded = self._table_from_row(row, decode_state=False)
            self._index(table)
            if row["state"]:
                states[table.id] = row["state"]
            if row["fair"] is None and (fair := table.fair) is not None:  # a lobby given fair dice just now
                committed.append(repo.update_game(table.id, row["updated_at"], fair=self._fair_json(fair)))
            elif table.fair is not None and table.running and table.draws < 0:
                uncounted.append(table)
            if not guarded and table.running:
                unguarded.add(table.id)
            if table.running and not table.seen:  # (or it has none yet: the log then has none either)
                unseen.add(table.id)
            if row["due"] is not None:
                due[table.id] = (row["due"], row["deadline_version"])
        del rows  # the rows' JSON text is parsed: let it go before the next read
        tails = await repo.action_tails(self.store, self._owned("g.guild_id"))
        turn_starts: dict[int, float] = {}
        start = 0
        for end in range(1, len(tails) + 1):  # one game's rows at a time, in seq order
            if end < len(tails) and tails[end][0] == tails[start][0]:
                continue
            game_id = tails[start][0]
            open_table = self.by_id.get(game_id)
            if open_table is not None:
                last = tails[end - 1]
                turn_starts[game_id] = last["at"]
                replay = [r for r in tails[start:end] if r["seq"] > open_table.version]
                opened, state = True, states.pop(game_id, None)
                if game_id not in unguarded and game_id not in unseen and open_table.draws >= 0:  # at first use
                    open_table.version = replay[-1]["seq"] if replay else open_table.version
                    open_table.defer_replay(partial(self._finish_replay, state, tails[start:end]))
                else:
                    if game_id not in unseen:  # the snapshot's ids, then those of the moves logged since
                        self._see(open_table, tails[start:end])
                    if state:
                        open_table.state = open_table.engine.loads(state)
                    if replay:
                        opened = self._replay(open_table, replay)
                if opened and last["due"] is not None:
                    due[game_id] = (last["due"], last["seq"])  # else (a log from before 0004) the deadlines row
            start = end
        del tails
        for game_id, state in states.items():  # (a running game without a log: from before the actions table)
            self.by_id[game_id].state = self.by_id[game_id].engine.loads(state)
        for table in uncounted:  # never written so (every snapshot of a fair game counts): count the log instead
            fair = table.fair
            assert fair is not None
            fair.nonce = table.draws = await repo.logged_draws(self.store, table.id)
        if committed:
            await self.store.write(committed)
        for table in list(self.by_id.values()):
            armed = due.get(table.id)
            table.deadline = armed[0] if armed else None
            if armed:
                self.deadlines.arm(table.id, armed[0], armed[1])
            started = turn_starts.get(table.id)
            if started is not None and table.deadline is not None:  # a turn past half time is reminded at once
                self.deadlines.arm_half(table.id, (started + table.deadline) / 2, table.version)
        recent = await repo.recent_interactions(self.store, SEEN, unseen) if unseen else {}
        for game_id, interaction_ids in recent.items():
            if game_id in self.by_id:
                self.by_id[game_id].seen.extend(reversed(interaction_ids))
        for game_id, seat, seq in await repo.last_moves(self.store, SEEN) if unguarded else []:
            found = self.by_id.get(game_id)  # the double-click guard, as act() left it before the restart
            if found is not None and game_id in unguarded and 0 <= seat < len(found.seats):
                found.acted[found.seats[seat].id] = max(seq, found.acted.get(found.seats[seat].id, -1))

    def _owned(self, column: str) -> str | None:
        """The SQL condition on ``column`` (a guild id) for this process's guilds; None when it owns them all."""
        return None if self.shards.everything else self.shards.sql(column)

    @staticmethod
    def _see(table: Table, rows: list[Any]) -> None:
        """Add the interaction ids of ``rows`` (from the snapshot's own move on) to those the snapshot holds.

        A snapshot is written before its own move's id joins ``seen`` (``_commit``), so that one is added here,
        unless the snapshot already has it (one written after the move, as ``_close`` does)."""
        seen, snapshot = table.seen, table.snapshot_version
        for row in rows:
            iid = row["interaction_id"]
            if iid:
                key = interaction_key(iid)
                if row["seq"] > snapshot or key not in seen:
                    seen.append(key)

    def _finish_replay(self, state: str | None, tail: list[Any], table: Table) -> None:
        """A deferred restore, at the table's first use after start-up (``Table.defer_replay``): the snapshot's
        state decoded, the interaction ids of its ``tail`` (its actions from the snapshot's own on) seen, the moves
        after it replayed."""
        self._see(table, tail)
        rows = [r for r in tail if r["seq"] > table.snapshot_version]
        try:
            if state:
                table.state = table.engine.loads(state)
        except Exception:
            log.exception("game %s has a state that does not load; left closed in memory", table.id)
            self._drop(table)
            rows, table.state = [], None
        if table.state is None or (rows and not self._replay(table, rows)):
            table.status = "cancelled"  # in memory only, as if never opened: what holds it refuses, nothing is written
            table.deadline = None
            raise TableError("no_table")

    def _replay(self, table: Table, rows: list[Any]) -> bool:
        """Apply the logged actions after the snapshot, with their recorded dice, as act/timeout/forfeit did.

        A table whose log does not replay (an engine changed incompatibly) is not opened: it stays in the
        database as it is, and the error is logged.
        """
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
            self._drop(table)
            return False
        table.state, table.version, table.timeouts = state, rows[-1]["seq"], timeouts
        table.add_log(log_entries)
        table.acted.update(acted)
        fair = table.fair
        if fair is not None and table.draws >= 0:
            fair.nonce = table.draws = table.draws + drawn
        return True

    async def stop(self) -> None:
        """Stop firing deadlines and wait for in-flight actions to finish."""
        await self.deadlines.stop()
        await self.retention.stop()
        await self.computers.stop()
        for table in list(self.by_id.values()):
            async with table.lock:
                pass

    def _table_from_row(self, row: Any, decode_state: bool = True) -> tuple[Table, bool]:
        """The table as its snapshot has it, and whether that snapshot held the double-click guard (its state left
        undecoded without ``decode_state``)."""
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
        guarded = table.load_meta(meta, log_text)
        if row["state"] and decode_state:
            table.state = table.engine.loads(row["state"])
        stored = loads(row["fair"]) if row["fair"] else None
        if stored is not None:  # the stream as it was: the same seed and client seed, on from the snapshot's draws
            table.draws = meta.get("draws", 0 if table.status == "lobby" else -1)  # -1: count the log (_restore)
            table.dice = table.fair = FairDice.from_hex(
                stored["seed"], stored.get("client_seed") or "", max(table.draws, 0)
            )
        elif table.status == "lobby":
            table.dice, table.fair = self._new_dice()  # opened before fair dice: the commitment is made now
        else:  # a game started before fair dice: its draws cannot be verified, so no seed is made up for it
            dice, fair = self._new_dice()
            table.dice = SecureDice() if fair is not None else dice
        return table, guarded

    def _new_dice(self) -> tuple[DiceSource, FairDice | None]:
        """A new table's dice, and the same as its own fair dice if they are: the shared source (never fair), or a
        fresh one from the factory (a FairDice: a new secret seed, this table's alone)."""
        if self.dice is not None:
            return self.dice, None
        assert self.dice_factory is not None
        dice = self.dice_factory()
        return dice, dice if isinstance(dice, FairDice) else None

    @staticmethod
    def _fair_json(fair: FairDice, started: bool = False) -> str:
        """games.fair for a table's dice: the client seed only once the game started (it is fixed then)."""
        return repo.fair_json(fair.commitment, fair.client_seed if started else None, fair.reveal())

    def _index(self, table: Table) -> None:
        self.by_id[table.id] = table
        self.by_channel[table.channel_id] = table

    def _drop(self, table: Table) -> None:
        self.by_id.pop(table.id, None)
        if self.by_channel.get(table.channel_id) is table:
            del self.by_channel[table.channel_id]
        self.deadlines.forget(table.id)

    # -- settings -----------------------------------------------------------------------------

    async def settings(self, guild_id: int) -> dict[str, Any]:
        if guild_id not in self._settings:
            self._settings[guild_id] = await repo.guild_settings(self.store, guild_id)
        return self._settings[guild_id]

    async def turn_timeout(self, guild_id: int) -> float:
        return float((await self.settings(guild_id)).get("timeout", DEFAULT_TIMEOUT))

    async def set_timeout(self, guild_id: int, seconds: int | None) -> None:
        if seconds is not None and not TIMEOUT_RANGE[0] <= seconds <= TIMEOUT_RANGE[1]:
            raise TableError("bad_timeout", lo=TIMEOUT_RANGE[0], hi=TIMEOUT_RANGE[1])
        await self._set_setting(guild_id, "timeout", seconds)

    async def reminders_on(self, guild_id: int) -> bool:
        return bool((await self.settings(guild_id)).get("reminders", True))

    async def set_reminders(self, guild_id: int, on: bool) -> None:
        """Turn reminders at half of the turn time, on (the default) or off for this server."""
        await self._set_setting(guild_id, "reminders", None if on else False)

    async def global_on(self, guild_id: int) -> bool:
        """Whether the server's members are on the cross-server board (``/settings global``; off by default)."""
        return bool((await self.settings(guild_id)).get("global", False))

    async def set_global(self, guild_id: int, on: bool) -> None:
        await self._set_setting(guild_id, "global", True if on else None)

    def server_language(self, guild_id: int | None) -> str | None:
        """The server's ``/settings language``, None if it never set one (no read: loaded at start)."""
        return self.languages.get(guild_id) if guild_id is not None else None

    async def set_language(self, guild_id: int, language: str) -> list[Table]:
        """The server's language: every new table's, and every open table's whose host did not choose one (these
        are returned, shown again in it). An unknown code is refused and changes nothing."""
        check_language(language)
        settings = await self.settings(guild_id)
        switched = [
            table
            for table in self.by_id.values()
            if table.guild_id == guild_id and not table.locale_chosen and table.locale != language
        ]
        # In memory before the write is queued: a snapshot built before this joins the group commit ahead of it (its
        # meta's old locale is then overwritten), one built after already has the new locale.
        before = [(table, table.locale) for table in switched]
        for table in switched:
            table.locale = language
        try:
            await self.store.write(
                [repo.set_guild_setting(guild_id, "language", language)]
                + [repo.set_game_locale(table.id, language) for table in switched]
            )
        except BaseException:
            for table, locale in before:
                table.locale = locale
            raise
        settings["language"] = self.languages[guild_id] = language
        for table in switched:
            self.presenter.publish(table, [])  # the table message is drawn again, in the new language
        return switched

    async def set_default_options(self, guild_id: int, game: str, options: dict[str, Any] | None) -> dict[str, Any]:
        """Validate ``options`` with the engine and store them as the server's defaults (None resets)."""
        engine = get_engine(game)
        value = None
        if options is not None:
            merged = {**(await self.settings(guild_id)).get(f"options.{game}", {}), **options}
            value = self._validate_options(engine, merged).changed()
        await self._set_setting(guild_id, f"options.{game}", value)
        return value or {}

    async def _set_setting(self, guild_id: int, key: str, value: Any) -> None:
        settings = await self.settings(guild_id)
        await self.store.write([repo.set_guild_setting(guild_id, key, value)])
        if value is None:
            settings.pop(key, None)
        else:
            settings[key] = value

    @staticmethod
    def _validate_options(engine: Any, options: dict[str, Any]) -> Any:
        try:
            return engine.options(options)
        except InvalidOptions as error:
            raise TableError("bad_option", option=error.option, problem=error) from None  # error_text words it
        except (TypeError, ValueError):  # not an InvalidOptions: still a refusal in words, never Python's text
            log.warning("options %r refused without a reason code", options, exc_info=True)
            raise TableError("bad_option", option="values", problem=InvalidOptions("values", "invalid")) from None

    # -- lobby --------------------------------------------------------------------------------

    def table(self, channel_id: int) -> Table:
        table = self.by_channel.get(channel_id)
        if table is None:
            raise TableError("no_table")
        return table

    async def create(
        self,
        guild_id: int,
        channel_id: int,
        host: Seat,
        game: str,
        options: dict[str, Any] | None = None,
        locale: str = "en",
        locale_chosen: bool = False,
    ) -> Table:
        """``locale``: the table's language; ``locale_chosen``: the host chose it (the server's language then
        never changes it)."""
        if not self.shards.owns(guild_id):
            log.error("a table was asked for in guild %s, of another shard than %s; refused", guild_id, self.shards)
            raise NotOurShard(guild_id)
        engine = get_engine(game)
        # One open table per channel: a create waits for no other channel's (its commit is an fsync), only a
        # second create in the same channel is refused while the first is in flight.
        existing = self.by_channel.get(channel_id)
        if existing is not None or channel_id in self._opening:
            raise TableError("table_exists", game=existing.game if existing else self._opening[channel_id])
        self._opening[channel_id] = game
        try:
            defaults = (await self.settings(guild_id)).get(f"options.{game}", {})
            chosen = self._validate_options(engine, {**defaults, **(options or {})}).to_dict()
            host = self._with_entropy(host)
            now = self.clock()
            dice, fair = self._new_dice()  # drawn as the table opens: the commitment is public before any entropy
            row = {
                "guild_id": guild_id,
                "channel_id": channel_id,
                "game": game,
                "status": "lobby",
                "host_id": host.id,
                "options": chosen,
                "seats": [host.to_json()],
                "meta": {"timeouts": [], "log": [], "locale": locale, **({"chosen": True} if locale_chosen else {})},
                "now": now,
                "fair": None if fair is None else self._fair_json(fair),
            }
            # the lobby row and its idle deadline in one transaction
            game_id, _ = await self.store.write([repo.insert_game(row), repo.set_new_game_deadline(now + LOBBY_IDLE)])
            assert game_id is not None  # an INSERT always has a row id
            table = Table(game_id, guild_id, channel_id, game, "lobby", host.id, chosen, [host], locale=locale)
            table.locale_chosen = locale_chosen
            table.dice, table.fair = dice, fair
            self.deadlines.arm(game_id, now + LOBBY_IDLE, 0)
            table.deadline = now + LOBBY_IDLE
            self._index(table)
        finally:
            del self._opening[channel_id]
        self.presenter.publish(table, [Event("lobby_open", {"host": 0})])
        return table

    @staticmethod
    def _with_entropy(seat: Seat) -> Seat:
        """The seat with its ``seed:`` text checked (stripped; blank is none); a refusal names the limit."""
        if seat.entropy is None:
            return seat
        entropy = seat.entropy.strip()
        if len(entropy) > ENTROPY_MAX:
            raise TableError("seed_too_long", max=ENTROPY_MAX)
        return Seat(seat.id, seat.name, seat.level, entropy or None)

    async def join(self, channel_id: int, seat: Seat) -> Table:
        """``seat.entropy``: what the player adds to the client seed (the ``seed:`` text, else the join's
        interaction id), their part of it in seat order when the game starts."""
        seat = self._with_entropy(seat)
        table = self.table(channel_id)
        async with table.lock:
            self._require_lobby(table)
            if table.seat_of(seat.id) is not None:
                raise TableError("already_joined")
            _, most = table.engine.player_range(table.engine.options(table.options))
            if len(table.seats) >= most:
                raise TableError("table_full", max=most)
            await self._save_lobby(table, table.seats + [seat])
            self.presenter.publish(table, [Event("joined", {"player": len(table.seats) - 1})])
        return table

    async def leave(self, channel_id: int, user_id: int) -> Table:
        table = self.table(channel_id)
        async with table.lock:
            self._require_open(table)
            seat = table.seat_of(user_id)
            if seat is None:
                raise TableError("not_a_player")
            if table.running:
                await self._forfeit(table, seat, "leave")
                return table
            self._require_lobby(table)
            await self._remove_seat(table, seat, Event("left", {"name": table.seats[seat].name}))
        return table

    async def remove_player(self, channel_id: int, user_id: int, target_id: int, is_admin: bool = False) -> Seat:
        """The host (or a server manager) takes a person or computer player out of the lobby."""
        table = self.table(channel_id)
        async with table.lock:
            target = self._host_tool_target(table, user_id, target_id, is_admin, "only_host_remove")
            if target_id == user_id:
                raise TableError("remove_self")
            removed = table.seats[target]
            await self._remove_seat(table, target, Event("removed", {"name": removed.name}))
        return removed

    async def transfer_host(self, channel_id: int, user_id: int, target_id: int, is_admin: bool = False) -> Seat:
        """The host (or a server manager) hands the host role to another person in the lobby."""
        table = self.table(channel_id)
        async with table.lock:
            target = table.seats[self._host_tool_target(table, user_id, target_id, is_admin, "only_host_transfer")]
            if target.is_bot:
                raise TableError("host_to_computer")
            if target.id == table.host_id:
                raise TableError("already_host", name=target.name)
            event = Event("new_host", {"name": target.name})
            await self._save_lobby(table, table.seats, target.id, [event])
            self.presenter.publish(table, [event])
        return target

    def _host_tool_target(self, table: Table, user_id: int, target_id: int, is_admin: bool, refusal: str) -> int:
        """The seat of ``target_id`` if ``user_id`` may use the host's tools on it now; else a refusal."""
        self._require_lobby(table)
        if user_id != table.host_id and not is_admin:
            raise TableError(refusal)
        target = table.seat_of(target_id)
        if target is None:
            raise TableError("target_not_seated")
        return target

    async def _remove_seat(self, table: Table, seat: int, event: Event) -> None:
        """Take ``seat`` out of the lobby. A leaving host hands the role to the next person in seat order;
        with no person left the lobby closes."""
        gone = table.seats[seat]
        seats = table.seats[:seat] + table.seats[seat + 1 :]
        if not [s for s in seats if not s.is_bot]:
            await self._close(table, "cancelled", reason="empty", seats=seats)  # the closed lobby without them
            return
        events = [event]
        host_id = table.host_id
        if gone.id == table.host_id:
            after = table.seats[seat + 1 :] + table.seats[:seat]
            heir = next(s for s in after if not s.is_bot)
            host_id = heir.id
            events.append(Event("new_host", {"name": heir.name}))
        await self._save_lobby(table, seats, host_id, events)
        self.presenter.publish(table, events)

    async def add_computer(self, channel_id: int, user_id: int, level: str, name: str) -> Table:
        table = self.table(channel_id)
        if user_id != table.host_id:
            raise TableError("only_host")
        bots = sum(s.is_bot for s in table.seats)
        return await self.join(channel_id, Seat(-(bots + 1), name, level))

    async def _save_lobby(
        self, table: Table, seats: list[Seat], host_id: int | None = None, logged: list[Event] | None = None
    ) -> None:
        """Commit the lobby's new seats (and host, and ``logged`` events for the table log), then change the
        table in memory."""
        now = self.clock()
        host_id = table.host_id if host_id is None else host_id
        entries = [(e.kind, e.data) for e in logged or []]
        extra = {"meta": table.meta(entries)} if entries else {}
        await self.store.write(
            [
                repo.update_game(table.id, now, seats=[s.to_json() for s in seats], host_id=host_id, **extra),
                repo.set_deadline(table.id, now + LOBBY_IDLE, table.version),
            ]
        )
        table.seats, table.host_id = seats, host_id
        table.add_log(entries)
        table.deadline = now + LOBBY_IDLE
        self.deadlines.arm(table.id, table.deadline, table.version)

    @staticmethod
    def _require_open(table: Table) -> None:
        """A table closed while this request waited for its lock (or a stale control) is closed, not "started"."""
        if table.status not in ("lobby", "running"):
            raise TableError("table_closed")

    @classmethod
    def _require_lobby(cls, table: Table) -> None:
        cls._require_open(table)
        if table.status != "lobby":
            raise TableError("not_in_lobby")

    async def start_game(self, channel_id: int, user_id: int) -> Table:
        table = self.table(channel_id)
        async with table.lock:
            self._require_lobby(table)
            if user_id != table.host_id:
                raise TableError("only_host")
            engine = table.engine
            options = engine.options(table.options)
            fewest, _ = engine.player_range(options)
            if len(table.seats) < fewest:
                raise TableError("not_enough_players", min=fewest)
            fair = table.fair
            if fair is not None:  # the client seed is fixed now, from everyone's entropy in seat order
                table.dice = table.fair = fair.with_client_seed(client_seed_from([s.entry for s in table.seats]))
            (state, events), dice = self._draw(table, engine.new_game, len(table.seats), options)
            table.timeouts = [0] * len(table.seats)
            await self._commit(table, state, events, [(None, "start", None, dice)], status="running")
        return table

    async def cancel(self, channel_id: int, user_id: int, is_admin: bool = False) -> Table:
        table = self.table(channel_id)
        async with table.lock:
            self._require_open(table)
            if user_id != table.host_id and not is_admin:
                raise TableError("only_host_or_admin")
            await self._close(table, "cancelled", reason="cancelled")
        return table

    async def _close(self, table: Table, status: str, reason: str, seats: list[Seat] | None = None) -> None:
        """Close the table; ``seats``: the lobby's seats as it closes (without a last player who left)."""
        now = self.clock()
        reveal = self._reveal(table)
        closed = [("closed", {"reason": reason})] + [(e.kind, e.data) for e in reveal]
        changed: dict[str, Any] = {} if seats is None else {"seats": [s.to_json() for s in seats]}
        if table.state is not None:  # a status change: the snapshot catches up with the log
            changed.update(state=table.engine.dumps(table.state), version=table.version)
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

    @staticmethod
    def _reveal(table: Table) -> list[Event]:
        """The game is over (finished or cancelled): its fair dice's seed is published, as an event the presenters
        show (the seed was in games.fair all along; nothing showed it before)."""
        fair = table.fair
        if fair is None:
            return []
        started = table.state is not None
        data = {
            "game_id": table.id,
            "seed": fair.reveal(),
            "commitment": fair.commitment,
            "client_seed": fair.client_seed if started else None,
            "draws": fair.nonce,
        }
        return [Event("fair_reveal", data)]

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
        if isinstance(action, str):
            action = Action.parse(action)
        table = self.table(channel_id)
        async with table.lock:
            if interaction_id is not None and interaction_key(interaction_id) in table.seen:
                raise TableError("duplicate")
            if seen_version is not None and table.acted.get(user_id, -1) > seen_version:
                raise TableError("duplicate")
            self._require_open(table)
            if not table.running:
                raise TableError("not_running")
            seat = table.seat_of(user_id)
            if seat is None:
                raise TableError("not_a_player")
            (state, events), dice = self._draw(table, table.engine.apply, table.state, seat, action)
            table.timeouts[seat] = 0
            # _commit moves the double-click guard (table.acted): a button drawn before this move is stale. A slash
            # command (no seen_version) is deliberate and never refused, but it moves the guard too: start()
            # restores it from the snapshot and the log, which do not tell buttons from commands.
            await self._commit(table, state, events, [(seat, action.encode(), interaction_id, dice)])
            return table, events

    def view(self, channel_id: int, user_id: int) -> tuple[Table, dict[str, Any]]:
        table = self.table(channel_id)
        if table.state is None:
            raise TableError("not_running")
        return table, table.engine.view(table.state, table.seat_of(user_id))

    def _draw(self, table: Table, engine_call: Callable[..., R], *args: Any) -> tuple[R, str | None]:
        """``engine_call(*args, dice)`` with the table's dice recorded: (its result, the dice JSON or None).

        A call that raises (a refused move: engines check before they draw, but a refusal must never cost the
        stream a draw) rewinds fair dice to the draws committed, so the next move draws what verification expects.
        """
        recorder = self._recorder
        recorder.inner, recorder.calls = table.dice, []  # a refused call may have drawn: start clean
        try:
            result = engine_call(*args, recorder)
        except BaseException:
            self._rewind(table)
            raise
        calls = recorder.take()
        return result, dumps(calls) if calls else None

    @staticmethod
    def _rewind(table: Table) -> None:
        """Fair dice back to the draws committed (the operation under way is not going to be)."""
        fair = table.fair
        if fair is not None:
            fair.nonce = table.draws

    async def _forfeit(self, table: Table, seat: int, why: str) -> None:
        (state, events), dice = self._draw(table, table.engine.forfeit, table.state, seat)
        await self._commit(table, state, forfeit_events(events, why), [(seat, f"forfeit:{why}", None, dice)])

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
        outcome = engine.outcome(state)
        if outcome is not None:
            status = "finished"
            events = [*events, *self._reveal(table)]  # the seed goes public with the end (and into the log)
        version = table.version + len(entries)
        public = [(e.kind, e.data) for e in events if e.public]
        moved = {  # a player's own moves; a timeout or forfeit is the service's doing (see start())
            table.seats[seat].id: table.version + i + 1
            for i, (seat, text, _, _) in enumerate(entries)
            if seat is not None and text != "timeout" and not text.startswith("forfeit:")
        }
        due = None if outcome is not None else now + await self.turn_timeout(table.guild_id)
        statements = [
            repo.insert_action(table.id, table.version + i + 1, seat, text, iid, now, dice, due)
            for i, (seat, text, iid, dice) in enumerate(entries)
        ]
        changed = status != table.status
        snapshot = (
            changed or version - table.snapshot_version >= SNAPSHOT_EVERY or any(e.kind in ROUND_ENDS for e in events)
        )
        if snapshot:
            fields: dict[str, Any] = {}
            fair = table.fair
            if fair is not None and table.status == "lobby":  # the start: the client seed is fixed with it
                fields["fair"] = self._fair_json(fair, started=True)
            statements.append(
                repo.update_game(
                    table.id,
                    now,
                    status=status,
                    state=engine.dumps(state),
                    version=version,
                    meta=table.meta(public, moved),
                    **fields,
                )
            )
        if changed:  # a running game's deadline is its last action's; the deadlines row is the lobby's (or gone)
            statements.append(repo.set_deadline(table.id, due, version))
        if outcome is not None:
            statements += self._result_statements(table, outcome, now)
        try:
            await self.store.write(statements)  # committed: from here on nothing is lost
        except BaseException:
            self._rewind(table)
            raise
        if (fair := table.fair) is not None:
            table.draws = fair.nonce
        table.state, table.version, table.status, table.deadline = state, version, status, due
        if snapshot:
            table.snapshot_version = version
        table.add_log(public)
        table.acted.update(moved)
        table.seen.extend(interaction_key(iid) for _, _, iid, _ in entries if iid)
        if due is not None:
            self.deadlines.arm(table.id, due, version)
            self.deadlines.arm_half(table.id, now + (due - now) / 2, version)
        if outcome is not None:
            self._drop(table)
        self.presenter.publish(table, events)
        self.computers.schedule(table)

    @staticmethod
    def _result_statements(table: Table, outcome: Any, now: float) -> list[Any]:
        """The results rows and, in the same transaction, the ratings they move (``bot.store.ratings.record``)."""
        statements: list[Any] = []
        seats = []
        place = 1
        for group in outcome.ranking:
            for seat in group:
                s = table.seats[seat]
                result, score = outcome.result(seat), outcome.scores[seat]
                statements.append(
                    repo.insert_result(table.id, table.guild_id, table.game, s.id, s.is_bot, place, score, result, now)
                )
                seats.append((s.id, s.level, place, result, score))
            place += len(group)
        statements.append(ratings.record(table.id, table.guild_id, table.game, ratings.finishes_of(seats), now))
        return statements

    # -- retention ----------------------------------------------------------------------------

    async def compact(self, now: float | None = None) -> int:
        """Compact the games past the retention period at ``now`` (the clock's time by default); how many."""
        when = self.clock() if now is None else now
        return await compact_expired(self.store, when, self.retention.days, owned=self.retention.owned)

    # -- deadlines ----------------------------------------------------------------------------

    async def run_due(self, now: float | None = None) -> int:
        """Fire every deadline due by ``now`` (when there is no dispatcher); returns how many fired."""
        return await self.deadlines.run_due(now)
