"""Every command the README shows is true: run here, or checked against what it relies on.

``play`` and ``simulate`` run for real (scripted answers, no pauses, few games) through ``.venv/bin/dicetavern``,
with ``.venv/bin`` pointing at this interpreter's scripts. Commands that need Discord or Docker are checked
differently: their arguments parse, the test command is the one CI runs, the Dockerfile and the invite agree.
"""

from __future__ import annotations

import os
import re
import shlex
import stat
import subprocess
import sys
import tomllib
from pathlib import Path

import discord
import pytest
from packaging.requirements import Requirement

from bot import cli
from bot.client import INVITE_PERMISSIONS, INVITE_SCOPES
from bot.i18n import t

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
CI_RUN = ROOT / ".ci" / "run"
VENV_BIN = ".venv/bin/"
SMALL_GAMES = 20


def shell_commands() -> list[str]:
    """The command lines of the README's ```sh blocks (comments and blank lines dropped)."""
    lines = []
    for block in re.findall(r"^```sh\n(.*?)^```", README, flags=re.S | re.M):
        lines += [line.strip() for line in block.splitlines() if line.strip() and not line.strip().startswith("#")]
    return lines


def kind(command: str) -> str:
    if command.startswith("docker compose "):
        return "compose"
    if command.startswith("docker "):
        return "docker"
    if "pytest" in command:
        return "test"
    for sub in ("run", "sync", "play", "simulate", "migrate"):
        if f"{VENV_BIN}dicetavern {sub}" in command:
            return sub
    return "unknown"


COMMANDS = shell_commands()


def commands_of(name: str) -> list[str]:
    return [c for c in COMMANDS if kind(c) == name]


def test_every_readme_command_is_one_this_file_checks():
    kinds = [kind(c) for c in COMMANDS]
    assert "unknown" not in kinds, [c for c in COMMANDS if kind(c) == "unknown"]
    assert sorted(set(kinds)) == ["compose", "docker", "migrate", "play", "run", "simulate", "sync", "test"]


def _args_after(command: str, program: str) -> list[str]:
    words = shlex.split(command)
    return words[words.index(program) + 1 :]


# -- the quick start and CI ------------------------------------------------------------------------------------------


def _steps(command: str) -> list[str]:
    return [step.strip() for step in command.split("&&")]


def test_the_quick_start_makes_a_venv_installs_pinned_versions_and_runs_the_bot():
    (run,) = commands_of("run")
    (test,) = commands_of("test")
    for command in (run, test):
        steps = _steps(command)
        assert steps[0] == "python3 -m venv .venv"  # never the system Python: it may be externally managed
        assert steps[1].startswith(f"{VENV_BIN}pip install ") and steps[1].endswith(" -c constraints.txt")
        assert all(s.split()[0].startswith(VENV_BIN) or s.startswith(("python3 ", "DISCORD_TOKEN=")) for s in steps)
    assert _steps(run)[1] == f"{VENV_BIN}pip install . -c constraints.txt"
    assert _steps(run)[-1] == f"DISCORD_TOKEN=your-bot-token {VENV_BIN}dicetavern run"
    assert cli.build_parser().parse_args(_args_after(run, f"{VENV_BIN}dicetavern")).command == "run"
    assert _steps(test)[1:] == [
        f'{VENV_BIN}pip install -e ".[test]" -c constraints.txt',
        f"{VENV_BIN}ruff check .",
        f"{VENV_BIN}mypy",
        f"{VENV_BIN}pytest",
    ]


def test_ci_runs_the_readmes_test_command_last():
    (test,) = commands_of("test")
    lines = [x for x in CI_RUN.read_text().splitlines() if x.strip() and not x.lstrip().startswith("#")]
    assert lines[-1] == test  # verbatim, and last: its exit status is the script's
    assert "set -euo pipefail" in lines


def _fake_python(folder: Path) -> Path:
    """A ``python3`` whose ``-m venv .venv`` makes stub pip/ruff/pytest that log their name and exit with $<NAME>_RC."""
    bin_ = folder / "fakebin"
    bin_.mkdir()
    stub = '#!/bin/sh\necho "$(basename "$0")" >> "$CI_LOG"\neval "exit \\${$(basename "$0" | tr a-z A-Z)_RC:-0}"\n'
    script = f"""#!/bin/sh
[ "$1 $2 $3" = "-m venv .venv" ] || exit 99
mkdir -p .venv/bin
for tool in pip ruff mypy pytest; do printf '%s' '{stub}' > .venv/bin/$tool; chmod +x .venv/bin/$tool; done
"""
    python = bin_ / "python3"
    python.write_text(script)
    python.chmod(python.stat().st_mode | stat.S_IEXEC)
    return bin_


@pytest.mark.parametrize(
    ("codes", "status", "ran"),
    [
        ({}, 0, ["pip", "ruff", "mypy", "pytest"]),
        ({"PYTEST_RC": "5"}, 5, ["pip", "ruff", "mypy", "pytest"]),  # no tests collected is a failure
        ({"PYTEST_RC": "1"}, 1, ["pip", "ruff", "mypy", "pytest"]),
        ({"MYPY_RC": "1"}, 1, ["pip", "ruff", "mypy"]),
        ({"RUFF_RC": "1"}, 1, ["pip", "ruff"]),
        ({"PIP_RC": "1"}, 1, ["pip"]),
    ],
)
def test_ci_fails_when_any_step_fails(tmp_path, codes, status, ran):
    (tmp_path / ".ci").mkdir()
    (tmp_path / ".ci" / "run").write_text(CI_RUN.read_text())
    log = tmp_path / "log"
    env = {**os.environ, **codes, "CI_LOG": str(log), "PATH": f"{_fake_python(tmp_path)}:{os.environ['PATH']}"}
    result = subprocess.run(["bash", str(tmp_path / ".ci" / "run")], env=env, capture_output=True, text=True)
    assert result.returncode == status, result.stderr
    assert log.read_text().split() == ran


def test_constraints_pin_every_dependency_and_not_the_project():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    pins: dict[str, str] = {}
    for line in (ROOT / "constraints.txt").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            assert not line.startswith("-e") and "==" in line, line
            name, version = line.split("==")
            pins[re.sub(r"[-_.]+", "-", name).lower()] = version
    assert "dicetavern" not in pins
    extras = project["optional-dependencies"]
    for text in project["dependencies"] + extras["postgres"] + extras["test"]:
        requirement = Requirement(text)
        if requirement.name == "dicetavern":  # the test extra names the postgres extra: pinned above
            assert requirement.extras == {"postgres"}
            continue
        pinned = pins.get(re.sub(r"[-_.]+", "-", requirement.name).lower())
        assert pinned is not None, f"{requirement.name} is not pinned in constraints.txt"
        assert requirement.specifier.contains(pinned), f"{requirement.name}=={pinned} violates {requirement}"


# -- commands that need Discord --------------------------------------------------------------------------------------


def test_the_sync_commands_parse():
    syncs = commands_of("sync")
    assert len(syncs) == 2
    for command in syncs:
        assert command.startswith("DISCORD_TOKEN=your-bot-token ")
        args = cli.build_parser().parse_args(_args_after(command.replace("SERVER_ID", "123"), f"{VENV_BIN}dicetavern"))
        assert args.command == "sync"
    assert {cli.build_parser().parse_args(_args_after(c.replace("SERVER_ID", "123"), f"{VENV_BIN}dicetavern")).guild
            for c in syncs} == {None, 123}


def test_inline_dicetavern_commands_parse():
    commands = re.findall(r"`\.venv/bin/dicetavern ([^`]*)`", README)
    assert len(commands) >= 2
    for args in commands:
        cli.build_parser().parse_args(shlex.split(args))  # SystemExit on anything the CLI does not accept
    mentions = re.findall(r"`dicetavern ([^`]*)`", README)  # a subcommand named in the text
    subcommands = {"run", "sync", "health", "play", "simulate", "verify", "migrate", "config"}
    assert mentions and {m.split()[0] for m in mentions} <= subcommands | {"--version"}
    assert set(cli.build_parser()._subparsers._group_actions[0].choices) == subcommands


def test_the_pig_solver_command_exists():
    (args,) = re.findall(r"`\.venv/bin/python -m (bot\.ai\.pig_solver [^`]*)`", README)
    module, *flags = args.split()
    result = subprocess.run([sys.executable, "-m", module, "--help"], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0 and all(flag in result.stdout for flag in flags)


def test_the_invite_the_readme_describes_is_the_one_the_bot_prints():
    line = next(x for x in README.splitlines() if "bot permissions" in x)
    listed = re.findall(r"\*([^*]+)\*", line.split("bot permissions")[1])
    assert listed == [p.replace("_", " ").title() for p in INVITE_PERMISSIONS]
    for name in INVITE_PERMISSIONS:
        assert getattr(discord.Permissions, name)  # a real permission flag
    scopes = README.split("scopes ")[1].split(";")[0]
    assert re.findall(r"`([^`]+)`", scopes) == list(INVITE_SCOPES)


def test_the_environment_table_lists_every_variable_the_code_reads():
    table = README.split("## Environment")[1].split("\n\n")[1]
    documented = set(re.findall(r"^\| `([A-Z0-9_]+)` \|", table, flags=re.M))
    read = set()
    for path in (ROOT / "bot").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        read |= set(re.findall(r'^\w+_ENV = "([A-Z0-9_]+)"', text, flags=re.M))  # a variable's name, read elsewhere
        if "os.environ" in text:
            named = set(re.findall(r'"([A-Z][A-Z0-9]*_[A-Z0-9_]+)"', text))
            read |= {n for n in named if not re.search(rf"^{n}\b", text, flags=re.M)}  # not a constant's own name
    assert {"DISCORD_TOKEN", "DATABASE_PATH", "DATABASE_URL", "DICETAVERN_SHARDS"} <= read
    assert read == documented


# -- past one process: migrate and compose ---------------------------------------------------------------------------

COMPOSE = (ROOT / "compose.yaml").read_text(encoding="utf-8")


def _compose_services() -> dict[str, str]:
    """compose.yaml's services: name -> its block of text (read by hand: PyYAML is not a dependency)."""
    services = COMPOSE.split("\nservices:\n")[1].split("\n\n" + "volumes:")[0]
    blocks = re.split(r"^  ([a-z0-9-]+):\n", services, flags=re.M)[1:]
    return dict(zip(blocks[::2], blocks[1::2], strict=True))


def test_the_migrate_command_parses_and_reaches_composes_postgresql():
    (command,) = commands_of("migrate")
    args = cli.build_parser().parse_args(_args_after(command, f"{VENV_BIN}dicetavern"))
    assert args.command == "migrate" and args.source == "sqlite:data/dicetavern.sqlite3"
    postgres = _compose_services()["postgres"]
    user = re.search(r"POSTGRES_USER: (\S+)", postgres).group(1)
    password = re.search(r"POSTGRES_PASSWORD: \$\{POSTGRES_PASSWORD:-(\w+)\}", postgres).group(1)
    database = re.search(r"POSTGRES_DB: (\S+)", postgres).group(1)
    port = re.search(r'"127\.0\.0\.1:\$\{POSTGRES_PORT:-(\d+)\}:5432"', postgres).group(1)
    assert args.target == f"postgresql://{user}:{password}@127.0.0.1:{port}/{database}"
    # ... and the bots' DATABASE_URL is the same database, seen from the compose network
    url = re.search(r"DATABASE_URL: (\S+)", COMPOSE).group(1).replace("${POSTGRES_PASSWORD:-tavern}", password)
    assert url == f"postgresql://{user}:{password}@postgres:5432/{database}"


def test_compose_runs_every_shard_once_after_a_healthy_postgresql():
    services = _compose_services()
    for command in commands_of("compose"):
        named = [w for w in shlex.split(command)[3:] if not w.startswith("-")]
        assert set(named) <= set(services), command
    bots = {name: block for name, block in services.items() if name.startswith("bot-")}
    assert len(bots) >= 2
    count = int(re.search(r'DICETAVERN_SHARD_COUNT: "(\d+)"', COMPOSE).group(1))
    shards = sorted(int(re.search(r'DICETAVERN_SHARDS: "(\d+)"', block).group(1)) for block in bots.values())
    assert shards == list(range(count))
    assert all("<<: *bot\n" in block for block in bots.values())
    assert re.search(r"depends_on:\n\s+postgres:\n\s+condition: service_healthy", COMPOSE)
    assert "pg_isready" in services["postgres"] and "DISCORD_TOKEN: ${DISCORD_TOKEN:?" in COMPOSE
    assert "build: ." in COMPOSE
    # every container's log is rotated, and the bots' data folder is a named volume (not an anonymous one)
    assert re.search(r'x-logging: &logging.*\n\s+driver: json-file\n\s+options:\n\s+max-size: "\d+m"', COMPOSE)
    assert all("logging: *logging" in block for block in [services["postgres"], COMPOSE.split("x-bot:")[1]])
    assert "- bot-data:/app/data" in COMPOSE and "\n  bot-data:" in COMPOSE.split("\nvolumes:\n")[-1]


# -- Docker ----------------------------------------------------------------------------------------------------------


def test_docker_command_matches_the_dockerfile():
    (command,) = commands_of("docker")
    dockerfile = (ROOT / "Dockerfile").read_text()
    volume = re.search(r"-v [\w-]+:(\S+)", command).group(1)
    assert f'VOLUME ["{volume}"]' in dockerfile
    assert "DATABASE_PATH=" + volume in dockerfile
    assert "--env-file .env" in command and "DISCORD_TOKEN=" not in command  # the token stays out of shell history
    ignored = (ROOT / ".dockerignore").read_text().split()
    assert ".env" in ignored and "constraints.txt" not in ignored


def test_dockerfile_builds_the_compiled_engines():
    """The image's wheel carries the engines' compiled fast path: its build stage has setup.py and a C compiler (a
    wheel built without either silently serves the pure-Python engines in production)."""
    build = (ROOT / "Dockerfile").read_text().rsplit("\nFROM ", 1)[0]
    copies = [x.split()[1:-1] for x in build.splitlines() if x.startswith("COPY ")]
    assert any("setup.py" in files for files in copies)
    assert re.search(r"apt-get install .*\bgcc\b", build)
    assert "bot/games/*.so" in (ROOT / ".dockerignore").read_text().split()  # a local build is not copied in


def test_dockerfile_installs_pinned_dependencies_before_the_code_and_checks_health(tmp_path):
    dockerfile = (ROOT / "Dockerfile").read_text()
    final = dockerfile.rsplit("\nFROM ", 1)[1]  # the image's stage; the first only builds the wheel
    assert not re.search(r"^COPY (bot|cogs) ", final, flags=re.M), "the image keeps no source tree"
    assert "COPY --from=build /wheels" in final and "pip install --no-deps /tmp/wheels/*.whl" in final
    lines = final.replace("\\\n", " ").splitlines()
    copies = [i for i, x in enumerate(lines) if x.startswith("COPY ")]
    deps = next(i for i, x in enumerate(lines) if x.startswith("RUN ") and "-c constraints.txt" in x)
    assert lines[copies[0]].split()[1:] == ["pyproject.toml", "constraints.txt", "./"]
    assert copies[0] < deps < copies[1]  # only these two files decide the dependency layer
    # The layer's requirement list is pyproject.toml's runtime dependencies: run its one-liner.
    one_liner = re.search(r'python -c "(.*?)"\s+>', lines[deps]).group(1)
    (tmp_path / "pyproject.toml").write_text((ROOT / "pyproject.toml").read_text())
    out = subprocess.run([sys.executable, "-c", one_liner], cwd=tmp_path, capture_output=True, text=True, check=True)
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert out.stdout.split("\n")[:-1] == project["dependencies"] + project["optional-dependencies"]["postgres"]
    (health,) = [x for x in lines if x.startswith("HEALTHCHECK ")]
    command = re.search(r"CMD \[(.*)\]", health).group(1)
    args = [a.strip(' "') for a in command.split(",")]
    assert args[0] == "dicetavern" and cli.build_parser().parse_args(args[1:]).command == "health"


# -- play and simulate, for real ----------------------------------------------------------------------------------


@pytest.fixture
def venv_dir(tmp_path: Path) -> Path:
    """A working directory whose ``.venv/bin`` holds this interpreter's scripts (dicetavern among them)."""
    (tmp_path / ".venv").mkdir()
    (tmp_path / ".venv" / "bin").symlink_to(Path(sys.executable).parent)
    assert (tmp_path / ".venv" / "bin" / "dicetavern").exists()
    return tmp_path


def _run(command: str, cwd: Path, answers: str = "") -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    return subprocess.run(
        ["bash", "-c", command], cwd=cwd, env=env, input=answers, capture_output=True, text=True, timeout=120
    )


@pytest.mark.parametrize("command", commands_of("play"))
def test_play_examples_play_a_whole_game(command, venv_dir):
    # The person always answers the first move; no pauses before computer moves; fixed dice.
    result = _run(command + " --pause 0 --seed 3", venv_dir, answers="1\n" * 500)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr
    assert t("terminal.result", ranking="").strip() in result.stdout  # the game ended, with a ranking


@pytest.mark.parametrize("command", commands_of("simulate"))
def test_simulate_examples_run_with_few_games(command, venv_dir):
    small, count = re.subn(r"--games \d+", f"--games {SMALL_GAMES}", command)
    assert count == 1
    result = _run(small, venv_dir)
    assert result.returncode == 0, result.stderr
    assert f"{SMALL_GAMES} games" in result.stdout
    levels = re.search(r"--players (\S+)", command).group(1).split(",")
    seats = [line.split() for line in result.stdout.splitlines() if re.match(r"\s+\d+\s", line)]
    assert [row[1] for row in seats] == levels
