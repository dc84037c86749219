"""Pairing the next round of a tournament (issue 28): Swiss (Dutch), knockout brackets, round-robin (circle).

Pure and deterministic; docs/TOURNAMENTS.md gives the rules.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.tournaments.model import Entrant, Outcome, Plan, Round


def pair_round(
    plan: Plan,
    entrants: Sequence[Entrant],
    rounds: Sequence[Round],
    outcomes: Sequence[Outcome],
    withdrawn: frozenset[int] = frozenset(),
) -> Round:
    """The next round, number len(rounds) + 1, for the players not in ``withdrawn``.

    Raises ValueError when a table of an earlier round has no outcome yet, or when the tournament is over
    (``standings.is_over``). Same inputs, same round. Tables are numbered 1.. in order of their best player."""
    raise NotImplementedError
