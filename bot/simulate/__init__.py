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

The package: ``runner`` plays the games (and holds the computer's move, shared with the terminal),
``stats`` tallies them, ``report`` words the result through the catalog, ``progress`` draws the bar,
``command`` is the command line.
"""

from bot.simulate.command import (
    add_arguments,
    add_option_argument,
    build_parser,
    main,
    main_from_args,
    options_dict,
    parse_levels,
    parse_option,
)
from bot.simulate.progress import ProgressBar, isatty
from bot.simulate.report import UNIT_KEYS, format_report
from bot.simulate.runner import (
    DEFAULT_LEVELS,
    LENGTH_UNITS,
    MAX_ACTIONS,
    RANDOM_LEVEL,
    Chooser,
    check_level,
    computer_move,
    default_chooser,
    known_levels,
    play_one,
    run_simulation,
)
from bot.simulate.stats import Z95, SimResult, credit, wilson

__all__ = [
    "DEFAULT_LEVELS",
    "LENGTH_UNITS",
    "MAX_ACTIONS",
    "RANDOM_LEVEL",
    "UNIT_KEYS",
    "Z95",
    "Chooser",
    "ProgressBar",
    "SimResult",
    "isatty",
    "add_arguments",
    "add_option_argument",
    "build_parser",
    "check_level",
    "computer_move",
    "credit",
    "default_chooser",
    "format_report",
    "known_levels",
    "main",
    "main_from_args",
    "options_dict",
    "parse_levels",
    "parse_option",
    "play_one",
    "run_simulation",
    "wilson",
]
