"""/help: a short overview and one page per game, read from the command tree (never a hand-kept list).

``/help`` answers privately with a Components V2 message in the table's design: what the bot is, how a game starts
and is played, the games (one line each) and the other commands (one line), then a select ("Open a game's page…").
Choosing in the select edits that same message in place into a game's page (its commands with their options, the
commands every game shares, the table buttons, where the rules are), the other commands' page, or the overview
again. ``/help game:<x>`` opens a game's page directly. The overview ends with whom to ask about one's data
(``bot.privacy_contact``: the operator's contact, else the server's, else "whoever runs this bot"). The select is a
``DynamicItem`` whose custom id (``help:menu``) holds nothing, so it works after a restart: every page is rebuilt
from the tree on each choice.

Names go through the tree's translator, the one that gives Discord the commands' localisations, so /help reads
like the command picker in the reader's language; descriptions come from the catalog. Discord's V2 limits (40
components, 4,000 characters of text) and the overview's own budget (1,500) are kept by dropping detail (options'
descriptions first), then whole lines, never by a failed reply or a word cut in half.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

import discord
from discord import app_commands
from discord.app_commands import TranslationContext, TranslationContextLocation
from discord.ext import commands

from bot.games import specs
from bot.games.parsing import clip
from bot.i18n import has, t
from bot.privacy_contact import contact_line, privacy_contact
from bot.tables import TableError
from bot.translator import key_for
from cogs.utils.components import COLOURS, MAX_CHOICES, MAX_LABEL, V2_TEXT, Blocks
from cogs.utils.games import game_choices
from cogs.utils.replies import answer_error, anywhere, locale_of, send_ephemeral

if TYPE_CHECKING:
    from bot.client import DiceTavern

Node = app_commands.Command[Any, ..., Any] | app_commands.Group

HELP_MENU = "help:menu"  # the select's custom id; no other pattern (dt: ds: dm: rm: lb: hist: rp: pv:) matches
OVERVIEW, OTHERS = "~overview", "~others"  # the select's values that are no game (a game's key is a word)
OVERVIEW_LIMIT = 1500  # characters of text: the overview must read at a glance
HEAD_LIMIT = 700  # of which what the bot is and how a game goes (about 450 in every shipped language)
PAGE_LIMIT = V2_TEXT - 100  # a page's text, with room to spare under Discord's 4,000
MAX_DESCRIPTION = 100  # Discord's limit for a select option's description
ACCENT = COLOURS["lobby"]


def shorten(text: str, limit: int) -> str:
    """``text`` within ``limit`` characters, cut after a whole word with an ellipsis when it is longer."""
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    space = cut.rfind(" ")
    return (cut[:space] if space > 0 else cut).rstrip(" ,;:·—-") + "…"


def fit(lines: Sequence[str], limit: int) -> str:
    """Whole lines within ``limit`` characters; an ellipsis line marks what was left out."""
    kept: list[str] = []
    size = 0
    for line in lines:
        if size + len(line) + 1 > limit - 2:
            kept.append("…" if kept else shorten(line, limit))
            break
        kept.append(line)
        size += len(line) + 1
    return "\n".join(kept)


def leaves(node: Node) -> list[app_commands.Command[Any, ..., Any]]:
    """The commands one can type under ``node`` (itself, for a plain command), in the tree's order."""
    if isinstance(node, app_commands.Command):
        return [node]
    return [c for c in node.walk_commands() if isinstance(c, app_commands.Command)]


def shared_commands(groups: Sequence[app_commands.Group]) -> list[str]:
    """Subcommands every game group has with the same description and the same options: listed once, not once
    per game (``new``, whose options are each game's own, stays on each game's page)."""
    if len(groups) < 2:
        return []

    def described(group: app_commands.Group) -> dict[str, tuple[str, tuple[str, ...]]]:
        return {
            c.name: (c.description, tuple(p.name for p in c.parameters))
            for c in group.commands
            if isinstance(c, app_commands.Command)
        }

    first, *rest = [described(g) for g in groups]
    return [name for name, text in first.items() if all(d.get(name) == text for d in rest)]


def for_managers(node: Node) -> bool:
    """A command Discord shows only to server managers (its default permissions ask for Manage Server)."""
    permissions = node.default_permissions
    return permissions is not None and permissions.manage_guild


class Words:
    """Command texts for one reader. Names as Discord shows them in the reader's command picker: through the tree's
    translator for their Discord locale (localised in it/ru/el/de, English otherwise, e.g. for a Welsh reader).
    Descriptions from the catalog in the reader's language (``locale``, which may be Welsh or Estonian)."""

    def __init__(self, translator: app_commands.Translator | None, discord_locale: discord.Locale, locale: str) -> None:
        self.translator = translator
        self.discord_locale = discord_locale
        self.locale = locale

    async def name(self, text: str, context: TranslationContext[Any, Any]) -> str:
        if self.translator is None:
            return text
        done = await self.translator.translate(app_commands.locale_str(text), self.discord_locale, context)
        return done or text

    def text(self, text: str, context: TranslationContext[Any, Any]) -> str:
        key = key_for(app_commands.locale_str(text), context)
        return t(key, self.locale) if key is not None and has(key, self.locale) else text

    async def path(self, node: Node | None) -> str:
        """``pig roll`` as the reader types it."""
        parts = []
        while node is not None:
            context: TranslationContext[Any, Any]
            if isinstance(node, app_commands.Command):
                context = TranslationContext(TranslationContextLocation.command_name, node)
            else:
                context = TranslationContext(TranslationContextLocation.group_name, node)
            parts.append(await self.name(node.name, context))
            node = node.parent
        return " ".join(reversed(parts))

    def describe(self, node: Node) -> str:
        context: TranslationContext[Any, Any]
        if isinstance(node, app_commands.Group):
            context = TranslationContext(TranslationContextLocation.group_description, node)
        else:
            context = TranslationContext(TranslationContextLocation.command_description, node)
        return self.text(node.description, context)

    async def parameter(self, param: app_commands.Parameter) -> tuple[str, str]:
        """An option's name and description."""
        name: TranslationContext[Any, Any] = TranslationContext(TranslationContextLocation.parameter_name, param)
        described: TranslationContext[Any, Any] = TranslationContext(
            TranslationContextLocation.parameter_description, param
        )
        return await self.name(param.display_name, name), self.text(param.description, described)

    async def line(self, command: Node, short: bool = False) -> str:
        path = await self.path(command)
        name = path.split(" ")[-1] if short else "/" + path
        return t("help.line", self.locale, command=name, description=self.describe(command))


@dataclass
class Tree:
    """What /help shows, read from the command tree for one reader: the game groups (name -> game key) in the
    tree's order, the other top-level commands, and the subcommands the games share."""

    games: list[tuple[app_commands.Group, str]]
    others: list[Node]
    shared: list[str]

    def group_of(self, game: str) -> app_commands.Group | None:
        return next((group for group, key in self.games if key == game), None)


def game_name(game: str, locale: str) -> str:
    named = {s.id: s.name_key for s in specs()}
    return t(named[game], locale) if game in named else game


def game_about(words: Words, group: app_commands.Group, game: str) -> str:
    """A game's one short line: the catalog's (help.about_<game>), else its group's description."""
    key = f"help.about_{game}"
    return t(key, words.locale) if has(key, words.locale) else words.describe(group)


def shown_length(blocks: Sequence[str]) -> int:
    """The characters the blocks show, read as one text (a line break between blocks)."""
    return sum(map(len, blocks)) + len(blocks) - 1


async def privacy_lines(words: Words, tree: Tree, server_contact: str | None) -> tuple[str, str]:
    """The overview's line on one's data, with whom to ask and without ("" when the tree has no /privacy info)."""
    group = next((n for n in tree.others if isinstance(n, app_commands.Group) and n.name == "privacy"), None)
    info = next((c for c in group.commands if c.name == "info"), None) if group is not None else None
    if info is None:
        return "", ""
    command = f"`/{await words.path(info)}`"
    contact = contact_line(words.locale, privacy_contact(), server_contact).replace("\n", " · ")
    return (
        f"-# {t('help.privacy', words.locale, command=command, contact=contact)}",
        f"-# {t('help.privacy_short', words.locale, command=command)}",
    )


async def overview(words: Words, tree: Tree, server_contact: str | None = None) -> list[str]:
    """The overview's text blocks: what the bot is and how a game goes, the games, the other commands in one
    line, whom to ask about one's data. Within OVERVIEW_LIMIT: the last line loses whom to ask first (/privacy
    info has it), then the other commands' line loses names from its end (their page has them)."""
    locale = words.locale
    new = next((c for c in tree.games[0][0].commands if c.name == "new"), None) if tree.games else None
    path = await words.path(new) if new is not None else "<game> new"
    buttons = {k: t(f"ui.{k}", locale) for k in ("join", "start", "my_dice")}
    how = t("help.how", locale, new=f"`/{path}`", command=path.split(" ")[-1], **buttons)
    head = "\n".join([f"## {t('help.title', locale)}", t("help.about", locale), "", how])
    games = [f"### {t('help.games', locale)}"]
    for group, game in tree.games:
        name, path = game_name(game, locale), await words.path(group)
        games.append(t("help.game_line", locale, game=name, group=path, about=game_about(words, group, game)))
    names = []
    for node in tree.others:
        name = f"`/{await words.path(node)}`"
        names.append(t("help.for_managers", locale, command=name) if for_managers(node) else name)
    private, private_short = await privacy_lines(words, tree, server_contact)
    foot = "\n".join(line for line in (private, f"-# {t('help.pick', locale)}") if line)
    if len(head) > HEAD_LIMIT:  # a translation that runs very long: its whole words that fit
        head = "\n".join(whole_lines([head], HEAD_LIMIT))
    blocks = [head, "\n".join(games), t("help.others", locale, commands=" · ".join(names)), foot]
    if shown_length(blocks) > OVERVIEW_LIMIT and private:
        blocks[3] = foot = foot.replace(private, private_short, 1)
    while shown_length(blocks) > OVERVIEW_LIMIT and names:
        names.pop()
        blocks[2] = t("help.others", locale, commands=" · ".join([*names, "…"]))
    if shown_length(blocks) > OVERVIEW_LIMIT:  # a tree of hundreds of games: whole lines only
        blocks[1] = fit(games, max(OVERVIEW_LIMIT - len(head) - len(blocks[2]) - len(foot) - 3, 40))
    if shown_length(blocks) > OVERVIEW_LIMIT:  # long translations everywhere: whole lines, then words
        blocks = whole_lines(blocks, OVERVIEW_LIMIT)
    return blocks


async def command_lines(words: Words, command: app_commands.Command[Any, ..., Any], level: int) -> list[str]:
    """One command and, by ``level``, its options with their descriptions (0), their names only (1), none (2+)."""
    lines = [await words.line(command)]
    if level == 0:
        for param in command.parameters:
            option, text = await words.parameter(param)
            lines.append(t("help.option", words.locale, option=option, description=text))
    elif level == 1 and command.parameters:
        names = [f"`{(await words.parameter(p))[0]}`" for p in command.parameters]
        lines.append(t("help.options", words.locale, options=" ".join(names)))
    return lines


async def game_page(words: Words, tree: Tree, group: app_commands.Group, game: str) -> list[str]:
    """A game's page: its own commands with their options, the commands every game shares, the table's buttons and
    where the rules are. Less detail while it runs past PAGE_LIMIT: options' descriptions, then options, then the
    shared commands' descriptions, then the own commands' descriptions; whole lines after that."""
    locale = words.locale
    path, name = await words.path(group), game_name(game, locale)
    head = "\n".join([f"## {t('help.page_title', locale, game=name, group=path)}", words.describe(group)])
    own = [c for c in leaves(group) if c.name not in tree.shared or c.parent is not group]
    shared = [c for c in group.commands if isinstance(c, app_commands.Command) and c.name in tree.shared]
    buttons = t(
        "help.buttons",
        locale,
        **{k: t(f"ui.{k}", locale) for k in ("join", "leave", "start", "add_bot", "host_tools", "my_dice")},
    )
    rules = f"`/{path} {await rules_name(words, group)}`"
    foot = "\n".join([buttons, t("help.rules", locale, rules=rules)])
    blocks: list[str] = []
    for level in range(5):
        own_lines = [f"### {t('help.own', locale)}"]
        if level < 4:
            for command in own:
                own_lines += await command_lines(words, command, level)
        else:
            own_lines.append(" · ".join([f"`/{await words.path(c)}`" for c in own]))
        shared_lines = [f"### {t('help.shared', locale)}"] if shared else []
        if shared and level < 3:
            shared_lines += [await words.line(c, short=True) for c in shared]
        elif shared:
            shared_lines.append(" · ".join([f"`{(await words.path(c)).split(' ')[-1]}`" for c in shared]))
        blocks = [head, "\n".join(own_lines), "\n".join(shared_lines), foot]
        if sum(map(len, blocks)) <= PAGE_LIMIT:
            return [b for b in blocks if b]
    return whole_lines([b for b in blocks if b], PAGE_LIMIT)


async def rules_name(words: Words, group: app_commands.Group) -> str:
    rules = next((c for c in group.commands if c.name == "rules"), None)
    return (await words.path(rules)).split(" ")[-1] if rules is not None else "rules"


async def others_page(words: Words, tree: Tree) -> list[str]:
    """Every other command (not a game's) with its description; names only, then whole lines, if it must."""
    locale = words.locale
    head = f"## {t('help.others_title', locale)}"
    commands_ = [c for node in tree.others for c in leaves(node)]
    lines = [await words.line(c) for c in commands_]
    blocks = [head, "\n".join(lines)]
    if sum(map(len, blocks)) > PAGE_LIMIT:
        blocks[1] = " · ".join([f"`/{await words.path(c)}`" for c in commands_])
    return whole_lines(blocks, PAGE_LIMIT)


def whole_lines(blocks: list[str], limit: int) -> list[str]:
    """The last resort for a tree too big to show: each block's whole lines (or words) up to what is left."""
    kept: list[str] = []
    left = limit
    for block in blocks:
        if left < 20:
            break
        lines = [piece for line in block.split("\n") for piece in wrap(line, left)]
        text = fit(lines, left)
        kept.append(text)
        left -= len(text)
    return kept


def wrap(line: str, limit: int) -> list[str]:
    """A line longer than ``limit`` as lines of whole words (a names-only line of a huge group), short enough
    that as many of them are kept as fit."""
    if len(line) <= limit:
        return [line]
    return textwrap.wrap(line, min(limit, 200) - 2, break_long_words=False, break_on_hyphens=False)


def menu_options(words: Words, tree: Tree, current: str) -> list[discord.SelectOption]:
    """The select's options: the overview, each game (its name and short line), the other commands."""
    locale = words.locale

    def option(label: str, value: str, description: str) -> discord.SelectOption:
        description = description[:1].upper() + description[1:]  # a game's line runs on after its name elsewhere
        return discord.SelectOption(
            label=shorten(label, MAX_LABEL),
            value=value,
            description=shorten(description, MAX_DESCRIPTION) or None,
            default=value == current,
        )

    options = [option(t("help.overview", locale), OVERVIEW, t("help.overview_about", locale))]
    room = MAX_CHOICES - 1 - (1 if tree.others else 0)
    for group, game in tree.games[:room]:
        options.append(option(game_name(game, locale), game, game_about(words, group, game)))
    if tree.others:
        options.append(option(t("help.others_title", locale), OTHERS, t("help.others_about", locale)))
    return options


class HelpMenu(discord.ui.DynamicItem[discord.ui.Select[Any]], template=re.escape(HELP_MENU)):
    """The select below every /help page: a game's key, OVERVIEW or OTHERS. Nothing is kept in memory or in the
    custom id, so it answers after a restart; a value we never drew is refused through the one error path."""

    def __init__(self, options: list[discord.SelectOption] | None = None, placeholder: str | None = None) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=HELP_MENU, options=options or [discord.SelectOption(label="-")], placeholder=placeholder
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> HelpMenu:
        return cls()  # the chosen value arrives with the interaction (the select's values)

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            values = self.item.values
            if len(values) != 1:
                raise TableError("unknown_game", game=clip(", ".join(values) or "?", 40))
            view = await page(interaction, values[0])
            await interaction.response.edit_message(view=view)  # the same private message, in place (type 7)
        except Exception as error:  # a refusal, or anything else: answered, never "This interaction failed"
            await answer_error(interaction, error)


class Help(commands.Cog):
    def __init__(self, bot: DiceTavern) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(HelpMenu)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(HelpMenu)

    @app_commands.command(name="help", description=t("cmd.help"))
    @app_commands.describe(game=t("cmd.help_game"))
    @app_commands.choices(game=game_choices(named=True))
    @anywhere
    async def help_command(
        self, interaction: discord.Interaction, game: app_commands.Choice[str] | None = None
    ) -> None:
        try:
            view = await page(interaction, OVERVIEW if game is None else game.value)
        except TableError as error:
            await answer_error(interaction, error)
            return
        await send_ephemeral(interaction, view=view)


async def page(interaction: discord.Interaction, value: str) -> discord.ui.LayoutView:
    """The page ``value`` names (a game's key, OVERVIEW or OTHERS) with the select below it, for this reader.
    TableError("unknown_game") for a game the tree does not hold (a forged or an old value)."""
    bot = cast("DiceTavern", interaction.client)  # the client is always our bot
    words = Words(bot.tree.translator, interaction.locale, locale_of(interaction))
    contact = await bot.tables.privacy_contact(interaction.guild_id) if value == OVERVIEW else None
    return await build_page(words, command_tree(bot, interaction.guild), value, contact)


def command_tree(bot: DiceTavern, guild: discord.abc.Snowflake | None) -> Tree:
    """Every slash command and group the tree holds (global, then this server's own), the games first in the
    registry's order (each game's command group is its cog)."""
    chat = discord.AppCommandType.chat_input
    found: dict[str, Node] = {}
    for scope in (None, guild) if guild is not None else (None,):
        for node in bot.tree.get_commands(guild=scope, type=chat):
            if isinstance(node, app_commands.Command | app_commands.Group):
                found.setdefault(node.name, node)
    keys = {cog.app_command.name: game for game, cog in bot.game_cogs.items() if cog.app_command is not None}
    games = [(n, keys[n.name]) for n in found.values() if isinstance(n, app_commands.Group) and n.name in keys]
    order = {s.id: n for n, s in enumerate(specs())}  # as /help game: lists them
    games.sort(key=lambda found_game: order.get(found_game[1], len(order)))
    others = [n for n in found.values() if not (isinstance(n, app_commands.Group) and n.name in keys)]
    return Tree(games, others, shared_commands([g for g, _ in games]))


async def build_page(words: Words, tree: Tree, value: str, server_contact: str | None = None) -> discord.ui.LayoutView:
    """The page ``value`` names, for the reader ``words`` speaks to, with the select below it (``server_contact``:
    the server's ``/settings privacy-contact``, for the overview)."""
    if value == OVERVIEW:
        blocks = await overview(words, tree, server_contact)
    elif value == OTHERS:
        blocks = await others_page(words, tree)
    elif (group := tree.group_of(value)) is not None:
        blocks = await game_page(words, tree, group, value)
    else:
        raise TableError("unknown_game", game=clip(value, 40))
    return layout(blocks, HelpMenu(menu_options(words, tree, value), t("help.menu", words.locale)))


def layout(blocks: Sequence[str], menu: HelpMenu) -> discord.ui.LayoutView:
    """The table's design: one container, the text blocks with a separator between, the select at the bottom."""
    built = Blocks()
    for n, block in enumerate(b for b in blocks if b):
        if n:
            built.separator()
        built.text(block)
    row: discord.ui.ActionRow[Any] = discord.ui.ActionRow()
    row.add_item(menu)
    return built.layout(ACCENT, rows=[row])


async def setup(bot: DiceTavern) -> None:
    await bot.add_cog(Help(bot))
