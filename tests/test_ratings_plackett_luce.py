"""``bot.ratings.rate`` is openskill's Plackett-Luce, float for float: random games of 2 to 8 seats (ties, new and
sure players, long runs of games fed back in) rated by both must give bit-identical (mu, sigma)."""

from __future__ import annotations

import random

import pytest

from bot.ratings import MU, SIGMA, Finish, rate, settle


def openskill_rate(previous, places):
    from openskill.models import PlackettLuce

    pl = PlackettLuce(mu=MU, sigma=SIGMA)
    rated = pl.rate([[pl.rating(mu=mu, sigma=sigma)] for mu, sigma in previous], ranks=[float(p) for p in places])
    return [(team[0].mu, team[0].sigma) for team in rated]


def places_of(rng: random.Random, seats: int) -> list[int]:
    """Places as results rows hold them: 1 is best, equal places tie, the next place skips the tied ones; in a
    random seat order (``rate`` takes any order; ``settle`` sorts by place first)."""
    groups = []
    left = seats
    while left:
        size = 1 if rng.random() < 0.7 else rng.randint(1, left)
        groups.append(size)
        left -= size
    places, place = [], 1
    for size in groups:
        places += [place] * size
        place += size
    rng.shuffle(places)
    return places


@pytest.mark.parametrize("seed", range(8))
def test_rate_is_openskill_bit_for_bit(seed):
    rng = random.Random(seed)
    for _ in range(400):
        seats = rng.randint(2, 8)
        previous = [
            (MU, SIGMA) if rng.random() < 0.2 else (rng.uniform(-10, 60), rng.uniform(0.05, 9.0)) for _ in range(seats)
        ]
        places = places_of(rng, seats)
        assert rate(previous, places) == openskill_rate(previous, places)  # == on floats: bit for bit (no NaN)


def test_long_runs_fed_back_are_openskill_bit_for_bit():
    """A board played a thousand games: each game's ratings come from the last, so any drift would compound."""
    rng = random.Random(30)
    ours = {p: (MU, SIGMA) for p in range(6)}
    theirs = dict(ours)
    for _ in range(1000):
        players = rng.sample(range(6), rng.randint(2, 6))
        places = places_of(rng, len(players))
        for book, rater in ((ours, rate), (theirs, openskill_rate)):
            after = rater([book[p] for p in players], places)
            book.update(zip(players, after, strict=True))
    assert ours == theirs


def test_settle_matches_openskill_with_a_computer_level_twice():
    book = {}
    finishes = [Finish(7, 1, "win"), Finish(-3, 2, "loss"), Finish(-3, 2, "loss"), Finish(9, 4, "loss")]
    after = settle(book, finishes)
    rated = openskill_rate([(MU, SIGMA)] * 4, [1, 2, 2, 4])
    assert (after[7].mu, after[7].sigma) == rated[0]
    assert after[-3].mu == (rated[1][0] + rated[2][0]) / 2 and after[-3].sigma == (rated[1][1] + rated[2][1]) / 2
    assert (after[9].mu, after[9].sigma) == rated[3]
