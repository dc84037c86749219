"""The die faces as the bot's application emojis: ``dicetavern sync`` uploads the project's art
(bot/assets/dice, drawn by scripts/draw_dice.py), and the bot finds them at start for ``bot.render.faces``.

An uploaded face is named ``dt_<key>_<hash6>``: its key (``bot.render.faces.KEYS``) and the first 6 hex digits of
the SHA-256 of its PNG. A face whose art changed therefore has a new name: the sync uploads it, then deletes the
stale versions of that face it made itself (same key, other hash, uploaded by the bot). It never deletes anything
else: another app's or a person's emoji, or one whose name is not exactly ours, stays.

``plan`` is pure (tests drive it without Discord); ``sync_emojis`` and ``load_emojis`` do the Discord calls through
discord.py's public API (``Client.fetch_application_emojis``, ``Client.create_application_emoji``, ``Emoji.delete``).
"""

from __future__ import annotations

import hashlib
import logging
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

import aiohttp
import discord

from bot.i18n import t
from bot.render import faces

log = logging.getLogger(__name__)

PREFIX = "dt_"
NAME_MAX = 32  # Discord: an emoji name is 2-32 of [A-Za-z0-9_]
HASH_LENGTH = 6
NAME_PATTERN = re.compile(rf"^{PREFIX}(?P<key>[A-Za-z0-9_]+)_(?P<hash>[0-9a-f]{{{HASH_LENGTH}}})$")
VALID_NAME = re.compile(r"^[A-Za-z0-9_]{2,32}$")


def art_folder() -> Path:
    """Where the committed PNGs are: inside the installed package (package data), or the checkout."""
    return Path(str(resources.files("bot") / "assets" / "dice"))


def art(folder: Path | None = None) -> dict[str, bytes]:
    """key -> PNG bytes, for every face key with a ``<key>.png`` in ``folder`` (default: the package's art)."""
    where = art_folder() if folder is None else folder
    found: dict[str, bytes] = {}
    for key in faces.KEYS:
        path = where / f"{key}.png"
        if path.is_file():
            found[key] = path.read_bytes()
    return found


def digest(png: bytes) -> str:
    return hashlib.sha256(png).hexdigest()[:HASH_LENGTH]


def emoji_name(key: str, png: bytes) -> str:
    """The emoji name of face ``key`` with this art: ``dt_d3_1a2b3c``."""
    return f"{PREFIX}{key}_{digest(png)}"


def parse_name(name: str) -> tuple[str, str] | None:
    """(key, hash6) for a name of our pattern with a known face key, else None (not ours)."""
    match = NAME_PATTERN.match(name)
    if match is None or match["key"] not in faces.KEYS:
        return None
    return match["key"], match["hash"]


@dataclass(frozen=True)
class Upload:
    key: str
    name: str
    image: bytes = field(repr=False)


@dataclass(frozen=True)
class Known:
    """An emoji the application has: one of ours (a face key parsed from its name) or left alone."""

    key: str
    name: str
    id: int


@dataclass(frozen=True)
class Plan:
    """What a sync does: ``uploads`` (faces missing or whose art changed), ``deletions`` (our own stale versions
    of a face, only after its new version is up), ``keeps`` (faces already uploaded with the current art)."""

    uploads: tuple[Upload, ...] = ()
    deletions: tuple[Known, ...] = ()
    keeps: tuple[Known, ...] = ()

    @property
    def changes(self) -> bool:
        return bool(self.uploads or self.deletions)


def plan(existing: Iterable[tuple[str, int, bool]], art: Mapping[str, bytes]) -> Plan:
    """The sync's plan. ``existing``: the application's emojis as (name, id, created_by_us: uploaded by the bot's
    own user). ``art``: key -> PNG bytes of the faces to have.

    A face is kept when an emoji has its current name (whoever uploaded it), else uploaded. An emoji is deleted
    only when all hold: its name is exactly our pattern with a known key, that key's art is here with another hash
    (a stale version), and the bot uploaded it. Anything else is never touched."""
    by_name: dict[str, tuple[int, bool]] = {}
    for name, emoji_id, ours in existing:
        by_name[name] = (emoji_id, ours)
    wanted = {key: emoji_name(key, png) for key, png in art.items() if key in faces.KEYS}
    uploads: list[Upload] = []
    keeps: list[Known] = []
    for key in faces.KEYS:  # in KEYS' order: a plan reads the same every time
        if key not in wanted:
            continue
        name = wanted[key]
        if name in by_name:
            keeps.append(Known(key, name, by_name[name][0]))
        else:
            uploads.append(Upload(key, name, art[key]))
    deletions: list[Known] = []
    for name, (emoji_id, ours) in sorted(by_name.items()):
        parsed = parse_name(name)
        if parsed is None or not ours:
            continue
        key, _ = parsed
        if key in wanted and name != wanted[key]:
            deletions.append(Known(key, name, emoji_id))
    return Plan(tuple(uploads), tuple(deletions), tuple(keeps))


class UploadFailed(Exception):
    """Discord refused a face (a bad name or image, the application's 2,000 emojis): which one, and why."""

    def __init__(self, upload: Upload, error: discord.HTTPException) -> None:
        super().__init__(f"{upload.name}: {error}")
        self.upload = upload
        self.error = error


def _ours(client: discord.Client, emoji: discord.Emoji) -> bool:
    return client.user is not None and emoji.user is not None and emoji.user.id == client.user.id


async def sync_emojis(client: discord.Client, *, dry_run: bool, folder: Path | None = None) -> Plan:
    """Upload the missing and changed faces, then delete our stale versions of them; returns the plan.
    ``dry_run``: one read, nothing changed. An upload Discord refuses raises :class:`UploadFailed` (the faces
    uploaded before it stay: a second run carries on from there); nothing is deleted then."""
    emojis = await client.fetch_application_emojis()
    found = plan(((e.name, e.id, _ours(client, e)) for e in emojis), art(folder))
    if dry_run:
        return found
    for upload in found.uploads:
        try:
            await client.create_application_emoji(name=upload.name, image=upload.image)
        except discord.HTTPException as error:
            raise UploadFailed(upload, error) from error
    stale = {known.id for known in found.deletions}
    for emoji in emojis:
        if emoji.id in stale:
            await emoji.delete()
    return found


async def load_emojis(client: discord.Client, folder: Path | None = None) -> int:
    """At start: find the uploaded faces (one read) and give them to ``faces.load``; returns how many. A face not
    uploaded keeps its Unicode fallback, and one log line says how to upload them; a failed read is logged and
    changes nothing (the Unicode faces stay)."""
    try:
        emojis = await client.fetch_application_emojis()
    except (discord.HTTPException, discord.MissingApplicationID, aiohttp.ClientError, OSError, TimeoutError) as error:
        log.warning(t("cli.faces_unknown", error=error))
        return 0
    except RuntimeError:
        if client.is_closed():
            return 0  # a shutdown closed the HTTP session while the read was on its way: nothing to say
        raise
    current = {key: emoji_name(key, png) for key, png in art(folder).items()}
    found = {}
    for emoji in emojis:
        parsed = parse_name(emoji.name)
        if parsed is not None and current.get(parsed[0]) == emoji.name:
            found[parsed[0]] = (emoji.name, emoji.id)
    faces.load(found)
    missing = len(faces.KEYS) - len(found)
    if missing:
        log.warning(t("cli.faces_missing", missing=missing, total=len(faces.KEYS)))
    else:
        log.info(t("cli.faces_loaded", count=len(found)))
    return len(found)
