"""Hard beats easy, in every game: one hard seat against easy seats over hundreds of seeded games.

Each game's figure is hard's share of the wins (ties split), its 95% Wilson interval and the one-sided exact
binomial p-value against the share a seat gets by symmetry (1 / players); the pass mark is p < 0.01. Hard
takes seat ``i % players`` in game ``i``; game ``i`` uses the dice ``SeededDice("strength:<game>:<i>")`` and
the players' rng ``random.Random("strength:<game>:<i>:ai")``, so a run is reproducible and any game replays
alone. Pig and Mythical Dice use 3 seats and Mex 4 (with 3 lives): one hard seat among several easy ones shows
the edge in fewer games; Mex is the luckiest game and needs the most. Every decision goes through
``bot.ai.decide`` (no safety net). The test suite keeps a few of these games as a seeded sanity check
(tests/ai/test_players.py); this is the statistical claim (docs/AI.md).

    python -m benchmarks.hard_beats_easy                 # every game (~1 CPU min, most of it Mythical Dice)
    python -m benchmarks.hard_beats_easy --game mythic
    python -m benchmarks.hard_beats_easy --quick         # a tenth of the games (the figures, not the verdicts)

Exits with status 1 when a game misses the pass mark.
"""

from __future__ import annotations

import math
import random
import time

import bot.ai as ai
from benchmarks._common import header, parser, show
from bot.games import get_engine
from bot.games.dice import SeededDice
from bot.simulate import play_one, wilson

# game -> (levels of the other seats, options, games). One hard seat against easy seats.
STRENGTH: dict[str, tuple[tuple[str, ...], dict, int]] = {
    "pig": (("easy", "easy"), {}, 300),
    "mia": (("easy",), {}, 600),
    "mex": (("easy", "easy", "easy"), {"starting_lives": 3}, 1000),
    "liar": (("easy",), {}, 150),
    "mythic": (("easy", "easy"), {}, 60),
}
PASS_P = 0.01  # the pass mark: hard's wins are this unlikely for a seat that is only as good as the others


def binomial_tail(k: int, n: int, p: float) -> float:
    """P(X >= k) for X ~ Binomial(n, p), exact (log space)."""
    if k <= 0:
        return 1.0
    total = 0.0
    for i in range(k, n + 1):
        log = math.lgamma(n + 1) - math.lgamma(i + 1) - math.lgamma(n - i + 1) + i * math.log(p)
        total += math.exp(log + (n - i) * math.log1p(-p))
    return min(1.0, total)


def hard_wins(game: str, others: tuple[str, ...], options: dict, games: int) -> float:
    """Hard's wins (ties split) in the first ``games`` games of ``game``, hard in seat ``i % players``."""
    players = len(others) + 1
    engine = get_engine(game)
    opts = engine.options(options)
    wins = 0.0
    for i in range(games):
        seat = i % players
        levels = list(others)
        levels.insert(seat, "hard")
        seed = f"strength:{game}:{i}"  # the same loop as ``dicetavern simulate``, without the safety net
        outcome, _, _ = play_one(engine, levels, opts, SeededDice(seed), random.Random(f"{seed}:ai"), ai.decide)
        if seat in outcome.winners:
            wins += 1 / len(outcome.winners)
    return wins


def p_value(game: str, wins: float, games: int) -> float:
    """The one-sided binomial p-value of ``wins`` of ``games`` against the fair share of ``game``'s seats."""
    return binomial_tail(math.floor(wins), games, 1 / (len(STRENGTH[game][0]) + 1))


def main() -> None:
    p = parser(__doc__.split("\n")[0])
    p.add_argument("--game", choices=sorted(STRENGTH), action="append", help="only this game (repeatable)")
    args = p.parse_args()
    header("hard beats easy: hard's share of the wins, one hard seat against easy seats")
    print(
        "leaves out: Discord, the store, the table service and the computer players' pacing: a strength measure, not "
        "a cost"
    )
    rows, missed = [], []
    for game in args.game or STRENGTH:
        others, options, games = STRENGTH[game]
        games = max(len(others) + 1, games // 10) if args.quick else games
        began = time.process_time()
        wins = hard_wins(game, others, options, games)
        cpu = time.process_time() - began
        lo, hi = wilson(wins, games)
        p_hard = p_value(game, wins, games)
        ok = p_hard < PASS_P
        if not ok:
            missed.append(game)
        seats = f"hard vs {'easy*' + str(len(others)) if len(others) > 1 else 'easy'}"
        fair = 1 / (len(others) + 1)
        rows.append([game, seats, games, wins / games, f"[{lo:.3f}, {hi:.3f}]", fair, f"{p_hard:.2g}", ok, cpu])
    headings = ["game", "seats", "games", "hard's share", "95% interval", "fair share", "p", "p < 0.01", "CPU s"]
    show(rows, headings)
    if missed and not args.quick:
        raise SystemExit(f"hard did not beat easy (p >= {PASS_P}): {', '.join(missed)}")


if __name__ == "__main__":
    main()
