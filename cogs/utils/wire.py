"""A message already built as Discord's JSON (``cogs.utils.components``: ``table_components``, ``text_components``),
sent through discord.py's own request builders and HTTP/webhook adapters (issue 30).

``Prebuilt`` is a ``discord.ui.LayoutView`` whose ``to_components`` returns that JSON: wherever discord.py takes a
view (``send_message``, ``followup.send``, ``edit_original_response``, a channel's ``send``, a webhook's
``edit_message``) it serialises no ``ui`` objects. It is not dispatchable and counts as finished, so discord.py
stores nothing per message: its controls are the DynamicItems ``Tables.cog_load`` registered once for the whole
bot (their custom ids work on any message, after a restart too), and the clicks are answered by
``Tables.on_interaction``, as before.

The functions below do what ``InteractionResponse.edit_message``, ``PartialMessage.edit`` and ``Messageable.send``
do, with the same request (``interaction_message_response_params`` / ``handle_message_parameters``, the bot's
default allowed mentions merged in as there), but do not build discord.py objects from Discord's answer (a whole
``Message`` with its components, 100–300 µs each), which the bot never reads (a click's UPDATE_MESSAGE does not
even ask for it back); ``update_message`` records the
response on the interaction as ``edit_message`` does (``is_done()``, then ``edit_original_response`` and the
follow-ups, work as before).
"""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING, Any

import discord
from discord.http import Route, handle_message_parameters
from discord.webhook.async_ import async_context, interaction_message_response_params

if TYPE_CHECKING:
    from bot.client import DiceTavern

JSON = dict[str, Any]


class Prebuilt(discord.ui.LayoutView):
    """A Components V2 layout as Discord's JSON, where discord.py takes a LayoutView."""

    def __init__(self, components: list[JSON]) -> None:
        super().__init__(timeout=None)
        self.components = components

    def to_components(self) -> list[JSON]:
        return self.components

    def has_components_v2(self) -> bool:
        return True

    def is_dispatchable(self) -> bool:
        return False  # its controls are the bot's DynamicItems: nothing to store for this message

    def is_finished(self) -> bool:
        return True  # nor a 15-minute timer per private reply (discord.py's for an ephemeral view)


async def update_message(interaction: discord.Interaction, view: Prebuilt) -> None:
    """``interaction.response.edit_message(content=None, embed=None, view=view)``: the clicked message redrawn
    (UPDATE_MESSAGE), the response recorded on the interaction; Discord's answer is not parsed into objects."""
    response = interaction.response
    if response.is_done() or interaction.type not in (
        discord.InteractionType.component,
        discord.InteractionType.modal_submit,
    ):
        await response.edit_message(content=None, embed=None, view=view)  # raises or does nothing, as before
        return
    state = interaction._state
    if interaction.message is not None:
        state.prevent_view_updates_for(interaction.message.id)
    params = interaction_message_response_params(
        type=discord.InteractionResponseType.message_update.value,
        content=None,
        embed=None,
        view=view,
        previous_allowed_mentions=state.allowed_mentions,
    )
    await _respond(interaction, discord.InteractionResponseType.message_update, params.payload)


async def edit_channel_message(bot: DiceTavern, channel_id: int, message_id: int, view: Prebuilt) -> None:
    """``channel.get_partial_message(message_id).edit(content=None, embed=None, view=view)`` without the Message
    built from the answer. Raises what that raises (``discord.NotFound`` for a deleted message)."""
    state = bot._connection
    state.prevent_view_updates_for(message_id)
    with handle_message_parameters(
        content=None, embed=None, view=view, previous_allowed_mentions=state.allowed_mentions
    ) as params:
        await state.http.edit_message(channel_id, message_id, params=params)


async def send_to_channel(
    bot: DiceTavern,
    channel_id: int,
    view: Prebuilt,
    *,
    allowed_mentions: discord.AllowedMentions | None = None,
    nonce: str | int | None = None,
) -> int:
    """``channel.send(view=view, allowed_mentions=…, nonce=…)``; the new message's id (no Message built)."""
    state = bot._connection
    with handle_message_parameters(
        content=None,
        tts=False,
        nonce=secrets.randbits(64) if nonce is None else nonce,
        allowed_mentions=allowed_mentions,
        previous_allowed_mentions=state.allowed_mentions,
        view=view,
    ) as params:
        data = await state.http.send_message(channel_id, params=params)
    return int(data["id"])


async def _respond(
    interaction: discord.Interaction, kind: discord.InteractionResponseType, payload: JSON | None
) -> None:
    """The interaction's response, as create_interaction_response sends it but without its ``with_response``
    (Discord answers 204 instead of echoing the whole message back, which discord.py parsed into an object nobody
    here reads), then recorded on the interaction (``is_done()``, follow-ups and edits of it work as before)."""
    http = interaction._state.http
    route = Route(
        "POST",
        "/interactions/{webhook_id}/{webhook_token}/callback",
        webhook_id=interaction.id,
        webhook_token=interaction.token,
    )
    await async_context.get().request(
        route, session=interaction._session, proxy=http.proxy, proxy_auth=http.proxy_auth, payload=payload
    )
    interaction.response._response_type = kind


async def send_private(interaction: discord.Interaction, view: Prebuilt) -> None:
    """``send_ephemeral(interaction, view=view)``: the interaction's response (CHANNEL_MESSAGE, ephemeral) as
    ``response.send_message(ephemeral=True, view=view)`` sends it, else an ephemeral follow-up as
    ``interaction.followup.send(ephemeral=True, view=view)`` does; neither answer is parsed into objects."""
    response = interaction.response
    state = interaction._state
    http = state.http
    adapter = async_context.get()
    flags = discord.MessageFlags._from_value(0)
    flags.ephemeral = True
    if not response.is_done():
        params = interaction_message_response_params(
            type=discord.InteractionResponseType.channel_message.value,
            content=None,  # as send_message's default
            view=view,
            flags=flags,
            previous_allowed_mentions=state.allowed_mentions,
        )
        await _respond(interaction, discord.InteractionResponseType.channel_message, params.payload)
        return
    with handle_message_parameters(
        tts=False, flags=flags, view=view, previous_allowed_mentions=state.allowed_mentions
    ) as params:
        await adapter.execute_webhook(
            interaction.application_id,
            interaction.token,
            session=interaction._session,
            proxy=http.proxy,
            proxy_auth=http.proxy_auth,
            payload=params.payload,
            multipart=params.multipart,
            files=params.files,
            wait=True,  # as discord.py's follow-ups ask (an application webhook): the message is not parsed
            with_components=True,
        )


async def send_message(
    interaction: discord.Interaction, view: Prebuilt, *, allowed_mentions: discord.AllowedMentions | None = None
) -> int | None:
    """``(await interaction.response.send_message(view=view, allowed_mentions=…)).message_id``: a public message
    as the interaction's response; its id read from Discord's answer, which is not parsed into a Message."""
    state = interaction._state
    http = state.http
    params = interaction_message_response_params(
        type=discord.InteractionResponseType.channel_message.value,
        content=None,
        view=view,
        allowed_mentions=allowed_mentions,
        previous_allowed_mentions=state.allowed_mentions,
    )
    if interaction.response.is_done():
        raise discord.InteractionResponded(interaction)
    data = await async_context.get().create_interaction_response(
        interaction.id,
        interaction.token,
        session=interaction._session,
        proxy=http.proxy,
        proxy_auth=http.proxy_auth,
        params=params,
    )
    interaction.response._response_type = discord.InteractionResponseType.channel_message
    found = (data or {}).get("interaction", {}).get("response_message_id")
    return int(found) if found else None
