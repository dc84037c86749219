"""Two gateway events parsed leaner for the table's own traffic (issue 30), inside discord.py's dispatch table.

discord.py turns each gateway event into objects through ``ConnectionState.parsers`` (event name -> parser). Two
of them did work for every click that nobody read:

- ``INTERACTION_CREATE`` of a click on a table control (custom id ``dt:``, ``ds:``, ``dm:``): discord.py built the
  clicked message's components (a whole table: a Container, its TextDisplays, Buttons, Selects and their options)
  as objects, then, for the DynamicItem whose template matched, a task that rebuilt the message once more as a
  ``LayoutView`` (``ViewStore.schedule_dynamic_item_call``) to call the item's callback, which for these items is
  the base one and does nothing (``cogs.utils.components``: every click is answered by ``Tables.on_interaction``).
  Here such a click becomes the same ``discord.Interaction`` (its user, member, permissions, channel, the message's
  id and flags: everything but ``message.components``) and is dispatched as ``interaction``, as discord.py does;
  the DynamicItems stay registered (``Tables.cog_load``), so a message drawn before a restart still dispatches.
- ``MESSAGE_UPDATE``: every edit of a table message comes back as one, and discord.py built a whole ``Message``
  from it to dispatch ``raw_message_edit`` (and ``message_edit`` for a cached message). The bot has no message
  cache (``max_messages=None``) and no listener of either event: while that holds and discord.py tracks no view
  on the message, nothing would read what it built, and the event is left there. Anything else (a listener added
  later, a ``wait_for``, a tracked view) takes discord.py's own parser.

Every other event, and any click that is not a table control's, goes through discord.py's parser unchanged.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import discord

if TYPE_CHECKING:
    from bot.client import DiceTavern

TABLE_CONTROLS = ("dt:", "ds:", "dm:")  # TableButton, TableSelect, DmRetryButton (cogs.utils.components)
COMPONENT = 3  # INTERACTION_CREATE's type for a message component


def install(bot: DiceTavern) -> None:
    """Put the lean parsers in front of discord.py's own for this bot (once: a second call changes nothing)."""
    state = bot._connection
    parsers: dict[str, Callable[[Any], None]] = state.parsers
    if getattr(parsers.get("INTERACTION_CREATE"), "lean", False):
        return
    interaction_create = parsers["INTERACTION_CREATE"]
    message_update = parsers["MESSAGE_UPDATE"]

    def lean_interaction_create(data: Any) -> None:
        inner = data.get("data") if data.get("type") == COMPONENT else None
        custom_id = inner.get("custom_id") if isinstance(inner, dict) else None
        if not isinstance(custom_id, str) or not custom_id.startswith(TABLE_CONTROLS):
            interaction_create(data)
            return
        message = data.get("message")
        if isinstance(message, dict) and message.get("components"):
            data = {**data, "message": {**message, "components": []}}
        state.dispatch("interaction", discord.Interaction(data=data, state=state))

    def lean_message_update(data: Any) -> None:
        if unread_edit(bot, data):
            return
        message_update(data)

    lean_interaction_create.lean = True  # type: ignore[attr-defined]
    parsers["INTERACTION_CREATE"] = lean_interaction_create
    parsers["MESSAGE_UPDATE"] = lean_message_update


EDIT_EVENTS = ("message_edit", "raw_message_edit")


def unread_edit(bot: DiceTavern, data: Any) -> bool:
    """Nothing in this process would read a MESSAGE_UPDATE's objects: no message cache, no listener of an edit
    event (a cog's, an ``on_`` method, a ``wait_for``), no view tracked on the message."""
    state = bot._connection
    if state._messages is not None:
        return False
    for event in EDIT_EVENTS:
        if bot._listeners.get(event) or bot.extra_events.get(f"on_{event}") or hasattr(bot, f"on_{event}"):
            return False
    store = state._view_store
    try:
        message_id = int(data["id"])
        entity_id = int(data["interaction"]["id"]) if "interaction" in data else message_id
    except (KeyError, TypeError, ValueError):
        return False
    return not (store.is_message_tracked(message_id) or store.is_message_tracked(entity_id))
