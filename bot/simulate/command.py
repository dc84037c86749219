"""``dicetavern simulate``'s command line; ``--option`` parsing is shared with ``dicetavern play``."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from bot.games import InvalidOptions, available_games
from bot.games.parsing import parse_int
from bot.i18n import DEFAULT, t
from bot.render import option_error_text
from bot.simulate.progress import ProgressBar
from bot.simulate.report import format_report
from bot.simulate.runner import check_level, run_simulation


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
            level = check_level(name, locale, reference=True)
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
    parser.add_argument("game", help=" or ".join(", ".join(available_games()).rsplit(", ", 1)))
    parser.add_argument("--games", "-n", type=int, default=1000, help="how many games to play (default 1000)")
    parser.add_argument(
        "--players",
        "-p",
        type=parse_levels,
        required=True,
        metavar="LEVEL,LEVEL,...",
        help=(
            "one computer level per seat, e.g. easy,hard or normal*3,hard "
            "(levels: easy, normal, hard, random = uniform random legal moves, "
            "and the reference players ref:sensible etc., see docs/AI.md)"
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
