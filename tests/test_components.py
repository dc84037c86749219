"""The one builder that turns a game's controls into Discord components (cogs/utils/components.py)."""

from __future__ import annotations

from types import SimpleNamespace

import discord

from bot.render import Control, Menu
from cogs.utils.components import MAX_BUTTONS, MAX_CHOICES, TableButton, TableSelect, add_controls, controls_view

TABLE = SimpleNamespace(id=12, version=4)


def selects(view: discord.ui.View) -> list[discord.ui.Select]:
    return [item.item for item in view.children if isinstance(item, TableSelect)]


async def test_a_menu_becomes_a_select_of_at_most_the_discord_limit_with_labels_from_the_catalog():
    options = (("ui.add_bot_easy", "addbot:easy"), *((f"{n} × ⚄", f"bid:{n}:5") for n in range(1, 40)))
    view = controls_view(TABLE, [Menu("raise", "ui.add_bot", options)], "en")
    [select] = selects(view)
    assert len(select.options) == MAX_CHOICES == 25
    assert select.options[0].label == "Easy"  # a catalog key is translated
    assert select.options[1].label == "1 × ⚄" and select.options[1].value == "bid:1:5"  # rendered text stays
    assert select.custom_id == "ds:12:4:raise"


async def test_buttons_keep_room_for_the_other_components_and_an_empty_menu_is_left_out():
    items = [Control("mia.roll_button", f"a{n}", "primary") for n in range(30)] + [Menu("claim", "ui.add_bot", ())]
    view = add_controls(discord.ui.View(timeout=None), TABLE, items, "en")
    buttons = [item for item in view.children if isinstance(item, TableButton)]
    assert len(buttons) == MAX_BUTTONS and not selects(view)
    assert buttons[0].item.custom_id == "dt:12:4:a0" and buttons[0].item.style is discord.ButtonStyle.primary
    assert not buttons[0].item.label.startswith("mia.")


async def test_a_private_reply_without_controls_gets_no_view():
    assert controls_view(TABLE, [], "en") is None
    assert controls_view(TABLE, [Menu("claim", "ui.add_bot", ())], "en") is None
