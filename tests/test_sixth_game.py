"""docs/ADDING_A_GAME.md, followed: a sixth game (High Roll, tests/sixth_game/) registered from its own package gets
every check the shipped games get (the engine contract, the registry's, the catalog's in all seven languages) and
plays to the end in the terminal. The registration is undone after each test, so no other test sees it."""

from __future__ import annotations

import random
from collections.abc import Iterator
from importlib import import_module

import pytest

import bot.ai
import bot.games
from bot import i18n
from bot.ai import reference
from bot.games import available_games, get_engine, registry
from bot.games.dice import ScriptedDice
from bot.render import table_text
from bot.tables.model import Seat, Table
from bot.terminal import play
from cogs.utils.games import game_choices
from tests.games import contract
from tests.sixth_game.engine import ROLL, SPEC
from tests.test_catalog import event_problems, played_events
from tests.test_i18n import SHIPPED as LANGUAGES
from tests.test_i18n import length_problems, parity_problems
from tests.test_registry import (
    check_catalog_entries,
    check_command_texts,
    check_declared_domains,
    check_renderer_and_player,
    parameter_mismatches,
)

GAME = "highroll"


@pytest.fixture(autouse=True)
def sixth_game() -> Iterator[None]:
    registry.register(SPEC)
    try:
        yield
    finally:
        registry.unregister(GAME)


# --- the registry: every list of games has it, and nothing of it stays behind ------------------------------------


def test_every_list_of_games_has_the_sixth_game_last():
    assert available_games()[-1] == GAME and len(available_games()) == 6
    assert list(bot.games.GAME_MODULES)[-1] == GAME and bot.games.GAME_MODULES[GAME] == "tests.sixth_game.engine"
    assert bot.ai.PLAYER_MODULES[GAME] == "tests.sixth_game.player"
    assert reference.MODULES[GAME] == "tests.sixth_game.reference" and reference.kinds(GAME) == ("sensible",)
    assert [c.value for c in game_choices()][-1] == GAME
    assert [c.name for c in game_choices(named=True)][-1] == "High Roll"


def test_unregistering_removes_the_game_and_its_texts():
    assert i18n.t("game.highroll", "de") == "Hoher Wurf"
    before = i18n.generation()
    registry.unregister(GAME)
    try:
        assert GAME not in available_games() and len(available_games()) == 5
        assert i18n.generation() != before  # the catalog's memos (and every cache keyed on it) start again
        assert not i18n.has("game.highroll") and "highroll.rules" not in i18n.catalog("en")
        with pytest.raises(KeyError):
            get_engine(GAME)
        with pytest.raises(KeyError):
            registry.unregister(GAME)
    finally:
        registry.register(SPEC)
    with pytest.raises(ValueError, match="already registered"):
        registry.register(SPEC)


def test_the_registry_checks():
    check_renderer_and_player(GAME)
    check_catalog_entries(GAME)
    check_command_texts(GAME)
    assert parameter_mismatches(GAME) == []
    check_declared_domains(GAME)


def test_its_computer_players_need_no_preparation():
    bot.ai.prepare(GAME, {}, ["hard"])  # the player module has no prepare hook: nothing to start, nothing raised


# --- the engine contract ----------------------------------------------------------------------------------------


def test_the_engine_contract():
    contract.check_options(GAME)
    contract.check_player_count(GAME)
    contract.check_new_game(GAME)
    contract.check_timeout(GAME)
    contract.check_forfeit(GAME)
    contract.check_state_copies(GAME)
    contract.check_open_information(GAME)
    contract.check_neutral_results(GAME, [{}, {"ties": "share"}])
    for seed in range(20):
        contract.check_random_game(GAME, 2 + seed % 5, seed)
    assert any(contract.public_actions_offered(GAME, 3, seed) for seed in range(3))


def test_the_rules_its_engine_plays():
    engine = get_engine(GAME)
    state, _ = engine.new_game(3, engine.options(), ScriptedDice())
    for seat, face in ((0, 5), (1, 6), (2, 6)):  # seats 1 and 2 tie for the top: they roll again
        state, events = engine.apply(state, seat, ROLL, ScriptedDice([face]))
    assert [e.kind for e in events] == ["roll", "reroll"] and events[-1].data == {"players": [1, 2], "face": 6}
    assert engine.to_act(state) == (1,) and engine.legal_actions(state, 0) == []
    state, _ = engine.apply(state, 1, ROLL, ScriptedDice([2]))
    state, events = engine.apply(state, 2, ROLL, ScriptedDice([4]))
    assert events[-1].data == {"winners": [2], "face": 4}
    assert engine.outcome(state).ranking == ((2,), (0,), (1,))  # then by each seat's latest roll
    shared, _ = engine.new_game(2, engine.options({"ties": "share"}), ScriptedDice())
    for seat in (0, 1):
        shared, events = engine.apply(shared, seat, ROLL, ScriptedDice([3]))
    assert engine.outcome(shared).winners == (0, 1)


# --- the catalog: every language, through the guide's locales folder -----------------------------------------------


@pytest.mark.parametrize("locale", [code for code in LANGUAGES if code != "en"])
def test_every_language_has_every_text_of_the_game(locale):
    assert any(key.startswith("highroll.") for key in i18n.catalog(locale))  # read from tests/sixth_game/locales
    assert parity_problems(locale, i18n.catalog("en"), i18n.catalog(locale)) == []
    assert length_problems(locale, i18n.catalog(locale)) == []


@pytest.mark.parametrize("locale", LANGUAGES)
def test_every_event_it_plays_fills_its_template(locale):
    events = [*played_events(GAME), ("forfeit", {"player": 1})]  # random games here rarely last to a forfeit
    assert {kind for kind, _ in events} == {"start", "roll", "reroll", "win", "forfeit"}
    effective = {**i18n.catalog("en"), **i18n.catalog(locale)}
    assert event_problems(GAME, effective, events, locale) == []


def test_a_missing_translation_falls_back_to_english():
    with i18n.overridden({"cy": {"highroll.roll_button": None}}):
        assert i18n.t("highroll.roll_button", "cy") == "Roll"
    assert i18n.t("highroll.roll_button", "cy") == "Rholio"


def test_the_table_message_draws_it():
    engine = get_engine(GAME)
    seats = [Seat(11, "ann"), Seat(-1, "Tilly", "easy")]
    table = Table(1, 1, 101, GAME, "running", 11, {}, seats)
    table.state, _ = engine.new_game(2, engine.options(), ScriptedDice())
    table.state, _ = engine.apply(table.state, 0, ROLL, ScriptedDice([4]))
    text = table_text(table, "de")
    assert text.title == "🎲 Hoher Wurf — läuft"
    assert text.head == ["Runde **1** · der höchste Wurf gewinnt"]
    assert text.seats == ["▫️ **ann**: ⚃4", "▶️ **🤖 Tilly**: —"] and text.turn == 1 and text.foot == []
    assert text.body == [*text.head, "", *text.seats]
    assert import_module(SPEC.renderer).controls(engine.view(table.state, None))[0].action == "roll"


# --- a terminal game, played to the end ----------------------------------------------------------------------------


async def test_a_terminal_game_against_computer_players_to_the_end():
    lines: list[str] = []
    answers = iter(["1"] * 50)
    code = await play(
        GAME, 3, "easy", seed=4, input=lambda prompt: next(answers), output=lines.append, pause=0, name="Ann", width=100
    )
    assert code == 0
    assert lines[0] == "High Roll: Ann against 2 computer players (easy, easy)."
    assert "  1) Roll" in lines  # the menu reads the game's button label from its catalog
    assert "Ann rolled ⚂3" in lines and "🏆 🤖 Tipsy Tilly won with a 4!" in lines  # the log, as the terminal draws it
    assert lines[-2].startswith("🏁 Result: 1. 🤖 Tipsy Tilly (4) · 2. Ann (3)")


def test_a_computer_game_through_the_reference_player():
    engine = get_engine(GAME)
    rng = random.Random(3)
    state, _ = engine.new_game(4, engine.options(), ScriptedDice())
    while not engine.is_over(state):
        (seat,) = engine.to_act(state)
        action = bot.ai.choose(GAME, engine.view(state, seat), "ref:sensible", rng)
        state, _ = engine.apply(state, seat, action, ScriptedDice([rng.randint(1, 6)]))
    assert engine.outcome(state).winners
