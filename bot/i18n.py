"""The message catalog: every user-facing string, keyed by locale.

Catalogs are data: ``bot/locales/<locale>/<namespace>.json`` files of flat ``key: template`` maps
(templates use ``str.format`` fields). Adding a language means adding a folder; a missing key
falls back to English. Keys are ``<namespace>.<name>``, e.g. ``error.not_your_turn``.

A template that depends on a number is an object of CLDR plural forms, e.g.
``{"one": "{count} die", "other": "{count} dice"}``; ``t(key, locale, count=n)`` picks the form with
Babel's plural rules for that locale (Russian has one/few/many/other, Welsh six forms).
"""

from __future__ import annotations

import json
import logging
from contextvars import ContextVar
from functools import cache
from importlib import resources
from typing import Any

from babel import Locale

log = logging.getLogger(__name__)

DEFAULT = "en"

# Where the text is shown: None on Discord, "terminal" during `dicetavern play`. On a surface, a key's variant
# ``<key>@<surface>`` (next to the key in its file) replaces the key, e.g. rules that name Discord's buttons.
SURFACE: ContextVar[str | None] = ContextVar("surface", default=None)


@cache
def catalog(locale: str) -> dict[str, str | dict[str, str]]:
    folder = resources.files("bot") / "locales" / locale
    merged: dict[str, str | dict[str, str]] = {}
    if not folder.is_dir():
        return merged
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".json"):
            namespace = entry.name[: -len(".json")]
            for key, text in json.loads(entry.read_text(encoding="utf-8")).items():
                merged[f"{namespace}.{key}"] = text
    return merged


@cache
def locales() -> list[str]:
    folder = resources.files("bot") / "locales"
    return sorted(e.name for e in folder.iterdir() if e.is_dir())


def normalise(locale: Any) -> str:
    """'en-US', discord.Locale.german, None -> a catalog we have ('en', 'de', ...)."""
    text = str(getattr(locale, "value", locale) or DEFAULT)
    for candidate in (text, text.split("-")[0]):
        if candidate in locales():
            return candidate
    return DEFAULT


def has(key: str, locale: str = DEFAULT) -> bool:
    return key in catalog(normalise(locale)) or key in catalog(DEFAULT)


def _template(code: str, variant: str | None, key: str) -> str | dict[str, str] | None:
    texts = catalog(code)
    found = texts.get(variant) if variant else None
    return texts.get(key) if found is None else found


class _Params(dict[str, object]):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


@cache
def plural_rule(locale: str) -> Any:
    return Locale.parse(locale).plural_form


def plural_form(locale: str, count: Any) -> str:
    """The CLDR plural category ('one', 'few', 'other', ...) of ``count`` in ``locale``."""
    try:
        return plural_rule(locale)(abs(count))
    except (TypeError, ValueError):
        return "other"


def t(key: str, locale: Any = DEFAULT, **params: Any) -> str:
    """The text for ``key`` in ``locale`` (falling back to English), filled with ``params``.

    A plural entry picks its form by the ``count`` parameter."""
    code = normalise(locale)
    surface = SURFACE.get()
    variant = f"{key}@{surface}" if surface else None
    template = _template(code, variant, key)
    if template is None:
        code, template = DEFAULT, _template(DEFAULT, variant, key)
    if template is None:
        log.warning("missing catalog key %s", key)
        return key
    if isinstance(template, dict):
        template = template.get(plural_form(code, params.get("count", 0))) or template["other"]
    return template.format_map(_Params(params))
