"""Finding English catalog text in what the bot showed: for the end-to-end games in other languages."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from string import Formatter
from typing import Any

from tests.fakediscord import FakeMessage, MessageVersion

LOCALES = Path(__file__).resolve().parents[2] / "bot" / "locales"
MIN_FRAGMENT = 12  # characters: shorter pieces ("Mia", " · ", "**{name}**") are shared by every language
SKIPPED = ("name.json",)  # command and option names: Discord shows them, never inside a message


def _templates(locale: str) -> list[str]:
    """Every template of ``locale``'s catalog (each plural form on its own)."""
    out: list[str] = []
    folder = LOCALES / locale
    for path in sorted(folder.glob("*.json")) if folder.is_dir() else []:
        if path.name in SKIPPED:
            continue
        for value in json.loads(path.read_text(encoding="utf-8")).values():
            out += list(value.values()) if isinstance(value, dict) else [value]
    return out


@cache
def english_fragments(locale: str) -> frozenset[str]:
    """The English catalog's literal text (templates split at their {fields} and line breaks), in pieces of at
    least MIN_FRAGMENT characters that ``locale``'s own catalog does not also contain."""
    own = "\n".join(_templates(locale))
    pieces: set[str] = set()
    for template in _templates("en"):
        for literal, *_ in Formatter().parse(template):
            for line in literal.split("\n"):
                piece = line.strip()
                if len(piece) >= MIN_FRAGMENT and piece not in own:
                    pieces.add(piece)
    return frozenset(pieces)


def version_text(version: MessageVersion) -> str:
    """A message version's content, embeds and components (labels, placeholders, options) as text."""
    parts = [version.content]
    for embed in version.embeds:
        parts += [str(embed.get("title", "")), str(embed.get("description", ""))]
        parts += [f"{f.get('name', '')}\n{f.get('value', '')}" for f in embed.get("fields", [])]
        parts.append(str((embed.get("footer") or {}).get("text", "")))
    parts += _component_texts(version.components)
    return "\n".join(parts)


def _component_texts(components: list[dict[str, Any]]) -> list[str]:
    out: list[str] = []
    for component in components:
        for key in ("label", "placeholder", "content"):
            if component.get(key):
                out.append(str(component[key]))
        for option in component.get("options", []):
            out += [str(option.get("label", "")), str(option.get("description", ""))]
        out += _component_texts(component.get("components", []))
    return out


def english_in(messages: list[FakeMessage], locale: str) -> list[tuple[str, str]]:
    """(fragment, the message text it was found in) for every English fragment in any version of ``messages``."""
    fragments = english_fragments(locale)
    found: list[tuple[str, str]] = []
    for message in messages:
        for version in message.history:
            text = version_text(version)
            found += [(fragment, text) for fragment in sorted(fragments) if fragment in text]
    return found


def assert_no_english(messages: list[FakeMessage], locale: str) -> None:
    assert messages, "nothing to check"
    found = english_in(messages, locale)
    report = "\n".join(f"  {fragment!r} in {text[:200]!r}" for fragment, text in found[:40])
    assert not found, f"{len(found)} English catalog fragments in {locale} messages:\n{report}"
