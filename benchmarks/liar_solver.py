"""Liar's Dice heads-up endgames: solve with CFR+ and ship (bot/ai/liar_solver.py), and check what ships.

``--ship`` solves each (raise rule, wild ones, dice) endgame until its NashConv is at most ``--target``
(or ``--iterations`` run out) and writes ``bot/ai/data/liar-<rule>-<wild|plain>-<a>v<b>.bin``. Without
it, the shipped files are checked: each is decoded as the computer player reads it (weights rounded to
1/255, only the information sets it reaches) and measured by an exact best response over the whole
tree, and the table of values and exploitability is printed (the table in docs/AI.md).

    python -m benchmarks.liar_solver                        # check every shipped table
    python -m benchmarks.liar_solver --ship --dice 1v1      # solve and ship the one-die endgames
    python -m benchmarks.liar_solver --ship --dice 1v2,2v1 --rules sum,pirates,lefthand
"""

from __future__ import annotations

import sys
import time
from typing import Any

from benchmarks._common import header, parser, show

RULES = ("sum", "simple", "poker", "pirates", "lefthand")
SHIP_TARGET = 0.004  # NashConv before rounding; rounding to 1/255 adds a little (the check measures it)
SHIP_PRUNE = "0.01"  # actions rarer than this are dropped: far fewer information sets to ship (the check measures it)
MAX_BYTES = 2_000_000  # per shipped file (tests/ai/test_liar_ai.py)


def configs(dice: str, rules: str, wild: str) -> list[tuple[str, bool, int, int]]:
    splits = [tuple(int(x) for x in d.split("v")) for d in dice.split(",")]
    wilds = {"both": (False, True), "on": (True,), "off": (False,)}[wild]
    return [(r, w, a, b) for a, b in splits for r in rules.split(",") for w in wilds]


def ship_one(
    rule: str,
    wild: bool,
    a: int,
    b: int,
    iterations: int,
    target: float,
    prunes: str,
    every: int,
    float32: bool,
    mass: float = 0.0,
) -> dict[str, Any]:
    """Solve, then ship with the smallest of ``prunes`` (comma-separated) whose file fits MAX_BYTES."""
    import numpy as np

    from bot.ai.liar_solver import Game
    from bot.ai.liar_tables import DATA_DIR, file_name

    def log(t: int, ex: dict[str, float]) -> None:
        cpu = time.process_time() - c0
        print(
            f"  {rule} {a}v{b} iteration {t}: NashConv {ex['nashconv']:.4f} (CPU {cpu:.0f} s)",
            file=sys.stderr,
            flush=True,
        )

    t0, c0 = time.perf_counter(), time.process_time()
    g = Game(rule, wild, a, b, np.float32 if float32 else np.float64)
    se, sc = g.solve(iterations, target, log, every)
    solved = time.perf_counter() - t0
    for prune in sorted(float(p) for p in prunes.split(",")):
        meta = {"rule": rule, "wild": wild, "dice": [a, b], "nodes": g.nodes, "prune": prune, "mass": mass}
        strat = g.to_strategy(se, sc, meta, prune, mass)
        if len(strat.to_bytes()) < MAX_BYTES:
            break
        print(f"  prune {prune}: {len(strat.to_bytes()):,} bytes, over the limit", file=sys.stderr, flush=True)
    else:
        raise SystemExit(f"{rule} {a}v{b}: no prune in {prunes} fits {MAX_BYTES:,} bytes")
    del se, sc
    g = Game(rule, wild, a, b)  # the check in float64 whatever the solve used
    ex = g.exploitability(*g.from_strategy(strat))  # as shipped: rounded, pruned, decoded
    strat.header.update({k: round(v, 6) for k, v in ex.items()}, seconds=round(solved, 1))
    path = DATA_DIR / file_name(rule, wild, a, b)
    path.write_bytes(strat.to_bytes())
    return {**strat.header, "bytes": path.stat().st_size}


def check_one(rule: str, wild: bool, a: int, b: int) -> dict[str, Any] | None:
    from bot.ai.liar_solver import Game
    from bot.ai.liar_tables import DATA_DIR, Strategy, file_name

    path = DATA_DIR / file_name(rule, wild, a, b)
    if not path.exists():
        return None
    strat = Strategy.from_bytes(path.read_bytes())
    g = Game(rule, wild, a, b)
    ex = g.exploitability(*g.from_strategy(strat))
    return {**strat.header, **ex, "bytes": path.stat().st_size}


def run(
    dice: str = "1v1,1v2,2v1,2v2",
    rules: str = ",".join(RULES),
    wild: str = "both",
    ship: bool = False,
    iterations: int = 4096,
    target: float = SHIP_TARGET,
    prune: str = SHIP_PRUNE,
    every: int = 0,
    float32: bool = False,
    mass: float = 0.0,
) -> list[dict[str, Any]]:
    header("Liar's Dice heads-up endgames (CFR+, exact best response)")
    print("leaves out: Discord, the store and the table service: offline solve times and strength, not a click's cost")
    out, rows = [], []
    for rule, w, a, b in configs(dice, rules, wild):
        t0 = time.perf_counter()
        res = (
            ship_one(rule, w, a, b, iterations, target, prune, every, float32, mass)
            if ship
            else check_one(rule, w, a, b)
        )
        if res is None:
            continue
        out.append(res)
        rows.append(
            [
                f"{a}v{b}",
                rule,
                "wild" if w else "plain",
                f"{res['nodes']:,}",
                f"{res['value']:+.4f}",
                f"{res['gain0']:.4f}",
                f"{res['gain1']:.4f}",
                f"{res['nashconv']:.4f}",
                f"{res['bytes']:,}",
                f"{time.perf_counter() - t0:.1f}",
            ]
        )
        print(" | ".join(rows[-1]), file=sys.stderr, flush=True)  # progress: the big trees take minutes
    show(
        rows,
        [
            "dice",
            "rule",
            "ones",
            "nodes",
            "opener value",
            "BR gain seat 0",
            "BR gain seat 1",
            "NashConv",
            "file bytes",
            "seconds",
        ],
    )
    return out


def main() -> None:
    p = parser(__doc__.splitlines()[0])
    p.add_argument("--dice", default="1v1,1v2,2v1,2v2", help="splits, opener first (e.g. 1v1,1v2)")
    p.add_argument("--rules", default=",".join(RULES))
    p.add_argument("--wild", choices=("both", "on", "off"), default="both")
    p.add_argument("--ship", action="store_true", help="solve and write the tables (else check the shipped ones)")
    p.add_argument("--iterations", type=int, default=4096)
    p.add_argument("--target", type=float, default=SHIP_TARGET)
    p.add_argument(
        "--prune",
        default=SHIP_PRUNE,
        help="drop actions rarer than this when shipping (a list: the smallest that fits)",
    )
    p.add_argument("--every", type=int, default=0, help="also check NashConv every N iterations (else powers of 2)")
    p.add_argument(
        "--float32", action="store_true", help="solve in float32 (half the memory traffic; check in float64)"
    )
    p.add_argument("--mass", type=float, default=0.0, help="also drop lines played with a smaller chance (drop_rare)")
    args = p.parse_args()
    dice = "1v1" if args.quick else args.dice
    run(
        dice,
        args.rules,
        args.wild,
        args.ship,
        args.iterations,
        args.target,
        args.prune,
        args.every,
        args.float32,
        args.mass,
    )


if __name__ == "__main__":
    main()
