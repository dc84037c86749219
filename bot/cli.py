"""``dicetavern``: run the bot, sync its slash commands, check its health, play or simulate in a terminal,
verify an exported game's dice.

``run`` and ``sync`` turn every failure to talk to Discord into one line on stderr: exit status 2 when
Discord refused (token, intents, access, a bad request), 3 when Discord could not be reached at all.
``sync`` also uploads the die faces as application emojis (``bot.emojis``; ``--dry-run`` changes nothing,
``--no-emojis`` skips them).
``health`` (Docker's HEALTHCHECK) exits 0 while the running bot's heartbeat file is fresh, else 1.
``run --shards 0-3 --shard-count 8`` (or ``DICETAVERN_SHARDS`` / ``DICETAVERN_SHARD_COUNT``; the flags win) serves
those shards only; exit status 4 when the bot stopped because another process took over one of its shards' leases,
5 when fewer session starts are left today than ``DICETAVERN_MIN_IDENTIFIES`` (bot.restarts).
``health`` and ``--version`` import neither discord.py, aiohttp nor a database driver (the probe runs every 30 s).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import signal
import socket
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from dotenv import find_dotenv, load_dotenv

# Only what `health` and `--version` need is imported here: Docker runs the probe every 30 s, and discord.py,
# aiohttp and the database drivers cost it most of a second of CPU. Every other command imports its own.
from bot.i18n import t
from bot.paths import HEARTBEAT_MAX_AGE, database_target, heartbeat_path, is_url
from bot.shards import SHARD_COUNT_ENV, SHARDS_ENV, ShardError, Shards, in_effect

if TYPE_CHECKING:
    from bot.emojis import Plan

log = logging.getLogger("dicetavern")

MISSING_ACCESS = 50001  # Discord's code for "Missing Access": e.g. a server the bot is not in
LEASE_LOST = 4  # exit status: another process took over one of this bot's shards
BUDGET_LOW = 5  # exit status: fewer session starts left today than DICETAVERN_MIN_IDENTIFIES


class CliError(Exception):
    """A failure that ends the command with one line on stderr and an exit status."""

    def __init__(self, message: str, status: int = 2) -> None:
        super().__init__(message)
        self.status = status


def _token() -> str:
    load_dotenv(find_dotenv(usecwd=True))  # the working directory's .env, not the package's
    token = os.environ.get("DISCORD_TOKEN", "").strip()
    if not token:
        raise CliError(t("cli.no_token"))
    return token


def _database() -> str:
    """``DATABASE_URL`` (PostgreSQL) if set, else ``DATABASE_PATH`` (SQLite), else the default file."""
    return database_target()


def shards_of(ids: str | None, count: str | None) -> Shards:
    """The shards to serve, from ``--shards``/``--shard-count`` (None: not given) or else the environment
    (bot.shards.in_effect); a one-line CliError for a range or count that cannot be used."""
    try:
        return in_effect(ids, count)
    except ShardError as error:
        raise CliError(f"shards: {error}") from None


async def _run(token: str, stop: asyncio.Event | None = None, shards: Shards | None = None, **options: Any) -> None:
    """Run until SIGINT/SIGTERM (or ``stop`` is set, for tests); ``options`` go to :class:`DiceTavern`."""
    from bot.client import DiceTavern
    from bot.restarts import RestartPolicy
    from bot.store.db import durability_setting
    from bot.store.leases import lease_ttl
    from bot.tables.retention import retention_days

    try:  # settings from the environment: a typo ends in one line now, not in a traceback at start-up
        durability_setting()
        retention_days()
        lease_ttl()
    except ValueError as error:
        raise CliError(str(error)) from None
    options.setdefault("restarts", RestartPolicy())  # wait before identifying after runs that ended badly
    bot = DiceTavern(database=_database(), shards=shards, **options)
    stop = stop or asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        try:
            loop.add_signal_handler(sig, stop.set)
        except (NotImplementedError, RuntimeError, ValueError):  # not the main thread, or Windows
            pass
    async with bot:
        runner = asyncio.create_task(bot.start(token), name="bot")
        stopper = asyncio.create_task(stop.wait(), name="signals")
        done, _ = await asyncio.wait({runner, stopper}, return_when=asyncio.FIRST_COMPLETED)
        if runner in done:
            stopper.cancel()
            runner.result()  # re-raises a login failure
            if bot.lease_lost:
                raise CliError(f"another process took over a lease on shards {bot.shard_range}", LEASE_LOST)
            return
        log.info("shutting down")
        await bot.close()
        await runner


@dataclass
class Synced:
    """What ``dicetavern sync`` did: the commands synced (in a dry run: the bot's commands, none synced) and the
    die faces' plan (None with ``--no-emojis``); ``emoji_error`` when Discord refused a face (after the commands)."""

    commands: int
    dry_run: bool = False
    emojis: Plan | None = None
    emoji_error: CliError | None = None


async def _sync(token: str, guild_id: int | None) -> int:
    """Sync the commands and upload the die faces; how many commands were synced."""
    synced = await sync_all(token, guild_id)
    if synced.emoji_error is not None:
        raise synced.emoji_error
    return synced.commands


async def sync_all(token: str, guild_id: int | None, *, emojis: bool = True, dry_run: bool = False) -> Synced:
    """The slash commands, then the die faces as application emojis (``bot.emojis``: only missing or changed
    faces are uploaded; only the bot's own stale versions deleted). ``dry_run``: one read of the emojis, nothing
    changed, no command synced."""
    import discord

    from bot.client import DiceTavern
    from bot.emojis import UploadFailed, sync_emojis

    # commands_only: the tree and nothing else. No store and no table service, so a sync neither applies a
    # stopped game's overdue move nor writes beside a running bot.
    bot = DiceTavern(database=_database(), commands_only=True)
    async with bot:
        await bot.login(token)  # runs setup_hook, so the command tree is complete
        guild = discord.Object(guild_id) if guild_id else None
        if guild is not None:
            bot.tree.copy_global_to(guild=guild)
        if dry_run:
            synced = Synced(len(bot.tree.get_commands(guild=guild)), dry_run=True)
        else:
            try:
                commands = await bot.tree.sync(guild=guild)
            except discord.Forbidden as error:
                if guild_id and error.code == MISSING_ACCESS:
                    raise CliError(t("cli.not_in_server", guild=guild_id, error=one_line(error))) from error
                raise
            synced = Synced(len(commands))
        if emojis:
            try:
                synced.emojis = await sync_emojis(bot, dry_run=dry_run)
            except UploadFailed as error:  # the commands are synced: say so, then why the face was refused
                refused = t("cli.emoji_refused", name=error.upload.name, error=one_line(error.error))
                synced.emoji_error = CliError(refused)
    return synced


def sync_report(synced: Synced, guild_id: int | None) -> list[str]:
    """The lines ``dicetavern sync`` prints."""
    if synced.dry_run:
        lines = [t("cli.commands_dry_run", count=synced.commands)]
    else:
        key = "cli.synced_guild" if guild_id else "cli.synced_global"
        lines = [t(key, count=synced.commands, guild=guild_id)]
    plan = synced.emojis
    if plan is None or synced.emoji_error is not None:
        return lines
    counts = {"uploaded": len(plan.uploads), "deleted": len(plan.deletions), "unchanged": len(plan.keeps)}
    if synced.dry_run:
        lines += [t("cli.emoji_would_upload", name=upload.name) for upload in plan.uploads]
        lines += [t("cli.emoji_would_delete", name=known.name) for known in plan.deletions]
        lines.append(t("cli.emojis_dry_run", **counts))
    else:
        lines.append(t("cli.emojis_synced", **counts))
    return lines


def one_line(error: BaseException) -> str:
    """discord.py puts a form error's details on extra lines; the CLI prints one line."""
    return "; ".join(part.strip() for part in str(error).splitlines() if part.strip()) or type(error).__name__


def discord_failure(error: BaseException) -> CliError | None:
    """The one-line error for a failure to start or talk to Discord, or None for anything else (a bug)."""
    import aiohttp
    import discord

    from bot.client import DatabaseUnavailable
    from bot.restarts import IdentifyBudgetLow

    if isinstance(error, IdentifyBudgetLow):  # too few session starts left today: its own status, for a supervisor
        return CliError(str(error), BUDGET_LOW)
    if isinstance(error, discord.LoginFailure):
        return CliError(t("cli.bad_token"))
    if isinstance(error, discord.PrivilegedIntentsRequired):
        return CliError(t("cli.intents"))
    # Discord's answers only: an ExtensionFailed or another client-side DiscordException is a bug (a traceback).
    if isinstance(error, discord.HTTPException | discord.ConnectionClosed | discord.GatewayNotFound):
        return CliError(t("cli.refused", error=one_line(error)))
    if isinstance(error, aiohttp.ClientError | ConnectionError | TimeoutError | socket.gaierror):
        return CliError(t("cli.unreachable", error=one_line(error)), status=3)
    if isinstance(error, DatabaseUnavailable):  # not Discord's, but as much a setup mistake as a bad token
        from bot.store.errors import DriverMissing

        variable = "DATABASE_URL" if is_url(error.path) else "DATABASE_PATH"
        why = t("cli.postgres_missing") if isinstance(error.error, DriverMissing) else one_line(error.error)
        return CliError(t("cli.database", path=error.path, variable=variable, error=why))
    return None


def health(path: Path, max_age: float = HEARTBEAT_MAX_AGE, now: float | None = None) -> tuple[bool, str]:
    """Whether the bot behind ``path`` is connected: its heartbeat file was touched within ``max_age`` s."""
    try:
        touched = path.stat().st_mtime
    except OSError:
        return False, t("cli.no_heartbeat", path=path)
    age = max(0.0, (time.time() if now is None else now) - touched)
    if age > max_age:
        return False, t("cli.stale_heartbeat", age=age, max_age=max_age)
    return True, t("cli.healthy", age=age)


def _health(args: argparse.Namespace) -> int:
    try:
        shards = shards_of(args.shards, args.shard_count)
    except CliError as error:
        print(t("cli.error", message=error), file=sys.stderr)
        return 1
    ok, message = health(heartbeat_path(_database(), shards), args.max_age)
    print(message, file=sys.stdout if ok else sys.stderr)
    return 0 if ok else 1


def version() -> str:
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    try:
        return installed("dicetavern")
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "unknown"


def _parser() -> tuple[argparse.ArgumentParser, Any]:
    parser = argparse.ArgumentParser(prog="dicetavern", description="Dice Tavern, the dice-game bot for Discord")
    parser.add_argument("--version", action="version", version=f"dicetavern {version()}")
    sub = parser.add_subparsers(dest="command", required=True)
    return parser, sub


def _health_parser(sub: Any) -> None:
    check = sub.add_parser("health", help="exit 0 if the running bot is connected (its heartbeat file is fresh)")
    check.add_argument(
        "--max-age",
        type=float,
        default=HEARTBEAT_MAX_AGE,
        help=f"seconds since the last heartbeat that still count as healthy (default {HEARTBEAT_MAX_AGE:.0f})",
    )
    _shard_arguments(check)
    check.set_defaults(handler=_health)


def light_parser() -> argparse.ArgumentParser:
    """``health`` and ``--version`` alone: the parser the probe builds, importing no other command's modules."""
    parser, sub = _parser()
    _health_parser(sub)
    return parser


def build_parser() -> argparse.ArgumentParser:
    parser, sub = _parser()
    run = sub.add_parser("run", help="run the bot (DISCORD_TOKEN, optional DATABASE_PATH or DATABASE_URL)")
    _shard_arguments(run)
    sync = sub.add_parser("sync", help="register the slash commands and upload the die faces (once after an upgrade)")
    sync.add_argument("--guild", type=int, help="sync to one server only (instant; for testing)")
    sync.add_argument(
        "--dry-run", action="store_true", help="change nothing: list the die faces it would upload or delete"
    )
    sync.add_argument("--no-emojis", action="store_true", help="sync the commands only, not the die faces")
    _health_parser(sub)
    from bot import config, simulate, terminal, verify
    from bot.store import copy as store_copy

    terminal.add_arguments(sub.add_parser("play", help="play a game in the terminal against computer players"))
    simulate.add_arguments(
        sub.add_parser("simulate", help="computer players against each other: win rates and game lengths")
    )
    verify.add_arguments(
        sub.add_parser("verify", help="check an exported game's dice against its revealed seed (/game export)")
    )
    config.add_arguments(
        sub.add_parser("config", help="print the settings in effect, where each comes from, secrets masked")
    )
    store_copy.add_arguments(
        sub.add_parser("migrate", help="copy the whole database to another (SQLite to PostgreSQL), then verify it")
    )
    return parser


def _shard_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--shards", metavar="IDS", help=f"the shards this process serves, e.g. 0-3,6 (default: {SHARDS_ENV}, or all)"
    )
    parser.add_argument(
        "--shard-count", metavar="N", help=f"how many shards the bot has in all (default: {SHARD_COUNT_ENV}, or 1)"
    )


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    light = bool(argv) and argv[0] in ("health", "--version")
    args = (light_parser() if light else build_parser()).parse_args(argv)
    if args.command in ("play", "simulate", "health", "verify", "migrate", "config"):
        return args.handler(args)  # no Discord token and no Discord logging for these

    import discord

    if not any(type(h) is logging.StreamHandler for h in logging.getLogger().handlers):
        # discord.py's format, once per process; a sync prints only its result (or one error line)
        discord.utils.setup_logging(level=logging.INFO if args.command == "run" else logging.WARNING)
    try:
        shards = shards_of(args.shards, args.shard_count) if args.command == "run" else None
        token = _token()
        if args.command == "run":
            asyncio.run(_run(token, shards=shards))
        elif args.command == "sync":
            synced = asyncio.run(sync_all(token, args.guild, emojis=not args.no_emojis, dry_run=args.dry_run))
            print("\n".join(sync_report(synced, args.guild)))
            if synced.emoji_error is not None:
                raise synced.emoji_error
    except CliError as error:
        print(t("cli.error", message=error), file=sys.stderr)
        return error.status
    except Exception as error:
        failure = discord_failure(error)
        if failure is None:
            raise
        print(t("cli.error", message=failure), file=sys.stderr)
        return failure.status
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
