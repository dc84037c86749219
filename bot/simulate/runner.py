"""Playing computer players against each other straight on the engines, and the computer's move.

The levels, the chooser and ``computer_move`` are shared with the terminal (``bot.terminal.game``).
"""

from __future__ import annotations

import random
import secrets
import time
from collections.abc import Callable, Sequence
from typing import Any

from bot.games import Action, Engine, Event, Outcome, get_engine
from bot.games.dice import SeededDice
from bot.games.registry import specs
from bot.i18n import DEFAULT, t
from bot.simulate.progress import ProgressBar
from bot.simulate.stats import SimResult, credit

Chooser = Callable[..., Action]  # choose(game, view, level, rng, legal=None) -> Action

DEFAULT_LEVELS = ("easy", "normal", "hard")
RANDOM_LEVEL = "random"  # a uniform random legal move: a baseline, handled here, not by bot.ai
MAX_ACTIONS = 100_000  # per game: an engine or AI that never ends a game is a bug, not a long game

# The natural unit of a game's length, as its spec declares it: (plural name, the public event that starts one).
# The name is data (``SimResult.unit``); the report shows it through the catalog key in ``report.UNIT_KEYS`` (a
# unit not listed there prints as its name; tests/test_registry.py asks for a key for every declared unit).
LENGTH_UNITS: dict[str, tuple[str, Callable[[Event], bool]]] = {s.id: (s.length_unit, s.starts_unit) for s in specs()}


def known_levels(reference: bool = False, game: str | None = None) -> tuple[str, ...]:
    """The computer levels ``bot.ai`` offers (``easy, normal, hard`` until it says otherwise), plus ``random``;
    with ``reference``, the reference players ``ref:<kind>`` too (of ``game`` when given)."""
    try:
        import bot.ai as ai

        levels = tuple(getattr(ai, "LEVELS", DEFAULT_LEVELS))
        if reference:
            from bot.ai import reference as refs

            games = [game] if game is not None and game in refs.MODULES else list(refs.MODULES)
            kinds = dict.fromkeys(k for g in games for k in refs.kinds(g))
            levels += tuple(refs.PREFIX + k for k in kinds)
    except ImportError:
        levels = DEFAULT_LEVELS
    return (*levels, RANDOM_LEVEL)


def check_level(level: str, locale: str = DEFAULT, *, reference: bool = False, game: str | None = None) -> str:
    """A level name in canonical form (``bot.ai``'s aliases such as ``expert`` accepted); ValueError if unknown.

    With ``reference`` (simulations only, never a table or the terminal), the reference players
    ``ref:<kind>`` of :mod:`bot.ai.reference` are accepted too: any kind some game has, or with
    ``game`` one of that game's kinds.
    """
    name = level.strip().lower()
    if name == RANDOM_LEVEL:
        return name
    unknown = t("simulate.unknown_level", locale, level=repr(level), levels=", ".join(known_levels(reference, game)))
    try:
        from bot.ai import normalise_level
        from bot.ai import reference as refs

        if reference and refs.is_reference(name):
            return refs.normalise(game, name)
        return normalise_level(name)
    except ImportError:
        pass
    except (ValueError, KeyError):
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
    levels = tuple(check_level(level, locale, reference=True, game=game) for level in levels)
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
