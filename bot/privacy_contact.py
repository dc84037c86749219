"""Whom a member asks about their data: the operator's contact and privacy policy (``DICETAVERN_PRIVACY_CONTACT``,
``DICETAVERN_PRIVACY_URL``), else the server's own (``/settings privacy-contact``), else "whoever runs this bot".

``/privacy info`` and ``/help`` show ``contact_line``, the ready line ``ready_note``. Read from the environment on
each call (cheap, and a test can set it), never imported at start by anything heavy.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass

from bot.environment import is_web_address
from bot.i18n import t

CONTACT_ENV = "DICETAVERN_PRIVACY_CONTACT"
URL_ENV = "DICETAVERN_PRIVACY_URL"
MAX_CONTACT = 200  # characters of a contact (the operator's or a server's): an address, a name or a link
MAX_URL = 500  # characters of the policy's address


@dataclass(frozen=True)
class Contact:
    """The operator's: whom to ask (text as set), the policy page (an http or https address), and why the
    environment's policy address was not taken (None when it was, or none was set)."""

    text: str | None = None
    url: str | None = None
    problem: str | None = None

    @property
    def given(self) -> bool:
        return self.text is not None or self.url is not None



def privacy_contact(environ: Mapping[str, str] | None = None) -> Contact:
    """The operator's contact from the environment: the text clipped to MAX_CONTACT, the URL only when it is one."""
    env = os.environ if environ is None else environ
    text = " ".join(env.get(CONTACT_ENV, "").split())[:MAX_CONTACT] or None
    url = env.get(URL_ENV, "").strip() or None
    if url is not None and (len(url) > MAX_URL or not is_web_address(url)):
        return Contact(text, None, t("cli.privacy_url_ignored", env=URL_ENV, url=url[:80]))
    return Contact(text, url)


def shown(text: str) -> str:
    """A contact as a reply shows it: an address as a link (no preview), anything else as it was set."""
    return f"<{text}>" if is_web_address(text) else text


def policy_link(url: str) -> str:
    """``[example.org/privacy](url)``: the address without its scheme as the label."""
    label = url.split("://", 1)[1].rstrip("/")
    if len(label) > 60:
        label = label[:59] + "…"
    return f"[{label.replace(']', '')}]({url})"


def contact_line(locale: str, operator: Contact, server: str | None = None) -> str:
    """Who to ask, for /privacy info and /help: the operator's contact and policy, else the server's contact,
    else the catalog's "ask whoever runs this bot"."""
    lines = []
    if operator.text is not None:
        lines.append(t("privacy.contact_operator", locale, contact=shown(operator.text)))
    elif server:
        lines.append(t("privacy.contact_server", locale, contact=shown(server)))
    if operator.url is not None:
        lines.append(t("privacy.contact_policy", locale, link=policy_link(operator.url)))
    if not lines:
        lines.append(t("privacy.contact_unknown", locale))
    return "\n".join(lines)


def ready_note(operator: Contact | None = None) -> str:
    """What the ready line adds: the operator's contact and policy, or that none is set (and why a URL was not
    taken)."""
    contact = privacy_contact() if operator is None else operator
    shown_parts = [part for part in (contact.text, contact.url) if part is not None]
    note = t("cli.ready_privacy", contact=", ".join(shown_parts)) if shown_parts else t("cli.ready_no_privacy")
    return note + (f" ({contact.problem})" if contact.problem else "")
