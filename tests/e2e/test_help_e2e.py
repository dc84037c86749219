"""/help end to end: a short private overview (Components V2, the table's design) with a select that turns the same
message into each game's page and back, /help game:<x> opening a page directly, the select answering after a
restart, a forged choice refused cleanly; all read from the command tree, localised, within Discord's limits."""

from __future__ import annotations

from typing import Any

import discord
import pytest
from discord import app_commands

from bot.i18n import t
from tests.e2e.conftest import World
from tests.test_help_pages import grow_huge
from tests.waiting import DEADLINE

pytestmark = pytest.mark.usefixtures("no_errors_logged")  # nothing here may log a traceback

MENU = "help:menu"
GAMES = ("pig", "mia", "mex", "liar", "mythic")
OVERVIEW, OTHERS = "~overview", "~others"
OVERVIEW_LIMIT, V2_COMPONENTS, V2_TEXT = 1500, 40, 4000
# the command names a German Discord client shows (through the tree's translator)
GERMAN = {"pig": "schweinchen", "mia": "mäxchen", "mex": "mex", "liar": "bluff", "mythic": "mythos"}


def assert_v2_within_limits(message: Any, text_limit: int = V2_TEXT) -> None:
    assert message.is_v2 and message.ephemeral
    assert message.component_count <= V2_COMPONENTS and message.display_length <= text_limit
    assert len(message.containers()) == 1 and [s["custom_id"] for s in message.selects()] == [MENU]


async def open_help(world: World, user: Any, locale: str = "en-US", **options: Any) -> Any:
    record = await world.fake.slash(user, world.channel, "help", options=options or None, locale=locale)
    reply = await record.response()
    assert reply.type == 4 and reply.ephemeral, reply
    return reply.expect_message()


async def choose(world: World, user: Any, message: Any, value: str, locale: str = "en-US") -> Any:
    """Pick ``value`` in the /help select: the bot edits that same message in place (callback type 7)."""
    before = message.edits
    reply = await (await world.fake.select(user, message, MENU, [value], locale=locale)).response()
    assert reply.type == 7 and reply.message is message and message.edits == before + 1, reply
    return message


def typed_commands(world: World) -> list[str]:
    """Every command a user can type, from what the bot registered with (the fake) Discord."""
    paths = []
    for command in world.fake.registered_commands():
        subs = [o for o in command.get("options", []) if o["type"] in (1, 2)]
        if not subs:
            paths.append(command["name"])
        for sub in subs:
            inner = [o for o in sub.get("options", []) if o["type"] == 1]
            paths += [f"{command['name']} {sub['name']} {o['name']}" for o in inner] or [
                f"{command['name']} {sub['name']}"
            ]
    return paths


@pytest.mark.parametrize("locale", ["en-US", "de"])
async def test_help_is_a_short_private_overview_with_a_select_of_the_games(world: World, locale: str):
    lang = "de" if locale == "de" else "en"
    async with world.bot():
        message = await open_help(world, world.carol, locale)
        assert_v2_within_limits(message, OVERVIEW_LIMIT)
        text = message.text
        new = "`/schweinchen neu`" if lang == "de" else "`/pig new`"  # how a game starts, as the picker names it
        assert new in text and t("help.title", lang) in text
        for label in ("join", "start", "my_dice"):  # the table's buttons and the secret dice
            assert f"**{t(f'ui.{label}', lang)}**" in text
        for game in GAMES:  # one short line each: its name and its command group
            group = GERMAN[game] if lang == "de" else game
            assert f"**{t(f'game.{game}', lang)}** `/{group}` — {t(f'help.about_{game}', lang)}" in text
        me, settings = ("`/ich`", "`/einstellungen`") if lang == "de" else ("`/me`", "`/settings`")
        assert me in text and t("help.for_managers", lang, command=settings) in text  # the rest in one line
        (select,) = message.selects()
        assert select["placeholder"] == t("help.menu", lang)
        options = message.options()
        assert [o["value"] for o in options] == [OVERVIEW, *GAMES, OTHERS]
        assert [o["label"] for o in options[1:-1]] == [t(f"game.{g}", lang) for g in GAMES]
        assert all(o.get("description") for o in options) and options[0].get("default")
        assert "(Pig)" not in text and "target" not in text  # no game's detail on the overview


@pytest.mark.parametrize("locale", ["en-US", "it"])
async def test_the_select_turns_the_same_message_into_each_game_page_and_back(world: World, locale: str):
    lang = "it" if locale == "it" else "en"
    async with world.bot() as bot:
        message = await open_help(world, world.alice, locale)
        overview = message.text
        rules = t("help.rules", lang, rules="")
        for game in GAMES:
            await choose(world, world.alice, message, game, locale)
            assert_v2_within_limits(message)
            text = message.text
            group = bot.tree.get_command(game)
            assert isinstance(group, app_commands.Group)
            path = await bot.tree.translator.translate(
                app_commands.locale_str(game),
                discord.Locale(locale),
                app_commands.TranslationContext(app_commands.TranslationContextLocation.group_name, group),
            )
            path = path or game
            assert t("help.page_title", lang, game=t(f"game.{game}", lang), group=path) in text
            assert t("help.own", lang) in text and t("help.shared", lang) in text
            assert rules in text and f"`/{path} " in text.split(rules)[1]  # where the full rules are
            assert f"**{t('ui.my_dice', lang)}**" in text and t("ui.add_bot", lang) in text  # the table's buttons
            chosen = [o["value"] for o in message.options() if o.get("default")]
            assert chosen == [game] and len(message.options()) == 7  # the select stays, on the page it shows
        await choose(world, world.alice, message, OVERVIEW, locale)
        assert message.text == overview
        await choose(world, world.alice, message, OTHERS, locale)
        assert_v2_within_limits(message)
        assert t("help.others_title", lang) in message.text


async def test_a_game_page_lists_its_commands_with_their_options(world: World):
    async with world.bot():
        text = (await choose(world, world.bob, await open_help(world, world.bob), "pig")).text
        assert "`/pig roll` — Roll the die (or dice)" in text  # a game's own command, with its description
        assert "  · `target` — Points needed to win (20-500)" in text  # its options, with theirs
        assert "`join` — Join the table in this channel" in text  # a shared one, once, by its short name
        assert "`/pig join`" not in text
        assert text.index("/pig new") < text.index("/pig hold") < text.index("`join` —")  # its own commands first
        assert "📖 The full rules and this table's options: `/pig rules`" in text


@pytest.mark.parametrize("locale", ["en-US", "de"])
async def test_help_game_opens_that_page_directly(world: World, locale: str):
    lang = "de" if locale == "de" else "en"
    async with world.bot():
        for game in GAMES:
            message = await open_help(world, world.bob, locale, game=game)
            assert_v2_within_limits(message)
            group = GERMAN[game] if lang == "de" else game
            assert t("help.page_title", lang, game=t(f"game.{game}", lang), group=group) in message.text
            assert [o["value"] for o in message.options() if o.get("default")] == [game]
        text = (await open_help(world, world.alice, locale, game="pig")).text
        joined = "`beitreten` — Dem Tisch in diesem Kanal beitreten" if lang == "de" else "`join` — Join the table"
        assert joined in text  # names through the tree's translator, descriptions from the catalog


async def test_the_select_works_after_a_restart(world: World):
    async with world.bot():
        message = await open_help(world, world.alice, "de")
        overview = message.text
    async with world.bot():  # the same database; the fake Discord keeps the message
        await choose(world, world.alice, message, "liar", "de")
        assert "`/bluff`" in message.text and "Bluff" in message.text
        await choose(world, world.alice, message, OVERVIEW, "de")
        assert message.text == overview
    world.fake.assert_no_problems()


@pytest.mark.parametrize(
    ("values", "shown"),
    [(["banana"], "banana"), (["pig", "mia"], "pig, mia"), ([], "?"), (["x" * 300], "x" * 40 + "…")],
)
async def test_a_forged_choice_is_refused_cleanly_and_changes_nothing(world: World, values: list[str], shown: str):
    async with world.bot():
        message = await open_help(world, world.alice)
        before = (message.edits, message.text, message.components)
        data = {"custom_id": MENU, "component_type": 3, "values": values}  # what no client sends
        record = await world.fake._component_interaction(world.alice, message, MENU, data, None, DEADLINE)
        reply = await record.response()
        assert reply.type == 4 and reply.ephemeral and reply.message is not message
        assert reply.text == "⚠️ " + t("error.unknown_game", game=shown)  # the one error path's words
        assert (message.edits, message.text, message.components) == before
    world.fake.assert_no_problems()


async def test_every_registered_command_is_on_the_overview_or_its_page(world: World):
    async with world.bot():
        message = await open_help(world, world.carol)
        overview = message.text
        pages = {}
        for value in [o["value"] for o in message.options()][1:]:
            pages[value] = (await choose(world, world.carol, message, value)).text
        paths = typed_commands(world)
        assert {"pig kick", "mia host", "game cancel", "leaderboard", "help", "settings season start"} <= set(paths)
        for path in paths:
            first, *rest = path.split()
            assert f"`/{first}`" in overview, path  # every top-level command, on the overview
            page = pages.get(first, pages[OTHERS])
            assert f"`/{path}` —" in page or (first in GAMES and f"`{rest[-1]}` —" in page), path


async def test_a_command_added_to_the_tree_shows_up_in_help(world: World):
    async with world.bot() as bot:

        async def shout(interaction: discord.Interaction) -> None:
            pass

        bot.tree.add_command(app_commands.Command(name="shout", description="Shout across the tavern", callback=shout))
        group = app_commands.Group(name="darts", description="Darts: a game for another day")
        group.add_command(app_commands.Command(name="throw", description="Throw a dart", callback=shout))
        bot.tree.add_command(group)
        message = await open_help(world, world.carol)
        assert "`/shout`" in message.text and "`/darts`" in message.text
        text = (await choose(world, world.carol, message, OTHERS)).text
        assert "`/shout` — Shout across the tavern" in text and "`/darts throw` — Throw a dart" in text


async def test_help_stays_within_discords_limits_for_a_huge_tree(world: World):
    async with world.bot() as bot:
        grow_huge(bot.tree)
        for locale in ("en-US", "de"):
            message = await open_help(world, world.carol, locale)
            assert_v2_within_limits(message, OVERVIEW_LIMIT)
            assert "`/extra0`" in message.text
            for value in [*GAMES, OTHERS]:
                await choose(world, world.carol, message, value, locale)
                assert_v2_within_limits(message)
            assert "move0`" in (await open_help(world, world.carol, locale, game="mythic")).text
