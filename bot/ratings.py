"""Skill ratings (issue 15): openskill's Plackett-Luce model over a finished game's full ranking. Pure: no I/O.

Every seat of a finished game is its own "team"; its place (``results.place``: equal places are ties) is its rank.
A rating is openskill's (mu, sigma); boards sort by the conservative ordinal mu - 3 sigma, which starts at 0 for
a new player (25 - 3 x 25/3) and rises as games make the rating both higher and surer.

Players see ``shown(ordinal)``: 1000 + 40 x ordinal, a whole number (docs/RATINGS.md). The bare ordinal read as a
punishment (a newcomer who lost once was "-1.8"); on this scale a newcomer is 1000 and a game moves it by tens of
points. The scale is strictly increasing in the ordinal, so it never reorders a board; only the ordinal is stored.

Members are rated by their Discord id, computer players by level (``LEVEL_IDS``): every Hard computer in a
server shares one rating, so a member can see where they stand against each level. Two computer players of the
same level at one table are rated as two seats, and the level takes the mean of their two results.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

MU = 25.0
SIGMA = MU / 3
Z = 3.0  # ordinal = mu - Z sigma
LEVEL_IDS = {"easy": -1, "normal": -2, "hard": -3}  # a computer player's rating id, by level
LEVELS = {player: level for level, player in LEVEL_IDS.items()}
ALL = "all"  # the rating over every game together


@cache
def model() -> Any:
    """The one Plackett-Luce model (openskill's defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300)."""
    from openskill.models import PlackettLuce

    return PlackettLuce(mu=MU, sigma=SIGMA)


SHOWN_START = 1000  # what a newcomer's ordinal (0) shows as
SHOWN_SCALE = 40  # shown points per unit of ordinal: one game moves a newcomer by about 40 to 100


def ordinal(mu: float, sigma: float) -> float:
    return mu - Z * sigma


def shown(ordinal: float) -> int:
    """The rating players see: ``1000 + 40 x ordinal``, rounded, and never below 0 (an ordinal under -25 takes a long
    run of losses by a sure player; no newcomer gets there)."""
    return max(0, round(SHOWN_START + SHOWN_SCALE * ordinal))


def player_id(user_id: int, level: str | None) -> int:
    """Whose rating a seat moves: the member's id, or the computer level's."""
    return user_id if level is None else LEVEL_IDS[level]


@dataclass(frozen=True, slots=True)
class Standing:
    """A player's rating in one board (server, season, game) and the record kept beside it."""

    mu: float = MU
    sigma: float = SIGMA
    games: int = 0
    wins: int = 0
    neutral: int = 0
    streak: int = 0  # wins in a row up to now (a neutral result neither extends nor breaks it)
    best_streak: int = 0
    best_score: int | None = None

    @property
    def ordinal(self) -> float:
        return ordinal(self.mu, self.sigma)

    @property
    def shown(self) -> int:
        return shown(self.ordinal)

    @property
    def losses(self) -> int:
        return self.games - self.wins - self.neutral


NEW = Standing()


@dataclass(frozen=True, slots=True)
class Finish:
    """One seat of a finished game: whose rating (``player_id``), its place (1 is best; ties share one), its result
    (``win``, ``loss`` or ``neutral``) and score."""

    player: int
    place: int
    result: str
    score: int = 0


def rate(previous: Sequence[tuple[float, float]], places: Sequence[int]) -> list[tuple[float, float]]:
    """Each seat's (mu, sigma) after a game, from its (mu, sigma) before and its place (equal places tie)."""
    if len(previous) != len(places):
        raise ValueError("one place per seat")
    if len(previous) < 2:
        raise ValueError("a rated game has at least two seats")
    pl = model()
    teams = [[pl.rating(mu=mu, sigma=sigma)] for mu, sigma in previous]
    rated = pl.rate(teams, ranks=[float(p) for p in places])
    return [(team[0].mu, team[0].sigma) for team in rated]


def settle(book: Mapping[int, Standing], finishes: Sequence[Finish]) -> dict[int, Standing]:
    """The standings after one game of every player in ``finishes`` (their standings before are in ``book``;
    a player missing there is new). A game of fewer than two seats is not rated: ``{}``."""
    if len(finishes) < 2:
        return {}
    # One canonical order (place, then player), so the live path and the back-fill give identical floats.
    seats = sorted(finishes, key=lambda f: (f.place, f.player))
    after = rate([_pair(book.get(f.player, NEW)) for f in seats], [f.place for f in seats])
    if len({f.player for f in seats}) == len(seats):  # the usual game: one seat per player
        return {f.player: _after(book.get(f.player, NEW), [f], [r]) for f, r in zip(seats, after, strict=True)}
    moved: dict[int, tuple[list[Finish], list[tuple[float, float]]]] = {}
    for finish, rating in zip(seats, after, strict=True):
        mine = moved.setdefault(finish.player, ([], []))
        mine[0].append(finish)
        mine[1].append(rating)
    return {player: _after(book.get(player, NEW), *results) for player, results in moved.items()}


def _after(before: Standing, finishes: list[Finish], rated: list[tuple[float, float]]) -> Standing:
    """A player's standing after a game where they held ``finishes`` (two seats: a computer level twice), rated
    ``rated``: the mean of the seats' ratings."""
    if len(rated) == 1:
        (mu, sigma), (finish,) = rated[0], finishes
        won, neutral = finish.result == "win", finish.result == "neutral"
        best = finish.score
    else:
        mu = sum(r[0] for r in rated) / len(rated)
        sigma = sum(r[1] for r in rated) / len(rated)
        outcomes = {f.result for f in finishes}
        won, neutral = "win" in outcomes, outcomes == {"neutral"}
        best = max(f.score for f in finishes)
    streak = before.streak + 1 if won else before.streak if neutral else 0
    return Standing(
        mu,
        sigma,
        before.games + 1,
        before.wins + won,
        before.neutral + neutral,
        streak,
        max(before.best_streak, streak),
        best if before.best_score is None else max(best, before.best_score),
    )


def _pair(standing: Standing) -> tuple[float, float]:
    return standing.mu, standing.sigma
