"""User installs (issue 29): where the app is installed, which commands a user may use where, what an interaction
in such a place carries, and what Discord refuses there.

Facts from Discord's API docs (developers/interactions/receiving-and-responding.mdx, application-commands.mdx,
resources/application.mdx, topics/opcodes-and-status-codes.mdx; snapshot 2026-08) and discord.py 2.7.1's source:

* A command's ``integration_types`` (0 GUILD_INSTALL, 1 USER_INSTALL) default to the app's configured installation
  contexts when absent; ``contexts`` (0 GUILD, 1 BOT_DM, 2 PRIVATE_CHANNEL) default to all three (the bulk overwrite
  docs); the deprecated ``dm_permission: false`` drops BOT_DM. Both are "only for globally-scoped commands": a guild
  command is a guild-install command used in its guild. discord.py sends ``null`` for both when a command has no
  ``allowed_installs`` / ``allowed_contexts`` (and ``guild_only`` sets contexts ``[0]``).
* ``authorizing_integration_owners``: key ``"0"`` when the app is installed to the guild (value the guild id, or
  ``"0"`` in a DM with the bot), key ``"1"`` (value the authorizing user) when the user installed it; a key only if the
  command supports that installation. A component on a message carries the owners of the interaction that made the
  message, so the clicker may differ from the authorizing user (discord.py's ``is_user_integration()`` is then False).
* ``app_permissions``: ATTACH_FILES | EMBED_LINKS | MENTION_EVERYONE in (group) DMs with other users, plus
  USE_EXTERNAL_EMOJIS in the DM with the bot. In a server without the bot Discord is not documented; what apps
  observed (discord-api-docs #5316, #7251) is the member's permissions plus EMBED_LINKS and ATTACH_FILES, which the
  fake sends: it says nothing about what the bot's token may do there.
* USE_EXTERNAL_APPS (1 << 50, topics/permissions.mdx): "Allows user-installed apps to send public responses. When
  disabled, users will still be allowed to use their apps but the responses will be ephemeral. This only applies to
  apps not also installed to the server." The fake's members have it by default (as @everyone does on Discord);
  a member without it gets every created response and follow-up ephemeral.
* Interaction tokens last 15 minutes (50027 "Invalid Webhook Token" after); at most 5 follow-ups per interaction
  when ``authorizing_integration_owners`` holds only USER_INSTALL: code 40094 "This interaction has hit the maximum
  number of follow up messages" (the docs give no HTTP status: the fake answers 400, as for other 400xx codes).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Collection, Mapping
from typing import Any

import discord

from .models import TOKEN_LIFETIME, CommandUnavailable, FakeChannel, FakeGuild, FakeUser

__all__ = [
    "GUILD_INSTALL",
    "USER_INSTALL",
    "CONTEXT_GUILD",
    "CONTEXT_BOT_DM",
    "CONTEXT_PRIVATE_CHANNEL",
    "ALL_CONTEXTS",
    "TOKEN_LIFETIME",
    "MAX_USER_INSTALL_FOLLOWUPS",
    "FOLLOWUP_LIMIT_CODE",
    "PRIVATE_CHANNEL_APP_PERMISSIONS",
    "BOT_DM_APP_PERMISSIONS",
    "FakeClock",
    "command_defaults",
    "unsupported_installs",
    "command_owners",
    "guild_without_bot_app_permissions",
    "USE_EXTERNAL_APPS",
    "forced_ephemeral",
]

GUILD_INSTALL, USER_INSTALL = 0, 1
CONTEXT_GUILD, CONTEXT_BOT_DM, CONTEXT_PRIVATE_CHANNEL = 0, 1, 2
ALL_CONTEXTS = (CONTEXT_GUILD, CONTEXT_BOT_DM, CONTEXT_PRIVATE_CHANNEL)
CONTEXT_NAMES = {0: "GUILD (a server)", 1: "BOT_DM (the DM with the bot)", 2: "PRIVATE_CHANNEL (a group DM)"}
MAX_USER_INSTALL_FOLLOWUPS = 5
FOLLOWUP_LIMIT_CODE = 40094

PRIVATE_CHANNEL_APP_PERMISSIONS: int = discord.Permissions(
    attach_files=True, embed_links=True, mention_everyone=True
).value  # 180224, as Discord sends it in group DMs
USE_EXTERNAL_APPS: int = discord.Permissions(use_external_apps=True).value
BOT_DM_APP_PERMISSIONS: int = PRIVATE_CHANNEL_APP_PERMISSIONS | discord.Permissions(use_external_emojis=True).value


class FakeClock:
    """The fake's test clock: wall-clock seconds since the epoch plus an offset a test moves forward.

    Interaction tokens age by it (15 minutes), the 3 s rule counts its jumps, and snowflakes carry its time, so
    ``discord.utils.snowflake_time(interaction.id)`` agrees with it. Give the bot the same clock
    (``bot.tables.clock = fake.clock``) and both sides see the same gap.
    """

    def __init__(self, on_advance: Callable[[], None] | None = None) -> None:
        self.offset = 0.0
        self.on_advance = on_advance  # the fake's notify: every wait_for looks again at once

    def __call__(self) -> float:
        return time.time() + self.offset

    def advance(self, seconds: float) -> float:
        """Move the clock ``seconds`` forward (never back: snowflakes must keep increasing); returns the new time."""
        if seconds < 0:
            raise ValueError("the test clock only moves forward")
        self.offset += seconds
        if self.on_advance is not None:
            self.on_advance()
        return self()


def command_defaults(raw: Mapping[str, Any], scope: int | None, app_install_types: Collection[int]) -> dict[str, Any]:
    """``integration_types`` and ``contexts`` as Discord stores them for a command sent without them (or null)."""
    if scope is not None:  # guild commands: only in that guild, installed to it
        return {"integration_types": [GUILD_INSTALL], "contexts": [CONTEXT_GUILD]}
    types = raw.get("integration_types")
    contexts = raw.get("contexts")
    if contexts is None:
        contexts = [c for c in ALL_CONTEXTS if c != CONTEXT_BOT_DM or raw.get("dm_permission") is not False]
    return {
        "integration_types": sorted(app_install_types) if types is None else [int(t) for t in types],
        "contexts": [int(c) for c in contexts],
    }


def unsupported_installs(raw: Mapping[str, Any], app_install_types: Collection[int]) -> list[int]:
    """Installation types a command declares that the app does not support (the Developer Portal's Installation
    page): Discord refuses such a command ("as long as any included contexts are already supported on the
    application-level"; the error's inner code is not documented)."""
    return [int(t) for t in raw.get("integration_types") or [] if int(t) not in app_install_types]


def command_owners(
    cmd: Mapping[str, Any] | None,
    *,
    user: FakeUser,
    channel: FakeChannel,
    guild: FakeGuild | None,
    context: int,
) -> dict[str, str]:
    """The ``authorizing_integration_owners`` of ``user`` invoking ``cmd`` in ``channel``, or
    :class:`CommandUnavailable` when the Discord client would not offer the command there (its contexts or
    installation types do not include this place, or nobody installed the app here). ``cmd`` None (the bot did not
    sync): any context, both installation types."""
    name = f"/{cmd['name']}" if cmd else "the command"
    types = [int(t) for t in cmd.get("integration_types") or []] if cmd else [GUILD_INSTALL, USER_INSTALL]
    contexts = [int(c) for c in cmd.get("contexts") or []] if cmd else list(ALL_CONTEXTS)
    if context not in contexts:
        allowed = ", ".join(CONTEXT_NAMES[c] for c in contexts) or "nowhere"
        raise CommandUnavailable(
            f"{name} is not offered in {CONTEXT_NAMES[context]}: its contexts are {contexts} ({allowed})"
        )
    owners: dict[str, str] = {}
    guild_installed = context == CONTEXT_BOT_DM or (context == CONTEXT_GUILD and guild is not None and guild.bot_member)
    if GUILD_INSTALL in types and guild_installed:
        owners["0"] = str(guild.id) if context == CONTEXT_GUILD and guild is not None else "0"
    if USER_INSTALL in types and user.app_installed:
        owners["1"] = str(user.id)
    if not owners:
        where = {0: "this server never added the bot", 1: "", 2: "the bot is not in group DMs"}[context]
        why = []
        if not user.app_installed:
            why.append(f"{user.name} has not installed the app to their account (fake.install_app(user))")
        elif USER_INSTALL not in types:
            why.append(f"its integration_types {types} leave out USER_INSTALL (1)")
        if where and GUILD_INSTALL in types:
            why.append(where)
        raise CommandUnavailable(f"{user.name} cannot use {name} in {CONTEXT_NAMES[context]}: " + "; ".join(why))
    return owners


def guild_without_bot_app_permissions(member_permissions: int) -> int:
    """``app_permissions`` of a user-install interaction in a server without the bot (see the module docstring)."""
    return member_permissions | discord.Permissions(embed_links=True, attach_files=True).value


def forced_ephemeral(payload: Mapping[str, Any]) -> bool:
    """Discord makes the responses to this interaction ephemeral: a user install alone in a server whose member
    (the one interacting) lacks USE_EXTERNAL_APPS."""
    owners = payload.get("authorizing_integration_owners") or {}
    member = payload.get("member")
    if set(owners) != {"1"} or member is None:
        return False
    return not int(member.get("permissions") or 0) & USE_EXTERNAL_APPS
