"""REST half of the fake Discord: aiohttp routes under ``/api/v10``, request log, Discord-style errors.

Every response body is JSON with ``Content-Type: application/json`` exactly (discord.py only parses JSON on an
exact match); 204 responses have no body. Requests to routes that do not exist are answered 404 and recorded
as ``kind="unknown"``.
"""

from __future__ import annotations

import json
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from aiohttp import web

from .models import (
    EPHEMERAL,
    IS_COMPONENTS_V2,
    CallbackRecord,
    FakeMessage,
    InteractionRecord,
    RestCall,
    iter_components,
)

if TYPE_CHECKING:
    from .server import FakeDiscord

__all__ = ["API_PREFIX", "ALLOWED_CALLBACKS", "build_app", "json_response", "discord_error", "validate_message_body"]

API_PREFIX = "/api/v10"
BODY: web.RequestKey[Any] = web.RequestKey("fakediscord_body")
DISCORD_CODE: web.ResponseKey[int] = web.ResponseKey("fakediscord_code")
FILES: web.RequestKey[list[dict[str, Any]]] = web.RequestKey("fakediscord_files")
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]

# Callback types Discord accepts per interaction type (2 command, 3 component, 4 autocomplete, 5 modal submit).
ALLOWED_CALLBACKS: dict[int, set[int]] = {2: {4, 5, 9}, 3: {4, 5, 6, 7, 9}, 4: {8}, 5: {4, 5, 6, 7}}
# Flags a bot may set when creating a message / response.
CREATE_FLAGS = EPHEMERAL | (1 << 2) | (1 << 12) | IS_COMPONENTS_V2  # ephemeral, suppress embeds/notifications, v2


# --------------------------------------------------------------------------------------------------------------------
# Responses
# --------------------------------------------------------------------------------------------------------------------


def json_response(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    """A JSON response whose Content-Type is exactly ``application/json`` (no charset)."""
    all_headers = {"Content-Type": "application/json"}
    if headers:
        all_headers.update(headers)
    return web.Response(body=json.dumps(data).encode(), status=status, headers=all_headers)


def no_content() -> web.Response:
    return web.Response(status=204)


def discord_error(status: int, code: int, message: str, errors: dict[str, Any] | None = None) -> web.Response:
    body: dict[str, Any] = {"code": code, "message": message}
    if errors:
        body["errors"] = errors
    resp = json_response(body, status)
    resp[DISCORD_CODE] = code  # read by the logging middleware
    return resp


def _field_error(path: str, code: str, message: str) -> dict[str, Any]:
    """Discord's nested ``errors`` shape: {"a": {"0": {"b": {"_errors": [...]}}}} for path ``a.0.b``."""
    node: dict[str, Any] = {"_errors": [{"code": code, "message": message}]}
    for part in reversed(path.split(".")):
        node = {part: node}
    return node


def _merge(into: dict[str, Any], other: dict[str, Any]) -> None:
    for key, value in other.items():
        if key in into and isinstance(into[key], dict) and isinstance(value, dict):
            _merge(into[key], value)
        else:
            into[key] = value


def validate_message_body(body: dict[str, Any], *, creating: bool, has_files: bool = False) -> dict[str, Any]:
    """Discord's message limits; returns a (possibly empty) ``errors`` dict in Discord's format."""
    errors: dict[str, Any] = {}

    def err(path: str, code: str, message: str) -> None:
        _merge(errors, _field_error(path, code, message))

    flags = int(body.get("flags") or 0)
    v2 = bool(flags & IS_COMPONENTS_V2)
    content = body.get("content") or ""
    embeds = body.get("embeds") or ([body["embed"]] if body.get("embed") else [])
    components = body.get("components") or []
    if len(content) > 2000:
        err("content", "BASE_TYPE_MAX_LENGTH", "Must be 2000 or fewer in length.")
    if len(embeds) > 10:
        err("embeds", "BASE_TYPE_MAX_LENGTH", "Must be 10 or fewer in length.")
    total = 0
    for emb in embeds:
        total += len(str(emb.get("title") or "")) + len(str(emb.get("description") or ""))
        total += sum(len(str(f.get("name", ""))) + len(str(f.get("value", ""))) for f in emb.get("fields", []))
        total += len(str((emb.get("footer") or {}).get("text") or ""))
        total += len(str((emb.get("author") or {}).get("name") or ""))
    if total > 6000:
        err("embeds", "MAX_EMBED_SIZE_EXCEEDED", "Embed size exceeds maximum size of 6000")
    if v2:
        if content or embeds:
            err("content", "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2", "content/embeds not allowed with v2")
        if len(list(iter_components(components))) > 40:
            err("components", "BASE_TYPE_MAX_LENGTH", "Must be 40 or fewer in length.")
    else:
        if len(components) > 5:
            err("components", "BASE_TYPE_MAX_LENGTH", "Must be 5 or fewer in length.")
        for i, row in enumerate(components):
            if row.get("type") != 1:
                err(f"components.{i}.type", "COMPONENT_LAYOUT_INVALID", "Top-level components must be action rows")
                continue
            children = row.get("components") or []
            if not children:
                err(f"components.{i}.components", "BASE_TYPE_MIN_LENGTH", "Must be 1 or more in length.")
            selects = [c for c in children if c.get("type") in (3, 5, 6, 7, 8)]
            if len(children) > 5 or (selects and len(children) > 1):
                err(
                    f"components.{i}.components",
                    "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                    "The specified component exceeds the maximum width",
                )
    seen: set[str] = set()
    for comp in iter_components(components):
        cid = comp.get("custom_id")
        if cid is not None:
            if not 1 <= len(cid) <= 100:
                err("components", "BASE_TYPE_BAD_LENGTH", f"custom_id {cid!r} must be between 1 and 100 in length.")
            if cid in seen:
                err("components", "COMPONENT_CUSTOM_ID_DUPLICATED", f"Component custom id {cid!r} cannot be duplicated")
            seen.add(cid)
        if comp.get("type") == 2 and len(str(comp.get("label") or "")) > 80:
            err("components", "BASE_TYPE_MAX_LENGTH", "Button label must be 80 or fewer in length.")
        if comp.get("type") == 3 and len(comp.get("options") or []) > 25:
            err("components", "BASE_TYPE_MAX_LENGTH", "Select options must be 25 or fewer in length.")
    if (
        creating
        and not errors
        and not (content or embeds or components or has_files or body.get("sticker_ids") or body.get("poll"))
    ):
        err("content", "BASE_TYPE_REQUIRED", "Cannot send an empty message")
    return errors


# --------------------------------------------------------------------------------------------------------------------
# Request parsing and logging
# --------------------------------------------------------------------------------------------------------------------


async def _read_body(request: web.Request) -> tuple[Any, list[dict[str, Any]]]:
    """JSON body (or ``payload_json`` of a multipart upload) and the uploaded files' metadata."""
    files: list[dict[str, Any]] = []
    if request.content_type.startswith("multipart/"):
        payload: Any = None
        reader = await request.multipart()
        async for part in reader:
            name = getattr(part, "name", None)
            data = await part.read()  # type: ignore[union-attr]
            if name == "payload_json":
                payload = json.loads(data.decode())
            elif getattr(part, "filename", None):
                files.append({"filename": part.filename, "size": len(data), "data": data})  # type: ignore[union-attr]
        return payload, files
    if request.can_read_body:
        raw = await request.read()
        if raw:
            return json.loads(raw.decode()), files
    return None, files


def _classify(path: str) -> str:
    if path.startswith("/interactions/"):
        return "callback"
    if path.startswith("/webhooks/"):
        return "webhook"
    return "bot"


def _make_middleware(fake: FakeDiscord) -> Any:
    @web.middleware
    async def middleware(request: web.Request, handler: Handler) -> web.StreamResponse:
        if not request.path.startswith(API_PREFIX + "/"):
            return await handler(request)  # the gateway websocket
        path = request.path[len(API_PREFIX) :]
        route_info = request.match_info.route.resource
        matched = request.match_info.http_exception is None
        call = RestCall(
            seq=len(fake.rest_calls) + 1,
            method=request.method,
            path=path,
            route=(route_info.canonical[len(API_PREFIX) :] if route_info is not None and matched else None),
            query=dict(request.query),
            kind=_classify(path) if matched else "unknown",  # type: ignore[arg-type]
            at=time.monotonic(),
        )
        fake.rest_calls.append(call)
        fake._inflight += 1
        try:
            body, files = await _read_body(request)
            call.body = body
            request[BODY] = body if body is not None else {}
            request[FILES] = files
            if not matched:
                fake.unknown_routes.append(call)
                response: web.StreamResponse = discord_error(404, 0, f"404: Not Found ({request.method} {path})")
            elif call.kind == "bot" and not fake._authorized(request.headers.get("Authorization")):
                response = discord_error(401, 0, "401: Unauthorized")
            else:
                try:
                    response = await handler(request)
                except web.HTTPNotFound:  # a path parameter that is not a snowflake
                    response = discord_error(404, 0, f"404: Not Found ({request.method} {path})")
        finally:
            fake._inflight -= 1
        call.status = response.status
        code = response.get(DISCORD_CODE)
        call.error_code = int(code) if code is not None else None
        fake._notify()
        return response

    return middleware


# --------------------------------------------------------------------------------------------------------------------
# Handlers
# --------------------------------------------------------------------------------------------------------------------


def _int(request: web.Request, key: str) -> int:
    try:
        return int(request.match_info[key])
    except ValueError as exc:
        raise web.HTTPNotFound() from exc


class RestApi:
    """Route handlers. State lives on the :class:`FakeDiscord`; this class only translates HTTP."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake

    def routes(self) -> list[tuple[str, str, Handler]]:
        app = "/applications/{app_id}"
        chan = "/channels/{channel_id}"
        msg = chan + "/messages/{message_id}"
        hook = "/webhooks/{app_id}/{token}"
        return [
            ("GET", "/users/@me", self.get_me),
            ("GET", "/users/{user_id}", self.get_user),
            ("POST", "/users/@me/channels", self.create_dm),
            ("GET", "/oauth2/applications/@me", self.get_application),
            ("GET", "/applications/@me", self.get_application),
            ("GET", "/gateway", self.get_gateway),
            ("GET", "/gateway/bot", self.get_gateway_bot),
            # application commands (global and guild)
            ("GET", app + "/commands", self.list_commands),
            ("PUT", app + "/commands", self.overwrite_commands),
            ("POST", app + "/commands", self.upsert_command),
            ("GET", app + "/commands/{command_id}", self.get_command),
            ("PATCH", app + "/commands/{command_id}", self.edit_command),
            ("DELETE", app + "/commands/{command_id}", self.delete_command),
            ("GET", app + "/guilds/{guild_id}/commands", self.list_commands),
            ("PUT", app + "/guilds/{guild_id}/commands", self.overwrite_commands),
            ("POST", app + "/guilds/{guild_id}/commands", self.upsert_command),
            ("GET", app + "/guilds/{guild_id}/commands/permissions", self.command_permissions),
            ("GET", app + "/guilds/{guild_id}/commands/{command_id}", self.get_command),
            ("PATCH", app + "/guilds/{guild_id}/commands/{command_id}", self.edit_command),
            ("DELETE", app + "/guilds/{guild_id}/commands/{command_id}", self.delete_command),
            # channels and messages
            ("GET", chan, self.get_channel),
            ("GET", chan + "/messages", self.list_messages),
            ("POST", chan + "/messages", self.create_message),
            ("GET", msg, self.get_message),
            ("PATCH", msg, self.edit_message),
            ("DELETE", msg, self.delete_message),
            ("POST", chan + "/typing", self.typing),
            ("PUT", msg + "/reactions/{emoji}/@me", self.add_reaction),
            ("DELETE", msg + "/reactions/{emoji}/@me", self.remove_reaction),
            # guilds
            ("GET", "/guilds/{guild_id}", self.get_guild),
            ("GET", "/guilds/{guild_id}/channels", self.get_guild_channels),
            ("GET", "/guilds/{guild_id}/members", self.list_members),
            ("GET", "/guilds/{guild_id}/members/{user_id}", self.get_member),
            # interactions
            ("POST", "/interactions/{interaction_id}/{token}/callback", self.interaction_callback),
            ("POST", hook, self.execute_webhook),
            ("GET", hook + "/messages/{message_id}", self.get_webhook_message),
            ("PATCH", hook + "/messages/{message_id}", self.edit_webhook_message),
            ("DELETE", hook + "/messages/{message_id}", self.delete_webhook_message),
        ]

    # -- users / login ---------------------------------------------------------------------------------------------
    async def get_me(self, request: web.Request) -> web.Response:
        data = self.fake.bot_user.payload()
        data.update({"verified": True, "mfa_enabled": False, "email": None, "locale": "en-US"})
        return json_response(data)

    async def get_user(self, request: web.Request) -> web.Response:
        user = self.fake.users.get(_int(request, "user_id"))
        if user is None:
            return discord_error(404, 10013, "Unknown User")
        return json_response(user.payload())

    async def create_dm(self, request: web.Request) -> web.Response:
        user = self.fake.users.get(int(request[BODY].get("recipient_id", 0)))
        if user is None:
            return discord_error(400, 50033, "Invalid Recipient(s)")
        return json_response(self.fake._dm_channel(user).payload())

    async def get_application(self, request: web.Request) -> web.Response:
        return json_response(self.fake._application_payload())

    async def get_gateway(self, request: web.Request) -> web.Response:
        return json_response({"url": self.fake.gateway_url})

    async def get_gateway_bot(self, request: web.Request) -> web.Response:
        return json_response(
            {
                "url": self.fake.gateway_url,
                "shards": self.fake.recommended_shards,
                "session_start_limit": {
                    "total": 1000,
                    "remaining": 999,
                    "reset_after": 86_400_000,
                    # discord.py 2.7 ignores it (it sleeps 5 s before each non-initial IDENTIFY; tests replace
                    # before_identify_hook), but a real client may IDENTIFY this many shards at once
                    "max_concurrency": self.fake.max_concurrency,
                },
            }
        )

    # -- application commands --------------------------------------------------------------------------------------
    def _command_scope(self, request: web.Request) -> int | None | web.Response:
        if _int(request, "app_id") != self.fake.application_id:
            return discord_error(403, 50001, "Missing Access")
        if "guild_id" in request.match_info:
            gid = _int(request, "guild_id")
            if gid not in self.fake.guilds:
                return discord_error(403, 50001, "Missing Access")
            return gid
        return None

    async def list_commands(self, request: web.Request) -> web.Response:
        scope = self._command_scope(request)
        if isinstance(scope, web.Response):
            return scope
        return json_response(self.fake.registered_commands(scope))

    async def overwrite_commands(self, request: web.Request) -> web.Response:
        scope = self._command_scope(request)
        if isinstance(scope, web.Response):
            return scope
        body = request[BODY]
        if not isinstance(body, list):
            return discord_error(400, 50035, "Invalid Form Body")
        return json_response(self.fake._store_commands(scope, body, overwrite=True))

    async def upsert_command(self, request: web.Request) -> web.Response:
        scope = self._command_scope(request)
        if isinstance(scope, web.Response):
            return scope
        return json_response(self.fake._store_commands(scope, [request[BODY]], overwrite=False)[0])

    def _find_command(self, request: web.Request) -> tuple[int | None, dict[str, Any]] | web.Response:
        scope = self._command_scope(request)
        if isinstance(scope, web.Response):
            return scope
        cid = _int(request, "command_id")
        for cmd in self.fake._commands.get(scope, []):
            if int(cmd["id"]) == cid:
                return scope, cmd
        return discord_error(404, 10063, "Unknown application command")

    async def get_command(self, request: web.Request) -> web.Response:
        found = self._find_command(request)
        return found if isinstance(found, web.Response) else json_response(found[1])

    async def edit_command(self, request: web.Request) -> web.Response:
        found = self._find_command(request)
        if isinstance(found, web.Response):
            return found
        scope, cmd = found
        merged = {**cmd, **request[BODY]}
        return json_response(self.fake._store_commands(scope, [merged], overwrite=False)[0])

    async def delete_command(self, request: web.Request) -> web.Response:
        found = self._find_command(request)
        if isinstance(found, web.Response):
            return found
        scope, cmd = found
        self.fake._commands[scope] = [c for c in self.fake._commands.get(scope, []) if c is not cmd]
        return no_content()

    async def command_permissions(self, request: web.Request) -> web.Response:
        return json_response([])

    # -- channels / messages ---------------------------------------------------------------------------------------
    async def get_channel(self, request: web.Request) -> web.Response:
        channel = self.fake.channels.get(_int(request, "channel_id"))
        if channel is None:
            return discord_error(404, 10003, "Unknown Channel")
        return json_response(channel.payload())

    async def list_messages(self, request: web.Request) -> web.Response:
        cid = _int(request, "channel_id")
        if cid not in self.fake.channels:
            return discord_error(404, 10003, "Unknown Channel")
        msgs = [m for m in self.fake.channel_messages(cid, include_ephemeral=False)]
        q = request.query
        if "before" in q:
            msgs = [m for m in msgs if m.id < int(q["before"])]
        if "after" in q:
            msgs = [m for m in msgs if m.id > int(q["after"])]
        limit = int(q.get("limit", 50))
        newest_first = sorted(msgs, key=lambda m: m.id, reverse=True)[:limit]
        if "after" in q:
            newest_first = sorted(msgs, key=lambda m: m.id)[:limit][::-1]
        return json_response([m.payload(self.fake.application_id) for m in newest_first])

    async def create_message(self, request: web.Request) -> web.Response:
        fake = self.fake
        channel = fake.channels.get(_int(request, "channel_id"))
        if channel is None:
            return discord_error(404, 10003, "Unknown Channel")
        body: dict[str, Any] = request[BODY]
        if channel.is_dm and channel.recipient is not None and not channel.recipient.dms_open:
            fake.blocked_dms.append((channel.recipient.id, body))
            return discord_error(403, 50007, "Cannot send messages to this user")
        errors = validate_message_body(body, creating=True, has_files=bool(request[FILES]))
        if errors:
            return discord_error(400, 50035, "Invalid Form Body", errors)
        limited = fake._rate_limit_check(channel.id)
        if limited is not None:
            return json_response(
                {"message": "You are being rate limited.", "retry_after": limited, "global": False},
                429,
                headers={
                    "Via": "1.1 google",
                    "Retry-After": str(max(1, round(limited))),
                    "X-RateLimit-Limit": str(fake.channel_rate_limit[0]),
                    "X-RateLimit-Remaining": "0",
                    "X-RateLimit-Reset-After": f"{limited:.3f}",
                    "X-RateLimit-Bucket": f"channel-{channel.id}",
                    "X-RateLimit-Scope": "user",
                },
            )
        message = fake._create_message(channel, body, request[FILES])
        return json_response(message.payload(fake.application_id))

    def _channel_message(self, request: web.Request) -> FakeMessage | web.Response:
        cid = _int(request, "channel_id")
        if cid not in self.fake.channels:
            return discord_error(404, 10003, "Unknown Channel")
        message = self.fake.messages.get(_int(request, "message_id"))
        if message is None or message.channel_id != cid or message.deleted or message.ephemeral:
            return discord_error(404, 10008, "Unknown Message")
        return message

    async def get_message(self, request: web.Request) -> web.Response:
        message = self._channel_message(request)
        if isinstance(message, web.Response):
            return message
        return json_response(message.payload(self.fake.application_id))

    async def edit_message(self, request: web.Request) -> web.Response:
        message = self._channel_message(request)
        if isinstance(message, web.Response):
            return message
        if message.author.id != self.fake.bot_user.id:
            return discord_error(403, 50005, "Cannot edit a message authored by another user")
        errors = validate_message_body({**request[BODY], "flags": message.flags}, creating=False)
        if errors:
            return discord_error(400, 50035, "Invalid Form Body", errors)
        self.fake._apply_edit(message, request[BODY], request[FILES], via="PATCH channel")
        return json_response(message.payload(self.fake.application_id))

    async def delete_message(self, request: web.Request) -> web.Response:
        message = self._channel_message(request)
        if isinstance(message, web.Response):
            return message
        self.fake._delete_message(message)
        return no_content()

    async def typing(self, request: web.Request) -> web.Response:
        return no_content()

    async def add_reaction(self, request: web.Request) -> web.Response:
        message = self._channel_message(request)
        if isinstance(message, web.Response):
            return message
        message.reactions.append(request.match_info["emoji"])
        return no_content()

    async def remove_reaction(self, request: web.Request) -> web.Response:
        message = self._channel_message(request)
        if isinstance(message, web.Response):
            return message
        emoji = request.match_info["emoji"]
        if emoji in message.reactions:
            message.reactions.remove(emoji)
        return no_content()

    # -- guilds ----------------------------------------------------------------------------------------------------
    async def get_guild(self, request: web.Request) -> web.Response:
        guild = self.fake.guilds.get(_int(request, "guild_id"))
        if guild is None:
            return discord_error(404, 10004, "Unknown Guild")
        data = self.fake._guild_create_payload(guild, 0)
        for key in ("members", "channels", "threads", "presences", "voice_states", "stage_instances"):
            data.pop(key, None)
        return json_response(data)

    async def get_guild_channels(self, request: web.Request) -> web.Response:
        guild = self.fake.guilds.get(_int(request, "guild_id"))
        if guild is None:
            return discord_error(404, 10004, "Unknown Guild")
        return json_response([c.payload() for c in guild.channels.values()])

    async def list_members(self, request: web.Request) -> web.Response:
        guild = self.fake.guilds.get(_int(request, "guild_id"))
        if guild is None:
            return discord_error(404, 10004, "Unknown Guild")
        members = [self.fake._bot_member_payload(guild)] + [m.payload() for m in guild.members.values()]
        return json_response(members[: int(request.query.get("limit", 1000))])

    async def get_member(self, request: web.Request) -> web.Response:
        guild = self.fake.guilds.get(_int(request, "guild_id"))
        if guild is None:
            return discord_error(404, 10004, "Unknown Guild")
        uid = _int(request, "user_id")
        if uid == self.fake.bot_user.id:
            return json_response(self.fake._bot_member_payload(guild))
        member = guild.members.get(uid)
        if member is None:
            return discord_error(404, 10007, "Unknown Member")
        return json_response(member.payload())

    # -- interaction callback --------------------------------------------------------------------------------------
    async def interaction_callback(self, request: web.Request) -> web.Response:
        fake = self.fake
        now = time.monotonic()
        rec = fake._interactions.get(_int(request, "interaction_id"))
        if rec is None:
            return discord_error(404, 10062, "Unknown interaction")
        if rec.token != request.match_info["token"]:
            return discord_error(401, 50027, "Invalid Webhook Token")
        body: dict[str, Any] = request[BODY]
        ctype = int(body.get("type", 0))
        data: dict[str, Any] = body.get("data") or {}

        def reject(status: int, code: int, message: str, errors: dict[str, Any] | None = None) -> web.Response:
            rec.callbacks.append(CallbackRecord(ctype, data, now, status, code))
            return discord_error(status, code, message, errors)

        if rec.acknowledged:
            return reject(400, 40060, "Interaction has already been acknowledged.")
        dispatched = rec.dispatched_at if rec.dispatched_at is not None else now
        if rec.expired or now - dispatched > fake.interaction_deadline:
            return reject(404, 10062, "Unknown interaction")
        allowed = ALLOWED_CALLBACKS.get(rec.type, set())
        if ctype in (6, 7) and rec.type == 5 and rec.component_message is None:
            allowed = {4, 5}
        if ctype not in allowed:
            return reject(
                400,
                50035,
                "Invalid Form Body",
                _field_error("type", "INTERACTION_RESPONSE_TYPE_INVALID", f"type {ctype} not allowed"),
            )
        if ctype in (4, 7):
            body_for_check = dict(data)
            if ctype == 7 and rec.component_message is not None:
                body_for_check["flags"] = rec.component_message.flags | int(data.get("flags") or 0)
            errors = validate_message_body(body_for_check, creating=ctype == 4, has_files=bool(request[FILES]))
            if errors:
                return reject(400, 50035, "Invalid Form Body", {"data": errors})

        message: FakeMessage | None = None
        if ctype == 4:
            message = fake._create_interaction_message(rec, data, request[FILES], loading=False)
            rec.original = message
        elif ctype == 5:
            message = fake._create_interaction_message(rec, data, [], loading=True)
            rec.original = message
        elif ctype in (6, 7):
            message = rec.component_message
            rec.original = message
            if ctype == 7 and message is not None:
                fake._apply_edit(message, data, request[FILES], via="callback 7")
        elif ctype == 8:
            rec.choices = list(data.get("choices") or [])
        elif ctype == 9:
            rec.modal = data
        rec.callbacks.append(CallbackRecord(ctype, data, now, 200))
        fake._notify()

        if request.query.get("with_response") not in ("1", "true", "True"):
            return no_content()
        interaction: dict[str, Any] = {"id": str(rec.id), "type": rec.type}
        result: dict[str, Any] = {"interaction": interaction}
        if message is not None:
            interaction["response_message_id"] = str(message.id)
            interaction["response_message_loading"] = ctype == 5
            interaction["response_message_ephemeral"] = message.ephemeral
            if ctype in (4, 5, 7):
                result["resource"] = {"type": ctype, "message": message.payload(fake.application_id)}
        return json_response(result)

    # -- webhooks (follow-ups, @original) --------------------------------------------------------------------------
    def _webhook_interaction(self, request: web.Request) -> InteractionRecord | web.Response:
        if _int(request, "app_id") != self.fake.application_id:
            return discord_error(404, 10015, "Unknown Webhook")
        rec = self.fake._interactions_by_token.get(request.match_info["token"])
        if rec is None:
            return discord_error(404, 10015, "Unknown Webhook")
        if rec.expired:
            return discord_error(401, 50027, "Invalid Webhook Token")
        return rec

    def _webhook_target(self, rec: InteractionRecord, raw_id: str) -> FakeMessage | web.Response:
        if raw_id == "@original":
            target = rec.original
        else:
            try:
                mid = int(raw_id)
            except ValueError:
                return discord_error(404, 10008, "Unknown Message")
            candidates = [rec.original, rec.component_message, *rec.followups]
            target = next((m for m in candidates if m is not None and m.id == mid), None)
        if target is None or target.deleted:
            return discord_error(404, 10008, "Unknown Message")
        return target

    async def execute_webhook(self, request: web.Request) -> web.Response:
        fake = self.fake
        rec = self._webhook_interaction(request)
        if isinstance(rec, web.Response):
            return rec
        if not rec.acknowledged:
            return discord_error(404, 10015, "Unknown Webhook")  # follow-up before the initial response
        body: dict[str, Any] = request[BODY]
        errors = validate_message_body(body, creating=True, has_files=bool(request[FILES]))
        if errors:
            return discord_error(400, 50035, "Invalid Form Body", errors)
        original = rec.original
        if rec.ack_type == 5 and original is not None and original.loading and not original.deleted:
            # Discord: the first follow-up after a deferred message replaces the "thinking" message and keeps
            # the ephemerality chosen at defer time.
            fake._apply_edit(
                original, {k: v for k, v in body.items() if k != "flags"}, request[FILES], via="followup fills deferred"
            )
            message = original
        else:
            message = fake._create_followup(rec, body, request[FILES])
        if request.query.get("wait") in ("1", "true", "True"):
            return json_response(message.payload(fake.application_id))
        return no_content()

    async def get_webhook_message(self, request: web.Request) -> web.Response:
        rec = self._webhook_interaction(request)
        if isinstance(rec, web.Response):
            return rec
        target = self._webhook_target(rec, request.match_info["message_id"])
        if isinstance(target, web.Response):
            return target
        return json_response(target.payload(self.fake.application_id))

    async def edit_webhook_message(self, request: web.Request) -> web.Response:
        rec = self._webhook_interaction(request)
        if isinstance(rec, web.Response):
            return rec
        target = self._webhook_target(rec, request.match_info["message_id"])
        if isinstance(target, web.Response):
            return target
        errors = validate_message_body({**request[BODY], "flags": target.flags & IS_COMPONENTS_V2}, creating=False)
        if errors:
            return discord_error(400, 50035, "Invalid Form Body", errors)
        via = "PATCH @original" if request.match_info["message_id"] == "@original" else "PATCH followup"
        self.fake._apply_edit(target, request[BODY], request[FILES], via=via)
        return json_response(target.payload(self.fake.application_id))

    async def delete_webhook_message(self, request: web.Request) -> web.Response:
        rec = self._webhook_interaction(request)
        if isinstance(rec, web.Response):
            return rec
        target = self._webhook_target(rec, request.match_info["message_id"])
        if isinstance(target, web.Response):
            return target
        self.fake._delete_message(target)
        return no_content()


def build_app(fake: FakeDiscord, gateway_handler: Handler) -> web.Application:
    app = web.Application(middlewares=[_make_middleware(fake)], client_max_size=64 * 1024 * 1024)
    api = RestApi(fake)
    for method, path, handler in api.routes():
        app.router.add_route(method, API_PREFIX + path, handler)
    app.router.add_get("/gateway", gateway_handler)
    return app
