"""Injected sources of randomness. Engines never touch the global ``random``."""

from __future__ import annotations

import random
import secrets
from collections.abc import Iterable, Sequence
from typing import Protocol, TypeVar

T = TypeVar("T")


class DiceSource(Protocol):
    def roll(self, count: int = 1, sides: int = 6) -> list[int]:
        """``count`` independent faces in ``1..sides``."""
        ...

    def sample(self, population: Sequence[T], k: int) -> list[T]:
        """``k`` distinct items drawn without replacement, in draw order."""
        ...


class SeededDice:
    """Deterministic dice for tests, simulations and benchmarks."""

    def __init__(self, seed: int | str | None = 0) -> None:
        self._rng = random.Random(seed)
        self._bits = self._rng.getrandbits

    def roll(self, count: int = 1, sides: int = 6) -> list[int]:
        # randint(1, sides)'s own algorithm (rejection sampling on getrandbits), so the faces are the same
        # as randint's for a seed, without its three layers of argument checks (most of a playout's dice cost).
        bits, width = self._bits, sides.bit_length()
        out = []
        for _ in range(count):
            r = bits(width)
            while r >= sides:
                r = bits(width)
            out.append(r + 1)
        return out

    def sample(self, population: Sequence[T], k: int) -> list[T]:
        return self._rng.sample(list(population), k)


class SecureDice:
    """Production dice: the OS's CSPRNG through ``secrets``; nobody can predict or seed them."""

    def __init__(self) -> None:
        self._rng = secrets.SystemRandom()

    def roll(self, count: int = 1, sides: int = 6) -> list[int]:
        return [secrets.randbelow(sides) + 1 for _ in range(count)]

    def sample(self, population: Sequence[T], k: int) -> list[T]:
        return self._rng.sample(list(population), k)


class DiceExhausted(AssertionError):
    pass


class ScriptedDice:
    """Dice that return exactly the faces a worked example prescribes, in order.

    ``samples`` is a queue of index lists for ``sample`` (indices into the population);
    without it ``sample`` takes the first ``k`` items, so a scripted bag draws in order.
    """

    def __init__(self, faces: Iterable[int] = (), samples: Iterable[Sequence[int]] = ()) -> None:
        self.faces = list(faces)
        self.samples = [list(s) for s in samples]

    def roll(self, count: int = 1, sides: int = 6) -> list[int]:
        if len(self.faces) < count:
            raise DiceExhausted(f"script needs {count} more face(s), has {len(self.faces)}")
        out, self.faces = self.faces[:count], self.faces[count:]
        for face in out:
            if not 1 <= face <= sides:
                raise ValueError(f"scripted face {face} is not on a d{sides}")
        return out

    def sample(self, population: Sequence[T], k: int) -> list[T]:
        if self.samples:
            return [population[i] for i in self.samples.pop(0)[:k]]
        return list(population[:k])

    def push(self, *faces: int) -> ScriptedDice:
        self.faces.extend(faces)
        return self
