"""The message catalog: every user-facing string, keyed by locale.

Catalogs are data: ``bot/locales/<locale>/<namespace>.json`` files of flat ``key: template`` maps
(templates use ``str.format`` fields). Adding a language means adding a folder; a missing key
falls back to English. Keys are ``<namespace>.<name>``, e.g. ``error.not_your_turn``.
"""

from __future__ import annotations

import json
import logging
from functools import cache
from importlib import resources
from typing import Any

log = logging.getLogger(__name__)

DEFAULT = "en"


@cache
def catalog(locale: str) -> dict[str, str]:
    folder = resources.files("bot") / "locales" / locale
    merged: dict[str, str] = {}
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


class _Params(dict):  # type: ignore[type-arg]
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def t(key: str, locale: Any = DEFAULT, **params: Any) -> str:
    """The text for ``key`` in ``locale`` (falling back to English), filled with ``params``."""
    template = catalog(normalise(locale)).get(key) or catalog(DEFAULT).get(key)
    if template is None:
        log.warning("missing catalog key %s", key)
        return key
    return template.format_map(_Params(params))
