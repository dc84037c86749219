"""The fake Discord speaks Components V2 as Discord validates it (issue 24).

Two halves: the validator itself on payloads (``validate_message_body``: the 40 components, the 4,000 characters,
layout rules, the flag's life on edits), and a real discord.py client sending ``LayoutView`` messages through every
path (channel send and edit, interaction callbacks 4 and 7, deferred replies, webhook follow-ups and edits of
@original), clicking controls nested in containers and sections, and seeing Discord's 400s for bad bodies.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import discord
import pytest
from discord import ui
from discord.ext import commands

from tests.fakediscord import (
    EPHEMERAL,
    IS_COMPONENTS_V2,
    FakeDiscord,
    FakeGuild,
    FakeMessage,
    FakeUser,
    components_text,
    leftover_tasks,
    run_bot,
    validate_message_body,
)
from tests.fakediscord.models import error_lines

V2 = IS_COMPONENTS_V2
GREEN = 0x2ECC71
GREY = 0x95A5A6


def table(turn: str = "alice", *, colour: int = GREEN, extra_text: str = "") -> ui.LayoutView:
    """A table as the bot lays one out: a container with a heading, a separator, one section per seat (the
    accessory a button), a row of buttons and a row with a select; a footer line outside the container."""
    view = ui.LayoutView(timeout=None)
    kicks: list[tuple[str, int, ui.Button[Any]]] = [
        ("alice", 3, ui.Button(label="Kick alice", custom_id="t:kick:alice")),
        ("bob", 2, ui.Button(label="Kick bob", custom_id="t:kick:bob", style=discord.ButtonStyle.danger)),
    ]
    seats = [
        ui.Section(ui.TextDisplay(f"**{name}**"), ui.TextDisplay(f"{lives} lives"), accessory=kick)
        for name, lives, kick in kicks
    ]
    select: ui.Select[Any] = ui.Select(
        custom_id="t:bid",
        placeholder="Your bid",
        options=[discord.SelectOption(label=f"{n} × ⚅", value=str(n)) for n in range(1, 6)],
    )
    view.add_item(
        ui.Container(
            ui.TextDisplay(f"# Liar's Dice\nTurn: {turn}{extra_text}"),
            ui.Separator(spacing=discord.SeparatorSpacing.large),
            *seats,
            ui.Separator(visible=False),
            ui.ActionRow(
                ui.Button(label="Roll", custom_id="t:roll", style=discord.ButtonStyle.primary),
                ui.Button(emoji="🎲", custom_id="t:dice"),
                ui.Button(label="Rules", url="https://example.com/rules"),
            ),
            ui.ActionRow(select),
            accent_colour=colour,
        )
    )
    view.add_item(ui.TextDisplay("-# fair dice: commitment 1a2b3c"))
    return view


def v2(components: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    return {"flags": V2, "components": components, **extra}


def text(content: str) -> dict[str, Any]:
    return {"type": 10, "content": content}


def button(custom_id: str, label: str | None = "Go", **extra: Any) -> dict[str, Any]:
    data: dict[str, Any] = {"type": 2, "style": 1, "custom_id": custom_id, **extra}
    if label is not None:
        data["label"] = label
    return data


def row(*children: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(children)}


def container(*children: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"type": 17, "components": list(children), **extra}


def select(custom_id: str, values: list[str], **extra: Any) -> dict[str, Any]:
    return {"type": 3, "custom_id": custom_id, "options": [{"label": v, "value": v} for v in values], **extra}


def codes(errors: dict[str, Any]) -> list[str]:
    """``path: CODE message`` lines, for asserting on where and why."""
    return error_lines(errors)


def refused(body: dict[str, Any], where: str, **kwargs: Any) -> list[str]:
    kwargs.setdefault("creating", True)
    lines = codes(validate_message_body(body, **kwargs))
    assert any(line.startswith(where) for line in lines), lines
    return lines


def accepted(body: dict[str, Any], **kwargs: Any) -> None:
    kwargs.setdefault("creating", True)
    assert validate_message_body(body, **kwargs) == {}


def stored(**fields: Any) -> FakeMessage:
    """A message as the fake stores it (for validating edits against it)."""
    return FakeMessage(id=2, channel_id=3, guild_id=None, author=FakeUser(id=1, name="bot", bot=True), **fields)


# ----------------------------------------------------------------------------------------------------------------------
# The validator on payloads
# ----------------------------------------------------------------------------------------------------------------------


def test_a_layout_view_built_by_discord_py_is_a_valid_v2_body_and_reads_back_in_document_order() -> None:
    components = table().to_components()
    accepted(v2(components))
    assert components_text(components).splitlines() == [
        "# Liar's Dice",
        "Turn: alice",
        "**alice**",
        "3 lives",
        "**bob**",
        "2 lives",
        "-# fair dice: commitment 1a2b3c",
    ]
    message = stored(components=components, flags=V2)
    assert message.is_v2 and message.accent_color == GREEN
    assert message.custom_ids() == ["t:kick:alice", "t:kick:bob", "t:roll", "t:dice", "t:bid"]
    assert [c["type"] for c in message.controls()] == [2, 2, 2, 2, 2, 3]
    assert message.option_values() == ["1", "2", "3", "4", "5"] and message.options()[0]["label"] == "1 × ⚅"
    assert message.component_count == table().total_children_count == 19
    assert message.display_length == table().content_length()
    assert "Your bid" in message.all_text and "Kick bob" in message.all_text and "Kick bob" not in message.text
    # without the flag the same components are legacy ones: only action rows at the top level
    assert refused({"components": components}, "components.0.type")[0].endswith("must be one of (1,).")


def test_40_components_pass_and_the_41st_nested_one_is_refused() -> None:
    # a container (1) + 13 rows of 2 buttons (39) = 40; one button more is 41
    rows = [row(button(f"b{i}a"), button(f"b{i}b")) for i in range(13)]
    accepted(v2([container(*rows)]))
    rows[0]["components"].append(button("one-too-many"))
    lines = refused(v2([container(*rows)]), "components: BASE_TYPE_MAX_LENGTH")
    assert "41" in lines[0]


def test_4000_characters_of_text_displays_pass_and_4001_are_refused() -> None:
    accepted(v2([container(text("a" * 2000), text("b" * 1000)), text("c" * 1000)]))
    refused(v2([container(text("a" * 2000), text("b" * 1000)), text("c" * 1001)]), "components: MAX_TEXT")
    # labels, placeholders and options do not count (discord.py's LayoutView.content_length counts the same)
    accepted(v2([text("a" * 4000), row(button("x", "y" * 80))]))


@pytest.mark.parametrize(
    ("extra", "where"),
    [
        ({"content": "hello"}, "content: MESSAGE_CANNOT_USE_LEGACY_FIELDS"),
        ({"embeds": [{"title": "old"}]}, "embeds: MESSAGE_CANNOT_USE_LEGACY_FIELDS"),
        ({"embed": {"title": "old"}}, "embeds: MESSAGE_CANNOT_USE_LEGACY_FIELDS"),
        ({"poll": {"question": {"text": "?"}}}, "poll:"),
        ({"sticker_ids": ["1"]}, "sticker_ids:"),
    ],
)
def test_content_embeds_poll_and_stickers_are_refused_with_the_v2_flag(extra: dict[str, Any], where: str) -> None:
    refused(v2([text("hi")], **extra), where)
    refused(v2([text("hi")], **extra, flags=V2 | EPHEMERAL), where)


@pytest.mark.parametrize(
    ("components", "where"),
    [
        ([row()], "components.0.components: BASE_TYPE_MIN_LENGTH"),
        ([row(*(button(f"b{i}") for i in range(6)))], "components.0.components: COMPONENT_LAYOUT_WIDTH"),
        ([row(button("b"), select("s", ["1"]))], "components.0.components: COMPONENT_LAYOUT_WIDTH"),
        ([row(select("s", ["1"]), select("t", ["1"]))], "components.0.components: COMPONENT_LAYOUT_WIDTH"),
        ([row(text("no"))], "components.0.components.0.type: UNION_TYPE_CHOICES"),
        ([button("top")], "components.0.type: UNION_TYPE_CHOICES"),
        ([{"type": 11, "media": {"url": "https://x/y.png"}}], "components.0.type"),
        ([{"type": 9, "components": [], "accessory": button("a")}], "components.0.components: BASE_TYPE_BAD_LENGTH"),
        ([{"type": 9, "components": [text(str(i)) for i in range(4)], "accessory": button("a")}], "components.0.comp"),
        ([{"type": 9, "components": [text("x")]}], "components.0.accessory: BASE_TYPE_REQUIRED"),
        ([{"type": 9, "components": [text("x")], "accessory": select("s", ["1"])}], "components.0.accessory.type"),
        ([{"type": 9, "components": [button("b")], "accessory": button("a")}], "components.0.components.0.type"),
        ([container()], "components.0.components: BASE_TYPE_MIN_LENGTH"),
        ([container(container(text("x")))], "components.0.components.0.type: UNION_TYPE_CHOICES"),
        ([container(button("b"))], "components.0.components.0.type"),
        ([container(text("x"), accent_color=0x1000000)], "components.0.accent_color"),
        ([container(text("x"), accent_color=-1)], "components.0.accent_color"),
        ([container(text("x"), accent_color=True)], "components.0.accent_color"),
        ([container(text("x"), accent_color="#fff")], "components.0.accent_color"),
        ([{"type": 14, "spacing": 3}], "components.0.spacing"),
        ([text("")], "components.0.content: BASE_TYPE_REQUIRED"),
        ([{"type": 12, "items": []}], "components.0.items"),
        ([{"type": 13, "file": {"url": "attachment://a.txt"}}], "components.0.file"),
        ([{"type": 4, "custom_id": "t", "style": 1, "label": "x"}], "components.0.type"),
    ],
    ids=lambda v: v if isinstance(v, str) else None,
)
def test_the_layout_rules_of_v2_components(components: list[dict[str, Any]], where: str) -> None:
    refused(v2(components), where)


@pytest.mark.parametrize(
    ("component", "where"),
    [
        (button("x" * 101), "custom_id: BASE_TYPE_BAD_LENGTH"),
        (button(""), "custom_id: BASE_TYPE_BAD_LENGTH"),
        ({"type": 2, "style": 1, "label": "no id"}, "custom_id: BASE_TYPE_BAD_LENGTH"),
        (button("b", "x" * 81), "label: BASE_TYPE_MAX_LENGTH"),
        (button("b", None), ": BUTTON_COMPONENT_LABEL_OR_EMOJI_REQUIRED"),
        (button("b", style=7), "style:"),
        ({"type": 2, "style": 5, "label": "link"}, "url:"),
        ({"type": 2, "style": 5, "label": "link", "url": "https://x", "custom_id": "c"}, "custom_id:"),
        (button("b", url="https://x"), "url:"),
        (button("b", None, emoji={"id": "12x"}), "emoji.id"),
        (button("b", None, emoji={}), "emoji: COMPONENT_INVALID_EMOJI"),
        (select("s", []), "options: BASE_TYPE_BAD_LENGTH"),
        (select("s", [str(i) for i in range(26)]), "options: BASE_TYPE_BAD_LENGTH"),
        (select("s", ["1", "1"]), "options.1.value: SELECT_COMPONENT_OPTION_VALUE_DUPLICATED"),
        (select("s", ["x" * 101]), "options.0.label: BASE_TYPE_BAD_LENGTH"),
        ({"type": 3, "custom_id": "s", "options": [{"label": "l", "value": ""}]}, "options.0.value"),
        (select("s", ["1"], placeholder="p" * 151), "placeholder: BASE_TYPE_MAX_LENGTH"),
        (select("s", ["1", "2"], min_values=2, max_values=1), "min_values:"),
        (select("s", ["1", "2"], max_values=3), "max_values:"),
        (select("s", ["1"], max_values=26), "max_values:"),
        ({"type": 5, "custom_id": "u", "min_values": -1}, "min_values:"),
    ],
    ids=lambda v: v if isinstance(v, str) else None,
)
def test_the_limits_of_buttons_and_selects_in_both_modes(component: dict[str, Any], where: str) -> None:
    tail = where if where.startswith(":") else f".{where}"
    refused(v2([container(row(component))]), f"components.0.components.0.components.0{tail}")
    refused({"components": [row(component)]}, f"components.0.components.0{tail}")


def test_custom_ids_are_unique_across_the_whole_message() -> None:
    section = {"type": 9, "components": [text("alice")], "accessory": button("dup")}
    lines = refused(v2([container(section, row(button("dup")))]), "components.0.components.1.components.0.custom_id")
    assert "COMPONENT_CUSTOM_ID_DUPLICATED" in lines[0]
    refused({"components": [row(button("dup")), row(select("dup", ["1"]))]}, "components.1.components.0.custom_id")


def test_a_custom_emoji_must_be_one_the_application_owns_once_the_fake_keeps_them() -> None:
    body = v2([row(button("b", None, emoji={"id": "123456789", "name": "die_6"}))])
    accepted(body)  # no list of application emojis: any snowflake
    accepted(body, emoji_ids={"123456789"})
    refused(body, "components.0.components.0.emoji: COMPONENT_INVALID_EMOJI", emoji_ids={"987654321"})
    option = {"label": "six", "value": "6", "emoji": {"id": "5", "name": "die_6"}}
    refused(v2([row({"type": 3, "custom_id": "s", "options": [option]})]), "components.0", emoji_ids=set())
    accepted(v2([row(button("b", None, emoji={"name": "🎲"}))]), emoji_ids=set())  # a Unicode emoji is always fine


def test_legacy_messages_keep_their_old_limits() -> None:
    accepted({"content": "hi", "embeds": [{"title": "t"}], "components": [row(button("a")), row(select("s", ["1"]))]})
    refused({"components": [row(button(f"b{i}")) for i in range(6)]}, "components: BASE_TYPE_MAX_LENGTH")
    refused({"content": "x" * 2001}, "content: BASE_TYPE_MAX_LENGTH")
    refused({}, "content: BASE_TYPE_REQUIRED")
    refused({"flags": V2, "components": []}, "content: BASE_TYPE_REQUIRED")


def test_adding_the_flag_on_an_edit_needs_the_old_content_and_embeds_cleared_in_the_same_edit() -> None:
    old = stored(content="table", embeds=[{"title": "Liar's Dice"}], components=[row(button("roll"))])
    layout = table().to_components()
    lines = refused({"flags": V2, "components": layout}, "content:", creating=False, current=old)
    assert any("keeps the message's current one" in line for line in lines) and any("embeds:" in x for x in lines)
    refused({"flags": V2, "components": layout, "content": None}, "embeds:", creating=False, current=old)
    # discord.py's message.edit(content=None, embed=None, view=layout): how the bot converts an old table
    accepted({"flags": V2, "components": layout, "content": None, "embeds": []}, creating=False, current=old)
    # a flag-only edit turns the old action rows into V2 components (valid ones), once content and embeds go
    accepted({"flags": V2, "content": None, "embeds": []}, creating=False, current=old)


def test_an_edit_of_a_v2_message_is_validated_as_v2_and_cannot_remove_the_flag() -> None:
    current = stored(components=table().to_components(), flags=V2)
    accepted({"components": table("bob").to_components()}, creating=False, current=current)  # no flags: stays V2
    refused({"content": "plain text now"}, "content: MESSAGE_CANNOT_USE_LEGACY_FIELDS", creating=False, current=current)
    refused({"embeds": [{"title": "t"}]}, "embeds:", creating=False, current=current)
    # sending flags without the bit: Discord reads the components as legacy ones and refuses the V2 types
    removal = {"flags": 0, "components": table("bob").to_components()}
    refused(removal, "components.0.type: UNION_TYPE_CHOICES", creating=False, current=current)
    # ... and an edit that keeps the components: passes, the message stays V2 (the server notes the attempt)
    accepted({"flags": 0}, creating=False, current=current)


# ----------------------------------------------------------------------------------------------------------------------
# A real discord.py client
# ----------------------------------------------------------------------------------------------------------------------


@dataclass
class Seen:
    """What the bot observed."""

    clicks: list[tuple[str, bool, int]] = field(default_factory=list)  # custom_id, message is V2, its components
    selected: list[list[str]] = field(default_factory=list)
    errors: dict[str, tuple[int, int, str]] = field(default_factory=dict)  # case -> status, code, text
    messages: dict[str, discord.Message] = field(default_factory=dict)
    ephemeral_views: list[ui.LayoutView] = field(default_factory=list)


class TableView(ui.LayoutView):
    """``table()`` with callbacks: Roll edits the message (type 7), a seat's Kick answers with an ephemeral V2 reply
    and an ephemeral V2 follow-up, the bid select defers (type 6)."""

    def __init__(self, seen: Seen, turn: str = "alice") -> None:
        super().__init__(timeout=None)
        self.seen = seen
        for item in table(turn).children:
            self.add_item(item)
        for item in self.walk_children():
            if isinstance(item, ui.Button) and item.custom_id:
                item.callback = self._clicked  # type: ignore[method-assign]
            if isinstance(item, ui.Select):
                item.callback = self._selected  # type: ignore[method-assign]

    def _note(self, interaction: discord.Interaction[Any]) -> None:
        msg = interaction.message
        assert msg is not None
        count = len(list(_walk(msg.components)))
        self.seen.clicks.append((str(_data(interaction).get("custom_id")), msg.flags.components_v2, count))

    async def _clicked(self, interaction: discord.Interaction[Any]) -> None:
        self._note(interaction)
        custom_id = str(_data(interaction).get("custom_id"))
        if custom_id == "t:roll":
            await interaction.response.edit_message(view=TableView(self.seen, turn="bob"))
        else:
            private = ui.LayoutView(timeout=None)
            private.add_item(ui.Container(ui.TextDisplay(f"Really {custom_id}?"), accent_colour=GREY))
            await interaction.response.send_message(view=private, ephemeral=True)
            more = ui.LayoutView(timeout=None)
            more.add_item(ui.TextDisplay("Your dice: ⚀ ⚃"))
            self.seen.ephemeral_views += [private, more]
            await interaction.followup.send(view=more, ephemeral=True)

    async def _selected(self, interaction: discord.Interaction[Any]) -> None:
        self._note(interaction)
        self.seen.selected.append([str(v) for v in _data(interaction).get("values", [])])
        await interaction.response.defer()


def _data(interaction: discord.Interaction[Any]) -> dict[str, Any]:
    return dict(interaction.data or {})


def _walk(components: list[Any]) -> Any:
    for comp in components:
        yield comp
        yield from _walk(list(getattr(comp, "children", None) or getattr(comp, "components", None) or []))
        accessory = getattr(comp, "accessory", None)
        if accessory is not None:
            yield accessory


class OldTable(ui.View):
    """A table as posted before the upgrade: an embed with a legacy row; a click converts it (type 7)."""

    def __init__(self, seen: Seen) -> None:
        super().__init__(timeout=None)
        self.seen = seen

    @ui.button(label="Roll", custom_id="old:roll")
    async def roll(self, interaction: discord.Interaction[Any], button: ui.Button[Any]) -> None:
        await interaction.response.edit_message(content=None, embed=None, view=TableView(self.seen))


def make_bot(guild: FakeGuild, seen: Seen) -> commands.Bot:
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.default(), guild_ready_timeout=0.1)

    async def attempt(case: str, coro: Any) -> None:
        try:
            seen.messages[case] = await coro
        except discord.HTTPException as exc:
            seen.errors[case] = (exc.status, exc.code, exc.text)

    @bot.tree.command(name="table", description="Post a V2 table (callback type 4)")
    async def post_table(interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message(view=TableView(seen))

    @bot.tree.command(name="convert", description="An embed table edited into a V2 one")
    async def convert(interaction: discord.Interaction[Any]) -> None:
        channel = interaction.channel
        assert isinstance(channel, discord.TextChannel)
        await interaction.response.send_message(embed=discord.Embed(title="Old reply"), content="old")
        old = await channel.send(embed=discord.Embed(title="Old table", description="alice 3"))
        legacy = await channel.send("legacy", embed=discord.Embed(title="Keeps its embed"))
        await attempt("converted", old.edit(content=None, embed=None, view=TableView(seen)))
        await attempt("reply", interaction.edit_original_response(content=None, embed=None, view=table()))
        await attempt("kept-embed", legacy.edit(content=None, view=table()))  # the embed stays: refused

    @bot.tree.command(name="old", description="An embed table from before the upgrade")
    async def old(interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message("table", embed=discord.Embed(title="Old"), view=OldTable(seen))

    @bot.tree.command(name="defer", description="A deferred ephemeral reply filled with V2")
    async def defer(interaction: discord.Interaction[Any]) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        seen.ephemeral_views += [table(), table(colour=GREY), table("bob", colour=GREY)]
        await interaction.followup.send(view=seen.ephemeral_views[-3])
        sent = await interaction.followup.send(view=seen.ephemeral_views[-2], ephemeral=True, wait=True)
        await sent.edit(view=seen.ephemeral_views[-1])  # PATCH /webhooks/…/messages/{follow-up id}

    @bot.tree.command(name="bad", description="Bodies Discord refuses")
    async def bad(interaction: discord.Interaction[Any]) -> None:
        await interaction.response.defer(ephemeral=True)
        channel = interaction.channel
        assert isinstance(channel, discord.TextChannel)
        await attempt("content", channel.send("hello", view=table()))  # type: ignore[call-overload]  # on purpose
        await attempt("chars", channel.send(view=table(extra_text="x" * 4000)))
        dup = table()
        dup.add_item(ui.ActionRow(ui.Button(label="again", custom_id="t:roll")))
        await attempt("dup", channel.send(view=dup))
        embed = discord.Embed(title="x")
        await attempt("embed", interaction.followup.send(embed=embed, view=table(), wait=True))  # type: ignore[call-overload]
        await interaction.followup.send("done", ephemeral=True)

    async def setup_hook() -> None:
        target = discord.Object(id=guild.id)
        bot.tree.copy_global_to(guild=target)
        await bot.tree.sync(guild=target)

    bot.setup_hook = setup_hook  # type: ignore[method-assign]
    return bot


async def test_a_real_client_sends_edits_and_clicks_v2_tables() -> None:
    async with FakeDiscord() as fake, contextlib.AsyncExitStack() as cleanup:
        guild = fake.add_guild("Tavern")
        general = guild.channel("general")
        alice = fake.add_user("alice", guild=guild)
        seen = Seen()
        bot = make_bot(guild, seen)
        cleanup.push_async_callback(bot.close)
        await cleanup.enter_async_context(run_bot(fake, bot))

        # callback type 4 with a LayoutView: stored as V2, read back with its text, colour and controls
        reply = await (await fake.slash(alice, general, "table")).response()
        board = reply.expect_message()
        assert reply.type == 4 and board.flags == V2 and board.is_v2 and not board.ephemeral
        assert board.content == "" and board.embeds == []
        assert board.text == components_text(table().to_components()) and "Turn: alice" in board.text
        assert board.accent_color == GREEN and board.text_displays()[0] == "# Liar's Dice\nTurn: alice"
        assert board.custom_ids() == ["t:kick:alice", "t:kick:bob", "t:roll", "t:dice", "t:bid"]

        # a button in a container's action row: the interaction reaches the view; type 7 edits in place
        roll = await fake.click(alice, board, "t:roll")
        assert roll.payload["data"] == {"custom_id": "t:roll", "component_type": 2}
        assert (
            roll.payload["message"]["flags"] == V2
            and roll.payload["message"]["components"] == board.history[0].components
        )
        assert (await roll.response()).type == 7
        assert seen.clicks[-1] == ("t:roll", True, 19)  # discord.py parsed the V2 message with all its components
        assert board.edits == 1 and board.is_v2 and "Turn: bob" in board.text
        assert [v.text.splitlines()[1] for v in board.history] == ["Turn: alice", "Turn: bob"]
        assert board.history[0].is_v2 and board.history[1].custom_ids() == board.custom_ids()

        # a select in a container: values arrive, deferred update (6)
        bid = await fake.select(alice, board, "t:bid", ["3"])
        assert bid.payload["data"] == {"custom_id": "t:bid", "component_type": 3, "values": ["3"]}
        assert (await bid.response()).type == 6 and seen.selected == [["3"]]

        # a section's accessory button: an ephemeral V2 reply (64 | 32768) and an ephemeral V2 follow-up
        kick = await fake.click(alice, board, "t:kick:bob")
        private = (await kick.response()).expect_message()
        assert private.flags == EPHEMERAL | V2 and private.visible_to == alice.id
        assert private.text == "Really t:kick:bob?" and private.accent_color == GREY
        (followup,) = await kick.wait_followups(1)
        assert followup.flags == EPHEMERAL | V2 and followup.text == "Your dice: ⚀ ⚃"
        assert seen.clicks[-1][:2] == ("t:kick:bob", True)

        # a deferred reply filled by a V2 follow-up keeps the defer's ephemerality and takes the V2 flag
        deferred = await fake.slash(alice, general, "defer")
        filled = (await deferred.response()).expect_message()
        assert filled.flags == EPHEMERAL | V2 and filled.text == board.history[0].text
        (second,) = await deferred.wait_followups(1)
        assert second.flags == EPHEMERAL | V2 and second.accent_color == GREY
        await fake.wait_for(lambda: second.edits == 1, what="the follow-up's edit")
        assert (
            second.flags == EPHEMERAL | V2 and "Turn: bob" in second.text and second.history[-1].via == "PATCH followup"
        )

        # old embed tables become V2 with content=None, embed=None, view=layout (channel PATCH, @original PATCH)
        convert = await fake.slash(alice, general, "convert")
        await fake.wait_for(lambda: {"converted", "reply", "kept-embed"} <= set(seen.messages) | set(seen.errors))
        assert set(seen.messages) == {"converted", "reply"}
        converted = fake.message(seen.messages["converted"].id)
        assert [v.is_v2 for v in converted.history] == [False, True]
        assert converted.history[0].text == "Old table\nalice 3" and converted.embeds == [] and converted.content == ""
        assert seen.messages["converted"].flags.components_v2  # discord.py read the edited message back
        original = (await convert.response()).expect_message()
        assert original.is_v2 and original.content == "" and original.embeds == [] and original.edits == 1
        status, code, why = seen.errors["kept-embed"]
        assert (status, code) == (400, 50035) and "embeds" in why

        # ... and by a click on the old table's button (UPDATE_MESSAGE, type 7)
        legacy = (await (await fake.slash(alice, general, "old")).response()).expect_message()
        assert not legacy.is_v2 and legacy.text == "table\nOld" and legacy.custom_ids() == ["old:roll"]
        assert (await (await fake.click(alice, legacy, "old:roll")).response()).type == 7
        assert legacy.is_v2 and legacy.content == "" and legacy.embeds == [] and "Turn: alice" in legacy.text
        assert legacy.custom_ids() == board.history[0].custom_ids()

        # Discord's 400s for bad bodies reach the bot as HTTPException and the fake lists them with the reason
        await (await fake.slash(alice, general, "bad")).response()
        await fake.wait_for(lambda: {"content", "chars", "dup", "embed"} <= set(seen.errors))
        assert {case: seen.errors[case][:2] for case in ("content", "chars", "dup", "embed")} == {
            case: (400, 50035) for case in ("content", "chars", "dup", "embed")
        }
        problems = fake.problems()
        assert sum("-> 400/50035" in p for p in problems) == 5, problems  # kept-embed + the 4 above
        assert any("MAX_TEXT_DISPLAY_LENGTH_EXCEEDED" in p for p in problems)
        assert any("COMPONENT_CUSTOM_ID_DUPLICATED" in p for p in problems)
        assert any("content: MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2" in p for p in problems)
        for view in seen.ephemeral_views:
            view.stop()  # discord.py gives an ephemeral follow-up's view a 15-minute timeout (its token's life)
    assert leftover_tasks() == set()


async def test_raw_bodies_41_components_and_the_flag_that_cannot_be_removed() -> None:
    """What discord.py refuses to send itself (a 41st component) and flag edits it never makes, sent raw."""
    async with FakeDiscord() as fake, aiohttp.ClientSession(headers={"Authorization": "Bot t"}) as http:
        general = fake.add_guild("Tavern").channel("general")
        url = f"{fake.base_url}/channels/{general.id}/messages"
        rows = [row(button(f"b{i}a"), button(f"b{i}b")) for i in range(13)]
        rows[0]["components"].append(button("one-too-many"))
        async with http.post(url, json=v2([container(*rows)])) as resp:
            body = await resp.json()
            assert resp.status == 400 and body["code"] == 50035 and body["message"] == "Invalid Form Body"
            assert body["errors"]["components"]["_errors"][0]["code"] == "BASE_TYPE_MAX_LENGTH"
        assert fake.messages == {}

        async with http.post(url, json=v2(table().to_components())) as resp:
            assert resp.status == 200
            message = fake.message(int((await resp.json())["id"]))
        async with http.patch(
            f"{url}/{message.id}", json={"flags": 0, "components": table("bob").to_components()}
        ) as resp:
            assert resp.status == 400  # read as legacy components: the container is not an action row
        assert message.edits == 0
        async with http.patch(f"{url}/{message.id}", json={"flags": 0}) as resp:
            assert resp.status == 200 and (await resp.json())["flags"] == V2  # ignored: the flag stays
        assert message.is_v2 and message.edits == 1
        problems = fake.problems()
        assert any("components.0.type: UNION_TYPE_CHOICES" in p for p in problems), problems
        assert any("without IS_COMPONENTS_V2" in p and "ignored" in p for p in problems), problems

        # a legacy message edited to V2 without clearing its content: refused, explained
        async with http.post(url, json={"content": "old table"}) as resp:
            legacy = fake.message(int((await resp.json())["id"]))
        async with http.patch(f"{url}/{legacy.id}", json=v2([text("new")])) as resp:
            errors = (await resp.json())["errors"]
            assert (
                resp.status == 400 and "keeps the message's current one" in errors["content"]["_errors"][0]["message"]
            )
        async with http.patch(f"{url}/{legacy.id}", json=v2([text("new")], content=None)) as resp:
            assert resp.status == 200 and legacy.is_v2 and legacy.text == "new"


class SeatButton(ui.DynamicItem[ui.Button[Any]], template=r"t:seat:(?P<n>[0-9]+)"):
    """A control that survives restarts inside a V2 layout: discord.py rebuilds the message's LayoutView from the
    interaction's message payload (it needs the flag and every nested component) and swaps this item in."""

    def __init__(self, n: int) -> None:
        super().__init__(ui.Button(label=f"Sit at {n}", custom_id=f"t:seat:{n}"))
        self.n = n

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: ui.Item[Any], match: Any) -> SeatButton:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        view = self.view
        assert isinstance(view, ui.LayoutView)
        for item in view.walk_children():
            if isinstance(item, ui.TextDisplay) and item.content.startswith("Turn:"):
                item.content = f"Turn: seat {self.n}"
        await interaction.response.edit_message(view=view)  # the rebuilt layout goes back through validation


def seats_layout() -> ui.LayoutView:
    view = ui.LayoutView(timeout=None)
    view.add_item(
        ui.Container(
            ui.TextDisplay("Turn: nobody"),
            ui.Section(ui.TextDisplay("seat 1"), accessory=SeatButton(1)),
            ui.Section(ui.TextDisplay("the dice"), accessory=ui.Thumbnail("https://example.com/d6.png")),
            ui.MediaGallery(discord.MediaGalleryItem("https://example.com/d1.png", description="a one")),
            ui.Separator(),
            ui.ActionRow(SeatButton(2)),
            accent_colour=GREEN,
        )
    )
    return view


def make_seat_bot(guild: FakeGuild) -> commands.Bot:
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.default(), guild_ready_timeout=0.1)

    @bot.tree.command(name="seats", description="Post a V2 layout with persistent controls")
    async def seats(interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message(view=seats_layout())

    async def setup_hook() -> None:
        bot.add_dynamic_items(SeatButton)
        target = discord.Object(id=guild.id)
        bot.tree.copy_global_to(guild=target)
        await bot.tree.sync(guild=target)

    bot.setup_hook = setup_hook  # type: ignore[method-assign]
    return bot


async def test_dynamic_items_in_a_v2_layout_work_after_a_restart() -> None:
    async with FakeDiscord() as fake:
        guild = fake.add_guild("Tavern")
        alice = fake.add_user("alice", guild=guild)
        async with run_bot(fake, make_seat_bot(guild)):
            board = (await (await fake.slash(alice, guild.channel("general"), "seats")).response()).expect_message()
        assert board.is_v2 and board.custom_ids() == ["t:seat:1", "t:seat:2"]
        async with run_bot(fake, make_seat_bot(guild)):  # a new process: only the DynamicItem is registered
            for n in (2, 1):  # a button in a container's row, then a section's accessory
                click = await fake.click(alice, board, f"t:seat:{n}")
                assert (await click.response()).type == 7
                assert board.text_displays()[0] == f"Turn: seat {n}"
        assert board.is_v2 and board.edits == 2 and board.accent_color == GREEN
        assert board.text.splitlines()[1:] == ["seat 1", "the dice"]
        assert [c["type"] for c in board.all_components()] == [c["type"] for c in board.history[0].all_components()]
        fake.assert_no_problems()
    assert leftover_tasks() == set()


async def test_custom_emojis_on_controls_must_be_the_applications_own() -> None:
    async with FakeDiscord() as fake, aiohttp.ClientSession(headers={"Authorization": "Bot t"}) as http:
        url = f"{fake.base_url}/channels/{fake.add_guild('Tavern').channel('general').id}/messages"
        die = {"id": "1300000000000000001", "name": "die_6"}
        body = v2([container(text("your dice"), row(button("t:d6", None, emoji=die)))])
        async with http.post(url, json=body) as resp:
            assert resp.status == 400
            errors = (await resp.json())["errors"]
        (line,) = error_lines(errors)
        assert line.startswith("components.0.components.1.components.0.emoji: COMPONENT_INVALID_EMOJI")
        fake.app_emojis = {int(die["id"]): {**die, "animated": False}}  # as if uploaded (tests/fakediscord/emojis.py)
        async with http.post(url, json=body) as resp:
            assert resp.status == 200
        assert sum("COMPONENT_INVALID_EMOJI" in p for p in fake.problems()) == 1
