"""Heads-up Mex played for the game, not the round: exact win probabilities by dynamic programming.

``W(a, b)``: the chance that the player about to start a round with ``a`` lives beats the other, who has ``b``.
Every round costs its loser at least one life and the loser starts the next (MX-1a), so ``W(a, b)`` needs only
states with fewer lives in all, and the table fills in order of ``a + b``. Within a round both players play to
maximise their chance of winning the game: the second player throws until it is safe or out of throws (or stands
on a tie when that is worth more), the first picks stand / throw / end the round on each throw, knowing the second
will answer best. Ties go to extra rounds of one throw each (even odds, the normal round's penalty, MX-T5).

Covers the rules' default round (``mex_ends_turn`` on, no kept dice, no passing the lead) for every ``max_throws``,
``mex_penalty`` and ``allow_end_round_early``; :mod:`bot.ai.mex_player` falls back to its round heuristic otherwise.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

from bot.games.mex import MEX, mex_value, penalty

#: the 21 distinct throws' values with their probabilities
THROWS: tuple[tuple[int, float], ...] = tuple(
    (mex_value((lo, hi)), (1 if lo == hi else 2) / 36) for hi in range(1, 7) for lo in range(1, hi + 1)
)
MAX_LIVES = 30  # the table's reach (the option allows 99; beyond this the round heuristic plays)


class Rules:
    """The options the round depends on, and the game-value table they give."""

    def __init__(self, max_throws: int = 3, mode: str = "seed", end_allowed: bool = True) -> None:
        self.max_throws, self.mode, self.end_allowed = max_throws, mode, end_allowed
        self._w: dict[tuple[int, int], float] = {}

    def win(self, a: int, b: int) -> float:
        """W(a, b) (a: the starter's lives)."""
        if a <= 0:
            return 0.0
        if b <= 0:
            return 1.0
        key = (a, b)
        if key not in self._w:
            for total in range(2, a + b + 1):  # fill smaller states first: no deep recursion
                for x in range(max(1, total - b), min(a, total - 1) + 1):
                    if (x, total - x) not in self._w:
                        self._w[(x, total - x)] = RoundGame(self, x, total - x).value()
        return self._w[key]


class RoundGame:
    """One round between the starter (``a`` lives) and the other (``b``); values are the starter's win chance."""

    def __init__(self, rules: Rules, a: int, b: int) -> None:
        self.rules, self.a, self.b = rules, a, b
        self.responder = lru_cache(maxsize=None)(self._responder)
        self.starter = lru_cache(maxsize=None)(self._starter)

    def starter_loses(self, mexes: int) -> float:
        k = penalty(self.rules.mode, mexes)
        return 0.0 if self.a - k <= 0 else self.rules.win(self.a - k, self.b)

    def other_loses(self, mexes: int) -> float:
        k = penalty(self.rules.mode, mexes)
        return 1.0 if self.b - k <= 0 else 1.0 - self.rules.win(self.b - k, self.a)

    def resolve(self, v: int, w: int, mexes: int) -> float:
        """The starter stood on ``v``, the other on ``w``: the lower loses; a tie is an even extra round."""
        if w > v:
            return self.starter_loses(mexes)
        if w < v:
            return self.other_loses(mexes)
        return 0.5 * (self.starter_loses(mexes) + self.other_loses(mexes))

    def _responder(self, v: int, limit: int, mexes: int, thrown: int, w: int | None) -> float:
        """The starter's chance when the other has thrown ``thrown`` times (last ``w``) against ``v``; the other
        minimises it. ``w`` None: about to throw."""
        if w is None:
            total = 0.0
            for value, p in THROWS:
                n = mexes + (value == MEX)
                total += p * self.responder(v, limit, n, thrown + 1, value)
            return total
        stand = self.resolve(v, w, mexes)
        if w == MEX or thrown >= limit:
            return stand
        return min(stand, self.responder(v, limit, mexes, thrown, None))

    def _starter(self, thrown: int, v: int | None, mexes: int) -> float:
        """The starter's best chance after ``thrown`` throws (last ``v``; None: about to throw)."""
        return max(value for value, _ in self.starter_options(thrown, v, mexes))

    def starter_options(self, thrown: int, v: int | None, mexes: int) -> list[tuple[float, str]]:
        """(value, action name) for each choice the starter has after ``thrown`` throws with last value ``v``."""
        if v is None:
            total = sum(p * self.starter(thrown + 1, value, mexes + (value == MEX)) for value, p in THROWS)
            return [(total, "throw")]
        if v == MEX:
            return [(self.responder(v, thrown, mexes, 0, None), "stand")]
        out = [(self.responder(v, thrown, mexes, 0, None), "stand")]
        if thrown < self.rules.max_throws:
            out.append((self.starter(thrown, None, mexes), "throw"))
        if self.rules.end_allowed and mexes == 0:
            out.append((self.starter_loses(0), "end_round"))  # the only thrower is the lowest
        return out

    def responder_options(self, v: int, limit: int, mexes: int, thrown: int, w: int) -> list[tuple[float, str]]:
        """(the other's win chance, action name) for the other's choices."""
        out = [(1 - self.resolve(v, w, mexes), "stand")]
        if thrown < limit and w != MEX:
            out.append((1 - self.responder(v, limit, mexes, thrown, None), "throw"))
        return out

    def value(self) -> float:
        return self.starter(0, None, 0)


#: W(a, b) for the default options (3 throws, seed penalty, early end allowed) up to MAX_LIVES lives each, shipped
#: so that no table service fills it on a first move (6 s at 30 lives); written by ``benchmarks/mex_table.py``.
TABLE = Path(__file__).resolve().parent / "data" / "mex-headsup.json"
DEFAULT = (3, "seed", True)


@lru_cache(maxsize=16)
def rules(max_throws: int, mode: str, end_allowed: bool) -> Rules:
    """The solver for these options; the default options' table comes from the shipped file."""
    made = Rules(max_throws, mode, end_allowed)
    if (max_throws, mode, end_allowed) == DEFAULT and TABLE.exists():
        rows = json.loads(TABLE.read_text())["win"]
        made._w = {(a + 1, b + 1): float(w) for a, row in enumerate(rows) for b, w in enumerate(row)}
    return made


@lru_cache(maxsize=256)
def round_game(max_throws: int, mode: str, end_allowed: bool, a: int, b: int) -> RoundGame:
    """The round at these lives (kept: its answers are reused by every decision at that score)."""
    return RoundGame(rules(max_throws, mode, end_allowed), a, b)
