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


_NORMALISED: dict[Any, str] = {}  # what normalise answered: every t() call asks, mostly with the same few codes
_NORMALISED_MAX = 512  # a bound, since a locale can come from outside (a CLI flag)


def normalise(locale: Any) -> str:
    """'en-US', discord.Locale.german, None -> a catalog we have ('en', 'de', ...)."""
    try:
        return _NORMALISED[locale]
    except (KeyError, TypeError):  # TypeError: unhashable, answered without the memo
        pass
    text = str(getattr(locale, "value", locale) or DEFAULT)
    code = DEFAULT
    for candidate in (text, text.split("-")[0]):
        if candidate in locales():
            code = candidate
            break
    try:
        if len(_NORMALISED) < _NORMALISED_MAX:
            _NORMALISED[locale] = code
    except TypeError:
        pass
    return code


# Memos of catalog lookups: t() runs a dozen times per table message. They hold what the catalog says, so they
# are emptied when ``catalog`` is not the function they were filled from (tests replace it) or grow past MEMO_MAX
# (keys come from code, but ``has`` is also asked about text already written, such as a menu's bid labels).
MEMO_MAX = 20_000
_memo_source: Any = None
_FOUND: dict[tuple[str, str | None, str], tuple[str, str | dict[str, str] | None, str | None]] = {}
_HAS: dict[tuple[str, str], bool] = {}
_PLURALS: dict[tuple[str, int], str] = {}


def _memos() -> None:
    """Empty the memos if the catalog they were filled from was replaced, or they grew too large."""
    global _memo_source
    if _memo_source is not catalog or len(_FOUND) > MEMO_MAX or len(_HAS) > MEMO_MAX:
        _FOUND.clear()
        _HAS.clear()
        _memo_source = catalog


def has(key: str, locale: str = DEFAULT) -> bool:
    if _memo_source is not catalog:
        _memos()
    code = normalise(locale)
    found = _HAS.get((code, key))
    if found is None:
        _memos()
        found = _HAS[(code, key)] = key in catalog(code) or key in catalog(DEFAULT)
    return found


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
    whole = type(count) is int  # noqa: E721 - exactly int: a bool or a float must not share its memo entry
    if whole and (form := _PLURALS.get((locale, count))) is not None:
        return form  # Babel evaluates the CLDR rule in Python: ~10 µs a call
    try:
        form = plural_rule(locale)(abs(count))
    except (TypeError, ValueError):
        return "other"
    if whole:
        if len(_PLURALS) > MEMO_MAX:
            _PLURALS.clear()
        _PLURALS[(locale, count)] = form
    return form


def _find(code: str, surface: str | None, key: str) -> tuple[str, str | dict[str, str] | None, str | None]:
    """(the locale found in, the template or None, the text without params) for t()."""
    variant = f"{key}@{surface}" if surface else None
    template = _template(code, variant, key)
    if template is None:
        code, template = DEFAULT, _template(DEFAULT, variant, key)
    plain = None
    if isinstance(template, str):
        try:
            plain = template.format_map(_Params())
        except (ValueError, IndexError, TypeError):  # e.g. ``{score:d}`` without a score: t() raises as it did
            pass
    return code, template, plain


def t(key: str, locale: Any = DEFAULT, **params: Any) -> str:
    """The text for ``key`` in ``locale`` (falling back to English), filled with ``params``.

    A plural entry picks its form by the ``count`` parameter."""
    if _memo_source is not catalog:
        _memos()
    try:
        code = _NORMALISED[locale]
    except (KeyError, TypeError):
        code = normalise(locale)
    memo = (code, SURFACE.get(), key)
    found = _FOUND.get(memo)
    if found is None:
        _memos()
        found = _FOUND[memo] = _find(*memo)
    code, template, plain = found
    if template is None:
        log.warning("missing catalog key %s", key)
        return key
    if isinstance(template, dict):
        template = template.get(plural_form(code, params.get("count", 0))) or template["other"]
    elif not params and plain is not None:
        return plain
    try:
        return template.format_map(params)  # a plain dict formats twice as fast as the subclass
    except KeyError:
        return template.format_map(_Params(params))  # a field without a param stays as written
