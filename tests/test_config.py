"""`dicetavern config`: every setting in effect with its source, secrets masked, a refusal for what `run` would
refuse; and an install without asyncpg (the ``postgres`` extra): SQLite works, PostgreSQL says how to get it."""

from __future__ import annotations

import asyncio
import logging
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from bot import cli
from bot.environment import SETTINGS
from bot.store import errors
from tests.fakediscord import FakeDiscord

ROOT = Path(__file__).resolve().parent.parent
TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GaBcDe.secret-part-XYZW"
PIP = 'pip install "dicetavern[postgres]"'


@pytest.fixture
def env(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # no stray .env is read
    for setting in SETTINGS:
        monkeypatch.delenv(setting.name, raising=False)
    saved, root = dict(os.environ), logging.getLogger()
    handlers = list(root.handlers)
    yield monkeypatch
    # `config` loads .env into os.environ and `run` installs discord.py's log handler on the captured stderr:
    # neither may reach the next test in this worker
    os.environ.clear()
    os.environ.update(saved)
    root.handlers[:] = handlers


def config(capsys) -> tuple[int, dict[str, str], list[str]]:
    status = cli.main(["config"])
    lines = capsys.readouterr().out.splitlines()
    named = {line.split(" ", 1)[0].rstrip(":"): line for line in lines[1:] if re.match(r"[A-Z][A-Z_]+[ :]", line)}
    return status, named, lines


def test_config_lists_every_variable_the_readme_documents():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    table = readme.split("## Environment")[1].split("\n\n")[1]
    documented = re.findall(r"^\| `([A-Z0-9_]+)` \|", table, flags=re.M)
    assert [s.name for s in SETTINGS] == documented  # the same ones, in the README's order


def test_config_shows_values_sources_and_defaults_with_secrets_masked(env, tmp_path, capsys):
    env.setenv("DISCORD_TOKEN", TOKEN)
    (tmp_path / ".env").write_text("DATABASE_URL=postgresql://bot:hunter2@db.example:5432/tavern\nNO_COLOR=1\n")
    status, named, lines = config(capsys)
    out = "\n".join(lines)
    assert status == 0, out
    assert TOKEN[:-4] not in out and "hunter2" not in out
    assert named["DISCORD_TOKEN"] == "DISCORD_TOKEN = ***XYZW (environment)"
    assert named["DATABASE_URL"] == "DATABASE_URL = postgresql://bot:***@db.example:5432/tavern (.env)"
    assert named["NO_COLOR"] == "NO_COLOR = 1 (.env)"
    assert named["DICETAVERN_LEASE_TTL"] == "DICETAVERN_LEASE_TTL = 30 (default)"
    assert named["DICETAVERN_SHARDS"] == "DICETAVERN_SHARDS: unset"
    assert str(tmp_path / ".env") in lines[0]
    assert "database in effect: postgresql://bot:***@db.example:5432/tavern" in lines
    assert f"heartbeat file: {tmp_path / 'data' / 'dicetavern.heartbeat'}" in lines
    assert set(named) == {s.name for s in SETTINGS}


@pytest.mark.parametrize(
    "variable, value, words",
    [
        ("DICETAVERN_LEASE_TTL", "0", "must be above 0"),
        ("DICETAVERN_MIN_IDENTIFIES", "many", "must be a whole number of session starts"),
        ("DICETAVERN_RETENTION_DAYS", "-1", "must be 0 or more"),
        ("DICETAVERN_DURABILITY", "sometimes", "must be one of full, fast"),
        ("DICETAVERN_SHARDS", "0-3", "needs --shard-count"),
        ("DICETAVERN_PRIVACY_URL", "not a link", "DICETAVERN_PRIVACY_URL"),
        ("DATABASE_URL", "mysql://x", "not a postgresql:// URL"),
        ("DICETAVERN_VERIFIER_URL", "ftp://x/verify.html", "not an http or https address"),
    ],
)
def test_a_setting_run_would_refuse_is_named_and_config_exits_1(env, capsys, variable, value, words):
    env.setenv("DISCORD_TOKEN", TOKEN)
    env.setenv(variable, value)
    status, named, _ = config(capsys)
    assert status == 1
    assert named[variable].startswith(f"{variable} = {value} (environment): refused: ") and words in named[variable]
    assert [n for n, line in named.items() if ": refused: " in line] == [variable]


def test_no_token_is_refused_by_config_as_run_would(env, capsys):
    status, named, _ = config(capsys)
    assert status == 1
    assert named["DISCORD_TOKEN"] == "DISCORD_TOKEN: unset: refused: " + cli.t("cli.no_token")


def test_the_numbers_run_reads_are_read_one_way():
    from bot.environment import number

    assert number("X", None, 7.0, what="a number") == 7.0
    assert number("X", " 2.5 ", 7.0, what="a number") == 2.5
    assert number("X", "3", 7.0, what="a whole number", whole=True) == 3
    with pytest.raises(ValueError, match=r"X must be a whole number, not '2.5'"):
        number("X", "2.5", 7.0, what="a whole number", whole=True)
    with pytest.raises(ValueError, match=r"X must be above 0, not '0'"):
        number("X", "0", 7.0, what="a number", above_zero=True)
    assert number("X", "0", 7.0, what="a number") == 0


# -- without asyncpg ----------------------------------------------------------------------------------------------


async def test_run_with_a_postgresql_url_and_no_driver_says_how_to_install_it(env, tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(errors, "asyncpg", None)  # what bot.store.errors holds on an install without the extra
    async with FakeDiscord() as fake:
        fake.add_guild("Tavern")
        env.setenv("DISCORD_TOKEN", "token")
        env.setenv("DATABASE_URL", "postgresql://bot:hunter2@127.0.0.1:5432/tavern")
        assert await asyncio.to_thread(cli.main, ["run"]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and "hunter2" not in err
    last = err.strip().splitlines()[-1]
    assert last.startswith("error: cannot open the database postgresql://bot:***@127.0.0.1:5432/tavern (DATABASE_URL)")
    assert last.endswith(cli.t("cli.postgres_missing")) and PIP in last


# Run in a fresh interpreter where `import asyncpg` fails, as on an install without the postgres extra.
BLOCKED = """
import sys
sys.modules["asyncpg"] = None  # import asyncpg -> ImportError
"""


def _without_asyncpg(code: str, tmp_path: Path, **environ: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in {s.name for s in SETTINGS}}
    env.update(environ, PYTHONPATH=str(ROOT))
    script = BLOCKED + textwrap.dedent(code)
    return subprocess.run(
        [sys.executable, "-c", script], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120
    )


def test_every_module_but_the_postgresql_backend_imports_without_asyncpg_and_sqlite_works(tmp_path):
    result = _without_asyncpg(
        """
        import asyncio, importlib, pkgutil
        import bot, cogs
        skipped = {"bot.store.postgres"}  # the backend itself: imported only when DATABASE_URL asks for it
        for package in (bot, cogs):
            for module in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
                if module.name not in skipped and not module.name.endswith("__main__"):
                    importlib.import_module(module.name)
        from bot.store import open_store
        from bot.store.errors import DriverMissing

        async def main():
            store = await open_store("db.sqlite3")
            await store.close()
            try:
                await open_store("postgresql://bot@127.0.0.1:5432/test")
            except DriverMissing as error:
                print("refused:", error)

        asyncio.run(main())
        print("asyncpg" in sys.modules and sys.modules["asyncpg"] is not None)
        """,
        tmp_path,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [f"refused: asyncpg is not installed: {PIP}", "False"]
    assert (tmp_path / "db.sqlite3").exists()


def test_config_and_migrate_without_asyncpg_say_how_to_install_it(tmp_path):
    url = "postgresql://bot:hunter2@127.0.0.1:5432/test"
    code = """
import asyncio
from bot import cli
from bot.store import open_store

async def source():
    await (await open_store("src.sqlite3")).close()

asyncio.run(source())
raise SystemExit(cli.main(sys.argv[1:]))
"""
    shown = cli.t("cli.postgres_missing")
    for argv, stream in ((["config"], "stdout"), (["migrate", "--from", "sqlite:src.sqlite3", "--to", url], "stderr")):
        result = _without_asyncpg(f"sys.argv[1:] = {argv!r}\n" + code, tmp_path, DISCORD_TOKEN=TOKEN, DATABASE_URL=url)
        out = getattr(result, stream)
        assert result.returncode in (1, 2), (argv, result.stdout, result.stderr)
        assert shown in out and "Traceback" not in result.stderr and "hunter2" not in out, (argv, out)
