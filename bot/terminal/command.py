"""``dicetavern play``'s command line: its arguments, and running a game with Ctrl-C and a closed pipe handled."""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from typing import TextIO

from bot.games import available_games
from bot.i18n import t
from bot.languages import SHIPPED, from_environment
from bot.simulate import add_option_argument, known_levels, options_dict
from bot.terminal.console import InputFn, OutputFn
from bot.terminal.game import DEFAULT_PAUSE, play

PLAY_DESCRIPTION = """\
Play a Dice Tavern game in the terminal against computer players, with the
same rules and table service as on Discord.

At the prompt, type a move by its number or its words (roll, end round,
griffin ...), a Liar's Dice bid as quantity and face (3x5 or 3 5), or a Mia
value (53, mia). 'rules' shows this table's rules, 'help' the commands, 'quit'
(or Ctrl-D) leaves; Tab completes a move's words."""

PLAY_EPILOG = """\
examples:
  dicetavern play pig --players 3 --level hard -o target=50
  dicetavern play liar --level easy,hard -o raise_rule=pirates
      (you and two computer players, one easy and one hard)
  dicetavern play mythic --players 4 --seed 7"""


def add_arguments(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    parser.description = parser.description or PLAY_DESCRIPTION
    parser.epilog = parser.epilog or PLAY_EPILOG
    parser.formatter_class = argparse.RawDescriptionHelpFormatter  # keep the examples' lines
    parser.add_argument("game", help=", ".join(available_games()))
    parser.add_argument(
        "--players",
        "-p",
        type=int,
        metavar="N",
        help="seats in all, you included (default: one computer player per level of a --level list; "
        "else 2, or the game's minimum)",
    )
    parser.add_argument(
        "--level",
        "-l",
        default="normal",
        metavar="LEVEL[,LEVEL...]",
        help=f"the computer players' level ({', '.join(known_levels())}; default normal) for all of them, "
        "or a list with one level per computer player, e.g. easy,hard",
    )
    add_option_argument(parser)
    parser.add_argument("--seed", help="reproducible dice and computer choices")
    parser.add_argument(
        "--pause",
        type=float,
        default=DEFAULT_PAUSE,
        help=f"seconds before each computer move (default {DEFAULT_PAUSE})",
    )
    parser.add_argument("--name", help="your name at the table (default: the word for 'player' in the game's language)")
    parser.add_argument(
        "--export",
        metavar="FILE",
        help="when the game is over, write it to FILE as /game export does, for `dicetavern verify FILE`",
    )
    default = from_environment()  # LANG=cy_GB.UTF-8 and the like; English if the environment's is not shipped
    parser.add_argument(
        "--locale",
        default=default,
        choices=SHIPPED,
        help=t("terminal.opt_locale", default, locales=", ".join(SHIPPED)).replace("%", "%%"),
    )
    parser.set_defaults(handler=main_from_args)
    return parser


def main_from_args(
    args: argparse.Namespace, input: InputFn | TextIO | None = None, output: OutputFn | TextIO | None = None
) -> int:
    coro = play(
        args.game,
        args.players,
        args.level,
        options_dict(args.option),
        args.seed,
        input=input,
        output=output,
        pause=max(0.0, args.pause),
        name=args.name,
        locale=args.locale,
        export=args.export,
    )
    # Not asyncio.run: its SIGINT handler would swallow the first Ctrl-C while input() blocks.
    loop = asyncio.new_event_loop()
    task = loop.create_task(coro)
    try:
        return loop.run_until_complete(task)
    except KeyboardInterrupt:  # during a computer's pause: let the game close its store, then go
        task.cancel()
        try:
            loop.run_until_complete(task)
        except BaseException:  # noqa: BLE001 - the cancellation we asked for
            pass
        print("\n" + t("terminal.interrupted", args.locale), file=sys.stderr)
        return 130
    except BrokenPipeError:  # the output went to a pager or `head` that has closed
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no second error at exit
        return 1
    finally:
        loop.run_until_complete(loop.shutdown_asyncgens())
        loop.close()


def build_parser() -> argparse.ArgumentParser:
    return add_arguments(argparse.ArgumentParser(prog="dicetavern play"))


def main(argv: list[str] | None = None) -> int:
    return main_from_args(build_parser().parse_args(argv))
