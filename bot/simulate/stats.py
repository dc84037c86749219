"""The statistics of a simulation run: shared wins, Wilson intervals, game lengths (no engines, no text)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from bot.games import Outcome

Z95 = 1.959963984540054


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion (``successes`` may be fractional: shared wins)."""
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def credit(outcome: Outcome, players: int) -> list[float]:
    """Each seat's share of one game's win: ``1/k`` for each of ``k`` seats sharing first place."""
    shares = [0.0] * players
    winners = outcome.winners
    for seat in winners:
        shares[seat] += 1 / len(winners)
    return shares


@dataclass
class SimResult:
    game: str
    levels: tuple[str, ...]
    options: dict[str, Any]  # the options that differ from the defaults
    seed: int | str
    games: int = 0
    wins: list[float] = field(default_factory=list)
    shared: int = 0  # games whose first place was shared
    actions: list[int] = field(default_factory=list)  # per game
    units: list[int] = field(default_factory=list)  # per game, in ``unit`` (empty when the game has none)
    unit: str | None = None
    elapsed: float = 0.0

    def rate(self, seat: int) -> float:
        return self.wins[seat] / self.games if self.games else 0.0

    def interval(self, seat: int) -> tuple[float, float]:
        return wilson(self.wins[seat], self.games)

    @property
    def mean_actions(self) -> float:
        return sum(self.actions) / len(self.actions) if self.actions else 0.0

    @property
    def mean_units(self) -> float | None:
        return sum(self.units) / len(self.units) if self.units else None
