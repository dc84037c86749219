"""The table surface every game shares: the one entry point of a click on a table control, ``/game cancel``, and
showing tables after a restart.

A click's path (the README's "Map of the code" lists it): discord.py hands every component interaction to
``Tables.on_interaction``, also one whose control the message no longer has (a click that raced an edit: discord.py's
own DynamicItem dispatch drops those silently). From there one ``Click`` owns it: it parses the control
(``components.parse_table_control``), calls the table service, builds the whole reply, text and controls
(``components.table_message`` for the table message, ``Click.private_view`` for the player's own), and answers in
one function (``Click.answer``: edit the clicked message through the response, an ephemeral reply, or a defer and a
follow-up when the 3 s deadline nears). The slash commands that do what a control does (``/liar join``,
``/mythic hand``) are answered by the same function.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypedDict

import discord
from discord import app_commands
from discord.ext import commands

from bot.games import IllegalMove
from bot.games.parsing import parse_int
from bot.i18n import t
from bot.render import error_text, event_text, seat_names, table_text
from bot.store import repo
from bot.tables import Table, TableError
from bot.tables.lobby import options_over
from cogs.utils import lean_gateway, options_form, wire
from cogs.utils import retry as retry_policy
from cogs.utils.components import (
    COLOURS,
    DM_RETRY,
    Controls,
    DmRetryButton,
    TableButton,
    TableSelect,
    add_controls_json,
    parse_table_control,
    table_message,
    text_view,
    with_dm_retry_json,
)
from cogs.utils.gamecog import seat_for
from cogs.utils.presenter import DiscordPresenter, Hold, table_link
from cogs.utils.replies import (
    DEFER_AFTER,
    AnswersErrors,
    answer_error,
    anywhere,
    channel_of,
    locale_of,
    note_locale,
    send_ephemeral,
)

if TYPE_CHECKING:
    from bot.client import DiceTavern

log = logging.getLogger(__name__)

LOBBY_VERBS = ("join", "leave", "start")
TURN_PASSED = frozenset({"not_your_turn", "game_over"})  # refusals of a raced pick that only mean "too late"
LOBBY_TOOLS = ("addbot:", "kick:", "host:")
OPTIONS = f"{options_form.ACTION}:"  # the lobby's ⚙ Options: options:<page>


@anywhere
class Tables(AnswersErrors, commands.GroupCog, group_name="game", group_description=t("cmd.game")):
    """The table surface every game shares; the bot's ``table_ui`` (``bot.surface.TableSurface``)."""

    presenter: DiscordPresenter  # set on load (not under ``commands_only``)

    def __init__(self, bot: DiceTavern) -> None:
        self.bot = bot
        super().__init__()

    async def cog_load(self) -> None:
        self.bot.table_ui = self
        if self.bot.commands_only:
            return  # `dicetavern sync`: only the command tree; no store, table service or presenter
        self.presenter = presenter = DiscordPresenter(self.bot)
        await presenter.load()
        self.bot.presenter = presenter
        self.bot.tables.presenter = presenter
        self.bot.add_dynamic_items(TableButton, TableSelect, DmRetryButton)
        lean_gateway.install(self.bot)  # their clicks (and the table's MESSAGE_UPDATEs) parsed without unread objects
        self.bot.loop.create_task(self._reshow_tables())

    async def _reshow_tables(self) -> None:
        """After a restart every open table message is re-rendered (its buttons keep working), paced."""
        await self.bot.wait_until_ready()
        await self.presenter.reshow()

    @app_commands.command(name="cancel", description=t("cmd.cancel"))
    async def cancel(self, interaction: discord.Interaction) -> None:
        is_admin = bool(getattr(interaction.permissions, "manage_guild", False))
        await self.bot.tables.cancel(channel_of(interaction), interaction.user.id, is_admin=is_admin)
        await send_ephemeral(interaction, t("ui.cancelled", locale_of(interaction)))

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """The one entry point of a click on a table control (another cog's controls are left to that cog)."""
        if interaction.type is discord.InteractionType.component:
            await Click(self, interaction).run()
        elif interaction.type is discord.InteractionType.modal_submit:
            await Click(self, interaction).submit()  # read from the interaction's data: it works after a restart

    @commands.Cog.listener()
    async def on_message(self, message: discord.Message) -> None:
        """A message in a channel (MESSAGE_CREATE, no content read): counted if it is below an open table's
        message, so the table's next redraw can post it anew at the bottom (a dict lookup, nothing written)."""
        presenter = getattr(self, "presenter", None)
        if presenter is not None and message.guild is not None:
            presenter.note_message(message.channel.id, message.id)

    @commands.Cog.listener()
    async def on_raw_message_delete(self, payload: discord.RawMessageDeleteEvent) -> None:
        presenter = getattr(self, "presenter", None)
        if presenter is not None and payload.guild_id is not None:
            presenter.note_deleted(payload.channel_id, payload.message_id)

    # -- the slash commands that do what a control does ---------------------------------------

    async def lobby_action(
        self, interaction: discord.Interaction, channel_id: int, verb: str, entropy: str | None = None
    ) -> None:
        """A lobby verb by slash command, answered privately. A refusal propagates to the command's error path.
        ``entropy``: a join's ``seed:``."""
        await Click(self, interaction).lobby_command(channel_id, verb, entropy)

    async def show_private_view(self, interaction: discord.Interaction, table: Table) -> None:
        """``/mythic hand``: the same reply as the table's 🎲 My dice button."""
        click = Click(self, interaction)
        await click.answer(click.private_view(table))


class Message(TypedDict, total=False):
    """What a reply shows, as discord.py's send and edit take it: a Components V2 layout (an edit also clears the
    content and embeds a message from before V2 had: Discord refuses V2 beside them)."""

    content: str | None
    embed: discord.Embed | None
    view: discord.ui.View | discord.ui.LayoutView


def shown(view: discord.ui.LayoutView) -> Message:
    """A V2 layout as a new message's arguments."""
    return Message(view=view)


def redrawn(view: discord.ui.LayoutView) -> Message:
    """A V2 layout as an edit's arguments: whatever the message showed before is replaced."""
    return Message(content=None, embed=None, view=view)


@dataclass
class Reply:
    """A click's whole answer, text and controls; ``Click.answer`` chooses how it is sent."""

    edit: Message | None = None  # the clicked message, redrawn (the table message, or the player's own reply)
    shows: tuple[object, ...] | None = None  # the look of the table the edit shows (for the paced editor)
    private: Message | None = None  # a reply for the player's eyes only (after an edit: a follow-up)
    later: Callable[[], Awaitable[Message | None]] | None = None  # a private follow-up made once the edit is sent


def prebuilt(message: Message) -> wire.Prebuilt | None:
    """The one V2 layout a private reply shows, when it is JSON already (``wire.send_private`` sends it)."""
    view = message.get("view")
    return view if isinstance(view, wire.Prebuilt) and message.keys() == {"view"} else None


def owner_ids(application: discord.AppInfo | None) -> frozenset[int]:
    """The bot's application owners (a team's members, or its one owner): a game one of them plays is marked."""
    if application is None:
        return frozenset()
    if application.team is not None:
        return frozenset(member.id for member in application.team.members)
    return frozenset({application.owner.id})


class Click:
    """One click on a table control, from its custom id to the answer (or a slash command doing the same)."""

    def __init__(self, surface: Tables, interaction: discord.Interaction) -> None:
        self.surface = surface
        self.bot = surface.bot
        self.interaction = interaction
        self.user_id = interaction.user.id
        self.locale = locale_of(interaction)

    async def run(self) -> None:
        """Parse the control and answer it; a refusal or a failure takes the one error path (never "This
        interaction failed"). A custom id that is not a table control's is left alone."""
        interaction = self.interaction
        data: Mapping[str, object] = interaction.data or {}
        custom_id = str(data.get("custom_id", ""))
        values = data.get("values")  # a select's chosen values (strings); absent for a button
        game = table = None
        try:
            if (retry := re.fullmatch(DM_RETRY, custom_id)) is not None:
                await self.answer(self.dm_retry(int(retry["table"])))
                return
            control = parse_table_control(custom_id, [str(v) for v in values] if isinstance(values, list) else None)
            if control is None:
                return  # another cog's control: its DynamicItem answers it
            table_id, version, action = control
            table = self.bot.tables.by_id.get(table_id)
            if table is None or table.channel_id != interaction.channel_id:
                raise TableError("stale_button")
            game = table.game
            note_locale(interaction)  # their DMs follow their client's language (a dict lookup unless it changed)
            lives_on = self.lives_on(table)
            if lives_on is not None and not action.startswith(OPTIONS):
                await self.surface.presenter.interactions.catch_up(table)  # a turn missed unseen: its default first
            if action.startswith(OPTIONS):  # the form itself is the answer (a modal: first, within 3 s)
                await self.open_options(table, action.removeprefix(OPTIONS))
            elif (action in LOBBY_VERBS or action.startswith(LOBBY_TOOLS)) and self.moved_from(table):
                await self.answer(self.moved_lobby_click(table, action))  # never redraw an old table message
            elif action in LOBBY_VERBS or action.startswith(LOBBY_TOOLS):
                await self.answer(self.lobby_click(table, action), hold=table, lives_on=lives_on)
            elif action == "me":
                await self.answer(self.private_view(table), hold=lives_on, lives_on=lives_on)
            else:
                on_board = interaction.message is not None and interaction.message.id == table.message_id
                work = self.move(table, action, version, on_board)
                await self.answer(work, hold=table if on_board else None, lives_on=lives_on)
        except Exception as error:
            await self.failed(error, game, table)

    async def failed(
        self,
        error: Exception,
        game: str | None,
        table: Table | None,
        went_through: Callable[[Table], Awaitable[bool]] | None = None,
        applied_key: str = "error.internal_applied",
    ) -> None:
        """The one error path, truthfully: an unexpected failure after the move may have been committed (its answer
        failed, a dropped connection) is read back from the store (``went_through``; by default: the action log
        holds this interaction's move), and the answer says whether it went through. A connection that drops
        again while answering is logged as one line, never an unhandled traceback."""
        applied = False
        if table is not None and not isinstance(error, (TableError, IllegalMove)):
            with contextlib.suppress(Exception):  # the store is out too: the answer says nothing changed, as before
                applied = await (went_through or self.move_stored)(table)
        try:
            await answer_error(self.interaction, error, game, applied=applied, applied_key=applied_key)
        except Exception as again:
            if not retry_policy.transient(again):
                raise
            log.warning("could not answer a failed press (%s)", retry_policy.describe(again))

    def lives_on(self, table: Table) -> Table | None:
        """``table`` if it lives on an interaction's message and this click is on that message: then the click
        answers with UPDATE_MESSAGE whatever it did (its token edits the table for the next 15 minutes)."""
        message = self.interaction.message
        on_board = message is not None and message.id == table.message_id
        return table if on_board and self.surface.presenter.interactions.owns(table) else None

    async def move_stored(self, table: Table) -> bool:
        return await repo.action_of_interaction(self.bot.store, table.id, str(self.interaction.id))

    # -- how: the one function that answers ------------------------------------------------------

    async def answer(self, work: Awaitable[Reply], hold: Table | None = None, lives_on: Table | None = None) -> None:
        """Answer with the reply ``work`` builds. Near Discord's 3 s deadline the interaction is deferred (a click:
        a deferred update; a command: privately, "thinking"), and what follows edits or follows up instead.
        ``hold``: the table whose message this response shows; its paced edits wait meanwhile. ``lives_on``: the
        clicked table lives on this message (``Click.lives_on``): the answer redraws it in any case (anything private
        follows as an ephemeral follow-up), and this interaction's token becomes the table's latest."""
        interaction = self.interaction
        response = interaction.response
        holding = self.surface.presenter.holding(hold) if hold is not None else contextlib.nullcontext(None)
        async with holding as held:
            task = asyncio.ensure_future(work)
            done, _ = await asyncio.wait({task}, timeout=DEFER_AFTER)
            if not done and not response.is_done():
                if interaction.type is discord.InteractionType.component or (
                    interaction.type is discord.InteractionType.modal_submit and interaction.message is not None
                ):  # a form opened from a message: a deferred update of it, as a click's
                    await response.defer()
                else:
                    await response.defer(ephemeral=True, thinking=True)
            reply = await task
            if lives_on is not None:
                if reply.edit is None:
                    reply.edit, reply.shows = self.table_reply(lives_on).edit, self.surface.presenter.look(lives_on)
                await self.surface.presenter.interactions.note(lives_on, interaction)  # committed before the answer
            if reply.edit is not None:
                view = reply.edit.get("view")
                if response.is_done():
                    await interaction.edit_original_response(**reply.edit)
                elif isinstance(view, wire.Prebuilt) and reply.edit.get("content", 0) is None:
                    await wire.update_message(interaction, view)  # what edit_message sends, minus parsing the answer
                else:
                    await response.edit_message(**reply.edit)
                if isinstance(held, Hold):
                    held.shown = reply.shows
            if reply.private is not None:
                if (ready := prebuilt(reply.private)) is not None:
                    await wire.send_private(interaction, ready)  # as send_ephemeral, minus parsing the answer
                else:
                    await send_ephemeral(interaction, **reply.private)
        if reply.later is not None and (more := await reply.later()) is not None:
            if (ready := prebuilt(more)) is not None:
                await wire.send_private(interaction, ready)
            else:
                await send_ephemeral(interaction, **more)

    # -- what: the whole reply ---------------------------------------------------------------

    def table_reply(self, table: Table) -> Reply:
        """The clicked table message redrawn: the table as it stands, text and controls."""
        return Reply(edit=redrawn(table_message(table, table.locale)), shows=self.surface.presenter.look(table))

    async def lobby_click(self, table: Table, verb: str) -> Reply:
        await self.lobby_verb(table, verb)
        return self.table_reply(table)

    def moved_from(self, table: Table) -> bool:
        """The click is on a public message that is not the table message: an old one, posted anew at the bottom
        since (its delete in flight, or failed). It must not be redrawn as the table (two table messages)."""
        message = self.interaction.message
        return message is not None and not message.flags.ephemeral and message.id != table.message_id

    async def moved_lobby_click(self, table: Table, verb: str) -> Reply:
        """A lobby control on an old table message: applied, answered privately with the link to the table (the
        presenter redraws the table message and deletes the old one)."""
        said = await self.lobby_verb(table, verb)
        done = {"join": "ui.joined", "leave": "ui.left", "start": "ui.started"}
        lines = [said] if said else [t(done[verb], self.locale)] if verb in done else []
        lines.append(t("ui.table_moved", self.locale, link=table_link(table)))
        return Reply(private=Message(content="\n".join(lines)))

    async def lobby_command(self, channel_id: int, verb: str, entropy: str | None) -> None:
        table = self.bot.tables.table(channel_id)
        note_locale(self.interaction)  # before a DM to a joining player can be sent

        async def work() -> Reply:
            said = await self.lobby_verb(table, verb, entropy)
            done = {"join": "ui.joined", "leave": "ui.left", "start": "ui.started"}
            return Reply(private=Message(content=said or t(done[verb], self.locale)))

        await self.answer(work())

    async def move(self, table: Table, action: str, version: int | None, on_board: bool) -> Reply:
        """A game move from the table message (``on_board``: it is redrawn) or from the player's own reply (it is
        redrawn in place with what happened and fresh controls, so the next move from it is not taken for a
        double click)."""
        interaction = self.interaction
        cog = self.bot.game_cogs.get(table.game)
        if cog is not None:  # a control may name a move as the player sees it (Mythical Dice: a die type)
            action = cog.resolve_action(table, self.user_id, action)
        try:
            _, events = await self.bot.tables.act(table.channel_id, self.user_id, action, str(interaction.id), version)
        except IllegalMove as error:
            if not raced_a_redraw(error, table, version):
                raise  # refused: the one error path answers
            # The player used the controls they were shown, which the table had moved past (its message is
            # redrawn at a paced rate): show them the table as it stands now instead of blaming them.
            news = moved_on_text(table, self.locale)
            if on_board:
                reply = self.table_reply(table)
                reply.private = Message(content=news)
                return reply
            if interaction.message is not None and interaction.message.flags.ephemeral:
                # the player's own reply, redrawn as the table stands, with why the pick is refused now: it offers
                # their dice while the others play (Mythical Dice), and on their turn a die may have to follow suit.
                # A turn that passed meanwhile is no fault of theirs: the news says what happened, no blame.
                why = (
                    []
                    if error.code in TURN_PASSED
                    else ["⚠️ " + error_text(error, self.locale, table.game, seat_names(table))]
                )
                return await self.private_view(table, [news, *why], in_place=True)
            # an older public message: the table as it stands, privately
            return Reply(private=shown(table_message(table, self.locale, with_controls=False, note=news)))
        seat, locale = table.seat_of(self.user_id), self.locale
        note = cog.confirmation(table, seat, action, events, locale) if cog is not None and seat is not None else None
        if not on_board:
            names = seat_names(table)
            lines = [x for e in events if e.public and (x := event_text(table.game, e.kind, e.data, names, locale))]
            # Only the player's own (ephemeral) reply is redrawn in place: a public message that is not the table
            # message (one the table moved on from) must never show their view; they get it privately.
            own = interaction.message is not None and interaction.message.flags.ephemeral
            if self.moved_from(table):  # an old table message (posted anew below): where the table is now
                lines.append(t("ui.table_moved", locale, link=table_link(table)))
            return await self.private_view(table, [*lines, *([note] if note else [])], in_place=own)

        async def later() -> Message | None:
            if note:  # a secret move (a bid): the player's own view follows, with it, their hand and the controls
                return (await self.private_view(table, [note])).private  # to play on from (and undelivered secrets)
            # what a closed DM could not carry
            secrets = await self.surface.presenter.undelivered(table.id, self.user_id)
            lines = [t("ui.dm_closed", locale), *secrets]
            return shown(text_view(lines, COLOURS.get(table.status))) if secrets else None

        reply = self.table_reply(table)
        reply.later = later
        return reply

    async def private_view(self, table: Table, news: list[str] | None = None, in_place: bool = False) -> Reply:
        """The 🎲 My dice reply: the player's own view and controls, always private, plus undelivered secrets
        (``in_place``: it replaces the player's reply that was clicked)."""
        locale, presenter = self.locale, self.surface.presenter
        seat = table.seat_of(self.user_id)
        if seat is None or table.state is None:
            return Reply(private=Message(content=t("ui.spectator", locale)))
        if table.engine.open_information:  # the table message shows it all: say so, plus what is only for them
            public = set(table_text(table, locale).body)
            own = [t("ui.no_secrets", locale), *(x for x in table_text(table, locale, seat).body if x not in public)]
        else:
            own = [t("ui.your_view", locale), *table_text(table, locale, seat).body]
        lines = [*(news or []), *([""] if news else []), *own]
        secrets = await presenter.undelivered(table.id, self.user_id)
        if secrets:  # what a closed DM could not carry, as it was sent (the view above may have moved on)
            lines += ["", t("ui.dm_closed", locale), *secrets]
        controls = Controls()
        cog = self.bot.game_cogs.get(table.game)
        if cog is not None and table.running:
            add_controls_json(controls, table, cog.private_controls(table, seat, locale), locale)
        dms = not presenter.interactions.owns(table)  # a table on its interaction's message never DMs its secrets
        if dms and self.user_id in presenter.dms_closed and not table.engine.open_information:
            with_dm_retry_json(controls, table.id, locale)
        reply = text_view(lines, COLOURS.get(table.status), controls.rows())
        return Reply(edit=redrawn(reply)) if in_place else Reply(private=shown(reply))

    async def dm_retry(self, table_id: int) -> Reply:
        """The "Send my dice by DM" button: try a DM at once, whatever the "DMs closed" mark says; say how it went."""
        table = self.bot.tables.by_id.get(table_id)
        seat = table.seat_of(self.user_id) if table is not None else None
        if table is None or seat is None or table.state is None:
            raise TableError("stale_button")
        presenter = self.surface.presenter
        dm_locale = presenter.dm_language(table, self.user_id)
        text = "\n".join([presenter.dm_header(table, dm_locale), *table_text(table, dm_locale, seat).body])
        sent = await presenter.send_dm(self.user_id, text)
        key = {True: "ui.dm_retry_sent", False: "ui.dm_retry_closed", None: "ui.dm_retry_failed"}[sent]
        return Reply(private=Message(content=t(key, self.locale)))

    # -- the lobby's ⚙ Options form ----------------------------------------------------------

    async def open_options(self, table: Table, page: str) -> None:
        """The ⚙ control: the form's page as the click's first answer (no defer: a modal cannot follow one). Only
        the host or a server manager gets it, in the lobby; anyone else the refusal, privately."""
        if self.user_id != table.host_id and not self.is_admin():
            raise TableError("only_host_options")
        if table.status != "lobby":
            raise TableError("not_in_lobby")
        form = options_form.modal(table, page, self.locale)
        form.stop()  # a finished modal is not kept by discord.py: the submit is read from its data (``submit``)
        await self.interaction.response.send_modal(form)

    async def submit(self) -> None:
        """A submitted ⚙ Options page (``do:<table id>:<page>``): its values over the table's options, validated as
        ``/… new`` validates them. The table message it was opened from is redrawn in place; else the answer is
        private. A refusal changes nothing and takes the one error path."""
        interaction = self.interaction
        data: Mapping[str, object] = interaction.data or {}
        game, table, before, options = None, None, {}, {}
        try:
            parsed = options_form.parse_custom_id(str(data.get("custom_id", "")))
            if parsed is None:
                return  # another cog's modal
            table_id, page = parsed
            table = self.bot.tables.by_id.get(table_id)
            if table is None:
                raise TableError("form_closed")
            before = dict(table.options)
            if table.channel_id != interaction.channel_id:
                raise TableError("form_other_table")
            game = table.game
            note_locale(interaction)
            options = options_form.submitted(table, page, data.get("components"), self.locale)
            on_board = interaction.message is not None and interaction.message.id == table.message_id
            await self.answer(self.options_saved(table, options, on_board), hold=table if on_board else None)
        except Exception as error:

            async def saved(table: Table) -> bool:  # the store holds the options this submit asked for, not the old
                wanted = options_over(table, before, options)
                return wanted != before and await repo.stored_options(self.bot.store, table.id) == wanted

            await self.failed(error, game, table, saved, "error.internal_saved")

    async def options_saved(self, table: Table, options: dict[str, object], on_board: bool) -> Reply:
        before = dict(table.options)
        await self.bot.tables.set_options(table.channel_id, self.user_id, options, self.is_admin())
        if on_board:
            return self.table_reply(table)
        said = t("form.saved" if table.options != before else "form.unchanged", self.locale)
        if self.moved_from(table):  # opened from an old table message: where the table is now
            said += "\n" + t("ui.table_moved", self.locale, link=table_link(table))
        return Reply(private=Message(content=said))

    def is_admin(self) -> bool:
        return bool(getattr(self.interaction.permissions, "manage_guild", False))  # as for /game cancel

    # -- the lobby ---------------------------------------------------------------------------

    async def lobby_verb(self, table: Table, verb: str, entropy: str | None = None) -> str | None:
        """Apply a lobby verb; the private reply of a host tool (None for the others). ``entropy``: a join's
        ``seed:`` (else this interaction's id: the player's part of the fair dice's client seed)."""
        service, channel_id, interaction = self.bot.tables, table.channel_id, self.interaction
        if verb == "join":
            await service.join(channel_id, seat_for(interaction.user, (entropy or "").strip() or str(interaction.id)))
        elif verb.startswith(("kick:", "host:")):
            return await self.host_tool(channel_id, verb)
        elif verb == "leave":
            await service.leave(channel_id, self.user_id)
        elif verb.startswith("addbot:"):
            level = verb.split(":", 1)[1]
            if level not in ("easy", "normal", "hard"):
                raise TableError("illegal_action")
            name = t(
                "ui.bot_name",
                table.locale,
                level=t(f"ui.add_bot_{level}", table.locale),
                n=sum(s.is_bot for s in table.seats) + 1,
            )
            await service.add_computer(channel_id, self.user_id, level, name)
        else:
            # the start value: the id Discord gave this click, which nobody (the operator included) could know before
            start, owners = str(self.interaction.id), owner_ids(self.bot.application)
            await service.start_game(channel_id, self.user_id, start=start, owner_ids=owners)
        return None

    async def host_tool(self, channel_id: int, verb: str) -> str:
        """``kick:<seat id>`` / ``host:<seat id>`` from the host's select or slash command; returns the reply."""
        tool, _, target = verb.partition(":")
        target_id = parse_int(target, signed=True)  # computer players have negative ids
        if target_id is None:
            raise TableError("illegal_action")
        is_admin = self.is_admin()
        if tool == "kick":
            seat = await self.bot.tables.remove_player(channel_id, self.user_id, target_id, is_admin)
            return t("ui.removed", self.locale, name=seat.name)
        seat = await self.bot.tables.transfer_host(channel_id, self.user_id, target_id, is_admin)
        return t("ui.host_given", self.locale, name=seat.name)


def raced_a_redraw(error: Exception, table: Table, version: int | None) -> bool:
    """An illegal move from controls drawn at an older version: the table moved on before the message caught up
    (a double click of the player's own move is a TableError, "duplicate", and is answered as such)."""
    return isinstance(error, IllegalMove) and version is not None and version < table.version


def moved_on_text(table: Table, locale: str) -> str:
    """The note for a raced click: the table's last log line, and that it is shown as it stands now."""
    names = seat_names(table)
    for kind, data in reversed(table.log):
        line = event_text(table.game, kind, data, names, locale)
        if line:
            return t("ui.moved_on", locale, event=line)
    return t("ui.moved_on_plain", locale)


async def setup(bot: DiceTavern) -> None:
    await bot.add_cog(Tables(bot))
