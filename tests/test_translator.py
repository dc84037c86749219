"""Localised slash commands: the payload ``dicetavern sync`` sends Discord, built from the full command tree, has a
name, a description and choice names for every command, group and option in each shipped language Discord has as
a locale (it, ru, el, de), and every one obeys Discord's rules (names ``^[-_\\p{L}\\p{N}…]{1,32}$`` and lowercase,
descriptions and choice names 1-100 characters, names unique among their siblings in every locale).

``payload_problems`` returns the problems, so ``test_a_broken_translation_is_caught`` can show each check fails."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import discord
import pytest
from discord import app_commands
from discord.app_commands import TranslationContext
from discord.app_commands import TranslationContextLocation as Where

import bot.translator as translator_module
from bot.client import DiceTavern
from bot.i18n import catalog
from bot.translator import (
    CHOICE_MAX,
    DESCRIPTION_MAX,
    CatalogTranslator,
    _keys_by_english,
    discord_languages,
    key_for,
    name_problem,
    text_problem,
)

LANGUAGES = ("de", "el", "it", "ru")  # the shipped languages Discord has as a locale
SHIPPED = ("en", "it", "ru", "el", "de", "cy", "et")
Node = dict[str, Any]


async def payload(translator: app_commands.Translator) -> list[Node]:
    """What ``tree.sync`` would send: every command of the full tree, as ``dicetavern sync`` builds it."""
    bot = DiceTavern(database_path=":memory:", commands_only=True)
    await bot.setup_hook()
    try:
        return [await command.get_translated_payload(bot.tree, translator) for command in bot.tree.get_commands()]
    finally:
        await bot.close()


def _kind(node: Node, parent: Node | None) -> str:
    if parent is None:
        return "group" if any(o.get("type") in (1, 2) for o in node.get("options", [])) else "command"
    return {1: "command", 2: "group"}.get(node["type"], "param")


def _described_key(text: str) -> str:
    return _keys_by_english().get(text) or "no catalog key has this English text"


def payload_problems(commands: list[Node], languages: tuple[str, ...] = LANGUAGES) -> list[str]:
    """Every way the payload breaks Discord's rules or lacks a localisation in ``languages``."""
    problems: list[str] = []

    def siblings(nodes: list[Node], where: str) -> None:
        for language in ("en", *languages):
            seen: dict[str, str] = {}
            for node in nodes:
                name = (node.get("name_localizations") or {}).get(language) or node["name"]
                if name in seen:
                    problems.append(f"{language}: {name!r} names both {seen[name]!r} and {node['name']!r} in {where}")
                seen[name] = node["name"]

    def visit(node: Node, path: str, parent: Node | None) -> None:
        kind = _kind(node, parent)
        here = f"{path} {node['name']}".strip()
        names = node.get("name_localizations") or {}
        described = node.get("description_localizations") or {}
        if why := name_problem(node["name"]):
            problems.append(f"en: the name of /{here}: {why}")
        if why := text_problem(node["description"], DESCRIPTION_MAX):
            problems.append(f"en: the description of /{here}: {why}")
        if node["description"] == "…":  # discord.py's stand-in for an option declared without one
            problems.append(f"en: /{here} has no description (add one from the catalog with @describe)")
        for language in languages:
            if language not in names:
                problems.append(f"{language}: no name for /{here} (name.{kind}.{node['name']})")
            elif why := name_problem(names[language]):
                problems.append(
                    f"{language}: the name {names[language]!r} of /{here} (name.{kind}.{node['name']}): {why}"
                )
            if language not in described:
                key = _described_key(node["description"])
                problems.append(f"{language}: no description for /{here} ({key}: {node['description']!r})")
            elif why := text_problem(described[language], DESCRIPTION_MAX):
                key = _described_key(node["description"])
                problems.append(f"{language}: the description of /{here} ({key}): {why}")
        for choice in node.get("choices") or []:
            choices = choice.get("name_localizations") or {}
            if why := text_problem(choice["name"], CHOICE_MAX):
                problems.append(f"en: the choice {choice['name']!r} of /{here}: {why}")
            if not any(c.isalpha() for c in choice["name"]) or choice["value"] in SHIPPED:
                continue  # a number reads the same in every language; a language is named in its own words
            for language in languages:
                if language not in choices:
                    problems.append(f"{language}: no name for the choice {choice['name']!r} of /{here}")
                elif why := text_problem(choices[language], CHOICE_MAX):
                    problems.append(f"{language}: the choice {choices[language]!r} of /{here}: {why}")
        options = node.get("options") or []
        siblings(options, f"/{here}")
        for option in options:
            visit(option, here, node)

    siblings(commands, "the top-level commands")
    for command in commands:
        visit(command, "", None)
    return problems


def test_commands_are_localised_in_the_languages_discord_has():
    assert discord_languages() == LANGUAGES  # cy and et have no Discord locale; en is the commands' own text


async def test_every_name_description_and_choice_has_a_valid_localisation():
    # checked=False: what the catalogs say, even what the real translator would hold back from Discord
    problems = payload_problems(await payload(CatalogTranslator(checked=False)))
    assert problems == [], f"{len(problems)} problems:\n" + "\n".join(problems)


async def test_the_payload_sent_is_complete_and_only_in_our_locales():
    commands = await payload(CatalogTranslator())
    assert payload_problems(commands) == []
    found: set[str] = set()

    def visit(node: Node) -> None:
        for field in ("name_localizations", "description_localizations"):
            found.update(node.get(field) or {})
        for choice in node.get("choices") or []:
            found.update(choice.get("name_localizations") or {})
        for option in node.get("options") or []:
            visit(option)

    for command in commands:
        visit(command)
    assert found == set(LANGUAGES)


def english_catalogs(change: Callable[[dict[str, Any]], None] | None = None) -> Callable[[str], dict[str, Any]]:
    """A stand-in ``catalog``: every language Discord has reads the English text (valid by the checks above), then
    ``change`` edits the German one."""
    english = dict(catalog("en"))
    german = dict(english)
    if change is not None:
        change(german)

    def fake(language: str) -> dict[str, Any]:
        return german if language == "de" else english

    return fake


async def test_the_checks_pass_a_complete_catalog(monkeypatch):
    monkeypatch.setattr(translator_module, "catalog", english_catalogs())
    monkeypatch.setattr(translator_module, "discord_languages", lambda: LANGUAGES)
    problems = payload_problems(await payload(CatalogTranslator(checked=False)))
    assert [p for p in problems if not p.startswith("en: ")] == []  # the English text is checked above


def _break(german: dict[str, Any]) -> None:
    del german["name.command.bid"]  # removed
    del german["pig.cmd.roll"]
    german["liar.cmd.challenge"] = "x" * 101  # too long
    german["name.param.quantity"] = "Anzahl Würfel"  # a space and a capital
    german["name.command.leave"] = "start"  # the same as its sibling /<game> start
    german["name.choice.poker"] = ""  # empty


async def test_a_broken_translation_is_caught(monkeypatch):
    monkeypatch.setattr(translator_module, "catalog", english_catalogs(_break))
    monkeypatch.setattr(translator_module, "discord_languages", lambda: LANGUAGES)
    found = payload_problems(await payload(CatalogTranslator(checked=False)))
    problems = [p for p in found if not p.startswith("en: ")]
    assert all(p.startswith("de: ") for p in problems), problems
    assert any("no name for /liar bid (name.command.bid)" in p for p in problems)
    assert any("no name for /mythic bid (name.command.bid)" in p for p in problems)
    assert any("no description for /pig roll (pig.cmd.roll" in p for p in problems)
    assert any("the description of /liar challenge (liar.cmd.challenge): 101 characters" in p for p in problems)
    assert any("'anzahl würfel'" in p.lower() and "not allowed" in p for p in problems)
    assert any("'start' names both 'leave' and 'start' in /pig" in p for p in problems)
    assert any("the choice '' of /liar new raise_rule" in p for p in problems)


async def test_the_translator_holds_back_what_discord_would_refuse(monkeypatch):
    monkeypatch.setattr(translator_module, "catalog", english_catalogs(_break))
    monkeypatch.setattr(translator_module, "discord_languages", lambda: LANGUAGES)
    commands = {c["name"]: c for c in await payload(CatalogTranslator())}
    liar = {o["name"]: o for o in commands["liar"]["options"]}
    assert "de" not in liar["challenge"]["description_localizations"]  # too long: Discord keeps the English
    assert liar["challenge"]["description_localizations"]["it"] == catalog("en")["liar.cmd.challenge"]
    bid = {o["name"]: o for o in liar["bid"]["options"]}
    assert "de" not in bid["quantity"].get("name_localizations", {})


def test_name_rules():
    assert name_problem("würfeln") is None
    assert name_problem("бросок") is None and name_problem("ζάρια") is None and name_problem("end_round") is None
    assert name_problem("x" * 33) == "33 characters (1-32)"
    assert "not lowercase" in (name_problem("Würfeln") or "")
    assert "not allowed" in (name_problem("lancia dadi") or "")
    assert "not allowed" in (name_problem("l'ultimo") or "")
    assert text_problem("", 100) and text_problem("x" * 100, 100) is None


@pytest.mark.parametrize(
    ("location", "text", "data", "key"),
    [
        (Where.group_name, "liar", None, "name.group.liar"),
        (Where.command_name, "end_round", None, "name.command.end_round"),
        (Where.parameter_name, "dice_per_player", None, "name.param.dice_per_player"),
        (Where.choice_name, "lose_die", app_commands.Choice(name="lose_die", value="lose_die"), "name.choice.lose_die"),
        (Where.choice_name, "pig", app_commands.Choice(name="pig", value="pig"), "game.pig"),
        (Where.choice_name, "Liar's Dice", app_commands.Choice(name="Liar's Dice", value="liar"), "game.liar"),
        (Where.choice_name, "⚀ ones", app_commands.Choice(name="⚀ ones", value=1), "liar.face_choice.1"),
        (Where.choice_name, "2", app_commands.Choice(name="2", value=2), None),
        (Where.command_description, catalog("en")["cmd.join"], None, "cmd.join"),
    ],
)
def test_each_string_reads_its_key(location, text, data, key):
    assert key_for(app_commands.locale_str(text), TranslationContext(location, data)) == key


async def test_nothing_for_english_or_a_locale_we_do_not_ship():
    translator = CatalogTranslator()
    context: TranslationContext[Any, Any] = TranslationContext(Where.command_name, None)
    for locale in (discord.Locale.american_english, discord.Locale.british_english, discord.Locale.japanese):
        assert await translator.translate(app_commands.locale_str("bid"), locale, context) is None


async def test_help_names_commands_as_the_picker_shows_them_and_describes_them_in_the_readers_language():
    import sys

    bot = DiceTavern(database_path=":memory:", commands_only=True)
    await bot.setup_hook()
    try:
        help_cog = bot.get_cog("Help")
        helps = sys.modules[type(help_cog).__module__]
        liar = bot.tree.get_command("liar")
        assert isinstance(liar, app_commands.Group)
        bid = liar.get_command("bid")
        assert isinstance(bid, app_commands.Command)
        german, welsh = catalog("de"), catalog("cy")
        # a German client: German names and descriptions
        words = helps.Words(bot.tree.translator, discord.Locale.german, "de")
        assert await words.path(bid) == f"{german['name.group.liar']} {german['name.command.bid']}"
        assert words.describe(bid) == german["liar.cmd.bid"]
        # a Welsh reader on an English client: English names (Discord has no Welsh), Welsh descriptions
        words = helps.Words(bot.tree.translator, discord.Locale.british_english, "cy")
        assert await words.path(bid) == "liar bid"
        assert words.describe(bid) == welsh["liar.cmd.bid"] != catalog("en")["liar.cmd.bid"]
        option, described = await words.parameter(bid.parameters[0])
        assert (option, described) == ("quantity", welsh["liar.cmd.bid_quantity"])
        # a German client whose owner chose Welsh (/me language): the names they type, their language's words
        words = helps.Words(bot.tree.translator, discord.Locale.german, "cy")
        assert await words.path(bid) == f"{german['name.group.liar']} {german['name.command.bid']}"
        assert words.describe(liar) == welsh["liar.cmd.group"]
    finally:
        await bot.close()
