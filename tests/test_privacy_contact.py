"""Whom to ask about one's data (``bot.privacy_contact``): the operator's contact and policy from the environment,
the order they are shown in, the ready line's note, and /help's overview still under 1,500 characters in every
locale with the longest contacts there can be."""

from __future__ import annotations

import pytest

from bot.privacy_contact import (
    CONTACT_ENV,
    MAX_CONTACT,
    URL_ENV,
    Contact,
    contact_line,
    privacy_contact,
    ready_note,
)
from tests.fakediscord import display_length, text_displays
from tests.test_help_pages import LOCALES, OVERVIEW_LIMIT, bot, discord_locale, helps_of  # noqa: F401 - a fixture

UNKNOWN = "Questions or requests: ask whoever runs this bot. More in PRIVACY.md."


def test_the_operators_contact_and_policy_from_the_environment():
    assert privacy_contact({}) == Contact()
    contact = privacy_contact({CONTACT_ENV: "  dpo@tavern.example \n", URL_ENV: " https://tavern.example/p "})
    assert contact == Contact("dpo@tavern.example", "https://tavern.example/p") and contact.given
    assert privacy_contact({CONTACT_ENV: "x" * 300}).text == "x" * MAX_CONTACT


@pytest.mark.parametrize("url", ["tavern.example/privacy", "ftp://tavern.example/p", "https://", "https://a b/c"])
def test_a_policy_address_that_is_no_web_address_is_ignored_and_the_ready_line_says_why(url):
    contact = privacy_contact({URL_ENV: url})
    assert contact.url is None and not contact.given
    assert ready_note(contact) == (
        ", no privacy contact (set DICETAVERN_PRIVACY_CONTACT or DICETAVERN_PRIVACY_URL)"
        f" (DICETAVERN_PRIVACY_URL ignored: “{url}” is not an http or https address)"
    )


def test_the_ready_note_names_the_operators_contact_and_policy(monkeypatch):
    assert ready_note(Contact("dpo@tavern.example", "https://tavern.example/p")) == (
        ", privacy contact dpo@tavern.example, https://tavern.example/p"
    )
    monkeypatch.setenv(CONTACT_ENV, "the landlord")
    monkeypatch.delenv(URL_ENV, raising=False)
    assert ready_note() == ", privacy contact the landlord"  # read from the environment when not given


def test_the_operator_comes_first_then_the_server_then_whoever_runs_the_bot():
    operator = Contact("dpo@tavern.example", "https://tavern.example/privacy/")
    assert contact_line("en", operator, "the mods") == (
        "Questions or requests: dpo@tavern.example (who runs this bot).\n"
        "Privacy policy: [tavern.example/privacy](https://tavern.example/privacy/)"
    )
    policy_only = contact_line("en", Contact(url="https://tavern.example/p"), "the mods")
    assert policy_only.startswith("Questions or requests: the mods (this server's contact).\nPrivacy policy: [")
    assert contact_line("en", Contact(), "https://discord.gg/tavern") == (
        "Questions or requests: <https://discord.gg/tavern> (this server's contact)."
    )
    assert contact_line("en", Contact(), None) == UNKNOWN
    assert (
        contact_line("de", Contact(), "")
        == "Fragen oder Anliegen: wende dich an die Betreiber dieses Bots. Mehr in PRIVACY.md."
    )


async def test_the_help_overview_stays_short_with_the_longest_contacts_in_every_locale(bot, monkeypatch):  # noqa: F811
    helps = helps_of(bot)
    for contact, server in (
        (None, None),
        ("d" * MAX_CONTACT, None),
        (None, "s" * MAX_CONTACT),
        ("dpo@t.example", None),
    ):
        if contact is None:
            monkeypatch.delenv(CONTACT_ENV, raising=False)
            monkeypatch.delenv(URL_ENV, raising=False)
        else:
            monkeypatch.setenv(CONTACT_ENV, contact)
            monkeypatch.setenv(URL_ENV, "https://tavern.example/" + "p" * 470)
        for locale in LOCALES:
            words = helps.Words(bot.tree.translator, discord_locale(locale), locale)
            tree = helps.command_tree(bot, None)
            components = (await helps.build_page(words, tree, helps.OVERVIEW, server)).to_components()
            text = "\n".join(text_displays(components))
            assert display_length(components) <= OVERVIEW_LIMIT and len(text) <= OVERVIEW_LIMIT, (locale, contact)
            assert "\n-# 🔒 " in text, locale  # the line on one's data stays, its contact shortened first
            names = [f"`/{n.name}" for n in tree.others]
            if locale == "en":
                assert all(name in text for name in names)  # no command's name made room for it
