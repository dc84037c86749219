"""JSON libraries on Dice Tavern's path: the standard library (``bot/jsontext.py``) against orjson and msgspec.

``bot/jsontext.py`` ships orjson with a fallback to the standard library (its "stdlib" row here is the encoder
it used before). What is measured, per call (best of 5 timed loops, ``time.process_time``): for each game, a state
12 moves into a game played by the benchmark players (``engine.to_json(state)`` then encoded: the state snapshot;
decoded: a restore), a table's meta pieces (one public log entry, the timeouts list) and an action row's dice
(``[["r",6,[3,5]]]``). Every library's text is checked: the same value when decoded by the standard library,
compact (no blanks outside strings). orjson and msgspec return bytes, so their figures include ``.decode()``: the
columns are TEXT. Libraries that are not installed are skipped (``pip install orjson msgspec`` to compare).

    python -m benchmarks.jsonlib
    python -m benchmarks.jsonlib --quick
"""

from __future__ import annotations

import asyncio
import importlib
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from benchmarks._common import header, parser, show
from benchmarks._service import GAMES as ALL_GAMES
from benchmarks._service import SNOWFLAKE, NullStore, next_move, open_table
from bot import jsontext
from bot.games import get_engine
from bot.games.dice import SeededDice
from bot.jsontext import dumps

GAMES = ("pig", "mia", "mex", "liar", "mythic")


def libraries() -> dict[str, tuple[Callable[[Any], str], Callable[[str], Any]]]:
    """name -> (encode to str, decode from str), for the libraries that are installed."""
    stdlib = json.JSONEncoder(separators=(",", ":"), check_circular=False).encode  # jsontext before orjson
    found: dict[str, tuple[Callable[[Any], str], Callable[[str], Any]]] = {"stdlib": (stdlib, json.loads)}
    found["jsontext (shipped)"] = (dumps, jsontext.loads)
    try:
        orjson: Any = importlib.import_module("orjson")
        found["orjson"] = (lambda v: orjson.dumps(v).decode(), orjson.loads)
    except ImportError:
        pass
    try:
        msgspec: Any = importlib.import_module("msgspec")
        encoder, decoder = msgspec.json.Encoder(), msgspec.json.Decoder()
        found["msgspec"] = (lambda v: encoder.encode(v).decode(), decoder.decode)
    except ImportError:
        pass
    return found


def sample_state(game: str, moves: int = 12) -> Any:
    """``engine.to_json`` of a state ``moves`` actions into a game (random legal moves, fixed seeds)."""
    engine = get_engine(game)
    options = engine.options()
    players = engine.player_range(options)[0]
    dice, rng = SeededDice(5), random.Random(5)
    state, _ = engine.new_game(players, options, dice)
    for _ in range(moves):
        if engine.outcome(state) is not None:
            break
        seat = rng.choice(engine.to_act(state))
        state, _ = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)), dice)
    return engine.to_json(state)


def best(fn: Callable[[], Any], n: int) -> float:
    times = []
    for _ in range(5):
        t0 = time.process_time()
        for _ in range(n):
            fn()
        times.append((time.process_time() - t0) / n)
    return min(times)


def compact(text: str) -> bool:
    """No blanks outside strings (``separators=(",",":")``)."""
    inside = escaped = False
    for ch in text:
        if inside:
            escaped = not escaped and ch == "\\"
            inside = escaped or ch != '"'
        elif ch == '"':
            inside = True
        elif ch in " \n\t":
            return False
    return True


def patched(encode: Callable[[Any], str]) -> Callable[[], None]:
    """Make every ``bot`` module that imported ``jsontext.dumps`` use ``encode`` instead; returns the undo."""
    original = jsontext.dumps
    places = [
        (module, name)
        for module_name, module in list(sys.modules.items())
        if module_name.startswith("bot") and module is not None
        for name, value in list(vars(module).items())
        if value is original
    ]
    for module, name in places:
        setattr(module, name, encode)

    def undo() -> None:
        for module, name in places:
            setattr(module, name, original)

    return undo


async def act_cpu(actions: int) -> float:
    """Process CPU per ``TableService.act`` (no-op store, the five games in turn, the player's choice excluded)."""
    from bot.tables import TableService

    service = TableService(NullStore(), SeededDice(9), run_dispatcher=False)
    await service.start()
    channels = list(range(len(ALL_GAMES)))
    for channel, game in zip(channels, ALL_GAMES, strict=True):
        await open_table(service, channel, game)
    rng = random.Random(1)
    cpu = player = 0.0
    for i in range(actions):
        channel = channels[i % len(channels)]
        table = service.by_channel.get(channel)
        if table is None:
            await open_table(service, channel, ALL_GAMES[channel])
            continue
        c = time.process_time()
        user, action = next_move(table, rng)
        m = time.process_time()
        await service.act(channel, user, action, str(SNOWFLAKE + i))
        cpu += time.process_time() - m
        player += m - c
    return cpu / actions


def act_ab(libs: dict[str, tuple[Callable[[Any], str], Callable[[str], Any]]], rounds: int, actions: int) -> None:
    """Each library patched in as the encoder, rounds alternating, CPU per act: what the choice buys on the path."""
    header(f"TableService.act with each encoder patched in (no-op store, five games; {rounds} alternating rounds)")
    print(
        "leaves out: what surrounds an encode or decode: the store's thread, Discord, rendering (TableService.act on "
        "a no-op store at most)"
    )
    found: dict[str, list[float]] = {lib: [] for lib in libs}
    for _ in range(rounds):
        for lib, (enc, _dec) in libs.items():
            undo = patched(enc)
            try:
                found[lib].append(asyncio.run(act_cpu(actions)))
            finally:
                undo()
    base = statistics.median(found["stdlib"])
    show(
        [
            (lib, statistics.median(v) * 1e6, min(v) * 1e6, max(v) * 1e6, (statistics.median(v) - base) * 1e6)
            for lib, v in found.items()
        ],
        ["encoder", "CPU us/act (median)", "min", "max", "vs stdlib us"],
    )


def run(quick: bool = False) -> dict[str, dict[str, float]]:
    n = 2_000 if quick else 20_000
    libs = libraries()
    values: dict[str, Any] = {f"state {g}": sample_state(g) for g in GAMES}
    values["meta: one log entry"] = ["roll", {"player": 0, "face": 4, "total": 12}]
    values["meta: timeouts"] = [0, 1]
    values["action row: dice"] = [["r", 6, [3, 5]]]
    header(f"JSON encode and decode, us per call (best of 5 x {n:,}); {', '.join(libs)}")
    problems = []
    results: dict[str, dict[str, float]] = {}
    rows = []
    for name, value in values.items():
        text = dumps(value)
        row: list[Any] = [name, len(text)]
        for lib, (enc, dec) in libs.items():
            out = enc(value)
            if json.loads(out) != json.loads(text) or not compact(out):
                problems.append(f"{lib} {name}: {out[:80]!r} differs from {text[:80]!r}")
            if dec(text) != json.loads(text):
                problems.append(f"{lib} {name}: decodes differently")
            results.setdefault(lib, {})[f"{name} encode"] = e = best(lambda enc=enc, value=value: enc(value), n)
            results[lib][f"{name} decode"] = d = best(lambda dec=dec, text=text: dec(text), n)
            row += [e * 1e6, d * 1e6]
        rows.append(row)
    show(rows, ["value", "bytes", *(f"{lib} {op}" for lib in libs for op in ("enc", "dec"))])
    print("\nsame text as the standard library's (byte for byte):")
    for lib, (enc, _) in libs.items():
        same = sum(enc(v) == libs["stdlib"][0](v) for v in values.values())
        print(f"  {lib}: {same} of {len(values)}; non-ASCII 'é' -> {enc('é')!r}")
    for problem in problems:
        print("  PROBLEM:", problem)
    if len(libs) > 1:
        act_ab(libs, 1 if quick else 5, 2_000 if quick else 10_000)
    return results


def main() -> None:
    args = parser(__doc__.split("\n")[0]).parse_args()
    run(args.quick)


if __name__ == "__main__":
    main()
