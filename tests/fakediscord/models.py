"""Data model and records of the fake Discord: users, guilds, channels, messages, REST calls, interactions.

Everything here is plain data that tests read; the server (:mod:`tests.fakediscord.server`) mutates it.
Snowflakes are real Discord snowflakes (time-based, strictly increasing), so ``discord.utils.snowflake_time``
and ``Interaction.expires_at`` behave as in production.
"""

from __future__ import annotations

import datetime
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

import discord

from tests.waiting import DEADLINE

if TYPE_CHECKING:
    from .server import FakeDiscord

__all__ = [
    "DISCORD_EPOCH_MS",
    "EPHEMERAL",
    "LOADING",
    "IS_COMPONENTS_V2",
    "TOKEN_LIFETIME",
    "DEFAULT_MEMBER_PERMISSIONS",
    "DEFAULT_BOT_PERMISSIONS",
    "FakeDiscordError",
    "FakeTimeout",
    "CommandUnavailable",
    "ComponentUnavailable",
    "SnowflakeFactory",
    "FakeUser",
    "FakeMember",
    "FakeChannel",
    "THREAD_TYPES",
    "FakeGuild",
    "MessageVersion",
    "FakeMessage",
    "RestCall",
    "CallbackRecord",
    "RateLimitViolation",
    "InteractionRecord",
    "Reply",
    "V2_TYPES",
    "iter_components",
    "text_displays",
    "components_text",
    "control_texts",
    "select_options",
    "message_text",
    "display_length",
    "error_lines",
    "utcnow_iso",
]

DISCORD_EPOCH_MS = 1420070400000
EPHEMERAL = 1 << 6
LOADING = 1 << 7
IS_COMPONENTS_V2 = 1 << 15
TOKEN_LIFETIME = 15 * 60.0  # seconds an interaction token serves follow-ups and @original edits (Discord's docs)

#: What an ordinary member may do in a text channel (no Manage Server, no Administrator).
DEFAULT_MEMBER_PERMISSIONS: int = discord.Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    create_public_threads=True,
    embed_links=True,
    attach_files=True,
    add_reactions=True,
    use_external_emojis=True,
    read_message_history=True,
    use_application_commands=True,
    connect=True,
    speak=True,
    use_external_apps=True,  # on @everyone by default: user-installed apps may answer publicly (issue 29)
).value

#: What the bot's managed role grants it.
DEFAULT_BOT_PERMISSIONS: int = discord.Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    create_public_threads=True,
    embed_links=True,
    attach_files=True,
    add_reactions=True,
    use_external_emojis=True,
    read_message_history=True,
    use_application_commands=True,
).value

_ADMINISTRATOR = discord.Permissions(administrator=True).value


class FakeDiscordError(Exception):
    """Base class for errors raised by the fake's test-side API."""


class FakeTimeout(FakeDiscordError, TimeoutError):
    """A ``wait_for``/``response()`` timed out; the message lists recent REST calls for diagnosis."""


class CommandUnavailable(FakeDiscordError):
    """A user could not invoke this command in the real client (unknown, missing permission, bad options)."""


class ComponentUnavailable(FakeDiscordError):
    """A user could not use this component (absent, disabled, link button, message deleted or not visible)."""


def utcnow_iso() -> str:
    return datetime.datetime.now(datetime.UTC).isoformat()


class SnowflakeFactory:
    """Generates strictly increasing, time-based Discord snowflakes."""

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self._last = 0
        self.clock = clock  # seconds since the epoch: the fake's test clock (tests/fakediscord/installs.py)

    def __call__(self) -> int:
        candidate = (int(self.clock() * 1000) - DISCORD_EPOCH_MS) << 22
        if candidate <= self._last:
            candidate = self._last + 1
        self._last = candidate
        return candidate

    def on_shard(self, shard_id: int, shard_count: int) -> int:
        """The next snowflake that lands on ``shard_id`` of ``shard_count`` (``(id >> 22) % count``): its
        timestamp is moved forward by less than ``shard_count`` ms when needed; later ids stay greater."""
        if not 0 <= shard_id < shard_count:
            raise ValueError(f"shard {shard_id} is not in 0..{shard_count - 1}")
        candidate = self()
        ts = candidate >> 22
        if ts % shard_count != shard_id:
            candidate = (ts + (shard_id - ts) % shard_count) << 22
            self._last = candidate
        return candidate


# --------------------------------------------------------------------------------------------------------------------
# Users, guilds, channels
# --------------------------------------------------------------------------------------------------------------------


@dataclass(eq=False)
class FakeUser:
    """A Discord user. ``dms_open=False`` makes DMs to them fail with 403/50007; ``app_installed``: they installed
    the app to their account (a user install: its commands follow them into group DMs and other servers)."""

    id: int
    name: str
    global_name: str | None = None
    bot: bool = False
    dms_open: bool = True
    locale: str = "en-US"
    dm_channel: FakeChannel | None = None
    app_installed: bool = False

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": self.name,
            "discriminator": "0",
            "global_name": self.global_name,
            "avatar": None,
            "bot": self.bot,
            "system": False,
            "public_flags": 0,
            "flags": 0,
        }

    def __repr__(self) -> str:
        return f"<FakeUser id={self.id} name={self.name!r}>"


@dataclass(eq=False)
class FakeMember:
    """A user's membership in a guild. ``permissions`` is the effective permission integer in every channel."""

    user: FakeUser
    guild_id: int
    permissions: int = DEFAULT_MEMBER_PERMISSIONS
    roles: list[int] = field(default_factory=list)
    nick: str | None = None
    joined_at: str = field(default_factory=utcnow_iso)

    @property
    def is_admin(self) -> bool:
        return bool(self.permissions & _ADMINISTRATOR)

    def payload(self, *, with_user: bool = True, with_permissions: bool = False) -> dict[str, Any]:
        data: dict[str, Any] = {
            "roles": [str(r) for r in self.roles],
            "nick": self.nick,
            "avatar": None,
            "banner": None,
            "joined_at": self.joined_at,
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "pending": False,
            "flags": 0,
            "communication_disabled_until": None,
        }
        if with_user:
            data["user"] = self.user.payload()
        if with_permissions:
            data["permissions"] = str(self.permissions)
        return data


THREAD_TYPES = frozenset({10, 11, 12})  # announcement, public and private threads


@dataclass(eq=False)
class FakeChannel:
    """A guild text channel (type 0), a DM channel (type 1, ``recipient`` set), a group DM (type 3, ``recipients``,
    ``owner_id``; the bot is never in one) or a thread (type 11 public, 12 private: ``parent_id`` its text channel,
    ``owner_id`` who started it)."""

    id: int
    name: str
    type: int = 0
    guild_id: int | None = None
    position: int = 0
    recipient: FakeUser | None = None
    parent_id: int | None = None
    owner_id: int | None = None
    archived: bool = False
    locked: bool = False
    auto_archive_duration: int = 1440
    created_at: str = field(default_factory=utcnow_iso)
    archived_at: str = field(default_factory=utcnow_iso)
    recipients: list[FakeUser] = field(default_factory=list)  # a group DM's members

    @property
    def is_dm(self) -> bool:
        return self.type == 1

    @property
    def is_group_dm(self) -> bool:
        return self.type == 3

    @property
    def is_thread(self) -> bool:
        return self.type in THREAD_TYPES

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    def payload(self) -> dict[str, Any]:
        if self.is_dm:
            assert self.recipient is not None
            return {
                "id": str(self.id),
                "type": 1,
                "last_message_id": None,
                "recipients": [self.recipient.payload()],
                "flags": 0,
            }
        if self.is_group_dm:  # resources/channel.mdx "Example Group DM Channel"
            return {
                "id": str(self.id),
                "type": 3,
                "name": self.name,
                "icon": None,
                "owner_id": str(self.owner_id) if self.owner_id is not None else None,
                "recipients": [u.payload() for u in self.recipients],
                "last_message_id": None,
                "flags": 0,
            }
        if self.is_thread:
            return self.thread_payload()
        return {
            "id": str(self.id),
            "type": self.type,
            "guild_id": str(self.guild_id),
            "name": self.name,
            "position": self.position,
            "permission_overwrites": [],
            "parent_id": None,
            "topic": None,
            "nsfw": False,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "flags": 0,
        }

    def partial_payload(self) -> dict[str, Any]:
        """The partial channel of an interaction (receiving-and-responding.mdx: id, name, type, permissions,
        last_message_id, nsfw, parent_id, guild_id, flags, rate_limit_per_user, topic, position; no overwrites)."""
        data = self.payload()
        data.pop("permission_overwrites", None)
        return data

    def thread_payload(self) -> dict[str, Any]:
        """A thread channel object as Discord sends it (resources/channel.mdx: thread_metadata, counts)."""
        return {
            "id": str(self.id),
            "type": self.type,
            "guild_id": str(self.guild_id),
            "parent_id": str(self.parent_id),
            "owner_id": str(self.owner_id),
            "name": self.name,
            "last_message_id": None,
            "message_count": 0,
            "member_count": 1,
            "total_message_sent": 0,
            "rate_limit_per_user": 0,
            "flags": 0,
            "thread_metadata": {
                "archived": self.archived,
                "auto_archive_duration": self.auto_archive_duration,
                "archive_timestamp": self.archived_at,
                "locked": self.locked,
                "create_timestamp": self.created_at,
                **({"invitable": True} if self.type == 12 else {}),
            },
        }

    def __repr__(self) -> str:
        return f"<FakeChannel id={self.id} name={self.name!r} type={self.type}>"


@dataclass(eq=False)
class FakeGuild:
    """A guild with text channels and members. The bot is a member (with ``bot_permissions``) unless
    ``bot_member`` is False: a server that never added the bot, reachable only through user installs."""

    id: int
    name: str
    locale: str = "en-US"
    owner_id: int | None = None
    bot_role_id: int = 0
    bot_permissions: int = DEFAULT_BOT_PERMISSIONS
    everyone_permissions: int = DEFAULT_MEMBER_PERMISSIONS
    joined_at: str = field(default_factory=utcnow_iso)
    bot_member: bool = True
    channels: dict[int, FakeChannel] = field(default_factory=dict)
    members: dict[int, FakeMember] = field(default_factory=dict)
    threads: dict[int, FakeChannel] = field(default_factory=dict)  # every thread started in the guild, in order

    def channel(self, name: str) -> FakeChannel:
        """The text channel called ``name`` (KeyError if absent)."""
        for ch in self.channels.values():
            if ch.name == name:
                return ch
        raise KeyError(f"guild {self.name!r} has no channel {name!r}")

    def thread(self, name: str) -> FakeChannel:
        """The thread called ``name`` (KeyError if absent)."""
        for ch in self.threads.values():
            if ch.name == name:
                return ch
        raise KeyError(f"guild {self.name!r} has no thread {name!r}; it has {[c.name for c in self.threads.values()]}")

    @property
    def text_channels(self) -> list[FakeChannel]:
        return [c for c in self.channels.values() if c.type == 0]

    def member(self, user: FakeUser | int) -> FakeMember:
        uid = user if isinstance(user, int) else user.id
        return self.members[uid]

    def roles_payload(self) -> list[dict[str, Any]]:
        def role(rid: int, name: str, perms: int, position: int, managed: bool) -> dict[str, Any]:
            data: dict[str, Any] = {
                "id": str(rid),
                "name": name,
                "color": 0,
                "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
                "hoist": False,
                "icon": None,
                "unicode_emoji": None,
                "position": position,
                "permissions": str(perms),
                "managed": managed,
                "mentionable": False,
                "flags": 0,
            }
            return data

        return [
            role(self.id, "@everyone", self.everyone_permissions, 0, False),
            role(self.bot_role_id, "Dice Tavern", self.bot_permissions, 1, True),
        ]

    def __repr__(self) -> str:
        return f"<FakeGuild id={self.id} name={self.name!r}>"


# --------------------------------------------------------------------------------------------------------------------
# Messages
# --------------------------------------------------------------------------------------------------------------------


def iter_components(components: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Depth-first walk over a component tree in document order (action rows, containers, sections with their
    text displays before the accessory, labels): every component Discord counts towards a message's 40."""
    for comp in components:
        yield comp
        for key in ("components",):
            children = comp.get(key)
            if isinstance(children, list):
                yield from iter_components(children)
        for key in ("accessory", "component"):
            child = comp.get(key)
            if isinstance(child, dict):
                yield from iter_components([child])


#: Component types that exist only with the IS_COMPONENTS_V2 flag (section, text display, thumbnail, media gallery,
#: file, separator, container).
V2_TYPES = frozenset({9, 10, 11, 12, 13, 14, 17})


def text_displays(components: list[dict[str, Any]]) -> list[str]:
    """Every TextDisplay's ``content`` in document order (inside containers and sections too)."""
    return [str(c.get("content") or "") for c in iter_components(components) if c.get("type") == 10]


def components_text(components: list[dict[str, Any]]) -> str:
    """The prose a components payload shows: its TextDisplays' contents, newline separated, in document order.

    The same function reads a stored message (``FakeMessage.text``) and a payload built locally
    (``components_text(view.to_components())``), so a test can compare the two."""
    return "\n".join(t for t in text_displays(components) if t)


def display_length(components: list[dict[str, Any]]) -> int:
    """The characters counted against a V2 message's 4,000: the TextDisplays' contents, as discord.py's
    ``LayoutView.content_length`` counts them (labels, placeholders and options do not count)."""
    return sum(len(t) for t in text_displays(components))


def select_options(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every string select's options in document order, however deep the select is nested."""
    return [o for c in iter_components(components) if c.get("type") == 3 for o in c.get("options") or []]


def control_texts(components: list[dict[str, Any]]) -> list[str]:
    """What the controls show besides prose: button labels, select placeholders, option labels and descriptions,
    media descriptions (alt text), in document order."""
    out: list[str] = []
    for comp in iter_components(components):
        for key in ("label", "placeholder", "description"):
            if comp.get(key):
                out.append(str(comp[key]))
        for option in comp.get("options") or []:
            out += [str(option[key]) for key in ("label", "description") if option.get(key)]
        for item in comp.get("items") or []:
            if isinstance(item, dict) and item.get("description"):
                out.append(str(item["description"]))
    return out


def message_text(content: str, embeds: list[dict[str, Any]], components: list[dict[str, Any]]) -> str:
    """Content, every embed's title/description/fields/footer, then every TextDisplay (newline separated)."""
    parts = [content] if content else []
    for emb in embeds:
        for key in ("title", "description"):
            if emb.get(key):
                parts.append(str(emb[key]))
        for fld in emb.get("fields", []):
            parts.append(f"{fld.get('name', '')}: {fld.get('value', '')}")
        footer = emb.get("footer") or {}
        if footer.get("text"):
            parts.append(str(footer["text"]))
    parts += [t for t in text_displays(components) if t]
    return "\n".join(parts)


def error_lines(errors: dict[str, Any], path: str = "") -> list[str]:
    """Discord's nested ``errors`` object as ``path: CODE message`` lines (for problem reports)."""
    out: list[str] = []
    for key, value in errors.items():
        if key == "_errors" and isinstance(value, list):
            out += [f"{path or '(body)'}: {e.get('code')} {e.get('message')}" for e in value if isinstance(e, dict)]
        elif isinstance(value, dict):
            out += error_lines(value, f"{path}.{key}" if path else str(key))
    return out


class _Shown:
    """Readers shared by a message and each of its versions (its ``content``/``embeds``/``components``/``flags``)."""

    content: str
    embeds: list[dict[str, Any]]
    components: list[dict[str, Any]]
    flags: int

    @property
    def is_v2(self) -> bool:
        """The message has the IS_COMPONENTS_V2 flag (content and embeds off, layout components on)."""
        return bool(self.flags & IS_COMPONENTS_V2)

    @property
    def text(self) -> str:
        """Content, every embed's title/description/fields/footer and every TextDisplay, newline separated."""
        return message_text(self.content, self.embeds, self.components)

    @property
    def all_text(self) -> str:
        """``text`` and what the controls show (labels, placeholders, options, alt text): all a user can read."""
        return "\n".join(t for t in (self.text, *control_texts(self.components)) if t)

    def text_displays(self) -> list[str]:
        """Every TextDisplay's content in document order."""
        return text_displays(self.components)

    @property
    def display_length(self) -> int:
        """Characters counted against the V2 limit of 4,000 (the TextDisplays' contents)."""
        return display_length(self.components)

    @property
    def component_count(self) -> int:
        """Components counted against the V2 limit of 40 (every nested one: rows, their buttons, accessories)."""
        return sum(1 for _ in iter_components(self.components))

    def containers(self) -> list[dict[str, Any]]:
        return [c for c in iter_components(self.components) if c.get("type") == 17]

    @property
    def accent_color(self) -> int | None:
        """The first container's ``accent_color`` (None without a container or without a colour)."""
        first = next(iter(self.containers()), None)
        return None if first is None else first.get("accent_color")

    def all_components(self) -> list[dict[str, Any]]:
        return list(iter_components(self.components))

    def find_component(self, custom_id: str) -> dict[str, Any] | None:
        for comp in iter_components(self.components):
            if comp.get("custom_id") == custom_id:
                return comp
        return None

    def custom_ids(self) -> list[str]:
        """Every control's custom_id in document order (nested in containers, rows and section accessories)."""
        return [c["custom_id"] for c in iter_components(self.components) if "custom_id" in c]

    def buttons(self) -> list[dict[str, Any]]:
        return [c for c in iter_components(self.components) if c.get("type") == 2]

    def selects(self) -> list[dict[str, Any]]:
        return [c for c in iter_components(self.components) if c.get("type") in (3, 5, 6, 7, 8)]

    def controls(self) -> list[dict[str, Any]]:
        """Buttons and selects in document order."""
        return [c for c in iter_components(self.components) if c.get("type") in (2, 3, 5, 6, 7, 8)]

    def options(self) -> list[dict[str, Any]]:
        """Every string select's options in document order (selects nested in containers too)."""
        return select_options(self.components)

    def option_values(self) -> list[str]:
        return [str(o.get("value")) for o in select_options(self.components)]

    def button(self, label: str) -> dict[str, Any]:
        """The button whose label is ``label`` (KeyError if absent)."""
        for b in self.buttons():
            if b.get("label") == label:
                return b
        labels = [b.get("label") for b in self.buttons()]
        raise KeyError(f"no button labelled {label!r}; labels: {labels}")


@dataclass(frozen=True)
class MessageVersion(_Shown):
    """One state of a message (the first is the creation, every edit appends one); reads like a message
    (``text``, ``all_text``, ``is_v2``, ``custom_ids()``, ``text_displays()``, …)."""

    content: str
    embeds: list[dict[str, Any]]
    components: list[dict[str, Any]]
    flags: int
    at: float
    via: str


MessageKind = Literal["channel", "interaction_response", "followup", "user"]  # "user": a person's (post_message)


@dataclass(eq=False)
class FakeMessage(_Shown):
    """A message the bot sent: channel message, DM, interaction response or follow-up.

    ``history`` keeps every version (``history[0]`` = as created); ``content``/``embeds``/``components`` are current.
    ``visible_to`` is the only user who sees an ephemeral message.
    """

    id: int
    channel_id: int
    guild_id: int | None
    author: FakeUser
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    flags: int = 0
    attachments: list[dict[str, Any]] = field(default_factory=list)
    kind: MessageKind = "channel"
    type: int = 0
    interaction: InteractionRecord | None = None
    visible_to: int | None = None
    message_reference: dict[str, Any] | None = None
    created_at: float = field(default_factory=time.monotonic)
    timestamp: str = field(default_factory=utcnow_iso)
    edited_timestamp: str | None = None
    deleted: bool = False
    reactions: list[str] = field(default_factory=list)
    allowed_mentions: dict[str, Any] | None = None  # as sent at creation (who the message may ping)
    history: list[MessageVersion] = field(default_factory=list)

    # -- state -----------------------------------------------------------------------------------------------------
    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        """A deferred ("Bot is thinking…") response not yet filled in."""
        return bool(self.flags & LOADING)

    @property
    def edits(self) -> int:
        return max(0, len(self.history) - 1)

    # reading (text, all_text, is_v2, text_displays(), custom_ids(), buttons(), …): see _Shown

    # -- wire format -----------------------------------------------------------------------------------------------
    def snapshot(self, via: str) -> None:
        self.history.append(
            MessageVersion(
                content=self.content,
                embeds=list(self.embeds),
                components=list(self.components),
                flags=self.flags,
                at=time.monotonic(),
                via=via,
            )
        )

    def payload(self, application_id: int) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "type": self.type,
            "content": self.content,
            "author": self.author.payload(),
            "timestamp": self.timestamp,
            "edited_timestamp": self.edited_timestamp,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": self.attachments,
            "embeds": self.embeds,
            "components": self.components,
            "reactions": [],
            "pinned": False,
            "flags": self.flags,
        }
        if self.guild_id is not None:
            data["guild_id"] = str(self.guild_id)
        if self.message_reference is not None:
            data["message_reference"] = self.message_reference
        if self.interaction is not None:
            rec = self.interaction
            data["webhook_id"] = str(application_id)
            data["application_id"] = str(application_id)
            meta: dict[str, Any] = {
                "id": str(rec.id),
                "type": rec.type,
                "user": rec.user.payload(),
                "authorizing_integration_owners": rec.payload.get("authorizing_integration_owners", {}),
            }
            if rec.type == 2:
                meta["name"] = rec.command_path
            if rec.type == 3 and rec.component_message is not None:
                meta["interacted_message_id"] = str(rec.component_message.id)
            if self.kind == "followup" and rec.original is not None:
                meta["original_response_message_id"] = str(rec.original.id)
            data["interaction_metadata"] = meta
        return data

    def __repr__(self) -> str:
        return f"<FakeMessage id={self.id} kind={self.kind} content={self.content[:40]!r} flags={self.flags}>"


# --------------------------------------------------------------------------------------------------------------------
# REST log, callbacks, interactions
# --------------------------------------------------------------------------------------------------------------------

CallKind = Literal["bot", "callback", "webhook", "unknown"]


@dataclass(eq=False)
class RestCall:
    """One HTTP request the bot made. ``kind``: ``bot`` (Authorization: Bot …), ``callback`` (interaction
    callback), ``webhook`` (follow-ups / @original), ``unknown`` (no such route: answered 404)."""

    seq: int
    method: str
    path: str
    route: str | None
    query: dict[str, str]
    kind: CallKind
    at: float
    body: Any = None
    status: int = 0
    error_code: int | None = None
    errors: dict[str, Any] | None = None  # a 400's Discord ``errors`` object (why the body was refused)

    def __repr__(self) -> str:
        return f"<RestCall #{self.seq} {self.method} {self.path} -> {self.status}>"


@dataclass(frozen=True)
class CallbackRecord:
    """One ``POST /interactions/{id}/{token}/callback`` attempt (accepted or rejected)."""

    type: int
    data: dict[str, Any]
    at: float
    status: int
    error_code: int | None = None
    errors: dict[str, Any] | None = None  # a 400's Discord ``errors`` object (why the body was refused)


@dataclass(frozen=True)
class RateLimitViolation:
    channel_id: int
    at: float
    count_in_window: int


class InteractionRecord:
    """An interaction the fake dispatched, and everything the bot did in response.

    ``await record.response()`` waits for the bot's answer and returns a :class:`Reply`.
    """

    def __init__(
        self,
        fake: FakeDiscord,
        *,
        id: int,
        token: str,
        type: int,
        user: FakeUser,
        guild_id: int | None,
        channel_id: int,
        payload: dict[str, Any],
        command_path: str | None = None,
        custom_id: str | None = None,
        component_message: FakeMessage | None = None,
    ) -> None:
        self._fake = fake
        self.id = id
        self.token = token
        self.type = type  # 2 command, 3 component, 4 autocomplete, 5 modal submit
        self.user = user
        self.guild_id = guild_id
        self.channel_id = channel_id
        self.payload = payload
        self.command_path = command_path  # "pig roll" for commands
        self.custom_id = custom_id
        self.component_message = component_message  # the message whose component was used
        self.dispatched_at: float | None = None
        self.callbacks: list[CallbackRecord] = []
        self.original: FakeMessage | None = None  # message created by callback 4/5 (or component msg for 6/7)
        self.followups: list[FakeMessage] = []
        self.choices: list[dict[str, Any]] | None = None
        self.modal: dict[str, Any] | None = None
        self.expired = False  # token invalidated (simulated 15 min expiry); webhooks then get 401/50027
        self.webhook_errors: list[RestCall] = []
        self.issued_at: float | None = None  # the fake's test clock at dispatch (fake.clock): the token's age
        self.clock_offset_at_dispatch = 0.0  # fake.clock.offset then: a jump of the clock counts for the 3 s rule
        self.followup_posts = 0  # accepted POST /webhooks/{app}/{token} (the user-install limit counts them)

    # -- acknowledgement -------------------------------------------------------------------------------------------
    @property
    def accepted_callback(self) -> CallbackRecord | None:
        """The first callback Discord accepted (status 200), if any."""
        for cb in self.callbacks:
            if cb.status == 200:
                return cb
        return None

    @property
    def acknowledged(self) -> bool:
        return self.accepted_callback is not None

    @property
    def ack_type(self) -> int | None:
        cb = self.accepted_callback
        return cb.type if cb else None

    @property
    def ack_latency(self) -> float | None:
        """Seconds from dispatching INTERACTION_CREATE to the bot's first callback request (accepted or not)."""
        if not self.callbacks or self.dispatched_at is None:
            return None
        return self.callbacks[0].at - self.dispatched_at

    @property
    def late(self) -> bool:
        """The first callback came after the deadline (Discord answered 404/10062)."""
        return bool(self.callbacks) and self.callbacks[0].error_code == 10062

    @property
    def double_acks(self) -> list[CallbackRecord]:
        return [cb for cb in self.callbacks if cb.error_code == 40060]

    @property
    def reply(self) -> Reply:
        return Reply(self)

    @property
    def context(self) -> int | None:
        """The interaction's ``context``: 0 GUILD, 1 BOT_DM, 2 PRIVATE_CHANNEL (a group DM)."""
        value = self.payload.get("context")
        return None if value is None else int(value)

    @property
    def owners(self) -> dict[str, str]:
        """``authorizing_integration_owners`` as sent: ``{"0": guild_id}`` guild install, ``{"1": user_id}`` user."""
        return dict(self.payload.get("authorizing_integration_owners") or {})

    @property
    def user_install_only(self) -> bool:
        """Only a user install authorized it (a place without the bot): at most 5 follow-ups."""
        return set(self.owners) == {"1"}

    @property
    def token_expires_at(self) -> float | None:
        """When the token ends on the fake's test clock (15 minutes after dispatch)."""
        return None if self.issued_at is None else self.issued_at + TOKEN_LIFETIME

    @property
    def token_valid(self) -> bool:
        """Follow-ups and @original edits with this token would be accepted now."""
        end = self.token_expires_at
        return not self.expired and (end is None or self._fake.clock() < end)

    def expire(self) -> None:
        """Simulate the 15-minute token expiry: later webhook calls with this token get 401 code 50027."""
        self.expired = True

    # -- waiting ---------------------------------------------------------------------------------------------------
    async def wait_ack(self, timeout: float = DEADLINE) -> InteractionRecord:
        """Wait for the first accepted callback (any type, including a defer)."""
        await self._fake.wait_for(lambda: self.acknowledged, timeout, what=f"interaction {self.describe()} ack")
        return self

    def _resolved(self) -> bool:
        cb = self.accepted_callback
        if cb is None:
            return False
        if cb.type == 5:  # deferred: wait until the "thinking" message is filled in (edit or first follow-up)
            return self.original is not None and (not self.original.loading or self.original.deleted)
        return True

    async def response(self, timeout: float = DEADLINE) -> Reply:
        """Wait until the bot answered and return the :class:`Reply`.

        For a deferred reply (type 5) this waits until the original is edited or the first follow-up
        replaces the "thinking" message. For 6 (deferred update) it returns at the ack.
        """
        await self._fake.wait_for(self._resolved, timeout, what=f"interaction {self.describe()} response")
        return Reply(self)

    async def wait_followups(self, count: int = 1, timeout: float = DEADLINE) -> list[FakeMessage]:
        """Wait until at least ``count`` follow-ups exist (not counting one that filled a deferred original)."""
        await self._fake.wait_for(lambda: len(self.followups) >= count, timeout, what=f"{count} follow-ups")
        return list(self.followups)

    async def wait_until(self, predicate: Callable[[InteractionRecord], Any], timeout: float = DEADLINE) -> Any:
        return await self._fake.wait_for(lambda: predicate(self), timeout, what=f"predicate on {self.describe()}")

    def describe(self) -> str:
        what = self.command_path or self.custom_id or "?"
        return f"#{self.id} type={self.type} {what!r} by {self.user.name}"

    def __repr__(self) -> str:
        return f"<InteractionRecord {self.describe()} ack={self.ack_type}>"


class Reply:
    """The bot's answer to one interaction (a live view on the :class:`InteractionRecord`).

    * ``type``: first accepted callback type (4 message, 5 deferred message, 6 deferred update,
      7 update message, 8 autocomplete result, 9 modal).
    * ``message``: for 4/5 the response message; for 6/7 the message whose component was used.
    * ``content``/``embeds``/``components``/``text``: current state of ``message`` (empty for 8/9).
    """

    def __init__(self, record: InteractionRecord) -> None:
        self.record = record

    @property
    def type(self) -> int | None:
        return self.record.ack_type

    @property
    def deferred(self) -> bool:
        return self.type in (5, 6)

    @property
    def message(self) -> FakeMessage | None:
        return self.record.original

    def expect_message(self) -> FakeMessage:
        """``message``, asserting there is one (for 4/5/6/7 replies)."""
        assert self.record.original is not None, f"{self.record.describe()} has no response message (type {self.type})"
        return self.record.original

    @property
    def ephemeral(self) -> bool:
        msg = self.message
        return msg is not None and msg.ephemeral

    @property
    def content(self) -> str:
        return self.message.content if self.message else ""

    @property
    def embeds(self) -> list[dict[str, Any]]:
        return self.message.embeds if self.message else []

    @property
    def components(self) -> list[dict[str, Any]]:
        return self.message.components if self.message else []

    @property
    def text(self) -> str:
        return self.message.text if self.message else ""

    @property
    def followups(self) -> list[FakeMessage]:
        return self.record.followups

    @property
    def choices(self) -> list[dict[str, Any]] | None:
        return self.record.choices

    @property
    def modal(self) -> dict[str, Any] | None:
        return self.record.modal

    @property
    def latency(self) -> float | None:
        return self.record.ack_latency

    def __repr__(self) -> str:
        return f"<Reply type={self.type} ephemeral={self.ephemeral} content={self.content[:60]!r}>"
