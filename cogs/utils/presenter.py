"""Shows tables on Discord: one table message per game, edited as it moves; secrets by DM.

``publish`` only schedules work, so a slow Discord never holds a table's lock. Edits of one
table's message are coalesced (the newest state wins) and spaced out to respect the channel's
rate limit; interaction responses that already showed the new state skip the REST edit.

The table stays in view: every message created in a channel below its table message (the gateway's MESSAGE_CREATE,
``note_message``: a dict lookup, nothing written) is counted, the bot's own turn reminders and end messages too (they
push the table up as much as chat does; a message deleted below it is taken off the count). Once the count reaches
the server's ``/settings repost`` (``GuildSettings.repost_after``; 0: never), the table's next redraw posts it anew
at the bottom, commits the new message id, then deletes the old message, paced by the table's worker like its
edits (``/<game> table``: the same, now). The count lives in memory: after a restart it starts again from nothing.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import defaultdict
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING

import discord

from bot.games import Event, Outcome
from bot.i18n import t
from bot.languages import for_person
from bot.render import private_text
from bot.store import achievements as store_achievements
from bot.store import repo
from bot.store.db import Statement
from cogs.utils import retry, wire
from cogs.utils.components import COLOURS, rows_of, table_message, text_view
from cogs.utils.interaction_transport import InteractionTransport
from cogs.utils.presented import Hold, Reminder, final_text, table_link
from cogs.utils.rematch import rematch_view

if TYPE_CHECKING:
    from bot.client import DiceTavern
    from bot.tables import Table

log = logging.getLogger(__name__)

DEFER_SOON = 1.5  # how long an interaction waits for its user's DM before answering anyway
EDIT_SPACING = 1.1  # seconds between REST edits of one table message (~5 per 5 s per channel)
DM_TRIES = 8  # a secret DM that keeps failing transiently: ~2 min of backoff, then it waits for 🎲 My dice
DM_CHANNELS = 100_000  # DM channel ids remembered (~100 bytes each), the oldest forgotten first
DM_RETRY_AFTER = 3600.0  # a "DMs closed" mark expires: the player may have opened their DMs since
# A table message the presenter posts (anew at the bottom, or again after a deletion) pings nobody: a rematch lobby's
# log mentions the players it invites, who were pinged once, by the lobby's first message (cogs/utils/rematch.py).
TABLE_PINGS = discord.AllowedMentions.none()
BRING_DOWN_WAIT = 10.0  # how long /<game> table waits for the repost before it answers with the link it has
# The re-show after a restart (issue 30): every open table is loaded (its replay) and redrawn, ~0.5 ms of CPU each; in
# one go that was 5 s of CPU at 10,000 tables with the event loop never yielding. In batches, each followed by a
# yield, at most RESHOW_RATE tables a second (Discord takes ~50 requests a second from a bot anyway).
RESHOW_BATCH = 50
RESHOW_RATE = 200.0


class DiscordPresenter:
    """The bot's ``presenter`` (``bot.surface.Presenter``) and the table service's (``bot.tables.Presenter``)."""

    def __init__(self, bot: DiceTavern) -> None:
        self.bot = bot
        self.dms_closed: dict[int, float] = {}  # user id -> when a DM to them last failed (DMs closed)
        self.user_language: dict[int, str] = {}  # user id -> their ``/me language``
        self.seen_locale: dict[int, str] = {}  # user id -> the Discord locale of their last interaction (for DMs)
        self.dm_retry_after = DM_RETRY_AFTER
        self.clock: Callable[[], float] = time.time
        self._posted: dict[int, Reminder] = {}  # table id -> its reminder message in the channel
        self._wanted: dict[int, Reminder] = {}  # table id -> a reminder to post when the channel allows
        self.pending: dict[tuple[int, int], list[str]] = defaultdict(list)  # (table, user) -> undelivered secrets
        self._dirty: dict[int, Table] = {}
        self._finals: dict[int, Table] = {}  # table id -> a finished table whose players are still to be told
        self._ended: set[int] = set()  # tables whose end was announced (or is about to be)
        self._shown: dict[int, tuple[object, ...]] = {}  # table id -> look() of what its message shows
        self._held: dict[int, int] = defaultdict(int)
        self._workers: dict[int, asyncio.Task[None]] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._secret_tasks: dict[tuple[int, int], set[asyncio.Task[None]]] = defaultdict(set)
        # channel id -> messages created below its table message since that was posted (absent: not known, e.g.
        # after a restart); table id -> a /<game> table's wait for the repost (True: posted anew)
        self._below: dict[int, int] = {}
        self._bring_down: dict[int, asyncio.Future[bool]] = {}
        self.retry_first, self.retry_cap = retry.FIRST, retry.CAP  # a publish that failed transiently: backoff
        self._failures: dict[object, int] = defaultdict(int)  # (what, table or user id) -> failed tries in a row
        self._dm_order: dict[int, asyncio.Lock] = defaultdict(asyncio.Lock)  # user id: their DMs in order
        # user id -> their DM channel's id: discord.py keeps only 128 DM channels, so past 128 players every DM
        # asked Discord for the channel again (POST /users/@me/channels) before sending (issue 30)
        self._dm_channels: dict[int, int] = {}
        # the tables that live on an interaction's message (a group DM, a server without the bot): their edits go
        # through the latest interaction's token, not the bot's (cogs.utils.interaction_transport)
        self.interactions = InteractionTransport(bot)
        self.pause: Callable[[float], Awaitable[None]] = asyncio.sleep  # the re-show's yield between batches

    async def load(self) -> None:
        self.dms_closed = await repo.dms_closed_users(self.bot.store)
        self.user_language, self.seen_locale = await repo.user_languages(self.bot.store)
        await self.interactions.load()
        for row in await repo.reminders(self.bot.store):  # reminders left from before a restart
            self._posted[row["game_id"]] = Reminder(row["channel_id"], row["version"], message_id=row["message_id"])
            if not row["open"]:
                self._kick(row["game_id"])  # its game ended meanwhile: delete it now
        for table in await self.bot.tables.owed_ends():  # finished before a restart, its players not yet told
            self._ended.add(table.id)
            self._finals[table.id] = table
            self._kick(table.id)

    async def reshow(self, batch: int = RESHOW_BATCH, rate: float = RESHOW_RATE) -> int:
        """After a restart: redraw every open table (this repairs a crash between a commit and its publish), the
        tables whose deadline comes soonest first, ``batch`` at a time, each batch loaded and queued then a yield to
        the loop (``pause``), no more than ``rate`` tables a second. A table clicked meanwhile was shown by its click
        (the worker skips what its message already shows); one closed meanwhile is skipped. Returns the tables
        queued."""
        lookup = self.bot.tables.by_id
        order = sorted(lookup.peek_all(), key=lambda t: (t.deadline is None, t.deadline or 0.0, t.id))
        queued = 0
        for first in range(0, len(order), batch):
            began = time.monotonic()
            for waiting in order[first : first + batch]:
                table = lookup.get(waiting.id)  # loads it (state, replay, log); None: closed or gone meanwhile
                if table is not None:
                    self.refresh(table)
                    queued += 1
            if first + batch < len(order):
                await self.pause(max(0.0, batch / rate - (time.monotonic() - began)))
        return queued

    # -- the Presenter protocol -------------------------------------------------------------

    def publish(self, table: Table, events: list[Event], *, refresh: bool = True) -> None:
        # Where the table lives on an interaction's message, secrets go only in the 🎲 My dice reply (ephemeral): a
        # DM there is unsolicited and may well fail, and the player's view in that reply holds all of it.
        secret_dms = not self.interactions.owns(table)
        for event in events:
            if secret_dms and event.to is not None and event.to < len(table.seats):
                seat = table.seats[event.to]
                if seat.is_bot:
                    continue
                locale = self.dm_language(table, seat.id)
                text = private_text(table, event, locale)
                if text:
                    key = (table.id, seat.id)
                    task = self._spawn(self._send_secret(table, seat.id, text, locale))
                    self._secret_tasks[key].add(task)
                    task.add_done_callback(self._secret_tasks[key].discard)
        if table.status == "finished" and table.id not in self._ended:
            self._ended.add(table.id)
            self._finals[table.id] = table  # once: a new message names the players (an edit would ping nobody)
        reminder = self._posted.get(table.id)
        if reminder is not None and (reminder.version != table.version or not table.running):
            self._kick(table.id)  # they acted or timed out: the reminder goes
        if refresh:
            self.refresh(table)

    # -- table message ----------------------------------------------------------------------

    def refresh(self, table: Table) -> None:
        self._dirty[table.id] = table
        if table.id not in self._workers and not self._held[table.id]:
            self._workers[table.id] = asyncio.create_task(self._edit_loop(table.id), name=f"table-{table.id}")

    def may_expire(self, table: Table) -> bool:
        """Asked by the deadlines before a due turn is given its default move (``InteractionTransport.may_expire``:
        not while nobody can see the table)."""
        return self.interactions.may_expire(table)

    def hold(self, table_id: int) -> None:
        """The caller will show the table itself (an interaction response): don't edit meanwhile."""
        self._held[table_id] += 1

    @staticmethod
    def look(table: Table) -> tuple[object, ...]:
        """What the table message depends on: the version moves with play, the seats and options with the lobby."""
        options = tuple(table.options.items()) if table.status == "lobby" else ()
        return (table.version, table.status, table.host_id, tuple([s.id for s in table.seats]), table.locale, options)

    @asynccontextmanager
    async def holding(self, table: Table) -> AsyncIterator[Hold]:
        """``hold`` for the block; on the way out ``release`` with what the block recorded as shown (None if
        it showed nothing, e.g. its response failed), so the paced edit skips or redraws accordingly."""
        self.hold(table.id)
        held = Hold(table, message_id=getattr(table, "message_id", None))  # (a test's stand-in may have none)
        try:
            yield held
        finally:
            # what it showed was on a message that is no longer the table's (a repost meanwhile): redraw the table
            same = held.message_id is None or held.message_id == getattr(table, "message_id", None)
            self.release(table, held.shown if same else None)

    def release(self, table: Table, shown: tuple[object, ...] | None) -> None:
        self._held[table.id] = max(0, self._held[table.id] - 1)
        if shown is not None:
            self._shown[table.id] = shown
        dirty = self._dirty.get(table.id)
        if dirty is not None and not self._held[table.id]:
            if table.id not in self._workers and self._nothing_owed(dirty):
                del self._dirty[table.id]  # the response showed it: the worker would find nothing to do (issue 30)
            else:
                self.refresh(dirty)

    def _nothing_owed(self, table: Table) -> bool:
        """The table's worker would do nothing now: its message shows this look, no repost is asked for or could be
        due (nothing counted below it), no reminder to post or delete, no end message owed."""
        tid = table.id
        return (
            bool(table.message_id)
            and self._shown.get(tid) == self.look(table)
            and tid not in self._bring_down
            and self._below.get(table.channel_id, 0) <= 0
            and tid not in self._posted
            and tid not in self._wanted
            and tid not in self._finals
        )

    def _kick(self, table_id: int) -> None:
        """Make sure the table's worker runs (for its reminder: the table message may be held meanwhile)."""
        if table_id not in self._workers:
            self._workers[table_id] = asyncio.create_task(self._edit_loop(table_id), name=f"table-{table_id}")

    async def _edit_loop(self, table_id: int) -> None:
        # A table's channel sees only this worker's calls (one table per channel): the table message's edits
        # and the turn reminder's post and delete, EDIT_SPACING apart, so ~5 per 5 s per channel at most.
        try:
            while True:
                worked = False
                if table_id in self._dirty and not self._held[table_id]:
                    worked = True
                    table = self._dirty.pop(table_id)
                    if await self._repost_due(table):
                        await self._repost(table)  # paced inside: a post, the spacing, a delete, the spacing
                    elif not (self._shown.get(table_id) == self.look(table) and table.message_id):
                        if not await self._try(("table", table_id), f"table {table_id}'s message", self._show, table):
                            self._dirty.setdefault(table_id, table)  # again, unless a newer state came meanwhile
                        await asyncio.sleep(EDIT_SPACING)
                if await self._reminder_step(table_id):
                    worked = True
                    await asyncio.sleep(EDIT_SPACING)
                if await self._final_step(table_id):
                    worked = True
                    await asyncio.sleep(EDIT_SPACING)
                if not worked:
                    return
        finally:
            self._workers.pop(table_id, None)

    async def _final_step(self, table_id: int) -> bool:
        """After the table message shows the end: one short message that mentions the human players, with
        the result. Paced by the table's worker like its edits."""
        if self._held[table_id] or table_id in self._dirty or table_id not in self._finals:
            return False
        table = self._finals.pop(table_id)
        outcome = table.engine.outcome(table.state) if table.state is not None else None
        humans = [discord.Object(s.id) for s in table.seats if not s.is_bot]
        if outcome is None or not humans:
            await self._write([repo.end_told(table_id)], f"that table {table_id} has no end message")
            self.interactions.forget(table_id)
            return False
        if self.interactions.owns(table):
            await self._final_follow_up(table, outcome, humans)
            return True
        earned = await self._earned(table_id)
        rematch = rematch_view(table, table.locale)
        rows = [row.to_component_dict() for row in rows_of(rematch)] if rematch is not None else []
        view = text_view([final_text(table, outcome, table.locale, earned)], COLOURS["finished"], rows)
        mentions = discord.AllowedMentions(everyone=False, roles=False, replied_user=False, users=humans)
        # The same nonce every try, across restarts too: Discord returns the message it already created with it
        # (for a few minutes) instead of a second one, when only its answer was lost.
        nonce = f"end-{table_id}"
        if not await self._try(
            ("final", table_id),
            f"the end of table {table_id}",
            wire.send_to_channel,  # as channel.send(view=…, allowed_mentions=…, nonce=…) sends it
            self.bot,
            table.channel_id,
            view,
            allowed_mentions=mentions,
            nonce=nonce,
        ):
            self._finals.setdefault(table_id, table)  # owed still: the next step sends it
        else:  # sent (or refused for good, logged): no longer owed, after a restart either
            await self._write([repo.end_told(table_id)], f"that table {table_id}'s end was sent")
        return True

    async def _final_follow_up(self, table: Table, outcome: Outcome, humans: list[discord.Object]) -> None:
        """The end at a table on an interaction's message: a follow-up through its latest token, if one is open
        (no rematch button: a new table needs a command, which brings its own interaction); else the table's last
        edit shows the result already. Owed no longer either way."""
        earned = await self._earned(table.id)
        view = text_view([final_text(table, outcome, table.locale, earned)], COLOURS["finished"])
        mentions = discord.AllowedMentions(everyone=False, roles=False, replied_user=False, users=humans)
        what = f"the end of table {table.id}"
        if not await self._try(("final", table.id), what, self.interactions.follow_up, table, view, mentions):
            self._finals.setdefault(table.id, table)
            return
        await self._write([repo.end_told(table.id)], f"that table {table.id}'s end was sent")
        self.interactions.forget(table.id)

    async def _earned(self, table_id: int) -> dict[int, list[str]]:
        """The achievements the game earned (written with its results); none if they cannot be read now: the
        end message goes out without its line rather than wait (/achievements lists them)."""
        try:
            return await store_achievements.of_game(self.bot.store, table_id)
        except Exception:
            log.warning("could not read the achievements of table %s for its end message", table_id, exc_info=True)
            return {}

    async def _try(
        self, key: object, what: str, call: Callable[..., Awaitable[object]], *args: object, **kwargs: object
    ) -> bool:
        """One publish; False: it failed for a reason that can pass (a WARNING, then the backoff wait: try again)."""
        try:
            await call(*args, **kwargs)
        except Exception as error:
            if not retry.transient(error):
                log.exception("could not publish %s", what)
                return True
            wait = self._wait(key)
            log.warning("could not publish %s (%s); trying again in %.1f s", what, retry.describe(error), wait)
            await asyncio.sleep(wait)
            return False
        self._failures.pop(key, None)
        return True

    def _wait(self, key: object) -> float:
        wait = retry.delay(self._failures[key], self.retry_first, self.retry_cap)
        self._failures[key] += 1
        return wait

    async def _show(self, table: Table) -> None:
        view = table_message(table, table.locale)
        if self.interactions.owns(table):  # never the bot's token there: its channel is out of the bot's reach
            if await self.interactions.show(table, view):
                self._shown[table.id] = self.look(table)
            return
        look = self.look(table)
        if table.message_id:
            try:
                # content and embed cleared: a table posted before V2 (an embed) becomes a V2 layout in place
                await wire.edit_channel_message(self.bot, table.channel_id, table.message_id, view)
                self._shown[table.id] = look
                return
            except discord.NotFound:
                pass  # someone deleted it: post a fresh one
        channel = self.bot.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        message = await channel.send(view=view, allowed_mentions=TABLE_PINGS)  # rare: no need for wire's
        await self.set_message(table, message.id)
        self._shown[table.id] = look

    # -- the table stays in view -------------------------------------------------------------

    def note_message(self, channel_id: int, message_id: int) -> None:
        """A message was created in a channel (MESSAGE_CREATE): one more below its open table's message, if it has
        one and the message is newer. O(1), nothing written: this runs for every message of every channel."""
        table = self.bot.tables.by_channel.peek(channel_id)  # peek: chat never loads a table restored at start
        if table is None:
            self._below.pop(channel_id, None)
        elif table.message_id and message_id > table.message_id:
            self._below[channel_id] = self._below.get(channel_id, 0) + 1

    def note_deleted(self, channel_id: int, message_id: int) -> None:
        """A message was deleted (MESSAGE_DELETE): one that was below the table no longer pushes it up."""
        table = self.bot.tables.by_channel.peek(channel_id)
        below = self._below.get(channel_id)
        if table is not None and below and table.message_id and message_id > table.message_id:
            self._below[channel_id] = below - 1

    def below(self, channel_id: int) -> int | None:
        """Messages counted below the channel's table message (None: not known since the start)."""
        return self._below.get(channel_id)

    async def bring_down(self, table: Table) -> tuple[bool, str]:
        """``/<game> table``: post the table anew at the bottom now (through its worker, paced; a pending request
        serves this one too), and the link to it. False: it is the channel's last message already (nothing sent).
        Waits for the new message (up to BRING_DOWN_WAIT) so the link is the new one."""
        future = self._bring_down.get(table.id)
        if future is None:
            if table.message_id and self._below.get(table.channel_id) == 0:
                return False, table_link(table)
            future = self._bring_down[table.id] = asyncio.get_running_loop().create_future()
            self.refresh(table)
        try:
            posted = await asyncio.wait_for(asyncio.shield(future), BRING_DOWN_WAIT)
        except TimeoutError:
            return True, table_link(table)  # still waiting for the channel's pace: it comes
        if not posted:
            raise RuntimeError(f"table {table.id} could not be posted anew")  # the one error path answers it
        return True, table_link(table)

    async def _repost_due(self, table: Table) -> bool:
        if self.interactions.owns(table):
            return False  # it lives on its interaction's message: nothing can be posted anew below
        if table.id in self._bring_down:
            return True
        below = self._below.get(table.channel_id, 0)
        if not table.message_id or below <= 0:
            return False
        try:
            threshold = await self.bot.tables.repost_after(table.guild_id)  # read once per server, then kept
        except Exception:  # the store could not be read: the table is edited where it is, as before
            log.exception("could not read the repost setting of server %s", table.guild_id)
            return False
        return 0 < threshold <= below

    async def _repost(self, table: Table) -> None:
        """The table anew at the bottom: post it, commit its id, then delete the old message (each REST call
        followed by EDIT_SPACING). A failed post keeps the old message, edited as before."""
        waiting = self._bring_down.pop(table.id, None)
        old = table.message_id
        channel = self.bot.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        look = self.look(table)
        posted = False
        try:
            message = await channel.send(view=table_message(table, table.locale), allowed_mentions=TABLE_PINGS)
        except discord.HTTPException:
            log.exception("could not post table %s anew; its message stays", table.id)
            self._below[table.channel_id] = 0  # no retry on every redraw: after as many messages again
            if old and self._shown.get(table.id) != look:
                self._dirty.setdefault(table.id, table)  # the old message, edited as before (the next step)
        else:
            try:
                await self.set_message(table, message.id)  # committed before the old message goes
            except Exception:
                log.exception("could not record table %s's new message; the old one stays", table.id)
                table.message_id = old
                self._below[table.channel_id] = 0
                await asyncio.sleep(EDIT_SPACING)
                await self._delete_message(table.channel_id, message.id)
            else:
                posted = True
                self._shown[table.id] = look
                if waiting is not None and not waiting.done():
                    waiting.set_result(True)
                    waiting = None
                await asyncio.sleep(EDIT_SPACING)
                if old:
                    await self._delete_message(table.channel_id, old)
        finally:
            if waiting is not None and not waiting.done():
                waiting.set_result(posted)
        await asyncio.sleep(EDIT_SPACING)

    async def _delete_message(self, channel_id: int, message_id: int) -> None:
        try:
            await self.bot.get_partial_messageable(channel_id).get_partial_message(message_id).delete()
        except discord.NotFound:
            pass  # someone deleted it already
        except discord.HTTPException:
            # it stays, with controls that still work (a click on it is answered privately, with the table's link)
            log.warning("could not delete message %s in channel %s", message_id, channel_id, exc_info=True)

    # -- turn reminders ---------------------------------------------------------------------

    def remind(self, table: Table, user_ids: list[int], due: float) -> None:
        """Half of the turn is gone (the table service says): post one short message that pings only them."""
        if self.interactions.owns(table):  # no new message there: the table's edit says it (an edit pings nobody)
            self._spawn(self._remind_on_table(table, user_ids, due))
            return
        posted = self._posted.get(table.id)
        if posted is not None and posted.version == table.version:
            return  # already in the channel (posted before a restart)
        self._wanted[table.id] = Reminder(
            table.channel_id, table.version, tuple(user_ids), due, table.locale, table.game
        )
        self._kick(table.id)

    async def _remind_on_table(self, table: Table, user_ids: list[int], due: float) -> None:
        locale = table.locale
        note = t(
            "table.reminder",
            locale,
            mentions=" ".join(f"<@{u}>" for u in user_ids),
            game=t(f"game.{table.game}", locale),
            when=f"<t:{int(due)}:R>",
        )
        try:
            await self.interactions.show(table, table_message(table, locale, note=note))
        except Exception as error:  # a reminder is a courtesy
            log.warning("turn reminder of table %s failed (%s)", table.id, retry.describe(error))

    async def _reminder_step(self, table_id: int) -> bool:
        """At most one REST call for the table's reminder: delete a stale one, else post a wanted one."""
        table = self.bot.tables.by_id.get(table_id)
        current = table.version if table is not None and table.running else None
        posted = self._posted.get(table_id)
        wanted: Reminder | None = None
        try:
            if posted is not None and posted.version != current:
                del self._posted[table_id]
                await self._delete_reminder(table_id, posted)
                return True
            wanted = self._wanted.pop(table_id, None)
            if wanted is None or wanted.version != current or posted is not None:
                return False
            await self._post_reminder(table_id, wanted)
        except Exception as error:  # a reminder is a courtesy: never let it stop the table message's worker
            if not retry.transient(error):
                log.exception("turn reminder of table %s failed", table_id)
                return True
            log.warning("turn reminder of table %s failed (%s); trying again", table_id, retry.describe(error))
            if table_id not in self._posted and (posted or wanted):  # its delete or its post, again next step
                (self._posted if posted else self._wanted)[table_id] = posted or wanted  # type: ignore[assignment]
            await asyncio.sleep(self._wait(("reminder", table_id)))
        else:
            self._failures.pop(("reminder", table_id), None)
        return True

    async def _post_reminder(self, table_id: int, reminder: Reminder) -> None:
        locale = reminder.locale
        text = t(
            "table.reminder",
            locale,
            mentions=" ".join(f"<@{u}>" for u in reminder.user_ids),
            game=t(f"game.{reminder.game}", locale),
            when=f"<t:{int(reminder.due)}:R>",  # Discord shows it relative and keeps it current
        )
        mentions = discord.AllowedMentions(
            everyone=False, roles=False, users=[discord.Object(u) for u in reminder.user_ids], replied_user=False
        )
        message = await self.bot.get_partial_messageable(reminder.channel_id).send(text, allowed_mentions=mentions)
        reminder.message_id = message.id
        self._posted[table_id] = reminder
        await self.bot.store.write([repo.set_reminder(table_id, reminder.channel_id, message.id, reminder.version)])

    async def _delete_reminder(self, table_id: int, reminder: Reminder) -> None:
        if reminder.message_id is not None:
            channel = self.bot.get_partial_messageable(reminder.channel_id)
            try:
                await channel.get_partial_message(reminder.message_id).delete()
            except discord.NotFound:
                pass  # someone deleted it already
        await self.bot.store.write([repo.set_reminder(table_id, reminder.channel_id, None)])

    async def set_message(self, table: Table, message_id: int) -> None:
        table.message_id = message_id
        self._below[table.channel_id] = 0  # a new table message is the channel's last
        await self.bot.store.write([repo.update_game(table.id, self.bot.tables.clock(), message_id=message_id)])

    # -- languages --------------------------------------------------------------------------

    def dm_language(self, table: Table, user_id: int) -> str:
        """A DM's language (no interaction to ask): the player's ``/me language``, else the Discord locale last
        seen on their interactions (an English client at a Welsh or Estonian server: the server's), else the
        table's."""
        server = self.bot.tables.server_language(table.guild_id)
        return for_person(self.user_language.get(user_id), self.seen_locale.get(user_id), server, table.locale)

    def note_locale(self, user_id: int, locale: object) -> None:
        """Remember the Discord locale of a user's interaction, for their DMs; written only when it changed."""
        text = str(getattr(locale, "value", locale) or "")
        if text and self.seen_locale.get(user_id) != text:
            self.seen_locale[user_id] = text
            self._spawn(self._write([repo.set_discord_locale(user_id, text)], "their Discord locale"))

    async def set_user_language(self, user_id: int, language: str | None) -> None:
        """A member's ``/me language`` (None: follow their Discord client again)."""
        await self.bot.store.write([repo.set_user_language(user_id, language)])
        if language is None:
            self.user_language.pop(user_id, None)
        else:
            self.user_language[user_id] = language

    async def _write(self, statements: list[Statement], what: str) -> None:
        try:
            await self.bot.store.write(statements)
        except Exception:  # a courtesy (a language remembered): never a reason to fail what the user did
            log.exception("could not store %s", what)

    # -- secrets ----------------------------------------------------------------------------

    def dm_header(self, table: Table, locale: str) -> str:
        """The first line of a DM: the game and table, its server and channel, and a link to the table message
        (a player at two tables must tell them apart)."""
        guild = self.bot.get_guild(table.guild_id)
        channel = self.bot.get_channel(table.channel_id)
        return t(
            "table.dm_header",
            locale,
            game=t(f"game.{table.game}", locale),
            id=table.id,
            guild=guild.name if guild is not None else table.guild_id,
            channel=getattr(channel, "name", table.channel_id),
            link=table_link(table),
        )

    async def _send_secret(self, table: Table, user_id: int, text: str, locale: str) -> None:
        header = self.dm_header(table, locale)
        async with self._dm_order[user_id]:  # a retried DM goes before the next one, never after it
            sent: bool | None = None
            for _ in range(DM_TRIES):  # the player can also ask for it (🎲 My dice) meanwhile: pending below
                if self.dm_closed(user_id):
                    break
                sent = await self.send_dm(user_id, f"{header}\n{text}", again=True)
                if sent is not None:
                    break
                await asyncio.sleep(self._wait(("dm", user_id)))
            self._failures.pop(("dm", user_id), None)
        if not sent:
            self.pending[(table.id, user_id)].append(text)

    def dm_closed(self, user_id: int) -> bool:
        """Marked "DMs closed" less than ``dm_retry_after`` ago; an older mark lets the next DM try again."""
        at = self.dms_closed.get(user_id)
        return at is not None and self.clock() - at < self.dm_retry_after

    async def send_dm(self, user_id: int, text: str, *, again: bool = False) -> bool | None:
        """DM ``text``: True if delivered (a "DMs closed" mark is cleared), False if the user's DMs are closed
        (marked now) or (``again``) it failed for good, None if it failed otherwise (``again``: it can pass)."""
        try:
            channel_id = self._dm_channels.get(user_id)
            if channel_id is None:
                channel_id = (await self.bot.create_dm(discord.Object(user_id))).id
                self._dm_channels[user_id] = channel_id
                if len(self._dm_channels) > DM_CHANNELS:
                    del self._dm_channels[next(iter(self._dm_channels))]  # the oldest: looked up again if needed
            try:
                await wire.send_to_channel(self.bot, channel_id, text_view([text]))  # one container, header first
            except discord.NotFound:
                self._dm_channels.pop(user_id, None)  # a DM channel we no longer reach: asked for anew next time
                raise
        except discord.Forbidden:
            # 50007: DMs closed. Remember it for a while, so we stop knocking (each 403 counts against us).
            self.dms_closed[user_id] = now = self.clock()
            await self.bot.store.write([repo.set_dms_closed(user_id, True, now)])
            return False
        except Exception as error:
            if not retry.transient(error):
                log.exception("DM to %s failed", user_id)
                return False if again else None
            log.warning("DM to %s failed (%s)%s", user_id, retry.describe(error), "; trying again" if again else "")
            return None
        if self.dms_closed.pop(user_id, None) is not None:
            await self.bot.store.write([repo.set_dms_closed(user_id, False)])
        return True

    def take_pending(self, table_id: int, user_id: int) -> list[str]:
        return self.pending.pop((table_id, user_id), [])

    async def undelivered(self, table_id: int, user_id: int) -> list[str]:
        """Wait for this user's secret DMs in flight; return what could not be delivered (DMs closed)."""
        tasks = self._secret_tasks.get((table_id, user_id))
        if tasks:
            await asyncio.wait(list(tasks), timeout=DEFER_SOON)
        return self.take_pending(table_id, user_id)

    # -- bookkeeping ------------------------------------------------------------------------

    def _spawn(self, coro: Awaitable[None]) -> asyncio.Task[None]:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def drain(self) -> None:
        """Finish scheduled sends (used at shutdown)."""
        pending = list(self._tasks) + list(self._workers.values())
        if pending:
            await asyncio.wait(pending, timeout=5)
