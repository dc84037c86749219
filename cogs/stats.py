"""Per-server leaderboards and player stats."""

from __future__ import annotations

import math
import re
from typing import TYPE_CHECKING, Any, cast

import discord
from discord import app_commands
from discord.ext import commands

from bot.games import get_engine
from bot.games.parsing import parse_int
from bot.i18n import t
from bot.store import repo
from cogs.utils.components import button_label
from cogs.utils.games import game_choices
from cogs.utils.replies import guild_of, locale_of, send_ephemeral

if TYPE_CHECKING:
    from bot.client import DiceTavern

PAGE = 10
ALL_GAMES = ("wins", "losses", "neutral")  # across games a best score means nothing
COUNTED = {"wins": "ui.n_wins", "losses": "ui.n_losses", "neutral": "ui.n_neutral"}


def figures_of(game: str | None) -> tuple[str, ...]:
    """What a record in ``game`` shows (the engine declares it); None: every game together."""
    return get_engine(game).result_figures() if game else ALL_GAMES


def record_text(row: repo.BoardRow, figures: tuple[str, ...], locale: str) -> str:
    """``2 wins · 1 loss · 1 neutral / 4 games (67% won)``: the counts that mean something for the game."""
    counts = {"wins": row.wins, "losses": row.losses, "neutral": row.neutral}
    # Neutral results only where the game has them, and only once there are some: most players have none.
    shown = [t(COUNTED[f], locale, count=counts[f]) for f in figures if f in COUNTED and (f != "neutral" or counts[f])]
    decided = row.games - row.neutral
    rate = t("ui.rate", locale, rate=round(100 * row.win_rate)) if decided else t("ui.rate_none", locale)
    return t(
        "ui.record",
        locale,
        figures=t("ui.record_sep", locale).join(shown),
        games=t("ui.n_games", locale, count=row.games),
        rate=rate,
    )


async def board_page(bot: DiceTavern, guild_id: int, game: str, page: int, locale: str) -> tuple[discord.Embed, int]:
    game_key = game if game != "all" else None
    total = await repo.leaderboard_size(bot.store, guild_id, game_key)
    pages = max(1, math.ceil(total / PAGE))
    page = min(max(page, 1), pages)
    rows = await repo.leaderboard(bot.store, guild_id, game_key, PAGE, (page - 1) * PAGE)
    title = t("ui.board_title", locale, game=t(f"game.{game}", locale) if game_key else t("ui.board_all", locale))
    figures = figures_of(game_key)
    lines = []
    for rank, row in enumerate(rows, start=(page - 1) * PAGE + 1):
        extra = t("ui.board_extra_score", locale, best=row.best_score) if "best" in figures else ""
        record = record_text(row, figures, locale)
        lines.append(t("ui.board_line", locale, rank=rank, name=f"<@{row.user_id}>", record=record, extra=extra))
    embed = discord.Embed(title=title, description="\n".join(lines) or t("ui.board_empty", locale), colour=0xFEE75C)
    embed.set_footer(text=t("ui.board_page", locale, page=page, pages=pages))
    return embed, pages


def board_view(guild_id: int, game: str, page: int, pages: int, locale: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    if pages > 1:
        view.add_item(PageButton(guild_id, game, page - 1, t("ui.previous", locale), disabled=page <= 1))
        view.add_item(PageButton(guild_id, game, page + 1, t("ui.next", locale), disabled=page >= pages))
    return view


# ASCII digits of a bounded length: int() of them cannot fail (``\d`` would also match ``٣``, and any length).
PAGE_ID = r"lb:(?P<guild>[0-9]{1,20}):(?P<game>\w{1,20}):(?P<page>[0-9]{1,9})"


class PageButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=PAGE_ID):
    def __init__(self, guild_id: int, game: str, page: int, label: str = "", disabled: bool = False) -> None:
        super().__init__(
            discord.ui.Button(label=label, custom_id=f"lb:{guild_id}:{game}:{max(page, 1)}", disabled=disabled)
        )
        self.guild_id, self.game, self.page = guild_id, game, max(page, 1)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> PageButton:
        # parse_int: a 20-digit id beyond SQLite's INTEGER must not reach the query (it would raise OverflowError)
        guild = parse_int(match["guild"])
        guild_id = (interaction.guild_id or 0) if guild is None else guild
        return cls(guild_id, match["game"], int(match["page"]), button_label(item))

    async def callback(self, interaction: discord.Interaction) -> None:
        locale = locale_of(interaction)
        bot = cast("DiceTavern", interaction.client)  # the client is always our bot
        embed, pages = await board_page(bot, self.guild_id, self.game, self.page, locale)
        await interaction.response.edit_message(
            embed=embed, view=board_view(self.guild_id, self.game, self.page, pages, locale)
        )


class Stats(commands.Cog):
    def __init__(self, bot: DiceTavern) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(PageButton)

    @app_commands.command(name="leaderboard", description=t("cmd.leaderboard"))
    @app_commands.describe(game=t("cmd.leaderboard_game"))
    @app_commands.choices(game=game_choices())
    @app_commands.guild_only()
    async def leaderboard(self, interaction: discord.Interaction, game: str | None = None) -> None:
        locale = locale_of(interaction)
        key = game or "all"
        embed, pages = await board_page(self.bot, guild_of(interaction), key, 1, locale)
        await interaction.response.send_message(
            embed=embed, view=board_view(guild_of(interaction), key, 1, pages, locale)
        )

    @app_commands.command(name="stats", description=t("cmd.stats"))
    @app_commands.describe(member=t("cmd.stats_member"))
    @app_commands.guild_only()
    async def stats(self, interaction: discord.Interaction, member: discord.User | None = None) -> None:
        locale = locale_of(interaction)
        who = member or interaction.user
        rows = await repo.player_stats(self.bot.store, guild_of(interaction), who.id)
        name = getattr(who, "display_name", who.name)
        lines = [self.stats_line(game, row, locale) for game, row in rows.items()]
        embed = discord.Embed(
            title=t("ui.stats_title", locale, name=name),
            description="\n".join(lines) or t("ui.stats_empty", locale, name=name),
        )
        await send_ephemeral(interaction, embed=embed)

    @staticmethod
    def stats_line(game: str, row: repo.BoardRow, locale: str) -> str:
        figures = figures_of(game)
        extra = t("ui.stats_extra_best", locale, best=row.best_score) if "best" in figures else ""
        record = record_text(row, figures, locale)
        return t("ui.stats_line", locale, game=t(f"game.{game}", locale), record=record, extra=extra)


async def setup(bot: DiceTavern) -> None:
    await bot.add_cog(Stats(bot))
