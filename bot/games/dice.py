"""Injected sources of randomness. Engines never touch the global ``random``."""

from __future__ import annotations

import random
import secrets
from collections.abc import Iterable, Sequence
from typing import Any, Protocol, TypeVar

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
        if count == 1:  # most rolls are one die: no loop, no appends
            r = bits(width)
            while r >= sides:
                r = bits(width)
            return [r + 1]
        out = []
        for _ in range(count):
            r = bits(width)
            while r >= sides:
                r = bits(width)
            out.append(r + 1)
        return out

    def sample(self, population: Sequence[T], k: int) -> list[T]:
        n = len(population)
        if k == 1 and n:  # random.sample's first pick is population[randbelow(n)]: the same item, without its setup
            width = n.bit_length()
            r = self._bits(width)
            while r >= n:
                r = self._bits(width)
            return [population[r]]
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


# One dice call as stored in ``actions.dice``: ["r", sides, [face, ...]] for roll(len(faces), sides), or
# ["s", n, [index, ...]] for sample(population, len(indices)) with len(population) == n.
DiceCall = list[Any]


class RecordingDice:
    """Wraps a DiceSource and records every call, in order, in the stored format (``DiceCall``).

    ``sample`` draws indices from the inner source (``sample(range(n), k)``) and maps them: SeededDice,
    SecureDice and ScriptedDice pick the same items that way as from the population itself.
    """

    def __init__(self, inner: DiceSource) -> None:
        self.inner = inner
        self.calls: list[DiceCall] = []

    def roll(self, count: int = 1, sides: int = 6) -> list[int]:
        faces = self.inner.roll(count, sides)
        self.calls.append(["r", sides, faces])
        return list(faces)

    def sample(self, population: Sequence[T], k: int) -> list[T]:
        indices = self.inner.sample(range(len(population)), k)
        self.calls.append(["s", len(population), list(indices)])
        return [population[i] for i in indices]

    def take(self) -> list[DiceCall]:
        """The calls recorded since the last take, and a fresh record."""
        calls, self.calls = self.calls, []
        return calls


class ReplayDice:
    """Serves recorded dice calls back in order; asks for anything else raise (replay never rolls)."""

    def __init__(self, calls: Iterable[DiceCall] = ()) -> None:
        self._calls = list(calls)
        self._next = 0

    def _call(self, kind: str, size: int, count: int) -> list[int]:
        if self._next >= len(self._calls):
            raise DiceExhausted(f"replay asked for a {kind} call that was not recorded")
        recorded = self._calls[self._next]
        if recorded[0] != kind or recorded[1] != size or len(recorded[2]) != count:
            raise ValueError(f"replay asked for {[kind, size, count]}, recorded {recorded}")
        self._next += 1
        return list(recorded[2])

    def roll(self, count: int = 1, sides: int = 6) -> list[int]:
        return self._call("r", sides, count)

    def sample(self, population: Sequence[T], k: int) -> list[T]:
        return [population[i] for i in self._call("s", len(population), k)]

    @property
    def exhausted(self) -> bool:
        """Every recorded call was served."""
        return self._next >= len(self._calls)
