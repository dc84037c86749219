"""The lobby's ⚙ Options form: a game's options as modal pages, and a submitted page read back into options.

The pages come from the engine's ``Options`` dataclass alone (``dataclasses.fields`` and ``OptionsBase.declared()``),
so a new game gets a form without code here. In field order, each option is one top-level component of a page:

* a bool: a switch. A page's switches share one ``CheckboxGroup`` (checked = on) where the first of them stands;
  a page with a single switch shows it as a ``Checkbox``;
* a declared choice of 2-10 values: a ``RadioGroup``; of more (up to 20), or of one: a ``Select``;
* a declared whole-number range of at most 20 numbers: a ``Select``; a larger one, or an undeclared number: a
  ``TextInput``; free text (Mythical Dice's ``hands_by_players``): a ``TextInput`` of at most 60 characters.

Discord allows 5 top-level components in a modal: a page holds 5, the next option opens the next page. The labels
are the catalog's (``form.<game>.<option>``, ``form.<game>.<option>.<value>``, see ``bot.render.option_label``),
the descriptions the slash options' (``<game>.cmd.opt_<option>``), each field prefilled with the table's value.

A submit is read from the interaction's data alone (``submitted``), never from discord.py's in-memory modal: a form
opened before a restart is still applied after it. The modal's custom id is ``do:<table id>:<page>``; each input's
custom id is its option's name, the switches' group is ``+switches`` (never a field name: not an identifier).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import discord

from bot.games.base import OptionsBase
from bot.games.parsing import clip, parse_int, quote
from bot.i18n import has, t
from bot.render import option_label, option_word
from bot.tables import Table, TableError

MODAL = "do"  # the modal's custom id: do:<table id>:<page>
MODAL_ID = re.compile(r"do:(?P<table>[^:]*):(?P<page>[^:]*)")
ACTION = "options"  # the lobby control's action (``options:<page>``) and the select's name
SWITCHES = "+switches"
PER_PAGE = 5  # Discord's limit of a modal's top-level components
MAX_RADIO = 10  # a radio group's options (2-10); a checkbox group's too (1-10)
PICK_MOST = 20  # the longest list the form offers to pick from (under a select's limit); a longer one is typed
TEXT_LIMIT = 60  # free text, as the slash options' Range
NUMBER_LIMIT = 20  # an undeclared whole number's digits
TITLE, LABEL, DESCRIPTION, OPTION = 45, 45, 100, 100  # Discord's limits: modal title, label, description, option


def fit(text: str, limit: int) -> str:
    """At most ``limit`` characters, the ellipsis included (``clip`` adds it past the limit)."""
    return clip(text, limit - 1) if len(text) > limit else text


@dataclass(frozen=True)
class Field:
    """One option on a page: its name, how it is asked (``switch``, ``radio``, ``select``, ``text``), the values
    offered (a radio group or select) and a text input's longest answer."""

    name: str
    kind: str
    values: tuple[Any, ...] = ()
    limit: int = 0


@dataclass(frozen=True)
class Page:
    """One modal: its top-level components in order, each one field or the page's switches (bools, together)."""

    number: int  # 1-based
    slots: tuple[tuple[Field, ...], ...]

    @property
    def fields(self) -> tuple[Field, ...]:
        return tuple(f for slot in self.slots for f in slot)

    def field(self, name: str) -> Field | None:
        return next((f for f in self.fields if f.name == name), None)

    @property
    def switches(self) -> tuple[Field, ...]:
        return tuple(f for f in self.fields if f.kind == "switch")


def field_of(f: dataclasses.Field[Any], declared: Mapping[str, tuple[str, Any]]) -> Field:
    default = f.default
    if isinstance(default, bool):
        return Field(f.name, "switch")
    kind, domain = declared.get(f.name, ("", ()))
    if kind == "choices":
        values = tuple(domain)
        if 2 <= len(values) <= MAX_RADIO:
            return Field(f.name, "radio", values)
        if len(values) <= PICK_MOST:
            return Field(f.name, "select", values)
        return Field(f.name, "text", limit=max(len(str(v)) for v in values))
    if kind == "range":
        lo, hi = domain
        if hi - lo + 1 <= PICK_MOST:
            return Field(f.name, "select", tuple(range(lo, hi + 1)))
        return Field(f.name, "text", limit=max(len(str(lo)), len(str(hi))))
    if isinstance(default, int):
        return Field(f.name, "text", limit=NUMBER_LIMIT)
    return Field(f.name, "text", limit=TEXT_LIMIT)


_PAGES: dict[type[OptionsBase], tuple[Page, ...]] = {}


def pages_of(options: type[OptionsBase]) -> tuple[Page, ...]:
    """A game's form pages, in field order (made once per Options class)."""
    found = _PAGES.get(options)
    if found is None:
        found = _PAGES[options] = _layout(options)
    return found


def _layout(options: type[OptionsBase]) -> tuple[Page, ...]:
    declared = options.declared()
    pages: list[list[list[Field]]] = [[]]
    switches: list[Field] | None = None  # the current page's switches, once it has any
    for f in dataclasses.fields(options):
        item = field_of(f, declared)
        if item.kind == "switch" and switches is not None and len(switches) < MAX_RADIO:
            switches.append(item)  # joins the page's switches, wherever they stand
            continue
        if len(pages[-1]) == PER_PAGE:
            pages.append([])
            switches = None
        slot = [item]
        pages[-1].append(slot)
        if item.kind == "switch":
            switches = slot
    return tuple(Page(n, tuple(tuple(slot) for slot in page)) for n, page in enumerate(pages, 1) if page)


def pages(table: Table) -> tuple[Page, ...]:
    return pages_of(table.engine.Options)


def page_of(table: Table, number: str | int) -> Page:
    """Page ``number`` (its text in a custom id, or the number) of the table's form; a refusal for no such page."""
    found = pages(table)
    page = parse_int(number) if isinstance(number, str) else number
    if page is None or not 1 <= page <= len(found):
        raise TableError("form_no_page", page=quote(str(number)), pages=len(found))
    return found[page - 1]


def describe(game: str, name: str, locale: str) -> str | None:
    """A field's description: the slash option's (``<game>.cmd.opt_<name>``), if the game has one."""
    key = f"{game}.cmd.opt_{name}"
    return fit(t(key, locale), DESCRIPTION) if has(key, locale) else None


def page_label(table: Table, page: Page, locale: str) -> str:
    """A page in the lobby's ⚙ select: its number and the labels of its options."""
    names = ", ".join(option_label(table.game, f.name, locale) for f in page.fields)
    return fit(t("form.page", locale, page=page.number, options=names), OPTION)


def modal(table: Table, number: str | int, locale: str) -> discord.ui.Modal:
    """Page ``number`` of the table's form, prefilled with its options, in ``locale`` (the host's language)."""
    page = page_of(table, number)
    number = page.number
    total = len(pages(table))
    game, current = table.game, table.engine.options(table.options).to_dict()
    name = t(f"game.{game}", locale)
    if total == 1:
        title = t("form.title_one", locale, game=name)
    else:
        title = t("form.title", locale, game=name, page=number, pages=total)
    form = discord.ui.Modal(title=fit(title, TITLE), custom_id=f"{MODAL}:{table.id}:{number}", timeout=None)
    for slot in page.slots:
        form.add_item(slot_item(game, slot, current, locale))
    return form


def slot_item(game: str, slot: tuple[Field, ...], current: Mapping[str, Any], locale: str) -> discord.ui.Label[Any]:
    first = slot[0]
    if first.kind == "switch" and len(slot) > 1:
        options = [
            discord.CheckboxGroupOption(
                label=fit(option_label(game, f.name, locale), OPTION),
                value=f.name,
                description=describe(game, f.name, locale),
                default=bool(current.get(f.name)),
            )
            for f in slot
        ]
        group: discord.ui.CheckboxGroup[Any] = discord.ui.CheckboxGroup(
            custom_id=SWITCHES, options=options, min_values=0, max_values=len(options), required=False
        )
        return discord.ui.Label(
            text=fit(t("form.switches", locale), LABEL), description=t("form.switches_hint", locale), component=group
        )
    value = current.get(first.name)
    item: discord.ui.Item[Any]
    if first.kind == "switch":
        item = discord.ui.Checkbox(custom_id=first.name, default=bool(value))
    elif first.kind in ("radio", "select"):
        choices = [(fit(option_word(game, first.name, v, locale), OPTION), str(v), v == value) for v in first.values]
        if first.kind == "radio":
            radio = [discord.RadioGroupOption(label=a, value=b, default=c) for a, b, c in choices]
            item = discord.ui.RadioGroup(custom_id=first.name, options=radio)
        else:
            listed = [discord.SelectOption(label=a, value=b, default=c) for a, b, c in choices]
            item = discord.ui.Select(custom_id=first.name, options=listed, required=True)
    else:  # the value as it is, never cut: a submit unchanged must read back the same
        text = str(value)
        item = discord.ui.TextInput(
            custom_id=first.name, default=text, max_length=max(first.limit, len(text)), required=True
        )
    return discord.ui.Label(
        text=fit(option_label(game, first.name, locale), LABEL),
        description=describe(game, first.name, locale),
        component=item,
    )


def parse_custom_id(custom_id: str) -> tuple[int, str] | None:
    """(table id, page text) of our modal's custom id, None for anyone else's; TableError("bad_control") for one
    of ours that we did not make (the page is checked against the table's: ``page_of``)."""
    if not custom_id.startswith(f"{MODAL}:"):
        return None
    found = MODAL_ID.fullmatch(custom_id)
    table_id = parse_int(found["table"]) if found else None
    if found is None or table_id is None:
        raise TableError("bad_control")
    return table_id, found["page"]


def leaves(components: Any) -> list[Mapping[str, Any]]:
    """The submitted inputs, out of their labels and rows."""
    found: list[Mapping[str, Any]] = []
    for comp in components if isinstance(components, list) else []:
        if not isinstance(comp, Mapping):
            continue
        if comp.get("type") == 18:
            found += leaves([comp.get("component")])
        elif comp.get("type") == 1:
            found += leaves(comp.get("components"))
        else:
            found.append(comp)
    return found


def submitted(table: Table, number: str | int, components: Any, locale: str) -> dict[str, Any]:
    """A submitted page as the options the engine parses (strings, and bools for switches): the names must be the
    page's, each value of the shape its input sends. The values themselves are the engine's to judge
    (``TableService.set_options``: a choice not offered, "abc" for a number, ...). ``locale``: the refusals name
    an option in words."""
    page = page_of(table, number)
    options: dict[str, Any] = {}
    seen: set[str] = set()
    for leaf in leaves(components):
        name = leaf.get("custom_id")
        if not isinstance(name, str) or name in seen:
            raise TableError("form_bad_value", field=quote(name))  # a repeated input, or one without a name
        seen.add(name)
        if name == SWITCHES and len(page.switches) > 1:
            values = leaf.get("values")
            if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
                raise TableError("form_bad_value", field=t("form.switches", locale))
            if unknown := [v for v in values if page.field(v) is None or v == SWITCHES]:
                raise TableError("form_unknown_option", field=quote(unknown[0]), page=page.number)
            if other := [v for v in values if getattr(page.field(v), "kind", None) != "switch"]:
                raise TableError("form_bad_value", field=option_label(table.game, other[0], locale))
            options.update({f.name: f.name in values for f in page.switches})
            continue
        field = page.field(name)
        if field is None or (field.kind == "switch" and len(page.switches) > 1):
            raise TableError("form_unknown_option", field=quote(name), page=page.number)
        options[name] = value_of(field, leaf, option_label(table.game, name, locale))
    return options


def value_of(field: Field, leaf: Mapping[str, Any], label: str) -> str | bool:
    """One input's answer, as its kind of component sends it (Discord's shapes; ``form_bad_value`` otherwise)."""
    if field.kind == "switch":
        value = leaf.get("value")
        ok = isinstance(value, bool)
    elif field.kind == "select":
        values = leaf.get("values")
        ok = isinstance(values, list) and len(values) == 1 and isinstance(values[0], str)
        value = values[0] if ok else None  # type: ignore[index]
    else:  # radio (one value, a string) or text
        value = leaf.get("value")
        ok = isinstance(value, str) and (field.kind != "text" or len(value) <= field.limit)
    if not ok or value is None:
        raise TableError("form_bad_value", field=label)
    return value
