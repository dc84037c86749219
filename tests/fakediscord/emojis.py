"""The fake's application emojis: ``GET/POST /applications/{app_id}/emojis`` and
``GET/PATCH/DELETE /applications/{app_id}/emojis/{emoji_id}``, with Discord's validation.

Checked against Discord's docs (resources/emoji, "Create Application Emoji"; /work/shared/DISCORD.md): a name is
2-32 of ``[A-Za-z0-9_]`` and unique in the application; the image a data URI (PNG, JPEG, GIF or WebP) of at most
256 KiB; at most 2,000 emojis per application. A refused body is 400 with code 50035 (Invalid Form Body) and the
field's reason; the 2,001st emoji 400 with 30008 (Maximum number of emojis reached); an unknown emoji 404/10014.

State on the fake: ``fake.app_emojis`` (emoji id -> the emoji object as Discord returns it), ``fake.app_emoji_images``
(emoji id -> the uploaded bytes) and ``fake.emoji_uploads`` (accepted uploads, ever). ``add_app_emoji`` puts one
there as uploaded by someone else (the app's owner in the Developer Portal, by default).
"""

from __future__ import annotations

import base64
import binascii
import re
from typing import TYPE_CHECKING, Any

from aiohttp import web

from .rest import API_PREFIX, BODY, _field_error, discord_error, json_response, no_content

if TYPE_CHECKING:
    from .models import FakeUser
    from .server import FakeDiscord

__all__ = ["MAX_APP_EMOJIS", "MAX_IMAGE_BYTES", "add_app_emoji", "add_routes"]

MAX_APP_EMOJIS = 2000
MAX_IMAGE_BYTES = 256 * 1024
NAME = re.compile(r"^[A-Za-z0-9_]+$")
DATA_URI = re.compile(r"^data:image/(png|jpeg|gif|webp);base64,(.*)$", re.S)
INVALID_FORM_BODY = 50035
MAX_EMOJIS = 30008
UNKNOWN_EMOJI = 10014
UNKNOWN_APPLICATION = 10002


def emoji_object(fake: FakeDiscord, emoji_id: int, name: str, user: FakeUser | None = None) -> dict[str, Any]:
    """An application emoji as Discord returns it (the uploader in ``user``: the bot, for the bot's uploads)."""
    return {
        "id": str(emoji_id),
        "name": name,
        "roles": [],
        "user": (user or fake.bot_user).payload(),
        "require_colons": True,
        "managed": False,
        "animated": False,
        "available": True,
    }


def add_app_emoji(fake: FakeDiscord, name: str, image: bytes = b"", *, user: FakeUser | None = None) -> dict[str, Any]:
    """An emoji the application already has, uploaded by ``user`` (default: the app's owner, not the bot)."""
    emoji_id = fake.snowflake()
    emoji = emoji_object(fake, emoji_id, name, user or fake.owner)
    fake.app_emojis[emoji_id] = emoji
    fake.app_emoji_images[emoji_id] = image
    return emoji


def _form_error(path: str, code: str, message: str) -> web.Response:
    return discord_error(400, INVALID_FORM_BODY, "Invalid Form Body", _field_error(path, code, message))


def _name_error(fake: FakeDiscord, name: Any, *, except_id: int | None = None) -> web.Response | None:
    if not isinstance(name, str) or not 2 <= len(name) <= 32:
        return _form_error("name", "BASE_TYPE_BAD_LENGTH", "Must be between 2 and 32 in length.")
    if not NAME.match(name):
        return _form_error("name", "STRING_TYPE_REGEX", "String value did not match validation regex.")
    if any(e["name"] == name and int(e["id"]) != except_id for e in fake.app_emojis.values()):
        return _form_error("name", "APPLICATION_EMOJI_NAME_ALREADY_TAKEN", "Emoji name already taken.")
    return None


class AppEmojiApi:
    """The routes' handlers; the state lives on the fake (``app_emojis``, ``app_emoji_images``, ``emoji_uploads``)."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake

    def routes(self) -> list[tuple[str, str, Any]]:
        base = "/applications/{app_id}/emojis"
        return [
            ("GET", base, self.list),
            ("POST", base, self.create),
            ("GET", base + "/{emoji_id}", self.get),
            ("PATCH", base + "/{emoji_id}", self.edit),
            ("DELETE", base + "/{emoji_id}", self.delete),
        ]

    def _application(self, request: web.Request) -> web.Response | None:
        if request.match_info["app_id"] != str(self.fake.application_id):
            return discord_error(404, UNKNOWN_APPLICATION, "Unknown Application")
        return None

    def _emoji(self, request: web.Request) -> dict[str, Any] | web.Response:
        refused = self._application(request)
        if refused is not None:
            return refused
        raw = request.match_info["emoji_id"]
        emoji = self.fake.app_emojis.get(int(raw)) if raw.isdigit() else None
        if emoji is None:
            return discord_error(404, UNKNOWN_EMOJI, "Unknown Emoji")
        return emoji

    async def list(self, request: web.Request) -> web.Response:
        refused = self._application(request)
        if refused is not None:
            return refused
        return json_response({"items": list(self.fake.app_emojis.values())})

    async def create(self, request: web.Request) -> web.Response:
        refused = self._application(request)
        if refused is not None:
            return refused
        body = request[BODY]
        name = body.get("name")
        refused = _name_error(self.fake, name)
        if refused is not None:
            return refused
        match = DATA_URI.match(body.get("image") or "") if isinstance(body.get("image"), str) else None
        if match is None:
            return _form_error("image", "IMAGE_INVALID", "Invalid image data")
        try:
            image = base64.b64decode(match[2], validate=True)
        except (binascii.Error, ValueError):
            return _form_error("image", "IMAGE_INVALID", "Invalid image data")
        if not image:
            return _form_error("image", "IMAGE_INVALID", "Invalid image data")
        if len(image) > MAX_IMAGE_BYTES:
            return _form_error("image", "BINARY_TYPE_MAX_SIZE", "File cannot be larger than 256.0 kb.")
        if len(self.fake.app_emojis) >= MAX_APP_EMOJIS:
            return discord_error(400, MAX_EMOJIS, f"Maximum number of emojis reached ({MAX_APP_EMOJIS})")
        emoji_id = self.fake.snowflake()
        emoji = emoji_object(self.fake, emoji_id, name)
        self.fake.app_emojis[emoji_id] = emoji
        self.fake.app_emoji_images[emoji_id] = image
        self.fake.emoji_uploads += 1
        return json_response(emoji, 201)

    async def get(self, request: web.Request) -> web.Response:
        emoji = self._emoji(request)
        return emoji if isinstance(emoji, web.Response) else json_response(emoji)

    async def edit(self, request: web.Request) -> web.Response:
        emoji = self._emoji(request)
        if isinstance(emoji, web.Response):
            return emoji
        name = request[BODY].get("name", emoji["name"])
        refused = _name_error(self.fake, name, except_id=int(emoji["id"]))
        if refused is not None:
            return refused
        emoji["name"] = name
        return json_response(emoji)

    async def delete(self, request: web.Request) -> web.Response:
        emoji = self._emoji(request)
        if isinstance(emoji, web.Response):
            return emoji
        del self.fake.app_emojis[int(emoji["id"])]
        self.fake.app_emoji_images.pop(int(emoji["id"]), None)
        return no_content()


def add_routes(app: web.Application, fake: FakeDiscord) -> None:
    """Register the application-emoji routes on the fake's app (the logging middleware sees them as ``bot`` calls)."""
    for method, path, handler in AppEmojiApi(fake).routes():
        app.router.add_route(method, API_PREFIX + path, handler)
