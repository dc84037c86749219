"""/achievements [member] [game]: what a member earned on this server (each with its rule, the game, when, and how
rare it is among the server's players) and what is still to earn, privately, as a Components V2 message.

The rows come from ``bot.store.achievements`` (earned in the write that finishes a game; older games by the
backfill this cog starts as it loads: ``Backfill``, one pass in the background). A member who opted out keeps
their own list, but nobody else is shown it, and they are left out of every server's rarity. When the whole list
would run past Discord's 4,000 characters, detail goes first (the locked ones' rules, then the earned ones'),
never an achievement: ``game:`` shows one game's achievements with every rule.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.achievements import ACHIEVEMENTS, Achievement, catalog_key, rule_key
from bot.i18n import t
from bot.store import Store, privacy
from bot.store import achievements as store_a
from cogs.utils.components import COLOURS, V2_TEXT, Blocks
from cogs.utils.games import game_choices
from cogs.utils.replies import AnswersErrors, guild_of, locale_of, send_ephemeral, within_deadline

if TYPE_CHECKING:
    from bot.client import DiceTavern

ACCENT = COLOURS["finished"]
LIMIT = V2_TEXT - 200  # the page's text, with room to spare under Discord's limit


def name_of(achievement_id: str, locale: str) -> str:
    return t(catalog_key(achievement_id), locale)


def game_label(achievement: Achievement, locale: str) -> str:
    return t(f"game.{achievement.game}", locale) if achievement.game else t("achievements.across_games", locale)


def earned_lines(
    achievement: Achievement, earned: store_a.Earned, rarity: store_a.Rarity, locale: str, rules: bool
) -> list[str]:
    name = name_of(achievement.id, locale)
    when = f"<t:{int(earned.at)}:d>"
    percent = t("achievements.rarity", locale, percent=rarity.percent(achievement.id))
    detail = t("achievements.earned_detail", locale, game=game_label(achievement, locale), when=when, rarity=percent)
    if not rules:
        return [f"🏅 **{name}**", f"-# {detail}"]
    return [t("achievements.earned_line", locale, name=name, rule=t(rule_key(achievement.id), locale)), f"-# {detail}"]


def page(
    name: str,
    earned: Sequence[store_a.Earned],
    rarity: store_a.Rarity,
    locale: str,
    game: str | None = None,
    pending: bool = False,
) -> list[str]:
    """The page's text blocks: the title and count, the earned ones, the locked ones, a note. Within ``LIMIT``:
    the locked ones lose their rules first (their names joined), then the earned ones."""
    shown = [a for a in ACHIEVEMENTS if game is None or a.game == game]
    mine = {e.achievement: e for e in earned}
    got = [a for a in shown if a.id in mine]
    locked = [a for a in shown if a.id not in mine]
    head = "\n".join(
        [
            f"## {t('achievements.title', locale, name=name)}",
            t("achievements.summary", locale, earned=len(got), total=len(shown)),
        ]
    )
    note = f"-# {t('achievements.pending', locale)}" if pending else ""
    blocks: list[str] = []
    for level in range(3):
        earned_block = [f"### {t('achievements.earned_header', locale)}"] if got else []
        for a in got:
            earned_block += earned_lines(a, mine[a.id], rarity, locale, rules=level < 2)
        if not got:
            earned_block = [t("achievements.none_yet", locale)]
        locked_block = [f"### {t('achievements.locked_header', locale)}"] if locked else []
        if level == 0:
            locked_block += [
                t("achievements.locked_line", locale, name=name_of(a.id, locale), rule=t(rule_key(a.id), locale))
                for a in locked
            ]
        elif locked:
            names = " · ".join(name_of(a.id, locale) for a in locked)
            locked_block.append(t("achievements.locked_names", locale, names=names))
        blocks = [b for b in (head, "\n".join(earned_block), "\n".join(locked_block), note) if b]
        if sum(len(b) + 1 for b in blocks) <= LIMIT:
            return blocks
    return blocks


def layout(blocks: Sequence[str]) -> discord.ui.LayoutView:
    """The blocks in one container, a separator between them (the table's design)."""
    drawn = Blocks()
    for n, block in enumerate(blocks):
        if n:
            drawn.separator()
        drawn.text(block)
    return drawn.layout(ACCENT)


async def stats_line(store: Store, guild_id: int, user_id: int, locale: str) -> str:
    """The /stats line: the member's achievements on the server and how rare each is there."""
    earned = await store_a.earned_by(store, guild_id, user_id)
    if not earned:
        return t("achievements.stats_none", locale)
    rarity = await store_a.rarity(store, guild_id)
    items = [
        t("achievements.stats_item", locale, name=name_of(e.achievement, locale), percent=rarity.percent(e.achievement))
        for e in earned
    ]
    return t("achievements.stats_line", locale, count=len(earned), total=len(ACHIEVEMENTS), list=", ".join(items))


class Achievements(AnswersErrors, commands.Cog):
    def __init__(self, bot: DiceTavern) -> None:
        self.bot = bot
        self.backfill: store_a.Backfill | None = None

    async def cog_load(self) -> None:
        """The games finished before achievements existed (or by an older process): evaluated in the background,
        this process's servers only. (A bot loaded without its store, as /help's tests load it, has none.)"""
        tables = getattr(self.bot, "tables", None)
        if tables is None:
            return
        owned = None if tables.shards.everything else tables.shards.sql("g.guild_id")
        self.backfill = store_a.Backfill(tables.store, time.time, owned=owned)
        self.backfill.start()

    async def cog_unload(self) -> None:
        if self.backfill is not None:
            await self.backfill.stop()  # the bot closes the store next

    @app_commands.command(name="achievements", description=t("achievements.cmd"))
    @app_commands.describe(member=t("achievements.cmd_member"), game=t("achievements.cmd_game"))
    @app_commands.choices(game=game_choices())
    @app_commands.guild_only()
    async def achievements(
        self, interaction: discord.Interaction, member: discord.User | None = None, game: str | None = None
    ) -> None:
        locale = locale_of(interaction)
        who = member or interaction.user
        name = getattr(who, "display_name", who.name)
        store = self.bot.store
        if who.id != interaction.user.id and await privacy.opted_out(store, who.id):
            await send_ephemeral(interaction, t("achievements.opted_out", locale, name=name))
            return
        blocks = await within_deadline(interaction, self.blocks(guild_of(interaction), who.id, name, game, locale))
        await send_ephemeral(interaction, view=layout(blocks), allowed_mentions=discord.AllowedMentions.none())

    async def blocks(self, guild_id: int, user_id: int, name: str, game: str | None, locale: str) -> list[str]:
        store = self.bot.store
        earned = await store_a.earned_by(store, guild_id, user_id)
        rarity = await store_a.rarity(store, guild_id)
        pending = await store_a.pending(store, guild_id) > 0
        return page(name, earned, rarity, locale, game, pending)


async def setup(bot: DiceTavern) -> None:
    await bot.add_cog(Achievements(bot))
