"""``first_reached`` finds each across-games achievement's first game in one pass (``overall.REACHED``): the same
game the shortest earning prefix gives, found by applying the rule to every prefix, on random histories."""

from __future__ import annotations

import random

import pytest

from bot.achievements import ACHIEVEMENTS, PlayerGame, first_reached
from bot.achievements import overall as o


def history(rng: random.Random, games: int) -> list[PlayerGame]:
    win_rate = rng.choice((0.05, 0.3, 0.6, 0.95))
    return [
        PlayerGame(
            game_id=rng.randint(1, 10**6),
            game=rng.choice(o.EVERY_GAME + ("other",)),
            result=rng.choices(("win", "loss", "neutral"), (win_rate, 1 - win_rate, 0.1))[0],
            place=rng.randint(1, 6),
            finished_at=float(rng.randint(0, games)),  # equal times: the game id decides
        )
        for _ in range(games)
    ]


def by_every_prefix(games: list[PlayerGame]) -> dict[str, int]:
    ordered = sorted(games, key=lambda game: (game.finished_at, game.game_id))
    found = {}
    for a in ACHIEVEMENTS:
        if a.overall is None:
            continue
        for end in range(1, len(ordered) + 1):
            if a.overall(ordered[:end]):
                found[a.id] = ordered[end - 1].game_id
                break
    return found


def test_every_overall_rule_has_a_one_pass_reach():
    assert {a.overall for a in ACHIEVEMENTS if a.overall is not None} == set(o.REACHED)


@pytest.mark.parametrize("seed", range(6))
def test_first_reached_is_the_shortest_earning_prefix(seed):
    rng = random.Random(seed)
    for _ in range(60):
        games = history(rng, rng.choice((0, 1, 5, 12, 49, 50, 51, 120)))
        assert first_reached(games) == by_every_prefix(games)
