"""Pig's roll/hold tables: the rules that change the optimal policy, and the file format the tables ship in.

:class:`PigRules` names a variant (dice, target, what double ones do, ...); :class:`PigPolicy` is its table,
read and written with the standard library only, so a computer player needs no numpy to play. The shipped
tables live in ``bot/ai/data`` (:func:`load_shipped`); :mod:`bot.ai.pig_solver` computes them.

**Table format** (stdlib only to read; see :class:`PigPolicy`). One bit per non-terminal state,
``1`` = roll, ``0`` = hold, for ``0 <= i, j < target`` and ``0 <= k < target - i`` (505,000
states = 63,125 bytes at target 100), in the order ``i``, then ``j``, then ``k``:
``index(i, j, k) = T * (i*T - i*(i-1)/2) + j*(T - i) + k``, packed least significant bit first.
A file is ``MAGIC`` + one line of JSON header (rules, state count, SHA-256 of the raw bitmap, the
first player's win probability) + the zlib-compressed bitmap.

Regenerate the shipped tables with ``python -m bot.ai.pig_solver --ship`` (or
``python scripts/gen_pig_tables.py``).
"""

from __future__ import annotations

import hashlib
import json
import os
import zlib
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

MAGIC = b"DTPIG1\n"
DATA_DIR = Path(__file__).resolve().parent / "data"
SHIPPED: tuple[dict[str, Any], ...] = (
    {"dice": 1, "target": 50},
    {"dice": 1, "target": 100},
    {"dice": 2, "target": 50},
    {"dice": 2, "target": 100},  # Big Pig defaults: plus25, doubles x2, no forced re-roll
)
#: In every table's header (``meta["solver"]``): a cached table from another solver version is solved again.
SOLVER_VERSION = 2
DOUBLE_ONES = ("plus25", "lose_score", "bust")


# --------------------------------------------------------------------------------------------
# Rules that change the optimal policy


@dataclass(frozen=True)
class PigRules:
    """The options that matter to the policy. Two-dice-only options are normalised away for one die.

    ``auto_hold_at_target`` does not change optimal play (an optimal player holds there anyway) and
    ``equal_turns`` is not modelled (the computer player documents its approximation).
    """

    dice: int = 1
    target: int = 100
    double_ones: str = "plus25"
    doubles_multiplier: int = 2
    must_roll_after_doubles: bool = False

    def __post_init__(self) -> None:
        if self.dice not in (1, 2):
            raise ValueError(f"dice must be 1 or 2, got {self.dice!r}")
        if isinstance(self.target, bool) or not isinstance(self.target, int) or not 2 <= self.target <= 1000:
            raise ValueError(f"target must be a whole number from 2 to 1000, got {self.target!r}")
        if self.double_ones not in DOUBLE_ONES:
            raise ValueError(f"double_ones must be one of {DOUBLE_ONES}, got {self.double_ones!r}")
        if self.doubles_multiplier not in (1, 2):
            raise ValueError(f"doubles_multiplier must be 1 or 2, got {self.doubles_multiplier!r}")
        if self.dice == 1:  # the two-dice options do not exist for one die
            object.__setattr__(self, "double_ones", "plus25")
            object.__setattr__(self, "doubles_multiplier", 2)
            object.__setattr__(self, "must_roll_after_doubles", False)
        else:
            object.__setattr__(self, "must_roll_after_doubles", bool(self.must_roll_after_doubles))

    @classmethod
    def from_options(cls, options: Any) -> PigRules:
        """From a ``PigOptions`` or its dict (``view["options"]``); unknown keys are ignored."""
        data = options if isinstance(options, Mapping) else options.to_dict()
        return cls(
            dice=int(data.get("dice", 1)),
            target=int(data.get("target", 100)),
            double_ones=str(data.get("double_ones", "plus25")),
            doubles_multiplier=int(data.get("doubles_multiplier", 2)),
            must_roll_after_doubles=bool(data.get("must_roll_after_doubles", False)),
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "dice": self.dice,
            "target": self.target,
            "double_ones": self.double_ones,
            "doubles_multiplier": self.doubles_multiplier,
            "must_roll_after_doubles": self.must_roll_after_doubles,
        }

    def with_target(self, target: int) -> PigRules:
        return replace(self, target=target)

    @property
    def shifts(self) -> bool:
        """True when the game depends only on the points each player still needs, so a bigger target's
        table answers for a smaller one (state ``(i, j, k)`` at target ``t`` is ``(i + d, j + d, k)`` at
        ``t + d``). Not with ``double_ones=lose_score``: a wipe sends a score to 0, not to ``d``."""
        return not (self.dice == 2 and self.double_ones == "lose_score")

    @property
    def key(self) -> str:
        """A file-name-safe id: ``pig-d1-t100``, ``pig-d2-plus25-x2-t100`` (``-mr``: must re-roll doubles)."""
        if self.dice == 1:
            return f"pig-d1-t{self.target}"
        forced = "-mr" if self.must_roll_after_doubles else ""
        return f"pig-d2-{self.double_ones}-x{self.doubles_multiplier}{forced}-t{self.target}"

    @property
    def states(self) -> int:
        """Non-terminal states ``(i, j, k)``: ``0 <= i, j < T``, ``0 <= k < T - i``."""
        t = self.target
        return t * t * (t + 1) // 2

    def outcomes(self) -> tuple[int, int, int, list[tuple[int, int, bool]]]:
        """``(denominator, bust, wipe, [(gain, count, forces_a_reroll)])`` for one roll."""
        if self.dice == 1:
            return 6, 1, 0, [(face, 1, False) for face in range(2, 7)]
        bust = wipe = 0
        merged: dict[tuple[int, bool], int] = {}
        for a in range(1, 7):
            for b in range(1, 7):
                if a == b == 1:
                    if self.double_ones == "plus25":
                        key = (25, self.must_roll_after_doubles)
                        merged[key] = merged.get(key, 0) + 1
                    elif self.double_ones == "lose_score":
                        wipe += 1
                    else:
                        bust += 1
                elif a == 1 or b == 1:
                    bust += 1
                else:
                    double = a == b
                    gain = (a + b) * (self.doubles_multiplier if double else 1)
                    key = (gain, double and self.must_roll_after_doubles)
                    merged[key] = merged.get(key, 0) + 1
        return 36, bust, wipe, [(g, n, f) for (g, f), n in sorted(merged.items())]


def state_index(target: int, i: int, j: int, k: int) -> int:
    """Bit index of state ``(i, j, k)`` in a table (see this module's docstring)."""
    return target * (i * target - i * (i - 1) // 2) + j * (target - i) + k


# --------------------------------------------------------------------------------------------
# The shipped/cached table (stdlib only)


class PolicyFormatError(ValueError):
    pass


class PigPolicy:
    """A roll/hold table: ``rolls(i, j, k)`` is True when the table rolls (stdlib only)."""

    __slots__ = ("rules", "bits", "meta")

    def __init__(self, rules: PigRules, bits: bytes, meta: Mapping[str, Any] | None = None) -> None:
        if len(bits) != (rules.states + 7) // 8:
            raise PolicyFormatError(f"{rules.key}: expected {(rules.states + 7) // 8} bytes, got {len(bits)}")
        self.rules = rules
        self.bits = bytes(bits)
        self.meta = dict(meta or {})

    def rolls(self, i: int, j: int, k: int) -> bool:
        """The table's decision with score ``i``, opponent ``j``, turn total ``k`` (k = 0: roll)."""
        t = self.rules.target
        if i + k >= t:
            return False  # already won: hold (auto-hold does it anyway)
        if k <= 0:
            return True
        i = max(0, i)
        j = min(max(0, j), t - 1)
        n = state_index(t, i, j, k)
        return bool(self.bits[n >> 3] >> (n & 7) & 1)

    def hold_point(self, i: int, j: int) -> int | None:
        """The smallest turn total at which the table holds at scores ``(i, j)``; None if it never does."""
        for k in range(1, self.rules.target - i):
            if not self.rolls(i, j, k):
                return k
        return None

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.bits).hexdigest()

    def to_bytes(self) -> bytes:
        header = {"format": 1, "rules": self.rules.to_dict(), "states": self.rules.states, "sha256": self.sha256}
        header.update({k: v for k, v in self.meta.items() if k not in header})
        line = json.dumps(header, sort_keys=True, separators=(",", ":")).encode()
        return MAGIC + line + b"\n" + zlib.compress(self.bits, 9)

    @classmethod
    def from_bytes(cls, data: bytes) -> PigPolicy:
        if not data.startswith(MAGIC):
            raise PolicyFormatError("not a Dice Tavern Pig table (bad magic)")
        try:  # a damaged file is a format error, whatever part of it is damaged
            end = data.index(b"\n", len(MAGIC))
            header = json.loads(data[len(MAGIC) : end])
            if header.get("format") != 1:
                raise PolicyFormatError(f"unsupported table format {header.get('format')!r}")
            rules = PigRules(**header["rules"])
            bits = zlib.decompress(data[end + 1 :])
        except (ValueError, KeyError, TypeError, AttributeError, zlib.error) as exc:
            raise PolicyFormatError(f"corrupt Pig table: {exc}") from exc
        if header.get("states") != rules.states or hashlib.sha256(bits).hexdigest() != header.get("sha256"):
            raise PolicyFormatError(f"{rules.key}: corrupt table (size or checksum mismatch)")
        meta = {k: v for k, v in header.items() if k not in ("format", "rules", "states", "sha256")}
        return cls(rules, bits, meta)

    def save(self, path: str | os.PathLike[str]) -> Path:
        """Write atomically (temp file + rename), creating the folder."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        tmp.write_bytes(self.to_bytes())
        os.replace(tmp, path)
        return path

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> PigPolicy:
        return cls.from_bytes(Path(path).read_bytes())

    def to_array(self) -> Any:
        """The decisions as a numpy bool array in table order (needs numpy)."""
        np = require_numpy()
        raw = np.frombuffer(self.bits, dtype=np.uint8)
        return np.unpackbits(raw, bitorder="little")[: self.rules.states].astype(bool)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PigPolicy) and self.rules == other.rules and self.bits == other.bits

    def __hash__(self) -> int:
        return hash((self.rules, self.bits))

    def __repr__(self) -> str:
        return f"PigPolicy({self.rules.key}, sha256={self.sha256[:12]})"


class ShiftedPolicy:
    """A bigger target's table read for a smaller target (see :attr:`PigRules.shifts`): same decisions as
    the smaller target's own table, found by the tests to be bit for bit identical."""

    __slots__ = ("rules", "base", "offset")

    def __init__(self, base: PigPolicy, target: int) -> None:
        if not base.rules.shifts or not 2 <= target <= base.rules.target:
            raise ValueError(f"{base.rules.key} cannot answer for target {target}")
        self.rules = base.rules.with_target(target)
        self.base = base
        self.offset = base.rules.target - target

    def rolls(self, i: int, j: int, k: int) -> bool:
        t = self.rules.target
        if i + k >= t:
            return False
        if k <= 0:
            return True
        return self.base.rolls(max(0, i) + self.offset, min(max(0, j), t - 1) + self.offset, k)

    def hold_point(self, i: int, j: int) -> int | None:
        for k in range(1, self.rules.target - i):
            if not self.rolls(i, j, k):
                return k
        return None

    def __repr__(self) -> str:
        return f"ShiftedPolicy({self.rules.key} from {self.base.rules.key})"


Policy = PigPolicy | ShiftedPolicy


def shipped_path(rules: PigRules) -> Path:
    return DATA_DIR / f"{rules.key}.bin"


def load_shipped(rules: PigRules) -> PigPolicy | None:
    """The table shipped in ``bot/ai/data`` for these rules, if any."""
    path = shipped_path(rules)
    if not path.is_file():
        return None
    policy = PigPolicy.load(path)
    if policy.rules != rules:
        raise PolicyFormatError(f"{path} holds {policy.rules.key}, expected {rules.key}")
    return policy


def require_numpy() -> Any:
    try:
        import numpy
    except ModuleNotFoundError as exc:  # pragma: no cover - depends on the environment
        raise RuntimeError("solving Pig tables needs numpy (pip install numpy)") from exc
    return numpy
