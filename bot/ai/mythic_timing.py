"""Decision times of a Mythical Dice level in whole games (issue 17: p99 < 50 ms at six players).

    nice -n 19 python -m bot.ai.mythic_timing --players 6 --games 4 --level hard

Every seat plays ``--level``; each decision with two or more legal actions is timed in CPU time
(``time.process_time``: the machine is shared, so wall time would measure the neighbours), bids
and plays apart. Prints the count, p50, p99 and max in milliseconds.
"""

from __future__ import annotations

import argparse
import random
import time

from bot import ai
from bot.games import get_engine
from bot.games.dice import SeededDice


def measure(players: int, games: int, level: str, seed: int = 1) -> dict[str, list[float]]:
    engine = get_engine("mythic")
    times: dict[str, list[float]] = {"bid": [], "play": []}
    for g in range(games):
        dice = SeededDice(f"{seed}:{g}")
        state, _ = engine.new_game(players, engine.options({}), dice)
        rng = random.Random(f"{seed}:{g}:ai")
        while not engine.is_over(state):
            seat = engine.to_act(state)[0]
            view = engine.view(state, seat)
            start = time.process_time()
            action = ai.decide("mythic", view, level, rng)
            spent = time.process_time() - start
            if len(view["legal"]) > 1:
                times[action.name].append(spent)
            state, _ = engine.apply(state, seat, action, dice)
    return times


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--level", default="hard")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    for kind, spent in measure(args.players, args.games, args.level, args.seed).items():
        if not spent:
            continue
        spent.sort()
        p50, p99 = spent[len(spent) // 2], spent[min(len(spent) - 1, int(len(spent) * 0.99))]
        print(
            f"{args.players} players {args.level} {kind}: {len(spent)} decisions, "
            f"p50 {1000 * p50:.1f} ms, p99 {1000 * p99:.1f} ms, max {1000 * spent[-1]:.1f} ms"
        )


if __name__ == "__main__":
    main()
