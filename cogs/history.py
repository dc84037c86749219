"""Game history: ``/history``, and ``/game replay``, ``/game export`` and ``/game verify`` for a game that is over.

The three ``/game`` subcommands join the table surface's ``/game`` group (cogs/tables.py owns it and loads first,
see ``bot.client.extensions``). Every answer is the asker's own (ephemeral) except ``/game verify``, whose ✓ or
first mismatch concerns the whole table. The paging and replay buttons are DynamicItems: their custom_id holds
what to show (the filter and page; the game and step), so they work after a restart; the server is always the
interaction's own, never one read from a custom_id.
"""

from __future__ import annotations

import asyncio
import io
import math
import re
from collections.abc import Awaitable, Callable
from importlib import resources
from typing import TYPE_CHECKING, Any, cast

import discord
from discord import app_commands
from discord.ext import commands

from bot.environment import verifier_url
from bot.games import available_games
from bot.games.parsing import parse_int
from bot.i18n import t
from bot.jsontext import dumps
from bot.render.replay import ReplayPage, replay_page
from bot.replay import export_of, replay
from bot.store import history
from bot.store.history import GameRecord
from bot.verify import mismatch_text, verify_export
from cogs.utils.components import Blocks, button_label, rows_of
from cogs.utils.games import game_choices
from cogs.utils.replies import answer_error, anywhere, guild_of, locale_of, send_ephemeral, within_deadline

if TYPE_CHECKING:
    from bot.client import DiceTavern

PAGE = 10
MAX_ID = 2**63 - 1  # SQLite's INTEGER: a larger id cannot name a game (and must not reach a query)
COLOUR = 0x99AAB5
VERIFIER_PAGE = "verify.html"  # the verifier in the browser, bot/assets/verify.html (scripts/build_verifier.py)


class Refused(Exception):
    """A refusal worded by ``history.<code>``."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code)
        self.code, self.params = code, params


def _bot(interaction: discord.Interaction) -> DiceTavern:
    return cast("DiceTavern", interaction.client)  # the client is always our bot


async def answered(
    interaction: discord.Interaction, work: Callable[[], Awaitable[None]], *, ephemeral: bool = True
) -> None:
    """Run ``work``; a refusal is answered in the asker's words, privately, anything else by the shared path.
    ``ephemeral``: whether the answer is the asker's own, should it be deferred (decided at defer time)."""
    try:
        await within_deadline(interaction, work(), ephemeral=ephemeral)
    except Refused as refusal:
        await send_ephemeral(interaction, "⚠️ " + t(f"history.{refusal.code}", locale_of(interaction), **refusal.params))
    except Exception as error:  # never "This interaction failed"
        await answer_error(interaction, error)


async def game_over(interaction: discord.Interaction, game_id: int) -> GameRecord:
    """The record of a game of this server that is over and was played; else the specific refusal."""
    record = await history.game_record(_bot(interaction).store, game_id) if 0 < game_id <= MAX_ID else None
    if record is None:
        raise Refused("unknown", id=game_id)
    if record.guild_id != guild_of(interaction):  # a group DM's games are its own (its channel id)
        raise Refused("other_server", id=game_id)
    if not record.over:  # checked before anything of the game is read further: its seed stays in the store
        raise Refused(f"not_over_{record.status}", id=game_id)
    if not record.moves or record.moves[0].action != "start":
        raise Refused("no_moves", id=game_id)
    return record


async def update(interaction: discord.Interaction, **message: Any) -> None:
    """Redraw the message a button is on (in the response, or after a deferral near the 3 s deadline)."""
    if interaction.response.is_done():
        await interaction.edit_original_response(**message)
    else:
        await interaction.response.edit_message(**message)


# -- /history -------------------------------------------------------------------------------------------------


def when(timestamp: float) -> str:
    """Discord's timestamp markup: each reader sees the date in their own time zone and language."""
    return f"<t:{int(timestamp)}:f>"


PLAYERS_ROOM, WINNERS_ROOM = 200, 110  # characters: ten lines of ten 32-character names still fit the embed


def listed(names: list[str], room: int) -> str:
    """``names`` joined by commas, as many as fit in ``room`` characters, then ``+N`` for the others."""
    shown = ", ".join(names)
    kept = len(names)
    while len(shown) > room and kept > 1:
        kept -= 1
        shown = ", ".join(names[:kept]) + f", +{len(names) - kept}"
    return shown


def history_line(g: Any, locale: str) -> str:
    """One game of /history (a ``history.GameSummary``): a finished one with its winners; one cancelled after it
    started with its revealed seed; 👑 when the bot's owner played."""
    if g.cancelled:
        winners = t("history.cancelled", locale) + (" " + t("history.seed", locale, seed=g.seed) if g.seed else "")
    else:
        names = listed(list(g.winners), WINNERS_ROOM)
        winners = t("history.winners", locale, names=names) if names else t("history.no_winner", locale)
    if g.owner_seated:
        winners += " · " + t("history.owner_seated", locale)
    name = t(f"game.{g.game}", locale)
    players = listed(list(g.players), PLAYERS_ROOM)
    return t("history.line", locale, id=g.id, when=when(g.finished_at), game=name, players=players, winners=winners)


async def history_page(
    bot: DiceTavern, guild_id: int, member: int | None, game: str | None, page: int, locale: str
) -> tuple[discord.Embed, int, int]:
    """(the page's embed, the page shown, how many pages)."""
    total = await history.count_finished(bot.store, guild_id, member, game)
    pages = max(1, math.ceil(total / PAGE))
    page = min(max(page, 1), pages)
    games = await history.finished_games(bot.store, guild_id, member, game, PAGE, (page - 1) * PAGE)
    lines = [history_line(g, locale) for g in games]
    what = t(f"game.{game}", locale) if game else t("history.all", locale)
    if member is not None:
        what += f" · <@{member}>"
    embed = discord.Embed(
        title=t("history.title", locale, what=what)[:256],
        description="\n".join(lines)[:4000] or t("history.empty", locale),
        colour=COLOUR,
    )
    embed.set_footer(text=t("history.page", locale, page=page, pages=pages))
    return embed, page, pages


def history_view(member: int | None, game: str | None, page: int, pages: int, locale: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    if pages > 1:
        view.add_item(HistoryPage("p", member, game, page - 1, t("history.previous", locale), page <= 1))
        view.add_item(HistoryPage("n", member, game, page + 1, t("history.next", locale), page >= pages))
    return view


# ASCII digits of a bounded length (``\d`` would match ``٣``); the game is checked against the registry.
HISTORY_ID = r"hist:(?P<dir>[pn]):(?P<member>[0-9]{1,20}):(?P<game>\w{1,20}):(?P<page>[0-9]{1,9})"


class HistoryPage(discord.ui.DynamicItem[discord.ui.Button[Any]], template=HISTORY_ID):
    """``hist:<p|n>:<member id or 0>:<game or all>:<page>``: a page of this server's history."""

    def __init__(
        self, way: str, member: int | None, game: str | None, page: int, label: str = "", disabled: bool = False
    ) -> None:
        page = max(page, 1)
        custom_id = f"hist:{way}:{member or 0}:{game or 'all'}:{page}"
        super().__init__(discord.ui.Button(label=label or way, custom_id=custom_id, disabled=disabled))
        self.way, self.member, self.game, self.page = way, member, game, page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> HistoryPage:
        member = parse_int(match["member"])  # None: beyond SQLite's INTEGER, cannot be anyone
        game = match["game"] if match["game"] in available_games() else None
        return cls(match["dir"], member or None, game, int(match["page"]), button_label(item))

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            locale = locale_of(interaction)
            embed, page, pages = await history_page(
                _bot(interaction), guild_of(interaction), self.member, self.game, self.page, locale
            )
            await update(interaction, embed=embed, view=history_view(self.member, self.game, page, pages, locale))

        await answered(interaction, work)


# -- /game replay ---------------------------------------------------------------------------------------------


async def show_replay(interaction: discord.Interaction, game_id: int, step: int, edit: bool) -> None:
    record = await game_over(interaction, game_id)
    locale = locale_of(interaction)
    steps = replay(record.game, len(record.seats), record.options, record.moves)
    if not steps.steps:
        raise Refused("no_moves", id=game_id)
    step = min(max(step, 0), len(steps.steps) - 1)
    layout = replay_layout(replay_page(record, steps, step, locale), game_id, step, len(steps.steps) - 1, locale)
    if edit:
        await update(interaction, content=None, embed=None, view=layout)
    else:
        await send_ephemeral(interaction, view=layout)


def replay_layout(page: ReplayPage, game_id: int, step: int, last: int, locale: str) -> discord.ui.LayoutView:
    """A replay page as the table's V2 design: the table then, every seat's own view, the log, the buttons."""
    blocks = Blocks()
    blocks.text("\n".join([f"## {page.title}", *page.body]))
    if page.hidden:  # every seat's own view: the game is over, nothing is secret any more
        blocks.separator()
        blocks.text("\n".join(page.hidden))
    rows = rows_of(replay_view(game_id, step, last, locale))
    return blocks.layout(COLOUR, log=page.log, small=page.footer, rows=rows, log_title=t("table.log", locale))


def replay_view(game_id: int, step: int, last: int, locale: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for way, target, key, off in (
        ("f", 0, "history.first", step <= 0),
        ("p", step - 1, "history.previous", step <= 0),
        ("n", step + 1, "history.next", step >= last),
        ("l", last, "history.last", step >= last),
    ):
        view.add_item(ReplayButton(game_id, target, way, t(key, locale), off))
    return view


REPLAY_ID = r"rp:(?P<game>[0-9]{1,19}):(?P<step>[0-9]{1,9}):(?P<way>[fpnl])"


class ReplayButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=REPLAY_ID):
    """``rp:<game id>:<step to show>:<f|p|n|l>`` (the way tells ⏮ from ◀ when both lead to the same step)."""

    def __init__(self, game_id: int, step: int, way: str, label: str = "", disabled: bool = False) -> None:
        step = max(step, 0)
        super().__init__(
            discord.ui.Button(label=label or way, custom_id=f"rp:{game_id}:{step}:{way}", disabled=disabled)
        )
        self.game_id, self.step = game_id, step

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ReplayButton:
        return cls(parse_int(match["game"]) or 0, int(match["step"]), match["way"], button_label(item))

    async def callback(self, interaction: discord.Interaction) -> None:
        await answered(interaction, lambda: show_replay(interaction, self.game_id, self.step, edit=True))


# -- /game replay, export, verify: subcommands of the table surface's /game group ----------------------------------


@app_commands.command(name="replay", description=t("history.cmd_replay"))
@app_commands.describe(game=t("history.cmd_game_id"))
async def replay_command(interaction: discord.Interaction, game: int) -> None:
    await answered(interaction, lambda: show_replay(interaction, game, 0, edit=False))


@app_commands.command(name="export", description=t("history.cmd_export"))
@app_commands.describe(game=t("history.cmd_game_id"))
async def export_command(interaction: discord.Interaction, game: int) -> None:
    async def work() -> None:
        record = await game_over(interaction, game)
        locale = locale_of(interaction)
        export = export_of(record)
        filename = f"dicetavern-{record.game}-{record.id}.json"
        files = [discord.File(io.BytesIO(dumps(export).encode()), filename=filename)]
        name = t(f"game.{record.game}", locale)
        params = {"game": name, "id": record.id, "moves": len(record.moves), "file": filename}
        url = verifier_url()
        if not record.fair:
            text = t("history.export_unfair", locale, **params)
        elif url is not None:  # the operator put the verifier in the browser online: link it
            text = t("history.export_text", locale, url=url, **params)
        else:  # else the page itself, from the package: it opens from the file, offline
            text = t("history.export_text_offline", locale, page=VERIFIER_PAGE, **params)
            page = resources.files("bot").joinpath("assets", VERIFIER_PAGE).read_bytes()
            files.append(discord.File(io.BytesIO(page), filename=VERIFIER_PAGE))
        await send_ephemeral(interaction, text, files=files)

    await answered(interaction, work)


@app_commands.command(name="verify", description=t("history.cmd_verify"))
@app_commands.describe(game=t("history.cmd_game_id"))
async def verify_command(interaction: discord.Interaction, game: int) -> None:
    async def work() -> None:
        record = await game_over(interaction, game)
        locale = locale_of(interaction)
        if not record.fair:
            await send_ephemeral(interaction, t("history.verify_unfair", locale, id=record.id))
            return
        export = export_of(record)
        problem = await asyncio.to_thread(verify_export, export)  # HMACs and a replay: off the event loop
        if problem is None:
            draws = sum(len(call[2]) for m in record.moves for call in m.dice or ())
            name = t(f"game.{record.game}", locale)
            moves, commitment = len(record.moves), export["commitment"]
            text = t("verify.ok", locale, game=name, moves=moves, draws=draws, commitment=commitment)
        else:
            text = t("verify.failed", locale, problem=mismatch_text(problem, locale))
        text = f"#{record.id} · {text}"
        if interaction.response.is_done():
            await interaction.followup.send(text)
        else:
            await interaction.response.send_message(text)

    await answered(interaction, work, ephemeral=False)


GAME_COMMANDS: tuple[app_commands.Command[Any, Any, None], ...] = (replay_command, export_command, verify_command)


class History(commands.Cog):
    def __init__(self, bot: DiceTavern) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        group = self.bot.tree.get_command("game")
        if not isinstance(group, app_commands.Group):
            raise RuntimeError("cogs.tables (the /game group) must be loaded before cogs.history")
        for command in GAME_COMMANDS:
            group.add_command(command, override=True)
        self.bot.add_dynamic_items(HistoryPage, ReplayButton)

    async def cog_unload(self) -> None:
        group = self.bot.tree.get_command("game")
        if isinstance(group, app_commands.Group):
            for command in GAME_COMMANDS:
                group.remove_command(command.name)
        self.bot.remove_dynamic_items(HistoryPage, ReplayButton)

    @app_commands.command(name="history", description=t("history.cmd_history"))
    @app_commands.describe(member=t("history.cmd_history_member"), game=t("history.cmd_history_game"))
    @app_commands.choices(game=game_choices())
    @anywhere
    async def history(
        self, interaction: discord.Interaction, member: discord.User | None = None, game: str | None = None
    ) -> None:
        async def work() -> None:
            locale = locale_of(interaction)
            who = member.id if member is not None else None
            embed, page, pages = await history_page(self.bot, guild_of(interaction), who, game, 1, locale)
            await send_ephemeral(interaction, embed=embed, view=history_view(who, game, page, pages, locale))

        await answered(interaction, work)


async def setup(bot: DiceTavern) -> None:
    await bot.add_cog(History(bot))
