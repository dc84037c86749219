"""``dicetavern simulate``: computer players against each other, straight on the engines.

No store, no table service, no rendering: ``new_game`` / ``to_act`` / ``view`` / ``apply`` in a
loop, with the computer players choosing from their own seat's view (never the state), exactly
as they do at a real table. Reports each seat's win rate with a 95% Wilson interval and the mean
game length.

Counting rules (also printed under the report):

* **Ties count as fractional wins.** A game's winners are the seats sharing first place
  (``Outcome.ranking[0]``); each of ``k`` winners gets ``1/k`` of a win, so the seats' wins
  always add up to the number of games and the win rates to 100%. The Wilson interval is
  computed from the (possibly fractional) win count as if it were a count of successes.
* **Length** is counted in applied actions (every seat's, including simultaneous bids), and in
  the game's natural unit where it has one: Pig turns, Mia / Mex / Liar's Dice rounds
  (a Liar's Dice re-deal is not a new round), Mythical Dice hands.
* **Seats keep their level** for the whole run; who starts is the engine's business (every
  game draws the first player at random by default), so seat order is not a bias unless an
  option fixes the starter.

Reproducible: game ``i`` of a run with seed ``S`` uses dice ``SeededDice(f"{S}:{i}")`` and the
computer players' choices ``random.Random(f"{S}:{i}:ai")``, so one odd game can be replayed alone.
"""

from __future__ import annotations

import argparse
import math
import random
import secrets
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO

from bot.games import Action, Engine, Event, InvalidOptions, Outcome, available_games, get_engine
from bot.games.dice import SeededDice
from bot.games.parsing import parse_int
from bot.games.registry import specs
from bot.i18n import DEFAULT, t
from bot.render import option_error_text

Chooser = Callable[..., Action]  # choose(game, view, level, rng, legal=None) -> Action

DEFAULT_LEVELS = ("easy", "normal", "hard")
RANDOM_LEVEL = "random"  # a uniform random legal move: a baseline, handled here, not by bot.ai
MAX_ACTIONS = 100_000  # per game: an engine or AI that never ends a game is a bug, not a long game
Z95 = 1.959963984540054

# The natural unit of a game's length, as its spec declares it: (plural name, the public event that starts one).
# The name is data (``SimResult.unit``); the report shows it through the catalog key in UNIT_KEYS (a unit
# not listed there prints as its name; tests/test_registry.py asks for a key for every declared unit).
LENGTH_UNITS: dict[str, tuple[str, Callable[[Event], bool]]] = {s.id: (s.length_unit, s.starts_unit) for s in specs()}
UNIT_KEYS = {"turns": "simulate.unit_turns", "rounds": "simulate.unit_rounds", "hands": "simulate.unit_hands"}


# --------------------------------------------------------------------------------------------
# Shared with the terminal: options, levels, the computer's move


def parse_option(text: str) -> tuple[str, str]:
    """``name=value`` -> (name, value); an argparse ``type``."""
    name, sep, value = text.partition("=")
    name, value = name.strip(), value.strip()
    if not sep or not name:
        raise argparse.ArgumentTypeError(t("simulate.bad_option", text=repr(text)))
    return name, value


def options_dict(pairs: Sequence[tuple[str, str] | str] | None) -> dict[str, Any]:
    """``[("target", "50"), "dice=2"]`` -> ``{"target": "50", "dice": "2"}`` (the engine converts types)."""
    out: dict[str, Any] = {}
    for pair in pairs or ():
        name, value = parse_option(pair) if isinstance(pair, str) else pair
        out[name] = value
    return out


def known_levels() -> tuple[str, ...]:
    """The computer levels ``bot.ai`` offers (``easy, normal, hard`` until it says otherwise), plus ``random``."""
    try:
        import bot.ai as ai

        levels = tuple(getattr(ai, "LEVELS", DEFAULT_LEVELS))
    except ImportError:
        levels = DEFAULT_LEVELS
    return (*levels, RANDOM_LEVEL)


def check_level(level: str, locale: str = DEFAULT) -> str:
    """A level name in canonical form (``bot.ai``'s aliases such as ``expert`` accepted); ValueError if unknown."""
    name = level.strip().lower()
    if name == RANDOM_LEVEL:
        return name
    unknown = t("simulate.unknown_level", locale, level=repr(level), levels=", ".join(known_levels()))
    try:
        from bot.ai import normalise_level

        return normalise_level(name)
    except ImportError:
        pass
    except ValueError:
        raise ValueError(unknown) from None
    if name not in known_levels():
        raise ValueError(unknown)
    return name


def default_chooser(game: str | None = None, locale: str = DEFAULT) -> Chooser:
    """``bot.ai.choose``, the registry of computer players; with ``game``, check that game has one."""
    try:
        import bot.ai as ai

        choose = ai.choose
    except (ImportError, AttributeError) as error:
        raise RuntimeError(t("simulate.no_ai", locale, error=error)) from None
    if game is not None and hasattr(ai, "player_module"):
        try:
            ai.player_module(game)
        except (ImportError, KeyError) as error:
            raise RuntimeError(t("simulate.no_ai_for_game", locale, game=game, error=error)) from None
    return choose


def computer_move(
    game: str,
    view: dict[str, Any],
    level: str,
    rng: random.Random,
    legal: list[Action],
    chooser: Chooser | None = None,
) -> Action:
    """The computer's action for its own seat: ``random`` here, every other level through ``chooser``."""
    if level == RANDOM_LEVEL:
        return rng.choice(legal)
    return (chooser or default_chooser())(game, view, level, rng, legal=legal)


# --------------------------------------------------------------------------------------------
# Statistics


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion (``successes`` may be fractional: shared wins)."""
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def credit(outcome: Outcome, players: int) -> list[float]:
    """Each seat's share of one game's win: ``1/k`` for each of ``k`` seats sharing first place."""
    shares = [0.0] * players
    winners = outcome.winners
    for seat in winners:
        shares[seat] += 1 / len(winners)
    return shares


@dataclass
class SimResult:
    game: str
    levels: tuple[str, ...]
    options: dict[str, Any]  # the options that differ from the defaults
    seed: int | str
    games: int = 0
    wins: list[float] = field(default_factory=list)
    shared: int = 0  # games whose first place was shared
    actions: list[int] = field(default_factory=list)  # per game
    units: list[int] = field(default_factory=list)  # per game, in ``unit`` (empty when the game has none)
    unit: str | None = None
    elapsed: float = 0.0

    def rate(self, seat: int) -> float:
        return self.wins[seat] / self.games if self.games else 0.0

    def interval(self, seat: int) -> tuple[float, float]:
        return wilson(self.wins[seat], self.games)

    @property
    def mean_actions(self) -> float:
        return sum(self.actions) / len(self.actions) if self.actions else 0.0

    @property
    def mean_units(self) -> float | None:
        return sum(self.units) / len(self.units) if self.units else None


# --------------------------------------------------------------------------------------------
# Running games


def play_one(
    engine: Engine,
    levels: Sequence[str],
    options: Any,
    dice: SeededDice,
    rng: random.Random,
    chooser: Chooser | None = None,
    unit: Callable[[Event], bool] | None = None,
    locale: str = DEFAULT,
) -> tuple[Outcome, int, int]:
    """One game between computer players; returns the outcome, the actions applied, and the units started."""
    game = engine.name
    state, events = engine.new_game(len(levels), options, dice)
    units = sum(1 for e in events if unit and e.public and unit(e))
    actions = 0
    while (outcome := engine.outcome(state)) is None:
        movers = engine.to_act(state)
        if not movers:
            raise RuntimeError(t("simulate.nobody_acts", locale, game=game))
        for seat in movers:
            if seat not in engine.to_act(state):  # an earlier simultaneous move ended this phase
                continue
            legal = engine.legal_actions(state, seat)
            action = computer_move(game, engine.view(state, seat), levels[seat], rng, legal, chooser)
            if action not in legal:
                raise RuntimeError(
                    t(
                        "simulate.illegal_move",
                        locale,
                        game=game,
                        level=levels[seat],
                        seat=seat + 1,
                        action=action,
                        legal=", ".join(map(str, legal)),
                    )
                )
            state, events = engine.apply(state, seat, action, dice)
            units += sum(1 for e in events if unit and e.public and unit(e))
            actions += 1
            if actions > MAX_ACTIONS:
                raise RuntimeError(t("simulate.endless", locale, game=game, limit=MAX_ACTIONS))
    return outcome, actions, units


class ProgressBar:
    """A one-line progress bar on a terminal stream (stderr); silent when ``enabled`` is False."""

    def __init__(
        self,
        total: int,
        stream: TextIO | None = None,
        *,
        label: str | None = None,
        width: int = 30,
        enabled: bool | None = None,
        min_interval: float = 0.1,
        clock: Callable[[], float] = time.monotonic,
        locale: str = DEFAULT,
    ) -> None:
        self.total = max(total, 0)
        self.stream = stream if stream is not None else sys.stderr
        self.locale = locale
        self.label = t("simulate.progress_label", locale) if label is None else label
        self.width = width
        self.enabled = _isatty(self.stream) if enabled is None else enabled
        self.min_interval = min_interval
        self.clock = clock
        self.start = clock()
        self._last = -math.inf
        self._shown = False

    def line(self, done: int, now: float | None = None) -> str:
        fraction = done / self.total if self.total else 1.0
        filled = round(self.width * fraction)
        elapsed = (self.clock() if now is None else now) - self.start
        bar = "#" * filled + "-" * (self.width - filled)
        text = t(
            "simulate.progress", self.locale, bar=bar, done=done, total=self.total, label=self.label, fraction=fraction
        )
        text += t("simulate.progress_elapsed", self.locale, seconds=elapsed)
        if 0 < done < self.total:
            text += t("simulate.progress_eta", self.locale, seconds=elapsed / done * (self.total - done))
        return text

    def update(self, done: int, force: bool = False) -> None:
        if not self.enabled:
            return
        now = self.clock()
        if not force and now - self._last < self.min_interval and done < self.total:
            return
        self._last = now
        self.stream.write("\r" + self.line(done, now) + "\x1b[K")
        self.stream.flush()
        self._shown = True

    def close(self, done: int | None = None) -> None:
        if not self.enabled:
            return
        self.update(self.total if done is None else done, force=True)
        if self._shown:
            self.stream.write("\n")
            self.stream.flush()


def _isatty(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


def run_simulation(
    game: str,
    levels: Sequence[str],
    games: int,
    options: dict[str, Any] | None = None,
    seed: int | str | None = None,
    *,
    chooser: Chooser | None = None,
    progress: ProgressBar | None = None,
    locale: str = DEFAULT,
) -> SimResult:
    """Play ``games`` games between computer players of ``levels`` (one per seat) and tally them.

    Raises ``KeyError`` for an unknown game, ``InvalidOptions`` / ``ValueError`` for bad options,
    levels or seat counts, and ``RuntimeError`` if a computer player picks an illegal move.
    """
    engine = get_engine(game)
    opts = engine.options(options or {})
    levels = tuple(check_level(level, locale) for level in levels)
    fewest, most = engine.player_range(opts)
    if not fewest <= len(levels) <= most:
        raise ValueError(t("simulate.player_count", locale, game=game, fewest=fewest, most=most, players=len(levels)))
    if games < 1:
        raise ValueError(t("simulate.too_few_games", locale))
    if any(level != RANDOM_LEVEL for level in levels):
        chooser = chooser or default_chooser(game, locale)  # fail before the first game, not inside it
    seed = secrets.randbelow(2**31) if seed is None else seed
    unit_name, unit = LENGTH_UNITS.get(game, (None, None))
    result = SimResult(game, levels, opts.changed(), seed, wins=[0.0] * len(levels), unit=unit_name)
    began = time.perf_counter()
    try:
        for i in range(games):
            dice, rng = SeededDice(f"{seed}:{i}"), random.Random(f"{seed}:{i}:ai")
            outcome, actions, units = play_one(engine, levels, opts, dice, rng, chooser, unit, locale)
            for seat, share in enumerate(credit(outcome, len(levels))):
                result.wins[seat] += share
            result.shared += len(outcome.winners) > 1
            result.actions.append(actions)
            if unit is not None:
                result.units.append(units)
            result.games += 1
            if progress:
                progress.update(i + 1)
    finally:
        result.elapsed = time.perf_counter() - began
        if progress:
            progress.close(result.games)
    return result


# --------------------------------------------------------------------------------------------
# The report


def format_report(result: SimResult, locale: str = DEFAULT) -> str:
    def text(key: str, **params: Any) -> str:
        return t(key, locale, **params)

    opts = ", ".join(f"{k}={v}" for k, v in result.options.items()) or text("simulate.defaults")
    seat, level, wins, rate, interval = (
        text(key)
        for key in (
            "simulate.col_seat",
            "simulate.col_level",
            "simulate.col_wins",
            "simulate.col_rate",
            "simulate.col_interval",
        )
    )
    lines = [
        text(
            "simulate.report_title",
            game=t(f"game.{result.game}", locale),
            games=result.games,
            seats=len(result.levels),
            options=opts,
            seed=result.seed,
        ),
        "",
        f"{seat:>4}  {level:<8} {wins:>8}  {rate:>8}  {interval}",
    ]
    for seat, level in enumerate(result.levels):
        lo, hi = result.interval(seat)
        wins = f"{result.wins[seat]:.2f}".rstrip("0").rstrip(".")
        lines.append(f"{seat + 1:>4}  {level:<8} {wins:>8}  {result.rate(seat):>8.1%}  [{lo:5.1%}, {hi:5.1%}]")
    length = text("simulate.length", actions=result.mean_actions)
    if result.actions:
        length += text("simulate.length_range", min=min(result.actions), max=max(result.actions))
    if result.mean_units is not None:
        unit = text(UNIT_KEYS[result.unit]) if result.unit in UNIT_KEYS else result.unit
        length += text("simulate.length_units", mean=result.mean_units, unit=unit)
    lines += ["", length]
    if result.shared:
        key = "simulate.shared_one" if result.shared == 1 else "simulate.shared_other"
        lines.append(text(key, count=result.shared))
    else:
        lines.append(text("simulate.shared_none"))
    per_game = result.elapsed / result.games * 1000 if result.games else 0.0
    lines.append(text("simulate.time", seconds=result.elapsed, per_game=per_game))
    return "\n".join(lines)


# --------------------------------------------------------------------------------------------
# Command line


def parse_levels(text: str, locale: str = DEFAULT) -> list[str]:
    """``easy,hard`` or ``normal*3,hard`` -> one level per seat (an argparse ``type``)."""
    levels: list[str] = []
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        name, star, count = part.partition("*")
        try:
            times = int(count) if star else 1
            level = check_level(name, locale)
        except ValueError as error:
            raise argparse.ArgumentTypeError(str(error)) from None
        if times < 1:
            raise argparse.ArgumentTypeError(t("simulate.bad_seat_count", locale, part=repr(part)))
        levels += [level] * times
    if not levels:
        raise argparse.ArgumentTypeError(t("simulate.no_levels", locale))
    return levels


def add_option_argument(parser: argparse.ArgumentParser) -> None:
    """``--option name=value`` (repeatable): shared by ``simulate`` and ``play``."""
    parser.add_argument(
        "--option",
        "-o",
        type=parse_option,
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a game option, e.g. --option target=50 (repeatable)",
    )


def add_arguments(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    parser.add_argument("game", help="pig, mia, mex, liar or mythic")
    parser.add_argument("--games", "-n", type=int, default=1000, help="how many games to play (default 1000)")
    parser.add_argument(
        "--players",
        "-p",
        type=parse_levels,
        required=True,
        metavar="LEVEL,LEVEL,...",
        help=(
            "one computer level per seat, e.g. easy,hard or normal*3,hard "
            "(levels: easy, normal, hard, and random = uniform random legal moves)"
        ),
    )
    add_option_argument(parser)
    parser.add_argument("--seed", help="make the run reproducible (default: random, printed in the report)")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    parser.set_defaults(handler=main_from_args)
    return parser


def main_from_args(args: argparse.Namespace, out: TextIO | None = None, err: TextIO | None = None) -> int:
    out = out or sys.stdout
    err = err or sys.stderr
    locale = getattr(args, "locale", DEFAULT)

    def error(message: object) -> int:
        print(t("simulate.error", locale, message=message), file=err)
        return 2

    game = args.game.strip().lower()
    if game not in available_games():
        return error(t("simulate.unknown_game", locale, game=repr(game), games=", ".join(available_games())))
    seed: int | str | None = args.seed
    if isinstance(seed, str) and (number := parse_int(seed, signed=True)) is not None:
        seed = number  # else a text seed, used as it is ("²" is text, not a number)
    bar = None if args.no_progress else ProgressBar(args.games, err, locale=locale)
    try:
        result = run_simulation(
            game, args.players, args.games, options_dict(args.option), seed, progress=bar, locale=locale
        )
    except InvalidOptions as problem:
        return error(t("simulate.invalid_option", locale, error=option_error_text(problem, locale)))
    except (ValueError, RuntimeError) as problem:
        return error(problem)
    except KeyboardInterrupt:
        print("\n" + t("simulate.interrupted", locale), file=err)
        return 130
    print(format_report(result, locale), file=out)
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="dicetavern simulate", description="Play computer players against each other and report win rates."
    )
    return add_arguments(parser)


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return main_from_args(args)


if __name__ == "__main__":
    raise SystemExit(main())
