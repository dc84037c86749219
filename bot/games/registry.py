"""The registry of games: one declared ``GameSpec`` per game (in the spirit of OpenSpiel's ``GameType`` +
``register_game``), and every list of games in the project derived from it.

A game's engine module (``bot/games/<module>.py``) declares ``SPEC = GameSpec(ENGINE, ...)`` beside its
``ENGINE``; the registry finds it by scanning this package, so adding a game edits no list here. What the
engine class already declares (its id ``name``, ``Options``, player counts, ``scores_are_points``,
``neutral_results``, ``open_information``) is read from it, not repeated. The spec adds what only the layers
above need, by dotted module path so this layer imports none of them: the renderer, the computer player, its
reference players and the cog (each defaults to the convention below), the unit a game's length is counted in,
and its place in lists. The upper layers look themselves up here (``bot.render.game_module``,
``bot.ai.player_module``, ``bot.ai.reference.module``).

A game kept outside this package (a plugin; the sixth-game test's package) is added with ``register(SPEC)``
and removed with ``unregister``; its ``GameSpec.locales`` names the package whose ``locales/`` folder holds its
texts.

Names: ``id`` (``liar``) is the command group, the catalog prefix (``bot/locales/<lang>/liar.json``), the
stored ``table.game`` and the CLI's name; the engine module may be named otherwise (``liars_dice``); the name
players read is the catalog's ``game.<id>`` (``Liar's Dice``).
"""

from __future__ import annotations

import logging
import pkgutil
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from importlib import import_module
from pathlib import Path
from typing import Any

from bot.games.base import Engine, Event

log = logging.getLogger(__name__)

_PACKAGE = __name__.rpartition(".")[0]  # bot.games
# Modules of this package that are not games (they declare no SPEC and are not imported for the scan).
_SHARED = {"base", "dice", "parsing", "registry"}


@dataclass(frozen=True)
class GameSpec:
    """Everything about one game that the rest of the project needs to find it."""

    engine: Engine[Any, Any, Any]
    order: int  # place in every list players see (/leaderboard and /settings choices, /help, the CLI)
    length_unit: str  # what a game's length is counted in: ``simulate.unit_<unit>`` in the catalog
    starts_unit: Callable[[Event], bool]  # the public event that starts one unit of length
    renderer: str = ""  # dotted path; default ``bot.render.<id>``
    player: str = ""  # the computer player's module; default ``bot.ai.<id>_player``
    reference: str = ""  # its reference players' module (benchmarks' yardstick); default ``bot.ai.reference.<id>``
    cog: str = ""  # the Discord cog's module; default ``cogs.<id>``
    # A package with a ``locales/<lang>/*.json`` folder of the game's texts, read after bot/locales (a game kept
    # outside bot/, registered with ``register``); empty: its texts are in bot/locales.
    locales: str = ""

    def __post_init__(self) -> None:
        defaults = {
            "renderer": f"bot.render.{self.id}",
            "player": f"bot.ai.{self.id}_player",
            "reference": f"bot.ai.reference.{self.id}",
            "cog": f"cogs.{self.id}",
        }
        for name, default in defaults.items():
            if not getattr(self, name):
                object.__setattr__(self, name, default)

    @property
    def id(self) -> str:
        return self.engine.name

    @property
    def module(self) -> str:
        """The engine's module (``bot.games.liars_dice``)."""
        return type(self.engine).__module__

    @property
    def name_key(self) -> str:
        """The catalog key of the game's name as players read it."""
        return f"game.{self.id}"

    @property
    def catalog(self) -> str:
        """The catalog file (prefix) of the game's own texts: rules, commands, events, errors."""
        return self.id

    @property
    def options(self) -> type:
        return self.engine.Options

    @property
    def players(self) -> tuple[int, int]:
        """The fewest and most seats with the default options (an option may change them: ``player_range``)."""
        return self.engine.player_range(self.engine.options())

    @property
    def scored(self) -> bool:
        """An outcome's scores are points (a best score means something)."""
        return self.engine.scores_are_points

    @property
    def neutral_results(self) -> bool:
        return self.engine.neutral_results

    @property
    def hidden_information(self) -> bool:
        return not self.engine.open_information


@cache
def _scanned() -> tuple[GameSpec, ...]:
    """Every ``SPEC`` in this package. A module that fails to import is logged and left out, so one game's bug
    cannot take the others down (the registry test lists the games that must be there)."""
    found: list[GameSpec] = []
    for info in pkgutil.iter_modules([str(Path(__file__).parent)]):  # this package's files (not the package)
        if info.ispkg or info.name.startswith("_") or info.name in _SHARED:
            continue
        try:
            module = import_module(f"{_PACKAGE}.{info.name}")
        except Exception:
            log.exception("game module %s failed to import; its game is unavailable", info.name)
            continue
        spec = getattr(module, "SPEC", None)
        if isinstance(spec, GameSpec):
            found.append(spec)
    return tuple(found)


_added: dict[str, GameSpec] = {}  # games registered from outside this package, by id
_watchers: list[Callable[[], None]] = []


@cache
def _registry() -> dict[str, GameSpec]:
    """Every game, in ``order``: this package's, and those added with ``register``."""
    found = sorted([*_scanned(), *_added.values()], key=lambda s: (s.order, s.id))
    return {spec.id: spec for spec in found}


def register(spec: GameSpec) -> None:
    """Add a game whose engine module lives outside this package (a plugin, a test's package); undone by
    ``unregister``. Every list of games derived on demand (``specs``, the command choices built after this,
    the catalog when ``spec.locales`` names a folder) then has it. ValueError for an id already taken."""
    if spec.id in _registry():
        raise ValueError(f"a game {spec.id!r} is already registered")
    _added[spec.id] = spec
    _changed()


def unregister(game: str) -> None:
    """Remove a game ``register`` added (the games of this package stay). KeyError if it added none of that id."""
    if game not in _added:
        raise KeyError(f"no game {game!r} was registered from outside bot.games")
    del _added[game]
    _changed()


def added() -> list[GameSpec]:
    """The games ``register`` added (no scan of this package: the catalog asks this when it loads)."""
    return list(_added.values())


def on_change(callback: Callable[[], None]) -> None:
    """Call ``callback`` after every ``register`` / ``unregister`` (the catalog and the renderers' memo of
    modules listen, so nothing above keeps a stale game)."""
    _watchers.append(callback)


def _changed() -> None:
    _registry.cache_clear()
    for callback in _watchers:
        callback()


class ById(Mapping[str, str]):
    """A live mapping game id -> one text its spec gives (``ById(lambda s: s.player)``), in the registry's order:
    a module-level list of games that never goes stale (a game registered later is in it)."""

    def __init__(self, pick: Callable[[GameSpec], str]) -> None:
        self._pick = pick

    def __getitem__(self, game: str) -> str:
        return self._pick(spec(game))

    def __iter__(self) -> Iterator[str]:
        return iter(game_ids())

    def __len__(self) -> int:
        return len(_registry())

    def __repr__(self) -> str:
        return repr(dict(self))


def specs() -> list[GameSpec]:
    """Every registered game, in the order players see them."""
    return list(_registry().values())


def game_ids() -> tuple[str, ...]:
    return tuple(_registry())


def spec(game: str) -> GameSpec:
    """The game's spec; ``KeyError`` for an unknown game."""
    try:
        return _registry()[game]
    except KeyError:
        raise KeyError(f"unknown game {game!r}") from None
