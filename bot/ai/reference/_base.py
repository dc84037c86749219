"""The prelude every reference player shares: :func:`bot.ai.common.make_choose`, with kinds for levels."""

from __future__ import annotations

from collections.abc import Sequence

from bot.ai.common import Choose, Decide, V
from bot.ai.common import make_choose as make_player_choose


def make_choose(decide: Decide[V], kinds: Sequence[str], what: str) -> Choose[V]:
    def check(kind: str, what: str) -> str:
        if kind not in kinds:
            raise ValueError(f"unknown {what} reference player {kind!r}; expected one of {', '.join(kinds)}")
        return kind

    return make_player_choose(decide, what, normalise=check, default="sensible")
