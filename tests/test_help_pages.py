"""/help's pages as built, in every shipped locale: the overview under 1,500 characters of text, every page (each
game's, the other commands') within Discord's Components V2 limits (40 components, 4,000 characters), nothing cut
short, and still within them for a command tree far bigger than ours (detail is dropped, never a word cut)."""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator
from types import ModuleType
from typing import Any

import discord
import pytest
from discord import app_commands

import bot.i18n as bot_i18n
from bot.client import DiceTavern
from bot.i18n import locales
from bot.translator import discord_languages
from tests.fakediscord import display_length, iter_components, select_options, text_displays

LOCALES = locales()
GAMES = ("pig", "mia", "mex", "liar", "mythic")
OVERVIEW_LIMIT, V2_COMPONENTS, V2_TEXT = 1500, 40, 4000


def discord_locale(locale: str) -> discord.Locale:
    """The Discord client a reader of ``locale`` runs: their own language where Discord has it, else English."""
    return discord.Locale(locale) if locale in discord_languages() else discord.Locale.american_english


@pytest.fixture
async def bot() -> AsyncIterator[DiceTavern]:
    bot = DiceTavern(database_path=":memory:", commands_only=True)
    await bot.setup_hook()
    try:
        yield bot
    finally:
        await bot.close()


def helps_of(bot: DiceTavern) -> ModuleType:
    """The module the extension loaded (not one imported here: its classes are the ones the bot uses)."""
    return sys.modules[type(bot.get_cog("Help")).__module__]


async def pages(bot: DiceTavern, locale: str) -> dict[str, list[dict[str, Any]]]:
    """Every page /help has (its select's values), as the payload Discord gets."""
    helps = helps_of(bot)
    words = helps.Words(bot.tree.translator, discord_locale(locale), locale)
    tree = helps.command_tree(bot, None)
    first = (await helps.build_page(words, tree, helps.OVERVIEW)).to_components()
    values = [str(o["value"]) for o in select_options(first)]
    return {value: (await helps.build_page(words, tree, value)).to_components() for value in values}


def problems_of(what: str, components: list[dict[str, Any]], text_limit: int = V2_TEXT) -> list[str]:
    problems = []
    count = sum(1 for _ in iter_components(components))
    if count > V2_COMPONENTS:
        problems.append(f"{what}: {count} components")
    if (length := display_length(components)) > text_limit:
        problems.append(f"{what}: {length} characters of text")
    options = select_options(components)
    if not 1 <= len(options) <= 25:
        problems.append(f"{what}: {len(options)} options")
    for option in options:
        if len(option["label"]) > 100 or len(option.get("description") or "") > 100:
            problems.append(f"{what}: option {option['value']!r} runs long")
    return problems


@pytest.mark.parametrize("locale", LOCALES)
async def test_the_overview_is_short_and_every_page_fits_uncut(bot, locale):
    shown = await pages(bot, locale)
    helps = helps_of(bot)
    assert list(shown) == [helps.OVERVIEW, *GAMES, helps.OTHERS]  # the registry's order, then the rest
    problems = problems_of(f"{locale} overview", shown[helps.OVERVIEW], OVERVIEW_LIMIT)
    for value, components in shown.items():
        problems += problems_of(f"{locale} {value}", components)
        cut = [text[:40] for text in text_displays(components) if "\n…" in text or text == "…"]
        problems += [f"{locale} {value}: lines left out ({c!r}…)" for c in cut]
        # the select stays on every page, showing the page it is on
        chosen = [o["value"] for o in select_options(components) if o.get("default")]
        problems += [f"{locale} {value}: the select marks {chosen}" for _ in [1] if chosen != [value]]
    assert problems == [], "\n".join(problems)


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_game_page_shows_its_commands_options_shared_commands_buttons_and_rules(bot, locale):
    helps = helps_of(bot)
    words = helps.Words(bot.tree.translator, discord_locale(locale), locale)
    tree = helps.command_tree(bot, None)
    for game in GAMES:
        group = tree.group_of(game)
        text = "\n".join(text_displays((await helps.build_page(words, tree, game)).to_components()))
        path = await words.path(group)
        for command in helps.leaves(group):
            name = await words.path(command)
            listed = f"`/{name}` —" in text or f"`{name.split(' ')[-1]}` —" in text
            assert listed, (locale, name)
            if command.name not in tree.shared:
                for param in command.parameters:
                    option, description = await words.parameter(param)
                    assert f"`{option}` — {description}" in text, (locale, name, option)
        rules = next(c for c in group.commands if c.name == "rules")
        assert f"`/{await words.path(rules)}`" in text and f"`/{path}`" in text


async def noop(interaction: discord.Interaction) -> None:
    pass


def grow_huge(tree: app_commands.CommandTree) -> dict[str, list[str]]:
    """40 extra groups of 20 commands, and every game group at Discord's 25 subcommands, each with a long
    description; the names added to each game."""
    for n in range(40):
        group = app_commands.Group(name=f"extra{n}", description="An extra group " + "x" * 90)
        for m in range(20):
            group.add_command(app_commands.Command(name=f"c{m}", description="y" * 100, callback=noop))
        tree.add_command(group)
    added: dict[str, list[str]] = {}
    for game in GAMES:
        group = tree.get_command(game)
        assert isinstance(group, app_commands.Group)
        added[game] = [f"move{m}" for m in range(25 - len(group.commands))]
        for name in added[game]:
            group.add_command(app_commands.Command(name=name, description=game + " z" * 50, callback=noop))
    return added


async def test_a_huge_tree_still_fits_in_every_locale(bot):
    added = grow_huge(bot.tree)
    helps = helps_of(bot)
    for locale in LOCALES:
        shown = await pages(bot, locale)
        problems = problems_of(f"{locale} overview", shown[helps.OVERVIEW], OVERVIEW_LIMIT)
        for value, components in shown.items():
            problems += problems_of(f"{locale} {value}", components)
        assert problems == [], "\n".join(problems)
        overview = "\n".join(text_displays(shown[helps.OVERVIEW]))
        assert all(f"**{helps.game_name(game, locale)}**" in overview for game in GAMES)  # every game, still
        assert "`/extra0`" in overview and len(overview) <= OVERVIEW_LIMIT
        pig = "\n".join(text_displays(shown["pig"]))
        assert added["pig"] and all(f" {name}`" in pig for name in added["pig"])  # by their names at least
        assert "📖" in pig  # and where the rules are
        for text in text_displays(shown["pig"]) + text_displays(shown[helps.OTHERS]):
            # what did not fit goes by whole lines (a lone "…" says so), never a line cut short
            cut = [line for line in text.split("\n") if line.endswith("…") and line != "…"]
            assert cut == [], cut


@pytest.mark.parametrize("locale", ["de", "cy"])
async def test_a_translation_that_runs_long_drops_detail_never_a_word(bot, locale):
    """Options' descriptions go first (their names stay); an overview far too long keeps whole words only."""
    helps = helps_of(bot)
    long = {
        "help.option": "  · `{option}` — {description} " + "Wort " * 60,
        "help.about": "Wort " * 400,
    }
    with bot_i18n.overridden({locale: long}):
        shown = await pages(bot, locale)
        options = bot_i18n.t("help.options", locale, options="")
    problems = []
    for value, components in shown.items():
        limit = OVERVIEW_LIMIT if value == helps.OVERVIEW else V2_TEXT
        problems += problems_of(f"{locale} {value}", components, limit)
        for text in text_displays(components):
            problems += [f"{locale} {value}: {line[-30:]!r}" for line in text.split("\n") if line.endswith("Wor…")]
    assert problems == [], "\n".join(problems)
    pig = "\n".join(text_displays(shown["pig"]))
    target = "`ziel`" if locale == "de" else "`target`"  # as the reader's command picker names it
    assert options.strip() + " " in pig and target in pig and "Wort" not in pig  # names only, no descriptions
    overview = "\n".join(text_displays(shown[helps.OVERVIEW]))
    assert "Wort Wort" in overview and "\n…" in overview  # as many whole words as fit, a lone "…" for the rest
    assert all(f"**{bot_i18n.t(f'game.{game}', locale)}**" in overview for game in GAMES)  # the games stay


def test_the_select_custom_id_matches_no_other_control():
    import re

    from cogs.help import HELP_MENU, HelpMenu
    from cogs.history import HISTORY_ID, REPLAY_ID
    from cogs.privacy import PRIVACY_ID
    from cogs.stats import EXPLAIN_ID, PAGE_ID
    from cogs.utils.components import DM_RETRY, TableButton, TableSelect
    from cogs.utils.rematch import REMATCH_ID

    others = [HISTORY_ID, REPLAY_ID, PRIVACY_ID, PAGE_ID, EXPLAIN_ID, DM_RETRY, REMATCH_ID]
    others += [item.__discord_ui_compiled_template__.pattern for item in (TableButton, TableSelect)]
    assert not any(re.fullmatch(pattern, HELP_MENU) for pattern in others)
    assert HelpMenu.__discord_ui_compiled_template__.fullmatch(HELP_MENU)


@pytest.mark.parametrize("locale", LOCALES)
async def test_the_other_commands_page_has_each_tournament_command_described_in_the_readers_language(bot, locale):
    helps = helps_of(bot)
    words = helps.Words(bot.tree.translator, discord_locale(locale), locale)
    others = "\n".join(text_displays((await pages(bot, locale))[helps.OTHERS]))
    group = next(c for c in bot.tree.get_commands() if c.name == "tournament")
    assert isinstance(group, app_commands.Group)
    for command in group.commands:
        line = next((x for x in others.split("\n") if words.describe(command) in x), None)
        assert line is not None, (locale, command.name, others)
        assert bot_i18n.t(f"tournament.cmd_{command.name}", locale) in line  # from tournament.json, not English
