"""Restart-proof table controls: the custom_id names the table and the action, nothing lives in memory."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord

from bot.i18n import has, t
from bot.render import Menu, controls, seat_names

if TYPE_CHECKING:
    from bot.tables import Table

STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}


class TableButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"dt:(?P<table>\d+):(?P<version>\d+):(?P<action>[\w:-]+)"
):
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
        cls, interaction: discord.Interaction, item: discord.ui.Button[Any], match: re.Match[str]
    ) -> TableButton:
        return cls(int(match["table"]), int(match["version"]), match["action"], item.label or "", "secondary")

    async def callback(self, interaction: discord.Interaction) -> None:
        handler = interaction.client.get_cog("Tables")  # type: ignore[union-attr]
        await handler.on_table_button(interaction, self.table_id, self.action, self.version)


class TableSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"ds:(?P<table>\d+):(?P<version>\d+):(?P<name>\w+)"
):
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
        cls, interaction: discord.Interaction, item: discord.ui.Select[Any], match: re.Match[str]
    ) -> TableSelect:
        return cls(int(match["table"]), int(match["version"]), match["name"], list(item.options), item.placeholder)

    async def callback(self, interaction: discord.Interaction) -> None:
        handler = interaction.client.get_cog("Tables")  # type: ignore[union-attr]
        await handler.on_table_button(interaction, self.table_id, self.item.values[0], self.version)


def table_view(table: Table, locale: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    if table.status not in ("lobby", "running"):
        return view
    buttons = 0
    for control in controls(table):
        if isinstance(control, Menu):
            options = [
                discord.SelectOption(label=(t(label, locale) if has(label) else label)[:100], value=action)
                for label, action in control.options[:25]
            ]
            if options:
                view.add_item(
                    TableSelect(table.id, table.version, control.name, options, t(control.placeholder, locale))
                )
        elif buttons < 20:
            view.add_item(TableButton(table.id, table.version, control.action, t(control.label, locale), control.style))
            buttons += 1
    if table.status == "lobby" and (tools := host_tools(table, locale)) is not None:
        view.add_item(tools)
    if table.status == "running":
        key = f"{table.game}.my_dice"  # a game may name it ("🎲 My hand")
        view.add_item(TableButton(table.id, table.version, "me", t(key if has(key) else "ui.my_dice", locale)))
    return view


def host_tools(table: Table, locale: str) -> TableSelect | None:
    """The lobby's select for the host (anyone may open it; the service refuses others): remove a player or
    computer player, or hand the host role to another person. At most 10 seats: well under 25 options."""
    others = [(s, name) for s, name in zip(table.seats, seat_names(table), strict=True) if s.id != table.host_id]
    options = [
        discord.SelectOption(label=t("ui.host_remove", locale, name=name)[:100], value=f"kick:{s.id}")
        for s, name in others
    ]
    options += [
        discord.SelectOption(label=t("ui.host_make", locale, name=name)[:100], value=f"host:{s.id}")
        for s, name in others
        if not s.is_bot
    ]
    if not options:
        return None
    return TableSelect(table.id, table.version, "host", options[:25], t("ui.host_tools", locale))


def parse_table_control(custom_id: str, values: list[str] | None) -> tuple[int, int, str] | None:
    """(table id, version, action) of one of our controls' custom_id, or None for anything else."""
    for item in (TableButton, TableSelect):
        match = item.__discord_ui_compiled_template__.fullmatch(custom_id)
        if match:
            action = match["action"] if item is TableButton else (values or [""])[0]
            return int(match["table"]), int(match["version"]), action
    return None


def on_message(message: discord.Message | None, custom_id: str) -> bool:
    if message is None:
        return False
    return any(
        getattr(child, "custom_id", None) == custom_id
        for row in message.components
        for child in getattr(row, "children", [])
    )
