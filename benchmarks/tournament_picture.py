"""Tournament pictures (``bot.render.tournament``): ms per PNG for standings tables and brackets, and the examples
docs/TOURNAMENTS.md shows.

Each tournament is played to the end by the engine (``bot.tournaments``) with seeded random results; the time is
the picture's alone (CPU ``time.process_time``, wall ``time.perf_counter``), warm (matplotlib already imported).

    python -m benchmarks.tournament_picture            # a few seconds
    python -m benchmarks.tournament_picture --example docs/tournament-swiss.png      # only writes that example
    python -m benchmarks.tournament_picture --bracket docs/tournament-knockout.png   # only writes that example
"""

from __future__ import annotations

import random
import statistics
import time
from typing import Any

from benchmarks._common import header, parser, show, verdict

TARGET_MS = 500.0  # warm CPU per picture: well under a second after Standings (a 64-row Swiss takes ~400)
NAMES = [
    "Ada", "Bartholomew", "Cleo", "Dmitri", "Eleni", "Farid", "Greta", "Hywel", "Ilse", "Jaan", "Kai", "Lowri",
    "Marta", "Nikolai", "Olwen", "Piret", "Quinn", "Rhiannon", "Sofia", "Tarmo", "Ugo", "Vasiliki", "Wren", "Xanthe",
]  # fmt: skip


def text(plan: Any, status: str) -> Any:
    from bot.render.tournament import TournamentText

    tiebreaks = {"swiss": ("Buchholz", "SB"), "round_robin": ("SB", "H2H"), "knockout": ()}[plan.format]
    title = {"swiss": "Swiss", "round_robin": "Round robin", "knockout": "Knockout"}[plan.format]
    return TournamentText(
        title=f"{title} · Liar's Dice",
        status=status,
        rank="#",
        player="Player",
        points="Points",
        tiebreaks=tiebreaks,
        rounds=("Round 1", "Quarter-finals", "Semi-finals", "Final")[-6:],
        winner="Winner",
        bye="bye",
        no_show="no-show",
        withdrawn="withdrawn",
    )


def played(plan: Any, count: int, seed: int, upto: int | None = None) -> tuple[list[Any], list[Any], list[Any]]:
    """``count`` entrants (ratings spread around 1000) and ``upto`` rounds (all when None) of random results, one
    table in twelve with a no-show."""
    from bot.tournaments import Entrant, Outcome, is_over, pair_round

    rng = random.Random(seed)
    people = [Entrant(p, round(1000 + rng.gauss(0, 80)), float(p)) for p in range(1, count + 1)]
    rounds: list[Any] = []
    outcomes: list[Any] = []
    while not is_over(plan, people, rounds, outcomes) and (upto is None or len(rounds) < upto):
        rnd = pair_round(plan, people, rounds, outcomes)
        rounds.append(rnd)
        for table in rnd.tables:
            order = sorted(table.players, key=lambda p: rng.random())
            absent = frozenset(order[-1:]) if rng.random() < 1 / 12 else frozenset()
            shown = [p for p in order if p not in absent]
            outcomes.append(Outcome(rnd.number, table.number, {p: i + 1 for i, p in enumerate(shown)}, absent))
    return people, rounds, outcomes


def names(count: int) -> dict[int, str]:
    return {p: NAMES[(p - 1) % len(NAMES)] + ("" if p <= len(NAMES) else f" {(p - 1) // len(NAMES) + 1}")
            for p in range(1, count + 1)}  # fmt: skip


def swiss_example(path: str) -> None:
    """A 12-player Swiss after 3 of its 4 rounds."""
    from bot.render.tournament import tournament_picture
    from bot.tournaments import Plan

    plan = Plan("swiss", rounds=4)
    people, rounds, outcomes = played(plan, 12, seed=7, upto=3)
    png = tournament_picture(plan, people, rounds, outcomes, names(12), text=text(plan, "After round 3 of 4"))
    with open(path, "wb") as out:
        out.write(png)
    print(f"wrote {path} ({len(png):,} bytes)")


def bracket_example(path: str) -> None:
    """A 6-player knockout played to the end: the top two seeds have byes in round 1."""
    from bot.render.tournament import tournament_picture
    from bot.tournaments import Plan

    plan = Plan("knockout")
    people, rounds, outcomes = played(plan, 6, seed=3)
    words = text(plan, "Finished")
    words = type(words)(**{**words.__dict__, "rounds": ("Round 1", "Semi-finals", "Final")})
    png = tournament_picture(plan, people, rounds, outcomes, names(6), text=words)
    with open(path, "wb") as out:
        out.write(png)
    print(f"wrote {path} ({len(png):,} bytes)")


def main() -> None:
    cli = parser(__doc__.split("\n")[0])
    cli.add_argument("--example", metavar="PNG", help="write the Swiss example of docs/TOURNAMENTS.md there and stop")
    cli.add_argument("--bracket", metavar="PNG", help="write the knockout example of docs/TOURNAMENTS.md there")
    args = cli.parse_args()
    if args.example or args.bracket:
        if args.example:
            swiss_example(args.example)
        if args.bracket:
            bracket_example(args.bracket)
        return
    from bot.render.tournament import tournament_picture
    from bot.tournaments import Plan

    repeats = 3 if args.quick else 10
    cases = [(Plan("swiss"), 8), (Plan("swiss"), 64), (Plan("round_robin"), 10), (Plan("knockout"), 8)]
    cases += [] if args.quick else [(Plan("knockout"), 64)]
    header(f"tournament pictures: warm, {repeats} runs each")
    rows = []
    for plan, count in cases:
        people, rounds, outcomes = played(plan, count, seed=1)
        words, who = text(plan, "Finished"), names(count)
        tournament_picture(plan, people, rounds, outcomes, who, text=words)  # warm up
        walls, cpus = [], []
        for _ in range(repeats):
            wall, cpu = time.perf_counter(), time.process_time()
            png = tournament_picture(plan, people, rounds, outcomes, who, text=words)
            walls.append((time.perf_counter() - wall) * 1000)
            cpus.append((time.process_time() - cpu) * 1000)
        cpu_ms = statistics.median(cpus)
        rows.append(
            [f"{plan.format} {count}", statistics.median(walls), cpu_ms, len(png) // 1024, verdict(cpu_ms <= TARGET_MS)]
        )
    show(rows, ["picture", "wall ms", "CPU ms", "PNG KiB", "target"])
    print(f"target: warm CPU <= {TARGET_MS:.0f} ms a picture.")


if __name__ == "__main__":
    main()
