"""Leaderboards by skill rating (per server and season, or across the servers that opted in) and player stats.

Boards order members by the ordinal of their openskill rating (``bot.ratings``); members with fewer than
``PROVISIONAL_GAMES`` rated games are listed apart, computer players never (a chosen game's board shows their
levels' ratings as reference lines), opted-out members nowhere. /stats attaches the rating chart, drawn off the
event loop (``bot.render.chart`` in a worker thread).
"""

from __future__ import annotations

import asyncio
import io
import logging
import math
import re
from typing import TYPE_CHECKING, Any, Literal, cast

import discord
from babel.numbers import format_decimal, format_percent, format_scientific
from discord import app_commands
from discord.ext import commands

from bot.games import get_engine
from bot.games.parsing import parse_int
from bot.i18n import t
from bot.ratings import ALL, MU, SIGMA, Standing, shown
from bot.store import dice_stats, privacy, ratings, repo
from bot.store.ratings import PROVISIONAL_GAMES, Entry, Season, SeasonRefused
from cogs.achievements import stats_line as achievements_line
from cogs.utils.components import MAX_CHOICES, button_label
from cogs.utils.games import game_choices
from cogs.utils.replies import AnswersErrors, anywhere, guild_of, locale_of, send_ephemeral, within_deadline

if TYPE_CHECKING:
    from bot.client import DiceTavern

log = logging.getLogger(__name__)

PAGE = 10
CHART_FROM = 3  # rated games before /stats draws a chart: one or two points are a dot, not a curve
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


def points_text(points: int, locale: str) -> str:
    """Whole rating points with their unit, as the reader writes numbers: ``1,048 pts``."""
    return t("rating.value", locale, rating=number(points, locale, "#,##0"))


def rating_text(ordinal: float, locale: str) -> str:
    """A rating as players see it (``bot.ratings.shown``), with its unit."""
    return points_text(shown(ordinal), locale)


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
        "rating": rating_text(entry.standing.ordinal, locale),
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
                    rating=rating_text(s.ordinal, locale),
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
    r"lb:(?P<guild>-?[0-9]{1,20}):(?P<game>\w{1,20}):(?P<page>[0-9]{1,9})"
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


EXPLAIN_ID = r"rt:explain"  # the /stats button that explains the rating; it holds nothing, so it outlives restarts


class ExplainButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=EXPLAIN_ID):
    """ "How is this worked out?": the rating in plain words, privately, in the reader's language."""

    def __init__(self, label: str = "") -> None:
        super().__init__(discord.ui.Button(label=label or "?", custom_id="rt:explain", emoji="❔"))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ExplainButton:
        return cls(button_label(item))

    async def callback(self, interaction: discord.Interaction) -> None:
        locale = locale_of(interaction)
        text = t(
            "rating.explain",
            locale,
            start=number(shown(0.0), locale, "#,##0"),
            games=PROVISIONAL_GAMES,
            chart=CHART_FROM,
        )
        await send_ephemeral(interaction, text)


def explain_view(locale: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(ExplainButton(t("rating.explain_button", locale)))
    return view


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


def render_chart(points: list[tuple[Any, ...]], text: Any, locale: str, references: dict[str, float]) -> bytes:
    """The PNG of the shown rating over time, from a newcomer's start (blocking: called in a worker thread)."""
    from bot.render.chart import ChartPoint, rating_chart

    start = ChartPoint(MU, SIGMA, shown(0.0))
    drawn = [start, *(ChartPoint(p[0], p[1], shown(p[2]), *p[3:5]) for p in points)]
    lines = {label: float(shown(value)) for label, value in references.items()}
    return rating_chart(drawn, text=text, locale=locale, references=lines, band=False, first=0)


def versus_line(level: str, theirs: Standing, mine: Standing, locale: str) -> str:
    difference = mine.shown - theirs.shown
    key = "rating.versus_ahead" if difference >= 0 else "rating.versus_behind"
    name = t(f"rating.level_{level}", locale)
    ahead = points_text(abs(difference), locale)
    return t(key, locale, level=name, rating=rating_text(theirs.ordinal, locale), difference=ahead)


async def season_choices(
    bot: DiceTavern, interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """The server's seasons whose name holds what was typed (/leaderboard's and /dicestats' season option)."""
    locale = locale_of(interaction)
    known = await ratings.seasons(bot.store, guild_of(interaction))
    typed = current.strip().casefold()
    return [
        app_commands.Choice(name=season_label(s, locale)[:100], value=f"#{s.number}")
        for s in known
        if typed in season_label(s, locale).casefold()
    ][:MAX_CHOICES]


# -- /dicestats ------------------------------------------------------------------------------------------------------

COUNT_BUDGET = 1.5  # seconds a look spends counting games not counted yet before it answers (the rest: background)
FAIR_P = 0.05  # a p-value from here up reads "nothing unusual"
DIE_FACES = ("⚀", "⚁", "⚂", "⚃", "⚄", "⚅")


def p_text(p: float, locale: str) -> str:
    """A p-value as the reader writes numbers: 0.963, 0.0752, 9.3E-15 (below 0.001)."""
    try:
        if p < 0.001:
            return str(format_scientific(p, format="0.0E0", locale=locale))
        return str(format_decimal(p, format="0.###", locale=locale))
    except (ValueError, LookupError):
        return f"{p:.3g}"


def percent_text(share: float, locale: str) -> str:
    """A share as a percentage, 16.7 %, to two decimals below one per cent (never rounded to 0 %)."""
    digits = "#,##0.#%" if share >= 0.01 else "#,##0.##%"
    shown = max(share, 0.0001) if share > 0 else 0.0
    try:
        text = str(format_percent(shown, format=digits, locale=locale))
    except (ValueError, LookupError):
        text = f"{100 * shown:.1f}%"
    return ("<" + text) if 0 < share < 0.0001 else text


def signed_percent(share: float, locale: str) -> str:
    text = percent_text(abs(share), locale)
    return ("+" if share >= 0 else "−") + text


def dice_lines(stats: dice_stats.DiceStats, locale: str, member_name: str | None) -> list[str]:
    """The /dicestats text below the title: the counts against fair dice, the χ² test, each game's luck."""
    faces = stats.faces
    total = sum(faces)
    if not total:
        key = "dice_stats.empty_member" if member_name is not None else "dice_stats.empty"
        return [t(key, locale, name=member_name or "")]
    lines = []
    expected = total / len(faces)
    for index, count in enumerate(faces):
        lines.append(
            t(
                "dice_stats.face_line",
                locale,
                face=DIE_FACES[index],
                count=number(count, locale, "#,##0"),
                expected=number(expected, locale, "#,##0.0"),
                difference=signed_percent(count / expected - 1, locale),
            )
        )
    test = dice_stats.chi_square(faces)
    lines.append("")
    if test is None:
        lines.append(t("dice_stats.chi_few", locale))
    else:
        lines.append(
            t(
                "dice_stats.chi",
                locale,
                chi=number(test.statistic, locale, "#,##0.00"),
                dof=test.dof,
                p=p_text(test.p, locale),
            )
        )
        key = "dice_stats.chi_fair" if test.p >= FAIR_P else "dice_stats.chi_unusual"
        lines.append(t(key, locale, percent=percent_text(test.p, locale)))
    luck = [g for g in stats.by_game if g.tally.trials and g.game in dice_stats.LUCK]
    if luck or member_name is not None:
        lines += ["", t("dice_stats.luck_header", locale)]
    for g in luck:
        tally = g.tally
        lines.append(
            t(
                f"dice_stats.luck_{g.game}",
                locale,
                game=t(f"game.{g.game}", locale),
                trials=number(tally.trials, locale, "#,##0"),
                hits=number(tally.hits, locale, "#,##0"),
                rate=percent_text(tally.hits / tally.trials, locale),
                expected=number(tally.expected, locale, "#,##0.0"),
                fair=percent_text(tally.expected / tally.trials, locale),
            )
        )
    if not luck and member_name is not None:
        lines.append(t("dice_stats.luck_none", locale))
    return lines


def render_dice_chart(counts: list[int], scope: str, locale: str) -> bytes:
    """The PNG of the counts against fair dice (blocking: called in a worker thread)."""
    from bot.render.dice_chart import DiceChartText, dice_chart

    text = DiceChartText(
        title=t("dice_stats.chart_title", locale, scope=scope),
        x_label=t("dice_stats.chart_x", locale),
        y_label=t("dice_stats.chart_y", locale),
        expected=t("dice_stats.chart_expected", locale),
        band=t("dice_stats.chart_band", locale),
        empty=t("dice_stats.chart_empty", locale),
    )
    return dice_chart(counts, text=text, locale=locale)


class Stats(AnswersErrors, commands.Cog):
    def __init__(self, bot: DiceTavern) -> None:
        self.bot = bot
        self.counting: dict[int, asyncio.Task[int]] = {}  # /dicestats: the servers whose old games are being counted

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(PageButton, ExplainButton)

    async def cog_unload(self) -> None:
        """Stop counting, and wait until each count has stopped: the bot closes the store next."""
        tasks = list(self.counting.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self.counting.clear()

    @app_commands.command(name="leaderboard", description=t("cmd.leaderboard"))
    @app_commands.describe(
        game=t("cmd.leaderboard_game"),
        season=t("rating.cmd_leaderboard_season"),
        scope=t("rating.cmd_leaderboard_scope"),
    )
    @app_commands.choices(game=game_choices())
    @anywhere  # in a group DM: its own small board
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
        return await season_choices(self.bot, interaction, current)

    @app_commands.command(name="stats", description=t("cmd.stats"))
    @app_commands.describe(member=t("cmd.stats_member"), game=t("rating.cmd_stats_game"))
    @app_commands.choices(game=game_choices())
    @anywhere
    async def stats(
        self, interaction: discord.Interaction, member: discord.User | None = None, game: str | None = None
    ) -> None:
        locale = locale_of(interaction)
        who = member or interaction.user
        name = getattr(who, "display_name", who.name)
        embed, png = await within_deadline(
            interaction, self.stats_card(guild_of(interaction), who.id, name, game, locale, interaction.user.id)
        )
        view = explain_view(locale)
        if png is None:
            await send_ephemeral(interaction, embed=embed, view=view)
            return
        embed.set_image(url="attachment://rating.png")
        chart = discord.File(io.BytesIO(png), filename="rating.png")
        await send_ephemeral(interaction, embed=embed, file=chart, view=view)

    async def stats_card(
        self, guild_id: int, user_id: int, name: str, game: str | None, locale: str, viewer_id: int | None = None
    ) -> tuple[discord.Embed, bytes | None]:
        """The /stats embed and its chart (None when the member has no rating on this board yet). The member's
        achievements close it, with how rare each is here (an opted-out member's only for themselves)."""
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
                    rating=rating_text(mine.ordinal, locale),
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
            if mine.games >= CHART_FROM:
                points = await ratings.history(store, guild_id, season.number, board, user_id)
                text = chart_text(name, board_name, locale)
                png = await asyncio.to_thread(render_chart, points, text, locale, references)
            else:
                lines.append(t("rating.chart_later", locale, count=CHART_FROM - mine.games))
        shown = {g: row for g, row in rows.items() if game is None or g == game}
        if shown:
            if lines:
                lines.append(t("rating.stats_all_time", locale))
            lines += [self.stats_line(g, row, locale) for g, row in shown.items()]
        if lines and (viewer_id in (None, user_id) or not await privacy.opted_out(store, user_id)):
            lines += ["", await achievements_line(store, guild_id, user_id, locale)]
        embed = discord.Embed(
            title=t("ui.stats_title", locale, name=name),
            description="\n".join(lines) or t("ui.stats_empty", locale, name=name),
        )
        return embed, png

    @app_commands.command(name="dicestats", description=t("dice_stats.cmd"))
    @app_commands.describe(
        game=t("dice_stats.cmd_game"), member=t("dice_stats.cmd_member"), season=t("dice_stats.cmd_season")
    )
    @app_commands.choices(game=game_choices())
    @app_commands.guild_only()
    async def dicestats(
        self,
        interaction: discord.Interaction,
        game: str | None = None,
        member: discord.User | None = None,
        season: str | None = None,
    ) -> None:
        locale = locale_of(interaction)
        guild_id = guild_of(interaction)
        store = self.bot.store
        try:
            chosen = await ratings.season_of(store, guild_id, season) if season and season.strip() else None
        except SeasonRefused as refused:
            await send_ephemeral(interaction, "⚠️ " + t(f"rating.error_{refused.code}", locale, **refused.params))
            return
        name = getattr(member, "display_name", member.name) if member is not None else None
        # An opted-out member's dice are nobody else's to look at (their own stay theirs, privately).
        if member is not None and member.id != interaction.user.id and await privacy.opted_out(store, member.id):
            await send_ephemeral(interaction, t("dice_stats.opted_out", locale, name=name))
            return
        embed, png = await within_deadline(
            interaction, self.dice_card(guild_id, game, member.id if member else None, name, chosen, locale)
        )
        embed.set_image(url="attachment://dice.png")
        await send_ephemeral(interaction, embed=embed, file=discord.File(io.BytesIO(png), filename="dice.png"))

    @dicestats.autocomplete("season")
    async def dice_season_names(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await season_choices(self.bot, interaction, current)

    async def dice_card(
        self,
        guild_id: int,
        game: str | None,
        member_id: int | None,
        name: str | None,
        season: Season | None,
        locale: str,
    ) -> tuple[discord.Embed, bytes]:
        """The /dicestats embed and its chart: the games finished since the last look are counted first."""
        store = self.bot.store
        left = await dice_stats.catch_up(store, guild_id, budget=COUNT_BUDGET)
        if left:
            self.keep_counting(guild_id)
        stats = await dice_stats.totals(store, guild_id, game, member_id, season)
        game_name = t(f"game.{game}", locale) if game else t("dice_stats.all_games", locale)
        season_name = season_label(season, locale) if season is not None else t("dice_stats.all_seasons", locale)
        if member_id is None:
            title = t("dice_stats.title_server", locale, game=game_name)
        else:
            title = t("dice_stats.title_member", locale, name=name, game=game_name)
        lines = [
            t(
                "dice_stats.summary",
                locale,
                season=season_name,
                games=number(stats.games, locale, "#,##0"),
                dice=number(stats.dice, locale, "#,##0"),
            ),
            "",
            *dice_lines(stats, locale, name if member_id is not None else None),
        ]
        if left:
            lines += ["", t("dice_stats.counting", locale, count=number(left, locale, "#,##0"))]
        embed = discord.Embed(title=title, description="\n".join(lines), colour=0x5865F2)
        embed.set_footer(text=t("dice_stats.footer", locale))
        scope = " · ".join([*([name] if member_id is not None and name else []), game_name, season_name])
        png = await asyncio.to_thread(render_dice_chart, stats.faces, scope, locale)
        return embed, png

    def keep_counting(self, guild_id: int) -> None:
        """Count the rest of a server's old games in the background (one task a server), for the next look."""
        running = self.counting.get(guild_id)
        if running is not None and not running.done():
            return
        task = asyncio.create_task(dice_stats.catch_up(self.bot.store, guild_id), name=f"dice-count-{guild_id}")
        self.counting[guild_id] = task

        def done(finished: asyncio.Task[int]) -> None:
            if self.counting.get(guild_id) is finished:
                del self.counting[guild_id]
            if not finished.cancelled() and finished.exception() is not None:
                log.error("counting the dice of server %s failed", guild_id, exc_info=finished.exception())

        task.add_done_callback(done)

    @staticmethod
    def stats_line(game: str, row: repo.BoardRow, locale: str) -> str:
        figures = figures_of(game)
        extra = t("ui.stats_extra_best", locale, best=row.best_score) if "best" in figures else ""
        record = record_text(row, figures, locale)
        return t("ui.stats_line", locale, game=t(f"game.{game}", locale), record=record, extra=extra)


async def setup(bot: DiceTavern) -> None:
    await bot.add_cog(Stats(bot))
