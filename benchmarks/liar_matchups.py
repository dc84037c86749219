"""Liar's Dice matchups: one level against a field of another, seats rotated, with 95% Wilson intervals.

The player under test sits in each seat in turn (``--games`` per seat); the others play ``--field``.
Its win rate is compared with the fair share (1/players). Also reports its decision time: wall-clock
p50 / p99, and the p99 of CPU time (what a decision costs when the machine is not shared).

    python -m benchmarks.liar_matchups --level hard --field ref:probability --players 2 --games 500
    python -m benchmarks.liar_matchups --level hard --field ref:probability --players 4 --games 250
    python -m benchmarks.liar_matchups --level hard --field normal --players 2 --options wild_ones=true
"""

from __future__ import annotations

import random
import time
from typing import Any

from benchmarks._common import header, parser, percentile, show


def parse_options(text: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for item in filter(None, (s.strip() for s in text.split(","))):
        key, _, value = item.partition("=")
        out[key] = {"true": True, "false": False}.get(value.lower(), int(value) if value.isdigit() else value)
    return out


def matchup(
    level: str, field: str, players: int, games: int, options: dict[str, Any], seed: str = "m"
) -> dict[str, Any]:
    import bot.ai as ai
    from bot.games import get_engine
    from bot.games.dice import SeededDice
    from bot.simulate.stats import credit, wilson

    engine = get_engine("liar")
    opts = engine.options(options)
    wins, n, times, cpu = 0.0, 0, [], []
    for seat in range(players):
        levels = [field] * players
        levels[seat] = level
        for i in range(games):
            dice, rng = SeededDice(f"{seed}:{seat}:{i}"), random.Random(f"{seed}:{seat}:{i}:ai")
            state, _ = engine.new_game(players, opts, dice)
            while (outcome := engine.outcome(state)) is None:
                (who,) = engine.to_act(state)
                legal = engine.legal_actions(state, who)
                view = engine.view(state, who)
                t0, c0 = time.perf_counter(), time.process_time()
                action = ai.decide("liar", view, levels[who], rng, legal)
                if who == seat:
                    times.append(time.perf_counter() - t0)
                    cpu.append(time.process_time() - c0)
                state, _ = engine.apply(state, who, action, dice)
            wins += credit(outcome, players)[seat]
            n += 1
    times.sort()
    cpu.sort()
    lo, hi = wilson(wins, n)
    return {
        "rate": wins / n,
        "lo": lo,
        "hi": hi,
        "games": n,
        "p50": percentile(times, 50),
        "p99": percentile(times, 99),
        "cpu99": percentile(cpu, 99),  # CPU time: what the decision costs on a machine nobody else loads
        "max": times[-1] if times else 0.0,
    }


def main() -> None:
    p = parser(__doc__.splitlines()[0])
    p.add_argument("--level", default="hard")
    p.add_argument("--field", default="ref:probability")
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--games", type=int, default=250, help="per seat")
    p.add_argument("--options", default="", help="e.g. wild_ones=true,raise_rule=simple,dice_per_player=3")
    p.add_argument("--seed", default="m")
    args = p.parse_args()
    games = 20 if args.quick else args.games
    header(f"Liar's Dice: {args.level} against {args.field} x{args.players - 1} ({args.options or 'defaults'})")
    print("leaves out: Discord, the store and the table service: a strength measure, not a cost")
    r = matchup(args.level, args.field, args.players, games, parse_options(args.options), args.seed)
    show(
        [
            [
                args.level,
                args.field,
                str(args.players),
                str(r["games"]),
                f"{r['rate']:.3f}",
                f"[{r['lo']:.3f}, {r['hi']:.3f}]",
                f"{1 / args.players:.3f}",
                f"{r['p50'] * 1e3:.2f}",
                f"{r['p99'] * 1e3:.2f}",
                f"{r['cpu99'] * 1e3:.2f}",
            ]
        ],
        [
            "level",
            "field",
            "players",
            "games",
            "win rate",
            "95% interval",
            "fair share",
            "p50 ms",
            "p99 ms",
            "p99 CPU ms",
        ],
    )


if __name__ == "__main__":
    main()
