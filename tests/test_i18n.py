"""The message catalog: plural forms by CLDR rules, fallback to English."""

from __future__ import annotations

from bot.i18n import catalog, locales, plural_form, t


def test_plural_forms_follow_cldr():
    assert [plural_form("en", n) for n in (0, 1, 2)] == ["other", "one", "other"]
    assert [plural_form("ru", n) for n in (1, 2, 5, 21)] == ["one", "few", "many", "one"]
    assert [plural_form("cy", n) for n in (0, 1, 2, 3, 6)] == ["zero", "one", "two", "few", "many"]


def test_plural_entry_picks_the_form_by_count():
    assert t("ui.n_dice", "en", count=1) == "1 die"
    assert t("ui.n_dice", "en", count=2) == "2 dice"
    assert t("ui.n_games", "en", count=1) == "1 game"
    assert t("ui.n_games", "en", count=0) == "0 games"


def test_every_plural_entry_has_one_and_other_in_english():
    for key, text in catalog("en").items():
        if isinstance(text, dict):
            assert {"one", "other"} <= set(text), key


def test_every_locale_uses_only_its_own_plural_forms():
    for locale in locales():
        for key, text in catalog(locale).items():
            if isinstance(text, dict):
                allowed = {"zero", "one", "two", "few", "many", "other"}
                assert set(text) <= allowed and "other" in text, (locale, key)
