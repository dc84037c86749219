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

import math
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
    """Each seat's (mu, sigma) after a game, from its (mu, sigma) before and its place (equal places tie).

    openskill's ``PlackettLuce.rate`` (6.x, ``model()``'s parameters) for teams of one player, the same float
    operations in the same order (bit-identical results: tests/test_ratings_plackett_luce.py checks it against
    openskill on random games), without its objects: a rating object per seat (each with a uuid4, from the OS's
    random source), their deep copies and the argument checks were most of a game end's rating."""
    if len(previous) != len(places):
        raise ValueError("one place per seat")
    if len(previous) < 2:
        raise ValueError("a rated game has at least two seats")
    return _plackett_luce(previous, [float(p) for p in places])


_BETA_SQUARED = (MU / 6) ** 2  # openskill's beta (25/6), squared as its _c does
_TAU_SQUARED = (MU / 300) * (MU / 300)  # tau (25/300), squared as its rate does
_KAPPA = 0.0001


def _plackett_luce(previous: Sequence[tuple[float, float]], ranks: list[float]) -> list[tuple[float, float]]:
    """``PlackettLuce(mu=MU, sigma=SIGMA).rate([[rating] for rating in previous], ranks=ranks)``, step by step (the
    comments name openskill's steps); one player per team, no weights, no scores, no limit on sigma."""
    n = len(previous)
    # rate: sigma corrected with tau; the teams in rank order (_unwind: a stable sort by rank), ranks sorted
    order = sorted(range(n), key=ranks.__getitem__)
    mus = [previous[i][0] for i in order]
    sigmas = [math.sqrt(previous[i][1] * previous[i][1] + _TAU_SQUARED) for i in order]
    rank = [int(r) for r in sorted(ranks)]
    # _calculate_team_ratings (no balance: each weight 1.0), _c, _sum_q (no scores), _a
    team_mu = [0.0 + mu * 1.0 for mu in mus]
    team_sigma_squared = [0.0 + (sigma * 1.0) ** 2 for sigma in sigmas]
    collective = 0.0
    for sigma_squared in team_sigma_squared:
        collective += sigma_squared + _BETA_SQUARED
    c = math.sqrt(collective)
    # (openskill's dict of sums, filled in q order since the ranks are sorted; its first term is the term itself,
    # here 0.0 + the term: the same float, exp being positive)
    sum_q = [0.0] * n
    for i in range(n):
        summed = math.exp(team_mu[i] / c)
        for q in range(n):
            if rank[i] >= rank[q]:
                sum_q[q] += summed
    a = [sum(1 for other in rank if other == mine) for mine in rank]
    # _compute
    rated: list[tuple[float, float]] = []
    for i in range(n):
        omega = 0.0
        delta = 0.0
        i_mu_over_c = math.exp(team_mu[i] / c)
        for q in range(n):
            share = i_mu_over_c / sum_q[q]
            if rank[q] <= rank[i]:
                delta += share * (1 - share) / a[q]
                if q == i:
                    omega += (1 - share) / a[q]
                else:
                    omega -= share / a[q]
        sigma_squared = team_sigma_squared[i]
        omega *= sigma_squared / c
        delta *= sigma_squared / c**2
        delta *= math.sqrt(sigma_squared) / c  # the default gamma
        mu, sigma = mus[i], sigmas[i]
        if omega >= 0:
            mu += (sigma**2 / sigma_squared) * omega * 1.0
            sigma *= math.sqrt(max(1 - (sigma**2 / sigma_squared) * delta * 1.0, _KAPPA))
        else:
            mu += (sigma**2 / sigma_squared) * omega / 1.0
            sigma *= math.sqrt(max(1 - (sigma**2 / sigma_squared) * delta / 1.0, _KAPPA))
        rated.append((mu, sigma))
    # ties: each tied team's mu moves by its group's mean change, which openskill measures after it has already
    # written the new mu over the old (x - x): 0.0, added as it adds it
    for r in set(rank):
        tied = [i for i in range(n) if rank[i] == r]
        if len(tied) > 1:
            change = sum(rated[i][0] - rated[i][0] for i in tied) / len(tied)
            for i in tied:
                rated[i] = (rated[i][0] + change, rated[i][1])
    # back to the seats' order
    result: list[tuple[float, float]] = [(0.0, 0.0)] * n
    for position, seat in enumerate(order):
        result[seat] = rated[position]
    return result


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
