"""Computer players for Mex (rules/mex.md): a seat's view in, an action out.

Every Mex throw is open, so the view is the whole game: the round's throwing ``order``, each
seat's ``throws`` and ``final`` value, ``throw_limit`` (None until the first player stands),
``mex_count``, ``held``/``must_throw`` (``hold_one_or_two``) and the tie-break, plus ``legal``.
``choose(view, level, rng, legal=None)`` returns one of the legal actions.

The round's loser is the lowest final value, so a player whose value beats an earlier player's
final value is safe whatever happens next; only the current lowest (or the first thrower) has
a decision to make. The rules carry no strategy notes for Mex; the heuristics are ours:

* ``easy``: stands on its own random threshold (54 to 100, redrawn each decision), whatever
  the others threw; never ends a round early and never keeps a die.
* ``normal``: the round heuristic below (``hard`` before issue 17), without ending a round early.
* ``hard``: heads-up (the default round: a Mex ends the turn, no kept dice, no passed lead, at
  most 30 lives), the choice with the best chance of winning the game, from the exact dynamic
  programme of :mod:`bot.ai.mex_solver` (the default options' table ships in
  ``bot/ai/data/mex-headsup.json``). Otherwise, and with more players, it minimises its
  expected lives lost this round, by exact expectation over its own throws (stand / throw /
  keep a 1 or 2 / end the round). Standing on ``v`` costs
  P(nobody after ends below v) x E[penalty], with the players still to throw modelled as
  re-throwing while at or below the lowest value (up to their limit, which the first player
  sets by standing); ties go to an even extra round, and the expected penalty counts the
  Mexes those players may still throw (``mex_penalty``). Ending early costs 1 life when the
  ender is lowest (or tied, MX-5) and nothing otherwise.

Tie-break rounds are symmetric (one throw each, lowest loses), so the counting choice does
not matter: ``normal`` and ``hard`` pick ``mex``, ``easy`` picks at random.
"""

from __future__ import annotations

import math
from functools import cache, lru_cache
from typing import Any

from bot.ai import mex_solver
from bot.ai.common import make_choose
from bot.games.base import Action
from bot.games.mex import END_ROUND, MEX, STAND, THROW, MexView, mex_value, penalty

EASY_STAND = (54, 61, 63, 65, 100)  # easy stands at or above one of these, drawn each decision


# --- throw probabilities -------------------------------------------------------------------

TWO_DICE: tuple[tuple[tuple[int, int], float], ...] = tuple(((a, b), 1 / 36) for a in range(1, 7) for b in range(1, 7))
#: the 21 distinct throws (low die first) with their probabilities and values
THROWS: tuple[tuple[tuple[int, int], float, int], ...] = tuple(
    ((lo, hi), (1 if lo == hi else 2) / 36, mex_value((lo, hi))) for hi in range(1, 7) for lo in range(1, hi + 1)
)
#: the six throws of one die next to a kept face
KEPT: dict[int, tuple[tuple[tuple[int, int], float, int], ...]] = {
    f: tuple(((min(f, d), max(f, d)), 1 / 6, mex_value((f, d))) for d in range(1, 7)) for f in (1, 2)
}


@lru_cache(maxsize=64)
def _fresh(value: int) -> tuple[float, float, float]:
    """P(fresh two-dice throw < value), P(= value), P(Mex) under Mex counting."""
    lt = sum(p for faces, p in TWO_DICE if mex_value(faces) < value)
    eq = sum(p for faces, p in TWO_DICE if mex_value(faces) == value)
    return lt, eq, 2 / 36


# --- the round as seen from the view --------------------------------------------------------


class _Round:
    def __init__(self, view: MexView) -> None:
        r = view["round"]
        o = view.get("options") or {}
        if view["you"] is None:
            raise ValueError("a computer player decides from a seat's view")
        self.me: int = view["you"]
        self.order: list[int] = list(r["order"])
        self.pos: int = r["pos"]
        final = r["final"]
        self.earlier: list[int] = [v for q in self.order[: self.pos] if (v := final[q]) is not None]
        self.later = len(self.order) - self.pos - 1
        self.limit_set: int | None = r["throw_limit"]
        self.max_throws = int(o.get("max_throws", 3))
        self.my_limit = self.max_throws if self.limit_set is None else self.limit_set
        self.mex_count: int = r["mex_count"]
        self.throws: list[list[int]] = r["throws"][self.me]
        self.held: int | None = r.get("held")
        self.mode = o.get("mex_penalty", "seed")
        self.end_allowed = bool(o.get("allow_end_round_early", True))
        self.mex_ends_turn = bool(o.get("mex_ends_turn", True))
        self.hold_allowed = bool(o.get("hold_one_or_two", False))
        self.passes_lead = bool(o.get("mex_passes_lead", False))
        self.lowest = min(self.earlier) if self.earlier else None
        self.cap: int | None = None  # hard: the lives it has (a bigger penalty costs no more)

    def safe(self, value: int) -> bool:
        return self.lowest is not None and value > self.lowest

    def others_limit(self, throws: int, value: int) -> int:
        if self.limit_set is not None:
            return self.limit_set
        if self.passes_lead and value == MEX and self.later:
            return self.max_throws
        return throws

    def stand_cost(self, value: int, throws: int, mexes: int) -> float:
        """Expected lives lost standing on ``value`` after ``throws`` throws (``mexes`` this round so far)."""
        if self.safe(value):
            return 0.0
        m = self.later
        tied = self.earlier.count(value) if self.lowest == value else 0
        limit = max(1, self.others_limit(throws, value))
        lt, eq, p_mex = _fresh(value)
        le = lt + eq
        below = le ** (limit - 1) * lt  # a later player ends below us
        equal = le ** (limit - 1) * eq  # ... or ties us
        rest = max(0.0, 1 - below - equal)
        lose = sum(math.comb(m, t) * equal**t * rest ** (m - t) / (1 + tied + t) for t in range(m + 1))
        if lose <= 0:
            return 0.0
        mu = p_mex * sum(le**i for i in range(limit))  # a later player throws a Mex before stopping
        pen = sum(math.comb(m, j) * mu**j * (1 - mu) ** (m - j) * self.penalty(mexes + j) for j in range(m + 1))
        return lose * pen

    def penalty(self, mexes: int) -> int:
        pen = penalty(self.mode, mexes)
        return pen if self.cap is None else min(pen, self.cap)

    def end_cost(self, value: int) -> float:
        return 0.0 if self.safe(value) else float(penalty(self.mode, 0))

    def can_end(self, throws: int, mexes: int) -> bool:
        return self.end_allowed and throws >= 1 and mexes == 0 and self.later > 0


def _best_hard(rd: _Round, actions: list[Action]) -> Action:
    """Minimise expected lives lost over this turn's remaining choices (exact over our throws)."""

    @cache
    def stand_cost(v: int, throws: int, mexes: int) -> float:
        return rd.stand_cost(v, throws, mexes)

    @cache
    def value_of_state(throws: int, faces: tuple[int, int], held: int | None, mexes: int) -> float:
        return min(c for c, _ in options(throws, faces, held, mexes))

    @cache
    def throw_cost(throws: int, held: int | None, mexes: int) -> float:
        total = 0.0
        for faces, p, v in THROWS if held is None else KEPT[held]:
            n = mexes + (v == MEX)
            if (v == MEX and rd.mex_ends_turn) or (throws + 1 >= rd.my_limit and not rd.can_end(throws + 1, n)):
                total += p * stand_cost(v, throws + 1, n)
            else:
                total += p * value_of_state(throws + 1, faces, held, n)
        return total

    def options(throws: int, faces: tuple[int, int], held: int | None, mexes: int) -> list[tuple[float, Action]]:
        v = mex_value(faces)
        out = [(stand_cost(v, throws, mexes), STAND)]
        if throws < rd.my_limit:
            out.append((throw_cost(throws, held, mexes), THROW))
            if rd.hold_allowed and held is None:
                for f in sorted({f for f in faces if f in (1, 2)}):
                    out.append((throw_cost(throws, f, mexes), Action("hold", (f,))))
        if rd.can_end(throws, mexes):
            out.append((rd.end_cost(v), END_ROUND))
        return out

    low, high = sorted(rd.throws[-1])  # a throw is two dice
    faces = (low, high)
    choices = [(c, i, a) for i, (c, a) in enumerate(options(len(rd.throws), faces, rd.held, rd.mex_count))]
    choices = [c for c in choices if c[2] in actions]
    if not choices:
        return actions[0]
    return min(choices, key=lambda c: (round(c[0], 12), c[1]))[2]


def _heads_up(view: MexView, rd: _Round, actions: list[Action]) -> Action | None:
    """Heads-up, the choice that maximises the chance of winning the game (:mod:`bot.ai.mex_solver`); None when
    the round is not one the solver covers (more players, kept dice, a passed lead, very many lives)."""
    if len(rd.order) != 2 or rd.hold_allowed or rd.passes_lead or not rd.mex_ends_turn:
        return None
    lives = view["lives"]
    starter, other = rd.order
    if max(lives[starter], lives[other]) > mex_solver.MAX_LIVES:
        return None
    game = mex_solver.round_game(rd.max_throws, rd.mode, rd.end_allowed, lives[starter], lives[other])
    value = mex_value(rd.throws[-1])
    if rd.pos == 0:
        options = game.starter_options(len(rd.throws), value, rd.mex_count)
    else:
        v = view["round"]["final"][starter]
        if v is None or rd.limit_set is None:
            return None
        options = game.responder_options(v, rd.limit_set, rd.mex_count, len(rd.throws), value)
    named = {"stand": STAND, "throw": THROW, "end_round": END_ROUND}
    legal = [(round(v, 12), -i, named[name]) for i, (v, name) in enumerate(options) if named[name] in actions]
    return max(legal)[2] if legal else None


def _decide(view: MexView, level: str, rng: Any, actions: list[Action]) -> Action:
    """The pick among two or more legal ``actions``; :func:`choose` (the shared prelude) calls this."""
    modes = [a for a in actions if a.name == "choose"]
    if modes:
        if level == "easy" and rng is not None:
            return rng.choice(modes)
        want = Action("choose", ("mex",))
        return want if want in modes else modes[0]
    rd = _Round(view)
    if not rd.throws:
        return THROW if THROW in actions else actions[0]
    if level == "hard":
        exact = _heads_up(view, rd, actions)
        if exact is not None:
            return exact
        return _best_hard(rd, actions)
    if level == "normal":
        rd.end_allowed = False  # normal never ends a round early (the edge hard keeps over it)
        return _best_hard(rd, actions)
    threshold = rng.choice(EASY_STAND) if rng is not None else 63  # easy
    want = STAND if mex_value(rd.throws[-1]) >= threshold else THROW
    if want in actions:
        return want
    return STAND if STAND in actions else actions[0]


choose = make_choose(_decide, "Mex")
