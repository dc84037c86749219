"""The game registry (bot/games/registry.py): every list of games is derived from it, every registered game has
everything a game needs on every layer, and each game's ``/… new`` command offers exactly its engine's ``Options``."""

from __future__ import annotations

import dataclasses
import random
import typing
from importlib import import_module
from types import SimpleNamespace
from typing import Any

import pytest
from discord import AppCommandOptionType, app_commands

import bot.ai
import bot.simulate
from bot.games import GAME_MODULES, InvalidOptions, available_games, get_engine
from bot.games.base import check_choice, check_range
from bot.games.dice import SeededDice
from bot.games.registry import GameSpec, game_ids, spec, specs
from bot.i18n import catalog, has
from bot.render import body_lines, game_module
from cogs.utils.gamecog import GameCog
from cogs.utils.games import game_choices

SHIPPED = ("pig", "mia", "mex", "liar", "mythic")  # in the order players see them
OPTION_TYPES = {bool: AppCommandOptionType.boolean, int: AppCommandOptionType.integer, str: AppCommandOptionType.string}
GAMES = [s.id for s in specs()]


def game_cog(game: str) -> type[GameCog]:
    module = import_module(spec(game).cog)
    found = [c for c in vars(module).values() if isinstance(c, type) and issubclass(c, GameCog) and c.game == game]
    assert len(found) == 1, f"{spec(game).cog} should define one GameCog for {game}"
    return found[0]


def new_command(game: str) -> app_commands.Command[Any, ..., Any]:
    commands = {c.name: c for c in game_cog(game).__cog_app_commands__}
    assert "new" in commands, f"/{game} has no new"
    return commands["new"]


# --- the registry and the lists derived from it ------------------------------------------------


def test_every_shipped_game_is_registered_in_order():
    # A game module that fails to import is logged and left out of the registry: this is what notices.
    assert game_ids() == SHIPPED
    assert available_games() == list(SHIPPED)


def test_every_list_of_games_is_the_registry():
    assert list(GAME_MODULES) == list(SHIPPED)
    assert GAME_MODULES["liar"] == "bot.games.liars_dice"  # the engine module may be named otherwise
    assert list(bot.ai.PLAYER_MODULES) == list(SHIPPED)
    assert list(bot.simulate.LENGTH_UNITS) == list(SHIPPED)
    assert [c.value for c in game_choices()] == list(SHIPPED)
    assert [c.name for c in game_choices(named=True)][3] == "Liar's Dice"


@pytest.mark.parametrize(
    ("module_name", "name"), [("cogs.stats", "leaderboard"), ("cogs.settings", "options"), ("cogs.help", "help")]
)
def test_game_choices_of_the_shared_commands_come_from_the_registry(module_name, name):
    module = import_module(module_name)
    cog = next(c for c in vars(module).values() if isinstance(c, type) and hasattr(c, "__cog_app_commands__"))
    found = next(c for c in cog.__cog_app_commands__ if c.name == name)
    (game,) = [p for p in found.parameters if p.name == "game"]
    assert [c.value for c in game.choices] == list(SHIPPED)


def test_spec_reads_the_engine_and_names_the_upper_layers_by_convention():
    liar = spec("liar")
    assert (liar.id, liar.module, liar.name_key, liar.catalog) == ("liar", "bot.games.liars_dice", "game.liar", "liar")
    assert (liar.renderer, liar.player, liar.cog) == ("bot.render.liar", "bot.ai.liar_player", "cogs.liar")
    assert liar.engine is get_engine("liar") and liar.options is get_engine("liar").Options
    assert spec("mythic").players == (3, 6)
    assert [s.id for s in specs() if s.scored] == ["pig", "mex", "mythic"]
    assert [s.id for s in specs() if s.neutral_results] == ["liar"]
    assert [s.id for s in specs() if not s.hidden_information] == ["pig", "mex"]
    with pytest.raises(KeyError, match="unknown game 'chess'"):
        spec("chess")


def test_an_explicit_module_path_overrides_the_convention():
    custom = GameSpec(get_engine("pig"), order=9, length_unit="turns", starts_unit=bool, renderer="x.render")
    assert (custom.renderer, custom.player, custom.cog) == ("x.render", "bot.ai.pig_player", "cogs.pig")


# --- every registered game has what every layer needs -------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_every_game_has_a_renderer_and_a_computer_player_that_play_its_opening(game):
    check_renderer_and_player(game)


@pytest.mark.parametrize("game", GAMES)
def test_every_game_has_its_catalog_entries(game):
    check_catalog_entries(game)


@pytest.mark.parametrize("game", GAMES)
def test_every_command_text_of_the_game_is_a_catalog_text(game):
    check_command_texts(game)


# The checks above, by game id (tests/test_sixth_game.py runs them on a game registered from outside bot/games).


def check_renderer_and_player(game: str) -> None:
    """The game's renderer draws its opening and its computer and reference players pick a legal first move."""
    engine = get_engine(game)
    players = spec(game).players[0]
    state, _ = engine.new_game(players, engine.options(), SeededDice(7))
    renderer, player = game_module(game), import_module(spec(game).player)
    names = [f"P{i}" for i in range(players)]
    assert len(renderer.layout(engine.view(state, None), names, "en").seats) == players  # one entry per seat
    assert all(isinstance(line, str) for line in body_lines(game, engine.view(state, None), names, "en"))
    assert isinstance(list(renderer.controls(engine.view(state, None))), list)
    (seat, *_) = engine.to_act(state)
    legal = engine.legal_actions(state, seat)
    assert player.choose(engine.view(state, seat), "normal", random.Random(1), None) in legal
    assert bot.ai.choose(game, engine.view(state, seat), "ref:sensible", random.Random(1)) in legal


def check_catalog_entries(game: str) -> None:
    """The game's name, rules, timeout text and length unit read from the catalog."""
    s = spec(game)
    for key in (s.name_key, f"{s.catalog}.rules", f"{s.catalog}.timeout_default"):
        assert has(key, "en"), key
    assert s.length_unit in bot.simulate.UNIT_KEYS and has(bot.simulate.UNIT_KEYS[s.length_unit], "en")


def check_command_texts(game: str) -> None:
    """Descriptions are catalog texts (a missing key would show as the key itself), so the translator finds them."""
    english = {text for text in catalog("en").values() if isinstance(text, str)}
    cog = game_cog(game)
    assert cog.__cog_group_name__ == game
    texts = {f"/{game}": cog.__cog_group_description__}
    for command in cog.__cog_app_commands__:
        texts[f"/{game} {command.name}"] = command.description
        texts.update({f"/{game} {command.name} {p.name}": p.description for p in command.parameters})
    assert {where: text for where, text in texts.items() if text not in english} == {}


# --- /<game> new matches the engine's Options -----------------------------------------------------


def option_fields(game: str) -> dict[str, tuple[type, tuple[str, Any] | None]]:
    """Field name -> (its type, its declared domain or None), from the engine's Options."""
    options = get_engine(game).Options
    hints = typing.get_type_hints(options)
    declared = options.declared()
    return {f.name: (hints[f.name], declared.get(f.name)) for f in dataclasses.fields(options)}


# What /<game> new takes for the table rather than the game: the table's language (the same for every game).
TABLE_PARAMETERS = {"language"}


def parameter_mismatches(game: str, parameters: dict[str, Any] | None = None) -> list[str]:
    """Every way ``/<game> new`` (or the given ``parameters``) differs from ``Options``: names, types, choices,
    ranges (empty: they agree)."""
    fields = option_fields(game)
    parameters = parameters if parameters is not None else {p.name: p for p in new_command(game).parameters}
    parameters = {k: v for k, v in parameters.items() if k not in TABLE_PARAMETERS}
    problems = [f"{name}: an option /{game} new lacks" for name in fields.keys() - parameters.keys()]
    problems += [f"{name}: not an option of {game}" for name in parameters.keys() - fields.keys()]
    defaults = get_engine(game).options()
    for name in fields.keys() & parameters.keys():
        kind, domain = fields[name]
        p = parameters[name]
        if p.required:
            problems.append(f"{name}: required, but the option has a default")
        if p.type != OPTION_TYPES[kind]:
            problems.append(f"{name}: {p.type.name}, but the option is {kind.__name__}")
        choices = sorted(c.value for c in p.choices)
        bounds = (p.min_value, p.max_value)
        if domain is not None and domain[0] == "choices":
            if choices != sorted(domain[1]):
                problems.append(f"{name}: choices {choices}, but the option takes {sorted(domain[1])}")
        elif domain is not None:
            if choices or bounds != domain[1]:
                problems.append(f"{name}: range {bounds} choices {choices}, but the option takes {domain[1]}")
        elif choices:
            problems.append(f"{name}: choices {choices} for an option that declares none")
        elif kind is int:
            problems.append(f"{name}: a whole number option must declare its range (``whole``)")
        elif kind is str and bounds != (None, None):  # free text: a length limit, which the default must fit
            lo, hi = (bound or 0 for bound in bounds)
            if not lo <= len(getattr(defaults, name)) <= (hi or 6000):
                problems.append(f"{name}: length {bounds} refuses the default {getattr(defaults, name)!r}")
    return sorted(problems)


@pytest.mark.parametrize("game", GAMES)
def test_new_command_offers_exactly_the_options(game):
    assert parameter_mismatches(game) == []


def test_a_changed_parameter_is_noticed(monkeypatch):
    """The check above can fail: a choice, a range, a type, a name or a missing option out of step."""
    keep = ("name", "type", "choices", "min_value", "max_value", "required")
    parameters = {p.name: SimpleNamespace(**{k: getattr(p, k) for k in keep}) for p in new_command("liar").parameters}
    assert parameter_mismatches("liar", parameters) == []
    for name, attribute, value in (
        ("mode", "choices", [app_commands.Choice(name=v, value=v) for v in ("single", "loot")]),
        ("dice_per_player", "max_value", 5),
        ("wild_ones", "type", AppCommandOptionType.string),
        ("max_rounds", "required", True),
        ("raise_rule", "choices", []),
    ):
        with monkeypatch.context() as patch:
            patch.setattr(parameters[name], attribute, value)
            (problem,) = parameter_mismatches("liar", parameters)
            assert problem.startswith(f"{name}:")
    assert parameter_mismatches("liar", {k: v for k, v in parameters.items() if k != "mode"}) == [
        "mode: an option /liar new lacks"
    ]
    with monkeypatch.context() as patch:
        fields = option_fields("liar")
        patch.setattr(f"{__name__}.option_fields", lambda game: {**fields, "extra": (bool, None)})
        assert parameter_mismatches("liar") == ["extra: an option /liar new lacks"]


def accepted(options: type, name: str, value: Any) -> bool:
    """``value`` is taken for ``name`` with the other options at their defaults, or beside some other declared
    choice (Liar's Dice's ``starter=winner`` needs a multi-round ``mode``)."""
    contexts = [{}] + [
        {other: v}
        for other, (kind, domain) in options.declared().items()
        if other != name and kind == "choices"
        for v in domain
    ]
    for context in contexts:
        try:
            options.from_dict({**context, name: value})
        except InvalidOptions:
            continue
        return True
    return False


def domain_refusal(name: str, kind: str, domain: Any, value: Any) -> str:
    """The refusal the declared domain gives ``value`` (what ``check_declared`` raises)."""
    with pytest.raises(InvalidOptions) as refused:
        check_choice(name, value, domain) if kind == "choices" else check_range(name, value, *domain)
    return str(refused.value)


@pytest.mark.parametrize("game", GAMES)
def test_options_enforce_their_declared_domains(game):
    check_declared_domains(game)


def check_declared_domains(game: str) -> None:
    """What the test above compares against is what ``Options`` validates: every declared value is taken (beside
    the right other options), and a value outside is refused by the declaration."""
    options = get_engine(game).Options
    for name, (kind, domain) in options.declared().items():
        if kind == "choices":
            allowed, outside = domain, ((max(domain) + 1,) if isinstance(domain[0], int) else ("no-such-choice",))
        else:
            allowed, outside = (domain[0], domain[1]), (domain[0] - 1, domain[1] + 1)
        assert [value for value in allowed if not accepted(options, name, value)] == [], name
        for value in outside:
            with pytest.raises(InvalidOptions) as refused:
                options.from_dict({name: value})
            assert (refused.value.option, str(refused.value)) == (name, domain_refusal(name, kind, domain, value))


# --- computer players' preparation: through the game's player module -------------------------------


def test_prepare_starts_only_what_the_games_player_needs(monkeypatch, caplog):
    from bot.ai import pig_player

    started: list[Any] = []
    monkeypatch.setattr(pig_player, "solve_in_background", started.append)
    bot.ai.prepare("pig", {"dice": 2}, ["normal", "easy"])  # no hard computer: nothing to solve
    bot.ai.prepare("mia", {}, ["hard"])  # a game whose player needs nothing
    bot.ai.prepare("pig", {"dice": 2}, [])
    assert started == []
    bot.ai.prepare("pig", {"dice": 2}, ["normal", "expert"])
    assert started == [{"dice": 2}]

    def broken(options: Any) -> None:
        raise RuntimeError("no solver today")

    monkeypatch.setattr(pig_player, "solve_in_background", broken)
    with caplog.at_level("ERROR", logger="bot.ai"):
        bot.ai.prepare("pig", {}, ["hard"])  # logged, never raised: a table must not stop for it
        bot.ai.prepare("chess", {}, ["hard"])
    assert [r.getMessage() for r in caplog.records] == [
        "could not prepare the pig computer players",
        "could not prepare the chess computer players",
    ]
