"""The table reply's render: ``table_message``, the V2 layout (what a click's response carries), CPU µs per render.

For every game and locale, tables of 4 seats (one a computer player) are played to mid-game with random legal
moves until their public log holds 24 events (``LOG_EVENTS``), as a long-running table's does. Then the game
goes on move by move, and after each move (applied untimed, its public events appended to the log as the
table service does) the table message is rendered once, as the click path does: that render is timed.

* **per move**: the renders after each move (the state and 1-3 log events new each time), the first render of
  each table excluded; this is the click path's figure.
* **first**: the first render of each table (its log never rendered before: what a restart's first edit pays).
* **+ to_dict**: the same per-move render plus discord.py's serialisation of it (``Embed.to_dict`` and
  ``View.to_components``), which ``edit_message`` does before sending.

CPU is ``time.process_time`` summed over the timed calls, wall ``time.perf_counter``; both per render.

    python -m benchmarks.render            # ~20 s
    python -m benchmarks.render --quick    # a few seconds
    python -m benchmarks.render --profile pig   # cProfile of the per-move renders of one game (en)
"""

from __future__ import annotations

import cProfile
import io
import pstats
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from benchmarks._common import header, parser, show
from bot.games import Event
from bot.games.dice import SeededDice
from bot.games.registry import game_ids, spec
from bot.i18n import locales
from bot.tables.model import LOG_EVENTS, Seat, Table

# Liar's Dice defaults to one round, too short to fill a log: the multi-round mode plays on.
OPTIONS: dict[str, dict[str, Any]] = {"liar": {"mode": "lose_die"}}
SEATS = [Seat(1001, "alice"), Seat(1002, "Bartholomew"), Seat(-1, "Carol", "normal"), Seat(1004, "dan")]


@dataclass
class Script:
    """A table at mid-game (log full) and the moves that follow: (state, public events) after each."""

    table: Table
    steps: list[tuple[Any, list[Event]]]


def play(game: str, seed: int, moves: int) -> Script | None:
    """A 4-seat table of ``game`` played at random until its log is full, then ``moves`` more (fewer if it ends).
    None when the game ended before the log filled."""
    engine = spec(game).engine
    rng, dice = random.Random(seed), SeededDice(seed)
    options = OPTIONS.get(game, {})
    table = Table(seed, 1, seed, game, "running", 1001, options, list(SEATS))
    state, events = engine.new_game(len(SEATS), engine.options(options), dice)
    logged = [e for e in events if e.public]
    steps: list[tuple[Any, list[Event]]] = []
    while not engine.is_over(state) and len(steps) < moves:
        player = rng.choice(engine.to_act(state))
        state, events = engine.apply(state, player, rng.choice(engine.legal_actions(state, player)), dice)
        public = [e for e in events if e.public]
        if len(logged) < LOG_EVENTS:
            logged += public
            table.state = state
        else:
            steps.append((state, public))
    if len(logged) < LOG_EVENTS:
        return None
    table.add_log([(e.kind, e.data) for e in logged])
    return Script(table, steps)


def scripts(game: str, count: int, moves: int) -> list[Script]:
    found: list[Script] = []
    seed = 1
    while len(found) < count:
        script = play(game, seed, moves)
        if script is not None:
            found.append(script)
        seed += 1
    return found


def advance(table: Table, state: Any, events: list[Event]) -> None:
    """What the table service changes after a move (untimed)."""
    table.state = state
    table.version += 1
    if engine_over(table):
        table.status = "finished"
    table.add_log([(e.kind, e.data) for e in events])


def engine_over(table: Table) -> bool:
    return bool(table.engine.is_over(table.state))


def fresh(script: Script) -> Table:
    """A copy of the script's starting table (its own log deque, so a run does not change the script)."""
    t = script.table
    table = Table(t.id, t.guild_id, t.channel_id, t.game, t.status, t.host_id, t.options, list(t.seats), t.state)
    table.add_log(list(t.log))
    return table


@dataclass
class Timing:
    cpu: float = 0.0
    wall: float = 0.0
    count: int = 0

    def add(self, render: Callable[[], object]) -> None:
        c, w = time.process_time(), time.perf_counter()
        render()
        self.wall += time.perf_counter() - w
        self.cpu += time.process_time() - c
        self.count += 1

    def us(self) -> tuple[float, float]:
        return (self.cpu / self.count * 1e6, self.wall / self.count * 1e6) if self.count else (0.0, 0.0)


def run(found: list[Script], locale: str, serialise: bool) -> tuple[Timing, Timing]:
    from cogs.utils.components import table_message

    def render(table: Table) -> Callable[[], object]:
        def once() -> object:
            view = table_message(table, locale)
            if serialise:
                return view.to_components()
            return view

        return once

    first, moves = Timing(), Timing()
    for script in found:
        table = fresh(script)
        first.add(render(table))
        for state, events in script.steps:
            advance(table, state, events)
            moves.add(render(table))
    return first, moves


def main() -> None:
    p = parser(__doc__ or "")
    p.add_argument("--tables", type=int, default=20, help="tables per game (different seeds)")
    p.add_argument("--moves", type=int, default=60, help="moves rendered per table after its log filled")
    p.add_argument("--games", nargs="*", default=None, help="games to run (default: all)")
    p.add_argument("--profile", metavar="GAME", help="cProfile the per-move renders of one game (en)")
    args = p.parse_args()
    if args.quick:
        args.tables, args.moves = 4, 20
    games = args.games or list(game_ids())
    if args.profile:
        profile(args.profile, scripts(args.profile, args.tables, args.moves))
        return
    header(f"table reply render: table_message (V2 layout), 4 seats, log of {LOG_EVENTS} events")
    print(
        "leaves out: the act and its commit, the gateway event, discord.py's HTTP send, the presenter's scheduling, "
        "fair dice (SeededDice)"
    )
    rows = []
    for game in games:
        found = scripts(game, args.tables, args.moves)
        for locale in locales():
            run(found, locale, False)  # warm-up: imports, catalog loading, first use of each template
            first, moves = run(found, locale, False)
            _, serialised = run(found, locale, True)
            rows.append((game, locale, moves.count, *moves.us(), *first.us(), serialised.us()[0]))
    show(
        rows,
        ["game", "locale", "renders", "CPU µs/move", "wall µs", "first CPU µs", "first wall µs", "+ to_dict CPU µs"],
    )


def profile(game: str, found: list[Script]) -> None:
    run(found, "en", False)
    profiler = cProfile.Profile()
    profiler.enable()
    for _ in range(5):
        run(found, "en", False)
    profiler.disable()
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(30)
    print(out.getvalue())


if __name__ == "__main__":
    main()
