"""The second transport for a table (issue 29): the interaction's own message, where the bot has no channel access.

A group DM, or a server that never added the bot (the app is installed to a player's account), has no channel the
bot can post in or edit with its token (403, Missing Access). There the table lives on the message that answered
the opening command, and only interactions reach it:

- a click on the table message answers with UPDATE_MESSAGE (the table redrawn), anything private follows it as an
  ephemeral follow-up (🎲 My dice; never a DM, never the shared message);
- each such interaction (the opening command too) brings a token that edits the message for 15 minutes: its window.
  The latest is kept here and in the store (``bot.store.windows``, migration 0016), so a restart goes on with it;
- what happens between clicks (computer players' moves, a missed turn's default move, a reminder) is an edit
  through the latest token while its window is open (``show``);
- shortly before the window ends, the table's last edit says what happens next (``WINDOW_NOTE``): the next click
  carries on, and a turn whose time ran out meanwhile gets its default move then. Meanwhile no deadline fires
  (``may_expire``): a missed turn nobody could see waits for the next click (``catch_up``), so nothing happens
  unseen and nothing acknowledged is lost.

The channel transport (``cogs.utils.presenter.DiscordPresenter``) asks ``owns(table)`` at each step and hands
such a table's edits here.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING

import discord

from bot.i18n import t
from bot.store import windows
from cogs.utils import retry
from cogs.utils.components import table_message

if TYPE_CHECKING:
    from bot.client import DiceTavern
    from bot.tables import Table

log = logging.getLogger(__name__)

WINDOW = 15 * 60.0  # seconds an interaction's token edits its message (Discord's)
MARGIN = 60.0  # no edit is started later than this before the window ends: a slow edit still lands in time
LAST_WORD = 5.0  # the last word comes this long before that


@dataclass
class Window:
    token: str
    until: float  # when the token stops working (the interaction's creation + WINDOW)


def interaction_only(interaction: discord.Interaction) -> bool:
    """The bot cannot reach this interaction's channel with its token: a group DM (no server), or a server that
    never added the bot (a user install there: the server is not in the bot's cache)."""
    if interaction.guild_id is None:
        return True
    return interaction.client.get_guild(interaction.guild_id) is None


class InteractionTransport:
    """The tables that live on an interaction's message: their windows, their edits and their last word."""

    def __init__(self, bot: DiceTavern) -> None:
        self.bot = bot
        self.windows: dict[int, Window] = {}  # table id -> the latest token that edits its message
        self._notes: dict[int, asyncio.Task[None]] = {}  # table id -> the last edit, timed before the window ends
        self._missed: set[int] = set()  # tables that got a missed turn's default move since their last click
        self._said: set[int] = set()  # tables whose latest window's last word was left

    def clock(self) -> float:
        return self.bot.tables.clock()  # the table service's (a test moves it, and the fake's tokens age by it)

    async def load(self) -> None:
        # this process's tables only: another process times (and leaves the last word on) the other shards'
        for row in await windows.open_windows(self.bot.store, self.bot.tables.owned("g.guild_id")):
            self.windows[row["game_id"]] = Window(row["token"], row["until"])
            self._arm_note(row["game_id"])

    def owns(self, table: Table) -> bool:
        return table.id in self.windows

    def open_window(self, table: Table) -> Window | None:
        """The window to edit through, if one is open (until MARGIN before its end)."""
        window = self.windows.get(table.id)
        if window is None or table.id in self._said:  # after the last word nothing may overwrite it
            return None
        return window if self.clock() < window.until - MARGIN else None

    async def note(self, table: Table, interaction: discord.Interaction) -> None:
        """``interaction`` answers (or opened) the table message: its token is the table's latest, committed before
        the answer goes out (a restart right after still edits through it)."""
        until = interaction.created_at.timestamp() + WINDOW
        window = self.windows.get(table.id)
        if window is not None and window.until >= until:
            return
        # in memory first: the table's paced edits, which may run while the write waits, go through it already
        self.windows[table.id] = Window(interaction.token, until)
        await self.bot.store.write([windows.set_window(table.id, interaction.token, until)])
        self._missed.discard(table.id)  # someone is at the table again
        self._said.discard(table.id)
        self._arm_note(table.id)

    # -- edits between clicks ---------------------------------------------------------------------

    async def show(self, table: Table, view: discord.ui.LayoutView) -> bool:
        """Edit the table message through the latest token; False when no window is open (nothing sent: the last
        edit already said the next click carries on, and that click redraws it)."""
        window = self.open_window(table)
        if window is None or not table.message_id:
            return False
        webhook = discord.Webhook.partial(self.bot.application_id or 0, window.token, client=self.bot)
        try:
            await webhook.edit_message(table.message_id, view=view)
        except discord.HTTPException as error:
            if retry.transient(error):
                raise  # the presenter's backoff tries again
            # refused for good (a token Discord dropped early, the message deleted): wait for the next click
            log.warning("could not edit table %s through its interaction (%s)", table.id, retry.describe(error))
            self.windows[table.id] = Window(window.token, self.clock())
            return False
        return True

    async def follow_up(self, table: Table, view: discord.ui.LayoutView, mentions: discord.AllowedMentions) -> bool:
        """A new message below the table (its end, which pings the players) through the latest token; False when
        no window is open."""
        window = self.open_window(table)
        if window is None:
            return False
        webhook = discord.Webhook.partial(self.bot.application_id or 0, window.token, client=self.bot)
        await webhook.send(view=view, allowed_mentions=mentions)
        return True

    # -- the window's end --------------------------------------------------------------------------

    def last_word_at(self, window: Window) -> float:
        """When the last edit of a window is made: MARGIN before its end, a little earlier still (LAST_WORD)."""
        return window.until - MARGIN - LAST_WORD

    def _arm_note(self, table_id: int) -> None:
        old = self._notes.pop(table_id, None)
        if old is not None:
            old.cancel()
        window = self.windows.get(table_id)
        if window is None or self.last_word_at(window) + LAST_WORD <= self.clock():
            return
        self._notes[table_id] = asyncio.create_task(self._wait_last_word(table_id, window), name=f"window-{table_id}")

    async def _wait_last_word(self, table_id: int, window: Window) -> None:
        try:
            await asyncio.sleep(max(0.0, self.last_word_at(window) - self.clock()))
            await self._last_word(table_id, window)
        finally:
            if self._notes.get(table_id) is asyncio.current_task():
                del self._notes[table_id]

    async def run_due(self) -> int:
        """Leave every last word due by the clock now (the timers do it by the wall clock; a test moving its clock
        calls this); how many were left."""
        said = 0
        for table_id, window in list(self.windows.items()):
            if table_id not in self._said and self.last_word_at(window) <= self.clock():
                said += await self._last_word(table_id, window)
        return said

    async def _last_word(self, table_id: int, window: Window) -> bool:
        """Shortly before the window ends, with no newer token: the table's last edit says what happens next."""
        table = self.bot.tables.by_id.get(table_id)
        if table is None or self.windows.get(table_id) is not window or not table.message_id or table_id in self._said:
            return False
        self._said.add(table_id)
        try:
            view = table_message(table, table.locale, note=t("ui.window_ends", table.locale))
            webhook = discord.Webhook.partial(self.bot.application_id or 0, window.token, client=self.bot)
            await webhook.edit_message(table.message_id, view=view)
        except Exception as error:  # the next click redraws the table anyway
            log.warning("could not leave table %s's last word (%s)", table_id, retry.describe(error))
            return False
        return True

    # -- deadlines nobody can see ------------------------------------------------------------------

    def may_expire(self, table: Table) -> bool:
        """Asked before a due deadline is applied: at a table of this transport, a missed turn is given its default
        move when it falls due only while its window is open, and only once between clicks; else the next click
        gives it (``catch_up``), so the game never plays itself out unseen."""
        if not self.owns(table):
            return True
        if self.open_window(table) is None or table.id in self._missed:
            return False
        self._missed.add(table.id)
        return True

    async def catch_up(self, table: Table) -> None:
        """A click at a table of this transport: a turn whose time ran out while nobody could see it gets its
        default move first, as the rules say (then the click is applied to the table as it stands)."""
        if not self.owns(table) or not table.running or table.deadline is None:
            return
        if table.deadline <= self.clock():
            await self.bot.tables.expire(table, table.version)

    def forget(self, table_id: int) -> None:
        """The table closed: no last word is owed (its row stays, the record of where it lived)."""
        task = self._notes.pop(table_id, None)
        if task is not None:
            task.cancel()
        self.windows.pop(table_id, None)
        self._missed.discard(table_id)
        self._said.discard(table_id)

    async def stop(self) -> None:
        for task in list(self._notes.values()):
            task.cancel()
        self._notes.clear()
