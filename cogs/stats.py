"""Leaderboards by skill rating (per server and season, or across the servers that opted in) and player stats.

Boards order members by the ordinal of their openskill rating (``bot.ratings``); members with fewer than
``PROVISIONAL_GAMES`` rated games are listed apart, computer players never (a chosen game's board shows their
levels' ratings as reference lines), opted-out members nowhere. /stats attaches the rating chart, drawn off the
event loop (``bot.render.chart`` in a worker thread).
"""

from __future__ import annotations

import asyncio
import io
import math
import re
from typing import TYPE_CHECKING, Any, Literal, cast

import discord
from babel.numbers import format_decimal
from discord import app_commands
from discord.ext import commands

from bot.games import get_engine
from bot.games.parsing import parse_int
from bot.i18n import t
from bot.ratings import ALL, Standing
from bot.store import ratings, repo
from bot.store.ratings import PROVISIONAL_GAMES, Entry, Season, SeasonRefused
from cogs.utils.components import MAX_CHOICES, button_label
from cogs.utils.games import game_choices
from cogs.utils.replies import AnswersErrors, guild_of, locale_of, send_ephemeral, within_deadline

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


def number(value: float, locale: str, digits: str = "0.0") -> str:
    """A rating as the reader writes numbers (12.3, 12,3), one decimal."""
    try:
        return str(format_decimal(value, format=digits, locale=locale))
    except (ValueError, LookupError):
        return f"{value:.1f}"


def season_label(season: Season, locale: str) -> str:
    return season.name if season.name is not None else t("rating.season_first", locale)


def board_row(entry: Entry) -> repo.BoardRow:
    """The record beside a rating, as ``record_text`` words it."""
    s = entry.standing
    return repo.BoardRow(entry.user_id, s.games, s.wins, s.best_score or 0, 0, s.losses, s.neutral)


def entry_line(entry: Entry, rank: int | None, figures: tuple[str, ...], locale: str) -> str:
    row = board_row(entry)
    extra = t("ui.board_extra_score", locale, best=row.best_score) if "best" in figures else ""
    fields = {
        "name": f"<@{entry.user_id}>",
        "rating": number(entry.standing.ordinal, locale),
        "record": record_text(row, figures, locale),
        "extra": extra,
    }
    if rank is None:
        return t("rating.board_provisional_line", locale, **fields)
    return t("rating.board_line", locale, rank=rank, **fields)


async def board_page(
    bot: DiceTavern,
    guild_id: int,
    game: str,
    page: int,
    locale: str,
    season: int | None = None,
    scope: str = "server",
) -> tuple[discord.Embed, int, int]:
    """The board's page ``page`` (clamped): (embed, pages, the season shown: its number, -1 for the global board)."""
    game_key = game if game != "all" else None
    board = game_key or ALL
    if scope == "global":
        total = (await ratings.global_board(bot.store, board, 0))[1]
        shown = -1
    else:
        known = await ratings.seasons(bot.store, guild_id)
        chosen = next((s for s in known if s.number == season), known[0])
        total = (await ratings.board(bot.store, guild_id, chosen.number, board, 0))[1]
        shown = chosen.number
    pages = max(1, math.ceil(total / PAGE))
    page = min(max(page, 1), pages)
    offset = (page - 1) * PAGE
    if scope == "global":
        entries = (await ratings.global_board(bot.store, board, PAGE, offset))[0]
        where = t("rating.scope_global", locale)
    else:
        entries = (await ratings.board(bot.store, guild_id, shown, board, PAGE, offset))[0]
        where = t("rating.season_label", locale, season=season_label(chosen, locale))
    title = t("ui.board_title", locale, game=t(f"game.{game}", locale) if game_key else t("ui.board_all", locale))
    figures = figures_of(game_key)
    lines = []
    for rank, entry in enumerate(entries, start=offset + 1):
        if entry.provisional and not any(e.provisional for e in entries[: rank - offset - 1]):  # established first
            lines.append(t("rating.provisional_header", locale, count=PROVISIONAL_GAMES))
        lines.append(entry_line(entry, None if entry.provisional else rank, figures, locale))
    if game_key and scope != "global":
        levels = await ratings.computer_levels(bot.store, guild_id, shown, game_key)
        if levels:
            lines.append(t("rating.computers_header", locale))
            lines += [
                t(
                    "rating.computer_line",
                    locale,
                    level=t(f"rating.level_{level}", locale),
                    rating=number(s.ordinal, locale),
                )
                for level, s in levels.items()
            ]
    embed = discord.Embed(title=title, description="\n".join(lines) or t("ui.board_empty", locale), colour=0xFEE75C)
    embed.set_footer(text=f"{t('ui.board_page', locale, page=page, pages=pages)} · {where}")
    return embed, pages, shown


def board_view(
    guild_id: int, game: str, page: int, pages: int, locale: str, season: int = -1, scope: str = "server"
) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    if pages > 1:
        for target, key, off in ((page - 1, "ui.previous", page <= 1), (page + 1, "ui.next", page >= pages)):
            view.add_item(PageButton(guild_id, game, target, t(key, locale), disabled=off, season=season, scope=scope))
    return view


# ASCII digits of a bounded length: int() of them cannot fail (``\d`` would also match ``٣``, and any length).
# ``lb:<guild>:<game>:<page>`` (buttons from before seasons: the current season), then the season's number (the
# board it was opened on) or ``g`` for the global board.
PAGE_ID = (
    r"lb:(?P<guild>[0-9]{1,20}):(?P<game>\w{1,20}):(?P<page>[0-9]{1,9})"
    r"(?::(?P<season>[0-9]{1,9}))?(?::(?P<scope>g))?"
)


class PageButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=PAGE_ID):
    def __init__(
        self,
        guild_id: int,
        game: str,
        page: int,
        label: str = "",
        disabled: bool = False,
        season: int | None = None,
        scope: str = "server",
    ) -> None:
        tail = ":g" if scope == "global" else f":{season}" if season is not None and season >= 0 else ""
        super().__init__(
            discord.ui.Button(label=label, custom_id=f"lb:{guild_id}:{game}:{max(page, 1)}{tail}", disabled=disabled)
        )
        self.guild_id, self.game, self.page = guild_id, game, max(page, 1)
        self.season = season if scope != "global" else None
        self.scope = scope

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> PageButton:
        # parse_int: a 20-digit id beyond SQLite's INTEGER must not reach the query (it would raise OverflowError)
        guild = parse_int(match["guild"])
        guild_id = (interaction.guild_id or 0) if guild is None else guild
        season = int(match["season"]) if match["season"] else None
        scope = "global" if match["scope"] else "server"
        return cls(guild_id, match["game"], int(match["page"]), button_label(item), season=season, scope=scope)

    async def callback(self, interaction: discord.Interaction) -> None:
        locale = locale_of(interaction)
        bot = cast("DiceTavern", interaction.client)  # the client is always our bot
        embed, pages, shown = await board_page(
            bot, self.guild_id, self.game, self.page, locale, self.season, self.scope
        )
        view = board_view(self.guild_id, self.game, self.page, pages, locale, shown, self.scope)
        await interaction.response.edit_message(embed=embed, view=view)


def chart_text(name: str, board: str, locale: str) -> Any:
    from bot.render.chart import ChartText

    return ChartText(
        title=t("rating.chart_title", locale, name=name, board=board),
        x_label=t("rating.chart_x", locale),
        y_label=t("rating.chart_y", locale),
        rating=t("rating.chart_rating", locale),
        band=t("rating.chart_band", locale),
        empty=t("rating.chart_empty", locale),
    )


def render_chart(points: list[tuple[float, ...]], text: Any, locale: str, references: dict[str, float]) -> bytes:
    """The PNG of the rating over time (blocking: called in a worker thread)."""
    from bot.render.chart import ChartPoint, rating_chart

    return rating_chart([ChartPoint(*p) for p in points], text=text, locale=locale, references=references)


def versus_line(level: str, theirs: Standing, mine: Standing, locale: str) -> str:
    difference = mine.ordinal - theirs.ordinal
    key = "rating.versus_ahead" if difference >= 0 else "rating.versus_behind"
    name = t(f"rating.level_{level}", locale)
    return t(key, locale, level=name, rating=number(theirs.ordinal, locale), difference=number(abs(difference), locale))


class Stats(AnswersErrors, commands.Cog):
    def __init__(self, bot: DiceTavern) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(PageButton)

    @app_commands.command(name="leaderboard", description=t("cmd.leaderboard"))
    @app_commands.describe(
        game=t("cmd.leaderboard_game"),
        season=t("rating.cmd_leaderboard_season"),
        scope=t("rating.cmd_leaderboard_scope"),
    )
    @app_commands.choices(game=game_choices())
    @app_commands.guild_only()
    async def leaderboard(
        self,
        interaction: discord.Interaction,
        game: str | None = None,
        season: str | None = None,
        scope: Literal["server", "global"] = "server",
    ) -> None:
        locale = locale_of(interaction)
        key = game or "all"
        guild_id = guild_of(interaction)
        try:
            if scope == "global" and season:
                raise SeasonRefused("global_season")
            number_ = None if scope == "global" else (await ratings.season_of(self.bot.store, guild_id, season)).number
        except SeasonRefused as refused:
            await send_ephemeral(interaction, "⚠️ " + t(f"rating.error_{refused.code}", locale, **refused.params))
            return
        embed, pages, shown = await board_page(self.bot, guild_id, key, 1, locale, number_, scope)
        content = None
        if scope == "global" and not await self.bot.tables.global_on(guild_id):
            content = t("rating.global_not_in", locale)
        await interaction.response.send_message(
            content, embed=embed, view=board_view(guild_id, key, 1, pages, locale, shown, scope)
        )

    @leaderboard.autocomplete("season")
    async def season_names(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        locale = locale_of(interaction)
        known = await ratings.seasons(self.bot.store, guild_of(interaction))
        typed = current.strip().casefold()
        return [
            app_commands.Choice(name=season_label(s, locale)[:100], value=f"#{s.number}")
            for s in known
            if typed in season_label(s, locale).casefold()
        ][:MAX_CHOICES]

    @app_commands.command(name="stats", description=t("cmd.stats"))
    @app_commands.describe(member=t("cmd.stats_member"), game=t("rating.cmd_stats_game"))
    @app_commands.choices(game=game_choices())
    @app_commands.guild_only()
    async def stats(
        self, interaction: discord.Interaction, member: discord.User | None = None, game: str | None = None
    ) -> None:
        locale = locale_of(interaction)
        who = member or interaction.user
        name = getattr(who, "display_name", who.name)
        embed, png = await within_deadline(
            interaction, self.stats_card(guild_of(interaction), who.id, name, game, locale)
        )
        if png is None:
            await send_ephemeral(interaction, embed=embed)
            return
        embed.set_image(url="attachment://rating.png")
        await send_ephemeral(interaction, embed=embed, file=discord.File(io.BytesIO(png), filename="rating.png"))

    async def stats_card(
        self, guild_id: int, user_id: int, name: str, game: str | None, locale: str
    ) -> tuple[discord.Embed, bytes | None]:
        """The /stats embed and its chart (None when the member has no rating on this board yet)."""
        store = self.bot.store
        season = (await ratings.seasons(store, guild_id))[0]
        board = game or ALL
        board_name = t(f"game.{game}", locale) if game else t("ui.board_all", locale)
        mine = await ratings.standing(store, guild_id, season.number, board, user_id)
        rows = await repo.player_stats(store, guild_id, user_id)
        lines = []
        png = None
        if mine is not None:
            lines.append(
                t(
                    "rating.stats_rating",
                    locale,
                    board=board_name,
                    season=season_label(season, locale),
                    rating=number(mine.ordinal, locale),
                    mu=number(mine.mu, locale),
                    sigma=number(mine.sigma, locale),
                )
            )
            place = await ratings.rank(store, guild_id, season.number, board, user_id)
            if place is not None:
                lines.append(t("rating.stats_rank", locale, rank=place))
            elif mine.games < PROVISIONAL_GAMES:
                lines.append(t("rating.stats_provisional", locale, count=mine.games, min=PROVISIONAL_GAMES))
            else:
                lines.append(t("rating.stats_hidden", locale))
            lines.append(
                t(
                    "rating.stats_record",
                    locale,
                    games=t("ui.n_games", locale, count=mine.games),
                    wins=t("ui.n_wins", locale, count=mine.wins),
                    streak=mine.best_streak,
                )
            )
            favourite = await ratings.favourite_game(store, guild_id, season.number, user_id)
            if favourite is not None:
                lines.append(t("rating.stats_favourite", locale, game=t(f"game.{favourite}", locale)))
            references: dict[str, float] = {}
            if game:
                levels = await ratings.computer_levels(store, guild_id, season.number, game)
                lines += [versus_line(level, theirs, mine, locale) for level, theirs in levels.items()]
                references = {t(f"rating.level_{level}", locale): s.ordinal for level, s in levels.items()}
            points = await ratings.history(store, guild_id, season.number, board, user_id)
            text = chart_text(name, board_name, locale)
            png = await asyncio.to_thread(render_chart, points, text, locale, references)
        shown = {g: row for g, row in rows.items() if game is None or g == game}
        if shown:
            if lines:
                lines.append(t("rating.stats_all_time", locale))
            lines += [self.stats_line(g, row, locale) for g, row in shown.items()]
        embed = discord.Embed(
            title=t("ui.stats_title", locale, name=name),
            description="\n".join(lines) or t("ui.stats_empty", locale, name=name),
        )
        return embed, png

    @staticmethod
    def stats_line(game: str, row: repo.BoardRow, locale: str) -> str:
        figures = figures_of(game)
        extra = t("ui.stats_extra_best", locale, best=row.best_score) if "best" in figures else ""
        record = record_text(row, figures, locale)
        return t("ui.stats_line", locale, game=t(f"game.{game}", locale), record=record, extra=extra)


async def setup(bot: DiceTavern) -> None:
    await bot.add_cog(Stats(bot))
