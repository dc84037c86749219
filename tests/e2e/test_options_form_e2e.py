"""The lobby's ⚙ Options form end to end: the host opens a page from the table message (a select of pages, or a
button for a one-page game), submits it, the table message is redrawn with the options in words, and the game
starts with them; anyone else is refused without a form; forged submits are refused and change nothing; a form
opened before a restart is applied after it. In English and in German."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.games.liars_dice import LiarsOptions
from bot.i18n import t
from bot.render import error_text
from bot.tables import TableError
from tests.e2e.conftest import World, new_world
from tests.fakediscord import FakeDiscord, FakeMessage
from tests.fakediscord.modals import modal_problems

pytestmark = pytest.mark.usefixtures("no_errors_logged")


@pytest.fixture
async def de_world(tmp_path) -> AsyncIterator[World]:
    async with FakeDiscord() as fake:
        yield new_world(fake, str(tmp_path / "tavern.sqlite3"), guild_locale="de", user_locale="de")


async def quiet(world: World, bot: Any, table: Any) -> None:
    """Wait until the presenter has nothing left to do for the table (its paced editor is done)."""
    await world.fake.wait_for(lambda: table.id not in bot.presenter._workers, what="the table's channel worker")


def options_menu(board: FakeMessage) -> str:
    return next(c for c in board.custom_ids() if c.startswith("ds:") and c.endswith(":options"))


async def open_page(world: World, user: Any, board: FakeMessage, page: int) -> Any:
    """``user`` picks page ``page`` in the table message's ⚙ Options select: the interaction (its reply a modal,
    or a refusal)."""
    record = await world.fake.select(user, board, options_menu(board), [f"options:{page}"])
    await record.response()
    return record


def component(modal: dict[str, Any], custom_id: str) -> dict[str, Any]:
    for label in modal["components"]:
        if label["component"].get("custom_id") == custom_id:
            return label["component"]
    raise AssertionError(f"no input {custom_id!r} in {modal['title']!r}")


def refusal(code: str, locale: str = "en", **params: Any) -> str:
    """A refusal as the one error path shows it."""
    return "⚠️ " + error_text(TableError(code, **params), locale)


async def test_the_host_sets_liars_dice_options_on_two_pages_and_plays_with_them(world: World):
    async with world.bot() as bot:
        board = (await world.slash(world.alice, "liar", "new")).expect_message()
        await world.click(world.bob, board, "join")
        table = bot.tables.table(world.channel.id)
        pages = [o["value"] for o in board.find_component(options_menu(board))["options"]]
        assert pages == ["options:1", "options:2"]

        # anyone but the host (or a server manager): the refusal, privately, and no form
        refused = await open_page(world, world.bob, board, 1)
        reply = refused.reply
        assert reply.type == 4 and reply.ephemeral and reply.modal is None
        assert reply.text == refusal("only_host_options")

        opened = await open_page(world, world.alice, board, 1)
        modal = opened.reply.modal
        assert opened.reply.type == 9 and modal_problems(modal) == []
        assert modal["title"] == "Liar's Dice options (1/2)" and modal["custom_id"] == f"do:{table.id}:1"
        raise_rule = component(modal, "raise_rule")
        assert raise_rule["type"] == 21 and [o["value"] for o in raise_rule["options"] if o["default"]] == ["poker"]
        assert component(modal, "wild_ones") == {"type": 23, "custom_id": "wild_ones", "default": False}
        assert [o["value"] for o in component(modal, "dice_per_player")["options"] if o["default"]] == ["5"]

        edits = board.edits
        submitted = await world.fake.submit_modal(
            world.alice, opened, {"raise_rule": "pirates", "wild_ones": True, "mode": "loot"}
        )
        reply = await submitted.response()
        assert reply.type == 7 and reply.message is board  # the table message, redrawn in place
        await quiet(world, bot, table)
        assert board.edits == edits + 1  # the response was the redraw: the paced editor had nothing left to show
        assert (
            table.options["raise_rule"] == "pirates" and table.options["mode"] == "loot" and table.options["wild_ones"]
        )
        line = "⚙ Raise rule: pirates (beat the last bid's larger number) · Wild ones: on · Game length: loot"
        assert line in board.text
        assert "⚙ The table's options were changed." in board.text

        second = await open_page(world, world.alice, board, 2)
        assert second.reply.modal["title"] == "Liar's Dice options (2/2)"
        assert component(second.reply.modal, "max_rounds")["value"] == "0"  # prefilled with the table's value
        reply = await (await world.fake.submit_modal(world.alice, second, {"max_rounds": "3"})).response()
        assert reply.type == 7 and table.options["max_rounds"] == 3
        assert "Most rounds (0 = no limit): 3" in board.text

        again = await open_page(world, world.alice, board, 1)  # the form shows the options as they are now
        assert [o["value"] for o in component(again.reply.modal, "mode")["options"] if o["default"]] == ["loot"]
        assert component(again.reply.modal, "wild_ones")["default"] is True

        await world.slash(world.alice, "liar", "start")
        await world.fake.wait_for(lambda: table.state is not None)
        assert table.state.options == LiarsOptions(raise_rule="pirates", wild_ones=True, mode="loot", max_rounds=3)
        assert not any(c.endswith(":options") for c in board.custom_ids())  # the form belongs to the lobby

        # a form opened before the game started, submitted after it: refused, nothing changed
        reply = await (await world.fake.submit_modal(world.alice, again, {"mode": "lose_die"})).response()
        assert reply.ephemeral and reply.text == refusal("not_in_lobby")
        assert table.options["mode"] == "loot"
    world.fake.assert_no_problems()


async def test_forged_submits_are_refused_and_change_nothing(world: World):
    other = world.fake.add_channel(world.guild, "back-room")
    async with world.bot() as bot:
        board = (await world.slash(world.alice, "liar", "new")).expect_message()
        table = bot.tables.table(world.channel.id)
        elsewhere = await world.fake.slash(world.carol, other, "liar", "new")
        await elsewhere.response()
        stranger = bot.tables.table(other.id)
        theirs = dict(stranger.options)
        first = await open_page(world, world.alice, board, 1)
        second = await open_page(world, world.alice, board, 2)
        before = dict(table.options)
        edits = board.edits

        async def forged(opened: Any, values: dict[str, Any], **kwargs: Any) -> str:
            reply = await (await world.fake.submit_modal(world.alice, opened, values, **kwargs)).response()
            assert reply.ephemeral and reply.type == 4, reply
            assert table.options == before  # nothing changed
            return reply.text

        # values the form does not offer: the engine's own refusal, as `/liar new` gives it
        assert "`raise_rule`" in await forged(first, {"raise_rule": "banana"})
        assert "`dice_per_player`" in await forged(first, {"dice_per_player": ["9"]})
        assert "`max_rounds`" in await forged(second, {"max_rounds": "abc"})
        # answers of the wrong shape, names not on the page, another table's or page's custom id
        assert await forged(first, {"wild_ones": "yes"}) == refusal("form_bad_value", field="Wild ones")
        assert await forged(first, {"raise_rule": None}) == refusal("form_bad_value", field="Raise rule")
        assert await forged(first, {"dice_per_player": ["5", "6"]}) == refusal(
            "form_bad_value", field="Dice per player"
        )
        assert await forged(first, {}, forged=[{"type": 4, "custom_id": "max_rounds", "value": "2"}]) == refusal(
            "form_unknown_option", field="'max_rounds'", page=1
        )
        assert await forged(second, {}, forged=[{"type": 4, "custom_id": "nope", "value": "2"}]) == refusal(
            "form_unknown_option", field="'nope'", page=2
        )
        assert await forged(first, {}, custom_id=f"do:{table.id}:3") == refusal("form_no_page", page="'3'", pages=2)
        assert await forged(first, {}, custom_id=f"do:{stranger.id}:1") == refusal("form_other_table")
        assert await forged(first, {}, custom_id="do:99999:1") == refusal("form_closed")
        assert stranger.options == theirs
        assert board.edits == edits  # the table message was never touched

        # a server manager may change them too (from a fresh form)
        managed = await open_page(world, world.admin, board, 2)
        reply = await (await world.fake.submit_modal(world.admin, managed, {"max_rounds": ""})).response()
        assert reply.type == 7 and table.options["max_rounds"] == 0  # an empty number: no limit, as the slash option
    world.fake.assert_no_problems()


async def test_a_form_opened_before_a_restart_is_applied_after_it(world: World):
    async with world.bot() as bot:
        board = (await world.slash(world.alice, "pig", "new")).expect_message()
        button = next(c for c in board.custom_ids() if c.endswith(":options:1"))  # one page: a ⚙ button
        assert board.button("⚙ Options")["custom_id"] == button
        opened = await world.fake.click(world.alice, board, button)
        modal = (await opened.response()).modal
        assert modal["title"] == "Pig options" and modal_problems(modal) == []
        switches = component(modal, "+switches")
        assert switches["type"] == 22 and [o["value"] for o in switches["options"] if o["default"]] == [
            "auto_hold_at_target"
        ]
        refused = await world.fake.click(world.bob, board, button)
        assert (await refused.response()).text == refusal("only_host_options") and refused.modal is None
    async with world.bot() as bot:
        table = bot.tables.table(world.channel.id)
        submitted = await world.fake.submit_modal(
            world.alice, opened, {"dice": "2", "target": "50", "+switches": ["equal_turns"]}
        )
        reply = await submitted.response()
        assert reply.type == 7 and reply.message is board
        assert (table.options["dice"], table.options["target"]) == (2, 50)
        assert (table.options["equal_turns"], table.options["auto_hold_at_target"]) == (True, False)
        want = "⚙ Dice: two dice (Big Pig) · Points to win: 50 · Bank automatically at the target: off · "
        assert want + "Equal turns for everyone: on" in board.text
    world.fake.assert_no_problems()


async def test_mythical_dice_options_in_german(de_world: World):
    world = de_world
    async with world.bot() as bot:
        board = (await world.slash(world.alice, "mythic", "new")).expect_message()
        table = bot.tables.table(world.channel.id)
        labels = [o["label"] for o in board.find_component(options_menu(board))["options"]]
        assert len(labels) == 3 and labels[2] == "Seite 3: Boni für Meerjungfrau und Minotaurus, Gleicher Punktestand"
        assert board.find_component(options_menu(board))["placeholder"] == "⚙ Optionen…"

        refused = await open_page(world, world.bob, board, 1)
        assert refused.reply.ephemeral and refused.reply.text == refusal("only_host_options", "de")
        assert refused.modal is None

        first = await open_page(world, world.alice, board, 1)
        modal = first.reply.modal
        assert modal["title"] == "Mythische Würfel: Optionen (1/3)" and modal_problems(modal) == []
        assert component(modal, "hands_by_players")["value"] == "3:8,4:8,5:7,6:6"
        reply = await (
            await world.fake.submit_modal(world.alice, first, {"hands_by_players": "3:5", "+switches": []})
        ).response()
        assert reply.type == 7 and table.options["hands_by_players"] == "3:5"

        second = await open_page(world, world.alice, board, 2)
        assert second.reply.modal["title"] == "Mythische Würfel: Optionen (2/3)"
        reply = await (
            await world.fake.submit_modal(world.alice, second, {"three_way": "sequential", "bonus_flag_scope": "hand"})
        ).response()
        assert reply.type == 7
        assert (table.options["three_way"], table.options["bonus_flag_scope"]) == ("sequential", "hand")
        line = "⚙ Runden je Personenzahl: 3:5 · Alle drei Wesen: in Wurfreihenfolge aufgelöst · "
        assert line + "Flaggen streichen Boni: für die ganze Runde" in board.text
        assert t("event.options_changed", "de") in board.text

        reply = await (await world.fake.submit_modal(world.alice, second, {"three_way": "nobody"})).response()
        assert reply.ephemeral and "`three_way`" in reply.text and table.options["three_way"] == "sequential"

        await world.click(world.bob, board, "join")
        await world.click(world.carol, board, "join")
        await world.click(world.alice, board, "start")
        await world.fake.wait_for(lambda: table.state is not None)
        options = table.state.options
        assert (options.hands_by_players, options.three_way, options.bonus_flag_scope) == (
            "3:5",
            "sequential",
            "hand",
        )
    world.fake.assert_no_problems()


CALLBACK = "POST /interactions/{interaction_id}/{token}/callback"


@pytest.mark.parametrize("saved", [True, False])
async def test_a_submit_whose_handling_failed_is_told_whether_the_options_were_saved(
    world: World, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, saved: bool
):
    async with world.bot() as bot:
        board = (await world.slash(world.alice, "liar", "new")).expect_message()
        await world.click(world.bob, board, "join")
        table = bot.tables.table(world.channel.id)
        opened = await open_page(world, world.alice, board, 1)
        if saved:  # the options are committed, then the redraw (the submit's answer) is lost on the way
            world.fake.fail(CALLBACK, drop=True, times=1)
        else:  # a bug before anything is stored

            async def broken(*args: Any, **kwargs: Any) -> Any:
                raise RuntimeError("a bug before the commit")

            monkeypatch.setattr(bot.tables, "set_options", broken)
        reply = await (await world.fake.submit_modal(world.alice, opened, {"raise_rule": "pirates"})).response()
        key = "error.internal_saved" if saved else "error.internal"
        assert reply.ephemeral and reply.text == "⚠️ " + t(key, "en")
        assert (table.options["raise_rule"] == "pirates") is saved
        stored = (await bot.store.fetch_one("SELECT options FROM games WHERE id = ?", (table.id,)))["options"]
        assert ('"pirates"' in stored) is saved
    # the failure is logged with its traceback (the one error this test expects; no_errors_logged checks the rest)
    failed = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(failed) == 1 and failed[0].exc_info is not None
    caplog.clear()
