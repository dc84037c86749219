"""REST half of the fake Discord: aiohttp routes under ``/api/v10``, request log, Discord-style errors.

Every response body is JSON with ``Content-Type: application/json`` exactly (discord.py only parses JSON on an
exact match); 204 responses have no body. Requests to routes that do not exist are answered 404 and recorded
as ``kind="unknown"``.
"""

from __future__ import annotations

import json
import time
from collections.abc import Awaitable, Callable, Collection, Iterable, Mapping
from typing import TYPE_CHECKING, Any

from aiohttp import web

from .ids import IdChecks
from .installs import FOLLOWUP_LIMIT_CODE, MAX_USER_INSTALL_FOLLOWUPS, unsupported_installs
from .modals import modal_errors
from .models import (
    EPHEMERAL,
    IS_COMPONENTS_V2,
    CallbackRecord,
    FakeMessage,
    InteractionRecord,
    RestCall,
    display_length,
    iter_components,
)

if TYPE_CHECKING:
    from .server import FakeDiscord, Fault

__all__ = [
    "API_PREFIX",
    "ALLOWED_CALLBACKS",
    "MAX_V2_COMPONENTS",
    "MAX_V2_TEXT",
    "build_app",
    "json_response",
    "discord_error",
    "drops_components_v2",
    "known_emoji_ids",
    "validate_message_body",
]

API_PREFIX = "/api/v10"
BODY: web.RequestKey[Any] = web.RequestKey("fakediscord_body")
DISCORD_CODE: web.ResponseKey[int] = web.ResponseKey("fakediscord_code")
DISCORD_ERRORS: web.ResponseKey[dict[str, Any]] = web.ResponseKey("fakediscord_errors")
FILES: web.RequestKey[list[dict[str, Any]]] = web.RequestKey("fakediscord_files")
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]

# Callback types Discord accepts per interaction type (2 command, 3 component, 4 autocomplete, 5 modal submit).
ALLOWED_CALLBACKS: dict[int, set[int]] = {2: {4, 5, 9}, 3: {4, 5, 6, 7, 9}, 4: {8}, 5: {4, 5, 6, 7}}
# Flags a bot may set when creating a message / response.
CREATE_FLAGS = EPHEMERAL | (1 << 2) | (1 << 12) | IS_COMPONENTS_V2  # ephemeral, suppress embeds/notifications, v2
NONCE_WINDOW = 300.0  # seconds Discord keeps an enforced nonce ("the past few minutes")


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
    if errors:
        resp[DISCORD_ERRORS] = errors  # why: shown by problems()
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


# Limits checked in Discord's developer docs (components/reference.mdx, resources/message.mdx, resources/webhook.mdx).
MAX_V2_COMPONENTS = 40  # every component of an IS_COMPONENTS_V2 message, nested ones included
MAX_V2_TEXT = 4000  # characters across all TextDisplay contents (discord.py: LayoutView.content_length)
_SELECTS = frozenset({3, 5, 6, 7, 8})
_ROW_CHILDREN = frozenset({2}) | _SELECTS
_V2_TOP = frozenset({1, 9, 10, 12, 13, 14, 17})
_CONTAINER_CHILDREN = frozenset({1, 9, 10, 12, 13, 14})
_SECTION_ACCESSORIES = frozenset({2, 11})
_LEGACY_TOP = frozenset({1})


def _embeds_of(body: dict[str, Any]) -> list[dict[str, Any]]:
    return list(body.get("embeds") or ([body["embed"]] if body.get("embed") else []))


def drops_components_v2(body: dict[str, Any], current: FakeMessage | None) -> bool:
    """An edit of a V2 message that sends ``flags`` without IS_COMPONENTS_V2 (the flag cannot be removed)."""
    flags = body.get("flags")
    return current is not None and current.is_v2 and flags is not None and not int(flags) & IS_COMPONENTS_V2


class _TreeCheck(IdChecks):
    """Validates a component tree the way Discord does for the message's mode (V2 or legacy action rows)."""

    def __init__(
        self,
        err: Callable[[str, str, str], None],
        *,
        v2: bool,
        has_files: bool,
        emoji_ids: Collection[str] | None,
    ) -> None:
        super().__init__()
        self.err = err
        self.v2 = v2
        self.has_files = has_files
        self.emoji_ids = emoji_ids

    def tree(self, components: Any) -> None:
        if not isinstance(components, list):
            self.err("components", "BASE_TYPE_BAD_TYPE", "Must be an array.")
            return
        if self.v2:
            total = sum(1 for _ in iter_components(components))
            if total > MAX_V2_COMPONENTS:
                self.err(
                    "components",
                    "BASE_TYPE_MAX_LENGTH",
                    f"Must be {MAX_V2_COMPONENTS} or fewer in length (every nested component counts: {total}).",
                )
            chars = display_length(components)
            if chars > MAX_V2_TEXT:
                self.err(
                    "components",
                    "MAX_TEXT_DISPLAY_LENGTH_EXCEEDED",
                    f"The text displays hold {chars} characters; a message allows {MAX_V2_TEXT}.",
                )
        elif len(components) > 5:
            self.err("components", "BASE_TYPE_MAX_LENGTH", "Must be 5 or fewer in length.")
        allowed = _V2_TOP if self.v2 else _LEGACY_TOP
        for i, comp in enumerate(components):
            self.component(comp, f"components.{i}", allowed)

    # -- one component ---------------------------------------------------------------------------------------------
    def component(self, comp: Any, path: str, allowed: frozenset[int]) -> None:
        if not isinstance(comp, dict):
            self.err(path, "BASE_TYPE_BAD_TYPE", "Must be an object.")
            return
        ctype = comp.get("type")
        if ctype not in allowed:
            self.err(
                f"{path}.type", "UNION_TYPE_CHOICES", f'Value of field "type" must be one of {tuple(sorted(allowed))}.'
            )
            return
        self._id(comp, path)
        if ctype == 1:
            self._row(comp, path)
        elif ctype == 2:
            self._button(comp, path)
        elif ctype in _SELECTS:
            self._select(comp, path)
        elif ctype == 9:
            self._section(comp, path)
        elif ctype == 10:
            if not isinstance(comp.get("content"), str) or not comp["content"]:
                self.err(f"{path}.content", "BASE_TYPE_REQUIRED", "This field is required (a non-empty string).")
        elif ctype == 11:
            self._media(comp.get("media"), f"{path}.media")
            self._max_len(comp, "description", 1024, path)
        elif ctype == 12:
            items = comp.get("items")
            if not isinstance(items, list) or not 1 <= len(items) <= 10:
                self.err(f"{path}.items", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 10 in length.")
            for j, item in enumerate(items if isinstance(items, list) else []):
                self._media(item.get("media") if isinstance(item, dict) else None, f"{path}.items.{j}.media")
                if isinstance(item, dict):
                    self._max_len(item, "description", 1024, f"{path}.items.{j}")
        elif ctype == 13:
            url = str((comp.get("file") or {}).get("url") or "")
            if not (url.startswith("attachment://") and self.has_files):
                self.err(f"{path}.file", "COMPONENT_FILE_INVALID", "A file component shows a file uploaded with it.")
        elif ctype == 14:
            if comp.get("spacing") not in (None, 1, 2):
                self.err(f"{path}.spacing", "BASE_TYPE_CHOICES", "Value must be one of (1, 2).")
            if comp.get("divider") not in (None, True, False):
                self.err(f"{path}.divider", "BASE_TYPE_BAD_TYPE", "Must be a boolean.")
        elif ctype == 17:
            self._container(comp, path)

    def _max_len(self, obj: dict[str, Any], key: str, limit: int, path: str) -> None:
        value = obj.get(key)
        if value is not None and len(str(value)) > limit:
            self.err(f"{path}.{key}", "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")

    def _emoji(self, emoji: Any, path: str) -> None:
        if emoji is None:
            return
        if not isinstance(emoji, dict) or not (emoji.get("id") or emoji.get("name")):
            self.err(path, "COMPONENT_INVALID_EMOJI", "Invalid emoji (an object with an id or a name).")
            return
        eid = emoji.get("id")
        if eid is None:
            return
        if not str(eid).isdigit():
            self.err(f"{path}.id", "NUMBER_TYPE_COERCE", f"Value {eid!r} is not snowflake.")
        elif self.emoji_ids is not None and str(eid) not in self.emoji_ids:
            self.err(path, "COMPONENT_INVALID_EMOJI", f"Invalid emoji: {eid} is not an emoji this application can use.")

    def _row(self, comp: dict[str, Any], path: str) -> None:
        children = comp.get("components")
        if not isinstance(children, list) or not children:
            self.err(f"{path}.components", "BASE_TYPE_MIN_LENGTH", "Must be 1 or more in length.")
            return
        for j, child in enumerate(children):
            self.component(child, f"{path}.components.{j}", _ROW_CHILDREN)
        types = [c.get("type") for c in children if isinstance(c, dict)]
        selects = sum(1 for t in types if t in _SELECTS)
        if len(children) > 5 or (selects and len(children) > 1):
            # a select takes the row's whole width: a row holds 1-5 buttons or exactly one select
            self.err(
                f"{path}.components",
                "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                "The specified component exceeds the maximum width",
            )

    def _button(self, comp: dict[str, Any], path: str) -> None:
        style = comp.get("style")
        if style not in (1, 2, 3, 4, 5, 6):
            self.err(f"{path}.style", "BASE_TYPE_CHOICES", "Value must be one of (1, 2, 3, 4, 5, 6).")
            return
        self._max_len(comp, "label", 80, path)
        if style == 5:  # link
            url = comp.get("url")
            if not isinstance(url, str) or not url or len(url) > 512:
                self.err(f"{path}.url", "BASE_TYPE_REQUIRED", "A link button needs a url (at most 512 characters).")
            if "custom_id" in comp and comp["custom_id"] is not None:
                self.err(
                    f"{path}.custom_id", "BUTTON_COMPONENT_CUSTOM_ID_NOT_ALLOWED", "A link button has no custom_id."
                )
        elif style == 6:  # premium
            if not comp.get("sku_id"):
                self.err(f"{path}.sku_id", "BASE_TYPE_REQUIRED", "A premium button needs a sku_id.")
            for key in ("custom_id", "label", "url", "emoji"):
                if comp.get(key) is not None:
                    self.err(
                        f"{path}.{key}", "BUTTON_COMPONENT_PREMIUM_FIELD_NOT_ALLOWED", f"A premium button has no {key}."
                    )
            return
        else:
            self._custom_id(comp, path)
            if comp.get("url") is not None:
                self.err(f"{path}.url", "BUTTON_COMPONENT_URL_NOT_ALLOWED", "Only a link button has a url.")
        if not comp.get("label") and not comp.get("emoji"):
            self.err(path, "BUTTON_COMPONENT_LABEL_OR_EMOJI_REQUIRED", "A button needs a label or an emoji.")
        self._emoji(comp.get("emoji"), f"{path}.emoji")

    def _select(self, comp: dict[str, Any], path: str) -> None:
        self._custom_id(comp, path)
        self._max_len(comp, "placeholder", 150, path)
        lo, hi = comp.get("min_values", 1), comp.get("max_values", 1)
        lo = 1 if lo is None else lo
        hi = 1 if hi is None else hi
        if not isinstance(lo, int) or not 0 <= lo <= 25:
            self.err(f"{path}.min_values", "NUMBER_TYPE_MAX", "Must be between 0 and 25.")
        if not isinstance(hi, int) or not 1 <= hi <= 25:
            self.err(f"{path}.max_values", "NUMBER_TYPE_MAX", "Must be between 1 and 25.")
        if isinstance(lo, int) and isinstance(hi, int) and lo > hi:
            self.err(
                f"{path}.min_values",
                "SELECT_COMPONENT_MIN_VALUES_ABOVE_MAX",
                "Must be less than or equal to max_values.",
            )
        if comp.get("type") != 3:
            return
        options = comp.get("options")
        if not isinstance(options, list) or not 1 <= len(options) <= 25:
            self.err(f"{path}.options", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 25 in length.")
            return
        if isinstance(hi, int) and hi > len(options):
            self.err(f"{path}.max_values", "NUMBER_TYPE_MAX", f"Must be less than or equal to {len(options)}.")
        self._option_list(options, path, lambda option, opath: self._emoji(option.get("emoji"), f"{opath}.emoji"))

    def _section(self, comp: dict[str, Any], path: str) -> None:
        children = comp.get("components")
        if not isinstance(children, list) or not 1 <= len(children) <= 3:
            self.err(f"{path}.components", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 3 in length.")
        for j, child in enumerate(children if isinstance(children, list) else []):
            self.component(child, f"{path}.components.{j}", frozenset({10}))
        accessory = comp.get("accessory")
        if accessory is None:
            self.err(f"{path}.accessory", "BASE_TYPE_REQUIRED", "This field is required")
        else:
            self.component(accessory, f"{path}.accessory", _SECTION_ACCESSORIES)

    def _container(self, comp: dict[str, Any], path: str) -> None:
        children = comp.get("components")
        if not isinstance(children, list) or not children:
            self.err(f"{path}.components", "BASE_TYPE_MIN_LENGTH", "Must be 1 or more in length.")
        for j, child in enumerate(children if isinstance(children, list) else []):
            self.component(child, f"{path}.components.{j}", _CONTAINER_CHILDREN)
        colour = comp.get("accent_color")
        if colour is not None and (
            isinstance(colour, bool) or not isinstance(colour, int) or not 0 <= colour <= 0xFFFFFF
        ):
            self.err(f"{path}.accent_color", "NUMBER_TYPE_MAX", "Must be an RGB integer from 0x000000 to 0xFFFFFF.")
        if comp.get("spoiler") not in (None, True, False):
            self.err(f"{path}.spoiler", "BASE_TYPE_BAD_TYPE", "Must be a boolean.")

    def _media(self, media: Any, path: str) -> None:
        if not isinstance(media, dict) or not isinstance(media.get("url"), str) or not media["url"]:
            self.err(f"{path}.url", "BASE_TYPE_REQUIRED", "This field is required")


def known_emoji_ids(fake: object) -> set[str] | None:
    """The custom emoji ids the application may put on buttons and options: those in ``fake.app_emojis`` (the
    application's emojis, a mapping keyed by id or a collection of emoji objects/dicts with an ``id``);
    None while the fake keeps no application emojis (then any snowflake passes)."""
    emojis = getattr(fake, "app_emojis", None)
    if emojis is None:
        return None
    found: set[str] = set()
    entries: Iterable[Any] = emojis.values() if isinstance(emojis, Mapping) else emojis
    if isinstance(emojis, Mapping):
        found |= {str(key) for key in emojis if str(key).isdigit()}
    for entry in entries:
        eid = entry.get("id") if isinstance(entry, Mapping) else getattr(entry, "id", entry)
        if eid is not None and str(eid).isdigit():
            found.add(str(eid))
    return found


def validate_message_body(
    body: dict[str, Any],
    *,
    creating: bool,
    has_files: bool = False,
    current: FakeMessage | None = None,
    emoji_ids: Collection[str] | None = None,
) -> dict[str, Any]:
    """Discord's checks of a message create or edit; returns a (possibly empty) ``errors`` dict in Discord's format.

    What is validated is the message as it will be: for an edit (``current`` = the message edited) the fields
    the body leaves out keep their current values. It is a V2 message if the body sets IS_COMPONENTS_V2 or the
    message already had it (the flag cannot be removed): then content and embeds must be empty, so an edit that
    adds the flag must clear them in the same request, and no poll or stickers. Otherwise only action rows at
    the top level (at most 5). ``emoji_ids``: the custom emojis the application may use (None: any snowflake).
    """
    errors: dict[str, Any] = {}

    def err(path: str, code: str, message: str) -> None:
        _merge(errors, _field_error(path, code, message))

    sent_flags = int(body.get("flags") or 0)
    editing = not creating and current is not None
    keeps_v2 = editing and current is not None and current.is_v2
    v2 = bool(sent_flags & IS_COMPONENTS_V2) or keeps_v2
    content = str(body.get("content") or "")
    embeds = _embeds_of(body)
    components: Any = body.get("components") or []
    if editing and current is not None:  # what the body leaves out stays as it is
        content = content if "content" in body else current.content
        embeds = embeds if "embeds" in body or "embed" in body else current.embeds
        components = components if "components" in body else current.components
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
        kept = " (the edit keeps the message's current one: clear it in the edit that sets IS_COMPONENTS_V2)"
        if content:
            why = "" if "content" in body else kept
            err(
                "content",
                "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                f"content is not allowed with IS_COMPONENTS_V2{why}",
            )
        if embeds:
            why = "" if "embeds" in body or "embed" in body else kept
            err(
                "embeds",
                "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                f"embeds are not allowed with IS_COMPONENTS_V2{why}",
            )
        for key in ("sticker_ids", "poll"):
            if body.get(key):
                err(
                    key,
                    "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                    f"{key} is not allowed with IS_COMPONENTS_V2",
                )
    if drops_components_v2(body, current):
        # Discord then reads the components as legacy ones (a V2 type gets UNION_TYPE_CHOICES, as Discord.Net
        # users report); the flag itself stays (the docs: it can only be set; see drops_components_v2's callers)
        _TreeCheck(err, v2=False, has_files=has_files, emoji_ids=emoji_ids).tree(body.get("components") or [])
    with_files = has_files or bool(editing and current is not None and current.attachments)
    _TreeCheck(err, v2=v2, has_files=with_files, emoji_ids=emoji_ids).tree(components)
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


def _faulted(request: web.Request, fault: Fault) -> web.StreamResponse:
    """An injected fault's answer (``FakeDiscord.fail``): an error status, a 429, or the connection closed."""
    if fault.drop:
        if request.transport is not None:
            request.transport.abort()  # no response: the client's read fails (ServerDisconnectedError)
        return web.Response(status=503)  # never reaches the client
    if fault.status == 429:
        body = {"message": "You are being rate limited.", "retry_after": fault.retry_after, "global": fault.global_}
        headers = {"Retry-After": str(fault.retry_after)}
        if fault.global_:
            headers["X-RateLimit-Global"] = "true"
            headers["X-RateLimit-Scope"] = "global"
        else:
            headers["X-RateLimit-Scope"] = "user"
        return json_response(body, 429, headers)
    return discord_error(fault.status, 0, f"{fault.status}: injected fault")


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
            elif call.kind == "bot" and _out_of_reach(fake, request):
                response = discord_error(403, 50001, "Missing Access")
            elif (fault := fake._fault_for(call)) is not None:
                if fault.lost:  # carried out, then the connection closed before the answer
                    await handler(request)
                response = _faulted(request, fault)
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
        call.errors = response.get(DISCORD_ERRORS)
        fake._notify()
        return response

    return middleware


# --------------------------------------------------------------------------------------------------------------------
# Handlers
# --------------------------------------------------------------------------------------------------------------------


def _out_of_reach(fake: FakeDiscord, request: web.Request) -> bool:
    """A bot-token call about a group DM or a server without the bot (or one of its channels): Discord answers
    403/50001 Missing Access; the app reaches such places only through interactions."""
    info = request.match_info
    raw = info.get("channel_id")
    if raw is not None and raw.isdigit():
        channel = fake.channels.get(int(raw))
        if channel is not None and not fake.bot_can_access(channel):
            return True
    raw = info.get("guild_id")
    if raw is not None and raw.isdigit():
        guild = fake.guilds.get(int(raw))
        return guild is not None and not guild.bot_member
    return False


def _int(request: web.Request, key: str) -> int:
    try:
        return int(request.match_info[key])
    except ValueError as exc:
        raise web.HTTPNotFound() from exc


class RestApi:
    """Route handlers. State lives on the :class:`FakeDiscord`; this class only translates HTTP."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake

    def _validate(
        self, body: dict[str, Any], request: web.Request, *, creating: bool, current: FakeMessage | None = None
    ) -> dict[str, Any]:
        """``validate_message_body`` for this request; notes an ignored attempt to remove IS_COMPONENTS_V2."""
        errors = validate_message_body(
            body,
            creating=creating,
            has_files=bool(request[FILES]),
            current=current,
            emoji_ids=known_emoji_ids(self.fake),
        )
        if not errors and current is not None and drops_components_v2(body, current):
            # The docs say the flag "can only be set" and unsupported flag changes are ignored: the message stays
            # V2 (validated as V2 above), and problems() reports the attempt, which is a bug in the bot.
            self.fake.v2_flag_removals.append(
                f"{request.method} {request.path[len(API_PREFIX) :]}: flags {body.get('flags')} without "
                f"IS_COMPONENTS_V2 on V2 message {current.id} (ignored: the flag cannot be removed)"
            )
        return errors

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
            ("PATCH", chan, self.edit_channel),
            ("POST", chan + "/threads", self.start_thread),
            ("POST", msg + "/threads", self.start_thread_from_message),
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
                    "total": self.fake.identify_total,
                    "remaining": self.fake.identifies_left,
                    "reset_after": self.fake.identify_reset_after_ms,
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
            if gid not in self.fake.guilds or not self.fake.guilds[gid].bot_member:
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
        refused = self._install_refusal(body)
        if refused is not None:
            return refused
        return json_response(self.fake._store_commands(scope, body, overwrite=True))

    def _install_refusal(self, commands: list[Any]) -> web.Response | None:
        """A command declaring an installation type the app does not support (FakeDiscord(install_types=...)):
        400/50035 (the docs give no inner code: the fake names it)."""
        errors: dict[str, Any] = {}
        for i, cmd in enumerate(commands):
            bad = unsupported_installs(cmd, self.fake.app_install_types) if isinstance(cmd, dict) else []
            if bad:
                _merge(
                    errors,
                    _field_error(
                        f"{i}.integration_types",
                        "APPLICATION_COMMAND_INTEGRATION_TYPE_NOT_SUPPORTED",
                        f"The application does not support installation type(s) {bad} "
                        f"(supported: {sorted(self.fake.app_install_types)})",
                    ),
                )
        return discord_error(400, 50035, "Invalid Form Body", errors) if errors else None

    async def upsert_command(self, request: web.Request) -> web.Response:
        scope = self._command_scope(request)
        if isinstance(scope, web.Response):
            return scope
        refused = self._install_refusal([request[BODY]])
        if refused is not None:
            return refused
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

    # -- threads (resources/channel.mdx: Start Thread without Message / from Message, Modify Channel) ----------------
    def _thread_refusal(self, parent: Any, body: Any, type_: int) -> web.Response | None:
        """Why Discord would refuse the bot a new thread in ``parent``: not a text channel (50024), a bad name
        (50035), or Missing Permissions (50013: CREATE_PUBLIC_THREADS / CREATE_PRIVATE_THREADS)."""
        if parent.is_dm or parent.is_thread or parent.type != 0:
            return discord_error(400, 50024, "Cannot execute action on this channel type")
        name = body.get("name") if isinstance(body, dict) else None
        if not isinstance(name, str) or not 1 <= len(name) <= 100:
            return discord_error(
                400, 50035, "Invalid Form Body", _field_error("name", "BASE_TYPE_BAD_LENGTH", "Must be 1-100 long.")
            )
        if type_ not in (11, 12):
            return discord_error(
                400, 50035, "Invalid Form Body", _field_error("type", "BASE_TYPE_CHOICES", "Must be 11 or 12.")
            )
        perms = self.fake.bot_permissions_in(parent)
        if not perms.view_channel or not (perms.create_public_threads if type_ == 11 else perms.create_private_threads):
            return discord_error(403, 50013, "Missing Permissions")
        return None

    async def start_thread(self, request: web.Request) -> web.Response:
        parent = self.fake.channels.get(_int(request, "channel_id"))
        if parent is None:
            return discord_error(404, 10003, "Unknown Channel")
        body = request[BODY]
        type_ = int(body.get("type", 12)) if isinstance(body, dict) else 12  # v10: a private thread unless told
        refused = self._thread_refusal(parent, body, type_)
        if refused is not None:
            return refused
        thread = self.fake._start_thread(
            parent, body["name"], type_, auto_archive=int(body.get("auto_archive_duration") or 1440)
        )
        return json_response(thread.payload())

    async def start_thread_from_message(self, request: web.Request) -> web.Response:
        message = self._channel_message(request)
        if isinstance(message, web.Response):
            return message
        parent = self.fake.channels[message.channel_id]
        body = request[BODY]
        refused = self._thread_refusal(parent, body, 11)
        if refused is not None:
            return refused
        if message.id in self.fake.channels:
            return discord_error(400, 160004, "A thread has already been created for this message")
        thread = self.fake._start_thread(
            parent,
            body["name"],
            11,
            thread_id=message.id,
            auto_archive=int(body.get("auto_archive_duration") or 1440),
        )
        return json_response(thread.payload())

    async def edit_channel(self, request: web.Request) -> web.Response:
        """Modify Channel, for threads only (archive, lock, rename): the bot may change a thread it started, else it
        needs MANAGE_THREADS."""
        channel = self.fake.channels.get(_int(request, "channel_id"))
        if channel is None:
            return discord_error(404, 10003, "Unknown Channel")
        if not channel.is_thread:
            return discord_error(403, 50013, "Missing Permissions")  # the fake models no channel settings
        perms = self.fake.bot_permissions_in(channel)
        if channel.owner_id != self.fake.bot_user.id and not perms.manage_threads:
            return discord_error(403, 50013, "Missing Permissions")
        body = request[BODY] if isinstance(request[BODY], dict) else {}
        self.fake._update_thread(channel, body)
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
        if channel.is_dm and channel.recipient is not None and not fake.can_dm(channel.recipient):
            fake.blocked_dms.append((channel.recipient.id, body))
            return discord_error(403, 50278, "Cannot send messages to this user due to having no mutual guilds")
        if channel.is_thread:  # SEND_MESSAGES_IN_THREADS; a locked thread refuses, an archived one reopens
            if channel.locked or not fake.bot_permissions_in(channel).send_messages_in_threads:
                return discord_error(403, 50013, "Missing Permissions")
            if channel.archived:
                fake._update_thread(channel, {"archived": False})
        errors = self._validate(body, request, creating=True)
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
        nonce = str(body["nonce"]) if body.get("enforce_nonce") and body.get("nonce") is not None else None
        if nonce is not None:  # Discord: the same author's message with this nonce in the past few minutes
            seen = fake.nonces.get((channel.id, nonce))
            if seen is not None and time.monotonic() - seen[1] < NONCE_WINDOW and seen[0] in fake.messages:
                return json_response(fake.messages[seen[0]].payload(fake.application_id))
        message = fake._create_message(channel, body, request[FILES])
        if nonce is not None:
            fake.nonces[(channel.id, nonce)] = (message.id, time.monotonic())
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
        errors = self._validate(request[BODY], request, creating=False, current=message)
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
            rec.callbacks.append(CallbackRecord(ctype, data, now, status, code, errors))
            return discord_error(status, code, message, errors)

        if rec.acknowledged:
            return reject(400, 40060, "Interaction has already been acknowledged.")
        dispatched = rec.dispatched_at if rec.dispatched_at is not None else now
        jumped = fake.clock.offset - rec.clock_offset_at_dispatch  # the test clock moved on meanwhile
        if rec.expired or now - dispatched + jumped > fake.interaction_deadline:
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
        if ctype == 9 and (errors := modal_errors(data)):  # a modal as Discord checks it (tests/fakediscord/modals.py)
            return reject(400, 50035, "Invalid Form Body", {"data": errors})
        if ctype in (4, 7):
            # type 4 creates the response message; type 7 edits the message whose component was used
            edited = rec.component_message if ctype == 7 else None
            errors = self._validate(data, request, creating=ctype == 4, current=edited)
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
        if not rec.token_valid:  # expire(), or 15 minutes on the test clock (fake.clock)
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
        if rec.user_install_only and rec.followup_posts >= MAX_USER_INSTALL_FOLLOWUPS:
            # Create Followup Message: 5 per interaction when only USER_INSTALL authorized it. The fake counts every
            # accepted POST, the one that fills a deferred reply too (the docs do not say; the stricter reading)
            return discord_error(
                400, FOLLOWUP_LIMIT_CODE, "This interaction has hit the maximum number of follow up messages"
            )
        body: dict[str, Any] = request[BODY]
        errors = self._validate(body, request, creating=True)
        if errors:
            return discord_error(400, 50035, "Invalid Form Body", errors)
        original = rec.original
        if rec.ack_type == 5 and original is not None and original.loading and not original.deleted:
            # Discord: the first follow-up after a deferred message replaces the "thinking" message and keeps
            # the ephemerality chosen at defer time; IS_COMPONENTS_V2 comes with the follow-up (a defer cannot set it)
            fill = {k: v for k, v in body.items() if k != "flags"}
            if int(body.get("flags") or 0) & IS_COMPONENTS_V2:
                fill["flags"] = IS_COMPONENTS_V2
            fake._apply_edit(original, fill, request[FILES], via="followup fills deferred")
            message = original
        else:
            message = fake._create_followup(rec, body, request[FILES])
        rec.followup_posts += 1
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
        errors = self._validate(request[BODY], request, creating=False, current=target)
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
