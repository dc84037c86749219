"""SeededDice draws exactly what ``random.Random(seed)`` would (randint per face, sample), through its fast paths:
seeded games, simulations and benchmarks replay the same whatever the implementation."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from bot.games.dice import SeededDice


@given(st.integers(0, 2**32), st.lists(st.tuples(st.integers(1, 5), st.sampled_from([2, 3, 6, 7, 8, 20])), max_size=8))
def test_rolls_are_randints_of_the_same_seed(seed: int, calls: list[tuple[int, int]]) -> None:
    reference, dice = random.Random(seed), SeededDice(seed)
    for count, sides in calls:
        assert dice.roll(count, sides) == [reference.randint(1, sides) for _ in range(count)]


@given(st.integers(0, 2**32), st.lists(st.tuples(st.integers(1, 40), st.integers(1, 4)), max_size=8))
def test_samples_are_random_samples_of_the_same_seed(seed: int, calls: list[tuple[int, int]]) -> None:
    reference, dice = random.Random(seed), SeededDice(seed)
    for n, k in calls:
        population = [f"item{i}" for i in range(n)]
        k = min(k, n)
        assert dice.sample(population, k) == reference.sample(population, k)
