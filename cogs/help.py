"""/help: the games, their commands and the table buttons, read from the command tree (never a hand-kept list).

Names and descriptions go through the tree's translator, the one that gives Discord the commands'
localisations, so /help reads like the command picker in the reader's language. Discord's embed limits
(field 1024, description 4096, 6000 in all) are kept by dropping detail, never by a failed reply.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import TranslationContext, TranslationContextLocation
from discord.ext import commands

from bot.i18n import has, t
from bot.render import split_text
from bot.tables import TableError
from bot.translator import key_for
from cogs.utils.games import game_choices
from cogs.utils.replies import locale_of, refuse, send_ephemeral

if TYPE_CHECKING:
    from bot.client import DiceTavern

FIELD, DESCRIPTION, TOTAL, FIELDS = 1024, 4096, 6000, 25  # Discord's embed limits
COLOUR = 0x5865F2
Node = app_commands.Command[Any, ..., Any] | app_commands.Group


def fit(lines: list[str], limit: int) -> str:
    """Whole lines within ``limit`` characters; an ellipsis marks what was left out."""
    kept: list[str] = []
    size = 0
    for line in lines:
        if size + len(line) + 1 > limit - 2:
            kept.append("…" if kept else line[: limit - 1] + "…")
            break
        kept.append(line)
        size += len(line) + 1
    return "\n".join(kept)


def leaves(node: Node) -> list[app_commands.Command[Any, ..., Any]]:
    """The commands one can type under ``node`` (itself, for a plain command), in the tree's order."""
    if isinstance(node, app_commands.Command):
        return [node]
    return [c for c in node.walk_commands() if isinstance(c, app_commands.Command)]


def shared_commands(groups: list[app_commands.Group]) -> list[str]:
    """Subcommands every game group has with the same description: listed once, not once per game."""
    if len(groups) < 2:
        return []
    described = [{c.name: c.description for c in g.commands if isinstance(c, app_commands.Command)} for g in groups]
    return [name for name, text in described[0].items() if all(d.get(name) == text for d in described[1:])]


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


class Help(commands.Cog):
    def __init__(self, bot: DiceTavern) -> None:
        self.bot = bot

    @app_commands.command(name="help", description=t("cmd.help"))
    @app_commands.describe(game=t("cmd.help_game"))
    @app_commands.choices(game=game_choices(named=True))
    async def help_command(
        self, interaction: discord.Interaction, game: app_commands.Choice[str] | None = None
    ) -> None:
        locale = locale_of(interaction)
        words = Words(self.bot.tree.translator, interaction.locale, locale)
        roots = self.roots(interaction.guild)
        games = self.game_groups()
        if game is None:
            embed = await overview(words, locale, roots, games)
        else:
            group = next((r for r in roots if games.get(r.name) == game.value), None)
            if not isinstance(group, app_commands.Group):
                await refuse(interaction, TableError("unknown_game", game=game.value))
                return
            shared = shared_commands([r for r in roots if isinstance(r, app_commands.Group) and r.name in games])
            embed = await detail(words, locale, group, game.value, shared)
        await send_ephemeral(interaction, embed=embed)

    def roots(self, guild: discord.abc.Snowflake | None) -> list[Node]:
        """Every slash command and group the tree holds (global, then this server's own)."""
        chat = discord.AppCommandType.chat_input
        found: dict[str, Node] = {}
        for scope in (None, guild) if guild is not None else (None,):
            for node in self.bot.tree.get_commands(guild=scope, type=chat):
                if isinstance(node, app_commands.Command | app_commands.Group):
                    found.setdefault(node.name, node)
        return list(found.values())

    def game_groups(self) -> dict[str, str]:
        """Group name -> game, from the loaded game cogs (each game's command group is its cog)."""
        return {cog.app_command.name: game for game, cog in self.bot.game_cogs.items() if cog.app_command is not None}


async def overview(words: Words, locale: str, roots: list[Node], games: dict[str, str]) -> discord.Embed:
    """Every game with its own commands, the commands all games share, the rest; less detail if it must."""
    game_roots = [r for r in roots if isinstance(r, app_commands.Group) and r.name in games]
    others = [r for r in roots if r not in game_roots]
    shared = shared_commands(game_roots)
    buttons = t(
        "help.buttons",
        locale,
        **{k: t(f"ui.{k}", locale) for k in ("join", "leave", "start", "add_bot", "host_tools", "my_dice")},
    )
    embed = discord.Embed(title=t("help.title", locale), colour=COLOUR)
    for compact in (False, True):
        embed.description = fit([t("help.intro", locale), "", buttons], DESCRIPTION)
        embed.clear_fields()
        if shared:
            names = " ".join([f"`/{await words.path(g)}`" for g in game_roots])
            lines = [await words.line(c, short=True) for c in game_roots[0].commands if c.name in shared]
            add_lines(embed, t("help.shared", locale, groups=names)[:256], lines)
        for group in game_roots:
            name, lines = await game_field(words, locale, group, games[group.name], shared, compact)
            add_lines(embed, name, lines)
        lines = [await words.line(c) for root in others for c in leaves(root)]
        if lines:
            if compact:
                lines = [" ".join([f"`/{await words.path(c)}`" for root in others for c in leaves(root)])]
            add_lines(embed, t("help.other", locale), lines)
        if len(embed) <= TOTAL and len(embed.fields) <= FIELDS:
            return embed
    return trimmed(embed)


def add_lines(embed: discord.Embed, name: str, lines: list[str]) -> None:
    """A field of ``lines``, going on in more fields (unnamed) where they fill one: never cut."""
    for n, part in enumerate(split_text("\n".join(lines), FIELD)):
        embed.add_field(name=name if n == 0 else "\u200b", value=part, inline=False)


async def game_field(
    words: Words, locale: str, group: app_commands.Group, game: str, shared: list[str], compact: bool
) -> tuple[str, list[str]]:
    """One game: what it is, its own commands (names only when ``compact``), and where its rules are."""
    path = await words.path(group)
    own = [c for c in leaves(group) if c.name not in shared or c.parent is not group]
    lines = [" ".join([f"`/{await words.path(c)}`" for c in own])] if compact else [await words.line(c) for c in own]
    game_name = t(f"game.{game}", locale)
    rules = t("help.rules", locale, group=path, game=game_name)
    return t("help.game", locale, game=game_name, group=path)[:256], [words.describe(group), *lines, rules]


async def detail(words: Words, locale: str, group: app_commands.Group, game: str, shared: list[str]) -> discord.Embed:
    """One game's every command with its options, its own before the ``shared`` ones (a command's options run on
    in more fields when they fill one); options are dropped before Discord's limits are hit."""
    path, game_name = await words.path(group), t(f"game.{game}", locale)
    embed = discord.Embed(title=t("help.detail_title", locale, game=game_name, group=path)[:256], colour=COLOUR)
    embed.description = fit(
        [words.describe(group), "", t("help.rules", locale, group=path, game=game_name)], DESCRIPTION
    )
    embed.set_footer(text=t("help.detail_footer", locale))
    for with_options in (True, False):
        embed.clear_fields()
        ordered = sorted(leaves(group), key=lambda c: c.name in shared and c.parent is group)  # stable
        for command in ordered[:FIELDS]:
            lines = [words.describe(command)]
            for param in command.parameters if with_options else []:
                option, text = await words.parameter(param)
                lines.append(t("help.option", locale, option=option, description=text))
            add_lines(embed, f"/{await words.path(command)}"[:256], lines)
        if len(embed) <= TOTAL and len(embed.fields) <= FIELDS:
            return embed
    return trimmed(embed)


def trimmed(embed: discord.Embed) -> discord.Embed:
    """The last resort for a tree too big to show: drop fields from the end until it fits."""
    while embed.fields and (len(embed) > TOTAL or len(embed.fields) > FIELDS):
        embed.remove_field(len(embed.fields) - 1)
    return embed


async def setup(bot: DiceTavern) -> None:
    await bot.add_cog(Help(bot))
