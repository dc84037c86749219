"""/tournament (issue 28): sign-up by button, the rounds the tournament service opens, host tools, standings.

The tournament service (``bot.tables.tournaments``) decides and commits; this cog is its Discord side and its
``Venue``: ``open_channel`` starts a public thread per table where the bot may (else None: the service plays the
tables in the tournament's channel, one at a time), ``announce`` posts one message per round in the tournament's
channel that pings only that round's players, and one at the end with the winners and the standings. At the end
(or a cancel) the tables' threads are archived.

The sign-up message is a Components V2 layout with restart-proof buttons (``tn:<tournament id>:<verb>``, a
``DynamicItem``: nothing lives in memory). A click is answered in one place (``Tournaments.clicked``): the service
acts, then the clicked message is redrawn through the interaction's response, or a refusal is answered privately.
Announcements carry names, table numbers and thread links only: nothing of any game's state, so no secret.
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
from collections.abc import Coroutine, Sequence
from typing import TYPE_CHECKING, Any, Literal, cast

import discord
from discord import app_commands
from discord.ext import commands

from bot.games.parsing import clip
from bot.i18n import t
from bot.render.tournament import TournamentText, tournament_picture
from bot.store import tournaments as store_t
from bot.tables import TableError
from bot.tables.tournaments import Snapshot
from bot.tournaments import Plan, Standing, TournamentRefused, rounds_total, tiebreak_names
from cogs.stats import number
from cogs.utils.components import COLOURS, Blocks, button_label, text_message
from cogs.utils.gamecog import seat_for
from cogs.utils.games import game_choices
from cogs.utils.replies import (
    ANSWERED,
    AnswersErrors,
    answer_error,
    channel_of,
    guild_of,
    locale_of,
    send_ephemeral,
    server_only,
    table_locale_of,
    within_deadline,
)

if TYPE_CHECKING:
    from bot.client import DiceTavern

log = logging.getLogger(__name__)

TOURNAMENT_ID = r"tn:(?P<id>[0-9]{1,20}):(?P<verb>join|leave|start|standings)"
FORMAT_KEYS = {"swiss": "swiss", "knockout": "knockout", "round-robin": "round_robin"}  # the option's value -> Plan
FORMAT_CHOICES = [
    app_commands.Choice(name=t(f"tournament.format_{plan}"), value=value) for value, plan in FORMAT_KEYS.items()
]
# What the picker lets one type; the start refuses more than the entrants allow (a Swiss never has more rounds than
# a round robin of them: 63 for the 64 of bot.tables.tournaments.MAX_ENTRANTS).
MAX_ROUNDS = 63
THREAD_ARCHIVE: Literal[1440] = 1440  # minutes: a table's thread stays in the list a day after its last message
THREAD_NAME_MAX = 100  # Discord's limit for a thread's name
ACCENT = 0xF1C40F  # the tournament's gold
NO_PINGS = discord.AllowedMentions.none()
PICTURE = "standings.png"


class TournamentButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=TOURNAMENT_ID):
    """``tn:<tournament id>:<verb>`` on the sign-up message: join, leave, start (the host's) or standings."""

    def __init__(self, tournament_id: int, verb: str, label: str = "", style: str = "secondary") -> None:
        styles = {"success": discord.ButtonStyle.success, "primary": discord.ButtonStyle.primary}
        super().__init__(
            discord.ui.Button(
                label=label or verb,
                style=styles.get(style, discord.ButtonStyle.secondary),
                custom_id=f"tn:{tournament_id}:{verb}",
            )
        )
        self.tournament_id, self.verb = tournament_id, verb

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> TournamentButton:
        return cls(int(match["id"]), match["verb"], button_label(item))

    async def callback(self, interaction: discord.Interaction) -> None:
        await clicked(cast("DiceTavern", interaction.client), interaction, self.tournament_id, self.verb)


# -- text ----------------------------------------------------------------------------------------------------------


def is_admin(interaction: discord.Interaction) -> bool:
    """Manage Server: the host's tools are theirs too."""
    return bool(getattr(interaction.permissions, "manage_guild", False))


def mention(user_id: int) -> str:
    return f"<@{user_id}>"


def format_name(plan: Plan, locale: str) -> str:
    return t(f"tournament.format_{plan.format}", locale)


def game_name(row: store_t.TournamentRow, locale: str) -> str:
    return t(f"game.{row.game}", locale)


def refused_text(refused: TournamentRefused, locale: str) -> str:
    return "⚠️ " + t(f"tournament.refused_{refused.code}", locale, **refused.params)


def points(value: float, locale: str) -> str:
    return number(value, locale, "0.#")


def whole(value: float) -> float | int:
    """A whole number of points as an int (its plural form read as CLDR reads integers)."""
    return int(value) if value.is_integer() else value


def standing_lines(plan: Plan, table: Sequence[Standing], locale: str) -> list[str]:
    names = [t(f"tournament.tiebreak_{name}", locale) for name in tiebreak_names(plan)]
    lines = []
    for s in table:
        breaks = "".join(f" · {name} {points(value, locale)}" for name, value in zip(names, s.tiebreaks, strict=False))
        out = t("tournament.standing_out", locale) if s.eliminated or s.withdrawn else ""
        lines.append(
            t(
                "tournament.standing_line",
                locale,
                rank=s.rank,
                name=mention(s.player),
                points=t("tournament.points", locale, count=whole(s.points), points=points(s.points, locale)),
                tiebreaks=breaks + out,
            )
        )
    return lines


def status_line(row: store_t.TournamentRow) -> str:
    locale = row.locale
    played = max(row.byes, default=0)
    if row.status == "running":
        key = "status_paused" if row.paused else "status_running"
        return t(f"tournament.{key}", locale, round=played)
    if row.status in ("finished", "cancelled"):
        return t(f"tournament.status_{row.status}", locale)
    return t("tournament.signup_hint", locale)


def signup_view(row: store_t.TournamentRow) -> discord.ui.LayoutView:
    """The tournament's message: what it is, who signed up, where it stands, and its buttons."""
    locale = row.locale
    plan = Plan.from_json(row.plan)
    blocks = Blocks()
    blocks.text(t("tournament.title", locale, game_name=game_name(row, locale), format=format_name(plan, locale)))
    rounds = (
        t("tournament.plan_rounds", locale, count=plan.rounds)
        if plan.rounds is not None
        else t("tournament.plan_rounds_natural", locale)
    )
    seats = t("tournament.plan_seats", locale, count=plan.seats)
    blocks.text(f"{seats} · {rounds}\n" + t("tournament.host", locale, host=mention(row.host_id)))
    blocks.separator()
    if row.entrants:
        who = ", ".join(
            t("tournament.withdrawn", locale, name=mention(e.user_id)) if e.withdrawn else mention(e.user_id)
            for e in row.entrants
        )
        blocks.text(t("tournament.entrants", locale, count=len(row.entrants)) + "\n" + who)
    else:
        blocks.text(t("tournament.entrants_none", locale))
    blocks.text(status_line(row))
    buttons: list[TournamentButton] = []
    if row.status == "signup":
        buttons += [
            TournamentButton(row.id, "join", t("tournament.button_join", locale), "success"),
            TournamentButton(row.id, "leave", t("tournament.button_leave", locale)),
            TournamentButton(row.id, "start", t("tournament.button_start", locale), "primary"),
        ]
    elif row.status == "running":
        buttons += [
            TournamentButton(row.id, "standings", t("tournament.button_standings", locale), "primary"),
            TournamentButton(row.id, "leave", t("tournament.button_leave", locale)),
        ]
    elif row.status == "finished":
        buttons.append(TournamentButton(row.id, "standings", t("tournament.button_standings", locale), "primary"))
    rows: list[discord.ui.ActionRow[Any]] = []
    if buttons:
        action_row: discord.ui.ActionRow[Any] = discord.ui.ActionRow()
        for button in buttons:
            action_row.add_item(button)
        rows.append(action_row)
    accent = COLOURS["cancelled"] if row.status == "cancelled" else ACCENT
    return blocks.layout(accent, rows=rows)


def round_lines(row: store_t.TournamentRow, data: dict[str, Any]) -> tuple[list[str], list[int]]:
    """A round's announcement and the players it may ping (its tables' and its byes)."""
    locale = row.locale
    lines = [t("tournament.round_title", locale, round=data["round"], game_name=game_name(row, locale))]
    players: list[int] = []
    here_taken = False
    for table in data["tables"]:
        seated = [int(p) for p in table["players"]]
        players += seated
        channel = table.get("channel_id")
        if channel and int(channel) != row.channel_id:
            where = f"<#{int(channel)}>"
        elif table.get("game_id") is not None and not here_taken:
            where, here_taken = t("tournament.round_here", locale), True
        else:
            where = t("tournament.round_queued", locale)
        lines.append(
            t(
                "tournament.round_table",
                locale,
                table=table["number"],
                players=" · ".join(mention(p) for p in seated),
                where=where,
            )
        )
    byes = [int(p) for p in data.get("byes", ())]
    if byes:
        players += byes
        lines.append(t("tournament.round_byes", locale, count=len(byes), players=", ".join(mention(p) for p in byes)))
    lines.append(t("tournament.round_hint", locale))
    return lines, players


# -- answers shared by the commands and the sign-up message's buttons -------------------------------------------


async def send_standings(bot: DiceTavern, interaction: discord.Interaction, row: store_t.TournamentRow) -> None:
    locale = locale_of(interaction)
    snap = await bot.tournaments.snapshot(row)
    if not snap.rounds:
        await send_ephemeral(interaction, t("tournament.standings_empty", locale))
        return
    lines = [t("tournament.standings_title", locale, round=len(snap.rounds))]
    lines += standing_lines(snap.plan, snap.standings(), locale)
    final = snap.row.status == "finished"
    drawn = with_picture(text_message(lines, ACCENT), snap, locale, final=final)
    view, file = await within_deadline(interaction, drawn)
    await send_ephemeral(interaction, view=view, allowed_mentions=NO_PINGS, **file)


async def clicked(bot: DiceTavern, interaction: discord.Interaction, tournament_id: int, verb: str) -> None:
    """A click on the sign-up message (the buttons' one entry point): the service acts, then this message is
    redrawn, or the refusal is answered privately. The button's tournament must be the channel's open one (an old
    message's is not)."""
    service = bot.tournaments
    channel = channel_of(interaction)
    try:
        if verb == "standings":
            row = await store_t.load(bot.store, tournament_id)
            if row is None or row.channel_id != channel:
                raise TableError("tournament_none")
            await send_standings(bot, interaction, row)
            return
        current = await service.in_channel(channel)
        if current is None or current.id != tournament_id:
            raise TableError("tournament_none")
        user = interaction.user
        if verb == "join":
            row = await service.join(channel, seat_for(user))
        elif verb == "leave":
            row = await service.leave(channel, user.id)
        else:
            row = await within_deadline(interaction, service.start(channel, user.id, is_admin(interaction)))
        if interaction.response.is_done():  # deferred near the deadline: the original is the clicked message
            await interaction.edit_original_response(view=signup_view(row))
        else:
            await interaction.response.edit_message(view=signup_view(row))
        if verb == "leave" and row.status == "running":
            await send_ephemeral(interaction, t("tournament.left_running", locale_of(interaction)))
    except TournamentRefused as refused:
        await send_ephemeral(interaction, refused_text(refused, locale_of(interaction)))
    except Exception as error:
        await answer_error(interaction, error)


# -- the cog -------------------------------------------------------------------------------------------------------


@server_only  # an admin's or a host's tools: installed to servers, used in servers
class Tournaments(AnswersErrors, commands.GroupCog, group_name="tournament", group_description=t("tournament.cmd")):
    """``/tournament`` and the tournament service's ``Venue``."""

    def __init__(self, bot: DiceTavern) -> None:
        self.bot = bot
        self._tasks: set[asyncio.Task[None]] = set()
        self._said: dict[int, asyncio.Lock] = {}  # one tournament's announcements go out in order
        super().__init__()

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(TournamentButton)
        if self.bot.commands_only:
            return
        self.bot.tournaments.venue = self
        self._spawn(self._start_up())

    async def cog_unload(self) -> None:
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def _start_up(self) -> None:
        """After a restart: once the guilds are known (a thread needs its channel's permissions), every running
        tournament is brought forward (tables that ended while down, rounds owed)."""
        await self.bot.wait_until_ready()
        await self.bot.tournaments.start_up()

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def cog_app_command_error(self, interaction: discord.Interaction, error: Exception) -> None:
        original = getattr(error, "original", error)
        if isinstance(original, TournamentRefused) and not interaction.extras.get(ANSWERED):
            interaction.extras[ANSWERED] = True  # the bot's tree-wide handler leaves it be
            await send_ephemeral(interaction, refused_text(original, locale_of(interaction)))
            return
        await answer_error(interaction, error)

    # -- commands --------------------------------------------------------------------------------------------------

    @app_commands.command(name="new", description=t("tournament.cmd_new"))
    @app_commands.describe(
        game=t("tournament.cmd_new_game"),
        format=t("tournament.cmd_new_format"),
        rounds=t("tournament.cmd_new_rounds"),
        seats=t("tournament.cmd_new_seats"),
    )
    @app_commands.choices(game=game_choices(), format=FORMAT_CHOICES)
    async def new(
        self,
        interaction: discord.Interaction,
        game: str,
        format: str,
        rounds: app_commands.Range[int, 1, MAX_ROUNDS] | None = None,
        seats: int | None = None,
    ) -> None:
        plan_format = FORMAT_KEYS.get(format, format)  # an unknown one is the engine's to refuse
        if rounds is not None and plan_format != "swiss":
            raise TableError("tournament_rounds_fixed")
        plan = Plan(plan_format, 2 if seats is None else seats, rounds)  # the rounds are checked at the start
        host = seat_for(interaction.user)
        row = await self.bot.tournaments.create(
            guild_of(interaction), channel_of(interaction), host, game, plan, table_locale_of(interaction)
        )
        answered = await interaction.response.send_message(view=signup_view(row), allowed_mentions=NO_PINGS)
        if answered.message_id is not None:
            await self.bot.tournaments.set_message(row.id, answered.message_id)

    @app_commands.command(name="start", description=t("tournament.cmd_start"))
    async def start(self, interaction: discord.Interaction) -> None:
        work = self.bot.tournaments.start(channel_of(interaction), interaction.user.id, is_admin(interaction))
        row = await within_deadline(interaction, work)
        await self.redraw(row)
        await send_ephemeral(interaction, t("tournament.started", locale_of(interaction)))

    @app_commands.command(name="cancel", description=t("tournament.cmd_cancel"))
    async def cancel(self, interaction: discord.Interaction) -> None:
        work = self.bot.tournaments.cancel(channel_of(interaction), interaction.user.id, is_admin(interaction))
        row = await within_deadline(interaction, work)
        await self.redraw(row)
        await send_ephemeral(interaction, t("tournament.cancelled", locale_of(interaction)))

    @app_commands.command(name="remove", description=t("tournament.cmd_remove"))
    @app_commands.describe(member=t("tournament.cmd_remove_member"))
    async def remove(self, interaction: discord.Interaction, member: discord.User) -> None:
        channel = channel_of(interaction)
        await self.bot.tournaments.remove(channel, interaction.user.id, member.id, is_admin(interaction))
        row = await self.bot.tournaments.in_channel(channel)
        if row is not None:
            await self.redraw(row)
        await send_ephemeral(
            interaction,
            t("tournament.removed", locale_of(interaction), name=mention(member.id)),
            allowed_mentions=NO_PINGS,
        )

    @app_commands.command(name="pause", description=t("tournament.cmd_pause"))
    async def pause(self, interaction: discord.Interaction) -> None:
        await self._pause(interaction, True)

    @app_commands.command(name="resume", description=t("tournament.cmd_resume"))
    async def resume(self, interaction: discord.Interaction) -> None:
        await self._pause(interaction, False)

    async def _pause(self, interaction: discord.Interaction, paused: bool) -> None:
        channel = channel_of(interaction)
        work = self.bot.tournaments.set_paused(channel, interaction.user.id, paused, is_admin(interaction))
        await within_deadline(interaction, work)
        row = await self.bot.tournaments.in_channel(channel)
        if row is not None:
            await self.redraw(row)
        await send_ephemeral(interaction, t(f"tournament.{'paused' if paused else 'resumed'}", locale_of(interaction)))

    @app_commands.command(name="standings", description=t("tournament.cmd_standings"))
    async def standings(self, interaction: discord.Interaction) -> None:
        row = await self.bot.tournaments.in_channel(channel_of(interaction))
        if row is None:
            raise TableError("tournament_none")
        await send_standings(self.bot, interaction, row)

    async def redraw(self, row: store_t.TournamentRow) -> None:
        """Edit the sign-up message to show ``row`` (with the bot's token: it was posted as a command's reply)."""
        if row.message_id is None:
            return
        channel = self.bot.get_partial_messageable(row.channel_id, guild_id=row.guild_id)
        try:
            await channel.get_partial_message(row.message_id).edit(view=signup_view(row))
        except discord.HTTPException as error:  # deleted, or no access any more: the buttons still answer
            log.info("tournament %s: its message could not be redrawn (%s)", row.id, error)

    # -- the Venue -------------------------------------------------------------------------------------------------

    async def open_channel(self, tournament: store_t.TournamentRow, table: store_t.TableRow) -> int | None:
        """A public thread for ``table`` in the tournament's channel, or None where the bot may not start one (the
        service then plays it in the channel). Permissions are read from the cache, so a refusal costs no call."""
        channel = self.bot.get_channel(tournament.channel_id)
        if not isinstance(channel, discord.TextChannel):
            return None
        perms = channel.permissions_for(channel.guild.me)
        if not (perms.create_public_threads and perms.send_messages_in_threads):
            return None
        name = t("tournament.thread_name", tournament.locale, round=table.round, table=table.number)
        try:
            thread = await channel.create_thread(
                name=clip(name, THREAD_NAME_MAX),
                type=discord.ChannelType.public_thread,
                auto_archive_duration=THREAD_ARCHIVE,
            )
        except discord.HTTPException as error:
            log.warning(
                "tournament %s: no thread for round %s table %s (%s)", tournament.id, table.round, table.number, error
            )
            return None
        return thread.id

    def announce(self, tournament: store_t.TournamentRow, kind: str, data: dict[str, Any]) -> None:
        self._spawn(self._announce(tournament, kind, data))

    async def _announce(self, row: store_t.TournamentRow, kind: str, data: dict[str, Any]) -> None:
        async with self._said.setdefault(row.id, asyncio.Lock()):
            try:
                await self._say(row, kind, data)
            except discord.HTTPException as error:
                log.warning("tournament %s: the %s announcement failed (%s)", row.id, kind, error)
            await self.redraw(row)
            if kind in ("over", "cancelled"):
                await self.archive_threads(row)

    async def archive_threads(self, row: store_t.TournamentRow) -> None:
        """A finished or cancelled tournament's table threads leave the channel's list of active threads (they stay
        readable): the bot started them, so it may archive them without Manage Threads."""
        for channel_id in dict.fromkeys(x.channel_id for x in row.tables):
            if channel_id is None or channel_id == row.channel_id:
                continue
            try:
                await self.bot.http.edit_channel(channel_id, archived=True)
            except discord.HTTPException as error:  # deleted meanwhile, or no access: nothing to tidy
                log.info("tournament %s: thread %s not archived (%s)", row.id, channel_id, error)

    async def _say(self, row: store_t.TournamentRow, kind: str, data: dict[str, Any]) -> None:
        locale = row.locale
        channel = self.bot.get_partial_messageable(row.channel_id, guild_id=row.guild_id)
        if kind == "round":
            lines, players = round_lines(row, data)
            pings = discord.AllowedMentions(
                everyone=False, roles=False, users=[discord.Object(p) for p in dict.fromkeys(players)]
            )
            await channel.send(view=text_message(lines, ACCENT), allowed_mentions=pings)
        elif kind == "over":
            await self._say_over(row, data, channel)
        elif kind in ("cancelled", "paused", "resumed"):
            text = t(f"tournament.announce_{kind}", locale, game_name=game_name(row, locale))
            await channel.send(view=text_message([text], ACCENT), allowed_mentions=NO_PINGS)

    async def _say_over(self, row: store_t.TournamentRow, data: dict[str, Any], channel: Any) -> None:
        locale = row.locale
        plan = Plan.from_json(row.plan)
        table: list[Standing] = list(data.get("standings") or [])
        won = [int(p) for p in data.get("winners") or []]
        lines = [t("tournament.over_title", locale, game_name=game_name(row, locale))]
        if won:
            lines.append(
                t("tournament.over_winners", locale, count=len(won), players=", ".join(mention(p) for p in won))
            )
        else:
            lines.append(t("tournament.over_none", locale))
        rounds = max(row.byes, default=0)
        lines += ["", t("tournament.standings_title", locale, round=rounds), *standing_lines(plan, table, locale)]
        snap = await self.bot.tournaments.snapshot(row)
        view, file = await with_picture(text_message(lines, ACCENT), snap, locale, final=True)
        await channel.send(view=view, allowed_mentions=NO_PINGS, **file)


def picture_text(snap: Snapshot, locale: str, *, final: bool) -> TournamentText:
    """The picture's words from the catalog: its title, where the tournament stands, the headings and tags."""
    row, plan = snap.row, snap.plan
    levels = rounds_total(plan, len(snap.entrants))

    def head(n: int) -> str:
        if n == levels:
            return t("tournament.picture_final", locale)
        if n == levels - 1 and plan.seats == 2:  # four players left in pairs
            return t("tournament.picture_semi_final", locale)
        return t("tournament.picture_round", locale, round=n)

    heads = tuple(head(n) for n in range(1, levels + 1))
    if final:
        status = t("tournament.picture_final_standings", locale)
    else:
        status = t("tournament.picture_after", locale, round=len(snap.rounds), rounds=levels)
    return TournamentText(
        title=t("tournament.picture_title", locale, format=format_name(plan, locale), game_name=game_name(row, locale)),
        status=status,
        rank=t("tournament.picture_rank", locale),
        player=t("tournament.picture_player", locale),
        points=t("tournament.picture_points", locale),
        tiebreaks=tuple(t(f"tournament.picture_tiebreak_{name}", locale) for name in tiebreak_names(plan)),
        rounds=heads,
        winner=t("tournament.picture_winner", locale),
        bye=t("tournament.picture_bye", locale),
        no_show=t("tournament.picture_no_show", locale),
        withdrawn=t("tournament.picture_withdrawn", locale),
    )


async def with_picture(
    view: discord.ui.LayoutView, snap: Snapshot, locale: str, *, final: bool = False
) -> tuple[discord.ui.LayoutView, dict[str, Any]]:
    """``view`` with the standings table (Swiss, round robin) or the bracket (knockout) below it, and its file (as a
    send's keyword arguments), drawn in a worker thread (matplotlib blocks). A picture that fails leaves the text
    standings alone."""
    names = {e.user_id: e.name for e in snap.row.entrants}
    text = picture_text(snap, locale, final=final)
    try:
        png = await asyncio.to_thread(
            tournament_picture,
            snap.plan,
            snap.entrants,
            snap.rounds,
            snap.outcomes,
            names,
            text=text,
            withdrawn=snap.withdrawn,
            locale=locale,
        )
    except Exception:  # the words are there; a picture is a bonus
        log.exception("tournament %s: the standings picture failed", snap.row.id)
        return view, {}
    alt = t("tournament.standings_picture", locale, game_name=game_name(snap.row, locale))
    gallery: discord.ui.MediaGallery[Any] = discord.ui.MediaGallery()
    gallery.add_item(media=f"attachment://{PICTURE}", description=alt)
    view.add_item(gallery)
    return view, {"file": discord.File(io.BytesIO(png), filename=PICTURE, description=alt)}


async def setup(bot: DiceTavern) -> None:
    await bot.add_cog(Tournaments(bot))
