"""Computer players for every game: one registry for the table service, simulation and the terminal.

``choose(game, view, level, rng, legal=None)`` returns the computer's action for the seat whose
``view`` (``engine.view(state, seat)``) it is given. Players decide from that view alone, never
from the engine state, and draw randomness only from ``rng`` (a ``random.Random``), so a game
replays exactly from its dice and ``rng`` seeds. The action is always one of the legal ones:
``legal`` when given (the service passes ``engine.legal_actions``), else ``view["legal"]``
(every engine's view carries its seat's legal actions, encoded).

Levels are ``easy``, ``normal`` and ``hard`` (``medium`` / ``expert`` are accepted as aliases).
Each game's module documents its heuristics:

* ``pig``: :mod:`bot.ai.pig_player` (hold-at-n, then the optimal policy table);
* ``mia``: :mod:`bot.ai.mia_player`;
* ``mex``: :mod:`bot.ai.mex_player`;
* ``liar``: :mod:`bot.ai.liar_player`;
* ``mythic``: :mod:`bot.ai.mythic_player`.

Reference players (:mod:`bot.ai.reference`), the simple players the levels are measured against,
are reachable here as the level ``ref:<kind>`` (e.g. ``ref:sensible``) for simulations and
benchmarks; they are not in ``LEVELS`` and so never offered at a table.

Games between computer players only are played by :func:`bot.simulate.play_one` (``dicetavern simulate``, tests).
"""

from __future__ import annotations

import logging
import random
from collections.abc import Mapping, Sequence
from functools import partial
from importlib import import_module
from typing import Any

from bot.ai import reference
from bot.ai.common import LEVELS, legal_actions, normalise_level
from bot.games.base import Action
from bot.games.registry import ById, spec

log = logging.getLogger(__name__)


#: Friendly names for computer seats, by level (a tavern's regulars).
DEFAULT_NAMES: dict[str, tuple[str, ...]] = {
    "easy": ("Tipsy Tilly", "Dozy Dan", "Lucky Lou", "Giddy Gus", "Sleepy Sam", "Merry Meg"),
    "normal": ("Barkeep Bram", "Steady Stella", "Honest Hal", "Canny Cora", "Tally Tom", "Fair Fenna"),
    "hard": ("Sly Silas", "Cardsharp Cass", "Old Odds Otto", "Shrewd Sabine", "Grim Greta", "Fox Felix"),
}


def bot_name(level: str, index: int = 0) -> str:
    """A friendly name for the ``index``-th computer of ``level`` at a table (0-based, always distinct)."""
    names = DEFAULT_NAMES[normalise_level(level)]
    base = names[index % len(names)]
    lap = index // len(names)
    return base if lap == 0 else f"{base} {lap + 1}"


#: game id -> its computer player's module (``GameSpec.player``), read from the registry when asked
PLAYER_MODULES = ById(lambda s: s.player)


def player_module(game: str) -> Any:
    """The module with ``game``'s ``choose(view, level, rng, legal)`` (made by :func:`bot.ai.common.make_choose`)
    and, optionally, its ``prepare(options, levels)``, as the game's spec names it; imported on first use."""
    try:
        name = spec(game).player
    except KeyError:
        raise KeyError(f"no computer player for game {game!r}") from None
    return import_module(name)


def choose(
    game: str,
    view: Mapping[str, Any],
    level: str,
    rng: random.Random | None = None,
    legal: Sequence[Action] | None = None,
    *,
    strict: bool = False,
) -> Action:
    """The computer's move for the seat whose ``view`` this is; always a legal action.

    ``legal`` overrides ``view["legal"]`` (both are lists of the seat's legal actions; the view's
    are encoded strings). Raises ValueError for an unknown level or when there is no legal action.
    Should a player pick an illegal action, that is logged and the first legal one played (a bug
    in a player must not stall a table), unless ``strict`` (see :func:`decide`).
    """
    if reference.is_reference(level):
        action = reference.choose(game, view, level, rng, legal)
    else:
        level = normalise_level(level)
        action = player_module(game).choose(view, level, rng, legal)
    if strict:
        return action
    allowed = legal_actions(view, legal)  # not empty: the player raises ValueError then
    if action not in allowed:
        log.error("%s %s player chose %s, not a legal action; playing %s", game, level, action, allowed[0])
        return allowed[0]
    return action


def prepare(game: str, options: Mapping[str, Any], levels: Sequence[str]) -> None:
    """Start in the background whatever ``game``'s computer players need before they move, for a table with
    these ``options`` and computer ``levels`` (one per computer seat); returns at once and never raises.

    A game's player module may define ``prepare(options, levels)`` (Pig's hard player starts solving its
    table in a worker thread); a game without one needs nothing. Cheap when there is nothing to do, so a
    lobby may call it on every change of options or seats.
    """
    if not levels:
        return
    try:
        hook = getattr(player_module(game), "prepare", None)
        if hook is not None:
            hook(options, levels)
    except Exception:  # a computer's preparation must never stop a table
        log.exception("could not prepare the %s computer players", game)


#: ``decide(game, view, level, rng=None, legal=None)``: :func:`choose` without the safety net,
#: exactly what the game's player returns (tests and simulations use it).
decide = partial(choose, strict=True)


__all__ = ["DEFAULT_NAMES", "LEVELS", "bot_name", "choose", "decide", "normalise_level", "prepare"]
