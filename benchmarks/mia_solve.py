"""Solve the heads-up Mia round (bot/ai/mia_solver.py) and write bot/ai/data/mia-headsup.npz.

    /work/venv/bin/python -m benchmarks.mia_solve [--iterations 3000]
    /work/venv/bin/python -m benchmarks.mia_solve --timing [--games 100]

One solution per ``mia_check_penalty`` (1-3) and ``mia_mode`` (challengeable / auto_reveal), named
``p<penalty>-<mode>-<array>``; prints each one's opening value and its largest stage exploitability.
``--timing`` instead times every decision of ``hard`` (and ``normal``) in seeded games against the rational player
heads-up and with three seats: p50 / p99 / max, wall and CPU (the table is loaded before the clock starts).
``--mixes`` plays ``hard`` heads-up (seats alternated) against players that mix the two exploits the issue names:
``mix<q>`` claims Mia without looking with chance q% at each announcement and is ``claim62`` otherwise;
``switch<r>`` plays the rational player until round r, then ``claim62`` (it earns trust first).

    /work/venv/bin/python -m benchmarks.mia_solve --mixes [--games 2000] [--seed 17]
"""

from __future__ import annotations

import argparse
import math
import random
import time
from pathlib import Path
from typing import Any

import numpy as np

import bot.ai as ai
from benchmarks._common import percentile
from bot.ai.mia_model import solution
from bot.ai.mia_solver import solve
from bot.games.dice import SeededDice
from bot.games.mia import ENGINE, MiaOptions

OUT = Path(__file__).resolve().parent.parent / "bot" / "ai" / "data" / "mia-headsup.npz"


def timing(games: int) -> None:
    """Every decision of ``level`` in ``games`` seeded games per line: p50 / p99 / max in ms, wall and CPU."""
    solution(2, False)  # loaded once per process, before the clock
    for level in ("hard", "normal"):
        for seats in (2, 3):
            wall: list[float] = []
            cpu: list[float] = []
            for i in range(games):
                dice, rng = SeededDice(f"timing:{i}"), random.Random(i)
                levels = [level] + ["ref:sensible"] * (seats - 1)
                state, _ = ENGINE.new_game(seats, MiaOptions(), dice)
                while not ENGINE.is_over(state):
                    seat = ENGINE.to_act(state)[0]
                    view = ENGINE.view(state, seat)
                    w, c = time.perf_counter(), time.process_time()
                    action = ai.decide("mia", view, levels[seat], rng)
                    if seat == 0:
                        wall.append(time.perf_counter() - w)
                        cpu.append(time.process_time() - c)
                    state, _ = ENGINE.apply(state, seat, action, dice)
            wall.sort()
            cpu.sort()
            ms = {(name, q): percentile(v, q) * 1e3 for name, v in (("wall", wall), ("cpu", cpu)) for q in (50, 99)}
            print(
                f"{level} vs ref:sensible*{seats - 1}: {len(wall)} decisions, wall p50 {ms['wall', 50]:.1f} ms "
                f"p99 {ms['wall', 99]:.1f} ms max {wall[-1] * 1e3:.1f} ms; CPU p50 {ms['cpu', 50]:.1f} ms "
                f"p99 {ms['cpu', 99]:.1f} ms"
            )


MIXES = ("mix10", "mix30", "mix50", "switch4", "switch8")


def mixed_level(name: str, view: dict[str, Any], rng: random.Random) -> str:
    """The reference player that ``name`` (``mix<q>`` / ``switch<r>``) plays for this decision."""
    if name.startswith("mix"):
        return "ref:always_mia" if rng.random() < int(name[3:]) / 100 else "ref:claim62"
    return "ref:claim62" if int(view.get("round") or 0) >= int(name[6:]) else "ref:sensible"


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    p = wins / n
    mid, half = p + z * z / (2 * n), z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (mid - half) / (1 + z * z / n), (mid + half) / (1 + z * z / n)


def mixes(games: int, seed: int) -> None:
    """``hard`` against each of :data:`MIXES`: its share of the wins with a 95% Wilson interval."""
    for name in MIXES:
        began = time.process_time()
        wins = 0
        for i in range(games):
            hard = i % 2  # seats alternated
            dice, rng = SeededDice(f"{seed}:{i}"), random.Random(f"{seed}:{i}:ai")
            state, _ = ENGINE.new_game(2, MiaOptions(), dice)
            while not ENGINE.is_over(state):
                seat = ENGINE.to_act(state)[0]
                view = ENGINE.view(state, seat)
                level = "hard" if seat == hard else mixed_level(name, dict(view), rng)
                state, _ = ENGINE.apply(state, seat, ai.decide("mia", view, level, rng), dice)
            wins += state.winner == hard
        lo, hi = wilson(wins, games)
        print(
            f"hard vs {name}: {games} games, share {wins / games:.3f} ({lo:.3f}-{hi:.3f}), "
            f"CPU {time.process_time() - began:.1f} s"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=3000)
    parser.add_argument("--timing", action="store_true", help="time the decisions instead of solving")
    parser.add_argument("--mixes", action="store_true", help="hard against mixes of always_mia and claim62")
    parser.add_argument("--games", type=int, default=None, help="games per line (--timing 100, --mixes 2000)")
    parser.add_argument("--seed", type=int, default=17, help="with --mixes: the run's seed")
    args = parser.parse_args()
    if args.timing:
        timing(args.games or 100)
        return
    if args.mixes:
        mixes(args.games or 2000, args.seed)
        return
    arrays: dict[str, np.ndarray] = {}
    for mode in ("challengeable", "auto_reveal"):
        for penalty in (1, 2, 3):
            began = time.perf_counter()
            sol = solve(penalty, mode == "auto_reveal", args.iterations)
            for key, array in sol.items():
                arrays[f"p{penalty}-{mode}-{key}"] = array.astype(np.float32)
            print(
                f"penalty {penalty} {mode}: opening value {sol['value'][0]:+.4f} lives, "
                f"largest stage exploitability {sol['gap'].max():.4f}, {time.perf_counter() - began:.1f} s"
            )
    np.savez_compressed(OUT, **arrays)  # type: ignore[arg-type]  # numpy's stub mistypes **kwds
    print(f"wrote {OUT} ({OUT.stat().st_size:,} bytes)")


if __name__ == "__main__":
    main()
