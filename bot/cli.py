"""``dicetavern``: run the bot, or sync its slash commands."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import signal
import sys

import aiohttp
import discord
from dotenv import find_dotenv, load_dotenv

from bot import simulate, terminal
from bot.client import DEFAULT_DATABASE, DiceTavern

log = logging.getLogger("dicetavern")


def _token() -> str:
    load_dotenv(find_dotenv(usecwd=True))  # the working directory's .env, not the package's
    token = os.environ.get("DISCORD_TOKEN", "").strip()
    if not token:
        raise SystemExit("error: DISCORD_TOKEN is not set (put it in the environment or in a .env file)")
    return token


def _database() -> str:
    return os.environ.get("DATABASE_PATH", DEFAULT_DATABASE)


async def _run(token: str) -> None:
    bot = DiceTavern(database_path=_database())
    stop = asyncio.Event()
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
            return
        log.info("shutting down")
        await bot.close()
        await runner


async def _sync(token: str, guild_id: int | None) -> int:
    bot = DiceTavern(database_path=_database())
    async with bot:
        await bot.login(token)  # runs setup_hook, so the command tree is complete
        guild = discord.Object(guild_id) if guild_id else None
        if guild is not None:
            bot.tree.copy_global_to(guild=guild)
        commands = await bot.tree.sync(guild=guild)
    return len(commands)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="dicetavern", description="Dice Tavern, the dice-game bot for Discord")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("run", help="run the bot (DISCORD_TOKEN, optional DATABASE_PATH)")
    sync = sub.add_parser("sync", help="register the slash commands with Discord (once after an upgrade)")
    sync.add_argument("--guild", type=int, help="sync to one server only (instant; for testing)")
    terminal.add_arguments(sub.add_parser("play", help="play a game in the terminal against computer players"))
    simulate.add_arguments(
        sub.add_parser("simulate", help="computer players against each other: win rates and game lengths")
    )
    args = parser.parse_args(argv)
    if args.command in ("play", "simulate"):
        return args.handler(args)  # no Discord token and no Discord logging for these

    if not any(type(h) is logging.StreamHandler for h in logging.getLogger().handlers):
        discord.utils.setup_logging()  # discord.py's format; once per process
    try:
        token = _token()
        if args.command == "run":
            asyncio.run(_run(token))
        elif args.command == "sync":
            count = asyncio.run(_sync(token, args.guild))
            print(f"synced {count} commands" + (f" to server {args.guild}" if args.guild else " globally"))
    except discord.LoginFailure:
        print("error: Discord rejected DISCORD_TOKEN (check the bot token in the Developer Portal)", file=sys.stderr)
        return 2
    except (OSError, aiohttp.ClientError) as error:
        print(f"error: cannot reach Discord ({error})", file=sys.stderr)
        return 3
    except discord.PrivilegedIntentsRequired:
        print("error: Discord refused the gateway intents", file=sys.stderr)
        return 2
    except SystemExit as exit_:
        if isinstance(exit_.code, str):
            print(exit_.code, file=sys.stderr)
            return 2
        raise
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
