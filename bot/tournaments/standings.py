"""Scoring and standings of a tournament (issue 28): points per table, tie-breaks, ranks, the end and the winners.

Pure and deterministic; docs/TOURNAMENTS.md gives the rules.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.tournaments.model import Entrant, Outcome, Plan, Round, Standing


def standings(
    plan: Plan,
    entrants: Sequence[Entrant],
    rounds: Sequence[Round],
    outcomes: Sequence[Outcome],
    withdrawn: frozenset[int] = frozenset(),
) -> list[Standing]:
    """Every entrant's standing, best first (tables without an outcome yet count for nothing).

    Swiss: points, then Buchholz, then Sonneborn-Berger, then seed. Round-robin: points, Sonneborn-Berger,
    head-to-head, seed. Knockout: the round reached (the winner one beyond the last), then seed."""
    raise NotImplementedError


def is_over(
    plan: Plan,
    entrants: Sequence[Entrant],
    rounds: Sequence[Round],
    outcomes: Sequence[Outcome],
    withdrawn: frozenset[int] = frozenset(),
) -> bool:
    """True when no further round will be paired: all ``rounds_total`` rounds played to the end, or fewer than two
    players are left to pair (a knockout with one survivor, or none after a double no-show in the final)."""
    raise NotImplementedError


def winners(
    plan: Plan,
    entrants: Sequence[Entrant],
    rounds: Sequence[Round],
    outcomes: Sequence[Outcome],
    withdrawn: frozenset[int] = frozenset(),
) -> tuple[int, ...]:
    """The players ranked 1 once ``is_over`` (usually one; a Swiss/round-robin tie on every tie-break shares it;
    a knockout whose final was a double no-show has none); () until then."""
    raise NotImplementedError
