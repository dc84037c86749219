"""Words the renderer fills in for the reader: a game's command group as their Discord shows it, an id in words."""

from __future__ import annotations

import pytest

from bot.games import IllegalMove
from bot.i18n import catalog
from bot.render import error_text, group_name
from bot.tables.model import TableError


@pytest.mark.parametrize("locale", ["it", "ru", "el", "de"])
def test_a_wrong_game_refusal_names_the_group_as_discord_shows_it_in_that_locale(locale):
    localised = catalog(locale)["name.group.liar"]
    assert localised != "liar"
    assert group_name("liar", locale) == localised
    assert f"`/{localised}`" in error_text(TableError("wrong_game", game="liar"), locale)


@pytest.mark.parametrize("locale", ["en", "cy", "et"])
def test_without_a_discord_locale_the_group_keeps_its_english_name(locale):
    assert group_name("liar", locale) == "liar"
    assert "`/liar`" in error_text(TableError("wrong_game", game="liar"), locale)


@pytest.mark.parametrize("locale", ["ru", "de", "cy"])
def test_a_suit_to_follow_is_named_in_the_readers_words(locale):
    text = error_text(IllegalMove("must_follow_colour", colour="red", die="yellow"), locale, "mythic")
    red = catalog(locale)["mythic.die.red"]
    assert red in text and "red" not in text.replace(red, "")
