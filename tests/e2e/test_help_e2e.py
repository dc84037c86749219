"""/help end to end: built from the command tree, localised, ephemeral, within Discord's embed limits."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.i18n import t
from tests.e2e.conftest import World

LIMITS = {"field": 1024, "description": 4096, "title": 256, "total": 6000, "fields": 25}


def embed_of(reply) -> dict[str, Any]:
    assert reply.ephemeral and reply.type == 4
    (embed,) = reply.embeds
    return embed


def assert_within_limits(embed: dict[str, Any]) -> None:
    fields = embed.get("fields", [])
    assert len(fields) <= LIMITS["fields"]
    assert len(embed.get("title", "")) <= LIMITS["title"]
    assert len(embed.get("description", "")) <= LIMITS["description"]
    for field in fields:
        assert 0 < len(field["value"]) <= LIMITS["field"] and len(field["name"]) <= LIMITS["title"]
    total = len(embed.get("title", "")) + len(embed.get("description", ""))
    total += sum(len(f["name"]) + len(f["value"]) for f in fields) + len((embed.get("footer") or {}).get("text", ""))
    assert total <= LIMITS["total"]


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


async def test_help_lists_every_registered_command_and_the_buttons(world: World):
    async with world.bot() as _bot:
        embed = embed_of(await world.slash(world.carol, "help"))
        text = _text(embed)
        paths = typed_commands(world)
        assert {"pig kick", "mia host", "game cancel", "leaderboard", "help"} <= set(paths)
        shared = next(f for f in embed["fields"] if f["name"].startswith("Every game"))
        for path in paths:  # in full, or once for every game in the shared list
            first, *rest = path.split()
            listed_for_all = f"`/{first}`" in shared["name"] and rest and f"`{rest[-1]}` —" in shared["value"]
            assert f"`/{path}` —" in text or listed_for_all, path
        assert shared["name"] == "Every game: `/liar` `/mex` `/mia` `/mythic` `/pig`"
        for game in ("pig", "mia", "mex", "liar", "mythic"):
            assert f"`/{game} rules`" in text
        for label in ("join", "leave", "start", "my_dice", "add_bot", "host_tools"):
            assert t(f"ui.{label}") in text
        assert "Roll the die (or dice)" in text  # a game's own command, with its description
        assert_within_limits(embed)


async def test_a_command_added_to_the_tree_shows_up_in_help(world: World):
    async with world.bot() as bot:

        async def shout(interaction: discord.Interaction) -> None:
            pass

        bot.tree.add_command(app_commands.Command(name="shout", description="Shout across the tavern", callback=shout))
        group = app_commands.Group(name="darts", description="Darts: a game for another day")
        group.add_command(app_commands.Command(name="throw", description="Throw a dart", callback=shout))
        bot.tree.add_command(group)
        text = _text(embed_of(await world.slash(world.carol, "help")))
        assert "`/shout` — Shout across the tavern" in text
        assert "`/darts throw` — Throw a dart" in text


async def test_help_follows_the_readers_language(world: World):
    async with world.bot() as _bot:
        record = await world.fake.slash(world.alice, world.channel, "help", locale="de")
        text = _text(embed_of(await record.response()))
        assert "Dem Tisch in diesem Kanal beitreten" in text  # cmd.join in German, through the tree's translator
        text = _text(embed_of(await world.slash(world.alice, "help")))
        assert "Join the table in this channel" in text and "Dem Tisch" not in text


async def test_help_for_one_game_shows_its_commands_and_options(world: World):
    async with world.bot() as _bot:
        for game in ("pig", "mia", "mex", "liar", "mythic"):
            embed = embed_of(await world.slash(world.bob, "help", game=game))
            assert_within_limits(embed)
            text = _text(embed)
            assert f"`/{game} rules`" in text and f"/{game} kick" in text
        text = _text(embed_of(await world.slash(world.bob, "help", game="pig")))
        assert "`target` — Points needed to win (20-500)" in text
        assert text.index("/pig new") < text.index("/pig hold") < text.index("/pig join")  # its own commands first


async def test_help_stays_within_discords_limits_for_a_huge_tree(world: World):
    async with world.bot() as bot:

        async def noop(interaction: discord.Interaction) -> None:
            pass

        for n in range(40):
            group = app_commands.Group(name=f"extra{n}", description="An extra group " + "x" * 90)
            for m in range(20):
                group.add_command(app_commands.Command(name=f"c{m}", description="y" * 100, callback=noop))
            bot.tree.add_command(group)
        for game in ("pig", "mia", "mex", "liar", "mythic"):  # every game field at its 1024: 6000 in all is hit
            group = bot.tree.get_command(game)
            for m in range(25 - len(group.commands)):
                group.add_command(app_commands.Command(name=f"move{m}", description=game + "z" * 100, callback=noop))
        embed = embed_of(await world.slash(world.carol, "help"))
        assert_within_limits(embed)
        assert "`/pig move0`" in _text(embed) and "z" * 100 not in _text(embed)  # names only, but every game
        assert all(f"`/{game} rules`" in _text(embed) for game in ("pig", "mia", "mex", "liar", "mythic"))
        assert_within_limits(embed_of(await world.slash(world.carol, "help", game="mythic")))


def _text(embed: dict[str, Any]) -> str:
    parts = [embed.get("title", ""), embed.get("description", "")]
    parts += [f"{f['name']}\n{f['value']}" for f in embed.get("fields", [])]
    return "\n".join(parts)
