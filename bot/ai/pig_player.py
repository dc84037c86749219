"""Computer players for Pig and Big Pig (rules/pig.md): a seat's view in, an action out.

``choose(view, level, rng, legal=None)`` looks only at ``view`` (the engine's ``view(state, seat)``
for the computer's own seat: ``you``, ``scores``, ``active``, ``turn_total``, ``options``,
``legal``) and returns one of the legal actions (``legal`` when given, else ``view["legal"]``).
It never sees the engine state or the dice.

Levels (rules/pig.md, "Bot recommendations"):

* ``easy``: hold at a low turn total, drawn from 12-15 (one die) or 15-19 (two dice) with the
  injected ``rng`` at each decision (the middle of the range without an rng).
* ``normal``: hold at 20 (one die) or 25 (two dice).
* ``hard``: the optimal policy (Neller & Presser, maximise the probability of winning), from a
  table: the ones shipped in ``bot/ai/data`` (target 100, one die and Big Pig defaults), else
  one cached in :func:`cache_dir`, else solved on the spot when numpy is installed and the
  solve is small (``INLINE_SOLVE_MAX_WORK`` states, about a second; call :func:`prepare`
  in a worker thread beforehand for larger variants), and cached. Without a table it falls
  back to "keep pace and end race" for one die (roll for the goal once either score reaches
  71% of the target, else hold at 21 + round((j - i) / 8)), or hold at 32 (Big Pig; the best
  hold-at-n against optimal play) / 23 (other two-dice variants) for two dice.
  ``medium`` and ``expert`` are accepted as aliases of ``normal`` and ``hard``.

Every level holds as soon as banking the turn total wins (the table agrees: P = 1 there); that
matters with ``auto_hold_at_target = false``, and under ``equal_turns``, where the engine banks
automatically only when holding wins outright (rule P-4a).

Approximations (documented, not validated):

* **More than two players**: the 2-player table is used with ``j`` = the highest score among
  the opponents still in the game (the leader is the one to beat). The true multiplayer
  optimum depends on every score and on the seating order.
* ``equal_turns``: not modelled by the table. The only change: when an opponent already has
  the target or more (the round is finishing), every level keeps rolling until it passes them.
* ``must_roll_after_doubles``: the forced re-roll is modelled by the solver; when a re-roll is
  forced the view offers only ``roll`` anyway.
"""

from __future__ import annotations

import importlib.util
import logging
import math
import os
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Protocol, cast

from bot.ai.common import LEVELS as LEVELS
from bot.ai.common import make_choose, normalise_level
from bot.ai.pig_tables import PigPolicy, PigRules, PolicyFormatError, load_shipped
from bot.games.base import Action
from bot.games.pig import HOLD, ROLL, PigView

log = logging.getLogger(__name__)

EASY_HOLD = {1: (12, 15), 2: (15, 19)}
NORMAL_HOLD = {1: 20, 2: 25}
BIG_PIG_FALLBACK_HOLD = 32  # best hold-at-n vs optimal for Big Pig (rules/pig.md)
TWO_DICE_FALLBACK_HOLD = 23  # best hold-at-n for Two-Dice Pig (Zhu & Ma 2022; reproduced)
KEEP_PACE_BASE = 21
END_RACE_FRACTION = 0.71  # "if either score is 71 or more, roll for the goal" at target 100
INLINE_SOLVE_MAX_WORK = 600_000  # states x rounds solved inside choose(): target <= 106, about 1 s
CACHE_ENV = "DICETAVERN_CACHE_DIR"


class RandomLike(Protocol):
    def randint(self, a: int, b: int) -> int: ...


# --------------------------------------------------------------------------------------------
# Tables: shipped -> cached on disk -> solved (numpy) -> None (heuristic fallback)

_policies: dict[PigRules, PigPolicy] = {}
_missing: set[PigRules] = set()  # looked for and not found/solved; prepare() still may solve
_lock = threading.Lock()


def cache_dir() -> Path:
    """Where solved tables are cached: ``$DICETAVERN_CACHE_DIR``, else ``data/cache/ai`` (cwd-relative)."""
    return Path(os.environ.get(CACHE_ENV) or Path("data") / "cache" / "ai")


def numpy_available() -> bool:
    return importlib.util.find_spec("numpy") is not None


def solve_work(rules: PigRules) -> int:
    """A rough cost of solving ``rules`` (``lose_score`` needs ~15 layered rounds)."""
    rounds = 15 if rules.dice == 2 and rules.double_ones == "lose_score" else 1
    return rules.states * rounds


def _load(path: Path, rules: PigRules) -> PigPolicy | None:
    try:
        policy = PigPolicy.load(path)
    except FileNotFoundError:
        return None
    except (OSError, ValueError, PolicyFormatError) as exc:
        log.warning("ignoring unreadable Pig table %s: %s", path, exc)
        return None
    return policy if policy.rules == rules else None


def get_policy(rules: PigRules, *, compute: bool | None = None) -> PigPolicy | None:
    """The optimal table for ``rules``, or None.

    ``compute``: True solves (blocking) when no table exists; False never solves; None (the
    default, used by :func:`choose`) solves only when it is cheap (``INLINE_SOLVE_MAX_WORK``).
    Solving needs numpy; solved tables are cached in memory and in :func:`cache_dir`.
    """
    policy = _policies.get(rules)
    if policy is not None:
        return policy
    if rules in _missing and not compute:
        return None
    with _lock:
        policy = _policies.get(rules)
        if policy is None:
            try:
                policy = load_shipped(rules)
            except (OSError, ValueError, PolicyFormatError) as exc:
                log.warning("ignoring the shipped Pig table for %s: %s", rules.key, exc)
        if policy is None:
            policy = _load(cache_dir() / f"{rules.key}.bin", rules)
        if policy is None and numpy_available():
            cheap = solve_work(rules) <= INLINE_SOLVE_MAX_WORK
            if compute or (compute is None and cheap):
                from bot.ai.pig_solver import solve

                policy = solve(rules).policy()
                try:
                    policy.save(cache_dir() / f"{rules.key}.bin")
                except OSError as exc:
                    log.warning("could not cache the Pig table %s: %s", rules.key, exc)
        if policy is None:
            _missing.add(rules)
            return None
        _policies[rules] = policy
        _missing.discard(rules)
        return policy


def prepare(options: Any) -> PigPolicy | None:
    """Make sure the hard player's table exists for these options (blocking; run it in a thread)."""
    return get_policy(PigRules.from_options(options), compute=True)


def clear_memory_cache() -> None:
    """Forget loaded tables (tests)."""
    with _lock:
        _policies.clear()
        _missing.clear()


# --------------------------------------------------------------------------------------------
# Decisions


def _round_half_up(x: float) -> int:
    return math.floor(x + 0.5)


def fallback_holds(rules: PigRules, i: int, j: int, k: int) -> bool:
    """The hard player's decision without a table (see the module docstring)."""
    if rules.dice == 1:
        end_race = _round_half_up(END_RACE_FRACTION * rules.target)
        if i >= end_race or j >= end_race:
            return False  # roll for the goal
        return k >= KEEP_PACE_BASE + _round_half_up((j - i) / 8)
    big_pig = rules.double_ones == "plus25" and rules.doubles_multiplier == 2
    return k >= (BIG_PIG_FALLBACK_HOLD if big_pig else TWO_DICE_FALLBACK_HOLD)


def wants_hold(view: PigView, level: str, rng: RandomLike | None = None) -> bool:
    """True to hold, False to roll, judged from ``view`` alone (for the seat ``view["you"]``)."""
    level = normalise_level(level, "Pig")
    options = view.get("options") or {}
    rules = PigRules.from_options(options)
    me = view["you"]
    if me is None:
        raise ValueError("a spectator's view has no seat to decide for")
    scores = list(view["scores"])
    active = list(view.get("active") or [True] * len(scores))
    i = int(scores[me])
    k = int(view.get("turn_total", 0))
    j = max((int(s) for seat, s in enumerate(scores) if seat != me and active[seat]), default=0)
    if options.get("equal_turns") and j >= rules.target:
        return i + k > j  # the round is finishing: only passing the leader can win
    if i + k >= rules.target:
        return True
    if k <= 0:
        return False
    if level == "easy":
        lo, hi = EASY_HOLD[rules.dice]
        return k >= (rng.randint(lo, hi) if rng is not None else (lo + hi) // 2)
    if level == "normal":
        return k >= NORMAL_HOLD[rules.dice]
    policy = get_policy(rules)
    t = rules.target
    if policy is None:
        return fallback_holds(rules, i, j, k)
    return not policy.rolls(min(i, t - 1), min(j, t - 1), k)


def _decide(view: Mapping[str, Any], level: str, rng: RandomLike | None, legal: list[Action]) -> Action:
    """Hold or roll, among two or more legal actions; :func:`choose` (the shared prelude) calls this.

    ``rng`` (e.g. a ``random.Random``) is used only by ``easy``, and only when there is a real choice.
    """
    want = HOLD if wants_hold(cast(PigView, view), level, rng) else ROLL  # choose passes any game's view
    if want in legal:
        return want
    return ROLL if ROLL in legal else legal[0]


#: ``choose(view, level="normal", rng=None, legal=None)``: the action for the seat's ``view``, one of
#: ``legal`` (default ``view["legal"]``); ValueError for an unknown level or no legal action.
choose = make_choose(_decide, "Pig")
