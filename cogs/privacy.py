"""/privacy: what is stored and for how long (and whom to ask), a copy of it all, the leaderboard opt-out, and
deleting a member's data.

Works in DMs and servers: a member's data is theirs, not a server's. ``/privacy export`` sends the member a JSON file
of everything the database holds about them (``bot.store.privacy.export_member``), at most once per EXPORT_EVERY
(kept in memory: a restart forgets it, which costs at most one more export). ``/privacy delete`` answers with a confirm
and a cancel button (``PrivacyButton``, a DynamicItem: its custom_id holds the member and when it expires, so it
works after a restart, refuses anyone else's click and does nothing once expired). Every answer is ephemeral.
"""

from __future__ import annotations

import gzip
import io
import re
from functools import partial
from typing import TYPE_CHECKING, Any, cast

import discord
from discord import app_commands
from discord.ext import commands

from bot.games.parsing import parse_int
from bot.i18n import t
from bot.privacy_contact import contact_line, privacy_contact
from bot.store import privacy
from cogs.utils.components import button_label
from cogs.utils.replies import AnswersErrors, locale_of, send_ephemeral, within_deadline

if TYPE_CHECKING:
    from bot.client import DiceTavern

CONFIRM_FOR = 300.0  # seconds a confirmation stays valid
EXPORT_EVERY = 600.0  # seconds between a member's exports: each reads all their rows
FILE_LIMIT = 8 * 1024 * 1024  # bytes Discord takes in any attachment of a bot's; a bigger export goes gzipped
PRIVACY_ID = r"pv:(?P<way>yes|no):(?P<user>[0-9]{1,20}):(?P<until>[0-9]{1,12})"


def deleted_name(locale: str, seat: int | None = None) -> str:
    """What replaces a deleted member's name at a table that spoke ``locale`` (``seat`` when the word is taken)."""
    if seat is None:
        return t("privacy.deleted_player", locale)
    return t("privacy.deleted_player_seat", locale, seat=seat)


def info_text(locale: str, days: float, server_contact: str | None = None) -> str:
    moves = t("privacy.moves_days", locale, count=int(days)) if days > 0 else t("privacy.moves_forever", locale)
    return t("privacy.info", locale, moves=moves, contact=contact_line(locale, privacy_contact(), server_contact))


def names_of(user: discord.abc.User) -> list[str]:
    """The names a member has now (user name, global name, server nickname): a log may name them by any."""
    return [name for name in dict.fromkeys([user.name, user.global_name or "", user.display_name]) if name]


def export_file(user_id: int, data: bytes) -> discord.File:
    if len(data) > FILE_LIMIT:  # thousands of games: JSON shrinks tenfold
        return discord.File(io.BytesIO(gzip.compress(data)), filename=f"dicetavern-{user_id}.json.gz")
    return discord.File(io.BytesIO(data), filename=f"dicetavern-{user_id}.json")


class Cooldown:
    """When each member may do something again (in memory; the expired are dropped as others are added)."""

    def __init__(self, every: float) -> None:
        self.every = every
        self._until: dict[int, float] = {}

    def wait(self, user_id: int, now: float) -> float | None:
        """When ``user_id`` may go again (None: now)."""
        until = self._until.get(user_id, 0.0)
        return until if now < until else None

    def take(self, user_id: int, now: float) -> None:
        if len(self._until) > 1000:
            self._until = {user: until for user, until in self._until.items() if until > now}
        self._until[user_id] = now + self.every

    def give_back(self, user_id: int) -> None:
        self._until.pop(user_id, None)


def _bot(interaction: discord.Interaction) -> DiceTavern:
    return cast("DiceTavern", interaction.client)


def seated_text(locale: str, game_ids: list[int]) -> str:
    return "⚠️ " + t("privacy.seated", locale, ids=", ".join(f"#{g}" for g in game_ids))


def confirm_view(user_id: int, until: int, locale: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(PrivacyButton("yes", user_id, until, t("privacy.confirm_button", locale)))
    view.add_item(PrivacyButton("no", user_id, until, t("privacy.cancel_button", locale)))
    return view


class PrivacyButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=PRIVACY_ID):
    """``pv:<yes|no>:<member id>:<expires, unix seconds>``: confirm or cancel a deletion."""

    def __init__(self, way: str, user_id: int, until: int, label: str = "") -> None:
        style = discord.ButtonStyle.danger if way == "yes" else discord.ButtonStyle.secondary
        custom_id = f"pv:{way}:{user_id}:{until}"
        super().__init__(discord.ui.Button(label=label or way, style=style, custom_id=custom_id))
        self.way, self.user_id, self.until = way, user_id, until

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> PrivacyButton:
        user = parse_int(match["user"]) or 0  # beyond SQLite's INTEGER: nobody's, refused below
        return cls(match["way"], user, int(match["until"]), button_label(item))

    async def callback(self, interaction: discord.Interaction) -> None:
        locale = locale_of(interaction)
        if interaction.user.id != self.user_id:
            await send_ephemeral(interaction, "⚠️ " + t("privacy.not_yours", locale))
            return
        bot = _bot(interaction)
        if bot.tables.clock() > self.until:
            await _close(interaction, t("privacy.expired", locale))
            return
        if self.way == "no":
            await _close(interaction, t("privacy.cancelled", locale))
            return
        try:
            names = names_of(interaction.user)
            in_memory = partial(scrub_open_tables, bot, self.user_id)
            deleting = privacy.delete_member(bot.store, self.user_id, deleted_name, names, in_memory)
            done = await within_deadline(interaction, deleting)
        except privacy.StillSeated as seated:
            await send_ephemeral(interaction, seated_text(locale, seated.game_ids))
            return
        forget(bot, self.user_id)
        text = t("privacy.deleted", locale, count=done.games, word=deleted_name(locale))
        await _close(interaction, text)


async def _close(interaction: discord.Interaction, text: str) -> None:
    """The confirmation message becomes ``text``, without its buttons."""
    if interaction.response.is_done():
        await interaction.edit_original_response(content=text, view=None)
    else:
        await interaction.response.edit_message(content=text, view=None)


def scrub_open_tables(bot: DiceTavern, user_id: int, names: set[str]) -> None:
    """The open tables' logs in memory with the member anonymised (a lobby they left, a rematch inviting them),
    as the deletion does in their rows: the next snapshot writes the same."""
    for table in bot.tables.by_channel.peek_all():
        log = table.log
        seated = {seat.name for seat in table.seats}
        scrubbed = privacy.scrub_log(log, user_id, names - seated, deleted_name(table.locale))
        if scrubbed != list(log):
            log.clear()
            log.extend(scrubbed)


def forget(bot: DiceTavern, user_id: int) -> None:
    """What the bot remembers in memory of a deleted member (read from the users row at start)."""
    presenter = getattr(bot, "presenter", None)
    if presenter is None:
        return
    for memo in (presenter.user_language, presenter.seen_locale, presenter.dms_closed):
        memo.pop(user_id, None)


class Privacy(AnswersErrors, commands.GroupCog, group_name="privacy", group_description=t("privacy.cmd")):
    def __init__(self, bot: DiceTavern) -> None:
        self.bot = bot
        self.exports = Cooldown(EXPORT_EVERY)
        super().__init__()

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(PrivacyButton)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(PrivacyButton)

    @app_commands.command(name="info", description=t("privacy.cmd_info"))
    async def info(self, interaction: discord.Interaction) -> None:
        locale = locale_of(interaction)
        server = await self.bot.tables.privacy_contact(interaction.guild_id)
        text = info_text(locale, self.bot.tables.retention.days, server)
        await send_ephemeral(interaction, embed=discord.Embed(title=t("privacy.title", locale), description=text))

    @app_commands.command(name="export", description=t("privacy.cmd_export"))
    async def export(self, interaction: discord.Interaction) -> None:
        locale = locale_of(interaction)
        user, now = interaction.user, self.bot.tables.clock()
        if (until := self.exports.wait(user.id, now)) is not None:
            await send_ephemeral(interaction, "⚠️ " + t("privacy.export_wait", locale, when=f"<t:{int(until) + 1}:R>"))
            return
        self.exports.take(user.id, now)  # before the work: two presses at once make one file
        try:
            data = await within_deadline(
                interaction, privacy.export_member(self.bot.store, user.id, names_of(user), now)
            )
        except BaseException:
            self.exports.give_back(user.id)  # nothing was sent: it does not count
            raise
        text = t("privacy.exported", locale, games=len(data["games"]), results=len(data["results"]))
        await send_ephemeral(interaction, text, file=export_file(user.id, privacy.export_bytes(data)))

    @app_commands.command(name="delete", description=t("privacy.cmd_delete"))
    async def delete(self, interaction: discord.Interaction) -> None:
        locale = locale_of(interaction)
        user_id = interaction.user.id
        seated = await privacy.open_tables(self.bot.store, user_id)
        if seated:  # said now, not after the confirm: they leave first
            await send_ephemeral(interaction, seated_text(locale, seated))
            return
        until = int(self.bot.tables.clock() + CONFIRM_FOR)
        text = t("privacy.confirm", locale, word=deleted_name(locale), until=f"<t:{until}:R>")
        await send_ephemeral(interaction, text, view=confirm_view(user_id, until, locale))

    @app_commands.command(name="optout", description=t("privacy.cmd_optout"))
    async def optout(self, interaction: discord.Interaction) -> None:
        await self.bot.store.write([privacy.set_opted_out(interaction.user.id, True)])
        await send_ephemeral(interaction, t("privacy.opted_out", locale_of(interaction)))

    @app_commands.command(name="optin", description=t("privacy.cmd_optin"))
    async def optin(self, interaction: discord.Interaction) -> None:
        await self.bot.store.write([privacy.set_opted_out(interaction.user.id, False)])
        await send_ephemeral(interaction, t("privacy.opted_in", locale_of(interaction)))


async def setup(bot: DiceTavern) -> None:
    await bot.add_cog(Privacy(bot))
