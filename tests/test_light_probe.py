"""``dicetavern health`` and ``--version`` import no heavy module (issue 26): Docker runs the probe every 30 s."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
HEAVY = ("discord", "aiohttp", "asyncpg", "aiosqlite", "matplotlib", "numpy")
PROBE = f"""
import sys
from bot import cli
try:
    status = cli.main(sys.argv[1:])
except SystemExit as done:  # --version exits through argparse
    status = done.code
print(sorted(m for m in {HEAVY!r} if m in sys.modules))
sys.exit(status)
"""


@pytest.mark.parametrize("argv", [["health"], ["health", "--shards", "0", "--shard-count", "2"], ["--version"]])
def test_the_probe_and_the_version_import_neither_discord_nor_a_driver(argv, tmp_path):
    env = {"PATH": "/usr/bin:/bin", "DATABASE_PATH": str(tmp_path / "t.sqlite3"), "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", PROBE, *argv], capture_output=True, text=True, env=env, cwd=tmp_path)
    assert done.stdout.strip().splitlines()[-1] == "[]", done.stdout + done.stderr
    if argv[0] == "health":
        assert done.returncode == 1 and "no heartbeat file" in done.stderr  # unhealthy, said, not a traceback


def test_version_names_the_installed_package(capsys):
    from bot import cli

    with pytest.raises(SystemExit) as done:
        cli.main(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out.strip() == f"dicetavern {cli.version()}" != "dicetavern unknown"


def test_a_low_identify_budget_is_exit_status_5():
    from bot import cli
    from bot.restarts import IdentifyBudgetLow, SessionStarts

    error = IdentifyBudgetLow(SessionStarts(total=1000, remaining=3, reset_after=3600.0, read_at=0.0), 20)
    failure = cli.discord_failure(error)
    assert failure is not None and failure.status == cli.BUDGET_LOW == 5 and str(failure) == str(error)
