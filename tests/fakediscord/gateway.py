"""The fake gateway: one :class:`GatewayConnection` per websocket, sessions that survive for RESUME.

Protocol as discord.py 2.7 drives it: HELLO → (HEARTBEAT ↔ ACK) → IDENTIFY → READY (s=1) → GUILD_CREATE per
guild; RESUME of a known session → RESUMED; REQUEST_GUILD_MEMBERS (op 8) → one GUILD_MEMBERS_CHUNK.
Frames are JSON text (discord.py only decompresses binary frames, so the ``compress`` query is ignored).
"""

from __future__ import annotations

import asyncio
import json
import time
import uuid
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

if TYPE_CHECKING:
    from .server import FakeDiscord

__all__ = [
    "GatewaySession",
    "GatewayConnection",
    "PRIVILEGED_INTENTS",
    "GUILD_MEMBERS_INTENT",
    "GUILD_MESSAGES_INTENT",
    "MESSAGE_CONTENT_INTENT",
    "CLOSE_INVALID_SHARD",
    "CLOSE_SHARDING_REQUIRED",
]

# GUILD_MEMBERS | GUILD_PRESENCES | MESSAGE_CONTENT
PRIVILEGED_INTENTS = (1 << 1) | (1 << 8) | (1 << 15)
GUILD_MEMBERS_INTENT = 1 << 1
GUILD_MESSAGES_INTENT = 1 << 9  # MESSAGE_CREATE / UPDATE / DELETE in guild channels (not privileged)
MESSAGE_CONTENT_INTENT = 1 << 15  # privileged: without it, others' messages arrive without content

OP_DISPATCH, OP_HEARTBEAT, OP_IDENTIFY, OP_PRESENCE, OP_VOICE = 0, 1, 2, 3, 4
# Discord's close codes for a bad ``shard`` in IDENTIFY (discord.py does not reconnect after either)
CLOSE_INVALID_SHARD, CLOSE_SHARDING_REQUIRED = 4010, 4011

OP_RESUME, OP_RECONNECT, OP_REQUEST_MEMBERS, OP_INVALID_SESSION, OP_HELLO, OP_ACK = 6, 7, 8, 9, 10, 11


@dataclass(eq=False)
class GatewaySession:
    """A gateway session (IDENTIFY creates one; RESUME re-attaches it to a new connection)."""

    session_id: str
    shard_id: int
    shard_count: int
    intents: int
    seq: int = 0
    started_at: float = field(default_factory=time.monotonic)
    events: list[tuple[int, str]] = field(default_factory=list)  # (seq, event name) sent in this session

    def covers(self, guild_id: int | None) -> bool:
        if guild_id is None:
            return self.shard_id == 0
        return (guild_id >> 22) % self.shard_count == self.shard_id


class GatewayConnection:
    """One websocket connection from a client."""

    def __init__(self, fake: FakeDiscord, ws: web.WebSocketResponse, query: dict[str, str]) -> None:
        self.fake = fake
        self.ws = ws
        self.query = query
        self.session: GatewaySession | None = None
        self.heartbeats = 0
        self.ready = False  # READY and all GUILD_CREATEs sent (or RESUMED)
        self.closed = False
        self._send_lock = asyncio.Lock()
        self.connected_at = time.monotonic()

    # -- sending ---------------------------------------------------------------------------------------------------
    async def send_op(self, op: int, d: Any) -> None:
        async with self._send_lock:
            await self._send({"op": op, "d": d, "s": None, "t": None})

    async def dispatch(self, event: str, data: dict[str, Any]) -> float:
        """Send an op-0 DISPATCH with the next sequence number; returns the monotonic send time."""
        assert self.session is not None, "dispatch before IDENTIFY"
        async with self._send_lock:
            self.session.seq += 1
            self.session.events.append((self.session.seq, event))
            await self._send({"op": OP_DISPATCH, "t": event, "s": self.session.seq, "d": data})
            return time.monotonic()

    async def _send(self, frame: dict[str, Any]) -> None:
        if self.ws.closed:
            raise ConnectionResetError("gateway websocket is closed")
        await self.ws.send_str(json.dumps(frame))

    async def close(self, code: int = 1000, message: str = "") -> None:
        self.closed = True
        if not self.ws.closed:
            await self.ws.close(code=code, message=message.encode())

    # -- receiving -------------------------------------------------------------------------------------------------
    async def run(self) -> None:
        await self.send_op(OP_HELLO, {"heartbeat_interval": self.fake.heartbeat_interval_ms, "_trace": ["fake"]})
        try:
            async for msg in self.ws:
                if msg.type == WSMsgType.TEXT:
                    await self._handle(json.loads(msg.data))
                elif msg.type in (WSMsgType.ERROR, WSMsgType.CLOSE, WSMsgType.CLOSING):
                    break
        finally:
            self.closed = True
            self.ready = False
            self.fake._connection_closed(self)

    async def _handle(self, frame: dict[str, Any]) -> None:
        op = frame.get("op")
        d = frame.get("d")
        if op == OP_HEARTBEAT:
            self.heartbeats += 1
            await self.send_op(OP_ACK, None)
        elif op == OP_IDENTIFY:
            await self._identify(d or {})
        elif op == OP_RESUME:
            await self._resume(d or {})
        elif op == OP_REQUEST_MEMBERS:
            await self._request_members(d or {})
        elif op == OP_PRESENCE:
            self.fake.presence = d
        # op 4 (voice state) and anything else: ignored

    async def _identify(self, d: dict[str, Any]) -> None:
        fake = self.fake
        if fake.token is not None and d.get("token") != fake.token:
            await self.close(4004, "Authentication failed.")
            return
        intents = int(d.get("intents", 0))
        if intents & PRIVILEGED_INTENTS and not fake.privileged_intents_allowed:
            await self.close(4014, "Disallowed intent(s).")
            return
        refusal = _shard_refusal(d.get("shard"), fake.recommended_shards)
        if refusal is not None:
            await self.close(*refusal)
            return
        if fake.identifies_left <= 0:  # past the day's session starts Discord resets the token
            await self.close(4004, "Authentication failed.")
            return
        fake.identifies_left -= 1
        shard_id, shard_count = d.get("shard") or [0, 1]
        self.session = GatewaySession(
            session_id=uuid.uuid4().hex, shard_id=int(shard_id), shard_count=int(shard_count), intents=intents
        )
        fake._sessions[self.session.session_id] = self.session
        guilds = [g for g in fake.guilds.values() if g.bot_member and self.session.covers(g.id)]
        ready: dict[str, Any] = {
            "v": 10,
            "user": fake.bot_user.payload(),
            "user_settings": {},
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": self.session.session_id,
            "session_type": "normal",
            "resume_gateway_url": fake.gateway_url,
            "application": {"id": str(fake.application_id), "flags": fake.application_flags},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": [],
            "auth": {},
            "_trace": ["fake-gateway"],
        }
        if d.get("shard") is not None:
            ready["shard"] = [self.session.shard_id, self.session.shard_count]
        await self.dispatch("READY", ready)
        for guild in guilds:
            await self.dispatch("GUILD_CREATE", fake._guild_create_payload(guild, intents))
        self.ready = True
        fake._connection_ready(self)

    async def _resume(self, d: dict[str, Any]) -> None:
        session = self.fake._sessions.get(str(d.get("session_id")))
        if session is None or (self.fake.token is not None and d.get("token") != self.fake.token):
            await self.send_op(OP_INVALID_SESSION, False)
            return
        self.session = session
        await self.dispatch("RESUMED", {"_trace": ["fake-gateway"]})
        self.ready = True
        self.fake._connection_ready(self)

    async def _request_members(self, d: dict[str, Any]) -> None:
        guild = self.fake.guilds.get(int(d.get("guild_id", 0)))
        if guild is None:
            return
        members = list(guild.members.values())
        if d.get("user_ids"):
            wanted = {int(u) for u in d["user_ids"]}
            members = [m for m in members if m.user.id in wanted]
        elif d.get("query"):
            members = [m for m in members if m.user.name.lower().startswith(str(d["query"]).lower())]
        if d.get("limit"):
            members = members[: int(d["limit"])]
        bot_member = self.fake._bot_member_payload(guild)
        payload_members = [bot_member] if not d.get("user_ids") and not d.get("query") else []
        payload_members += [m.payload() for m in members]
        chunk: dict[str, Any] = {
            "guild_id": str(guild.id),
            "members": payload_members,
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": [],
        }
        if d.get("nonce") is not None:
            chunk["nonce"] = d["nonce"]
        await self.dispatch("GUILD_MEMBERS_CHUNK", chunk)


def _shard_refusal(shard: Any, configured: int) -> tuple[int, str] | None:
    """The close (code, reason) for IDENTIFY's ``shard`` field, or None when the fake accepts it.

    No ``shard`` (an unsharded client) is always accepted and gets every guild. ``[id, count]`` must have
    ``0 <= id < count`` (else 4010, as Discord); a count below the fake's configured shard count would leave a
    shard with too many guilds (4011, "sharding required"); a larger count is refused with 4010 too, because
    the fake routes guilds by its configured count only.
    """
    if shard is None:
        return None
    try:
        shard_id, shard_count = (int(v) for v in shard)
    except (TypeError, ValueError):
        return CLOSE_INVALID_SHARD, "Invalid shard."
    if not 0 <= shard_id < shard_count:
        return CLOSE_INVALID_SHARD, "Invalid shard."
    if shard_count < configured:
        return CLOSE_SHARDING_REQUIRED, "Sharding required."
    if shard_count > configured:
        return CLOSE_INVALID_SHARD, "Invalid shard."
    return None
