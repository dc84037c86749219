"""Engines: random legal playouts per second and steps per second, per game and player count.

A playout starts a game with the engine's default options (except where noted), then repeatedly picks a
seat that may act (``to_act``; a random one when several act at once) and a uniformly random action from
``legal_actions``, and applies it, until the game is over. A *step* is one ``apply`` (one player decision;
our engines roll their dice inside ``apply``). With ``open_spiel`` installed, OpenSpiel's ``pig`` and
``liars_dice`` are driven the same way from Python, where chance nodes are separate nodes: a step counts
player decisions only, and ``nodes/s`` adds the chance nodes.

    python -m benchmarks.engines            # ~1 min
    python -m benchmarks.engines --quick    # a few seconds
    python -m benchmarks.engines --profile pig   # cProfile of Pig playouts (top functions)
"""

from __future__ import annotations

import cProfile
import io
import pstats
import random
import time
from dataclasses import dataclass
from typing import Any

from benchmarks._common import header, parser, run_for, show
from bot.games import available_games, get_engine
from bot.games.dice import SeededDice

STEP_CAP = 100_000  # a playout longer than this is cut (and reported): random play must not hang the run

# (game, players, options) rows. Mythical Dice needs 3 players at least.
CONFIGS: list[tuple[str, int, dict[str, Any]]] = [
    ("pig", 2, {}),
    ("pig", 4, {}),
    ("mia", 2, {}),
    ("mia", 4, {}),
    ("mex", 2, {}),
    ("mex", 4, {}),
    ("liar", 2, {}),
    ("liar", 4, {}),
    ("liar", 2, {"dice_per_player": 1}),
    ("mythic", 3, {}),
    ("mythic", 4, {}),
]

# OpenSpiel counterparts: (our row, OpenSpiel game, parameters). horizon: OpenSpiel's Pig cuts games at
# 1,000 moves by default; random play can exceed that, so the cap is lifted to compare whole games.
OPENSPIEL: list[tuple[tuple[str, int, str], str, dict[str, Any]]] = [
    (("pig", 2, ""), "pig", {"players": 2, "winscore": 100, "horizon": 100_000}),
    (("pig", 4, ""), "pig", {"players": 4, "winscore": 100, "horizon": 100_000}),
    (("liar", 2, ""), "liars_dice", {"players": 2, "numdice": 5}),
    (("liar", 2, "dice_per_player=1"), "liars_dice", {"players": 2, "numdice": 1}),
]


@dataclass
class Result:
    name: str
    players: int
    variant: str
    playouts: int
    steps: int
    nodes: int
    seconds: float
    cut: int = 0

    @property
    def playouts_per_s(self) -> float:
        return self.playouts / self.seconds

    @property
    def steps_per_s(self) -> float:
        return self.steps / self.seconds

    @property
    def steps_per_playout(self) -> float:
        return self.steps / self.playouts


def variant_text(options: dict[str, Any]) -> str:
    return ",".join(f"{k}={v}" for k, v in options.items())


def our_playout(engine: Any, players: int, options: Any, dice: Any, rng: random.Random) -> tuple[int, bool]:
    state, _ = engine.new_game(players, options, dice)
    to_act, legal, apply, choice = engine.to_act, engine.legal_actions, engine.apply, rng.choice
    steps = 0
    while steps < STEP_CAP:
        seats = to_act(state)
        if not seats:
            return steps, False
        seat = seats[0] if len(seats) == 1 else choice(seats)
        state, _ = apply(state, seat, choice(legal(state, seat)), dice)
        steps += 1
    return steps, True


def bench_ours(game: str, players: int, opts: dict[str, Any], seconds: float, seed: int = 1) -> Result:
    engine = get_engine(game)
    options = engine.options(opts)
    dice, rng = SeededDice(seed), random.Random(seed)
    cut = 0

    def once() -> int:
        nonlocal cut
        steps, was_cut = our_playout(engine, players, options, dice, rng)
        cut += was_cut
        return steps

    once()  # warm up imports and caches
    cut = 0
    playouts, steps, elapsed = run_for(seconds, once, minimum=3)
    return Result(game, players, variant_text(opts), playouts, steps, steps, elapsed, cut)


def openspiel_playout(game: Any, rng: random.Random) -> tuple[int, int]:
    state = game.new_initial_state()
    steps = chance = 0
    choice, choices = rng.choice, rng.choices
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(choices(outcomes, probs)[0])
            chance += 1
        else:
            state.apply_action(choice(state.legal_actions()))
            steps += 1
    return steps, chance


def bench_openspiel(pyspiel: Any, name: str, params: dict[str, Any], seconds: float, seed: int = 1) -> Result:
    game = pyspiel.load_game(name, params)
    rng = random.Random(seed)
    nodes = 0

    def once() -> int:
        nonlocal nodes
        steps, chance = openspiel_playout(game, rng)
        nodes += steps + chance
        return steps

    once()
    nodes = 0
    playouts, steps, elapsed = run_for(seconds, once, minimum=3)
    return Result(
        name,
        params["players"],
        variant_text({k: v for k, v in params.items() if k != "players"}),
        playouts,
        steps,
        nodes,
        elapsed,
    )


def import_openspiel() -> Any | None:
    try:
        import pyspiel  # noqa: PLC0415 - optional extra
    except ImportError:
        return None
    return pyspiel


def profile(game: str, players: int, seconds: float) -> None:
    engine = get_engine(game)
    options = engine.options({})
    players = max(players, engine.player_range(options)[0])  # e.g. Mythical Dice needs 3
    dice, rng = SeededDice(1), random.Random(1)
    prof = cProfile.Profile()
    end = time.perf_counter() + seconds
    prof.enable()
    while time.perf_counter() < end:
        our_playout(engine, players, options, dice, rng)
    prof.disable()
    out = io.StringIO()
    pstats.Stats(prof, stream=out).sort_stats("tottime").print_stats(15)
    print(out.getvalue())


def run(quick: bool = False) -> dict[str, Any]:
    seconds = 0.3 if quick else 3.0
    games = set(available_games())
    header(f"Engines: random legal playouts ({seconds:g} s per row)")
    results: dict[tuple[str, int, str], Result] = {}
    rows = []
    for game, players, opts in CONFIGS:
        if game not in games:
            rows.append((game, players, variant_text(opts) or "defaults", "not available", None, None, None))
            continue
        r = bench_ours(game, players, opts, seconds)
        results[(game, players, r.variant)] = r
        rows.append(
            (game, players, r.variant or "defaults", r.playouts, r.playouts_per_s, r.steps_per_s, r.steps_per_playout)
            + ((f"{r.cut} cut at {STEP_CAP:,} steps",) if r.cut else ())
        )
    show(rows, ["game", "players", "options", "playouts", "playouts/s", "steps/s", "steps/playout"])

    comparison = []
    pyspiel = import_openspiel()
    if pyspiel is None:
        print("\nopen_spiel not installed (pip install open_spiel): OpenSpiel comparison skipped")
    else:
        header("OpenSpiel from Python, same loop (steps = player decisions; nodes include chance)")
        rows = []
        for key, name, params in OPENSPIEL:
            r = bench_openspiel(pyspiel, name, params, seconds)
            ours = results.get(key)
            ratio = ours.steps_per_s / r.steps_per_s if ours else None
            comparison.append((key, r, ratio))
            rows.append(
                (
                    name,
                    r.players,
                    r.variant,
                    r.playouts_per_s,
                    r.steps_per_s,
                    r.nodes / r.seconds,
                    r.steps_per_playout,
                    f"{key[0]} {key[1]}p {key[2] or ''}".strip(),
                    ours.steps_per_s if ours else None,
                    ratio,
                )
            )
        show(
            rows,
            [
                "openspiel game",
                "players",
                "params",
                "playouts/s",
                "steps/s",
                "nodes/s",
                "steps/playout",
                "ours",
                "our steps/s",
                "ours / OpenSpiel",
            ],
        )
        misses = [f"{k[0]} {k[1]}p" for k, _, ratio in comparison if ratio is not None and ratio < 1]
        print(
            "target: engine steps/s >= OpenSpiel's for pig and liars_dice: "
            + ("ok" if not misses else "MISSED for " + ", ".join(misses))
        )
    return {"ours": results, "openspiel": comparison}


def main() -> None:
    p = parser(__doc__.split("\n")[0])
    p.add_argument("--profile", metavar="GAME", help="cProfile random playouts of GAME instead of the benchmark")
    p.add_argument("--players", type=int, default=2)
    args = p.parse_args()
    if args.profile:
        profile(args.profile, args.players, 1.0 if args.quick else 5.0)
    else:
        run(args.quick)


if __name__ == "__main__":
    main()
