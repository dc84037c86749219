"""The prelude every reference player shares (like :func:`bot.ai.common.make_choose`, with kinds)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from bot.ai.common import legal_actions
from bot.games.base import Action

#: (view, kind, rng, two or more legal actions) -> one of them
Decide = Callable[[Mapping[str, Any], str, Any, list[Action]], Action]
Choose = Callable[[Mapping[str, Any], str, Any, "Sequence[Action | str] | None"], Action]


def make_choose(decide: Decide, kinds: Sequence[str], what: str) -> Choose:
    def choose(
        view: Mapping[str, Any], kind: str = "sensible", rng: Any = None, legal: Sequence[Action | str] | None = None
    ) -> Action:
        """The reference player's action for its own seat's ``view``; always one of the legal actions."""
        if kind not in kinds:
            raise ValueError(f"unknown {what} reference player {kind!r}; expected one of {', '.join(kinds)}")
        actions = legal_actions(view, legal)
        if not actions:
            raise ValueError("the view offers no legal action: it is not this seat's turn")
        if len(actions) == 1:
            return actions[0]
        return decide(view, kind, rng, actions)

    choose.__module__ = decide.__module__
    return choose
