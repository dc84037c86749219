"""Pure rules engines. Nothing here imports discord, asyncio or the store."""

from __future__ import annotations

from typing import Any

from bot.games.base import Action, Engine, Event, IllegalMove, InvalidOptions, Outcome, act
from bot.games.registry import GameSpec, game_ids, spec, specs


def get_engine(name: str) -> Engine:
    """The game's engine; ``KeyError`` for an unknown game."""
    return spec(name).engine


def available_games() -> list[str]:
    """Every registered game's id, in the order players see them (see ``bot.games.registry``)."""
    return list(game_ids())


def __getattr__(name: str) -> Any:
    # Derived from the registry on demand: the scan imports every engine module, which needs this package first.
    if name == "GAME_MODULES":  # id -> the engine's module
        return {s.id: s.module for s in specs()}
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "Action",
    "Engine",
    "Event",
    "GameSpec",
    "IllegalMove",
    "InvalidOptions",
    "Outcome",
    "act",
    "available_games",
    "get_engine",
    "game_ids",
    "spec",
    "specs",
]
