"""Computer players for Pig and Big Pig (rules/pig.md): a seat's view in, an action out.

``choose(view, level, rng, legal=None)`` looks only at ``view`` (the engine's ``view(state, seat)``
for the computer's own seat: ``you``, ``scores``, ``active``, ``turn_total``, ``options``,
``legal``) and returns one of the legal actions (``legal`` when given, else ``view["legal"]``).
It never sees the engine state or the dice.

Levels (rules/pig.md, "Bot recommendations"):

* ``easy``: hold at a low turn total, drawn from 12-15 (one die) or 15-19 (two dice) with the
  injected ``rng`` at each decision (the middle of the range without an rng).
* ``normal``: hold at 22 (one die) or 28 (two dice), and roll for the goal once either score reaches
  ``target - 29`` (the end race). Exact values at target 100 against ``ref:sensible`` (hold at 20 / 25):
  0.535 (one die) and 0.554 (Big Pig); the optimal player beats it 0.512 / 0.525 (seats averaged).
* ``hard``: the optimal policy (Neller & Presser, maximise the probability of winning), from a
  table: the ones shipped in ``bot/ai/data`` (targets 50 and 100, one die and Big Pig defaults), else
  one cached on disk in :func:`cache_dir` (under the data directory), else none yet: then
  :func:`solve_in_background` starts solving it from a worker thread (one at a time; the decision
  never waits), in a spawned process (:func:`solve_elsewhere`: the event loop keeps the GIL), and the player uses
  the fallback until the table is ready. Fallback, one die:
  "keep pace and end race" (roll for the goal once either score reaches ``target - 29``, else
  hold at 21 + round((j - i) / 8), the difference scaled by 100 / target above target 100;
  docs/AI.md has its measured strength); two dice:
  hold at 32 (Big Pig; the best hold-at-n against optimal play) or 23
  (other two-dice variants), with the same end race at ``target - 29``.
  ``medium`` and ``expert`` are accepted as aliases of ``normal`` and ``hard``.

Every level holds as soon as banking the turn total wins (the table agrees: P = 1 there); that
matters with ``auto_hold_at_target = false``, and under ``equal_turns``, where the engine banks
automatically only when holding wins outright (rule P-4a).

Approximations (documented, not validated):

* **More than two players**: the 2-player table is used with ``j`` = the highest score among
  the opponents still in the game (the leader is the one to beat) plus ``MULTI_LEADER_BONUS``
  (10) when two or more opponents are left: with more rivals someone is likelier to get there
  first, so the player takes a little more risk. Measured against two and three ``normal``
  players (6,000 games, target 100, same dice for every candidate): bonus 0 / 10 / 20 won
  0.341 / 0.356 / 0.341 of the games at three players and 0.267 / 0.268 / 0.258 at four. The
  true multiplayer optimum depends on every score and on the seating order.
* ``equal_turns``: not modelled by the table. The only change: when an opponent already has
  the target or more (the round is finishing), every level keeps rolling until it passes them.
* ``must_roll_after_doubles``: the forced re-roll is modelled by the solver; when a re-roll is
  forced the view offers only ``roll`` anyway.
"""

from __future__ import annotations

import importlib.util
import logging
import math
import multiprocessing
import os
import queue
import threading
from collections.abc import Mapping, Sequence
from concurrent.futures import Future
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any, Protocol

from bot.ai.common import LEVELS as LEVELS
from bot.ai.common import make_choose, normalise_level
from bot.ai.pig_tables import (
    SHIPPED,
    SOLVER_VERSION,
    PigPolicy,
    PigRules,
    Policy,
    PolicyFormatError,
    ShiftedPolicy,
    load_shipped,
)
from bot.games.base import Action
from bot.games.pig import HOLD, ROLL, PigView

log = logging.getLogger(__name__)

EASY_HOLD = {1: (12, 15), 2: (15, 19)}
NORMAL_HOLD = {1: 22, 2: 28}
BIG_PIG_FALLBACK_HOLD = 32  # best hold-at-n vs optimal for Big Pig (rules/pig.md)
TWO_DICE_FALLBACK_HOLD = 23  # best hold-at-n for Two-Dice Pig (Zhu & Ma 2022; reproduced)
KEEP_PACE_BASE = 21
KEEP_PACE_REFERENCE = 100  # the target the keep-pace rule was made for (scaled above it)
END_RACE_MARGIN = 29  # roll for the goal once either score is target - 29 or more (71 at target 100)
MULTI_LEADER_BONUS = 10  # hard, 2+ opponents: read the table as if the leader had 10 more (measured)
CACHE_ENV = "DICETAVERN_CACHE_DIR"
DATABASE_ENV = "DATABASE_PATH"
DEFAULT_DATA_DIR = "data"  # the folder of bot.client.DEFAULT_DATABASE (not imported: it pulls in discord)
SOLVE_ELSEWHERE = True  # the solver thread has each table solved in another process (solve_elsewhere)


class RandomLike(Protocol):
    def randint(self, a: int, b: int) -> int: ...


# --------------------------------------------------------------------------------------------
# Tables: shipped -> cached on disk -> solved (numpy) -> None (heuristic fallback)

_policies: dict[PigRules, Policy] = {}
_missing: set[PigRules] = set()  # looked for and not found/solved; solve() still may solve
_pending: dict[PigRules, Future[Policy | None]] = {}  # solves queued or running in the worker
_failed: set[PigRules] = set()  # solves that raised or found nothing (no numpy): not retried
_lock = threading.Lock()
_jobs: queue.Queue[tuple[PigRules, Future[Policy | None]]] = queue.Queue()
_thread: threading.Thread | None = None


def cache_dir() -> Path:
    """Where solved tables are cached: ``$DICETAVERN_CACHE_DIR``, else ``cache/pig`` in the data directory
    (the folder of ``$DATABASE_PATH``, else ``data/``), made absolute when first used."""
    override = os.environ.get(CACHE_ENV)
    if override:
        return Path(override).resolve()
    database = os.environ.get(DATABASE_ENV, "")
    base = Path(database).parent if database and database != ":memory:" else Path(DEFAULT_DATA_DIR)
    return (base / "cache" / "pig").resolve()


def numpy_available() -> bool:
    return importlib.util.find_spec("numpy") is not None


def _load(path: Path, rules: PigRules) -> PigPolicy | None:
    """A cached table, or None when missing, unreadable, corrupt, for other rules or an older solver."""
    try:
        policy = PigPolicy.load(path)
    except FileNotFoundError:
        return None
    except (OSError, ValueError, PolicyFormatError) as exc:
        log.warning("ignoring unreadable Pig table %s: %s", path, exc)
        return None
    if policy.rules != rules or policy.meta.get("solver") != SOLVER_VERSION:
        log.warning(
            "ignoring Pig table %s: made for %s by solver %s", path, policy.rules.key, policy.meta.get("solver")
        )
        return None
    return policy


def get_policy(rules: PigRules, *, compute: bool = False, disk: bool = True, elsewhere: bool = False) -> Policy | None:
    """The optimal table for ``rules``: loaded (shipped, else cached on disk; a bigger target's table of the
    same variant answers too, see :class:`ShiftedPolicy`), else solved when ``compute`` (blocking: call it
    from a worker, see :func:`solve_in_background`), else None. Solved tables are kept in memory and written
    to :func:`cache_dir`; a cached file that is corrupt or stale is solved again. Without ``disk``, only
    tables in memory or shipped (small) are looked at: a decision never waits for a big file. ``elsewhere``: the
    solve runs in another process (:func:`solve_elsewhere`), not in the caller's."""
    policy = _policies.get(rules)
    if policy is not None:
        return policy
    if rules in _missing and not compute:
        return None
    with _lock:
        policy = _policies.get(rules) or _find(rules, disk)
    if policy is None and compute and numpy_available():
        from bot.ai.pig_solver import solve

        # outside the lock: loading other variants goes on meanwhile
        solved = solve_elsewhere(rules) if elsewhere else solve(rules).policy()
        try:
            solved.save(cache_dir() / f"{rules.key}.bin")
        except OSError as exc:
            log.warning("could not cache the Pig table %s: %s", rules.key, exc)
        policy = solved
    with _lock:
        if policy is None:
            _missing.add(rules)
            return None
        _policies[rules] = policy
        _missing.discard(rules)
        return policy


def _find(rules: PigRules, disk: bool = True) -> Policy | None:
    """A table on hand for ``rules``: its own (shipped, cached), else the smallest bigger target's."""
    try:
        policy: Policy | None = load_shipped(rules)
    except (OSError, ValueError, PolicyFormatError) as exc:
        log.warning("ignoring the shipped Pig table for %s: %s", rules.key, exc)
        policy = None
    if policy is None and disk:
        policy = _load(cache_dir() / f"{rules.key}.bin", rules)
    if policy is not None or not rules.shifts:
        return policy
    bigger: set[int] = {r.target for r in _policies if r.with_target(rules.target) == rules}
    bigger |= {int(spec["target"]) for spec in SHIPPED if PigRules(**spec).with_target(rules.target) == rules}
    stem = rules.key[: -len(f"t{rules.target}")]
    for path in cache_dir().glob(f"{stem}t*.bin") if disk else ():
        tail = path.stem[len(stem) + 1 :]
        if tail.isdigit():
            bigger.add(int(tail))
    for target in sorted(b for b in bigger if b > rules.target):
        wider = rules.with_target(target)
        base = _policies.get(wider)
        if base is None:
            try:
                base = load_shipped(wider)
            except (OSError, ValueError, PolicyFormatError):
                base = None
            if disk:
                base = base or _load(cache_dir() / f"{wider.key}.bin", wider)
        if base is not None:
            return ShiftedPolicy(base.base if isinstance(base, ShiftedPolicy) else base, rules.target)
    return None


def solve_in_background(options: Any) -> Future[Policy | None] | None:
    """Start making the hard player's table for these options (a lobby's ``PigOptions`` or its dict) in the
    worker thread (it reads a cached file, or solves), and return at once: None when the table is already
    loaded or an earlier attempt found no way (no file and no numpy, or the solve failed), else the future of
    the (running or queued) job. Safe to call on every move or lobby change."""
    rules = PigRules.from_options(options)
    if rules in _policies or rules in _failed:
        return None
    with _lock:
        running = _pending.get(rules)
        if running is not None:
            return running
        future: Future[Policy | None] = Future()
        _pending[rules] = future
        _jobs.put((rules, future))
        _start_worker()
        return future


def solve_elsewhere(rules: PigRules) -> PigPolicy:
    """Solve in a spawned process and hand the table back through a pipe (issue 30): a solve in a thread of the
    bot's process shares the GIL with its event loop, whose tick lag grows meanwhile (``benchmarks.pig_solve_lag``).
    A daemon process, like the solver thread: a long solve never holds up the bot's exit. Blocking: the solver
    thread calls it. RuntimeError when the process ends without a table (it logged why to stderr)."""
    context = multiprocessing.get_context("spawn")
    receive, send = context.Pipe(duplex=False)
    process = context.Process(target=_solve_child, args=(rules, send), name=f"pig-solve-{rules.key}", daemon=True)
    process.start()
    send.close()  # the child's end only: EOF here when it ends
    try:
        raw = receive.recv_bytes()
    except EOFError:
        process.join()
        raise RuntimeError(
            f"the Pig solver process for {rules.key} ended without a table ({process.exitcode})"
        ) from None
    finally:
        receive.close()
    process.join()
    return PigPolicy.from_bytes(raw)


def _solve_child(rules: PigRules, send: Connection) -> None:
    from bot.ai.pig_solver import solve

    send.send_bytes(solve(rules).policy().to_bytes())
    send.close()


def _solve_job(rules: PigRules) -> Policy | None:
    try:
        policy = get_policy(rules, compute=True, elsewhere=SOLVE_ELSEWHERE)
        if policy is None:  # no file and no numpy: asking again will not help
            _failed.add(rules)
        return policy
    except Exception:
        log.exception("solving the Pig table %s failed; the hard player keeps its fallback", rules.key)
        _failed.add(rules)  # no retry on every move
        raise
    finally:
        with _lock:
            _pending.pop(rules, None)


def _start_worker() -> None:
    """One solver thread for the process (a solve is CPU-bound: two at once would only share the CPU). A daemon:
    a solve of minutes must not hold up the bot's shutdown (an unfinished table is a temp file, never renamed)."""
    global _thread
    if _thread is None or not _thread.is_alive():
        _thread = threading.Thread(target=_work, name="pig-solver", daemon=True)
        _thread.start()


def _work() -> None:
    while True:
        rules, future = _jobs.get()
        if not future.set_running_or_notify_cancel():
            continue
        try:
            future.set_result(_solve_job(rules))
        except BaseException as exc:  # the future carries it; _solve_job logged it
            future.set_exception(exc)


def solve(options: Any) -> Policy | None:
    """Make sure the hard player's table exists for these options (blocking; benchmarks and scripts)."""
    return get_policy(PigRules.from_options(options), compute=True)


def prepare(options: Mapping[str, Any], levels: Sequence[str]) -> None:
    """The hook :func:`bot.ai.prepare` calls: start the hard player's table for these options in the worker
    thread when a hard computer sits at the table (it plays its fallback until the table is ready)."""
    if any(_is_hard(level) for level in levels):
        solve_in_background(options)


def _is_hard(level: str) -> bool:
    try:
        return normalise_level(level) == "hard"
    except ValueError:  # a reference player's kind: it needs no table
        return False


def clear_memory_cache() -> None:
    """Forget loaded tables (tests)."""
    with _lock:
        _policies.clear()
        _missing.clear()
        _failed.clear()


# --------------------------------------------------------------------------------------------
# Decisions


def _round_half_up(x: float) -> int:
    return math.floor(x + 0.5)


def keep_pace_scale(target: int) -> float:
    """The score difference counts less above target 100: a 100-point lead is decisive at 100, not at
    500 (unscaled, the rule lost to hold-at-22 there: 0.475 over 6,000 games; scaled, 0.514)."""
    return min(1.0, KEEP_PACE_REFERENCE / target)


def fallback_holds(rules: PigRules, i: int, j: int, k: int) -> bool:
    """The hard player's decision without a table (see the module docstring)."""
    end_race = rules.target - END_RACE_MARGIN
    if i >= end_race or j >= end_race:
        return False  # roll for the goal
    if rules.dice == 1:
        return k >= KEEP_PACE_BASE + _round_half_up((j - i) * keep_pace_scale(rules.target) / 8)
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
    rivals = [int(s) for seat, s in enumerate(scores) if seat != me and active[seat]]
    j = max(rivals, default=0)
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
        end_race = rules.target - END_RACE_MARGIN
        return i < end_race and j < end_race and k >= NORMAL_HOLD[rules.dice]
    policy = get_policy(rules, disk=False)  # a cached file, however big, is read by the worker
    t = rules.target
    if policy is None:
        solve_in_background(rules.to_dict())  # returns at once; the next decisions use the table when ready
        return fallback_holds(rules, i, j, k)
    if len(rivals) > 1:
        j += MULTI_LEADER_BONUS
    return not policy.rolls(min(i, t - 1), min(j, t - 1), k)


def _decide(view: PigView, level: str, rng: RandomLike | None, legal: list[Action]) -> Action:
    """Hold or roll, among two or more legal actions; :func:`choose` (the shared prelude) calls this.

    ``rng`` (e.g. a ``random.Random``) is used only by ``easy``, and only when there is a real choice.
    """
    want = HOLD if wants_hold(view, level, rng) else ROLL
    if want in legal:
        return want
    return ROLL if ROLL in legal else legal[0]


#: ``choose(view, level="normal", rng=None, legal=None)``: the action for the seat's ``view``, one of
#: ``legal`` (default ``view["legal"]``); ValueError for an unknown level or no legal action.
choose = make_choose(_decide, "Pig")
