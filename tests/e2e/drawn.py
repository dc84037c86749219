"""What a table message should show now: the V2 layout the bot would draw for the table as it stands."""

from __future__ import annotations

from typing import Any

from cogs.utils.components import table_message
from tests.fakediscord import FakeMessage, text_displays


def drawn(table: Any, locale: str = "en") -> list[str]:
    """The text blocks of the table's message as drawn now (title, seats, foot, log, the small line)."""
    return text_displays(table_message(table, locale).to_components())


def shows(board: FakeMessage, table: Any, locale: str = "en") -> bool:
    """The table message shows the table as it stands, in ``locale``."""
    return board.text_displays() == drawn(table, locale)
