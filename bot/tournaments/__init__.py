"""Tournaments (issue 28): the pure engine. See docs/TOURNAMENTS.md.

Import from here: the data (``bot.tournaments.model``), ``pair_round`` (``pairing``) and ``standings``,
``is_over``, ``winners`` (``standings``).
"""

from bot.tournaments.model import (
    FORMATS,
    Entrant,
    Outcome,
    Pairing,
    Plan,
    Round,
    Standing,
    TournamentRefused,
    check_plan,
    rounds_total,
    tiebreak_names,
)
from bot.tournaments.pairing import pair_round
from bot.tournaments.standings import is_over, standings, winners

__all__ = [
    "FORMATS",
    "Entrant",
    "Outcome",
    "Pairing",
    "Plan",
    "Round",
    "Standing",
    "TournamentRefused",
    "check_plan",
    "is_over",
    "pair_round",
    "rounds_total",
    "standings",
    "tiebreak_names",
    "winners",
]
