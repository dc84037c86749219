"""Restart-proof table controls: the custom_id names the table and the action, nothing lives in memory."""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any, cast

import discord

import bot.i18n as i18n
from bot.games.parsing import parse_int
from bot.i18n import SURFACE, has, t
from bot.render import Control, Menu, controls, seat_names
from bot.tables import TableError

if TYPE_CHECKING:
    from bot.client import DiceTavern
    from bot.tables import Table
    from cogs.tables import Tables

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
        if not isinstance(item, discord.ui.Button):  # the template matches buttons only
            raise TypeError(f"a button's custom id on a {type(item).__name__}")
        # Parsed in the callback, where a malformed id can still be answered (a failure here goes unanswered).
        button = cls(0, 0, "me", item.label or "", "secondary")
        button.item.custom_id = item.custom_id
        return button

    async def callback(self, interaction: discord.Interaction) -> None:
        await on_control(interaction, self.item.custom_id or "", None)


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
        if not isinstance(item, discord.ui.Select):  # the template matches select menus only
            raise TypeError(f"a select's custom id on a {type(item).__name__}")
        select = cls(0, 0, "menu", list(item.options), item.placeholder)
        select.item.custom_id = item.custom_id  # parsed in the callback, with the chosen values
        return select

    async def callback(self, interaction: discord.Interaction) -> None:
        await on_control(interaction, self.item.custom_id, list(self.item.values))


async def on_control(interaction: discord.Interaction, custom_id: str, values: list[str] | None) -> None:
    """Hand one of our controls to the table surface; a malformed one (forged, an empty select) is refused."""
    from cogs.utils.replies import refuse  # replies imports the render layer only; kept local for import order

    try:
        parsed = parse_table_control(custom_id, values)
    except TableError as error:
        await refuse(interaction, error)
        return
    if parsed is not None:
        table_id, version, action = parsed
        await table_ui(interaction).on_table_button(interaction, table_id, action, version)


def table_ui(interaction: discord.Interaction) -> Tables:
    """The bot's table surface (the Tables cog), typed."""
    return cast("DiceTavern", interaction.client).table_ui


def add_controls(view: discord.ui.View, table: Table, items: Sequence[Control | Menu], locale: str) -> discord.ui.View:
    """The one way a game's controls become Discord components: a button per Control (at most MAX_BUTTONS),
    a select per Menu with options (at most MAX_CHOICES); labels are catalog keys or text already rendered."""
    buttons = 0
    for control in items:
        if isinstance(control, Menu):
            options = list(_select_options(control.options, locale, SURFACE.get(), i18n.catalog))
            if options:
                placeholder = t(control.placeholder, locale)
                view.add_item(TableSelect(table.id, table.version, control.name, options, placeholder))
        elif buttons < MAX_BUTTONS:
            view.add_item(TableButton(table.id, table.version, control.action, t(control.label, locale), control.style))
            buttons += 1
    return view


@lru_cache(maxsize=256)  # a menu's 25 options weigh ~7 KiB
def _select_options(
    options: tuple[tuple[str, str], ...], locale: str, surface: str | None, source: Any
) -> tuple[discord.SelectOption, ...]:
    """A menu's options as Discord's, made once per menu and locale (a Liar's Dice table offers the same few dozen
    bids move after move, ~3 µs each to build). Shared between views: nothing changes a SelectOption once sent.
    ``surface`` and ``source`` (the catalog function, which tests replace) are part of the key only."""
    return tuple(
        discord.SelectOption(label=option_label(label, locale), value=action) for label, action in options[:MAX_CHOICES]
    )


def option_label(label: str, locale: str) -> str:
    """A menu option's label: a catalog key (the lobby's levels) or text the renderer already wrote (a bid)."""
    return (t(label, locale) if has(label, locale) else label)[:MAX_LABEL]


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


def on_message(message: discord.Message | None, custom_id: str) -> bool:
    if message is None:
        return False
    return any(
        getattr(child, "custom_id", None) == custom_id
        for row in message.components
        for child in getattr(row, "children", [])
    )
