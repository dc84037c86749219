"""The die faces' art and their application emojis: the plan a sync follows (pure), the committed PNGs (made by
scripts/draw_dice.py, up to date, loadable), and ``bot.render.faces`` once the emojis are loaded.

The Discord side against the fake Discord: tests/e2e/test_emojis_e2e.py."""

from __future__ import annotations

import importlib.util
import io
import logging
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType, SimpleNamespace

import discord
import pytest
from PIL import Image

from bot import emojis
from bot.emojis import Known, emoji_name, parse_name, plan
from bot.i18n import SURFACE
from bot.render import faces

ROOT = Path(__file__).resolve().parent.parent
ART = ROOT / "bot" / "assets" / "dice"


def draw_dice() -> ModuleType:
    """scripts/draw_dice.py as a module (scripts/ is no package)."""
    name = "draw_dice"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / "draw_dice.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


@pytest.fixture
def unloaded() -> Iterator[None]:
    """Whatever a test loads into ``faces`` is gone after it (the module is shared by every test in a worker)."""
    faces.load({})
    yield
    faces.load({})


def fake_art(**changed: bytes) -> dict[str, bytes]:
    art = {key: f"png of {key}".encode() for key in faces.KEYS}
    art.update(changed)
    return art


def existing_for(art: dict[str, bytes], *, ours: bool = True, first_id: int = 1000) -> list[tuple[str, int, bool]]:
    return [(emoji_name(key, png), first_id + i, ours) for i, (key, png) in enumerate(sorted(art.items()))]


# -- names -------------------------------------------------------------------------------------------------------------


def test_every_face_name_fits_discord_and_parses_back():
    for key in faces.KEYS:
        name = emoji_name(key, b"any art")
        assert re.fullmatch(r"[A-Za-z0-9_]{2,32}", name), name
        assert len(name) <= emojis.NAME_MAX
        assert parse_name(name) == (key, emojis.digest(b"any art"))
    longest = max(faces.KEYS, key=len)
    assert len(emoji_name(longest, b"")) <= 32, longest


def test_a_face_whose_art_changed_gets_a_new_name():
    assert emoji_name("d3", b"old") != emoji_name("d3", b"new")
    assert emoji_name("d3", b"old") == emoji_name("d3", b"old")
    assert emoji_name("d3", b"old").startswith("dt_d3_")


@pytest.mark.parametrize(
    "name",
    [
        "d3",
        "dt_d3",
        "dt_d3_12345",
        "dt_d3_1234567",
        "dt_d3_ABCDEF",
        "dt_d7_123abc",
        "xdt_d3_123abc",
        "dt_m_red_9_123abc",
    ],
)
def test_names_not_exactly_ours_are_not_ours(name):
    assert parse_name(name) is None


# -- the plan ----------------------------------------------------------------------------------------------------------


def test_a_fresh_application_uploads_every_face():
    art = fake_art()
    found = plan([], art)
    assert [u.key for u in found.uploads] == list(faces.KEYS)
    assert {u.name for u in found.uploads} == {emoji_name(k, png) for k, png in art.items()}
    assert found.deletions == () and found.keeps == () and found.changes


def test_the_same_art_again_changes_nothing():
    art = fake_art()
    found = plan(existing_for(art), art)
    assert found.uploads == () and found.deletions == () and not found.changes
    assert len(found.keeps) == len(faces.KEYS)


def test_one_changed_face_is_one_upload_and_one_delete_of_our_stale_version():
    old = fake_art()
    new = fake_art(d3=b"the new three")
    existing = existing_for(old)
    stale_id = next(i for name, i, _ in existing if name == emoji_name("d3", old["d3"]))
    found = plan(existing, new)
    assert [(u.key, u.name) for u in found.uploads] == [("d3", emoji_name("d3", b"the new three"))]
    assert found.deletions == (Known("d3", emoji_name("d3", old["d3"]), stale_id),)
    assert len(found.keeps) == len(faces.KEYS) - 1


def test_emojis_we_did_not_create_are_never_deleted():
    art = fake_art()
    others = [
        ("d3", 1, False),  # a person's emoji named like a key
        ("dt_d3", 2, True),  # not our pattern
        ("dt_d3_zzzzzz", 3, True),
        ("dt_d9_123abc", 4, True),  # no such face
        ("party_parrot", 5, True),  # anything else the app has
        ("dt_d3_abcdef", 6, False),  # our pattern, stale, but uploaded by someone else (the Developer Portal)
        ("DT_D3_ABCDEF", 7, True),
    ]
    found = plan(others, art)
    assert found.deletions == ()
    assert len(found.uploads) == len(faces.KEYS)


def test_only_stale_versions_of_a_face_with_art_are_deleted():
    art = fake_art()
    del art["hidden"]  # a face without art here: its emojis stay, whatever their hash
    existing = [(emoji_name("hidden", b"whatever"), 9, True), (emoji_name("d1", b"older"), 10, True)]
    found = plan(existing, art)
    assert [k.name for k in found.deletions] == [emoji_name("d1", b"older")]
    assert "hidden" not in {u.key for u in found.uploads}


def test_a_current_face_uploaded_by_someone_else_is_kept_not_uploaded_again():
    art = fake_art()
    found = plan([(emoji_name("d2", art["d2"]), 77, False)], art)
    assert Known("d2", emoji_name("d2", art["d2"]), 77) in found.keeps
    assert "d2" not in {u.key for u in found.uploads}


# -- the committed art -------------------------------------------------------------------------------------------------


def test_every_face_has_a_png_of_128_rgba_not_blank_and_small_enough():
    found = emojis.art()
    assert set(found) == set(faces.KEYS)
    for key, png in found.items():
        assert len(png) <= 256 * 1024, key
        image = Image.open(io.BytesIO(png))
        assert image.format == "PNG" and image.size == (128, 128) and image.mode == "RGBA", key
        alpha = image.getchannel("A")
        assert alpha.getextrema() == (0, 255), key  # a transparent background around an opaque die
        assert alpha.getpixel((0, 0)) == 0 and alpha.getpixel((64, 64)) == 255, key
        assert len(image.convert("RGB").getcolors(128 * 128) or []) > 8, key  # drawn on, not one flat colour
        assert not image.info, (key, image.info)  # no metadata chunks: no time, no text


def test_the_faces_differ_from_each_other():
    found = emojis.art()
    assert len(set(found.values())) == len(found)


def test_the_generator_is_deterministic_and_the_committed_art_is_up_to_date(tmp_path):
    """A changed scripts/draw_dice.py whose PNGs were not drawn again and committed fails here."""
    script = draw_dice()
    script.write(tmp_path / "one")
    script.write(tmp_path / "two")
    for key in faces.KEYS:
        one, two = (tmp_path / "one" / f"{key}.png").read_bytes(), (tmp_path / "two" / f"{key}.png").read_bytes()
        assert one == two, f"{key}: two runs of scripts/draw_dice.py wrote different bytes"
        committed = (ART / f"{key}.png").read_bytes()
        if one != committed:
            same_pixels = Image.open(io.BytesIO(one)).tobytes() == Image.open(io.BytesIO(committed)).tobytes()
            why = "same pixels, another PNG encoding (another zlib?)" if same_pixels else "the art changed"
            pytest.fail(f"{key}: bot/assets/dice is out of date ({why}): run .venv/bin/python scripts/draw_dice.py")
    assert sorted(p.name for p in ART.glob("*.png")) == sorted(f"{key}.png" for key in faces.KEYS)


def test_the_art_is_cc0_and_the_package_ships_it():
    licence = (ART / "LICENSE").read_text(encoding="utf-8")
    assert "CC0-1.0" in licence and "Dice Tavern project" in licence
    assert emojis.art_folder().resolve() == ART.resolve()
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert '"assets/dice/*.png"' in pyproject


def test_art_reads_another_folder(tmp_path):
    (tmp_path / "d1.png").write_bytes(b"one")
    (tmp_path / "not_a_face.png").write_bytes(b"?")
    assert emojis.art(tmp_path) == {"d1": b"one"}


# -- faces once loaded -------------------------------------------------------------------------------------------------


def test_loaded_faces_are_markdown_and_component_emojis_on_discord_and_unicode_in_the_terminal(unloaded):
    assert faces.text("d3") == "⚂" and faces.emoji("d3") is None
    before = faces.generation()
    faces.load({"d3": ("dt_d3_abcdef", 123), "m_red_7": ("dt_m_red_7_123456", 456), "nonsense": ("x", 1)})
    assert faces.generation() != before
    assert faces.text("d3") == "<:dt_d3_abcdef:123>"
    assert faces.emoji("d3") == ("dt_d3_abcdef", 123)
    assert faces.text("m_red_7") == "<:dt_m_red_7_123456:456>"
    assert faces.text("d4") == "⚃" and faces.emoji("d4") is None  # not uploaded: Unicode
    token = SURFACE.set("terminal")
    try:
        assert faces.text("d3") == "⚂" and faces.emoji("d3") is None
    finally:
        SURFACE.reset(token)


# -- load_emojis without Discord -----------------------------------------------------------------------------------


class StubClient:
    """Just what ``load_emojis`` calls: ``fetch_application_emojis`` and ``is_closed``."""

    def __init__(self, emojis: list[SimpleNamespace] | None = None, error: BaseException | None = None) -> None:
        self.emojis = emojis or []
        self.error = error
        self.closed = False
        self.reads = 0

    async def fetch_application_emojis(self) -> list[SimpleNamespace]:
        self.reads += 1
        if self.error is not None:
            raise self.error
        return self.emojis

    def is_closed(self) -> bool:
        return self.closed


async def test_load_emojis_maps_only_our_current_faces(unloaded, caplog):
    art = emojis.art()
    current = [SimpleNamespace(name=emoji_name(key, png), id=100 + i) for i, (key, png) in enumerate(art.items())]
    stale = SimpleNamespace(name=emoji_name("d1", b"older art"), id=7)
    client = StubClient([stale, SimpleNamespace(name="d2", id=8), *current[1:]])  # d1 only in an older version
    caplog.set_level(logging.INFO, logger="bot.emojis")
    assert await emojis.load_emojis(client) == len(faces.KEYS) - 1  # type: ignore[arg-type]
    assert client.reads == 1
    assert faces.emoji("d1") is None and faces.text("d1") == "⚀"
    assert faces.emoji("d2") == (emoji_name("d2", art["d2"]), 101)  # not the person's emoji named "d2"
    (line,) = [r for r in caplog.records if "dicetavern sync" in r.getMessage()]
    assert line.levelno == logging.WARNING and "1 of 33" in line.getMessage()


async def test_load_emojis_survives_a_failed_read(unloaded, caplog):
    caplog.set_level(logging.INFO, logger="bot.emojis")
    refused = discord.HTTPException(SimpleNamespace(status=503, reason="Service Unavailable"), "down")
    assert await emojis.load_emojis(StubClient(error=refused)) == 0  # type: ignore[arg-type]
    assert faces.text("d3") == "⚂"
    (line,) = caplog.records
    assert line.levelno == logging.WARNING and "could not read the application emojis" in line.getMessage()

    caplog.clear()
    closing = StubClient(error=RuntimeError("Session is closed"))
    closing.closed = True  # a shutdown closed the HTTP session under the read: nothing to say
    assert await emojis.load_emojis(closing) == 0  # type: ignore[arg-type]
    assert caplog.records == []
    with pytest.raises(RuntimeError):  # while running, a RuntimeError is a bug: it is not hidden
        await emojis.load_emojis(StubClient(error=RuntimeError("a bug")))  # type: ignore[arg-type]
