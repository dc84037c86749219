"""The environment variables the bot reads: each one's name, default and kind in one list (``SETTINGS``, what
``dicetavern config`` prints and the README's table documents), and the one way a number is read from one.
Standard library only: ``dicetavern health`` and ``config`` import no discord, aiohttp or driver."""

from __future__ import annotations

import os
from dataclasses import dataclass
from urllib.parse import urlsplit

PLAIN, SECRET, DATABASE = "plain", "secret", "database"  # how ``config`` shows a value (bot.paths' maskers)


@dataclass(frozen=True)
class Setting:
    name: str
    default: str  # as ``config`` shows it when the variable is unset ("" for none)
    kind: str = PLAIN


SETTINGS = (
    Setting("DISCORD_TOKEN", "", SECRET),
    Setting("DATABASE_PATH", "data/dicetavern.sqlite3", DATABASE),
    Setting("DATABASE_URL", "", DATABASE),
    Setting("DICETAVERN_SHARDS", ""),
    Setting("DICETAVERN_SHARD_COUNT", ""),
    Setting("DICETAVERN_LEASE_TTL", "30"),
    Setting("DICETAVERN_MIN_IDENTIFIES", "20"),
    Setting("DICETAVERN_HEARTBEAT", ""),
    Setting("DICETAVERN_DURABILITY", "full"),
    Setting("DICETAVERN_RETENTION_DAYS", "90"),
    Setting("DICETAVERN_PRIVACY_CONTACT", ""),
    Setting("DICETAVERN_PRIVACY_URL", ""),
    Setting("DICETAVERN_VERIFIER_URL", ""),
    Setting("DICETAVERN_CACHE_DIR", ""),
    Setting("DICETAVERN_PURE_ENGINES", ""),
    Setting("NO_COLOR", ""),
)


def setting_text(name: str, value: str | None = None) -> str:
    """``value`` if given (a flag, a test), else the environment's ``name``; stripped, "" when unset."""
    return (value if value is not None else os.environ.get(name, "")).strip()


def number(
    name: str,
    value: str | float | None,
    default: float,
    *,
    what: str,
    whole: bool = False,
    above_zero: bool = False,
) -> float:
    """The setting ``name`` (or ``value``) as a number, ``default`` when unset; a ValueError naming the variable
    for text that is not ``what`` (e.g. "a number of seconds"), for a negative number, and with ``above_zero``
    for 0 too."""
    text = value if isinstance(value, int | float) else setting_text(name, value)
    if text == "":
        return default
    try:
        chosen = int(text) if whole else float(text)
    except ValueError:
        raise ValueError(f"{name} must be {what}, not {text!r}") from None
    if chosen < 0 or (above_zero and chosen == 0):
        raise ValueError(f"{name} must be {'above 0' if above_zero else '0 or more'}, not {text!r}")
    return chosen


VERIFIER_URL_ENV = "DICETAVERN_VERIFIER_URL"


def is_web_address(text: str) -> bool:
    """An http or https address with a host (what Discord shows as a link)."""
    try:
        parts = urlsplit(text)
    except ValueError:
        return False
    return parts.scheme in ("http", "https") and bool(parts.netloc) and not any(c.isspace() for c in text)


def verifier_url(value: str | None = None) -> str | None:
    """Where ``/game export`` links the verifier in the browser (bot/assets/verify.html put online): the setting when
    it is an http or https address with a host, else None (unset, or not such an address: the reply then attaches
    the page itself, which works offline)."""
    text = setting_text(VERIFIER_URL_ENV, value)
    return text if is_web_address(text) else None
