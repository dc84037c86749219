"""The :class:`FakeDiscord` server: model, recording, waiting, and the test-side user API."""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from types import TracebackType
from typing import Any, Literal, TypeVar

import discord
import discord.gateway
import discord.http
import yarl
from aiohttp import web

from tests.waiting import DEADLINE, POLL

from .commands import build_command_data
from .emojis import add_routes as add_emoji_routes
from .gateway import (
    GUILD_MEMBERS_INTENT,
    GUILD_MESSAGES_INTENT,
    MESSAGE_CONTENT_INTENT,
    GatewayConnection,
    GatewaySession,
)
from .installs import (
    BOT_DM_APP_PERMISSIONS,
    CONTEXT_BOT_DM,
    CONTEXT_GUILD,
    CONTEXT_PRIVATE_CHANNEL,
    PRIVATE_CHANNEL_APP_PERMISSIONS,
    FakeClock,
    command_defaults,
    command_owners,
    forced_ephemeral,
    guild_without_bot_app_permissions,
)
from .models import (
    _ADMINISTRATOR,
    DEFAULT_BOT_PERMISSIONS,
    DEFAULT_MEMBER_PERMISSIONS,
    EPHEMERAL,
    IS_COMPONENTS_V2,
    LOADING,
    CommandUnavailable,
    ComponentUnavailable,
    FakeChannel,
    FakeDiscordError,
    FakeGuild,
    FakeMember,
    FakeMessage,
    FakeTimeout,
    FakeUser,
    InteractionRecord,
    RateLimitViolation,
    RestCall,
    SnowflakeFactory,
    error_lines,
    iter_components,
    utcnow_iso,
)
from .rest import CREATE_FLAGS, build_app

__all__ = ["FakeDiscord", "ClientPatch"]

T = TypeVar("T")
UserRef = FakeUser | int
ChannelRef = FakeChannel | int
RateLimitMode = Literal["off", "record", "enforce"]


class ClientPatch:
    """Points discord.py at the fake (``Route.BASE`` and ``DiscordWebSocket.DEFAULT_GATEWAY``) until restored.

    Applied on construction; ``restore()`` (or leaving the ``with`` block) puts the previous values back.
    """

    def __init__(self, base_url: str, gateway_url: str) -> None:
        self._old_base = discord.http.Route.BASE
        self._old_gateway = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
        discord.http.Route.BASE = base_url
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)
        self.active = True

    def restore(self) -> None:
        if self.active:
            discord.http.Route.BASE = self._old_base
            discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = self._old_gateway
            self.active = False

    def __enter__(self) -> ClientPatch:
        return self

    def __exit__(self, *exc: object) -> None:
        self.restore()


class Fault:
    """A fault ``FakeDiscord.fail`` injects: the next ``times`` matching REST calls (None: until ``heal``) get
    ``status`` (a 429 says ``retry_after``, ``global_``: Discord's global limit) or, with ``drop``, no response at all
    (the connection is closed: aiohttp raises ServerDisconnectedError, which discord.py does not retry). ``lost``
    (with ``drop``): Discord carries the call out first, and only its answer is lost."""

    def __init__(
        self,
        match: Callable[[RestCall], bool],
        status: int,
        times: int | None,
        drop: bool,
        global_: bool,
        retry_after: float,
        lost: bool = False,
    ) -> None:
        self.match, self.status, self.times, self.drop, self.lost = match, status, times, drop, lost
        self.global_, self.retry_after = global_, retry_after
        self.hits = 0  # calls it answered so far

    @property
    def active(self) -> bool:
        return self.times is None or self.hits < self.times


class FakeDiscord:
    """An in-process fake Discord (REST + gateway) on 127.0.0.1 for the real discord.py client.

    See the package docstring (:mod:`tests.fakediscord`) for a usage walkthrough.
    """

    def __init__(
        self,
        *,
        bot_name: str = "Dice Tavern",
        token: str | None = None,
        interaction_deadline: float = DEADLINE,
        rate_limit: RateLimitMode = "off",
        channel_rate_limit: tuple[int, float] = (5, 5.0),
        privileged_intents_allowed: bool = False,
        strict_commands: bool = False,
        auto_patch: bool = True,
        settle_iterations: int = 50,
        recommended_shards: int = 1,
        max_concurrency: int = 16,
        heartbeat_interval_ms: int = 45_000,
        identify_limit: tuple[int, int] = (1000, 999),
        install_types: Iterable[int] = (0, 1),
        dm_needs_mutual_guild: bool = False,
    ) -> None:
        # the test clock (tests/fakediscord/installs.py): token ages, the 3 s rule's jumps, snowflake times
        self.clock = FakeClock(on_advance=lambda: self._notify())
        self.snowflake = SnowflakeFactory(self.clock)
        # the Developer Portal's installation contexts (0 guild, 1 user): the default of a command's
        # integration_types, and a command declaring another is refused at sync
        self.app_install_types: set[int] = {int(t) for t in install_types}
        # Discord refuses a DM to a user who shares no server with the bot (403/50278). Off by default (the DM rules
        # tests had before issue 29); on, a user who installed the app counts as reachable, which Discord's docs
        # leave open
        self.dm_needs_mutual_guild = dm_needs_mutual_guild
        self.token = token
        # Discord answers 404/10062 to a callback more than 3 s after the interaction; the fake allows DEADLINE by
        # default, because on a loaded machine the wall clock between dispatch and answer measures the machine, not
        # the bot (a test of late answers sets it, e.g. -1: any answer is late). How fast the bot answers is
        # benchmarks/clickpath.py's to measure.
        self.interaction_deadline = interaction_deadline
        self.rate_limit: RateLimitMode = rate_limit
        self.channel_rate_limit = channel_rate_limit
        self.privileged_intents_allowed = privileged_intents_allowed
        self.strict_commands = strict_commands
        self.auto_patch = auto_patch
        self.settle_iterations = settle_iterations
        # the shard count: GET /gateway/bot recommends it and a sharded IDENTIFY must use it (4010/4011 if not)
        self.recommended_shards = recommended_shards
        self.max_concurrency = max_concurrency
        # GET /gateway/bot's session_start_limit: (total, remaining); every accepted IDENTIFY takes one, as Discord's
        # does (a RESUME takes none). At 0 an IDENTIFY is closed with 4004, as Discord resets the token then.
        self.identify_total, self.identifies_left = identify_limit
        self.identify_reset_after_ms = 86_400_000
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.application_flags = 0
        self.presence: Any = None

        self.bot_user = FakeUser(id=self.snowflake(), name=bot_name, bot=True)
        self.application_id = self.bot_user.id
        self.owner = FakeUser(id=self.snowflake(), name="app-owner")

        # model
        self.users: dict[int, FakeUser] = {self.bot_user.id: self.bot_user}
        self.guilds: dict[int, FakeGuild] = {}
        self.channels: dict[int, FakeChannel] = {}

        # records
        self.messages: dict[int, FakeMessage] = {}
        self.rest_calls: list[RestCall] = []
        self.unknown_routes: list[RestCall] = []
        self.faults: list[Fault] = []
        # (channel id, nonce) -> (message id, when): a message created with ``enforce_nonce``, as Discord keeps it
        # for a few minutes: the same nonce again returns that message instead of creating another
        self.nonces: dict[tuple[int, str], tuple[int, float]] = {}
        self.injected: set[int] = set()  # seq of each call a fault answered (not a problem of the bot's)
        self.interactions: list[InteractionRecord] = []
        self.blocked_dms: list[tuple[int, dict[str, Any]]] = []
        self.attachment_data: dict[str, bytes] = {}  # attachment id -> the file's bytes as uploaded
        # the application's emojis (tests/fakediscord/emojis.py): id -> the emoji object, id -> its image, uploads
        self.app_emojis: dict[int, dict[str, Any]] = {}
        self.app_emoji_images: dict[int, bytes] = {}
        self.emoji_uploads = 0
        self.rate_limit_violations: list[RateLimitViolation] = []
        self.v2_flag_removals: list[str] = []  # edits that sent flags without IS_COMPONENTS_V2 on a V2 message
        self._channel_posts: dict[int, list[float]] = {}
        self._interactions: dict[int, InteractionRecord] = {}
        self._interactions_by_token: dict[str, InteractionRecord] = {}
        self._commands: dict[int | None, list[dict[str, Any]]] = {}
        self.command_syncs: list[tuple[int | None, list[dict[str, Any]]]] = []

        # gateway
        self._sessions: dict[str, GatewaySession] = {}
        self.connections: list[GatewayConnection] = []  # every connection ever made, in order

        # runtime
        self._runner: web.AppRunner | None = None
        self._site: web.TCPSite | None = None
        self._patch: ClientPatch | None = None
        self._changed = asyncio.Event()
        self._inflight = 0
        self._message_events: set[asyncio.Task[None]] = set()  # MESSAGE_CREATE/UPDATE/DELETE on their way
        self.host = "127.0.0.1"
        self.port = 0

    # ================================================================================================================
    # lifecycle
    # ================================================================================================================
    async def start(self) -> FakeDiscord:
        app = build_app(self, self._gateway_handler)
        add_emoji_routes(app, self)
        self._runner = web.AppRunner(app, handle_signals=False, access_log=None, shutdown_timeout=0.5)
        await self._runner.setup()
        self._site = web.TCPSite(self._runner, self.host, 0)
        await self._site.start()
        self.port = int(self._runner.addresses[0][1])
        if self.auto_patch:
            self._patch = self.patch_client()
        return self

    async def close(self) -> None:
        for conn in self.connections:
            if not conn.closed:
                with contextlib.suppress(Exception):
                    await conn.close(1001, "fake discord shutting down")
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        if self._patch is not None:
            self._patch.restore()
            self._patch = None

    async def __aenter__(self) -> FakeDiscord:
        return await self.start()

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.close()

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:<port>/api/v10`` — the value for ``discord.http.Route.BASE``."""
        return f"http://{self.host}:{self.port}/api/v10"

    @property
    def gateway_url(self) -> str:
        """``ws://127.0.0.1:<port>/gateway`` — the value for ``DiscordWebSocket.DEFAULT_GATEWAY``."""
        return f"ws://{self.host}:{self.port}/gateway"

    def patch_client(self) -> ClientPatch:
        """Point discord.py at this fake now; the returned handle restores (``restore()`` or ``with``)."""
        if not self.port:
            raise FakeDiscordError("start() the fake before patching the client")
        return ClientPatch(self.base_url, self.gateway_url)

    # ================================================================================================================
    # model setup
    # ================================================================================================================
    def add_guild(
        self,
        name: str = "Tavern",
        *,
        channels: Iterable[str] = ("general",),
        locale: str = "en-US",
        bot_permissions: int | discord.Permissions = DEFAULT_BOT_PERMISSIONS,
        everyone_permissions: int | discord.Permissions = DEFAULT_MEMBER_PERMISSIONS,
        shard: tuple[int, int] | None = None,
        bot_member: bool = True,
    ) -> FakeGuild:
        """Add a guild with text channels. Bots that connect afterwards get it in READY/GUILD_CREATE; for a bot
        already connected call ``await fake.announce_guild(guild)``.

        ``shard=(shard_id, shard_count)`` picks an id that lands on that shard (``(id >> 22) % count``).
        ``bot_member=False``: a server that never added the bot: no READY/GUILD_CREATE entry, the bot's token gets
        403/50001 for its channels and for the guild, and only users who installed the app can use its commands
        (context 0, ``authorizing_integration_owners`` ``{"1": user}``).
        """
        guild_id = self.snowflake() if shard is None else self.snowflake.on_shard(*shard)
        guild = FakeGuild(
            id=guild_id,
            name=name,
            locale=locale,
            owner_id=self.owner.id,
            bot_role_id=self.snowflake(),
            bot_permissions=_perm(bot_permissions),
            everyone_permissions=_perm(everyone_permissions),
            bot_member=bot_member,
        )
        self.guilds[guild.id] = guild
        for ch in channels:
            self.add_channel(guild, ch)
        return guild

    async def announce_guild(self, guild: FakeGuild) -> None:
        """Send GUILD_CREATE for ``guild`` to the connected bot (the bot "joins" it: ``on_guild_join``); a guild
        added with ``bot_member=False`` has the bot from now on."""
        guild.bot_member = True
        conn = await self.wait_for(lambda: self._live_connection(guild.id), DEADLINE, what="a connected bot")
        assert conn.session is not None
        await conn.dispatch("GUILD_CREATE", self._guild_create_payload(guild, conn.session.intents))

    def add_channel(self, guild: FakeGuild, name: str) -> FakeChannel:
        """Add a text channel. Bots already connected do not learn about it (no CHANNEL_CREATE is sent)."""
        channel = FakeChannel(id=self.snowflake(), name=name, type=0, guild_id=guild.id, position=len(guild.channels))
        guild.channels[channel.id] = channel
        self.channels[channel.id] = channel
        return channel

    def add_group_dm(
        self, members: Iterable[FakeUser], name: str | None = None, *, owner: FakeUser | None = None
    ) -> FakeChannel:
        """A group DM (channel type 3) of ``members`` (at most 10, Discord's cap), which the bot is never in: its token
        gets 403/50001 there; commands work only for members who installed the app (``install_app``), as
        PRIVATE_CHANNEL (context 2) interactions whose ``channel`` lists the recipients."""
        people = list(members)
        if not 1 <= len(people) <= 10:
            raise FakeDiscordError(f"a group DM has 1..10 members, not {len(people)}")
        channel = FakeChannel(
            id=self.snowflake(),
            name=name if name is not None else ", ".join(u.name for u in people),
            type=3,
            recipients=people,
            owner_id=(owner or people[0]).id,
        )
        self.channels[channel.id] = channel
        return channel

    def install_app(self, user: FakeUser, installed: bool = True) -> FakeUser:
        """``user`` adds the app to their account (a user install; ``installed=False`` removes it)."""
        user.app_installed = installed
        return user

    def can_dm(self, user: FakeUser) -> bool:
        """Whether a DM to ``user`` passes the mutual-server rule (``dm_needs_mutual_guild``; DMs closed aside)."""
        if not self.dm_needs_mutual_guild or user.app_installed:
            return True
        return any(g.bot_member and user.id in g.members for g in self.guilds.values())

    def bot_can_access(self, channel: FakeChannel) -> bool:
        """Whether the bot's token reaches ``channel``: its DMs and the channels of servers that added it; never a
        group DM or a server without it."""
        if channel.is_group_dm:
            return False
        if channel.guild_id is None:
            return True
        guild = self.guilds.get(channel.guild_id)
        return guild is not None and guild.bot_member

    def visible_messages(self, channel: ChannelRef, user: UserRef) -> list[FakeMessage]:
        """What ``user`` sees in ``channel``: every shared message and only their own ephemerals."""
        uid = user if isinstance(user, int) else user.id
        return [m for m in self.channel_messages(channel, include_ephemeral=True) if m.visible_to in (None, uid)]

    def threads(self, channel: ChannelRef) -> list[FakeChannel]:
        """The threads started in ``channel``, in order (archived ones too)."""
        cid = channel if isinstance(channel, int) else channel.id
        return [c for c in self.channels.values() if c.is_thread and c.parent_id == cid]

    def bot_permissions_in(self, channel: FakeChannel) -> discord.Permissions:
        """What the bot may do in a guild channel or thread: its role's permissions and @everyone's (no
        overwrites in the fake); Administrator grants everything."""
        assert channel.guild_id is not None
        guild = self.guilds[channel.guild_id]
        value = guild.bot_permissions | guild.everyone_permissions
        return discord.Permissions.all() if value & _ADMINISTRATOR else discord.Permissions(value)

    def _start_thread(
        self, parent: FakeChannel, name: str, type_: int, *, thread_id: int | None = None, auto_archive: int = 1440
    ) -> FakeChannel:
        """A thread the bot started in ``parent`` (from a message: its id is the message's); THREAD_CREATE follows."""
        assert parent.guild_id is not None
        thread = FakeChannel(
            id=thread_id if thread_id is not None else self.snowflake(),
            name=name,
            type=type_,
            guild_id=parent.guild_id,
            parent_id=parent.id,
            owner_id=self.bot_user.id,
            auto_archive_duration=auto_archive,
        )
        self.guilds[parent.guild_id].threads[thread.id] = thread
        self.channels[thread.id] = thread
        self._notify()
        self._channel_event("THREAD_CREATE", thread, newly_created=True)
        return thread

    def _update_thread(self, thread: FakeChannel, changes: Mapping[str, Any]) -> None:
        if "name" in changes:
            thread.name = str(changes["name"])
        if "archived" in changes and bool(changes["archived"]) != thread.archived:
            thread.archived = bool(changes["archived"])
            thread.archived_at = utcnow_iso()
        if "locked" in changes:
            thread.locked = bool(changes["locked"])
        if "auto_archive_duration" in changes:
            thread.auto_archive_duration = int(changes["auto_archive_duration"])
        self._notify()
        self._channel_event("THREAD_UPDATE", thread)

    def _channel_event(self, event: str, thread: FakeChannel, **extra: Any) -> None:
        """THREAD_CREATE / THREAD_UPDATE to the connected bot (threads need the GUILDS intent, always on)."""
        conn = self._live_connection(thread.guild_id)
        if conn is None or conn.session is None:
            return
        self._dispatch_later(conn, event, {**thread.payload(), **extra})

    def add_user(
        self,
        name: str,
        *,
        guild: FakeGuild | Iterable[FakeGuild] | None = None,
        permissions: int | discord.Permissions | None = None,
        dms_open: bool = True,
        locale: str = "en-US",
        global_name: str | None = None,
        app_installed: bool = False,
    ) -> FakeUser:
        """Add a user, optionally as a member of ``guild`` (one or several) with ``permissions``;
        ``app_installed``: they installed the app to their account (``install_app``).

        ``permissions`` are the member's effective permissions; ``None`` = the guild's @everyone permissions.
        Use ``discord.Permissions(manage_guild=True)`` etc. (``|`` it with ``DEFAULT_MEMBER_PERMISSIONS``
        for a normal member who also can manage the server).
        """
        user = FakeUser(
            id=self.snowflake(),
            name=name,
            global_name=global_name,
            dms_open=dms_open,
            locale=locale,
            app_installed=app_installed,
        )
        self.users[user.id] = user
        guilds = [guild] if isinstance(guild, FakeGuild) else list(guild or [])
        for g in guilds:
            self.add_member(g, user, permissions=permissions)
        return user

    def add_member(
        self, guild: FakeGuild, user: FakeUser, *, permissions: int | discord.Permissions | None = None
    ) -> FakeMember:
        perms = guild.everyone_permissions if permissions is None else _perm(permissions)
        member = FakeMember(user=user, guild_id=guild.id, permissions=perms)
        guild.members[user.id] = member
        return member

    def set_permissions(self, guild: FakeGuild, user: FakeUser, permissions: int | discord.Permissions) -> None:
        guild.members[user.id].permissions = _perm(permissions)

    def user(self, name: str) -> FakeUser:
        for u in self.users.values():
            if u.name == name:
                return u
        raise KeyError(name)

    # ================================================================================================================
    # queries
    # ================================================================================================================
    def channel_messages(
        self, channel: ChannelRef, *, include_ephemeral: bool = False, include_deleted: bool = False
    ) -> list[FakeMessage]:
        """Messages in a channel in creation order (channel sends and non-ephemeral interaction replies)."""
        cid = channel if isinstance(channel, int) else channel.id
        return [
            m
            for m in self.messages.values()
            if m.channel_id == cid and (include_ephemeral or not m.ephemeral) and (include_deleted or not m.deleted)
        ]

    def dms(self, user: UserRef, *, include_deleted: bool = False) -> list[FakeMessage]:
        """DMs the bot sent to ``user`` (in order). Blocked attempts are in ``blocked_dms``."""
        u = self._user(user)
        if u.dm_channel is None:
            return []
        return self.channel_messages(u.dm_channel, include_deleted=include_deleted)

    def dm_attempts_blocked(self, user: UserRef) -> int:
        uid = user if isinstance(user, int) else user.id
        return sum(1 for blocked, _ in self.blocked_dms if blocked == uid)

    def message(self, message_id: int) -> FakeMessage:
        return self.messages[message_id]

    def last_message(self, channel: ChannelRef) -> FakeMessage:
        msgs = self.channel_messages(channel)
        if not msgs:
            raise LookupError(f"no messages in channel {channel!r}")
        return msgs[-1]

    def mark(self) -> int:
        """A position in the REST log; pass to ``calls(since=...)`` to count calls made by one action."""
        return len(self.rest_calls)

    def calls(
        self,
        *,
        since: int = 0,
        method: str | None = None,
        route: str | None = None,
        path_prefix: str | None = None,
        kind: str | Iterable[str] | None = None,
    ) -> list[RestCall]:
        """Filter the REST log. ``route`` is a template like ``/channels/{channel_id}/messages``;
        ``kind`` is ``bot``/``callback``/``webhook``/``unknown`` (or several)."""
        kinds = {kind} if isinstance(kind, str) else (set(kind) if kind is not None else None)
        out = []
        for call in self.rest_calls[since:]:
            if method is not None and call.method != method.upper():
                continue
            if route is not None and call.route != route:
                continue
            if path_prefix is not None and not call.path.startswith(path_prefix):
                continue
            if kinds is not None and call.kind not in kinds:
                continue
            out.append(call)
        return out

    def registered_commands(self, guild: FakeGuild | int | None = None) -> list[dict[str, Any]]:
        """The command tree the bot synced: global (``guild=None``) or for one guild."""
        gid = guild.id if isinstance(guild, FakeGuild) else guild
        return [dict(c) for c in self._commands.get(gid, [])]

    def find_command(self, name: str, guild: FakeGuild | int | None = None) -> dict[str, Any] | None:
        """A registered chat-input command by name: the guild's first, then the global one."""
        gid = guild.id if isinstance(guild, FakeGuild) else guild
        for scope in ([gid] if gid is not None else []) + [None]:
            for cmd in self._commands.get(scope, []):
                if cmd["name"] == name and cmd.get("type", 1) == 1:
                    return cmd
        return None

    def max_messages_in_window(self, channel: ChannelRef, window: float | None = None) -> int:
        """Most ``POST /channels/{id}/messages`` accepted in any sliding window (default: rate-limit window)."""
        cid = channel if isinstance(channel, int) else channel.id
        span = self.channel_rate_limit[1] if window is None else window
        times = self._channel_posts.get(cid, [])
        best, start = 0, 0
        for end, t in enumerate(times):
            while t - times[start] >= span:
                start += 1
            best = max(best, end - start + 1)
        return best

    # ================================================================================================================
    # fault injection
    # ================================================================================================================
    def fail(
        self,
        match: str | Callable[[RestCall], bool],
        *,
        status: int = 503,
        times: int | None = None,
        drop: bool = False,
        global_: bool = False,
        retry_after: float = 0.05,
        lost: bool = False,
    ) -> Fault:
        """Inject a fault into matching REST calls: ``match`` is ``"METHOD /route/{template}"`` (e.g.
        ``"PATCH /channels/{channel_id}/messages/{message_id}"``; the method may be left out) or a predicate on the
        :class:`RestCall`. ``times``: how many calls it answers (None: until ``heal``). See :class:`Fault`."""
        if isinstance(match, str):
            method, _, route = match.rpartition(" ")
            want = match

            def matches(call: RestCall, method: str = method.upper(), route: str = route) -> bool:
                return call.route == route and (not method or call.method == method)

            matches.__doc__ = want
            predicate: Callable[[RestCall], bool] = matches
        else:
            predicate = match
        fault = Fault(predicate, status, times, drop, global_, retry_after, lost)
        self.faults.append(fault)
        return fault

    def heal(self, fault: Fault | None = None) -> None:
        """End ``fault`` (None: every fault)."""
        self.faults = [] if fault is None else [f for f in self.faults if f is not fault]

    def _fault_for(self, call: RestCall) -> Fault | None:
        for fault in self.faults:
            if fault.active and call.route is not None and fault.match(call):
                fault.hits += 1
                self.injected.add(call.seq)
                return fault
        return None

    def problems(self, *, include_unanswered: bool = True) -> list[str]:
        """Everything a well-behaved bot must not cause: unknown routes, late/double/invalid interaction
        callbacks, interactions without any callback (``include_unanswered``), REST answers >= 400 other than
        the expected 403/50007 and 403/50278 for refused DMs (webhook misuse, expired tokens, the bot token in a place
        without the bot, 429s, refused message bodies with Discord's reasons …), rate-limit violations, edits that
        tried to remove IS_COMPONENTS_V2."""
        out: list[str] = []
        out += [f"unknown route {c.method} {c.path}" for c in self.unknown_routes]
        for rec in self.interactions:
            for cb in rec.callbacks:
                if cb.status != 200:
                    why = "".join(f"\n    {line}" for line in error_lines(cb.errors or {}))
                    out.append(
                        f"interaction {rec.describe()}: callback type {cb.type} -> {cb.status}/{cb.error_code}{why}"
                    )
            if include_unanswered and not rec.callbacks:
                out.append(f"interaction {rec.describe()} never acknowledged")
        for call in self.rest_calls:
            refused_dm = call.error_code in (50007, 50278)  # DMs closed / no mutual server: the bot's to handle
            if call.kind == "unknown" or call.status < 400 or refused_dm or call.seq in self.injected:
                continue
            iid = call.path.split("/")[2]
            if call.kind == "callback" and iid.isdigit() and int(iid) in self._interactions:
                continue  # reported per interaction above
            why = "".join(f"\n    {line}" for line in error_lines(call.errors or {}))
            out.append(f"{call.method} {call.path} -> {call.status}/{call.error_code}{why}")
        out += [
            f"rate limit: {v.count_in_window} messages in channel {v.channel_id}" for v in self.rate_limit_violations
        ]
        out += self.v2_flag_removals
        return out

    def assert_no_problems(self) -> None:
        found = self.problems()
        assert not found, "fake Discord saw problems:\n  " + "\n  ".join(found)

    # ================================================================================================================
    # waiting
    # ================================================================================================================
    def _notify(self) -> None:
        self._changed.set()
        self._changed = asyncio.Event()

    def notify(self) -> None:
        """Wake every ``wait_for`` so it re-evaluates its predicate (e.g. from a bot-side callback)."""
        self._notify()

    async def wait_for(
        self, predicate: Callable[[], T | None], timeout: float = DEADLINE, *, what: str | None = None
    ) -> T:
        """Wait until ``predicate()`` is truthy and return it: re-checked after every change the fake records, and
        every ``POLL`` seconds for what the bot changes without telling the fake (a worker that ended, a row, a log
        line), so a predicate about the bot's side returns when it holds, not at the deadline.

        Raises :class:`FakeTimeout` (a ``TimeoutError``) with the recent REST log after ``timeout`` seconds.
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            result = predicate()
            if result:
                return result
            remaining = deadline - loop.time()
            if remaining <= 0:
                label = what or str(getattr(predicate, "__name__", "predicate"))
                raise FakeTimeout(self._timeout_message(label, timeout))
            event = self._changed
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), min(remaining, POLL))

    def _timeout_message(self, what: str, timeout: float) -> str:
        recent = "\n  ".join(repr(c) for c in self.rest_calls[-10:]) or "(none)"
        problems = "\n  ".join(self.problems()) or "(none)"
        return (
            f"timed out after {timeout}s waiting for {what}\n"
            f"gateway connected: {self.connected}\nlast REST calls:\n  {recent}\nproblems:\n  {problems}"
        )

    async def wait_for_message(
        self,
        channel: ChannelRef,
        predicate: Callable[[FakeMessage], Any] | None = None,
        timeout: float = DEADLINE,
        *,
        after: int = 0,
    ) -> FakeMessage:
        """The first message in ``channel`` with id > ``after`` matching ``predicate`` (waits for it)."""

        def find() -> FakeMessage | None:
            for m in self.channel_messages(channel):
                if m.id > after and (predicate is None or predicate(m)):
                    return m
            return None

        return await self.wait_for(find, timeout, what=f"a message in channel {channel!r}")

    async def wait_for_dm(
        self, user: UserRef, predicate: Callable[[FakeMessage], Any] | None = None, timeout: float = DEADLINE
    ) -> FakeMessage:
        def find() -> FakeMessage | None:
            return next((m for m in self.dms(user) if predicate is None or predicate(m)), None)

        return await self.wait_for(find, timeout, what=f"a DM to {user!r}")

    async def settle(self) -> None:
        """Let the bot finish digesting the responses it got: wait until no request is in flight, then yield
        to the event loop ``settle_iterations`` times (everything runs in one loop over loopback).

        discord.py registers a view only after it has read the callback response, so clicks call this first.
        """
        await self.wait_for(lambda: self._inflight == 0, DEADLINE, what="in-flight requests to finish")
        if self._message_events:  # the message events those requests caused reach the bot first
            await asyncio.wait(list(self._message_events), timeout=DEADLINE)
        for _ in range(self.settle_iterations):
            await asyncio.sleep(0)

    # ================================================================================================================
    # gateway
    # ================================================================================================================
    @property
    def connected(self) -> bool:
        return any(c.ready and not c.closed for c in self.connections)

    async def wait_until_connected(self, timeout: float = DEADLINE) -> GatewayConnection:
        """Wait until a bot has identified (READY and GUILD_CREATEs sent) and return its connection."""
        return await self.wait_for(lambda: self._live_connection(), timeout, what="a bot to connect to the gateway")

    def shard_of(self, guild: FakeGuild | int | None) -> int:
        """The shard that serves ``guild`` (``None``: DMs, shard 0) under the configured shard count."""
        if guild is None:
            return 0
        gid = guild if isinstance(guild, int) else guild.id
        return (gid >> 22) % self.recommended_shards

    def shard_connection(self, shard_id: int) -> GatewayConnection | None:
        """The newest live, identified connection of a sharded client on ``shard_id`` (None if there is none)."""
        for conn in reversed(self.connections):
            session = conn.session
            if conn.ready and not conn.closed and session is not None and session.shard_id == shard_id:
                return conn
        return None

    async def wait_for_shard(
        self, shard_id: int, timeout: float = DEADLINE, *, other_than: GatewayConnection | None = None
    ) -> GatewayConnection:
        """Wait until a client has identified on ``shard_id`` (on a connection other than ``other_than``)."""

        def found() -> GatewayConnection | None:
            conn = self.shard_connection(shard_id)
            return conn if conn is not None and conn is not other_than else None

        return await self.wait_for(found, timeout, what=f"a client to identify on shard {shard_id}")

    def _live_connection(self, guild_id: int | None = None) -> GatewayConnection | None:
        for conn in reversed(self.connections):
            if conn.ready and not conn.closed and conn.session is not None and conn.session.covers(guild_id):
                return conn
        return None

    async def _gateway_handler(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        conn = GatewayConnection(self, ws, dict(request.query))
        self.connections.append(conn)
        self._notify()
        await conn.run()
        return ws

    def _connection_ready(self, conn: GatewayConnection) -> None:
        self._notify()

    def _connection_closed(self, conn: GatewayConnection) -> None:
        self._notify()

    async def reconnect_gateway(self) -> None:
        """Send op 7 RECONNECT on live connections; discord.py reconnects and RESUMEs its session."""
        for conn in self.connections:
            if conn.ready and not conn.closed:
                await conn.send_op(7, None)

    async def dispatch_event(self, event: str, data: dict[str, Any], guild_id: int | None = None) -> None:
        """Send an arbitrary DISPATCH event to the connected bot (e.g. ``GUILD_MEMBER_ADD``)."""
        conn = await self.wait_for(lambda: self._live_connection(guild_id), DEADLINE, what="a connected bot")
        await conn.dispatch(event, data)

    def _guild_create_payload(self, guild: FakeGuild, intents: int) -> dict[str, Any]:
        members = [self._bot_member_payload(guild)]
        if intents & GUILD_MEMBERS_INTENT:
            members += [m.payload() for m in guild.members.values()]
        return {
            "id": str(guild.id),
            "name": guild.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": str(guild.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "premium_progress_bar_enabled": False,
            "preferred_locale": guild.locale,
            "features": [],
            "roles": guild.roles_payload(),
            "emojis": [],
            "stickers": [],
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "safety_alerts_channel_id": None,
            "vanity_url_code": None,
            "application_id": None,
            "joined_at": guild.joined_at,
            "large": False,
            "unavailable": False,
            "lazy": True,
            "member_count": len(members),
            "members": members,
            "channels": [c.payload() for c in guild.channels.values()],
            "threads": [c.payload() for c in guild.threads.values() if not c.archived],  # the active ones
            "presences": [],
            "voice_states": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }

    def _bot_member_payload(self, guild: FakeGuild) -> dict[str, Any]:
        return FakeMember(
            user=self.bot_user,
            guild_id=guild.id,
            permissions=guild.bot_permissions,
            roles=[guild.bot_role_id],
            joined_at=guild.joined_at,
        ).payload()

    def _application_payload(self) -> dict[str, Any]:
        return {
            "id": str(self.application_id),
            "name": self.bot_user.name,
            "icon": None,
            "description": "Dice Tavern (fake)",
            "summary": "",
            "type": None,
            "bot_public": True,
            "bot_require_code_grant": False,
            "verify_key": "0" * 64,
            "owner": self.owner.payload(),
            "team": None,
            "flags": self.application_flags,
            "bot": self.bot_user.payload(),
            "interactions_endpoint_url": None,
            "install_params": None,
            "integration_types_config": {str(t): {} for t in sorted(self.app_install_types)},
            "approximate_guild_count": sum(1 for g in self.guilds.values() if g.bot_member),
        }

    # ================================================================================================================
    # REST-side state changes (called by rest.py)
    # ================================================================================================================
    def _authorized(self, header: str | None) -> bool:
        if not header or not header.startswith("Bot "):
            return False
        return self.token is None or header == f"Bot {self.token}"

    def _user(self, user: UserRef) -> FakeUser:
        return user if isinstance(user, FakeUser) else self.users[user]

    def _dm_channel(self, user: FakeUser) -> FakeChannel:
        if user.dm_channel is None:
            user.dm_channel = FakeChannel(id=self.snowflake(), name=f"dm-{user.name}", type=1, recipient=user)
            self.channels[user.dm_channel.id] = user.dm_channel
        return user.dm_channel

    def _store_commands(
        self, scope: int | None, commands: list[dict[str, Any]], *, overwrite: bool
    ) -> list[dict[str, Any]]:
        existing = self._commands.get(scope, [])
        by_key = {(c["name"], c.get("type", 1)): c for c in existing}
        stored: list[dict[str, Any]] = []
        for raw in commands:
            key = (raw["name"], raw.get("type", 1))
            old = by_key.get(key)
            cmd = {
                "type": 1,
                "description": "",
                "options": [],
                "default_member_permissions": None,
                "dm_permission": True,
                "nsfw": False,
                "name_localizations": None,
                "description_localizations": None,
                **raw,
                **command_defaults(raw, scope, self.app_install_types),
                "id": old["id"] if old else str(self.snowflake()),
                "application_id": str(self.application_id),
                "version": str(self.snowflake()),
            }
            if cmd["default_member_permissions"] is not None:  # Discord echoes it as a string
                cmd["default_member_permissions"] = str(cmd["default_member_permissions"])
            if scope is not None:
                cmd["guild_id"] = str(scope)
            stored.append(cmd)
            by_key[key] = cmd
        if overwrite:
            self._commands[scope] = stored
            self.command_syncs.append((scope, stored))
        else:
            self._commands[scope] = list(by_key.values())
        self._notify()
        return stored

    def _rate_limit_check(self, channel_id: int) -> float | None:
        """Record a channel POST; return ``retry_after`` if it must be refused (mode ``enforce``)."""
        now = time.monotonic()
        limit, window = self.channel_rate_limit
        posts = self._channel_posts.setdefault(channel_id, [])
        recent = [t for t in posts if now - t < window]
        if self.rate_limit != "off" and len(recent) >= limit:
            self.rate_limit_violations.append(RateLimitViolation(channel_id, now, len(recent) + 1))
            if self.rate_limit == "enforce":
                return max(0.001, window - (now - recent[0]))
        posts.append(now)
        return None

    def _new_message(
        self,
        channel: FakeChannel,
        body: dict[str, Any],
        files: list[dict[str, Any]],
        *,
        kind: Literal["channel", "interaction_response", "followup"],
        interaction: InteractionRecord | None = None,
        extra_flags: int = 0,
        type_: int = 0,
    ) -> FakeMessage:
        allowed = CREATE_FLAGS if interaction is not None else CREATE_FLAGS & ~EPHEMERAL  # no ephemeral channel sends
        flags = (int(body.get("flags") or 0) & allowed) | extra_flags
        if interaction is not None and forced_ephemeral(interaction.payload):
            flags |= EPHEMERAL  # a member without USE_EXTERNAL_APPS: a user-installed app answers only them
        embeds = list(body.get("embeds") or ([body["embed"]] if body.get("embed") else []))
        message = FakeMessage(
            id=self.snowflake(),
            channel_id=channel.id,
            guild_id=channel.guild_id,
            author=self.bot_user,
            content=body.get("content") or "",
            embeds=embeds,
            components=list(body.get("components") or []),
            flags=flags,
            attachments=self._attachments(files),
            kind=kind,
            type=type_,
            interaction=interaction,
            visible_to=interaction.user.id if interaction is not None and flags & EPHEMERAL else None,
            message_reference=body.get("message_reference"),
            allowed_mentions=body.get("allowed_mentions"),
        )
        message.snapshot(f"create {kind}")
        self.messages[message.id] = message
        self._notify()
        self._message_event("MESSAGE_CREATE", message)
        return message

    async def post_message(self, user: FakeUser, channel: ChannelRef, content: str = "") -> FakeMessage:
        """``user`` posts a plain message in a guild channel (chat): recorded like the bot's messages (author
        ``user``, kind ``"user"``) and dispatched as MESSAGE_CREATE to a bot with the GUILD_MESSAGES intent,
        without its content unless the bot has MESSAGE_CONTENT (as Discord does). Returns once it is sent."""
        ch = self._resolve_channel(user, channel)
        if ch.is_group_dm and user in ch.recipients:  # recorded; the bot is not there to hear it
            message = FakeMessage(
                id=self.snowflake(), channel_id=ch.id, guild_id=None, author=user, content=content, kind="user"
            )
            message.snapshot("create user")
            self.messages[message.id] = message
            self._notify()
            return message
        if ch.guild_id is None or user.id not in self.guilds[ch.guild_id].members:
            raise FakeDiscordError(f"{user!r} cannot post in {ch!r}: not a member of its guild")
        message = FakeMessage(
            id=self.snowflake(), channel_id=ch.id, guild_id=ch.guild_id, author=user, content=content, kind="user"
        )
        message.snapshot("create user")
        self.messages[message.id] = message
        self._notify()
        task = self._message_event("MESSAGE_CREATE", message)
        if task is not None:
            await task
        return message

    def _message_event(self, event: str, message: FakeMessage) -> asyncio.Task[None] | None:
        """Dispatch a guild message's MESSAGE_CREATE / MESSAGE_UPDATE / MESSAGE_DELETE to the connected bot if its
        session has the GUILD_MESSAGES intent (ephemeral messages and DMs: never). Sent in order, from a task (the
        REST handler that created the message does not wait for the gateway)."""
        if message.guild_id is None or message.ephemeral or not self.guilds[message.guild_id].bot_member:
            return None  # no gateway events from DMs, ephemerals, or servers without the bot
        conn = self._live_connection(message.guild_id)
        if conn is None or conn.session is None or not conn.session.intents & GUILD_MESSAGES_INTENT:
            return None
        data: dict[str, Any]
        if event == "MESSAGE_DELETE":
            data = {"id": str(message.id), "channel_id": str(message.channel_id), "guild_id": str(message.guild_id)}
        else:
            data = message.payload(self.application_id)
            own = message.author.id == self.bot_user.id
            if not own and not conn.session.intents & MESSAGE_CONTENT_INTENT:
                data.update(content="", embeds=[], attachments=[], components=[])  # Discord withholds them
            guild = self.guilds[message.guild_id]
            member = guild.members.get(message.author.id)
            if own:
                data["member"] = {k: v for k, v in self._bot_member_payload(guild).items() if k != "user"}
            elif member is not None:
                data["member"] = member.payload(with_user=False)
        return self._dispatch_later(conn, event, data)

    def _dispatch_later(self, conn: GatewayConnection, event: str, data: dict[str, Any]) -> asyncio.Task[None]:
        """Send a gateway event from a task, in order with the others (the REST handler does not wait for it)."""

        async def send() -> None:
            with contextlib.suppress(ConnectionResetError):
                await conn.dispatch(event, data)

        task = asyncio.ensure_future(send())
        self._message_events.add(task)
        task.add_done_callback(self._message_events.discard)
        return task

    def _attachments(self, files: list[dict[str, Any]]) -> list[dict[str, Any]]:
        out = []
        for f in files:
            aid = self.snowflake()
            url = f"http://{self.host}:{self.port}/attachments/{aid}/{f['filename']}"
            out.append({"id": str(aid), "filename": f["filename"], "size": f["size"], "url": url, "proxy_url": url})
            self.attachment_data[str(aid)] = f.get("data", b"")
        return out

    def attachment_bytes(self, attachment: dict[str, Any]) -> bytes:
        """The uploaded bytes of one of a message's ``attachments``."""
        return self.attachment_data[str(attachment["id"])]

    def _create_message(self, channel: FakeChannel, body: dict[str, Any], files: list[dict[str, Any]]) -> FakeMessage:
        return self._new_message(channel, body, files, kind="channel")

    def _interaction_channel(self, rec: InteractionRecord) -> FakeChannel:
        return self.channels[rec.channel_id]

    def _create_interaction_message(
        self, rec: InteractionRecord, data: dict[str, Any], files: list[dict[str, Any]], *, loading: bool
    ) -> FakeMessage:
        body = {"flags": int(data.get("flags") or 0) & EPHEMERAL} if loading else data
        return self._new_message(
            self._interaction_channel(rec),
            body,
            files,
            kind="interaction_response",
            interaction=rec,
            extra_flags=LOADING if loading else 0,
            type_=20 if rec.type == 2 else 0,
        )

    def _create_followup(
        self, rec: InteractionRecord, body: dict[str, Any], files: list[dict[str, Any]]
    ) -> FakeMessage:
        message = self._new_message(self._interaction_channel(rec), body, files, kind="followup", interaction=rec)
        rec.followups.append(message)
        self._notify()
        return message

    def _apply_edit(self, message: FakeMessage, body: dict[str, Any], files: list[dict[str, Any]], *, via: str) -> None:
        was_loading = message.loading
        if "content" in body:
            message.content = body["content"] or ""
        if "embeds" in body:
            message.embeds = list(body["embeds"] or [])
        elif "embed" in body:
            message.embeds = [body["embed"]] if body["embed"] else []
        if "components" in body:
            message.components = list(body["components"] or [])
        if "flags" in body and body["flags"] is not None:
            changeable = (1 << 2) | IS_COMPONENTS_V2
            kept_v2 = message.flags & IS_COMPONENTS_V2  # once set, components v2 cannot be removed
            message.flags = (message.flags & ~changeable) | (int(body["flags"]) & changeable) | kept_v2
        if "attachments" in body or files:
            keep_ids = {str(a.get("id")) for a in body.get("attachments") or []}
            kept = message.attachments
            if "attachments" in body:
                kept = [a for a in message.attachments if a["id"] in keep_ids]
            message.attachments = kept + self._attachments(files)
        message.flags &= ~LOADING
        if not was_loading:
            message.edited_timestamp = utcnow_iso()
        message.snapshot(via)
        self._notify()
        self._message_event("MESSAGE_UPDATE", message)

    def _delete_message(self, message: FakeMessage) -> None:
        message.deleted = True
        self._notify()
        self._message_event("MESSAGE_DELETE", message)

    # ================================================================================================================
    # test-side user API: interactions
    # ================================================================================================================
    def _base_interaction(
        self,
        *,
        type_: int,
        user: FakeUser,
        channel: FakeChannel,
        data: dict[str, Any],
        locale: str | None,
        message: FakeMessage | None = None,
        owners: Mapping[str, str] | None = None,
    ) -> tuple[int, str, dict[str, Any]]:
        """The INTERACTION_CREATE payload of ``user`` acting in ``channel``; ``owners``: its
        ``authorizing_integration_owners`` (default: the guild install, or the bot DM's ``{"0": "0"}``)."""
        iid = self.snowflake()
        token = f"fake-interaction-{iid}-{secrets.token_hex(8)}"
        payload: dict[str, Any] = {
            "id": str(iid),
            "application_id": str(self.application_id),
            "type": type_,
            "token": token,
            "version": 1,
            "locale": locale or user.locale,
            "entitlements": [],
            "entitlement_sku_ids": [],
            "attachment_size_limit": 10 * 1024 * 1024,
            "data": data,
            "channel_id": str(channel.id),
        }
        if channel.is_dm:
            payload["user"] = user.payload()
            payload["channel"] = channel.payload()
            payload["context"] = CONTEXT_BOT_DM
            payload["authorizing_integration_owners"] = dict(owners) if owners is not None else {"0": "0"}
            payload["app_permissions"] = str(BOT_DM_APP_PERMISSIONS)
        elif channel.is_group_dm:
            if user not in channel.recipients:
                raise FakeDiscordError(f"{user!r} is not in group DM {channel!r}")
            payload["user"] = user.payload()
            payload["channel"] = channel.payload()
            payload["context"] = CONTEXT_PRIVATE_CHANNEL
            payload["authorizing_integration_owners"] = dict(owners) if owners is not None else {"1": str(user.id)}
            payload["app_permissions"] = str(PRIVATE_CHANNEL_APP_PERMISSIONS)
        else:
            guild = self.guilds[channel.guild_id]  # type: ignore[index]
            member = guild.members.get(user.id)
            if member is None:
                raise FakeDiscordError(f"{user!r} is not a member of {guild!r}; add_user(..., guild=guild)")
            payload["guild_id"] = str(guild.id)
            payload["guild"] = {"id": str(guild.id), "locale": guild.locale, "features": []}
            payload["guild_locale"] = guild.locale
            channel_payload = channel.payload() if guild.bot_member else channel.partial_payload()
            channel_payload["permissions"] = str(member.permissions)
            payload["channel"] = channel_payload
            payload["member"] = member.payload(with_permissions=True)
            payload["context"] = CONTEXT_GUILD
            default = {"0": str(guild.id)} if guild.bot_member else {"1": str(user.id)}
            payload["authorizing_integration_owners"] = dict(owners) if owners is not None else default
            payload["app_permissions"] = str(
                guild.bot_permissions | guild.everyone_permissions
                if guild.bot_member
                else guild_without_bot_app_permissions(member.permissions)
            )
        if message is not None:
            payload["message"] = message.payload(self.application_id)
        return iid, token, payload

    async def _dispatch_interaction(self, rec: InteractionRecord, timeout: float) -> InteractionRecord:
        conn = await self.wait_for(
            lambda: self._live_connection(rec.guild_id), timeout, what="a connected bot to receive the interaction"
        )
        self.interactions.append(rec)
        self._interactions[rec.id] = rec
        self._interactions_by_token[rec.token] = rec
        rec.dispatched_at = time.monotonic()
        rec.issued_at = self.clock()
        rec.clock_offset_at_dispatch = self.clock.offset
        await conn.dispatch("INTERACTION_CREATE", rec.payload)
        self._notify()
        return rec

    def _resolve_channel(self, user: FakeUser, channel: ChannelRef | None) -> FakeChannel:
        if channel is None:
            return self._dm_channel(user)
        return channel if isinstance(channel, FakeChannel) else self.channels[channel]

    def _context_of(self, channel: FakeChannel) -> int:
        if channel.is_dm:
            return CONTEXT_BOT_DM
        return CONTEXT_PRIVATE_CHANNEL if channel.is_group_dm else CONTEXT_GUILD

    def _command_owners(self, cmd: dict[str, Any] | None, user: FakeUser, channel: FakeChannel) -> dict[str, str]:
        """Who authorizes ``user``'s use of ``cmd`` in ``channel`` (CommandUnavailable where the client would not
        offer it: contexts, installation types, nobody installed the app here)."""
        guild = self.guilds.get(channel.guild_id) if channel.guild_id is not None else None
        return command_owners(cmd, user=user, channel=channel, guild=guild, context=self._context_of(channel))

    def _message_owners(self, message: FakeMessage | None) -> dict[str, str] | None:
        """A component's or modal's owners: those of the interaction that made the message (its authorizing user
        may not be the clicker); a message the bot posted with its token: the guild install."""
        if message is not None and message.interaction is not None:
            return message.interaction.owners
        return None

    def _check_command_permissions(self, cmd: dict[str, Any] | None, user: FakeUser, channel: FakeChannel) -> None:
        if cmd is None or channel.is_group_dm:  # default_member_permissions apply in servers only
            return
        if channel.is_dm:
            contexts = cmd.get("contexts")
            if (contexts is not None and 1 not in contexts) or cmd.get("dm_permission") is False or cmd.get("guild_id"):
                raise CommandUnavailable(f"/{cmd['name']} cannot be used in DMs")
            return
        required = cmd.get("default_member_permissions")
        if required is None:
            return
        guild = self.guilds[channel.guild_id]  # type: ignore[index]
        member = guild.members[user.id]
        if guild.owner_id == user.id or member.permissions & _ADMINISTRATOR:
            return
        need = int(required)
        if need == 0 or member.permissions & need != need:
            missing = [name for name, on in discord.Permissions(need & ~member.permissions) if on] or ["(disabled)"]
            raise CommandUnavailable(f"{user.name} cannot see /{cmd['name']}: lacks {missing}")

    async def slash(
        self,
        user: FakeUser,
        channel: ChannelRef | None,
        name: str,
        *path: str,
        options: dict[str, Any] | None = None,
        locale: str | None = None,
        check_permissions: bool = True,
        timeout: float = DEADLINE,
    ) -> InteractionRecord:
        """``/name [group] [subcommand] options…`` typed by ``user`` in ``channel`` (``None`` = the user's DM).

        If the bot synced its commands, the registered schema gives option types/nesting and is enforced like
        the Discord client would (unknown command/subcommand/option, missing required option, choices,
        min/max, ``default_member_permissions``): violations raise :class:`CommandUnavailable`.
        Returns the :class:`InteractionRecord` right after dispatch; ``await record.response()`` for the reply.
        """
        ch = self._resolve_channel(user, channel)
        cmd = self.find_command(name, ch.guild_id)
        if cmd is None and self.strict_commands:
            raise CommandUnavailable(f"/{name} is not registered (the bot did not sync it)")
        owners = None
        if check_permissions:
            owners = self._command_owners(cmd, user, ch)
            self._check_command_permissions(cmd, user, ch)
        data = build_command_data(
            name=name,
            path=path,
            options=dict(options or {}),
            registered=cmd,
            users=self.users,
            guild=self.guilds.get(ch.guild_id) if ch.guild_id else None,
            command_id=int(cmd["id"]) if cmd else self.snowflake(),
        )
        iid, token, payload = self._base_interaction(
            type_=2, user=user, channel=ch, data=data, locale=locale, owners=owners
        )
        rec = InteractionRecord(
            self,
            id=iid,
            token=token,
            type=2,
            user=user,
            guild_id=ch.guild_id,
            channel_id=ch.id,
            payload=payload,
            command_path=" ".join((name, *path)),
        )
        return await self._dispatch_interaction(rec, timeout)

    async def autocomplete(
        self,
        user: FakeUser,
        channel: ChannelRef | None,
        name: str,
        *path: str,
        options: dict[str, Any],
        focused: str | None = None,
        locale: str | None = None,
        timeout: float = DEADLINE,
    ) -> list[dict[str, Any]]:
        """Type into option ``focused`` (default: the only/last option given) and return the bot's choices
        (``[{"name": …, "value": …}, …]``). The record is ``fake.interactions[-1]``."""
        ch = self._resolve_channel(user, channel)
        focus = focused if focused is not None else list(options)[-1]
        cmd = self.find_command(name, ch.guild_id)
        data = build_command_data(
            name=name,
            path=path,
            options=dict(options),
            registered=cmd,
            users=self.users,
            guild=self.guilds.get(ch.guild_id) if ch.guild_id else None,
            command_id=int(cmd["id"]) if cmd else self.snowflake(),
            focused=focus,
        )
        owners = self._command_owners(cmd, user, ch)
        iid, token, payload = self._base_interaction(
            type_=4, user=user, channel=ch, data=data, locale=locale, owners=owners
        )
        rec = InteractionRecord(
            self,
            id=iid,
            token=token,
            type=4,
            user=user,
            guild_id=ch.guild_id,
            channel_id=ch.id,
            payload=payload,
            command_path=" ".join((name, *path)),
        )
        await self._dispatch_interaction(rec, timeout)
        await self.wait_for(lambda: rec.acknowledged, timeout, what=f"autocomplete choices for {focus!r}")
        return list(rec.choices or [])

    def _component_for(self, user: FakeUser, message: FakeMessage, custom_id: str, types: set[int]) -> dict[str, Any]:
        if message.deleted:
            raise ComponentUnavailable(f"message {message.id} was deleted")
        if message.visible_to is not None and message.visible_to != user.id:
            raise ComponentUnavailable(f"{user.name} cannot see ephemeral message {message.id}")
        comp = message.find_component(custom_id)
        if comp is None:
            raise ComponentUnavailable(
                f"no component {custom_id!r} on message {message.id}; it has {message.custom_ids()}"
            )
        if comp.get("type") not in types:
            raise ComponentUnavailable(f"component {custom_id!r} has type {comp.get('type')}, expected {types}")
        if comp.get("disabled"):
            raise ComponentUnavailable(f"component {custom_id!r} is disabled")
        return comp

    async def _component_interaction(
        self,
        user: FakeUser,
        message: FakeMessage,
        custom_id: str,
        data: dict[str, Any],
        locale: str | None,
        timeout: float,
    ) -> InteractionRecord:
        await self.settle()
        channel = self.channels[message.channel_id]
        iid, token, payload = self._base_interaction(
            type_=3,
            user=user,
            channel=channel,
            data=data,
            locale=locale,
            message=message,
            owners=self._message_owners(message),
        )
        rec = InteractionRecord(
            self,
            id=iid,
            token=token,
            type=3,
            user=user,
            guild_id=channel.guild_id,
            channel_id=channel.id,
            payload=payload,
            custom_id=custom_id,
            component_message=message,
        )
        return await self._dispatch_interaction(rec, timeout)

    async def click(
        self,
        user: FakeUser,
        message: FakeMessage | int,
        custom_id: str,
        *,
        locale: str | None = None,
        timeout: float = DEADLINE,
    ) -> InteractionRecord:
        """``user`` clicks the button ``custom_id`` on a recorded message (its current components)."""
        msg = message if isinstance(message, FakeMessage) else self.messages[message]
        comp = self._component_for(user, msg, custom_id, {2})
        if comp.get("style") in (5, 6):
            raise ComponentUnavailable(f"button {custom_id!r} is a link/premium button")
        data = {"custom_id": custom_id, "component_type": 2}
        if comp.get("id") is not None:
            data["id"] = comp["id"]
        return await self._component_interaction(user, msg, custom_id, data, locale, timeout)

    async def select(
        self,
        user: FakeUser,
        message: FakeMessage | int,
        custom_id: str,
        values: Sequence[Any],
        *,
        locale: str | None = None,
        timeout: float = DEADLINE,
    ) -> InteractionRecord:
        """``user`` picks ``values`` in the select ``custom_id``. String selects check values against
        the options and ``min_values``/``max_values``; user selects (type 5) take :class:`FakeUser`/ids."""
        msg = message if isinstance(message, FakeMessage) else self.messages[message]
        comp = self._component_for(user, msg, custom_id, {3, 5, 6, 7, 8})
        ctype = int(comp["type"])
        lo, hi = int(comp.get("min_values", 1)), int(comp.get("max_values", 1))
        if not lo <= len(values) <= hi:
            raise ComponentUnavailable(f"select {custom_id!r} takes {lo}..{hi} values, got {len(values)}")
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": ctype}
        if ctype == 3:
            allowed = [o["value"] for o in comp.get("options", [])]
            bad = [v for v in values if v not in allowed]
            if bad:
                raise ComponentUnavailable(f"select {custom_id!r} has no option(s) {bad}; options: {allowed}")
            data["values"] = list(values)
        else:
            ids = [str(v.id if isinstance(v, FakeUser | FakeChannel) else v) for v in values]
            data["values"] = ids
            if ctype in (5, 7):
                users = {i: self.users[int(i)] for i in ids if int(i) in self.users}
                resolved: dict[str, Any] = {"users": {i: u.payload() for i, u in users.items()}}
                guild = self.guilds.get(msg.guild_id) if msg.guild_id else None
                if guild is not None:
                    resolved["members"] = {
                        i: guild.members[int(i)].payload(with_user=False, with_permissions=True)
                        for i in users
                        if int(i) in guild.members
                    }
                data["resolved"] = resolved
        return await self._component_interaction(user, msg, custom_id, data, locale, timeout)

    async def submit_modal(
        self,
        user: FakeUser,
        opened_by: InteractionRecord,
        values: Mapping[str, str | bool | list[str] | None],
        *,
        locale: str | None = None,
        timeout: float = DEADLINE,
        custom_id: str | None = None,
        forged: Sequence[dict[str, Any]] = (),
    ) -> InteractionRecord:
        """Fill in and submit the modal the bot opened (callback type 9) in answer to ``opened_by``.

        ``values`` maps an input's ``custom_id`` to its answer, as discord.py reads them: a text input's text and a
        radio group's chosen value (``value``, a string; None: nothing chosen), a select's and a checkbox group's
        chosen values (``values``, a list), a checkbox's state (``value``, a bool). An input not given keeps what
        the client shows prefilled: the text input's value, the options marked default, the checkbox's default.
        A forged submit (what no client sends): ``custom_id`` replaces the modal's, and ``forged`` components are
        sent after the modal's (e.g. ``{"type": 4, "custom_id": "nope", "value": "1"}``), unchecked.
        """
        modal = opened_by.modal
        if modal is None:
            raise ComponentUnavailable(f"{opened_by.describe()} did not open a modal")
        await self.settle()

        def prefilled(comp: dict[str, Any]) -> Any:
            t = comp.get("type")
            defaults = [str(o.get("value")) for o in comp.get("options") or [] if o.get("default")]
            if t == 4:
                return comp.get("value") or ""
            if t == 21:
                return defaults[0] if defaults else None
            if t == 23:
                return bool(comp.get("default", False))
            return defaults

        def fill(comps: list[dict[str, Any]]) -> list[dict[str, Any]]:
            out: list[dict[str, Any]] = []
            for comp in comps:
                t = comp.get("type")
                if t == 1:
                    out.append({"type": 1, "components": fill(comp.get("components", []))})
                elif t == 18:
                    out.append({"type": 18, "id": comp.get("id"), "component": fill([comp["component"]])[0]})
                elif "custom_id" in comp:
                    cid = comp["custom_id"]
                    value = values[cid] if cid in values else prefilled(comp)
                    key = "value" if t in (4, 21, 23) else "values"
                    out.append({"type": t, "id": comp.get("id"), "custom_id": cid, key: value})
            return out

        inputs = {c["custom_id"] for c in iter_components(modal.get("components", [])) if "custom_id" in c}
        unknown = set(values) - inputs
        if unknown:
            raise ComponentUnavailable(f"modal {modal.get('custom_id')!r} has no input(s) {sorted(unknown)}")
        components = fill(modal.get("components", [])) + [dict(c) for c in forged]
        data = {"custom_id": custom_id or modal["custom_id"], "components": components}
        channel = self.channels[opened_by.channel_id]
        message = opened_by.component_message
        iid, token, payload = self._base_interaction(
            type_=5, user=user, channel=channel, data=data, locale=locale, message=message, owners=opened_by.owners
        )
        rec = InteractionRecord(
            self,
            id=iid,
            token=token,
            type=5,
            user=user,
            guild_id=channel.guild_id,
            channel_id=channel.id,
            payload=payload,
            custom_id=data["custom_id"],
            component_message=message,
        )
        return await self._dispatch_interaction(rec, timeout)

    def interaction(self, interaction_id: int) -> InteractionRecord:
        return self._interactions[interaction_id]


def _perm(value: int | discord.Permissions) -> int:
    return value.value if isinstance(value, discord.Permissions) else int(value)
