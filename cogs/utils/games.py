"""The games as slash-command choices, derived from the registry (``bot.games.registry``), never a hand-kept list."""

from __future__ import annotations

from discord import app_commands

from bot.games import specs
from bot.i18n import t


def game_choices(*, named: bool = False) -> list[app_commands.Choice[str]]:
    """One choice per registered game, in the registry's order: shown by id (``liar``), or by the catalog's
    name (``Liar's Dice``) when ``named``; the value is always the id."""
    return [app_commands.Choice(name=t(s.name_key) if named else s.id, value=s.id) for s in specs()]
