"""``dicetavern play``: scripted terminal games through the real table service and store."""

from __future__ import annotations

import io
import re
from pathlib import Path
from string import Formatter

import pytest

import bot.i18n
import bot.render
from bot import terminal
from bot.games import Action, Event
from bot.i18n import catalog, t
from bot.tables import Seat, Table
from bot.terminal import TerminalPresenter, action_menu, match_action, play, resolve_levels


class Script:
    """An ``input()`` stand-in: the scripted answers first, then ``then`` for every later prompt."""

    def __init__(self, answers: list[str] = (), then: str | None = "1", limit: int = 3000) -> None:
        self.answers = list(answers)
        self.then = then
        self.limit = limit
        self.prompts: list[str] = []

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        assert len(self.prompts) < self.limit, "the game did not end"
        if self.answers:
            return self.answers.pop(0)
        if self.then is None:
            raise EOFError
        return self.then


async def run(game: str, script: Script, **kwargs) -> tuple[int, list[str]]:
    lines: list[str] = []
    kwargs.setdefault("seed", 1)
    code = await play(game, input=script, output=lines.append, pause=0, name="Ann", width=100, **kwargs)
    return code, lines


def after(lines: list[str], text: str) -> list[str]:
    """The lines after the first one containing ``text``."""
    for i, line in enumerate(lines):
        if text in line:
            return lines[i + 1 :]
    raise AssertionError(f"{text!r} not in the output")


async def test_pig_game_against_a_computer_player_to_the_end():
    script = Script(["hold", "banana", "7", "", "help", "roll"])
    code, lines = await run("pig", script, level="normal", options={"target": "30"})
    text = "\n".join(lines)
    assert code == 0
    # the prompt lists the legal actions, numbered
    assert "Your move — 1 choice:" in text and "  1) roll" in lines
    assert "  1) roll   2) hold" in lines
    assert script.prompts[0] == "Your move [1] > "
    # invalid input: a clear message, then the same prompt again
    assert "✗ You must roll at least once before you hold." in text
    assert "✗ That is not a legal move now." in text and "  Your moves: roll (or their numbers 1)." in text
    assert "✗ There is no move 7: choose 1, or type a move." in text
    assert "Type a number (1) or a move such as roll; 'quit' leaves." in text
    assert script.prompts[:6] == ["Your move [1] > "] * 6
    # the table body is drawn for seat 0, and the game ends with a result line
    assert "── 🎲 Pig — in play" in text and "── 🎲 Pig — finished" in text
    assert "First to 30 wins · 1 die/dice" in text
    result = [line for line in lines if line.startswith("🏁 Result: ")]
    assert len(result) == 1 and "Ann" in result[0] and "🤖" in result[0]
    assert lines[-1] in ("🏆 You win!", "You lost this one. Another game?")
    assert lines[-2] == result[0]


async def test_typed_actions_and_prefixes_are_accepted():
    # "roll" typed out; "ho" is an unambiguous prefix of "hold" once holding is legal
    prompts: list[str] = []

    def answer(prompt: str) -> str:
        prompts.append(prompt)
        return "ho" if prompt == "Your move [1-2] > " else "roll"

    code, lines = await run("pig", answer, level="easy", options={"target": "20"}, seed=3)
    assert code == 0
    assert "Your move [1-2] > " in prompts
    assert [line for line in lines if line.startswith("Ann banks")], "\n".join(lines)
    assert not [line for line in lines if line.startswith("✗")]


async def test_play_is_deterministic_with_a_seed():
    first = await run("pig", Script(), level="normal", options={"target": "40"}, seed=11)
    second = await run("pig", Script(), level="normal", options={"target": "40"}, seed=11)
    assert first == second


async def test_mia_game_against_a_computer_player_to_the_end():
    script = Script(["fly", "claim:99", "0"])
    code, lines = await run("mia", script, level="normal", options={"lives": "2"}, seed=2)
    text = "\n".join(lines)
    assert code == 0
    assert "── 🎲 Mia — in play" in text and "── 🎲 Mia — finished" in text
    # the menus number the legal moves (claims while announcing, challenge/roll while responding)
    assert any(") claim:" in line for line in lines)
    assert any(") challenge" in line for line in lines)
    # invalid input is explained and the prompt repeats
    errors = [line for line in lines if line.startswith("✗ ")]
    assert len(errors) == 3, errors
    assert "✗ There is no move 0" in errors[2]
    assert script.prompts[0] == script.prompts[1] == script.prompts[2] == script.prompts[3]
    # the person's own dice are shown privately; the result line ends the game
    assert any(line.startswith("🔒 ") for line in lines)
    assert sum(line.startswith("🏁 Result: ") for line in lines) == 1


async def test_three_players_with_one_level_each():
    code, lines = await run("pig", Script(), players=3, level="easy,hard", options={"target": "25"})
    assert code == 0
    assert "Pig: Ann against 2 computer player(s) (easy, hard)." in lines
    result = next(line for line in lines if line.startswith("🏁 Result: "))
    assert result.count("🤖") == 2


async def test_quit_and_end_of_input_leave_cleanly():
    for script in (Script(["quit"]), Script(then=None)):
        code, lines = await run("pig", script, options={"target": "20"})
        assert code == 0
        assert lines[-1] == "You left the table; the game is not finished. Bye!"
        assert not any(line.startswith("🏁 Result") for line in lines)


async def test_streams_can_be_injected_and_the_answers_are_echoed():
    out = io.StringIO()
    code = await play(
        "pig", 2, "normal", {"target": "20"}, 5, input=io.StringIO("2\nroll\n"), output=out, pause=0, name="Ann"
    )
    assert code == 0
    text = out.getvalue()
    assert "Your move [1] > 2\n✗ There is no move 2" in text
    assert "Your move [1] > roll\n" in text
    assert text.rstrip().endswith("You left the table; the game is not finished. Bye!")
    assert "\x1b[" not in text  # no colour codes on a non-terminal


async def test_bad_arguments_are_reported():
    for kwargs, message in (
        ({"game": "chess"}, "unknown game 'chess'"),
        ({"game": "pig", "options": {"target": "lots"}}, "invalid option target"),
        ({"game": "pig", "options": {"colour": "red"}}, "invalid option colour"),
        ({"game": "pig", "players": 9}, "takes 2-8 players"),
        ({"game": "pig", "level": "godlike"}, "unknown level 'godlike'"),
        ({"game": "pig", "players": 4, "level": "easy,hard"}, "one per computer player (3)"),
    ):
        lines: list[str] = []
        code = await play(input=Script(), output=lines.append, pause=0, **kwargs)
        assert code == 2, kwargs
        assert lines[-1].startswith("error: ") and message in lines[-1], (kwargs, lines)


async def test_a_missing_render_module_falls_back_to_the_raw_view(monkeypatch):
    real = bot.render.game_module

    def game_module(game):
        if game == "pig":
            raise ModuleNotFoundError("No module named 'bot.render.pig'", name="bot.render.pig")
        return real(game)

    monkeypatch.setattr(bot.render, "game_module", game_module)
    monkeypatch.setattr(terminal, "game_module", game_module)
    code, lines = await run("pig", Script(), options={"target": "20"})
    text = "\n".join(lines)
    assert code == 0
    assert "players: 1. Ann, 2. 🤖" in text and "scores=[" in text and "turn_total=" in text
    assert "Ann rolled" in text  # event lines still come from the catalog
    assert sum(line.startswith("🏁 Result: ") for line in lines) == 1


def test_the_presenter_shows_only_the_viewers_secrets():
    table = Table(1, 0, 0, "mia", "running", 1, {}, [Seat(1, "Ann"), Seat(-1, "Bot", "easy")])
    lines: list[str] = []
    presenter = TerminalPresenter(lines.append, viewer=0)
    presenter.publish(
        table,
        [
            Event("dice", {"player": 0, "dice": [4, 2], "value": 42}, to=0),
            Event("dice", {"player": 1, "dice": [6, 5], "value": 65}, to=1),
            Event("eliminated", {"player": 1}),
        ],
    )
    secrets = [line for line in lines if line.startswith("🔒")]
    assert len(secrets) == 1 and "42" in secrets[0]
    assert not any("65" in line or "⚅" in line for line in lines)
    assert "💀 🤖 Bot is out." in lines


def test_events_without_a_template_get_a_compact_line():
    table = Table(1, 0, 0, "pig", "running", 1, {}, [Seat(1, "Ann"), Seat(-1, "Bot", "easy")])
    lines: list[str] = []
    TerminalPresenter(lines.append).publish(
        table, [Event("no_such_event", {"player": 1, "amount": 3}), Event("turn", {"player": 0})]
    )
    assert lines == ["no_such_event: player=🤖 Bot amount=3"]  # "turn" has an empty template: skipped


def test_menu_and_matching():
    legal = [Action("claim", (v,)) for v in (31, 32, 41, 42, 43, 51, 52, 53, 54, 61, 62)]
    menu = action_menu(legal, 50)
    assert menu[0] == "   1) claim:31    2) claim:32    3) claim:41"
    assert menu[-1].strip().startswith("10) claim:61")
    assert match_action("3", legal) == Action("claim", (41,))
    assert match_action("claim:53", legal) == Action("claim", (53,))
    assert match_action("CLAIM:62", legal) == Action("claim", (62,))
    assert match_action("claim:6", legal) is None  # ambiguous prefix
    assert match_action("12", legal) is None
    assert match_action("ho", [Action("roll"), Action("hold")]) == Action("hold")


def test_levels_for_the_computer_players():
    assert resolve_levels("hard", 3) == ["hard"] * 3
    assert resolve_levels("easy, HARD", 2) == ["easy", "hard"]
    assert resolve_levels("random", 1) == ["random"]
    with pytest.raises(ValueError):
        resolve_levels("easy,hard", 3)


def test_command_line_arguments():
    args = terminal.build_parser().parse_args(
        ["pig", "--players", "3", "--level", "easy,hard", "-o", "target=50", "--option", "dice=2", "--seed", "4"]
    )
    assert (args.game, args.players, args.level, args.seed) == ("pig", 3, "easy,hard", "4")
    assert args.option == [("target", "50"), ("dice", "2")]
    assert args.handler is terminal.main_from_args
    assert args.locale == "en"
    assert terminal.build_parser().parse_args(["pig", "--locale", "de"]).locale == "de"
    with pytest.raises(SystemExit):
        terminal.build_parser().parse_args(["pig", "--option", "target"])
    out = io.StringIO()
    args = terminal.build_parser().parse_args(["pig", "-o", "target=20", "--seed", "2", "--pause", "0"])
    assert terminal.main_from_args(args, input=Script(then="1"), output=out) == 0
    assert "🏁 Result: " in out.getvalue()


# --------------------------------------------------------------------------------------------
# The message catalog


def catalog_keys(module) -> set[str]:
    """Every ``terminal.*`` / ``simulate.*`` catalog key written as a string literal in ``module``."""
    source = Path(module.__file__).read_text(encoding="utf-8")
    assert not re.findall(r"\bf[\"'](?:terminal|simulate)\.", source), "catalog keys must be literals"
    return {m[1] for m in re.finditer(r"[\"']((?:terminal|simulate)\.\w+)[\"']", source)}


def test_every_terminal_key_is_in_the_english_catalog():
    used = catalog_keys(terminal)
    english = catalog("en")
    assert used and all(key.startswith("terminal.") for key in used)
    assert sorted(key for key in used if key not in english) == []
    defined = {key for key in english if key.startswith("terminal.")}
    assert sorted(defined - used) == []  # and no catalog text that nothing prints


def test_german_falls_back_to_english_for_missing_terminal_texts():
    german, english = catalog("de"), catalog("en")
    assert german and "error.not_your_turn" in german  # the German catalog exists ...
    assert t("error.not_your_turn", "de") != t("error.not_your_turn", "en")
    missing = [key for key in english if key.startswith(("terminal.", "simulate.")) and key not in german]
    assert missing  # ... but has no terminal texts yet: those come out in English
    for key in missing:
        params = {field: 0.5 for _, field, _, _ in Formatter().parse(english[key]) if field}
        assert t(key, "de", **params) == t(key, "en", **params), key
    assert t("terminal.prompt", "de-DE", choices="1-2") == "Your move [1-2] > "


async def test_the_locale_reaches_the_table_and_english_fills_the_gaps(monkeypatch):
    created: list[str] = []
    real_create = terminal.TableService.create

    async def create(self, *args, **kwargs):
        table = await real_create(self, *args, **kwargs)
        created.append(table.locale)
        return table

    monkeypatch.setattr(terminal.TableService, "create", create)
    code, lines = await run("pig", Script(["quit"]), options={"target": "20"}, locale="de-DE")
    assert code == 0 and created == ["de"]
    assert "Pig: Ann against 1 computer player(s) (normal)." in lines  # no German text yet: English
    assert lines[-1] == "You left the table; the game is not finished. Bye!"


async def test_terminal_text_comes_from_the_locales_catalog(monkeypatch):
    real_catalog = bot.i18n.catalog
    german = {"terminal.prompt": "Dein Zug [{choices}] > ", "terminal.quit": "Du hast den Tisch verlassen. Tschüss!"}

    def catalog_with_german(locale: str) -> dict[str, str]:
        return {**real_catalog(locale), **german} if locale == "de" else real_catalog(locale)

    monkeypatch.setattr(bot.i18n, "catalog", catalog_with_german)
    script = Script(["quit"])
    code, lines = await run("pig", script, options={"target": "20"}, locale="de")
    assert code == 0
    assert script.prompts == ["Dein Zug [1] > "]
    assert lines[-1] == "Du hast den Tisch verlassen. Tschüss!"
    assert "Your move — 1 choice:" in lines  # not translated here: English
