"""What every game's computer player shares: levels, the legal actions, and the ``choose`` prelude.

Each player module writes only its decision, ``decide(view, level, rng, actions)``, called with a
normalised level and at least two legal actions, and gets its public ``choose`` from
:func:`make_choose`::

    choose = make_choose(_decide, "Mex")

``choose(view, level="normal", rng=None, legal=None)`` normalises ``level`` (ValueError if
unknown), resolves the legal actions (``legal`` when given, else ``view["legal"]``, encoded
strings parsed), raises ValueError when there are none (not this seat's turn), returns the only
one when there is one, and otherwise asks ``decide``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Generic, Protocol, TypeVar

from bot.games.base import Action

LEVELS = ("easy", "normal", "hard")
ALIASES = {"medium": "normal", "expert": "hard"}

#: The view a player reads: its game's view type (``PigView``, ...), as the game's engine declares it.
V = TypeVar("V", bound=Mapping[str, Any])
V_contra = TypeVar("V_contra", bound=Mapping[str, Any], contravariant=True)

#: A game's decision: (view, normalised level, rng, the legal actions, two or more) -> one of them.
Decide = Callable[[V, str, Any, list[Action]], Action]


class Choose(Protocol, Generic[V_contra]):
    def __call__(
        self,
        view: V_contra,
        level: str = "normal",
        rng: Any = None,
        legal: Sequence[Action | str] | None = None,
    ) -> Action: ...


def normalise_level(level: str, what: str = "computer") -> str:
    """``easy`` / ``normal`` / ``hard`` (aliases ``medium`` / ``expert``); ValueError naming ``what`` otherwise."""
    name = str(level).strip().lower()
    name = ALIASES.get(name, name)
    if name not in LEVELS:
        raise ValueError(f"unknown {what} level {level!r}; expected one of {', '.join(LEVELS)}")
    return name


def legal_actions(view: Mapping[str, Any], legal: Sequence[Action | str] | None = None) -> list[Action]:
    """``legal`` when given, else ``view["legal"]``, as actions (encoded strings are parsed)."""
    items = view.get("legal") or () if legal is None else legal
    return [a if isinstance(a, Action) else Action.parse(a) for a in items]


def make_choose(
    decide: Decide[V],
    what: str,
    *,
    normalise: Callable[[str, str], str] = normalise_level,
    default: str = "normal",
) -> Choose[V]:
    """The public ``choose`` of a game's player (``what`` names the game in level errors). ``normalise`` checks
    the level and names it canonically (the reference players pass their own kinds). Typed by the game's view:
    ``bot.ai.choose`` hands each game's player the view of that game's engine."""

    def choose(
        view: V,
        level: str = default,
        rng: Any = None,
        legal: Sequence[Action | str] | None = None,
    ) -> Action:
        """The computer's action for its own seat's ``view``; always one of the legal actions.

        ``legal`` overrides ``view["legal"]``. Raises ValueError for an unknown level or when
        there is no legal action (not this seat's turn).
        """
        level = normalise(level, what)
        actions = legal_actions(view, legal)
        if not actions:
            raise ValueError("the view offers no legal action: it is not this seat's turn")
        if len(actions) == 1:
            return actions[0]
        return decide(view, level, rng, actions)

    choose.__module__ = decide.__module__
    choose.__qualname__ = choose.__name__
    return choose
