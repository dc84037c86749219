"""Computer players head to head (issue 17): win shares with seats rotated and 95% Wilson intervals.

A matchup is a game and one level per seat, e.g. ``hard,normal*2`` (one hard seat against two
normal ones); levels are bot.ai's (``easy``, ``normal``, ``hard``), ``random``, and the reference
players ``ref:<kind>`` (bot/ai/reference, docs/AI.md). Each side (the seats of one level) gets
its share of the wins, ties split (``k`` seats sharing first place get ``1/k`` each), with a 95%
Wilson interval, next to the fair share (its seats / all seats).

**Seats are rotated**: the games cycle through every distinct seat order of the levels (2 for a
heads-up, 3 for ``hard,normal*2``, up to 24), so each order is played equally often; the number
of games is rounded up to a multiple of the orders. Game ``i`` uses the dice
``SeededDice(f"{seed}:{i}")`` and the players' rng ``random.Random(f"{seed}:{i}:ai")``, so a run
is reproducible and one game can be replayed alone (its order is ``orders[i % len(orders)]``).

Every decision goes through ``bot.ai.decide`` (no safety net): an illegal move stops the run.
At most two worker processes, each at ``nice`` 19 (the machine is shared).

    python -m benchmarks.ai_matchups --game mia --players hard,ref:always_mia --games 400 --seed 1
    python -m benchmarks.ai_matchups --game mex --players hard,ref:sensible*2 --games 600
    python -m benchmarks.ai_matchups --table --games 400 --seed 17            # the docs/AI.md matrix
    python -m benchmarks.ai_matchups --table --only mythic --games 400 --seed 17
    python -m benchmarks.ai_matchups --table --only mia --match ref: --games 300 --seed 31
    python -m benchmarks.ai_matchups --table --only mythic --match ref: --first hard --games 300 --seed 31

The matrix (``--table``): per game and player count the level ordering and both strong levels against
``ref:sensible``, then every level against every reference player of the game at its reference count
(three seats for Mythical Dice, heads-up elsewhere), with the issues' targets.
"""

from __future__ import annotations

import argparse
import itertools
import os
import random
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from benchmarks._common import revision
from bot.games import get_engine
from bot.games.dice import SeededDice
from bot.simulate import credit, options_dict, parse_levels, play_one, wilson
from bot.simulate.runner import check_level

MAX_WORKERS = 2  # the machine has two cores shared by several people
CHUNK = 25  # games per task


# --- matchups ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Matchup:
    """A game, one level per seat, the game's options, and the issue's target for the first side."""

    game: str
    levels: tuple[str, ...]
    options: tuple[tuple[str, Any], ...] = ()
    target: float | None = None  # the first side's share the issue asks for (None: more than its fair share)
    note: str = ""

    @property
    def sides(self) -> tuple[str, ...]:
        """The distinct levels, in the order first given (the first is the side measured)."""
        return tuple(dict.fromkeys(self.levels))

    def seats(self, side: str) -> int:
        return self.levels.count(side)

    def fair(self, side: str) -> float:
        return self.seats(side) / len(self.levels)

    def label(self) -> str:
        parts = [f"{side}*{n}" if (n := self.seats(side)) > 1 else side for side in self.sides]
        text = " vs ".join(parts)
        if self.options:
            text += " (" + ", ".join(f"{k}={v}" for k, v in self.options) + ")"
        return text


def seat_orders(levels: Sequence[str]) -> list[tuple[str, ...]]:
    """Every distinct seating of ``levels``, sorted (so a run does not depend on the order given)."""
    return sorted(set(itertools.permutations(levels)))


def rounded_games(games: int, levels: Sequence[str]) -> int:
    """``games`` rounded up to a multiple of the seat orders, so that each order is played equally often."""
    n = len(seat_orders(levels))
    return max(n, -(-games // n) * n)


@dataclass
class MatchResult:
    matchup: Matchup
    games: int = 0
    wins: dict[str, float] = field(default_factory=dict)  # side -> wins (fractional: ties split)
    shared: int = 0  # games whose first place was shared
    cpu: float = 0.0  # seconds, summed over the workers
    wall: float = 0.0

    def share(self, side: str) -> float:
        return self.wins.get(side, 0.0) / self.games if self.games else 0.0

    def interval(self, side: str) -> tuple[float, float]:
        return wilson(self.wins.get(side, 0.0), self.games)

    def verdict(self) -> str:
        """Whether the first side meets its target: yes / no when the interval clears it, else unclear."""
        side = self.matchup.sides[0]
        lo, hi = self.interval(side)
        goal = self.matchup.target
        if goal is None:  # more than its fair share
            fair = self.matchup.fair(side)
            return "yes" if lo > fair else "no" if hi <= fair else "unclear"
        return "yes" if lo >= goal else "no" if hi < goal else "unclear"


# --- playing -----------------------------------------------------------------------------------


def _nice() -> None:
    try:
        os.nice(19 - os.nice(0))
    except (AttributeError, OSError):  # pragma: no cover - not POSIX
        pass


def play_games(matchup: Matchup, seed: int | str, indices: Sequence[int]) -> tuple[dict[str, float], int, float]:
    """Play games ``indices`` of ``matchup``; returns (wins by side, shared first places, CPU seconds)."""
    import bot.ai as ai

    began = time.process_time()
    engine = get_engine(matchup.game)
    opts = engine.options(dict(matchup.options))
    orders = seat_orders(matchup.levels)
    wins = dict.fromkeys(matchup.sides, 0.0)
    shared = 0
    for i in indices:
        order = orders[i % len(orders)]
        dice, rng = SeededDice(f"{seed}:{i}"), random.Random(f"{seed}:{i}:ai")
        outcome, _, _ = play_one(engine, order, opts, dice, rng, ai.decide)
        for seat, part in enumerate(credit(outcome, len(order))):
            wins[order[seat]] += part
        shared += len(outcome.winners) > 1
    return wins, shared, time.process_time() - began


def _task(args: tuple[Matchup, int | str, list[int]]) -> tuple[dict[str, float], int, float]:
    return play_games(*args)


def run_matchup(matchup: Matchup, games: int, seed: int | str = 17, workers: int = MAX_WORKERS) -> MatchResult:
    """Play ``games`` games (rounded up to a multiple of the seat orders), in up to two niced workers."""
    for level in matchup.levels:
        check_level(level, reference=True, game=matchup.game)
    total = rounded_games(games, matchup.levels)
    chunks = [list(range(start, min(total, start + CHUNK))) for start in range(0, total, CHUNK)]
    result = MatchResult(matchup, wins=dict.fromkeys(matchup.sides, 0.0))
    began = time.perf_counter()
    workers = max(1, min(MAX_WORKERS, workers))
    if workers == 1:
        _nice()
        parts = [play_games(matchup, seed, chunk) for chunk in chunks]
    else:
        with ProcessPoolExecutor(workers, initializer=_nice) as pool:
            parts = list(pool.map(_task, [(matchup, seed, chunk) for chunk in chunks]))
    for wins, shared, cpu in parts:
        for side, w in wins.items():
            result.wins[side] += w
        result.shared += shared
        result.cpu += cpu
    result.games = total
    result.wall = time.perf_counter() - began
    return result


# --- the docs/AI.md matrix ---------------------------------------------------------------------

GAMES = ("pig", "mia", "mex", "liar", "mythic")
#: options a game needs at a player count (Mythical Dice is for 3 to 6 unless two are allowed)
COUNT_OPTIONS: dict[tuple[str, int], tuple[tuple[str, Any], ...]] = {("mythic", 2): (("allow_two_players", True),)}
#: (game, players, level) -> the issue's target share for one seat of ``level`` against ref:sensible
TARGETS: dict[tuple[str, int, str], float] = {
    ("mia", 2, "hard"): 0.58,
    ("mia", 3, "hard"): 0.40,
    ("mex", 2, "hard"): 0.58,
    ("mex", 3, "hard"): 0.42,
    ("liar", 2, "hard"): 0.60,
    ("mythic", 3, "hard"): 0.45,
}


def one_against(game: str, players: int, one: str, rest: str, target: float | None = None, note: str = "") -> Matchup:
    levels = (one, *([rest] * (players - 1)))
    return Matchup(game, levels, COUNT_OPTIONS.get((game, players), ()), target, note)


#: the player count at which every level meets every reference player of a game (the issue's counts)
REFERENCE_COUNT = {"mythic": 3}
LEVELS = ("easy", "normal", "hard")
#: (game, level) -> the issue's target share for one seat of ``level`` against each reference player other than
#: ``sensible`` (issue 31: Mia's fixed exploits heads-up, Mythical Dice's simple bidders in three seats)
REFERENCE_TARGETS: dict[tuple[str, str], float] = {
    ("mia", "hard"): 0.55,
    ("mia", "normal"): 0.45,
    ("mythic", "hard"): 0.45,
    ("mythic", "normal"): 0.36,
}


def reference_cells(game: str) -> list[Matchup]:
    """Every level against every reference player of ``game`` (one seat against the rest), at its reference count
    (three seats for Mythical Dice, heads-up elsewhere); ``ref:sensible`` included, with its per-count target."""
    from bot.ai import reference

    n = REFERENCE_COUNT.get(game, 2)
    out = []
    for kind in reference.kinds(game):
        for level in LEVELS:
            target = REFERENCE_TARGETS.get((game, level))
            if kind == "sensible":
                target = TARGETS.get((game, n, level), target if game == "mythic" else None)
            out.append(one_against(game, n, level, f"ref:{kind}", target, note="references"))
    return out


def matrix(games: Sequence[str] = GAMES, counts: Sequence[int] = (2, 3, 4)) -> list[Matchup]:
    """Per game and player count: the level ordering, normal and hard against ref:sensible; then every level against
    every reference player at the game's reference count (:func:`reference_cells`)."""
    out: list[Matchup] = []
    for game in games:
        for n in counts:
            out.append(one_against(game, n, "normal", "easy", note="ordering"))
            out.append(one_against(game, n, "hard", "normal", note="ordering"))
            if n != REFERENCE_COUNT.get(game, 2):
                out.append(one_against(game, n, "normal", "ref:sensible", note="normal beats sensible"))
                out.append(one_against(game, n, "hard", "ref:sensible", TARGETS.get((game, n, "hard"))))
        out += reference_cells(game)
    return [_with_mia_targets(m) for m in out]


def _with_mia_targets(m: Matchup) -> Matchup:
    """The earlier issue's 0.90 for hard against always-Mia and claim-62."""
    if m.game == "mia" and m.levels in (("hard", "ref:always_mia"), ("hard", "ref:claim62")):
        return Matchup(m.game, m.levels, m.options, 0.90, m.note)
    return m


def format_rows(results: Sequence[MatchResult]) -> str:
    """A markdown table: the first side's share, interval, fair share, target and verdict."""
    lines = [
        "| players | matchup | games | share of the first | 95% CI | fair | target | met |",
        "|--:|---|--:|--:|--:|--:|--:|---|",
    ]
    for r in results:
        m = r.matchup
        side = m.sides[0]
        lo, hi = r.interval(side)
        target = f"{m.target:.2f}" if m.target is not None else "> fair"
        lines.append(
            f"| {len(m.levels)} | {m.label()} | {r.games} | {r.share(side):.3f} | {lo:.3f}–{hi:.3f} "
            f"| {m.fair(side):.3f} | {target} | {r.verdict()} |"
        )
    return "\n".join(lines)


def format_result(r: MatchResult) -> str:
    m = r.matchup
    lines = [
        f"{m.game}: {m.label()}, {r.games} games (seats rotated over {len(seat_orders(m.levels))} orders)",
        f"{'side':<18} {'seats':>5} {'share':>7}  {'95% CI (Wilson)':<17} {'fair':>6}",
    ]
    for side in m.sides:
        lo, hi = r.interval(side)
        lines.append(
            f"{side:<18} {m.seats(side):>5} {r.share(side):>7.3f}  [{lo:.3f}, {hi:.3f}]    {m.fair(side):>6.3f}"
        )
    target = f"target {m.target:.2f}" if m.target is not None else "target: more than the fair share"
    lines.append(f"{target}: {r.verdict()}; shared first places {r.shared}; CPU {r.cpu:.1f} s, wall {r.wall:.1f} s")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--game", help="pig, mia, mex, liar or mythic")
    p.add_argument("--players", help="one level per seat, e.g. hard,ref:sensible or hard,normal*2")
    p.add_argument("--games", "-n", type=int, default=400, help="games per matchup (default 400)")
    p.add_argument("--seed", default="17", help="the run's seed (default 17)")
    p.add_argument("--option", "-o", action="append", default=[], metavar="NAME=VALUE", help="a game option")
    p.add_argument("--workers", type=int, default=MAX_WORKERS, help="worker processes, 1 or 2 (default 2)")
    p.add_argument("--table", action="store_true", help="the docs/AI.md matrix: every game at 2, 3 and 4 players")
    p.add_argument("--only", action="append", default=[], metavar="GAME", help="with --table: only these games")
    p.add_argument(
        "--match", action="append", default=[], metavar="TEXT", help="with --table: only cells whose label has TEXT"
    )
    p.add_argument(
        "--first", action="append", default=[], metavar="LEVEL", help="with --table: only cells led by LEVEL"
    )
    args = p.parse_args(argv)
    if args.table:
        games = tuple(args.only) or GAMES
        total_cpu, began = 0.0, time.perf_counter()
        for game in games:
            print(f"\n### {game}\n")
            results = []
            for m in matrix((game,)):
                if args.match and not any(t in m.label() for t in args.match):
                    continue
                if args.first and m.sides[0] not in args.first:
                    continue
                results.append(run_matchup(m, args.games, args.seed, args.workers))
                total_cpu += results[-1].cpu
                print(f"  {m.label()}: {results[-1].share(m.sides[0]):.3f}", file=sys.stderr, flush=True)
            print(format_rows(results), flush=True)
        wall = time.perf_counter() - began
        print(
            f"\nseed {args.seed}, {args.games} games per cell; CPU {total_cpu:.0f} s, wall {wall:.0f} s; {revision()}"
        )
        return 0
    if not args.game or not args.players:
        p.error("--game and --players (or --table)")
    try:
        levels = tuple(parse_levels(args.players))
    except argparse.ArgumentTypeError as error:
        p.error(str(error))
    options = tuple(options_dict(args.option).items())
    print(format_result(run_matchup(Matchup(args.game, levels, options), args.games, args.seed, args.workers)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
