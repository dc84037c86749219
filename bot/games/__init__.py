"""Pure rules engines. Nothing here imports discord, asyncio or the store."""

from __future__ import annotations

from importlib import import_module

from bot.games.base import Action, Engine, Event, IllegalMove, InvalidOptions, Outcome, act

# name -> module; each module exposes ENGINE. Imported lazily so one game's bug can't break the rest.
GAME_MODULES = {
    "pig": "bot.games.pig",
    "mia": "bot.games.mia",
    "mex": "bot.games.mex",
    "liar": "bot.games.liars_dice",
    "mythic": "bot.games.mythical_dice",
}


def get_engine(name: str) -> Engine:
    try:
        module = GAME_MODULES[name]
    except KeyError:
        raise KeyError(f"unknown game {name!r}") from None
    return import_module(module).ENGINE


def available_games() -> list[str]:
    names = []
    for name, module in GAME_MODULES.items():
        try:
            import_module(module)
        except ModuleNotFoundError:
            continue
        names.append(name)
    return names


__all__ = [
    "Action",
    "Engine",
    "Event",
    "IllegalMove",
    "InvalidOptions",
    "Outcome",
    "act",
    "available_games",
    "get_engine",
]
