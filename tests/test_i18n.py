"""The message catalog: plural forms by CLDR rules, fallback to English."""

from __future__ import annotations

import re
from string import Formatter
from typing import Any

import pytest
from babel import Locale

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


# -- every shipped catalog is complete ---------------------------------------------------------------------------

SHIPPED = ("cy", "de", "el", "en", "et", "it", "ru")
DISCORD_LANGUAGES = ("de", "el", "it", "ru")  # the others have no Discord locale: no slash-command names (name.*)
DESCRIPTION_MAX, LABEL_MAX = 100, 80  # Discord's limits: a slash command's description; a button's label
# Labels of buttons and select menus (and a menu's placeholder): the keys the renderers and components name.
LABELS = re.compile(
    r"(_button|label|_placeholder)$|^ui\.(join|leave|start|add_bot(_\w+)?|my_dice|host_tools|host_remove|host_make|"
    r"dm_retry|previous|next)$|^history\.(previous|next|first|last)$"
)
DESCRIPTIONS = re.compile(r"^(cmd\.|\w+\.cmd\.|history\.cmd_)")


def fields(template: Any) -> set[str]:
    """The placeholders with their format specs (``age:.0f``): a translation must keep both."""
    texts = template.values() if isinstance(template, dict) else [template]
    parsed = [(f, spec) for text in texts for _, f, spec, _ in Formatter().parse(text) if f]
    return {f"{f}:{spec}" if spec else f for f, spec in parsed}


def cldr_forms(locale: str) -> set[str]:
    return set(Locale.parse(locale).plural_form.tags) | {"other"}


def parity_problems(locale: str, english: dict[str, Any], texts: dict[str, Any]) -> list[str]:
    """What ``texts`` (the catalog of ``locale``) lacks or gets wrong against ``english``: a missing key (name.*
    only where Discord has the locale), a key English does not have, other placeholders, a plural entry where
    English has none (or none where it has one), other plural forms than the locale's CLDR ones."""
    problems = []
    forms = cldr_forms(locale)
    for key, source in english.items():
        if key.startswith("name.") and locale not in DISCORD_LANGUAGES:
            continue
        if key not in texts:
            problems.append(f"{locale}: missing {key}")
            continue
        text = texts[key]
        if isinstance(source, dict) != isinstance(text, dict):
            problems.append(f"{locale}: {key} must {'' if isinstance(source, dict) else 'not '}be a plural entry")
        elif isinstance(text, dict) and set(text) != forms:
            problems.append(f"{locale}: {key} has the plural forms {sorted(text)}, not {sorted(forms)}")
        if fields(text) != fields(source):
            problems.append(f"{locale}: {key} uses {sorted(fields(text))}, English {sorted(fields(source))}")
    problems += [f"{locale}: {key} is not an English key" for key in texts if key not in english]
    return problems


def length_problems(locale: str, texts: dict[str, Any]) -> list[str]:
    """Slash-command descriptions over 100 characters, button and menu labels over 80 (as written, unfilled)."""
    problems = []
    for key, text in texts.items():
        for form in text.values() if isinstance(text, dict) else [text]:
            if DESCRIPTIONS.match(key) and not 1 <= len(form) <= DESCRIPTION_MAX:
                problems.append(f"{locale}: the description {key} has {len(form)} characters (1-{DESCRIPTION_MAX})")
            if LABELS.search(key.split("@")[0]) and not 1 <= len(form) <= LABEL_MAX:
                problems.append(f"{locale}: the label {key} has {len(form)} characters (1-{LABEL_MAX})")
    return problems


def test_the_shipped_languages_are_exactly_the_seven():
    assert locales() == sorted(SHIPPED)


@pytest.mark.parametrize("locale", [code for code in SHIPPED if code != "en"])
def test_every_catalog_has_every_english_key_with_its_placeholders_and_plural_forms(locale):
    problems = parity_problems(locale, catalog("en"), catalog(locale))
    assert problems == [], f"{len(problems)} problems:\n" + "\n".join(problems)


def test_every_plural_entry_has_exactly_its_locales_cldr_forms():
    problems = [
        f"{locale}: {key} has {sorted(text)}, CLDR {sorted(cldr_forms(locale))}"
        for locale in SHIPPED
        for key, text in catalog(locale).items()
        if isinstance(text, dict) and set(text) != cldr_forms(locale)
    ]
    assert problems == []
    assert cldr_forms("ru") == {"one", "few", "many", "other"}
    assert cldr_forms("cy") == {"zero", "one", "two", "few", "many", "other"}


@pytest.mark.parametrize("locale", SHIPPED)
def test_descriptions_and_labels_fit_discord(locale):
    problems = length_problems(locale, catalog(locale))
    assert problems == [], "\n".join(problems)


def test_the_checks_catch_what_is_wrong():
    english = {"ui.n_dice": {"one": "{count} die", "other": "{count} dice"}, "ui.hi": "Hi {name}"}
    english["name.group.pig"] = "pig"
    good_ru = {"ui.n_dice": dict.fromkeys(("one", "few", "many", "other"), "{count}"), "ui.hi": "{name}"}
    assert parity_problems("ru", english, {**good_ru, "name.group.pig": "свинья"}) == []
    assert parity_problems("cy", {k: v for k, v in english.items() if k != "ui.n_dice"}, {"ui.hi": "Hi {name}"}) == []
    assert parity_problems("ru", english, good_ru) == ["ru: missing name.group.pig"]
    wrong = {"ui.n_dice": {"one": "{count}", "other": "{count}"}, "ui.hi": "Hi {who}", "ui.extra": "x"}
    assert parity_problems("et", english, wrong) == [
        "et: ui.hi uses ['who'], English ['name']",
        "et: ui.extra is not an English key",
    ]
    problems = parity_problems("ru", english, {**wrong, "name.group.pig": "x"})
    assert "ru: ui.n_dice has the plural forms ['one', 'other'], not ['few', 'many', 'one', 'other']" in problems
    assert parity_problems("de", english, {**english, "ui.hi": {"one": "{name}", "other": "{name}"}}) == [
        "de: ui.hi must not be a plural entry"
    ]
    long = {"liar.cmd.bid": "x" * 101, "history.cmd_replay": "", "pig.roll_button": "y" * 81, "ui.join": "z" * 80}
    assert length_problems("de", long) == [
        "de: the description liar.cmd.bid has 101 characters (1-100)",
        "de: the description history.cmd_replay has 0 characters (1-100)",
        "de: the label pig.roll_button has 81 characters (1-80)",
    ]


# -- the catalog's generation and overrides (what tests use instead of replacing the catalog) -----------------------


def test_overridden_changes_the_texts_and_the_generation_and_puts_both_back():
    from bot import i18n

    before, german = i18n.generation(), t("ui.join", "de")
    with i18n.overridden({"de": {"ui.join": "Rein", "ui.leave": None}}):
        inside = i18n.generation()
        assert inside != before
        assert t("ui.join", "de") == "Rein" and "ui.join" in catalog("de")
        assert t("ui.leave", "de") == t("ui.leave", "en") and "ui.leave" not in catalog("de")  # English fills in
        with i18n.overridden({"de": {"ui.join": "Hinein"}}):  # blocks nest, the inner one on top
            assert t("ui.join", "de") == "Hinein" and i18n.generation() not in (before, inside)
        assert t("ui.join", "de") == "Rein"
    assert t("ui.join", "de") == german and i18n.generation() not in (before, inside)
    assert catalog("de")["ui.leave"] == t("ui.leave", "de")


def test_a_games_own_locales_folder_may_add_texts_but_never_replace_the_bots(tmp_path, monkeypatch):
    import sys

    from bot import i18n
    from bot.games import registry
    from bot.games.pig import ENGINE

    package = tmp_path / "clash_game"
    (package / "locales" / "en").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "locales" / "en" / "ui.json").write_text('{"join": "Sit down", "clash_extra": "x"}')
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "clash_game", raising=False)

    class Clash(type(ENGINE)):  # type: ignore[misc]
        name = "clash"

    registry.register(registry.GameSpec(Clash(), order=99, length_unit="turns", starts_unit=bool, locales="clash_game"))
    try:
        with pytest.raises(ValueError, match="repeats catalog keys: ui.join"):
            catalog("en")
    finally:
        registry.unregister("clash")
    assert t("ui.join", "en") == "Join" and not i18n.has("ui.clash_extra")
