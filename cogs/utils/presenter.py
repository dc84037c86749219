"""Shows tables on Discord: one table message per game, edited as it moves; secrets by DM.

``publish`` only schedules work, so a slow Discord never holds a table's lock. Edits of one
table's message are coalesced (the newest state wins) and spaced out to respect the channel's
rate limit; interaction responses that already showed the new state skip the REST edit.
"""

from __future__ import annotations

import asyncio
import logging
from collections import defaultdict
from typing import TYPE_CHECKING

import discord

from bot.games import Event
from bot.i18n import t
from bot.render import private_text, table_text
from bot.store import repo
from cogs.utils.components import table_view

if TYPE_CHECKING:
    from bot.client import DiceTavern
    from bot.tables import Table

log = logging.getLogger(__name__)

DEFER_SOON = 1.5  # how long an interaction waits for its user's DM before answering anyway
EDIT_SPACING = 1.1  # seconds between REST edits of one table message (~5 per 5 s per channel)
COLOURS = {"lobby": 0x5865F2, "running": 0x57F287, "finished": 0xFEE75C, "cancelled": 0x99AAB5}


def table_embed(table: Table, locale: str) -> discord.Embed:
    text = table_text(table, locale)
    embed = discord.Embed(
        title=text.title, description="\n".join(text.body)[:4000], colour=COLOURS.get(table.status, 0)
    )
    if text.log:
        embed.add_field(name=t("table.log", locale), value="\n".join(text.log)[-1024:], inline=False)
    if table.status == "cancelled":
        embed.add_field(name="\u200b", value=t(f"table.closed_{_close_reason(table)}", locale), inline=False)
    embed.set_footer(text=text.footer)
    return embed


def _close_reason(table: Table) -> str:
    for kind, data in reversed(table.log):
        if kind == "closed":
            return str(data.get("reason", "cancelled"))
    return "cancelled"


class DiscordPresenter:
    def __init__(self, bot: DiceTavern) -> None:
        self.bot = bot
        self.dms_closed: set[int] = set()
        self.pending: dict[tuple[int, int], list[str]] = defaultdict(list)  # (table, user) -> undelivered secrets
        self._dirty: dict[int, Table] = {}
        self._shown: dict[int, tuple[object, ...]] = {}  # table id -> look() of what its message shows
        self._held: dict[int, int] = defaultdict(int)
        self._workers: dict[int, asyncio.Task[None]] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._secret_tasks: dict[tuple[int, int], set[asyncio.Task[None]]] = defaultdict(set)

    async def load(self) -> None:
        self.dms_closed = await repo.dms_closed_users(self.bot.store)

    # -- the Presenter protocol -------------------------------------------------------------

    def publish(self, table: Table, events: list[Event], *, refresh: bool = True) -> None:
        for event in events:
            if event.to is not None and event.to < len(table.seats):
                seat = table.seats[event.to]
                text = private_text(table, event, table.locale)
                if text and not seat.is_bot:
                    key = (table.id, seat.id)
                    task = self._spawn(self._send_secret(table, seat.id, text))
                    self._secret_tasks[key].add(task)
                    task.add_done_callback(self._secret_tasks[key].discard)
        if refresh:
            self.refresh(table)

    # -- table message ----------------------------------------------------------------------

    def refresh(self, table: Table) -> None:
        self._dirty[table.id] = table
        if table.id not in self._workers and not self._held[table.id]:
            self._workers[table.id] = asyncio.create_task(self._edit_loop(table.id), name=f"table-{table.id}")

    def hold(self, table_id: int) -> None:
        """The caller will show the table itself (an interaction response): don't edit meanwhile."""
        self._held[table_id] += 1

    @staticmethod
    def look(table: Table) -> tuple[object, ...]:
        """What the table message depends on: the version moves with play, the seats with the lobby."""
        return (table.version, table.status, table.host_id, tuple(s.id for s in table.seats))

    def release(self, table: Table, shown: tuple[object, ...] | None) -> None:
        self._held[table.id] = max(0, self._held[table.id] - 1)
        if shown is not None:
            self._shown[table.id] = shown
        if table.id in self._dirty and not self._held[table.id]:
            self.refresh(self._dirty[table.id])

    async def _edit_loop(self, table_id: int) -> None:
        try:
            while table_id in self._dirty and not self._held[table_id]:
                table = self._dirty.pop(table_id)
                if self._shown.get(table_id) == self.look(table) and table.message_id:
                    continue
                try:
                    await self._show(table)
                except discord.HTTPException:
                    log.exception("could not update the table message of table %s", table_id)
                await asyncio.sleep(EDIT_SPACING)
        finally:
            self._workers.pop(table_id, None)

    async def _show(self, table: Table) -> None:
        locale = table.locale
        embed, view = table_embed(table, locale), table_view(table, locale)
        channel = self.bot.get_partial_messageable(table.channel_id, guild_id=table.guild_id)
        look = self.look(table)
        if table.message_id:
            try:
                await channel.get_partial_message(table.message_id).edit(embed=embed, view=view)
                self._shown[table.id] = look
                return
            except discord.NotFound:
                pass  # someone deleted it: post a fresh one
        message = await channel.send(embed=embed, view=view)
        await self.set_message(table, message.id)
        self._shown[table.id] = look

    async def set_message(self, table: Table, message_id: int) -> None:
        table.message_id = message_id
        await self.bot.store.write([repo.update_game(table.id, self.bot.tables.clock(), message_id=message_id)])

    # -- secrets ----------------------------------------------------------------------------

    async def _send_secret(self, table: Table, user_id: int, text: str) -> None:
        header = t("table.title", table.locale, game=t(f"game.{table.game}", table.locale), status=f"#{table.id}")
        if user_id not in self.dms_closed:
            try:
                channel = await self.bot.create_dm(discord.Object(user_id))
                await channel.send(f"{header}\n{text}")
                return
            except discord.Forbidden:
                # 50007: DMs closed. Remember it, so we stop knocking (each 403 counts against us).
                self.dms_closed.add(user_id)
                await self.bot.store.write([repo.set_dms_closed(user_id, True)])
            except discord.HTTPException:
                log.exception("DM to %s failed", user_id)
        self.pending[(table.id, user_id)].append(text)

    def take_pending(self, table_id: int, user_id: int) -> list[str]:
        return self.pending.pop((table_id, user_id), [])

    async def undelivered(self, table_id: int, user_id: int) -> list[str]:
        """Wait for this user's secret DMs in flight; return what could not be delivered (DMs closed)."""
        tasks = self._secret_tasks.get((table_id, user_id))
        if tasks:
            await asyncio.wait(list(tasks), timeout=DEFER_SOON)
        return self.take_pending(table_id, user_id)

    # -- bookkeeping ------------------------------------------------------------------------

    def _spawn(self, coro: object) -> asyncio.Task[None]:
        task = asyncio.ensure_future(coro)  # type: ignore[arg-type]
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def drain(self) -> None:
        """Finish scheduled sends (used at shutdown)."""
        pending = list(self._tasks) + list(self._workers.values())
        if pending:
            await asyncio.wait(pending, timeout=5)
