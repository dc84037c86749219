"""Engines: random legal playouts, decisions per CPU-second, per game and player count; OpenSpiel side by side.

A playout starts a game with the engine's default options (except where noted), then repeatedly picks a
seat that may act (``to_act``; a random one when several act at once) and a uniformly random action from
``legal_actions``, and applies it, until the game is over. A *step* is one ``apply`` (one player decision;
our engines roll their dice inside ``apply``). Rates are steps per CPU-second (``time.process_time``) with the
wall-clock rate beside them; every row runs in slices, and the figure is the total over the slices.

OpenSpiel (``pip install open_spiel``): its ``pig`` and ``liars_dice`` are driven by the same Python loop.
Chance nodes are separate nodes there; the loop picks among their outcomes with the same uniform
``rng.choice(state.legal_actions())`` as for decisions (valid: both games' chance outcomes are uniform), and
a step counts player decisions only (``nodes/s`` adds the chance nodes). Ours and OpenSpiel's run in
alternating slices (6 x 0.5 s each; ``--quick``: 2 x 0.15 s), so load from other processes hits both alike,
after one unmeasured slice each (measured cold, OpenSpiel's first short slices ran ~30% slow, flattering ours).
Target (issue 12): ours >= 1.2x OpenSpiel's decisions per CPU-second on Pig 2p (winscore 100) and on
Liar's Dice 5 dice 2p.

"Ours" is the engine the registry serves: for Pig and Liar's Dice the compiled fast path (bot/games/_fast.c) when
it is built, unless DICETAVERN_PURE_ENGINES=1. Then the OpenSpiel rows alternate a third contestant, the pure-Python
engine it must equal (the class's ``reference``, the engine before the fast path), so one run gives both ratios.

    python -m benchmarks.engines            # ~1 min
    python -m benchmarks.engines --quick    # a few seconds
    python -m benchmarks.engines --profile pig   # cProfile of Pig playouts (top functions)

Baseline (a note, read only to print "x baseline"): steps per CPU-second at commit b43159e, before the
lean Pig and Liar's Dice engines, measured with this script on a clean export of that commit (3 x 1 s slices
per row, load ~4 on 2 cores; OpenSpiel at the same time: pig 2p 272,500, liars_dice 5 dice 2p 104,000, so
ratios 0.21 and 0.23):

    pig 2p: 58,200
    pig 4p: 57,600
    mia 2p: 15,600
    mia 4p: 15,600
    mex 2p: 16,500
    mex 4p: 16,900
    liar 2p: 25,200
    liar 4p: 22,600
    liar 2p dice_per_player=1: 23,600
    mythic 3p: 12,900
    mythic 4p: 12,100
"""

from __future__ import annotations

import cProfile
import io
import pstats
import random
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from benchmarks._common import header, parser, show, verdict
from bot.games import available_games, get_engine
from bot.games.dice import SeededDice

STEP_CAP = 100_000  # a playout longer than this is cut (and reported): random play must not hang the run
TARGET = 1.2  # ours / OpenSpiel, decisions per CPU-second (issue 12)

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

# OpenSpiel counterparts: (our row, OpenSpiel game, parameters, held to the target). horizon: OpenSpiel's Pig
# cuts games at 1,000 moves by default; random play can exceed that, so the cap is lifted to compare whole games.
OPENSPIEL: list[tuple[tuple[str, int, dict[str, Any]], str, dict[str, Any], bool]] = [
    (("pig", 2, {}), "pig", {"players": 2, "winscore": 100, "horizon": 100_000}, True),
    (("pig", 4, {}), "pig", {"players": 4, "winscore": 100, "horizon": 100_000}, False),
    (("liar", 2, {}), "liars_dice", {"players": 2, "numdice": 5}, True),
    (("liar", 2, {"dice_per_player": 1}), "liars_dice", {"players": 2, "numdice": 1}, False),
]


@dataclass
class Meter:
    """Playouts, steps (decisions), nodes (decisions + chance) and the CPU and wall seconds they took."""

    playouts: int = 0
    steps: int = 0
    nodes: int = 0
    cpu: float = 0.0
    wall: float = 0.0
    cut: int = 0

    @property
    def steps_per_cpu_s(self) -> float:
        return self.steps / self.cpu if self.cpu else 0.0

    @property
    def steps_per_wall_s(self) -> float:
        return self.steps / self.wall if self.wall else 0.0

    @property
    def nodes_per_cpu_s(self) -> float:
        return self.nodes / self.cpu if self.cpu else 0.0

    @property
    def steps_per_playout(self) -> float:
        return self.steps / self.playouts if self.playouts else 0.0

    def slice(self, seconds: float, playout: Callable[[], tuple[int, int, bool]]) -> None:
        """Play whole playouts until ``seconds`` of CPU time have passed; add them and their times."""
        cpu, wall = time.process_time, time.perf_counter
        c0, w0 = cpu(), wall()
        end = c0 + seconds
        while True:
            steps, nodes, was_cut = playout()
            self.playouts += 1
            self.steps += steps
            self.nodes += nodes
            self.cut += was_cut
            if cpu() >= end:
                break
        self.cpu += cpu() - c0
        self.wall += wall() - w0


def variant_text(options: dict[str, Any]) -> str:
    return ",".join(f"{k}={v}" for k, v in options.items())


def row_name(game: str, players: int, options: dict[str, Any]) -> str:
    return f"{game} {players}p {variant_text(options)}".strip()


def baseline() -> dict[str, float]:
    """The baseline figures noted in this module's docstring, by row name."""
    found = re.findall(r"^ {4}(\w+ \d+p[^:\n]*): ([\d,]+)$", __doc__ or "", re.MULTILINE)
    return {name: float(rate.replace(",", "")) for name, rate in found}


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


def openspiel_playout(game: Any, rng: random.Random) -> tuple[int, int]:
    """(decisions, chance nodes) of one playout; chance outcomes chosen uniformly, as decisions are."""
    state = game.new_initial_state()
    steps = chance = 0
    choice = rng.choice
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(choice(state.legal_actions()))
            chance += 1
        else:
            state.apply_action(choice(state.legal_actions()))
            steps += 1
    return steps, chance


def reference(game: str) -> Any | None:
    """The pure-Python engine the registry's compiled one must equal; None when the registry's is pure Python."""
    cls = getattr(type(get_engine(game)), "reference", None)
    return cls() if cls is not None else None


def ours(
    game: str, players: int, opts: dict[str, Any], seed: int = 1, engine: Any = None
) -> Callable[[], tuple[int, int, bool]]:
    engine = engine or get_engine(game)
    options = engine.options(opts)
    dice, rng = SeededDice(seed), random.Random(seed)

    def playout() -> tuple[int, int, bool]:
        steps, was_cut = our_playout(engine, players, options, dice, rng)
        return steps, steps, was_cut

    playout()  # warm up imports and caches
    return playout


def theirs(pyspiel: Any, name: str, params: dict[str, Any], seed: int = 1) -> Callable[[], tuple[int, int, bool]]:
    game = pyspiel.load_game(name, params)
    rng = random.Random(seed)

    def playout() -> tuple[int, int, bool]:
        steps, chance = openspiel_playout(game, rng)
        return steps, steps + chance, False

    playout()
    return playout


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
    slices, seconds = (1, 0.3) if quick else (3, 1.0)
    games = set(available_games())
    old = baseline()
    header(f"Engines: random legal playouts ({slices} x {seconds:g} s CPU per row)")
    print(
        "leaves out: the table service, the store, rendering, Discord and fair dice (the benchmark's own RNG picks "
        "chance outcomes)"
    )
    print("engines: " + ", ".join(f"{game} {type(get_engine(game)).__name__}" for game in sorted(games)))
    results: dict[str, Meter] = {}
    rows: list[tuple[Any, ...]] = []
    for game, players, opts in CONFIGS:
        name = row_name(game, players, opts)
        if game not in games:
            rows.append((game, players, variant_text(opts) or "defaults", "not available"))
            continue
        m = results[name] = Meter()
        playout = ours(game, players, opts)
        Meter().slice(0.2, playout)  # unmeasured warm-up
        for _ in range(slices):
            m.slice(seconds, playout)
        was = old.get(name)
        rows.append(
            (
                game,
                players,
                variant_text(opts) or "defaults",
                m.playouts,
                m.steps_per_cpu_s,
                m.steps_per_wall_s,
                m.steps_per_playout,
                was,
                m.steps_per_cpu_s / was if was else None,
            )
            + ((f"{m.cut} cut at {STEP_CAP:,} steps",) if m.cut else ())
        )
    show(
        rows,
        [
            "game",
            "players",
            "options",
            "playouts",
            "steps/CPU-s",
            "steps/wall-s",
            "steps/playout",
            "baseline",
            "x baseline",
        ],
    )
    slow = [name for name, m in results.items() if name in old and m.steps_per_cpu_s < 3 * old[name]]
    print(
        "target: every game >= 3x its baseline (steps per CPU-second, the docstring's note): "
        + ("ok" if not slow else "MISSED for " + ", ".join(slow))
    )

    comparison: list[tuple[str, Meter, Meter, float, bool]] = []
    pyspiel = import_openspiel()
    if pyspiel is None:
        print("\nopen_spiel not installed (pip install open_spiel): OpenSpiel comparison skipped")
        return {"ours": results, "openspiel": comparison}
    pairs, slice_s = (2, 0.15) if quick else (6, 0.5)
    header(
        f"Ours vs OpenSpiel from Python, same loop, uniform chance choice, {pairs} alternating slices of {slice_s:g} s"
        " CPU each (steps = decisions; nodes add chance)"
    )
    rows = []
    pure_rows = []
    for (game, players, opts), name, params, held in OPENSPIEL:
        mine, other, plain = Meter(), Meter(), Meter()
        play_mine, play_other = ours(game, players, opts), theirs(pyspiel, name, params)
        pure = reference(game)
        play_plain = ours(game, players, opts, engine=pure) if pure is not None else None
        Meter().slice(slice_s, play_mine)  # unmeasured warm-up slices: short runs measured cold flattered ours
        Meter().slice(slice_s, play_other)
        if play_plain is not None:
            Meter().slice(slice_s, play_plain)
        for _ in range(pairs):
            mine.slice(slice_s, play_mine)
            other.slice(slice_s, play_other)
            if play_plain is not None:
                plain.slice(slice_s, play_plain)
        ratio = mine.steps_per_cpu_s / other.steps_per_cpu_s
        comparison.append((row_name(game, players, opts), mine, other, ratio, held))
        rows.append(
            (
                row_name(game, players, opts),
                mine.steps_per_cpu_s,
                mine.steps_per_wall_s,
                mine.steps_per_playout,
                f"{name} {variant_text({k: v for k, v in params.items() if k != 'horizon'})}",
                other.steps_per_cpu_s,
                other.steps_per_wall_s,
                other.nodes_per_cpu_s,
                other.steps_per_playout,
                ratio,
                verdict(ratio >= TARGET) if held else "-",
            )
        )
        if play_plain is not None:
            pure_rows.append(
                (
                    row_name(game, players, opts),
                    type(pure).__name__,
                    plain.steps_per_cpu_s,
                    plain.steps_per_wall_s,
                    plain.steps_per_cpu_s / other.steps_per_cpu_s,
                    mine.steps_per_cpu_s / plain.steps_per_cpu_s,
                )
            )
    show(
        rows,
        [
            "ours",
            "steps/CPU-s",
            "steps/wall-s",
            "steps/playout",
            "OpenSpiel",
            "steps/CPU-s",
            "steps/wall-s",
            "nodes/CPU-s",
            "steps/playout",
            "ours / OpenSpiel (CPU)",
            f">= {TARGET}x",
        ],
    )
    if pure_rows:
        print("\nthe pure-Python engines in the same slices (the reference the compiled ones equal):")
        show(pure_rows, ["row", "engine", "steps/CPU-s", "steps/wall-s", "pure / OpenSpiel (CPU)", "ours / pure (CPU)"])
    misses = [name for name, _, _, ratio, held in comparison if held and ratio < TARGET]
    print(
        f"target: ours >= {TARGET}x OpenSpiel's decisions per CPU-second on pig 2p and liar 2p (5 dice): "
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
