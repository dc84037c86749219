"""The Discord bot: opens the store, takes its shards' leases, restores tables, loads the cogs. No privileged intents.

``commands_only=True`` (``dicetavern sync``) builds the command tree and nothing else: no store, no table
service, no heartbeat, so a sync never touches the games a running bot (or a stopped one) owns.

Shards: ``DiceTavern(shards=parse("0-3", 8))`` is an ``AutoShardedBot`` on those shards (``ShardedDiceTavern``);
without shards (or shard 0 of 1) a plain ``Bot``. Either way the bot holds a lease on each of its shards in the store
(``bot.store.leases``) from before it restores a table until it closes, and every write batch checks it. A bot that
loses a lease (another process took it over after this one stalled past the lease's time) writes nothing more: it
logs the loss and closes, and ``dicetavern run`` exits with status 4 so a supervisor starts it again.

Restarts (bot.restarts): before it identifies, the bot reads how many session starts Discord has left for the token
(``GET /gateway/bot``) and refuses to start (``IdentifyBudgetLow``, exit status 5) below
``DICETAVERN_MIN_IDENTIFIES``; with ``restarts=RestartPolicy()`` (``dicetavern run``) it also waits, exponentially
longer, after runs that ended with a lost lease or a crash. The ready line says how many starts are left.

Logs (bot.logs): at most one traceback per distinct error per minute; a database outage is one WARNING and one
INFO (bot.store.outage), and a press refused during it logs no traceback.
"""

from __future__ import annotations

import asyncio
import gc
import importlib.util
import logging
import pkgutil
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import discord
from discord.ext import commands

from bot import logs
from bot.emojis import load_emojis
from bot.games.dice import DiceSource
from bot.i18n import normalise, t
from bot.paths import (  # (re-exported: callers and tests import them from here)
    DEFAULT_DATABASE,
    HEARTBEAT_INTERVAL,
    heartbeat_path,
    shown_database,
)
from bot.paths import (
    HEARTBEAT_DIR as HEARTBEAT_DIR,
)
from bot.paths import (
    HEARTBEAT_ENV as HEARTBEAT_ENV,
)
from bot.paths import (
    HEARTBEAT_MAX_AGE as HEARTBEAT_MAX_AGE,
)
from bot.paths import (
    is_url as is_url,
)
from bot.privacy_contact import ready_note
from bot.restarts import (
    CLEAN,
    CRASH,
    LEASE_LOST,
    REFUSED,
    IdentifyBudgetLow,
    RestartLog,
    RestartPolicy,
    SessionStarts,
    check_budget,
    min_identifies,
)
from bot.shards import Shards
from bot.store import Store, open_store, repo
from bot.store.errors import SETUP_ERRORS
from bot.store.leases import Leases
from bot.surface import GameCommands, Presenter, TableSurface
from bot.tables import TableService
from bot.tables.service import DiceFactory
from bot.tables.tournaments import TournamentService
from bot.translator import CatalogTranslator

log = logging.getLogger(__name__)

EXTENSIONS = "cogs"  # the package whose modules are the bot's extensions


def extensions() -> list[str]:
    """Every module in cogs/ is an extension (cogs/utils holds shared helpers); a new game is a new file. Found by
    name, as discord.py loads them: the bot never imports cogs/ (the cogs import the bot)."""
    spec = importlib.util.find_spec(EXTENSIONS)
    if spec is None or spec.submodule_search_locations is None:
        raise ModuleNotFoundError(f"no package named {EXTENSIONS!r}", name=EXTENSIONS)
    found = [f"{EXTENSIONS}.{m.name}" for m in pkgutil.iter_modules(spec.submodule_search_locations) if not m.ispkg]
    return sorted(found, key=lambda name: name != "cogs.tables")  # it owns /game, which cogs.history adds to


# The invite: the README's "Creating the Discord application" lists exactly these (tests/test_readme.py checks).
INVITE_SCOPES = ("bot", "applications.commands")
INVITE_PERMISSIONS = ("send_messages", "embed_links", "read_message_history")

# While connected the bot touches a heartbeat file; `dicetavern health` (Docker's HEALTHCHECK) reads its age.
# A process on some shards reads members' ``/me language`` again this often: another process may have changed one
# (the command works in any server, and in DMs, which all reach shard 0's process). One read of the users table.
USERS_REFRESH = 120.0
# With no global commands, the "run dicetavern sync" hint first looks for commands synced to servers
# (``sync --guild``): in at most this many of the bot's servers, one request each, so a bot in thousands of
# servers does not make thousands of calls at every start.
GUILD_COMMANDS_CHECKED = 25

# Garbage collection off the hot path (issue 12): what start-up restored is frozen (out of every pass), and a full
# collection every five minutes still frees the cycles that do form. Young objects are collected every 1,000,000
# allocations net (issue 30; 700 is Python's default, issue 12 had 50,000): the count is allocations less frees, and
# a free that comes when it is at 0 is lost, so when thousands of moves wait on one commit (10,000 tables playing)
# and their objects die together, just after a pass, each burst added its whole size: at 50,000 a pass came every
# ~0.2 s and went through every waiting move's objects (GC 17-21 % of wall time, ~50 us of CPU per move, in
# benchmarks.tables at 10,000 tables); above the burst it comes every ~20 s. Each periodic pass then freezes what
# survived it, so the next passes go only through what is newer (at 10,000 open tables a full pass took ~0.45 s),
# and every GC_UNFREEZE_EVERY-th pass unfreezes first, so cycles among long-lived objects are freed too.
GC_THRESHOLDS = (1_000_000, 50, 100)
GC_FULL_EVERY = 300.0
GC_UNFREEZE_EVERY = 12  # of the periodic passes: once an hour, a pass over everything


def tune_gc() -> tuple[int, int, int]:
    """Freeze what exists now and raise the thresholds; returns the thresholds to restore."""
    saved = gc.get_threshold()
    gc.collect()  # what start-up left for the collector goes now, before the rest is frozen
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
    return saved


def collect_and_freeze(everything: bool = False) -> int:
    """The periodic pass: a full collection of what is not frozen, then what survived it is frozen as well;
    ``everything``: unfreeze first, so the pass goes through every object (cycles among frozen ones are freed).
    Returns what was collected."""
    if everything:
        gc.unfreeze()
    collected = gc.collect()
    gc.freeze()
    return collected


async def collect_periodically(every: float = GC_FULL_EVERY, unfreeze_every: int = GC_UNFREEZE_EVERY) -> None:
    """``collect_and_freeze`` every ``every`` seconds; every ``unfreeze_every``-th pass over everything."""
    passes = 0
    while True:
        await asyncio.sleep(every)
        passes += 1
        collect_and_freeze(everything=passes % unfreeze_every == 0)


def invite_url(application_id: int) -> str:
    permissions = discord.Permissions(**dict.fromkeys(INVITE_PERMISSIONS, True))
    return discord.utils.oauth_url(application_id, permissions=permissions, scopes=INVITE_SCOPES)


class DatabaseUnavailable(Exception):
    """The store could not be opened (a bad DATABASE_PATH or DATABASE_URL, a full disk, a corrupt file, a server
    that does not answer)."""

    def __init__(self, path: str, error: BaseException) -> None:
        path = shown_database(path)
        super().__init__(f"{path}: {error}")
        self.path = path
        self.error = error


class DiceTavern(commands.Bot):
    store: Store
    tables: TableService
    tournaments: TournamentService  # its Venue (threads, announcements) is the Tournaments cog's, set on load
    # What the cogs provide (bot.surface's Protocols: bot/ never imports cogs/):
    presenter: Presenter  # set by the Tables cog on load (not under ``commands_only``)
    table_ui: TableSurface  # the table surface (buttons, 🎲 My dice), set by the Tables cog on load
    game_cogs: dict[str, GameCommands]  # game id -> its cog; each game cog registers itself on load

    leases: Leases | None = None  # set in setup_hook (not under ``commands_only``)
    lease_lost = False  # the bot closed itself: it lost a lease (``dicetavern run`` exits with status 4)
    session_starts: SessionStarts | None = None  # GET /gateway/bot's session_start_limit, read in setup_hook

    def __new__(cls, *args: Any, shards: Shards | None = None, **options: Any) -> DiceTavern:
        """A bot on shards of more than one is a ``ShardedDiceTavern`` (an AutoShardedBot): same API."""
        if cls is DiceTavern and shards is not None and shards.sharded:
            cls = ShardedDiceTavern
        return super().__new__(cls)

    def __init__(
        self,
        *,
        database: str | Path | None = None,
        database_path: str | Path | None = None,
        shards: Shards | None = None,
        dice: DiceSource | DiceFactory | None = None,
        bot_delay: tuple[float, float] = (0.8, 2.5),
        commands_only: bool = False,
        heartbeat_interval: float = HEARTBEAT_INTERVAL,
        gc_tuning: bool = True,
        restarts: RestartPolicy | RestartLog | None = None,
        min_identifies: int | None = None,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        **options: Any,
    ) -> None:
        """``gc_tuning``: freeze start-up's objects and collect rarely (``GC_THRESHOLDS``); False leaves the
        collector as Python sets it (tests that count collections). ``dice``: the table service's dice (None:
        provably fair dice, a new secret seed per table; tests pass a shared SeededDice or a FairDice factory).
        ``database``: a SQLite path or a ``postgresql://`` URL (``database_path``: the same, its older name).
        ``shards``: the shards this process serves (None: every guild, on one connection).
        ``restarts``: wait before identifying after runs that ended badly (bot.restarts), its runs kept next to
        the heartbeat (a ``RestartLog``: where and with which clock, for tests); None: no wait (a bot under test).
        ``min_identifies``: session starts that must be left to start (None: ``DICETAVERN_MIN_IDENTIFIES``).
        ``sleep``: how the restart wait waits (tests pass one that returns at once)."""
        # The bot uses no voice: discord.py's "PyNaCl/davey is not installed" start-up warnings are noise.
        discord.VoiceClient.warn_nacl = False
        discord.VoiceClient.warn_dave = False
        self.shard_range = shards or Shards.all()
        if self.shard_range.sharded:  # (ShardedDiceTavern: these go to discord.AutoShardedClient)
            options.update(shard_ids=sorted(self.shard_range.ids), shard_count=self.shard_range.count)
        # Slash commands and components need only the guilds intent: no message content, members or presences.
        # guild_messages (not privileged) brings MESSAGE_CREATE, without the content: the Tables cog counts the
        # messages posted below a table message, to post it anew at the bottom. No message cache (max_messages=None):
        # nothing reads it, and it would keep the last 1,000 messages of every channel.
        options.setdefault("max_messages", None)
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents(guilds=True, guild_messages=True),
            help_command=None,
            **options,
        )
        chosen = database if database is not None else database_path
        self.database = str(chosen if chosen is not None else DEFAULT_DATABASE)
        self.database_path = self.database  # the older name, kept for callers that read it
        self.dice = dice
        self.bot_delay = bot_delay  # computer players' pause before a move
        self.commands_only = commands_only
        self.heartbeat = heartbeat_path(self.database, self.shard_range)
        self.heartbeat_interval = heartbeat_interval
        self._heartbeat_task: asyncio.Task[None] | None = None
        if isinstance(restarts, RestartPolicy):
            restarts = RestartLog(RestartLog.next_to(self.heartbeat), restarts)
        self.restart_log = None if commands_only else restarts
        self.min_identifies = min_identifies
        self._sleep = sleep
        self._pausing: asyncio.Future[None] | None = None  # the restart wait, while setup_hook waits for it
        self._log_filter: logs.OncePerMinute | None = None  # the traceback filter, if this bot installed it
        self.gc_tuning = gc_tuning
        self._gc_saved: tuple[int, int, int] | None = None
        self._gc_task: asyncio.Task[None] | None = None
        self._lease_task: asyncio.Task[None] | None = None
        self._users_task: asyncio.Task[None] | None = None
        self._acquiring: asyncio.Future[None] | None = None  # the leases' acquire() while setup_hook waits for it
        self._stopping = False
        self._closing: asyncio.Task[None] | None = None
        self._connected = False
        self._announced = False
        self.game_cogs = {}

    async def setup_hook(self) -> None:
        self._log_filter = logs.install() or self._log_filter
        if not self.commands_only:
            if not await self._pace():
                return  # closed while it waited: nothing to start
            self.session_starts = await self._read_session_starts()
            try:
                self.store = await open_store(self.database)
            except SETUP_ERRORS as error:
                raise DatabaseUnavailable(self.database, error) from error
            if not await self._take_leases():
                return  # closed while it waited: nothing to start
            self.tables = TableService(self.store, self.dice, bot_delay=self.bot_delay, shards=self.shard_range)
            restored = await self.tables.start()
            log.info("restored %d open tables", len(restored))
            self.tournaments = TournamentService(self.store, self.tables)  # brought forward once ready: the cog
        await self.tree.set_translator(CatalogTranslator())
        self.tree.error(self.on_app_command_error)  # the typed way to set tree.on_error
        for extension in extensions():
            await self.load_extension(extension)
        if not self.commands_only:
            if self.gc_tuning:  # what start-up loaded lives for the whole run: keep it out of every GC pass
                self._gc_saved = tune_gc()
                self._gc_task = asyncio.create_task(collect_periodically(), name="gc")
            else:
                gc.freeze()
            self._heartbeat_task = asyncio.create_task(self._beat(), name="heartbeat")
            if not self.shard_range.everything:  # other processes serve the other shards
                self._users_task = asyncio.create_task(self._refresh_users(), name="users")

    # -- the restart budget ----------------------------------------------------------------------

    async def start(self, token: str, *, reconnect: bool = True) -> None:
        """discord.py's start, and how it ended for the restart log (the next start's wait)."""
        how = CRASH
        try:
            await super().start(token, reconnect=reconnect)
            if self._closing is not None:  # a lost lease's close: discord.py's part ends start(); the lease's
                await self._closing  # release and the store's close must end before the run (and its loop) does
            how = LEASE_LOST if self.lease_lost else CLEAN
        except IdentifyBudgetLow:
            how = REFUSED
            raise
        except (asyncio.CancelledError, KeyboardInterrupt):
            how = CLEAN  # stopped from outside
            raise
        finally:
            if self.restart_log is not None:
                self.restart_log.ended(how)

    async def _pace(self) -> bool:
        """Wait as the restart log says (the last runs ended badly), then record this start. False: the bot was
        closed while it waited."""
        if self.restart_log is None:
            return True
        delay, count = self.restart_log.wait()
        if delay > 0:
            log.warning(
                "the last %d runs ended with a lost lease or a crash within %.0f min: waiting %.0f s before"
                " identifying",
                count,
                self.restart_log.policy.window / 60,
                delay,
            )
            self._pausing = asyncio.ensure_future(self._sleep(delay))
            try:
                await self._pausing
            except asyncio.CancelledError:
                if self._stopping:
                    return False
                raise
            finally:
                self._pausing = None
        self.restart_log.started()
        return True

    async def _read_session_starts(self) -> SessionStarts:
        """How many session starts are left; ``IdentifyBudgetLow`` when too few."""
        _, _, limit = await self.http.get_bot_gateway()
        starts = SessionStarts.from_limit(limit)
        check_budget(starts, self.min_identifies if self.min_identifies is not None else min_identifies())
        log.info("session starts left: %d of %d", starts.remaining, starts.total)
        return starts

    def _identifies(self) -> int:
        """The IDENTIFYs this process's start cost: one per shard it serves."""
        return len(self.shard_range.ids) if self.shard_range.sharded else 1

    # -- leases -------------------------------------------------------------------------------

    async def _take_leases(self) -> bool:
        """Hold this process's shards before any table is read: ``acquire`` waits (and logs who holds them) while
        another live process does. From then on every write batch checks the leases (``store.fence``).
        False: the bot was closed while it waited (a SIGTERM to a waiting process)."""
        leases = Leases(self.store, sorted(self.shard_range.ids), self.shard_range.count)
        log.info("taking the leases on shards %s", self.shard_range)
        self._acquiring = asyncio.ensure_future(leases.acquire())
        try:
            await self._acquiring
        except asyncio.CancelledError:
            if self._stopping:
                return False
            raise
        finally:
            self._acquiring = None
        self.leases = self.store.fence = leases
        self._lease_task = asyncio.create_task(self._keep_leases(leases), name="leases")
        return True

    async def _keep_leases(self, leases: Leases) -> None:
        """Renew until a lease is lost; then close the bot (its writes are refused from then on anyway)."""
        await leases.run()  # returns once a lease is lost (it logs to whom)
        self.lease_lost = True
        log.error("a lease on shards %s was lost: closing; a supervisor may start this process again", self.shard_range)
        self._closing = asyncio.create_task(self.close(), name="close")  # (held: a task needs a reference)

    async def _refresh_users(self) -> None:
        while True:
            await asyncio.sleep(USERS_REFRESH)
            try:
                await self.refresh_user_languages()
            except Exception as error:  # noqa: BLE001 - the next pass tries again; nothing depends on it
                log.warning("could not read the members' languages again: %s", error)

    async def refresh_user_languages(self) -> None:
        """Members' ``/me language`` as the store has them now (one set by another process included). A change
        made here while the read ran wins: that pass is dropped, and the next one reads the change with the rest."""
        presenter = getattr(self, "presenter", None)
        if presenter is None:
            return
        before = dict(presenter.user_language)
        languages, _ = await repo.user_languages(self.store)
        if presenter.user_language == before:
            presenter.user_language = languages

    # -- start-up line and heartbeat ------------------------------------------------------------

    async def on_ready(self) -> None:
        self._connected = True
        self._touch_heartbeat()
        if self._announced:
            return  # a reconnect fires on_ready again: the ready line is printed once per start
        self._announced = True
        assert self.user is not None and self.application_id is not None
        servers = t("cli.n_servers", count=len(self.guilds))
        database = shown_database(self.database)
        invite = invite_url(self.application_id)
        starts = self.session_starts
        identifies = starts.after(self._identifies()).shown() if starts is not None else "?"
        identifies += ready_note()  # ", privacy contact …" (DICETAVERN_PRIVACY_CONTACT / _URL): the invite stays last
        log.info(
            t("cli.ready", name=self.user, servers=servers, database=database, identifies=identifies, invite=invite)
        )
        await load_emojis(self)  # the uploaded die faces (else Unicode, and a line on how to upload them)
        try:
            registered = bool(await self.tree.fetch_commands()) or await self._guild_commands()
        except discord.HTTPException as error:
            log.warning(t("cli.commands_unknown", error=error))
            return
        except RuntimeError:
            if self.is_closed():
                return  # a shutdown (SIGTERM) closed the HTTP session while this check was on its way: nothing to say
            raise
        if not registered:
            log.warning(t("cli.no_commands"))

    async def _guild_commands(self) -> bool:
        """Whether commands are synced to one of the bot's first ``GUILD_COMMANDS_CHECKED`` servers."""
        for guild in self.guilds[:GUILD_COMMANDS_CHECKED]:
            try:
                if await self.tree.fetch_commands(guild=guild):
                    return True
            except discord.Forbidden:
                continue  # (a server whose commands the application may not read: the others may have some)
        return False

    async def on_message(self, message: discord.Message, /) -> None:
        """Not commands.Bot's (``process_commands`` on every message): the bot has no prefix commands. The Tables
        cog's listener counts the message."""

    async def on_resumed(self) -> None:
        self._connected = True
        self._touch_heartbeat()

    async def on_disconnect(self) -> None:
        self._connected = False

    async def _beat(self) -> None:
        while not self.is_closed():
            if self._connected:
                self._touch_heartbeat()
            await asyncio.sleep(self.heartbeat_interval)

    def _touch_heartbeat(self) -> None:
        if self.commands_only:
            return
        try:
            self.heartbeat.parent.mkdir(parents=True, exist_ok=True)
            self.heartbeat.touch()
        except OSError as error:
            log.warning("cannot write the heartbeat file %s: %s", self.heartbeat, error)

    async def on_app_command_error(
        self, interaction: discord.Interaction, error: discord.app_commands.AppCommandError
    ) -> None:
        if isinstance(error, discord.app_commands.CheckFailure) or interaction.extras.get("error_answered"):
            return  # the check already told the user why, or the cog's error handler answered
        cause = error.original if isinstance(error, discord.app_commands.CommandInvokeError) else error
        store: Store | None = getattr(self, "store", None)
        if store is not None and store.unavailable(cause):
            store.outage.refuse(cause)  # the outage's WARNING says it once, not a traceback per press
        else:
            log.error("command %s failed", getattr(interaction.command, "qualified_name", "?"), exc_info=error)
        text = "⚠️ " + t("error.internal", normalise(interaction.locale))
        try:
            if interaction.response.is_done():
                await interaction.followup.send(text, ephemeral=True)
            else:
                await interaction.response.send_message(text, ephemeral=True)
        except discord.HTTPException:
            pass

    async def close(self) -> None:
        self._connected = False
        self._stopping = True
        if self._acquiring is not None:
            self._acquiring.cancel()  # setup_hook stops waiting for the leases, and starts nothing
        if self._pausing is not None:
            self._pausing.cancel()  # or for the restart wait
        await _cancel(self._gc_task)
        self._gc_task = None
        if self._gc_saved is not None:
            gc.set_threshold(*self._gc_saved)
            self._gc_saved = None
        await _cancel(self._users_task)
        self._users_task = None
        if self._heartbeat_task is not None:
            await _cancel(self._heartbeat_task)
            self._heartbeat_task = None
            self.heartbeat.unlink(missing_ok=True)  # a stopped bot is unhealthy at once, not 90 s later
        if hasattr(self, "tables"):
            await self.tables.stop()  # in-flight actions finish; no new deadline fires
        if getattr(self, "presenter", None) is not None:
            await self.presenter.drain()
        await super().close()
        await _cancel(self._lease_task)
        self._lease_task = None
        if self.leases is not None:
            await self.leases.release()  # the next process takes the shards at once, not after the ttl
            self.leases = None
        if hasattr(self, "store"):
            await self.store.close()
        if self._log_filter is not None:
            logs.uninstall(self._log_filter)
            self._log_filter = None


async def _cancel(task: asyncio.Task[None] | None) -> None:
    """Cancel ``task`` and wait for it to end (unless it is the one running this: a lost lease's close)."""
    if task is not None and task is not asyncio.current_task():
        task.cancel()
        try:
            await task
        except asyncio.CancelledError:
            pass


class ShardedDiceTavern(DiceTavern, commands.AutoShardedBot):
    """The bot on some of several shards: discord.py's AutoShardedBot, one gateway connection per shard id."""
