"""Decision times of a Mythical Dice level in whole games (issue 17: p99 < 50 ms at six players),
and head-to-head runs against the players' earlier variants.

    nice -n 19 python -m bot.ai.mythic_timing --players 6 --games 4 --level hard
    nice -n 19 python -m bot.ai.mythic_timing --versus hard,hard@analytic*2 --games 300

``--versus``: the first level's share of the wins (ties split) with a 95% Wilson interval and its
mean score margin a game over the others, seats rotated; the games of one round of seat orders
share their dice and rng (``ab:<round>``), so the variants are compared on the same deals.
Besides bot.ai's levels: ``hard@analytic`` (hard with ``MONTE_CARLO = False``) and ``ref@plain``
(``ref:sensible`` without ``CHEAP_FOLLOW``).

Every seat plays ``--level``; each decision with two or more legal actions is timed in CPU time
(``time.process_time``: the machine is shared, so wall time would measure the neighbours), bids
and plays apart, and in wall time beside it (``bid wall``, ``play wall``). Prints the count, p50,
p99 and max in milliseconds, and the machine's load average.
"""

from __future__ import annotations

import argparse
import itertools
import os
import random
import time
from collections.abc import Mapping
from typing import Any

from bot import ai
from bot.ai import mythic_player
from bot.ai.reference import mythic as ref_mythic
from bot.games import get_engine
from bot.games.base import Action
from bot.games.dice import SeededDice
from bot.simulate import credit, wilson


def measure(players: int, games: int, level: str, seed: int = 1) -> dict[str, list[float]]:
    """CPU seconds per decision, by kind (``bid``, ``play``); wall seconds under ``bid wall`` / ``play wall``."""
    engine = get_engine("mythic")
    times: dict[str, list[float]] = {"bid": [], "play": [], "bid wall": [], "play wall": []}
    for g in range(games):
        dice = SeededDice(f"{seed}:{g}")
        state, _ = engine.new_game(players, engine.options({}), dice)
        rng = random.Random(f"{seed}:{g}:ai")
        while not engine.is_over(state):
            seat = engine.to_act(state)[0]
            view = engine.view(state, seat)
            start, wall = time.process_time(), time.perf_counter()
            action = _decide(view, level, rng)
            spent, wall = time.process_time() - start, time.perf_counter() - wall
            if len(view["legal"]) > 1:
                times[action.name].append(spent)
                times[f"{action.name} wall"].append(wall)
            state, _ = engine.apply(state, seat, action, dice)
    return times


def _decide(view: Mapping[str, Any], level: str, rng: random.Random) -> Action:
    if level == "hard@analytic":
        mythic_player.MONTE_CARLO = False
        try:
            return ai.decide("mythic", view, "hard", rng)
        finally:
            mythic_player.MONTE_CARLO = True
    if level == "ref@plain":
        ref_mythic.CHEAP_FOLLOW = False
        try:
            return ai.decide("mythic", view, "ref:sensible", rng)
        finally:
            ref_mythic.CHEAP_FOLLOW = True
    return ai.decide("mythic", view, level, rng)


def seats(text: str) -> list[str]:
    """``hard,hard@analytic*2`` -> one level per seat."""
    out: list[str] = []
    for part in filter(None, (p.strip() for p in text.split(","))):
        name, star, count = part.partition("*")
        out += [name] * (int(count) if star else 1)
    return out


def versus(levels: list[str], games: int) -> str:
    engine = get_engine("mythic")
    first = levels[0]
    orders = sorted(set(itertools.permutations(levels)))
    options = engine.options({"allow_two_players": True} if len(levels) == 2 else {})
    wins = margin = 0.0
    for g in range(games):
        order = orders[g % len(orders)]
        seed = f"ab:{g // len(orders)}"
        dice, rng = SeededDice(seed), random.Random(f"{seed}:ai")
        state, _ = engine.new_game(len(order), options, dice)
        while not engine.is_over(state):
            seat = engine.to_act(state)[0]
            state, _ = engine.apply(state, seat, _decide(engine.view(state, seat), order[seat], rng), dice)
        mine = [s for seat, s in enumerate(state.scores) if order[seat] == first]
        rest = [s for seat, s in enumerate(state.scores) if order[seat] != first]
        margin += sum(mine) / len(mine) - sum(rest) / len(rest)
        outcome = engine.outcome(state)
        assert outcome is not None
        wins += sum(c for seat, c in enumerate(credit(outcome, len(order))) if order[seat] == first)
    lo, hi = wilson(wins, games)
    fair = levels.count(first) / len(levels)
    return (
        f"{','.join(levels)}: {first} {wins / games:.3f} [{lo:.3f}, {hi:.3f}] over {games} games "
        f"(fair {fair:.3f}), margin {margin / games:+.1f} points a game"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--level", default="hard")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--versus", help="levels per seat, e.g. hard,hard@analytic*2 (head to head instead)")
    args = parser.parse_args(argv)
    if args.versus:
        print(versus(seats(args.versus), args.games))
        return
    for kind, spent in measure(args.players, args.games, args.level, args.seed).items():
        if not spent:
            continue
        spent.sort()
        p50, p99 = spent[len(spent) // 2], spent[min(len(spent) - 1, int(len(spent) * 0.99))]
        print(
            f"{args.players} players {args.level} {kind}: {len(spent)} decisions, "
            f"p50 {1000 * p50:.1f} ms, p99 {1000 * p99:.1f} ms, max {1000 * spent[-1]:.1f} ms"
        )
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
