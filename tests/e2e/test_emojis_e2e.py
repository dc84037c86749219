"""Die faces as application emojis, end to end: ``dicetavern sync`` against the fake Discord uploads every face,
uploads nothing the second time, one changed face is one upload (and one delete of the stale version it made),
a dry run changes nothing, a face Discord refuses is one clear line; a bot started after the sync shows the faces,
and a bot without them keeps the Unicode dice and says once how to upload them."""

from __future__ import annotations

import asyncio
import io
import logging
import re
from collections.abc import Iterator
from pathlib import Path

import discord
import pytest
from PIL import Image

from bot import cli, emojis
from bot.emojis import emoji_name
from bot.render import faces
from tests.e2e.conftest import World
from tests.fakediscord import FakeDiscord, handlers_done
from tests.fakediscord.emojis import MAX_APP_EMOJIS, AppEmojiApi, add_app_emoji
from tests.fakediscord.rest import discord_error

HOW_TO = "run `dicetavern sync` to upload the die faces as application emojis"


@pytest.fixture
def env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[pytest.MonkeyPatch]:
    """A token and a database for the CLI; ``faces`` and the root logger's handlers as they were, after."""
    monkeypatch.setenv("DISCORD_TOKEN", "token")
    monkeypatch.setenv("DATABASE_PATH", str(tmp_path / "tavern.sqlite3"))
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    faces.load({})
    yield monkeypatch
    faces.load({})
    root.handlers[:] = handlers  # main() installs discord.py's log handler (on the captured stderr) and its level
    root.setLevel(level)


def art_copy(monkeypatch: pytest.MonkeyPatch, folder: Path) -> Path:
    """The committed art copied to ``folder``, which ``bot.emojis`` reads from then on."""
    folder.mkdir()
    for key, png in emojis.art().items():
        (folder / f"{key}.png").write_bytes(png)
    monkeypatch.setattr(emojis, "art_folder", lambda: folder)
    return folder


def redrawn(png: bytes) -> bytes:
    """Other art for the same face: one pixel changed."""
    image = Image.open(io.BytesIO(png)).convert("RGBA")
    image.putpixel((64, 64), (1, 2, 3, 255))
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


async def dicetavern(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, list[str], str]:
    """``dicetavern`` with ``args`` (in a thread, as a shell would run it): status, stdout's lines, stderr."""
    status = await asyncio.to_thread(cli.main, list(args))
    captured = capsys.readouterr()
    return status, captured.out.splitlines(), captured.err


def by_name(fake: FakeDiscord) -> dict[str, dict]:
    return {e["name"]: e for e in fake.app_emojis.values()}


def posts_and_deletes(fake: FakeDiscord, since: int) -> list[str]:
    calls = fake.calls(since=since)
    return [f"{c.method} {c.path}" for c in calls if c.method in ("POST", "PATCH", "DELETE") and "/emojis" in c.path]


async def test_sync_uploads_every_face_then_nothing_then_one_changed_face(env, capsys, tmp_path):
    art = emojis.art()
    async with FakeDiscord() as fake:
        fake.add_guild("Tavern")
        person = add_app_emoji(fake, "d3")  # the app's owner's own emoji, named like a face
        foreign = add_app_emoji(fake, emoji_name("d4", b"an old upload from the portal"))  # our pattern, not ours

        status, out, err = await dicetavern(capsys, "sync")
        assert status == 0 and "Traceback" not in err
        assert (
            out[0].startswith("synced ") and out[-1] == f"die faces: {len(faces.KEYS)} uploaded, 0 deleted, 0 unchanged"
        )
        assert fake.emoji_uploads == len(faces.KEYS)
        names = by_name(fake)
        for key, png in art.items():
            emoji = names[emoji_name(key, png)]
            assert fake.app_emoji_images[int(emoji["id"])] == png  # the committed bytes, as uploaded
            assert emoji["user"]["id"] == str(fake.bot_user.id)
        assert {"commands", "emojis"} <= {c.path.rsplit("/", 1)[-1] for c in fake.calls()}

        mark = fake.mark()
        status, out, _ = await dicetavern(capsys, "sync")
        assert status == 0 and out[-1] == f"die faces: 0 uploaded, 0 deleted, {len(faces.KEYS)} unchanged"
        assert fake.emoji_uploads == len(faces.KEYS) and posts_and_deletes(fake, mark) == []

        folder = art_copy(env, tmp_path / "art")
        (folder / "d3.png").write_bytes(redrawn(art["d3"]))
        old = names[emoji_name("d3", art["d3"])]
        mark = fake.mark()
        status, out, _ = await dicetavern(capsys, "sync")
        assert status == 0 and out[-1] == f"die faces: 1 uploaded, 1 deleted, {len(faces.KEYS) - 1} unchanged"
        assert fake.emoji_uploads == len(faces.KEYS) + 1
        calls = posts_and_deletes(fake, mark)
        app = f"/applications/{fake.application_id}/emojis"
        assert calls == [f"POST {app}", f"DELETE {app}/{old['id']}"]  # the new face up first, then the stale one out
        names = by_name(fake)
        assert emoji_name("d3", (folder / "d3.png").read_bytes()) in names and old["name"] not in names
        assert person["name"] in names and foreign["name"] in names  # never deletes what it did not create
        assert len(names) == len(faces.KEYS) + 2
    fake.assert_no_problems()


async def test_a_dry_run_changes_nothing_and_says_what_it_would_do(env, capsys, tmp_path):
    committed = emojis.art()
    async with FakeDiscord() as fake:
        fake.add_guild("Tavern")
        status, out, _ = await dicetavern(capsys, "sync", "--dry-run")
        assert status == 0
        assert out[0].startswith("dry run: the slash commands are not synced (") and "in the bot)" in out[0]
        uploads = [line for line in out if line.startswith("would upload dt_")]
        assert len(uploads) == len(faces.KEYS)
        assert out[-1] == f"dry run, nothing changed: die faces: {len(faces.KEYS)} to upload, 0 to delete, 0 unchanged"
        assert fake.app_emojis == {} and fake.emoji_uploads == 0 and fake.registered_commands() == []

        await dicetavern(capsys, "sync")
        folder = art_copy(env, tmp_path / "art")
        (folder / "m_red_7.png").write_bytes(redrawn((folder / "m_red_7.png").read_bytes()))
        before = dict(fake.app_emojis)
        mark = fake.mark()
        status, out, _ = await dicetavern(capsys, "sync", "--dry-run")
        assert status == 0 and fake.app_emojis == before and posts_and_deletes(fake, mark) == []
        assert f"would upload {emoji_name('m_red_7', (folder / 'm_red_7.png').read_bytes())}" in out
        assert [line for line in out if line.startswith("would delete ")] == [
            f"would delete {emoji_name('m_red_7', committed['m_red_7'])} (an older version of that face)"
        ]
        assert not [c for c in fake.calls(since=mark) if c.method == "PUT"]  # no command synced in a dry run

        mark = fake.mark()
        status, out, _ = await dicetavern(capsys, "sync", "--no-emojis")
        assert status == 0 and len(out) == 1 and out[0].startswith("synced ")
        assert not [c for c in fake.calls(since=mark) if "/emojis" in c.path]
    fake.assert_no_problems()


@pytest.mark.parametrize("refused", ["name", "image"])
async def test_a_face_discord_refuses_is_one_clear_line_after_the_commands(env, capsys, tmp_path, refused):
    folder = art_copy(env, tmp_path / "art")
    if refused == "name":
        env.setattr(emojis, "emoji_name", lambda key, png: f"dt-{key}!")
        expected = "String value did not match validation regex"
    else:
        big = Image.frombytes("RGBA", (400, 400), bytes(range(256)) * (400 * 400 * 4 // 256))
        out = io.BytesIO()
        big.save(out, format="PNG", compress_level=0)  # > 256 KiB
        assert len(out.getvalue()) > 256 * 1024
        (folder / "d1.png").write_bytes(out.getvalue())
        expected = "File cannot be larger than 256.0 kb"
    async with FakeDiscord() as fake:
        fake.add_guild("Tavern")
        status, out_lines, err = await dicetavern(capsys, "sync")
        assert status == 2 and "Traceback" not in err
        (line,) = [line for line in err.splitlines() if line.strip()]
        assert line.startswith("error: Discord refused the die face ") and "50035" in line and expected in line
        assert out_lines and out_lines[0].startswith("synced ")  # the commands went first, and say so
        assert fake.registered_commands()
        refusals = [c for c in fake.calls() if c.status == 400]
        assert len(refusals) == 1 and refusals[0].error_code == 50035


async def test_the_fake_validates_application_emojis_as_discord_does(tmp_path):
    png = emojis.art()["d1"]
    async with FakeDiscord() as fake:
        client = discord.Client(intents=discord.Intents.none())
        async with client:
            await client.login("token")

            async def refused(**kwargs: object) -> tuple[int, int]:
                with pytest.raises(discord.HTTPException) as caught:
                    await client.create_application_emoji(**kwargs)  # type: ignore[arg-type]
                return caught.value.status, caught.value.code

            assert await refused(name="x", image=png) == (400, 50035)  # too short
            assert await refused(name="a" * 33, image=png) == (400, 50035)  # too long
            assert await refused(name="bad-name", image=png) == (400, 50035)  # not [A-Za-z0-9_]
            assert await refused(name="huge", image=png[:8] + bytes(256 * 1024)) == (400, 50035)  # over 256 KiB
            emoji = await client.create_application_emoji(name="dt_d1_abcdef", image=png)
            assert emoji.name == "dt_d1_abcdef" and emoji.is_application_owned() and emoji.require_colons
            assert not emoji.managed and not emoji.animated and emoji.available and emoji.roles == []
            assert await refused(name="dt_d1_abcdef", image=png) == (400, 50035)  # names are unique
            (listed,) = await client.fetch_application_emojis()
            assert listed.id == emoji.id and listed.user is not None and listed.user.id == fake.bot_user.id
            assert (await client.fetch_application_emoji(emoji.id)).name == "dt_d1_abcdef"
            renamed = await emoji.edit(name="dt_d1_fedcba")
            assert renamed.name == "dt_d1_fedcba" and by_name(fake).keys() == {"dt_d1_fedcba"}
            await emoji.delete()
            assert fake.app_emojis == {}
            with pytest.raises(discord.NotFound) as caught:
                await client.fetch_application_emoji(emoji.id)
            assert caught.value.code == 10014
            with pytest.raises(discord.NotFound):
                await emoji.delete()

            for i in range(MAX_APP_EMOJIS):
                add_app_emoji(fake, f"e{i}")
            assert await refused(name="one_more", image=png) == (400, 30008)  # 2,000 per application
        raw = await fake_post(fake, {"name": "raw_uri", "image": "data:text/plain;base64,aGk="})
        assert raw == (400, 50035)  # a data URI of an image type only
    assert fake.emoji_uploads == 1


async def fake_post(fake: FakeDiscord, body: dict) -> tuple[int, int]:
    """A raw POST to the fake (discord.py only sends what it checked itself)."""
    import aiohttp

    url = f"{fake.base_url}/applications/{fake.application_id}/emojis"
    async with (
        aiohttp.ClientSession() as session,
        session.post(url, json=body, headers={"Authorization": "Bot token"}) as response,
    ):
        return response.status, (await response.json())["code"]


async def test_a_bot_started_after_the_sync_shows_the_faces(env, capsys, caplog, world: World):
    caplog.set_level(logging.INFO, logger="bot.emojis")  # (a sync sets the root logger to WARNING)
    assert (await dicetavern(capsys, "sync", "--no-emojis"))[0] == 0  # commands only: no faces yet
    async with world.bot():
        await handlers_done()  # on_ready has read the application's emojis
    assert faces.text("d3") == "⚂" and faces.emoji("d3") is None  # the Unicode faces stay
    hints = [r for r in caplog.records if HOW_TO in r.getMessage()]
    assert len(hints) == 1 and hints[0].levelno == logging.WARNING  # once

    caplog.clear()
    assert (await dicetavern(capsys, "sync"))[0] == 0
    names = by_name(world.fake)
    async with world.bot():
        await handlers_done()
        d3 = names[emoji_name("d3", emojis.art()["d3"])]
        assert faces.text("d3") == f"<:{d3['name']}:{d3['id']}>"
        assert faces.emoji("m_griffin_face") is not None
        board = (await world.slash(world.alice, "liar", "new")).expect_message()
        await world.click(world.carol, board, "join")
        await world.click(world.alice, board, "start")
        mine = (await world.click(world.alice, board, "me")).expect_message()
        assert re.search(r"<:dt_[dw][1-6]_[0-9a-f]{6}:\d+>", mine.text), mine.text  # her dice, as the faces
    world.fake.assert_no_problems()
    messages = [r.getMessage() for r in caplog.records]
    assert not [m for m in messages if HOW_TO in m]
    assert f"die faces: {len(faces.KEYS)} application emojis loaded" in messages


async def test_a_failed_read_of_the_emojis_keeps_the_unicode_faces_and_the_bot_running(
    env, caplog, tmp_path, monkeypatch
):
    async def refuse(self: AppEmojiApi, request: object) -> object:
        return discord_error(403, 50001, "Missing Access")

    monkeypatch.setattr(AppEmojiApi, "list", refuse)
    caplog.set_level(logging.INFO, logger="bot.emojis")
    async with FakeDiscord() as fake:
        from tests.e2e.conftest import new_world

        world = new_world(fake, str(tmp_path / "tavern.sqlite3"))
        async with world.bot():
            await handlers_done()
            assert faces.text("d3") == "⚂"
            reply = await world.slash(world.alice, "liar", "new")  # the bot still answers
            assert reply.expect_message() is not None
    (line,) = [r for r in caplog.records if "could not read the application emojis" in r.getMessage()]
    assert line.levelno == logging.WARNING and "Missing Access" in line.getMessage()
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
