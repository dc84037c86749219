"""``dicetavern config``: every setting the bot reads (bot.environment's list), the value in effect, where it came
from (the environment, the working directory's .env, or the default), and whether ``dicetavern run`` would accept
it. Secrets are masked by bot.paths' maskers. Exit status 1 when a setting would be refused, so a deploy can check
its settings without starting the bot."""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable, Mapping

from dotenv import dotenv_values, find_dotenv, load_dotenv

from bot.environment import DATABASE, SECRET, SETTINGS, Setting
from bot.i18n import t
from bot.paths import database_target, heartbeat_path, is_url, shown_database, shown_secret


def _token() -> None:
    if not os.environ.get("DISCORD_TOKEN", "").strip():
        raise ValueError(t("cli.no_token"))


def _shards() -> None:
    from bot.shards import SHARDS_ENV, in_effect

    if os.environ.get(SHARDS_ENV, "").strip():  # else the count alone is checked, on its own line
        in_effect()  # a ShardError is a ValueError


def _shard_count() -> None:
    from bot.shards import SHARD_COUNT_ENV, parse_count

    count = os.environ.get(SHARD_COUNT_ENV, "").strip()
    if count:
        parse_count(count)


def _database_url() -> None:
    from bot.store.errors import DriverMissing, postgres_driver

    url = os.environ.get("DATABASE_URL", "").strip()
    if url and not is_url(url):
        raise ValueError(t("config.not_postgres"))
    if url:
        try:
            postgres_driver()
        except DriverMissing:
            raise ValueError(t("cli.postgres_missing")) from None


def _privacy_url() -> None:
    from bot.privacy_contact import privacy_contact

    problem = privacy_contact().problem
    if problem:
        raise ValueError(problem)


def _verifier_url() -> None:
    from bot.environment import VERIFIER_URL_ENV, verifier_url

    if os.environ.get(VERIFIER_URL_ENV, "").strip() and verifier_url() is None:
        raise ValueError(t("config.not_http"))


def _checks() -> dict[str, Callable[[], object]]:
    """Each setting's reader as ``dicetavern run`` calls it: a ValueError is a refusal."""
    from bot.restarts import min_identifies
    from bot.store.db import durability_setting
    from bot.store.leases import lease_ttl
    from bot.tables.retention import retention_days

    return {
        "DISCORD_TOKEN": _token,
        "DATABASE_URL": _database_url,
        "DICETAVERN_SHARDS": _shards,
        "DICETAVERN_SHARD_COUNT": _shard_count,
        "DICETAVERN_LEASE_TTL": lease_ttl,
        "DICETAVERN_MIN_IDENTIFIES": min_identifies,
        "DICETAVERN_DURABILITY": durability_setting,
        "DICETAVERN_RETENTION_DAYS": retention_days,
        "DICETAVERN_PRIVACY_URL": _privacy_url,
        "DICETAVERN_VERIFIER_URL": _verifier_url,
    }


def shown(setting: Setting, value: str) -> str:
    if setting.kind == SECRET:
        return shown_secret(value)
    if setting.kind == DATABASE:
        return shown_database(value)
    return value


def report(before: Mapping[str, str], dotenv: Mapping[str, str | None]) -> tuple[list[str], bool]:
    """The lines ``config`` prints and whether every setting would be accepted. ``before``: the environment as the
    process got it; ``dotenv``: the .env file's values (already loaded into os.environ, under the environment)."""
    checks = _checks()
    lines, ok = [], True
    for setting in SETTINGS:
        value = os.environ.get(setting.name, "").strip()
        if setting.name in before:
            source = t("config.from_environment")
        elif setting.name in dotenv:
            source = t("config.from_dotenv")
        else:
            source = t("config.from_default")
        if value:
            line = t("config.line", name=setting.name, value=shown(setting, value), source=source)
        elif setting.default:
            line = t("config.line", name=setting.name, value=shown(setting, setting.default), source=source)
        else:
            line = t("config.unset", name=setting.name)
        try:
            check = checks.get(setting.name)
            if check is not None:
                check()
        except ValueError as error:
            ok = False
            line = t("config.refused", line=line, error=error)
        lines.append(line)
    database = database_target()
    lines.append(t("config.database", database=shown_database(database)))
    lines.append(t("config.heartbeat", path=os.path.abspath(heartbeat_path(database))))
    return lines, ok


def run(args: argparse.Namespace) -> int:
    before = dict(os.environ)
    found = find_dotenv(usecwd=True)  # the working directory's .env, as `dicetavern run` reads it
    dotenv = dotenv_values(found) if found else {}
    if found:
        load_dotenv(found)
    head = t("config.head_dotenv", path=found) if found else t("config.head")
    lines, ok = report(before, dotenv)
    print("\n".join([head, *lines]))
    return 0 if ok else 1


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.set_defaults(handler=run)
