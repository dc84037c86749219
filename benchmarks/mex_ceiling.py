"""How well can anyone do against the Mex reference player heads-up? Exact figures by dynamic programming.

    /work/venv/bin/python -m benchmarks.mex_ceiling [--lives 12]

Against ``ref:sensible`` (bot/ai/reference/mex.py, its rules restated here) it computes the game-win chance of

* the best response: a player who knows sensible's rules exactly and maximises against them (the ceiling);
* the heads-up solver's play (bot/ai/mex_solver.py, what ``hard`` does heads-up);

for a random first starter (as in the matchups), default options (3 throws, seed penalty, early end allowed).
"""

from __future__ import annotations

import argparse
from functools import cache

from bot.ai.mex_solver import THROWS, RoundGame, rules
from bot.games.mex import MEX, penalty

FIRST_STAND = {False: {2: 64, 1: 54}, True: {2: 100, 1: 62}}  # bot/ai/reference/mex.py
MAX_THROWS = 3


def sensible_stands_first(v: int, thrown: int, lives: int) -> bool:
    return v == MEX or thrown >= MAX_THROWS or v >= FIRST_STAND[lives <= 1].get(MAX_THROWS - thrown, 0)


def evaluate(lives: int, best_response: bool, blind: int | None = None) -> float:
    """My chance against sensible: the best response, or the solver's choices (with ``blind``, the solver's
    choices as if both had ``blind`` lives whatever the lives are: ``normal``'s heads-up play)."""
    solver = rules(MAX_THROWS, "seed", True)

    @cache
    def x(me: int, opp: int, me_starts: bool) -> float:
        """My game-win chance with ``me`` / ``opp`` lives, against sensible."""
        if me <= 0:
            return 0.0
        if opp <= 0:
            return 1.0
        return Round(me, opp, me_starts).value()

    class Round:
        def __init__(self, me: int, opp: int, me_starts: bool) -> None:
            self.me, self.opp, self.me_starts = me, opp, me_starts
            a, b = (me, opp) if me_starts else (opp, me)
            if blind is not None:
                a = b = blind
            self.solver = RoundGame(solver, a, b)  # the solver's own view, for its choices

        def lose(self, starter_lost: bool, mexes: int) -> float:
            k = penalty("seed", mexes)
            i_lost = starter_lost == self.me_starts
            return x(self.me - k, self.opp, True) if i_lost else x(self.me, self.opp - k, False)

        def resolve(self, v: int, w: int, mexes: int) -> float:
            if w > v:
                return self.lose(True, mexes)
            if w < v:
                return self.lose(False, mexes)
            return 0.5 * (self.lose(True, mexes) + self.lose(False, mexes))

        @cache  # noqa: B019 - one Round per state, kept by x's cache
        def responder(self, v: int, limit: int, mexes: int, thrown: int, w: int | None) -> float:
            if w is None:
                return sum(p * self.responder(v, limit, mexes + (t == MEX), thrown + 1, t) for t, p in THROWS)
            stand = self.resolve(v, w, mexes)
            if w == MEX or thrown >= limit:
                return stand
            again = self.responder(v, limit, mexes, thrown, None)
            if self.me_starts:  # sensible answers: throws again unless safe
                return stand if w > v else again
            if best_response:
                return max(stand, again)
            opts = self.solver.responder_options(v, limit, mexes, thrown, w)
            return stand if max(opts)[1] == "stand" else again

        @cache  # noqa: B019
        def starter(self, thrown: int, v: int | None, mexes: int) -> float:
            if v is None:
                return sum(p * self.starter(thrown + 1, t, mexes + (t == MEX)) for t, p in THROWS)
            stand = self.responder(v, thrown, mexes, 0, None)
            if v == MEX:
                return stand
            choices = {"stand": stand, "end_round": self.lose(True, 0)}
            if thrown < MAX_THROWS:
                choices["throw"] = self.starter(thrown, None, mexes)
            if not self.me_starts:
                return stand if sensible_stands_first(v, thrown, self.opp) else choices.get("throw", stand)
            if best_response:
                return max(choices.values())
            return choices[max(self.solver.starter_options(thrown, v, mexes))[1]]

        def value(self) -> float:
            return self.starter(0, None, 0)

    return 0.5 * (x(lives, lives, True) + x(lives, lives, False))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lives", type=int, default=12)
    args = parser.parse_args()
    for what, best, blind in (
        ("best response to sensible", True, None),
        ("the heads-up solver (hard)", False, None),
        ("the solver blind to lives, as at 6 v 6 (normal)", False, 6),
    ):
        print(f"{what}: {evaluate(args.lives, best, blind):.4f} (lives {args.lives}, random first starter)")


if __name__ == "__main__":
    main()
