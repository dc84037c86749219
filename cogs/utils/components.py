"""The table message and its controls, built in one place: the embed (``table_embed``), the restart-proof controls
(their custom_id names the table and the action, nothing lives in memory) and both together (``table_message``).

The controls are discord.py ``DynamicItem``s (their templates are the custom ids below), but nothing is answered
through them: a click is answered by the table surface's one entry point (``cogs/tables.py: Tables.on_interaction``),
which also sees the clicks discord.py's item dispatch drops (a control the message no longer has). So their
``callback`` is the base one, which does nothing, and ``from_custom_id`` builds a placeholder without parsing.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import discord

from bot.games.parsing import parse_int
from bot.i18n import SURFACE, generation, has, t
from bot.render import Control, Menu, controls, seat_names, table_text
from bot.tables import TableError

if TYPE_CHECKING:
    from bot.tables import Table

# The text of a game action or lobby verb in a custom_id or a select value: ASCII words joined by colons
# (``roll``, ``bid:3:4``, ``kick:-1``). Anything else (``bid:²:5``) was not drawn by us.
ACTION_TEXT = re.compile(r"[A-Za-z0-9_-]+(?::-?[A-Za-z0-9_]+)*")
MAX_ACTION = 100  # Discord's limit for a custom_id and a select option's value
MAX_CHOICES = 25  # Discord's limit for a select's options and for autocomplete answers
MAX_BUTTONS = 20  # of a message's 25 components: room left for the menus, 🎲 My dice and the host's tools
MAX_LABEL = 100  # Discord's limit for a select option's label

STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}
COLOURS = {"lobby": 0x5865F2, "running": 0x57F287, "finished": 0xFEE75C, "cancelled": 0x99AAB5}


def button_label(item: discord.ui.Item[Any]) -> str:
    """A clicked button's label ("" for any other item: ``DynamicItem.from_custom_id`` is typed with any item)."""
    return (item.label or "") if isinstance(item, discord.ui.Button) else ""


class TableButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"dt:[\s\S]*"):
    """``dt:<table id>:<version>:<action>``: a lobby verb, ``me``, or an encoded game action.

    The version is the table's when the button was drawn, so a double click applies once.
    """

    def __init__(self, table_id: int, version: int, action: str, label: str = "", style: str = "secondary") -> None:
        custom_id = f"dt:{table_id}:{version}:{action}"
        super().__init__(discord.ui.Button(label=label or action, style=STYLES[style], custom_id=custom_id))
        self.table_id = table_id
        self.version = version
        self.action = action

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> TableButton:
        return cls(0, 0, "me", button_label(item))  # a placeholder: Tables.on_interaction parses and answers


class TableSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"ds:[\s\S]*"):
    """``ds:<table id>:<version>:<name>``; each option's value is an encoded game action."""

    def __init__(
        self,
        table_id: int,
        version: int,
        name: str,
        options: list[discord.SelectOption] | None = None,
        placeholder: str | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=f"ds:{table_id}:{version}:{name}",
                options=options or [discord.SelectOption(label="-")],
                placeholder=placeholder,
            )
        )
        self.table_id = table_id
        self.version = version

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> TableSelect:
        return cls(0, 0, "menu")  # a placeholder: Tables.on_interaction parses and answers


DM_RETRY = r"dm:(?P<table>[0-9]{1,20})"  # DmRetryButton's custom id


class DmRetryButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=DM_RETRY):
    """``dm:<table id>`` on the 🎲 My dice reply of a player marked "DMs closed": retry the DM now."""

    def __init__(self, table_id: int, label: str = "") -> None:
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=label or "DM", style=discord.ButtonStyle.secondary, custom_id=f"dm:{table_id}"
        )
        super().__init__(button)
        self.table_id = table_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> DmRetryButton:
        return cls(int(match["table"]), button_label(item))  # a placeholder: Tables.on_interaction answers


def with_dm_retry(view: discord.ui.View | None, table_id: int, locale: str) -> discord.ui.View:
    view = view or discord.ui.View(timeout=None)
    try:
        view.add_item(DmRetryButton(table_id, t("ui.dm_retry", locale)))
    except ValueError:
        pass  # the game's own controls fill the reply; 🎲 My dice still shows everything
    return view


def add_controls(view: discord.ui.View, table: Table, items: Sequence[Control | Menu], locale: str) -> discord.ui.View:
    """The one way a game's controls become Discord components: a button per Control (at most MAX_BUTTONS),
    a select per Menu with options (at most MAX_CHOICES); labels are catalog keys or text already rendered."""
    buttons = 0
    for control in items:
        if isinstance(control, Menu):
            options = list(_select_options(control.options, locale, SURFACE.get(), generation()))
            if options:
                placeholder = t(control.placeholder, locale)
                view.add_item(TableSelect(table.id, table.version, control.name, options, placeholder))
        elif buttons < MAX_BUTTONS:
            view.add_item(TableButton(table.id, table.version, control.action, t(control.label, locale), control.style))
            buttons += 1
    return view


@lru_cache(maxsize=256)  # a menu's 25 options weigh ~7 KiB
def _select_options(
    options: tuple[tuple[str, str], ...], locale: str, surface: str | None, texts: int
) -> tuple[discord.SelectOption, ...]:
    """A menu's options as Discord's, made once per menu and locale. Shared between views: nothing changes a
    SelectOption once sent. ``surface`` and ``texts`` (``i18n.generation()``: it changes whenever the catalog's
    texts may have) are part of the key only."""
    return tuple([select_option(label, action, locale, surface, texts) for label, action in options[:MAX_CHOICES]])


@lru_cache(maxsize=4096)  # ~300 bytes each
def select_option(label: str, action: str, locale: str, surface: str | None, texts: int) -> discord.SelectOption:
    """One option, made once: a Liar's Dice table's menus shift by a bid or two from move to move, so most of a new
    menu's options (~3 µs and two catalog lookups each) were in the last one. The label is a catalog key (the
    lobby's levels) or text the renderer already wrote (a bid). Keyed as ``_select_options``."""
    return discord.SelectOption(label=(t(label, locale) if has(label, locale) else label)[:MAX_LABEL], value=action)


def table_embed(table: Table, locale: str) -> discord.Embed:
    """The table message's text: the table as its renderer writes it, the log, why it closed, the fair dice."""
    text = table_text(table, locale)
    embed = discord.Embed(
        title=text.title, description="\n".join(text.body)[:4000], colour=COLOURS.get(table.status, 0)
    )
    if text.log:
        embed.add_field(name=t("table.log", locale), value="\n".join(text.log)[-1024:], inline=False)
    if table.status == "cancelled":
        embed.add_field(name="\u200b", value=t(f"table.closed_{close_reason(table)}", locale), inline=False)
    if text.fair:  # the commitment from the lobby on; the seed only once the game is over
        embed.add_field(name=t("fair.field", locale), value="\n".join(text.fair)[:1024], inline=False)
    embed.set_footer(text=text.footer)
    return embed


def close_reason(table: Table) -> str:
    for kind, data in reversed(table.log):
        if kind == "closed":
            return str(data.get("reason", "cancelled"))
    return "cancelled"


def table_message(table: Table, locale: str) -> tuple[discord.Embed, discord.ui.View]:
    """The whole table message, text and controls: what a response, the opening reply and the paced edit show."""
    return table_embed(table, locale), table_view(table, locale)


def controls_view(table: Table, items: Sequence[Control | Menu], locale: str) -> discord.ui.View | None:
    """A private reply's controls (🎲 My dice), or None when there are none."""
    view = add_controls(discord.ui.View(timeout=None), table, items, locale)
    return view if view.children else None


def table_view(table: Table, locale: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    if table.status not in ("lobby", "running"):
        return view
    add_controls(view, table, controls(table), locale)
    if table.status == "lobby" and (tools := host_tools(table, locale)) is not None:
        view.add_item(tools)
    if table.status == "running":
        view.add_item(TableButton(table.id, table.version, "me", t("ui.my_dice", locale)))  # one name in every game
    return view


def host_tools(table: Table, locale: str) -> TableSelect | None:
    """The lobby's select for the host (anyone may open it; the service refuses others): remove a player or
    computer player, or hand the host role to another person. At most 10 seats: well under MAX_CHOICES."""
    others = [(s, name) for s, name in zip(table.seats, seat_names(table), strict=True) if s.id != table.host_id]
    options = [
        discord.SelectOption(label=t("ui.host_remove", locale, name=name)[:MAX_LABEL], value=f"kick:{s.id}")
        for s, name in others
    ]
    options += [
        discord.SelectOption(label=t("ui.host_make", locale, name=name)[:MAX_LABEL], value=f"host:{s.id}")
        for s, name in others
        if not s.is_bot
    ]
    if not options:
        return None
    return TableSelect(table.id, table.version, "host", options[:MAX_CHOICES], t("ui.host_tools", locale))


def parse_table_control(custom_id: str, values: list[str] | None) -> tuple[int, int, str] | None:
    """(table id, version, action) of one of our controls: ``dt:<table>:<version>:<action>`` or
    ``ds:<table>:<version>:<name>`` with exactly one chosen value. None for anyone else's custom_id;
    TableError("bad_control") for one of ours that we did not draw (non-ASCII digits, no value, …)."""
    kind, sep, rest = custom_id.partition(":")
    if kind not in ("dt", "ds") or not sep:
        return None
    table, _, rest = rest.partition(":")
    version, _, tail = rest.partition(":")
    table_id, drawn = parse_int(table), parse_int(version)
    if table_id is None or drawn is None:
        raise TableError("bad_control")
    if kind == "ds":
        if not (tail.isascii() and tail.isidentifier()) or not values or len(values) != 1:
            raise TableError("bad_control")
        tail = values[0]
    if not isinstance(tail, str) or len(tail) > MAX_ACTION or not ACTION_TEXT.fullmatch(tail):
        raise TableError("bad_control")
    return table_id, drawn, tail
