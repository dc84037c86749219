"""Every shell command docs/*.md shows is true: run here when it is cheap, else checked against what it relies on.

A command is a line of a ```sh or plain fenced block, or of an indented block, that starts with a program; or an
inline code span that does (``.venv/bin/python -m ...``, ``nice -n 19 .venv/bin/python -m ...``,
``.venv/bin/pytest ...``, ``docker ...``). Like the README's, every one uses ``.venv/bin/``: a bare ``python -m`` or
``pip`` is a command of no kind here, and fails. Flags named beside a command in parentheses
(``.venv/bin/python -m benchmarks.restart`` (``--games``, ``--finished 0``)) are checked with it.

* ``python -m`` commands that finish in a few seconds (``CHEAP``) run for real, with this interpreter.
  The others run up to their argument parsing and stop there: the module's own ``argparse`` parser takes the
  command's exact arguments (no ``--help``), so a flag a script does not accept fails here.
* ``pytest`` commands collect (``--collect-only``) with their exact arguments; ``dicetavern`` commands parse with
  ``bot.cli``'s parser; ``docker`` commands are checked against the Dockerfile and compose.yaml; ``pip`` commands
  against pyproject.toml.

No network, and no timing is asserted.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import io
import re
import runpy
import shlex
import subprocess
import sys
import tomllib
import warnings
from dataclasses import dataclass
from pathlib import Path
from unittest import mock

import pytest

from bot import cli

ROOT = Path(__file__).resolve().parent.parent
DOCS = sorted((ROOT / "docs").glob("*.md"))
VENV_BIN = ".venv/bin/"
# A line or span that starts with one of these is a command (then it must be of a kind this file checks).
PROGRAM = re.compile(r"^(?:nice -n \d+ )?(?:\.venv/bin/)?(?:python3?|pip3?|pytest|dicetavern|docker)(?:\s|$)")
NICE = ["nice", "-n", "19"]

# Commands that finish in a few seconds: run for real (as shown, with this interpreter for .venv/bin/python).
CHEAP = {
    ".venv/bin/python -m benchmarks.pig_solver --targets 10,100 --variants d1,bigpig",
    ".venv/bin/python -m benchmarks.click_files [--list]",
    ".venv/bin/python -m benchmarks.ai_matchups --game liar --players hard,ref:sensible --games 2000 --seed 17 "
    "--workers 1 -o dice_per_player=2 -o raise_rule=R -o wild_ones=W",
}
# Words of a command that stand for a value the reader picks; the value used here.
PLACEHOLDERS = {"P": "hard,ref:claim62", "S": "23", "...": "wild_ones=true", "FILE": "game.json", "URL": "x"}
SUFFIX_PLACEHOLDERS = {"=R": "=sum", "=W": "=false"}


@dataclass(frozen=True)
class Command:
    doc: str
    text: str  # continuation lines joined, the trailing comment dropped
    inline: bool
    flags: tuple[str, ...] = ()  # flag groups named beside it, each tried with it

    def __str__(self) -> str:
        return f"{self.doc}: {self.text}"


def _blocks(text: str) -> tuple[list[tuple[str, list[str]]], str]:
    """The fenced and indented code blocks of a Markdown text (language, lines), and the text without them."""
    blocks: list[tuple[str, list[str]]] = []
    rest: list[str] = []
    lines = text.split("\n")
    i, previous_blank = 0, True
    while i < len(lines):
        line = lines[i]
        fence = re.match(r"^```(\w*)\s*$", line)
        if fence:
            end = next(j for j in range(i + 1, len(lines)) if lines[j].startswith("```"))
            blocks.append((fence.group(1) or "plain", lines[i + 1 : end]))
            i, previous_blank = end + 1, False
            rest.append("")
            continue
        if previous_blank and line.startswith("    ") and line.strip():  # an indented code block
            body = []
            while i < len(lines) and (lines[i].startswith("    ") or not lines[i].strip()):
                body.append(lines[i][4:])
                i += 1
            blocks.append(("indented", body))
            rest.append("")
            previous_blank = True
            continue
        rest.append(line)
        previous_blank = not line.strip()
        i += 1
    return blocks, "\n".join(rest)


def _joined(lines: list[str]) -> list[str]:
    """Command lines: backslash continuations joined, comments and blank lines dropped."""
    commands, pending = [], ""
    for line in lines:
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        pending += line
        if pending.endswith("\\"):
            pending = pending[:-1].rstrip() + " "
            continue
        commands.append(re.sub(r"\s+#\s.*$", "", pending).strip())
        pending = ""
    assert not pending, f"a continuation line ends the block: {pending}"
    return commands


def _flags_beside(after: str) -> tuple[str, ...]:
    """The ``--flag`` spans of a parenthesis right after a command span: "` (`--quick`, `--only a b`)"."""
    group = re.match(r"^ \(((?:[^()]|\([^()]*\))*)\)", after)
    if not group:
        return ()
    return tuple(" ".join(s.split()) for s in re.findall(r"`(--[^`]+)`", group.group(1)))


def doc_commands() -> tuple[list[Command], list[tuple[str, list[str]]]]:
    """Every command the docs show, and the code blocks that hold none (data, formulas, Python, JavaScript)."""
    commands: list[Command] = []
    others: list[tuple[str, list[str]]] = []
    for path in DOCS:
        blocks, prose = _blocks(path.read_text(encoding="utf-8"))
        for lang, lines in blocks:
            shown = [x for x in lines if x.strip()]
            if lang == "sh" or (lang in ("plain", "indented") and shown and PROGRAM.match(shown[0].strip())):
                commands += [Command(path.name, line, inline=False) for line in _joined(lines)]
            else:
                others.append((f"{path.name} ({lang})", lines))
        for span in re.finditer(r"`([^`]+)`", prose):
            text = " ".join(span.group(1).split())
            if PROGRAM.match(text):
                flags = _flags_beside(prose[span.end() :])
                commands.append(Command(path.name, text, inline=True, flags=flags))
    return commands, others


COMMANDS, OTHER_BLOCKS = doc_commands()


def words_of(command: Command) -> list[str]:
    """The command's words with the placeholders filled in and a leading ``nice -n 19`` dropped."""
    words = shlex.split(command.text)
    if words[:3] == NICE:
        words = words[3:]
    filled = []
    for word in words:
        word = PLACEHOLDERS.get(word, word)
        for suffix, value in SUFFIX_PLACEHOLDERS.items():
            if word.endswith(suffix):
                word = word[: -len(suffix)] + value
        filled.append(word)
    return filled


def variants(command: Command) -> list[list[str]]:
    """The argument lists a command stands for: ``[--list]`` is with and without ``--list``."""
    words = words_of(command)
    optional = [w for w in words if re.fullmatch(r"\[--[\w-]+\]", w)]
    if not optional:
        return [words]
    (flag,) = optional
    i = words.index(flag)
    return [words[:i] + words[i + 1 :], words[:i] + [flag[1:-1]] + words[i + 1 :]]


def kind(command: Command) -> str:
    words = words_of(command)
    program = words[0]
    if program == f"{VENV_BIN}python" and words[1] == "-m":
        return "cheap" if command.text.removeprefix(" ".join(NICE) + " ") in CHEAP else "python"
    if program == f"{VENV_BIN}pytest":
        return "pytest"
    if program == f"{VENV_BIN}dicetavern":
        return "dicetavern"
    if program == f"{VENV_BIN}pip" and words[1] == "install":
        return "pip"
    if program == "docker":
        return "compose" if words[1] == "compose" else "docker"
    if program == "dicetavern" and command.inline:
        return "mention"  # a subcommand named in the text ("`dicetavern verify FILE` checks ...")
    return "unknown"


def of_kind(name: str) -> list[Command]:
    return [c for c in COMMANDS if kind(c) == name]


def test_every_command_in_docs_is_one_this_file_checks():
    unknown = [str(c) for c in COMMANDS if kind(c) == "unknown"]
    assert not unknown, f"not a .venv/bin/ command, or of no kind this file checks: {unknown}"
    kinds = {kind(c) for c in COMMANDS}
    assert kinds == {"cheap", "python", "pytest", "dicetavern", "pip", "docker", "compose", "mention"}
    # every doc's figures name their commands; a doc that lost all of them lost its extraction, not its commands
    assert {c.doc for c in COMMANDS} >= {"AI.md", "PERFORMANCE.md", "RATINGS.md", "SCALING.md", "ADDING_A_GAME.md"}


def test_no_command_hides_in_a_block_this_file_does_not_read():
    for name, lines in OTHER_BLOCKS:
        for line in lines:
            assert not PROGRAM.match(line.strip()), f"{name}: {line}"


def test_every_cheap_command_is_still_in_the_docs():
    assert {c.text.removeprefix(" ".join(NICE) + " ") for c in of_kind("cheap")} == CHEAP


def test_every_placeholder_is_used():
    used = {w for c in COMMANDS for w in shlex.split(c.text)}
    assert set(PLACEHOLDERS) <= used | {w for c in COMMANDS for g in c.flags for w in g.split()}
    assert all(any(w.endswith(s) for w in used) for s in SUFFIX_PLACEHOLDERS)


# -- python -m: run up to the parser ---------------------------------------------------------------------------------


class _Parsed(Exception):
    def __init__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, extra: list[str]):
        super().__init__()
        self.parser, self.namespace, self.extra = parser, namespace, extra


def parse_as_main(module: str, args: list[str]) -> tuple[argparse.ArgumentParser | None, str]:
    """Run ``python -m module args`` in this process up to its first argument parsing, and stop there.

    Returns the parser when the arguments parsed, else None and what the parser said.
    """
    source = Path(importlib.util.find_spec(module).origin).read_text(encoding="utf-8")
    if "parse_args(" not in source:  # a script without options: it must be shown without any
        assert not args, f"{module} takes no arguments: {args}"
        return None, "no parser"
    original = argparse.ArgumentParser.parse_known_args
    seen: list[argparse.ArgumentParser] = []

    def stop(self, args=None, namespace=None):
        seen.append(self)
        namespace, extra = original(self, args, namespace)
        raise _Parsed(self, namespace, extra)

    said = io.StringIO()
    with (
        mock.patch.object(argparse.ArgumentParser, "parse_known_args", stop),
        mock.patch.object(sys, "argv", [module, *args]),
        contextlib.redirect_stderr(said),
        contextlib.redirect_stdout(said),
        warnings.catch_warnings(),
    ):
        warnings.simplefilter("ignore", RuntimeWarning)  # runpy's "found in sys.modules" note
        try:
            runpy.run_module(module, run_name="__main__", alter_sys=True)
        except _Parsed as parsed:
            if parsed.extra:
                return None, f"unrecognized arguments: {parsed.extra}"
            return parsed.parser, ""
        except SystemExit:
            return None, said.getvalue() or "exit"
    raise AssertionError(f"{module} finished without parsing its arguments (seen {seen})")


def _module_and_args(words: list[str]) -> tuple[str, list[str]]:
    assert words[:2] == [f"{VENV_BIN}python", "-m"]
    return words[2], words[3:]


@pytest.mark.parametrize("command", of_kind("python") + of_kind("cheap"), ids=str)
def test_python_commands_parse(command):
    for words in variants(command):
        module, args = _module_and_args(words)
        assert importlib.util.find_spec(module) is not None, f"no module {module}"
        parser, said = parse_as_main(module, args)
        assert parser is not None or said == "no parser", f"{command}: {said}"
        for group in command.flags:  # flags named beside it, each with the command
            _check_flags(command, parser, module, args, group)


def _check_flags(command: Command, parser, module: str, args: list[str], group: str) -> None:
    assert parser is not None, f"{command}: flags {group!r} for a script without options"
    extra = shlex.split(group)
    extra = [PLACEHOLDERS.get(w, w) for w in extra]
    parsed, said = parse_as_main(module, args + extra)
    if parsed is not None:
        return
    # A flag named without its value ("`--games`"): the option must exist, and want a value.
    names = [w for w in extra if w.startswith("--")]
    assert len(names) == 1 and extra == names, f"{command} with {group!r}: {said}"
    (name,) = names
    action = parser._option_string_actions.get(name)
    assert action is not None and action.nargs != 0, f"{command}: no option {name} ({said})"


@pytest.mark.parametrize("command", of_kind("cheap"), ids=str)
def test_cheap_python_commands_run(command):
    nice = NICE if command.text.startswith("nice ") else []
    for words in variants(command):
        done = subprocess.run(
            [*nice, sys.executable, *words[1:]], cwd=ROOT, capture_output=True, text=True, timeout=600
        )
        assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
        assert done.stdout.strip()


def test_the_benchmarks_run_all_runs_take_quick():
    # run_all passes --quick to every area; and PERFORMANCE.md says every script takes it
    from benchmarks.run_all import AREAS  # noqa: PLC0415

    for area in AREAS:
        parser, said = parse_as_main(f"benchmarks.{area}", ["--quick"])
        assert parser is not None, f"benchmarks.{area} --quick: {said}"


def test_a_flag_the_script_does_not_take_fails_here():
    parser, said = parse_as_main("benchmarks.discord_cost", ["--quick", "--no-such-flag"])
    assert parser is None and "--no-such-flag" in said
    parser, said = parse_as_main("benchmarks.tables", ["--tables", "many"])
    assert parser is None and "invalid int value" in said
    bad = Command("x.md", ".venv/bin/python -m benchmarks.restart", inline=True, flags=("--no-such-flag",))
    module, args = _module_and_args(words_of(bad))
    good, _ = parse_as_main(module, args)
    with pytest.raises(AssertionError):
        _check_flags(bad, good, module, args, bad.flags[0])


# -- pytest, dicetavern, pip, docker ---------------------------------------------------------------------------------


def _collect(args: list[str]) -> tuple[int, str]:
    """How many tests ``pytest --collect-only`` finds with these arguments, and its output.

    pyproject's addopts apply; a last ``-n 0`` (the last ``-n`` wins) collects without starting workers.
    """
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-p", "no:cacheprovider", *args, "-n", "0"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    said = done.stdout[-3000:] + done.stderr[-3000:]
    assert done.returncode == 0, said
    ids = [x for x in done.stdout.splitlines() if "::" in x]  # -q: one test id a line
    counts = re.findall(r"^\S+\.py: (\d+)$", done.stdout, flags=re.M)  # -qq: "file: count"
    return len(ids) + sum(int(n) for n in counts), said


@pytest.mark.parametrize("command", of_kind("pytest"), ids=str)
def test_pytest_commands_collect(command):
    args = words_of(command)[1:]
    paths = [a for a in args if not a.startswith("-") and (ROOT / a.split("::")[0]).exists()]
    if paths:
        found, said = _collect(args)
        assert found > 0, said
        return
    # The whole suite with a selection ("-m 'not postgres'": the SQLite half): collect one file of both halves with
    # it. Its tests on a database run on both backends (tests/databases.py); the selection keeps the [sqlite] ones.
    found, said = _collect([*args, "tests/service/test_store.py"])
    ids = [x for x in said.splitlines() if "::" in x]
    assert found > 0 and any("[sqlite]" in x for x in ids) and not any("[postgresql]" in x for x in ids), said


def _dicetavern_args(words: list[str]) -> list[str]:
    return words[1:]


@pytest.mark.parametrize("command", of_kind("dicetavern"), ids=str)
def test_dicetavern_commands_parse(command):
    words = words_of(command)
    args = cli.build_parser().parse_args(_dicetavern_args(words))  # SystemExit on anything the CLI refuses
    assert args.command == words[1]


@pytest.mark.parametrize("command", of_kind("mention"), ids=str)
def test_dicetavern_mentions_name_subcommands(command):
    words = words_of(command)
    parser = cli.build_parser()
    choices = parser._subparsers._group_actions[0].choices
    assert words[1] in choices, command
    if len(words) > 2:
        parser.parse_args(words[1:])


def test_pip_commands_install_what_pyproject_declares():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    optional = project["optional-dependencies"]
    for command in of_kind("pip"):
        words = words_of(command)[2:]
        for word in words:
            extras = re.fullmatch(r"-e \.?\[([\w,]+)\]|\.\[([\w,]+)\]", word)
            if extras:
                assert set((extras.group(1) or extras.group(2)).split(",")) <= set(optional), command
            elif word == "-c":
                continue
            elif word.endswith(".txt"):
                assert (ROOT / word).exists(), command
            elif word not in ("-e",):
                wanted = {re.split(r"[<>=!~ \[]", d)[0].lower().replace("_", "-") for v in optional.values() for d in v}
                assert word.lower().replace("_", "-") in wanted, f"{command}: {word} is in no extra"


def test_docker_commands_match_the_dockerfile_and_compose():
    dockerfile = (ROOT / "Dockerfile").read_text()
    readme = (ROOT / "README.md").read_text()
    image = re.search(r"docker build -t (\S+) \.", readme).group(1)
    for command in of_kind("docker"):
        words = words_of(command)
        assert words[1] == "run", command
        volume = words[words.index("-v") + 1].split(":")[1]
        assert f'VOLUME ["{volume}"]' in dockerfile
        at = words.index(image)
        assert words[at + 1] == "dicetavern", command  # the image's own dicetavern, then its arguments
        cli.build_parser().parse_args(words[at + 2 :])
    compose = (ROOT / "compose.yaml").read_text()
    services = set(re.findall(r"^  ([a-z0-9-]+):\n", compose.split("\nservices:\n")[1], flags=re.M))
    for command in of_kind("compose"):
        words = words_of(command)
        assert words[2] in ("up", "exec", "run", "logs", "down", "stop"), command
        named = [w for w in words[3:] if not w.startswith("-")]
        if words[2] == "exec":
            named = named[:1]  # the service; what follows is its command
        assert set(named) <= services, command
