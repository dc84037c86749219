"""Reference players: simple, sensible players of our own writing that the levels are measured against.

They are benchmarks, not table opponents: reachable as the level ``ref:<kind>`` through
:func:`bot.ai.choose` / :func:`bot.ai.decide` and ``dicetavern simulate --players hard,ref:sensible``,
but never offered on Discord or in the terminal (``bot.ai.LEVELS`` stays easy / normal / hard).

Each game's module (``GameSpec.reference``: ``bot.ai.reference.<id>`` by convention) has
``choose(view, kind, rng, legal) -> Action`` and ``KINDS`` (``sensible`` first); like every
player it decides from its seat's view alone and draws randomness only from ``rng``. docs/AI.md
describes each one.

* every game: ``sensible``;
* Mia: ``rational`` (= ``sensible``), ``always_mia``, ``claim62``, ``mia_lie``, ``lowest``, ``step2``, ``step3``,
  ``from<T>`` (challenge from T, every T below Mia);
* Mythical Dice: ``expected``, ``zero``, ``specials`` (other bidders);
* Liar's Dice: ``probability`` (= ``sensible``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from importlib import import_module
from typing import Any

from bot.games.base import Action
from bot.games.registry import ById, game_ids, spec

PREFIX = "ref:"


#: game id -> its reference players' module (``GameSpec.reference``), read from the registry when asked
MODULES = ById(lambda s: s.reference)


def is_reference(level: str) -> bool:
    return str(level).strip().lower().startswith(PREFIX)


def module(game: str) -> Any:
    """``game``'s reference players, as its spec names them (``bot.ai.reference.<id>`` by convention)."""
    try:
        name = spec(game).reference
    except KeyError:
        raise KeyError(f"no reference player for game {game!r}") from None
    return import_module(name)


def kinds(game: str) -> tuple[str, ...]:
    """The reference kinds ``game`` offers (``sensible`` first)."""
    return tuple(module(game).KINDS)


def normalise(game: str | None, level: str) -> str:
    """``ref:<kind>`` in canonical form; ValueError for an unknown kind (of ``game`` when given)."""
    name = str(level).strip().lower()
    if not name.startswith(PREFIX):
        raise ValueError(f"not a reference level: {level!r}")
    kind = name[len(PREFIX) :].strip()
    known = kinds(game) if game is not None else tuple(sorted({k for g in game_ids() for k in kinds(g)}))
    if kind not in known:
        raise ValueError(f"unknown reference player {level!r}; expected ref: and one of {', '.join(known)}")
    return PREFIX + kind


def choose(
    game: str, view: Mapping[str, Any], level: str, rng: Any = None, legal: Sequence[Action | str] | None = None
) -> Action:
    """The reference player ``level`` (``ref:<kind>``) of ``game``: its action for the seat's ``view``."""
    kind = normalise(game, level)[len(PREFIX) :]
    action: Action = module(game).choose(view, kind, rng, legal)
    return action


__all__ = ["MODULES", "PREFIX", "choose", "is_reference", "kinds", "normalise"]
