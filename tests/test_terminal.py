"""``dicetavern play``: scripted terminal games through the real table service and store."""

from __future__ import annotations

import io
import json
import re
from contextlib import AbstractContextManager
from pathlib import Path
from string import Formatter

import pytest

import bot.i18n
import bot.render
from bot import cli, terminal
from bot.games import Action, Event, get_engine
from bot.games.dice import SeededDice
from bot.i18n import SURFACE, catalog, t
from bot.render import rules_text
from bot.tables import Seat, Table, TableService
from bot.terminal import TerminalPresenter, play, resolve_levels, seat_count
from bot.terminal import console as terminal_console
from bot.terminal import moves as terminal_moves
from bot.terminal import presenter as terminal_presenter
from bot.terminal.console import display_width, wrap
from bot.terminal.menus import Entry, Moves, Refusal
from bot.terminal.moves import build as build_moves
from bot.verify import verify_export
from tests.e2e.english import english_fragments


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
    # the prompt lists the legal moves by their catalog words, numbered
    assert "Your move — 1 choice:" in text and "  1) Roll" in lines
    assert "  1) Roll   2) Hold" in lines
    assert script.prompts[0] == "Your move [1] > "
    # invalid input: a clear message, then the same prompt again
    assert "✗ You must roll at least once before you hold." in text  # a known move, not legal yet: the engine's why
    assert "✗ 'banana' is not a move here." in text and "  Your move: Roll (or its number, 1)." in text
    assert "✗ There is no move 7: choose 1, or type a move." in text
    assert "Type a move (for example roll); 'help' lists the commands, 'quit' leaves." in text
    assert script.prompts[:6] == ["Your move [1] > "] * 6
    # the table body is drawn for seat 0, and the game ends with a result line
    assert "── 🎲 Pig — in play" in text and "── 🎲 Pig — finished" in text
    assert "First to 30 wins · 1 die" in lines
    result = [line for line in lines if line.startswith("🏁 Result: ")]
    assert len(result) == 1 and "Ann" in result[0] and "🤖" in result[0]
    assert lines[-1] in (t("terminal.win"), t("terminal.lost"))
    assert lines[-2] == result[0]


async def test_play_uses_fair_dice_shows_the_commitment_first_and_the_seed_at_the_end():
    import hashlib

    seed = hashlib.sha256(b"5:dice").hexdigest()  # --seed 5: the server seed is SHA-256 of "5:dice"
    commitment = hashlib.sha256(bytes.fromhex(seed)).hexdigest()
    code, lines = await run("pig", Script(), level="easy", options={"target": "20"}, seed=5)
    assert code == 0
    text = "\n".join(lines)
    first_table = text.index("── 🎲 Pig — in play")
    assert commitment in text[:first_table]  # public before the first draw
    revealed = text.index(seed)
    assert "🔓" in lines[next(i for i, line in enumerate(lines) if seed in line)]
    assert revealed > text.index("🏆") and seed not in text[:revealed]
    _, unseeded = await run("pig", Script(), level="easy", options={"target": "20"}, seed=None)
    assert any(line.startswith("🔒 Fair dice") for line in unseeded)  # a fresh secret seed: FairDice.new
    assert any(line.startswith("🔓") for line in unseeded)


@pytest.mark.parametrize("game, options", [("pig", {"target": "20"}), ("liar", {}), ("mythic", {})])
async def test_a_terminal_game_exports_what_dicetavern_verify_checks(tmp_path, game, options):
    path = tmp_path / f"{game}.json"
    code, lines = await run(game, Script(), level="easy", options=options, seed=3, export=str(path))
    assert code == 0
    export = json.loads(path.read_text(encoding="utf-8"))
    assert verify_export(export) is None and export["version"] == 2 and export["result"] is not None
    assert export["chain"] == export["moves"][-1]["link"] is not None
    text = "\n".join(lines)
    first_table = text.index("── 🎲")
    assert export["commitment"] in text[:first_table] and f"Client seed: {export['client_seed']}" in text
    said = " ".join(" ".join(lines[-3:]).split())  # the last lines, unwrapped
    assert f"Exported to {path}: check it with" in said and said.endswith(f"dicetavern verify {path}.")
    assert cli.main(["verify", str(path)]) == 0
    cut = dict(export, moves=export["moves"][:-1])  # its last move left out: refused
    path.write_text(json.dumps(cut), encoding="utf-8")
    assert cli.main(["verify", str(path)]) == 1


async def test_a_game_that_does_not_end_is_not_exported_and_a_bad_path_is_said(tmp_path):
    path = tmp_path / "quit.json"
    code, lines = await run("pig", Script(["q"]), level="easy", export=str(path))
    assert code == 0 and not path.exists() and lines[-1] == "The game did not end, so nothing was exported."
    code, lines = await run("pig", Script(), level="easy", options={"target": "20"}, export=str(tmp_path))
    assert code == 0 and f"Could not write the export {tmp_path}: " in " ".join(" ".join(lines).split())


async def test_typed_actions_and_prefixes_are_accepted():
    # "roll" typed out; "ho" is an unambiguous start of "Hold" once holding is legal
    prompts: list[str] = []

    def answer(prompt: str) -> str:
        prompts.append(prompt)
        return "ho" if prompt == "Your move [1-2] > " else "roll"

    code, lines = await run("pig", answer, level="easy", options={"target": "20"}, seed=4)
    assert code == 0
    assert "Your move [1-2] > " in prompts
    assert [line for line in lines if line.startswith("Ann banks")], "\n".join(lines)
    assert not [line for line in lines if line.startswith("✗")]


async def test_play_is_deterministic_with_a_seed():
    first = await run("pig", Script(), level="normal", options={"target": "40"}, seed=11)
    second = await run("pig", Script(), level="normal", options={"target": "40"}, seed=11)
    assert first == second


async def test_mia_game_against_a_computer_player_to_the_end():
    def answer(prompt: str) -> str:  # announce Mia (always legal for the holder); else the first listed move
        return "mia" if prompt == "Your move > " else "1"

    script = Script(["fly", "claim:99", "0", "7"], then=None)
    script.then = None
    answers = iter(script.answers)

    def read(prompt: str) -> str:
        script.prompts.append(prompt)
        return next(answers, None) or answer(prompt)

    code, lines = await run("mia", read, level="normal", options={"lives": "2"}, seed=2)
    text = "\n".join(lines)
    assert code == 0
    assert "── 🎲 Mia — in play" in text and "── 🎲 Mia — finished" in text
    # announcing: the legal values to type; responding: the catalog's words, numbered
    assert any(line.startswith("  📣 Announce a value by typing it: ") for line in lines)
    assert any("1) Believe & roll" in line and "2) Liar!" in line for line in lines) or any(
        "1) Concede" in line for line in lines
    )
    # invalid input is explained and the prompt repeats
    errors = [line for line in lines if line.startswith("✗ ")]
    assert errors[0] == "✗ 'fly' is not a move here."
    assert errors[1].startswith("✗ 99 is not a Mia value")  # an encoded move still reaches the engine
    assert errors[2].startswith("✗ '0' is not a Mia value") and errors[3].startswith("✗ '7' is not a Mia value")
    assert script.prompts[:5] == ["Your move > "] * 5
    # the person's own dice are shown privately; the result line ends the game
    assert any(line.startswith("🔒 ") for line in lines)
    assert sum(line.startswith("🏁 Result: ") for line in lines) == 1


async def test_three_players_with_one_level_each():
    code, lines = await run("pig", Script(), players=3, level="easy,hard", options={"target": "25"})
    assert code == 0
    assert "Pig: Ann against 2 computer players (easy, hard)." in lines
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
        ({"game": "pig", "players": 4, "level": "easy,hard"}, "there are 3 computer players, but --level lists 2"),
        ({"game": "pig", "players": 2, "level": "easy,hard"}, "there is 1 computer player, but --level lists 2"),
        ({"game": "pig", "level": ",".join(["easy"] * 8)}, "Pig takes 2-8 players with these options, but 8 levels"),
        ({"game": "pig", "players": 3, "level": "easy,wizard"}, "unknown level 'wizard'"),
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
    monkeypatch.setattr(terminal_presenter, "game_module", game_module)
    monkeypatch.setattr(terminal_moves, "game_module", game_module)
    code, lines = await run("pig", Script(), options={"target": "20"})
    text = "\n".join(lines)
    assert code == 0
    assert "players: 1. Ann, 2. 🤖" in text and "scores=[" in text and "turn_total=" in text
    assert "Ann rolled" in text  # event lines still come from the catalog
    assert "  1) Roll   2) Hold" in lines  # and the moves read as words, not as encoded actions
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


def test_menu_columns_and_matching():
    entries = [Entry(label, Action(name)) for label, name in (("🎲 Throw", "throw"), ("✋ Stand", "stand"))]
    entries.append(Entry("⏹️ End round", Action("end_round")))
    moves = Moves(entries, known=[Entry("Keep ⚀ 1", Action("hold", (1,)))])
    menu = moves.lines(40, "en")
    assert menu[0] == "Your move — 3 choices:"
    assert menu[1] == "  1) 🎲 Throw      2) ✋ Stand"  # emoji take two columns, so the cells line up
    assert menu[2] == "  3) ⏹️ End round"
    assert moves.match("2") == Action("stand")
    assert moves.match("end") == moves.match("End Round") == moves.match("round") == Action("end_round")
    assert moves.match("THROW") == Action("throw")
    assert moves.match("keep 1") == Action("hold", (1,))  # known but not legal: the engine will say why
    assert moves.match("end_round") == Action("end_round")  # an encoded move is still understood
    assert moves.match("4") is None and moves.match("²") is None and moves.match("fly") is None
    two = Moves([Entry("Keep ⚀ 1", Action("hold", (1,))), Entry("Keep ⚁ 2", Action("hold", (2,)))])
    assert two.match("keep") is None and [e.label for e in two.ambiguous("keep")] == ["Keep ⚀ 1", "Keep ⚁ 2"]
    assert wrap("  a bb ccc dddd", 8, "    ") == ["  a bb", "    ccc", "    dddd"]


def test_levels_for_the_computer_players():
    assert resolve_levels("hard", 3) == ["hard"] * 3
    assert resolve_levels("easy, HARD", 2) == ["easy", "hard"]
    assert resolve_levels("random", 1) == ["random"]
    with pytest.raises(ValueError, match="give one level for all of them or 3 levels"):
        resolve_levels("easy,hard", 3)
    # what a person means: one level for all; a list of levels is one computer player each
    assert seat_count(None, ["hard"], 2) == 2
    assert seat_count(None, ["hard"], 3) == 3
    assert seat_count(None, ["easy", "hard"], 2) == 3
    assert seat_count(None, ["easy", "hard", "normal", "easy"], 3) == 5
    assert seat_count(4, ["easy", "hard"], 2) == 4  # --players wins; resolve_levels then says they disagree


def test_a_list_of_levels_sets_the_number_of_computer_players():
    """Regression: the README's `dicetavern play liar --level easy,hard -o raise_rule=pirates` failed with
    "give one level, or one per computer player (1); got 2"."""
    out = io.StringIO()
    args = terminal.build_parser().parse_args(
        ["liar", "--level", "easy,hard", "-o", "raise_rule=pirates", "--seed", "3", "--pause", "0"]
    )
    assert terminal.main_from_args(args, input=Script(then="liar"), output=out) == 0
    text = out.getvalue()
    assert "Liar's Dice: Player against 2 computer players (easy, hard)." in text
    assert "Options: raise_rule=pirates" in text and "🏁 Result: " in text
    assert text.count("🤖") and "error:" not in text


async def test_levels_and_players_together():
    # with --players the list must have one level per computer player; one level is for all of them
    for players, level, expected in ((3, "easy,hard", "(easy, hard)."), (4, "hard", "(hard, hard, hard).")):
        code, lines = await run("liar", Script(["quit"]), players=players, level=level)
        assert code == 0 and any(line.endswith(expected) for line in lines), lines[:2]
    code, lines = await run("mythic", Script(["quit"]), level="easy,hard")  # Mythical Dice needs 3: 2 levels do
    assert code == 0 and lines[0] == "Mythical Dice: Ann against 2 computer players (easy, hard)."


def test_command_line_arguments(monkeypatch):
    set_environment_locale(monkeypatch, "C")
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


def set_environment_locale(monkeypatch, lang: str) -> None:
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", lang)


@pytest.mark.parametrize(
    ("lang", "expected"),
    [("ru_RU.UTF-8", "ru"), ("cy_GB.UTF-8", "cy"), ("et_EE", "et"), ("el_GR.UTF-8", "el"), ("fr_FR.UTF-8", "en"),
     ("C", "en"), ("", "en")],
)  # fmt: skip
def test_the_locale_defaults_to_the_environments(monkeypatch, lang, expected):
    set_environment_locale(monkeypatch, lang)
    assert terminal.build_parser().parse_args(["pig"]).locale == expected


def test_the_locale_is_one_of_the_shipped_languages(monkeypatch, capsys):
    set_environment_locale(monkeypatch, "C")
    assert terminal.build_parser().parse_args(["pig", "--locale", "cy"]).locale == "cy"
    with pytest.raises(SystemExit):
        terminal.build_parser().parse_args(["pig", "--locale", "xx"])
    assert "invalid choice: 'xx'" in capsys.readouterr().err
    assert "en, it, ru, el, de, cy, et" in " ".join(terminal.build_parser().format_help().split())


def lines_in_english(lines: list[str], locale: str) -> list[str]:
    """The English catalog fragments (see tests/e2e/english.py) in the terminal's output."""
    text = "\n".join(lines)
    return sorted(f for f in english_fragments(locale) if f in text)


async def test_a_whole_game_in_welsh_prints_no_english():
    script = Script(["help", "rules", "table", "banana"], then="1")
    code, lines = await run("pig", script, options={"target": "20"}, locale="cy")
    assert code == 0 and lines[-1] in (t("terminal.win", "cy"), t("terminal.lost", "cy"))
    assert t("terminal.result", "cy").split("{")[0] in "\n".join(lines)
    assert script.prompts[0] == t("terminal.prompt", "cy", choices="1")
    assert lines_in_english(lines, "cy") == []


def test_the_environments_russian_is_the_default(monkeypatch):
    set_environment_locale(monkeypatch, "ru_RU.UTF-8")
    out = io.StringIO()
    args = terminal.build_parser().parse_args(["pig", "--seed", "3", "--pause", "0", "-o", "target=20"])
    assert terminal.main_from_args(args, input=Script(then="1"), output=out) == 0
    lines = out.getvalue().splitlines()
    assert t("terminal.result", "ru").split("{")[0] in out.getvalue()
    assert lines_in_english(lines, "ru") == []


# --------------------------------------------------------------------------------------------
# The message catalog


def catalog_keys(path: Path) -> set[str]:
    """Every ``terminal.*`` / ``simulate.*`` catalog key written as a string literal in the module at ``path``."""
    source = path.read_text(encoding="utf-8")
    assert not re.findall(r"\bf[\"'](?:terminal|simulate)\.", source), "catalog keys must be literals"
    return {m[1] for m in re.finditer(r"[\"']((?:terminal|simulate)\.\w+)[\"']", source)}


def test_every_terminal_key_is_in_the_english_catalog():
    package = Path(terminal.__file__).parent  # every module of bot/terminal/
    used = set().union(*(catalog_keys(path) for path in package.glob("*.py")))
    english = catalog("en")
    assert used and all(key.startswith("terminal.") for key in used)
    assert sorted(key for key in used if key not in english) == []
    defined = {key for key in english if key.startswith("terminal.")}
    assert sorted(defined - used) == []  # and no catalog text that nothing prints


def without_terminal_texts(locale: str) -> AbstractContextManager[None]:
    """``locale``'s catalog as if its translator had not reached the terminal's texts yet."""
    texts = bot.i18n.catalog(locale)
    return bot.i18n.overridden({locale: {k: None for k in texts if k.startswith(("terminal.", "simulate."))}})


def test_a_catalog_without_terminal_texts_falls_back_to_english():
    with without_terminal_texts("de"):
        german, english = bot.i18n.catalog("de"), catalog("en")
        assert german and "error.not_your_turn" in german
        assert t("error.not_your_turn", "de") != t("error.not_your_turn", "en")
        missing = [key for key in english if key.startswith(("terminal.", "simulate.")) and key not in german]
        assert missing
        for key in missing:
            texts = english[key].values() if isinstance(english[key], dict) else [english[key]]
            params = {field: 0.5 for text in texts for _, field, _, _ in Formatter().parse(text) if field}
            params["count"] = 2
            assert t(key, "de", **params) == t(key, "en", **params), key
        assert t("terminal.prompt", "de-DE", choices="1-2") == "Your move [1-2] > "


async def test_the_locale_reaches_the_table_and_english_fills_the_gaps(monkeypatch):
    created: list[str] = []
    real_create = TableService.create

    async def create(self, *args, **kwargs):
        table = await real_create(self, *args, **kwargs)
        created.append(table.locale)
        return table

    monkeypatch.setattr(TableService, "create", create)
    with without_terminal_texts("de"):
        code, lines = await run("pig", Script(["quit"]), options={"target": "20"}, locale="de-DE")
        assert code == 0 and created == ["de"]
        assert f"{t('game.pig', 'de')}: Ann against 1 computer player (normal)." in lines  # no German text: English
        assert lines[-1] == "You left the table; the game is not finished. Bye!"


async def test_terminal_text_comes_from_the_locales_catalog():
    german = {"terminal.prompt": "Dein Zug [{choices}] > ", "terminal.quit": "Du hast den Tisch verlassen. Tschüss!"}
    script = Script(["quit"])
    with bot.i18n.overridden({"de": {**german, "terminal.menu": None}}):  # the menu's title: untranslated
        code, lines = await run("pig", script, options={"target": "20"}, locale="de")
    assert code == 0
    assert script.prompts == ["Dein Zug [1] > "]
    assert lines[-1] == "Du hast den Tisch verlassen. Tschüss!"
    assert "Your move — 1 choice:" in lines  # not translated here: English


# --------------------------------------------------------------------------------------------
# Every game: the catalog's words in the menus, terminal wording, rules and help at every prompt

INTERNAL_CODE = re.compile(r"\b[a-z]+(?:_[a-z]+)+\b|\b[a-z_]+:[\w:-]+")  # end_round, give_up, bid:3:5, play:17
ACTION_NAMES = {
    "roll", "hold", "throw", "stand", "end_round", "choose", "peek", "claim", "challenge", "give_up",
    "challenge_mia", "blind_pass", "bid", "play",
}  # fmt: skip
DISCORD_ONLY = re.compile(
    r"\bDMs?\b|/(?:pig|mia|mex|liar|mythic|game)\b|My dice|My hand|slash|button|menu below|table message|\bselect",
    re.IGNORECASE,
)
FREE_ANSWER = {"mia": "mia", "mythic": "0"}  # at a menu without numbers: always a legal move
GAME_OPTIONS = {
    "pig": {"target": "25"},
    "mia": {"lives": "2", "blind_pass": "any"},
    "mex": {"starting_lives": "3"},
    "liar": {"mode": "lose_die", "dice_per_player": "2"},
    "mythic": {},
}


class Tourist:
    """Asks for 'help' and the 'rules' at every prompt before moving, and checks each answer's output."""

    def __init__(self, game: str, lines: list[str]) -> None:
        self.game, self.lines = game, lines
        self.seen = 0  # lines already checked
        self.pending: list[str] = []
        self.last: str | None = None
        self.prompts = 0
        self.menus: list[list[str]] = []

    def __call__(self, prompt: str) -> str:
        new = self.lines[self.seen :]
        self.seen = len(self.lines)
        self.check(self.last, new)
        if not self.pending:
            self.prompts += 1
            assert self.prompts < 400, "the game did not end"
            numbered = any(re.match(r"\s+1\) ", line) for line in self.menus[-1])
            move = "1" if numbered else FREE_ANSWER[self.game]
            self.pending = ["help", "rules", move]
        self.last = self.pending.pop(0)
        return self.last

    def check(self, answer: str | None, new: list[str]) -> None:
        name = t(f"game.{self.game}", "en")
        if answer == "help":
            assert new[0].startswith("Your move"), new
            assert "Commands at every prompt:" in new and any(line.startswith("  rules  ") for line in new), new
            self.menus.append(new[: new.index("Commands at every prompt:")])
        elif answer == "rules":
            assert any(line.startswith(f"{name} — ") for line in new), new[:3]
            assert "⏰ No time limit in the terminal: take your time." in new
        else:  # after a move (or at the start): the menu for the next prompt ends the output
            assert not [line for line in new if line.startswith("✗")], new
            header = max(i for i, line in enumerate(new) if line.startswith("Your move"))
            self.menus.append(new[header:])


def menu_items(menu: list[str]) -> list[str]:
    """The labels of a menu's listed moves (``1) Roll``, ``· 👀 Peek``)."""
    items = []
    for line in menu[1:]:
        for cell in re.split(r"\s{2,}", line.strip()):
            label = re.sub(r"^(?:\d+\)|·) ", "", cell)
            if label != cell:
                items.append(label)
    return items


@pytest.mark.parametrize("game", ["pig", "mia", "mex", "liar", "mythic"])
async def test_every_menu_speaks_the_catalog_and_rules_and_help_work_at_every_prompt(game):
    lines: list[str] = []
    tourist = Tourist(game, lines)
    players = 3 if game == "mythic" else 2
    code = await play(
        game, players, "normal", GAME_OPTIONS[game], 5, input=tourist, output=lines.append, pause=0, width=80
    )
    assert code == 0 and any(line.startswith("🏁 Result: ") for line in lines)
    assert tourist.prompts >= 2 and len(tourist.menus) >= 2 * tourist.prompts
    for menu in tourist.menus:
        for line in menu:
            assert not INTERNAL_CODE.search(line), line
        items = menu_items(menu)
        assert items or len(menu) > 1, menu
        assert not [label for label in items if label in ACTION_NAMES], menu
    text = "\n".join(lines)
    assert not DISCORD_ONLY.search(text), DISCORD_ONLY.search(text)
    assert not re.search(r"\(s\)|die/dice", text)  # plural forms, not "player(s)"
    assert all(display_width(line) <= 80 for line in lines), [line for line in lines if display_width(line) > 80]


def test_discord_wording_is_caught_by_the_check():
    for text in ("Your dice come by DM", "the menu below or `/mythic bid`", "🎲 My dice", "use the buttons"):
        assert DISCORD_ONLY.search(text), text
    for text in ("end_round", "bid:3:5", "play:17", "give_up", "claim:53"):
        assert INTERNAL_CODE.search(text), text
    assert not INTERNAL_CODE.search("  1) Min raise: 2 × ⚀ (ones)   2) Liar!")


# --------------------------------------------------------------------------------------------
# Liar's Dice: typed bids


def liar_moves(options: dict | None = None, bids: tuple[tuple[int, int], ...] = ()) -> tuple[Moves, dict]:
    """The moves of the player to act after ``bids`` in a seeded two-player game of 5 dice each."""
    engine = get_engine("liar")
    dice = SeededDice("terminal-liar")
    state, _ = engine.new_game(2, engine.options(options or {}), dice)
    for bid in bids:
        state, _ = engine.apply(state, engine.to_act(state)[0], Action("bid", bid), dice)
    seat = engine.to_act(state)[0]
    view = engine.view(state, seat)
    return build_moves("liar", view, engine.legal_actions(state, seat), "en"), view


def test_liar_bids_are_typed_and_the_menu_stays_short():
    moves, _ = liar_moves(bids=((2, 3),))
    menu = moves.lines(80, "en")
    assert menu == [
        "Your move:",
        "  1) Min raise: 2 × ⚃ (fours)   2) Liar!",
        "  📣 Or type any bid as quantity and face, e.g. 2x4 or 2 4 (2 × ⚃ (fours)).",
    ]
    assert moves.choices("en") is None  # the prompt is "Your move > ": numbers and bids both work
    for typed in ("3x5", "3 5", "3×5", "3X5", "3*5", "3 x 5", "3 ⚄", " 3x5 ", "3x5s"):
        assert moves.match(typed) == Action("bid", (3, 5)), typed
    assert moves.match("1") == Action("bid", (2, 4))
    assert moves.match("2") == moves.match("liar") == moves.match("LIAR!") == Action("challenge")
    assert "bid" not in " ".join(moves.completions()) and "liar" in moves.completions()


@pytest.mark.parametrize(
    ("typed", "reason"),
    [
        ("2x2", "**2 × ⚁** (twos) does not raise **2 × ⚂** (threes) under the poker rule."),
        ("1 6", "**1 × ⚅** (six) does not raise **2 × ⚂** (threes) under the poker rule."),
        ("3x", "'3x' is not a bid: type a quantity and a face from 1 to 6, e.g. 3x5 or 3 5 (three fives)."),
        ("3x5x", "'3x5x' is not a bid"),
        ("3 5 7", "'3 5 7' is not a bid"),
        ("3x9", "A die face is 1 to 6, not 9."),
        ("0x4", "A bid claims at least one die, not 0."),
        ("11x4", "Only 10 dice are in play, so a bid can claim at most 10 (you said 11)."),
        ("9" * 30 + "x4", "is not a bid"),
    ],
)
def test_a_wrong_liar_bid_is_refused_with_the_lowest_legal_bid(typed, reason):
    moves, _ = liar_moves(bids=((2, 3),))
    refusal = moves.match(typed)
    assert isinstance(refusal, Refusal), refusal
    assert reason in refusal.reason
    assert refusal.reason.endswith("The lowest legal bid now is **2 × ⚃** (fours).")


def test_wild_ones_cannot_be_bid_and_the_opening_bid_is_offered():
    moves, view = liar_moves({"wild_ones": "true"})
    assert view["bid"] is None
    assert moves.lines(80, "en")[1] == "  1) Min bid: 1 × ⚁ (two)"  # no Liar! before the first bid
    refusal = moves.match("3x1")
    assert isinstance(refusal, Refusal) and refusal.reason.startswith("Ones are wild at this table")
    assert moves.match("liar") == Action("challenge")  # known, not legal yet: the engine says why


async def test_typed_liar_bids_in_a_game_and_the_table_fits_an_80x24_terminal():
    prompts: list[str] = []
    screens: list[list[str]] = []
    lines: list[str] = []
    answers = ["7x7", "1x9", "2 ⚃", "1x1"]

    def read(prompt: str) -> str:
        prompts.append(prompt)
        titles = [i for i, line in enumerate(lines) if line.startswith("── 🎲 Liar's Dice")]
        screens.append(lines[titles[-1] - 1 :])  # the blank line above the table, the table, the menu
        return answers.pop(0) if answers else "1"

    code = await play("liar", 4, "normal", {}, 8, input=read, output=lines.append, pause=0, name="Ann", width=80)
    assert code == 0
    text = "\n".join(lines)
    assert "✗ '7x7' is not a bid" not in text and "✗ A die face is 1 to 6, not 7." in text
    assert "✗ A die face is 1 to 6, not 9." in text
    assert "Ann bids 2 × ⚃ (fours)" in text  # a typed bid is played
    assert len(screens) >= 3
    for screen in screens:
        assert any(line.startswith("🎲 Your dice: ") for line in screen), screen  # your dice stay in view
        menu = screen[max(i for i, line in enumerate(screen) if line.startswith("Your move")) :]
        refused = next((i for i, line in enumerate(menu) if line.startswith("✗")), len(menu))
        assert len(menu[:refused]) <= 3, menu  # a refusal (wrapped to 80 columns or not) follows the menu
        shown = [line for line in screen if not line.startswith("✗")]
        assert len(shown) + 1 <= 24, shown  # with the prompt line, it fits an 80×24 terminal
        assert all(display_width(line) <= 80 for line in screen)


# --------------------------------------------------------------------------------------------
# Mia and Mythical Dice


def test_mythical_dice_are_rolled_by_number_or_name():
    view = {
        "phase": "playing",
        "legal": ["play:3", "play:7"],
        "your_dice": [{"id": 3, "type": "red"}, {"id": 7, "type": "griffin"}, {"id": 9, "type": "yellow"}],
    }
    legal = [Action("play", (3,)), Action("play", (7,))]
    moves = build_moves("mythic", view, legal, "en")
    assert moves.lines(80, "en") == ["Your move — 2 choices:", "  1) 🦅 Griffin   2) 🟥 red"]
    assert moves.match("1") == moves.match("gri") == moves.match("Griffin") == Action("play", (7,))
    assert moves.match("red") == moves.match("2") == Action("play", (3,))
    assert moves.match("yellow") == Action("play", (9,))  # not playable now: the engine says why
    bidding = build_moves("mythic", {"phase": "bidding"}, [Action("bid", (n,)) for n in range(4)], "en")
    assert bidding.lines(80, "en") == ["Your move:", "  🤫 Bid: type how many tricks you will take, 0 to 3."]
    assert bidding.match("2") == Action("bid", (2,)) and bidding.match("9") == Action("bid", (9,))


def test_mia_values_are_typed_and_blind_passes_take_a_word():
    from bot.games.mia import values_above

    claims = [Action("claim", (v,)) for v in values_above(None)]
    moves = build_moves("mia", {}, [Action("peek"), *claims], "en")
    menu = moves.lines(80, "en")
    assert menu[:2] == ["Your move:", "  · 👀 Peek"]  # not numbered: a number is a value here
    assert menu[2].startswith("  📣 Announce a value by typing it: 31 32 41")
    assert moves.match("53") == Action("claim", (53,)) and moves.match("mia") == Action("claim", (21,))
    assert moves.match("peek") == Action("peek")
    assert isinstance(moves.match("1"), Refusal) and isinstance(moves.match("57"), Refusal)
    response = [Action("challenge"), Action("roll"), Action("blind_pass", (53,)), Action("blind_pass", (54,))]
    moves = build_moves("mia", {}, response, "en")
    assert moves.lines(200, "en")[1] == "  1) Believe & roll   2) Liar!"  # in the order of Discord's buttons
    assert moves.match("blind 54") == Action("blind_pass", (54,))
    assert moves.match("roll") == moves.match("believe") == moves.match("1") == Action("roll")
    refusal = moves.match("blind")
    assert isinstance(refusal, Refusal) and "type blind and the value, e.g. blind 53" in refusal.reason


# --------------------------------------------------------------------------------------------
# The person's terminal: readline completion, typeahead discarded


def test_the_tty_reader_discards_typeahead_and_completes_words(monkeypatch):
    import builtins
    import termios

    calls: list[str] = []
    monkeypatch.setattr(termios, "tcflush", lambda fd, queue: calls.append(f"flush {queue == termios.TCIFLUSH}"))
    monkeypatch.setattr(builtins, "input", lambda prompt: calls.append(f"input {prompt}") or "roll")
    reader = terminal.TtyReader(io.StringIO())
    reader.complete(["roll", "hold", "rules", "help", "quit"])
    assert reader("Your move [1] > ") == "roll"
    assert calls == ["flush True", "input Your move [1] > "]  # keys typed during the computers' turns are gone
    assert [reader._complete("r", i) for i in range(3)] == ["roll", "rules", None]
    assert reader._complete("H", 0) == "hold"
    monkeypatch.setattr(terminal_console, "isatty", lambda stream: True)
    assert isinstance(terminal_console.reader(None, print), terminal.TtyReader)


async def test_the_game_offers_the_prompts_words_for_completion():
    offered: list[list[str]] = []

    class Reader:
        def complete(self, words):
            offered.append(list(words))

        def __call__(self, prompt):
            return "quit" if len(offered) > 1 else "roll"

    code, _ = await run("pig", Reader(), options={"target": "20"})
    assert code == 0
    assert offered[0] == ["roll", "rules", "help", "table", "quit"]
    assert offered[1][:2] == ["roll", "hold"]


# --------------------------------------------------------------------------------------------
# Terminal variants of Discord texts


def test_terminal_variants_replace_discord_wording_only_in_the_terminal():
    discord = t("mythic.your_bid_prompt", "en", max=2)
    assert "/mythic bid" in discord
    token = SURFACE.set("terminal")
    try:
        assert t("mythic.your_bid_prompt", "en", max=2) == "👉 Bid 0 to 2 tricks: type the number at the prompt."
        german = t("mythic.your_bid_prompt", "de", max=2)
        assert "/mythic" not in german and german != t("mythic.your_bid_prompt", "en", max=2)
        assert t("pig.roll_button", "en") == "Roll"  # no variant: the shared text
        for game in ("pig", "mia", "mex", "liar", "mythic"):
            assert not DISCORD_ONLY.search(rules_text(game, {}, "en")), game
    finally:
        SURFACE.reset(token)
    assert t("mythic.your_bid_prompt", "en", max=2) == discord
    for game in ("mia", "mex", "liar", "mythic"):
        assert DISCORD_ONLY.search(rules_text(game, {}, "en")), game  # Discord keeps its own wording


async def test_a_game_in_the_terminal_leaves_the_surface_as_it_found_it():
    assert SURFACE.get() is None
    code, _ = await run("mythic", Script(["quit"]))
    assert code == 0 and SURFACE.get() is None


def test_every_terminal_variant_has_a_base_text_with_the_same_fields():
    english = catalog("en")
    variants = [key for key in english if key.endswith("@terminal")]
    assert len(variants) >= 8

    def fields(text) -> set[str]:
        texts = text.values() if isinstance(text, dict) else [text]
        return {field for one in texts for _, field, _, _ in Formatter().parse(one) if field}

    for key in variants:
        base = key.removesuffix("@terminal")
        assert base in english, key
        if english[base] == "":  # silent on Discord (event.fair_reveal): tests/test_catalog.py checks the variant
            continue  # against the event's own data
        assert fields(english[key]) <= fields(english[base]), key  # a variant is given only the base's params


def test_play_help_reads_well_in_an_80_column_terminal(monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    text = terminal.build_parser().format_help()
    assert all(len(line) <= 80 for line in text.splitlines()), text
    assert "dicetavern play liar --level easy,hard -o raise_rule=pirates" in text  # the README's example
    assert "3x5" in text and "'rules'" in text and "'help'" in text and "Tab completes" in text
    assert "one computer player per level of a --level list" in " ".join(text.split())


def test_a_translated_text_with_a_terminal_variant_is_translated_with_its_variant():
    """Otherwise the terminal would show that locale's Discord wording (the locale's own text comes first)."""
    english = catalog("en")
    bases = {key.removesuffix("@terminal") for key in english if key.endswith("@terminal")}
    for locale in bot.i18n.locales():
        texts = catalog(locale)
        assert sorted(base for base in bases if base in texts and f"{base}@terminal" not in texts) == [], locale


def test_when_nothing_raises_a_typed_bid_is_told_to_call_liar():
    moves, view = liar_moves({"dice_per_player": "1"}, bids=((2, 6),))  # 2 sixes of 2 dice: the top bid
    assert moves.lines(80, "en") == ["Your move — 1 choice:", "  1) Liar!"]
    assert moves.choices("en") == "1"
    refusal = moves.match("2x6")
    assert isinstance(refusal, Refusal)
    assert refusal.reason == "Nothing raises **2 × ⚅** (sixes) with 2 dice in play: call Liar!"
    assert moves.match("1") == moves.match("liar") == Action("challenge")
