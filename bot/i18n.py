"""The message catalog: every user-facing string, keyed by locale.

Catalogs are data: ``bot/locales/<locale>/<namespace>.json`` files of flat ``key: template`` maps
(templates use ``str.format`` fields). Adding a language means adding a folder; a missing key
falls back to English. Keys are ``<namespace>.<name>``, e.g. ``error.not_your_turn``. A game registered
from outside bot/games may bring its own ``locales/`` folder (``GameSpec.locales``), read after the bot's.

A template that depends on a number is an object of CLDR plural forms, e.g.
``{"one": "{count} die", "other": "{count} dice"}``; ``t(key, locale, count=n)`` picks the form with
Babel's plural rules for that locale (Russian has one/few/many/other, Welsh six forms).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Any

from babel import Locale

from bot.games.registry import added, on_change

log = logging.getLogger(__name__)

DEFAULT = "en"

# Where the text is shown: None on Discord, "terminal" during `dicetavern play`. On a surface, a key's variant
# ``<key>@<surface>`` (next to the key in its file) replaces the key, e.g. rules that name Discord's buttons.
SURFACE: ContextVar[str | None] = ContextVar("surface", default=None)


Text = str | dict[str, str]  # a template, or a plural entry's forms

# What the catalog is read from: the bot's own folder, then the locale folder of each game registered from outside
# bot/games (``GameSpec.locales``), then the overrides entered with ``overridden``. ``generation()`` counts changes.
_BOT_FOLDER = "bot"
_overrides: list[Mapping[str, Mapping[str, Text | None]]] = []
_generation = 0


def generation() -> int:
    """A number that changes whenever what the catalog says may have changed: a game with its own locale folder
    registered or removed, an ``overridden`` block entered or left. Equal generations, the same texts: a memo of
    text made from the catalog keys on it (the renderers', the Discord components') and is never stale."""
    return _generation


def _changed() -> None:
    global _generation
    _generation += 1
    _catalog.cache_clear()
    _FOUND.clear()
    _HAS.clear()


@contextmanager
def overridden(changes: Mapping[str, Mapping[str, Text | None]]) -> Iterator[None]:
    """Within the block, the catalog reads as if ``changes`` (locale -> key -> template) were in its files; a key
    mapped to None is missing in that locale, which then falls back to English. For tests: a translation that runs
    long, one not finished yet. Blocks nest; each entry and exit is a new ``generation()``."""
    layer = {locale: dict(texts) for locale, texts in changes.items()}
    _overrides.append(layer)
    _changed()
    try:
        yield
    finally:
        _overrides.remove(layer)
        _changed()


def _folders() -> list[Traversable]:
    extra = [resources.files(spec.locales) / "locales" for spec in added() if spec.locales]
    return [resources.files(_BOT_FOLDER) / "locales", *extra]


def _read(folder: Traversable, locale: str) -> dict[str, Text]:
    texts: dict[str, Text] = {}
    folder = folder / locale
    if not folder.is_dir():
        return texts
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".json"):
            namespace = entry.name[: -len(".json")]
            for key, text in json.loads(entry.read_text(encoding="utf-8")).items():
                texts[f"{namespace}.{key}"] = text
    return texts


@cache
def _catalog(locale: str) -> dict[str, Text]:
    merged: dict[str, Text] = {}
    for folder in _folders():
        texts = _read(folder, locale)
        if clash := sorted(texts.keys() & merged.keys()):  # a game's folder adds texts, never replaces the bot's
            raise ValueError(f"{folder}/{locale} repeats catalog keys: {', '.join(clash[:5])}")
        merged.update(texts)
    for layer in _overrides:
        for key, text in layer.get(locale, {}).items():
            if text is None:
                merged.pop(key, None)
            else:
                merged[key] = text
    return merged


def catalog(locale: str) -> dict[str, Text]:
    """Every template of ``locale`` (no English fallback), key -> template. Shared: do not change it (to see
    other texts, a test uses ``overridden``)."""
    return _catalog(locale)


@cache
def locales() -> list[str]:
    folder = resources.files(_BOT_FOLDER) / "locales"
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


# Memos of catalog lookups: t() runs a dozen times per table message. They hold what the catalog says, so they are
# emptied with every new generation() and when they grow past MEMO_MAX (keys come from code, but ``has`` is also
# asked about text already written, such as a menu's bid labels).
MEMO_MAX = 20_000
_FOUND: dict[tuple[str, str | None, str], tuple[str, Text | None, str | None]] = {}
_HAS: dict[tuple[str, str], bool] = {}
_PLURALS: dict[tuple[str, int], str] = {}


def _bound_memos() -> None:
    if len(_FOUND) > MEMO_MAX or len(_HAS) > MEMO_MAX:
        _FOUND.clear()
        _HAS.clear()


def has(key: str, locale: str = DEFAULT) -> bool:
    code = normalise(locale)
    found = _HAS.get((code, key))
    if found is None:
        _bound_memos()
        found = _HAS[(code, key)] = key in _catalog(code) or key in _catalog(DEFAULT)
    return found


def _template(code: str, variant: str | None, key: str) -> Text | None:
    texts = _catalog(code)
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


def _find(code: str, surface: str | None, key: str) -> tuple[str, Text | None, str | None]:
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
    try:
        code = _NORMALISED[locale]
    except (KeyError, TypeError):
        code = normalise(locale)
    memo = (code, SURFACE.get(), key)
    found = _FOUND.get(memo)
    if found is None:
        _bound_memos()
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


on_change(_changed)  # a game registered with its own locale folder changes the catalog
