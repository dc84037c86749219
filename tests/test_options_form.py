"""The lobby's ⚙ Options form (cogs/utils/options_form.py): every game's pages fit Discord's modal limits in every
locale, every option is on exactly one page, a submitted page reads back the table's options, forged submits are
refused with their own code, and the lobby shows its options in words. The sixth game (tests/sixth_game) gets a
form without a line of code for it."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Any

import discord
import pytest

from bot.games import available_games, get_engine, registry
from bot.i18n import catalog, locales, t
from bot.render import table_text
from bot.tables import TableError
from bot.tables.model import Seat, Table
from cogs.utils import options_form
from cogs.utils.components import options_control, table_rows
from tests.fakediscord.modals import modal_problems
from tests.sixth_game.engine import SPEC

GAMES = ("liar", "mex", "mia", "mythic", "pig")
# Options away from the defaults, each game's, that its engine accepts: the form must read these back too.
CHANGED: dict[str, dict[str, Any]] = {
    "liar": {"dice_per_player": 3, "raise_rule": "sum", "wild_ones": True, "mode": "loot", "max_rounds": 7},
    "mex": {"starting_lives": 40, "max_throws": 2, "mex_passes_lead": True, "points_enabled": False},
    "mia": {"lives": 9, "blind_pass": "any", "stop_at_first_elimination": True},
    "mythic": {"allow_two_players": True, "hands_by_players": "2:6,3:7", "dice_set": "1,3,2,7,7,8,8"},
    "pig": {"dice": 2, "target": 250, "double_ones": "bust", "equal_turns": True, "auto_hold_at_target": False},
}


@pytest.fixture
def sixth_game() -> Iterator[str]:
    registry.register(SPEC)
    try:
        yield SPEC.engine.name
    finally:
        registry.unregister(SPEC.engine.name)


def lobby(game: str, options: dict[str, Any] | None = None, seats: int = 2) -> Table:
    people = [Seat(100 + i, f"P{i}") for i in range(seats)]
    return Table(7, 1, 100, game, "lobby", 100, get_engine(game).options(options or {}).to_dict(), people)


def modal_dict(table: Table, page: int, locale: str = "en") -> dict[str, Any]:
    return options_form.modal(table, page, locale).to_dict()


def answered(modal: dict[str, Any], **answers: Any) -> list[dict[str, Any]]:
    """What Discord sends for ``modal`` submitted with ``answers`` (by custom id), the rest as prefilled."""
    out = []
    for label in modal["components"]:
        comp = label["component"]
        defaults = [o["value"] for o in comp.get("options", []) if o.get("default")]
        kind, cid = comp["type"], comp["custom_id"]
        if kind == 4:
            sent = {"value": answers.get(cid, comp.get("value", ""))}
        elif kind == 21:
            sent = {"value": answers.get(cid, defaults[0] if defaults else None)}
        elif kind == 23:
            sent = {"value": answers.get(cid, comp.get("default", False))}
        else:
            sent = {"values": answers.get(cid, defaults)}
        out.append({"type": 18, "id": 1, "component": {"type": kind, "id": 2, "custom_id": cid, **sent}})
    return out


def refused(table: Table, page: Any, components: Any) -> TableError:
    with pytest.raises(TableError) as caught:
        options_form.submitted(table, page, components, "en")
    return caught.value


# -- the pages ---------------------------------------------------------------------------------------------------


def test_every_option_of_every_game_is_on_exactly_one_page(sixth_game):
    assert set(GAMES) < set(available_games())
    for game in available_games():
        options = get_engine(game).Options
        pages = options_form.pages_of(options)
        names = [f.name for page in pages for f in page.fields]
        # each once; in field order, but a page's switches stand together where the first of them stands
        assert sorted(names) == sorted(f.name for f in dataclasses.fields(options)), game
        assert len(names) == len(set(names)), game
        for page in pages:
            assert 1 <= len(page.slots) <= options_form.PER_PAGE
            assert len(page.switches) <= 10 and [p.number for p in pages] == list(range(1, len(pages) + 1))
            assert sum(1 for slot in page.slots if slot[0].kind == "switch") <= 1  # a page's switches together


def test_the_page_layout_of_each_game():
    layout = {
        game: [
            [[f.name for f in slot] for slot in page.slots] for page in options_form.pages_of(get_engine(game).Options)
        ]
        for game in GAMES
    }
    assert layout["liar"] == [
        [["dice_per_player"], ["raise_rule"], ["wild_ones"], ["mode"], ["starter"]],
        [["max_rounds"]],
    ]
    assert len(layout["mex"]) == 2 and layout["mex"][1][1] == [
        "mex_ends_turn",
        "points_enabled",
        "mex_passes_lead",
        "hold_one_or_two",
    ]
    assert len(layout["mia"]) == 2 and len(layout["mythic"]) == 3
    assert layout["mythic"][0][0] == ["allow_two_players", "special_lead_sets_no_suit"]
    assert layout["pig"] == [
        [
            ["dice"],
            ["target"],
            ["double_ones"],
            ["doubles_multiplier"],
            ["must_roll_after_doubles", "auto_hold_at_target", "equal_turns"],
        ]
    ]
    kinds = {f.name: f.kind for page in options_form.pages_of(get_engine("liar").Options) for f in page.fields}
    assert kinds == {
        "dice_per_player": "select",  # 1-6: a small range
        "raise_rule": "radio",
        "wild_ones": "switch",
        "mode": "radio",
        "starter": "radio",
        "max_rounds": "text",  # 0-10,000
    }
    hands = options_form.pages_of(get_engine("mythic").Options)[0].field("hands_by_players")
    assert hands is not None and (hands.kind, hands.limit) == ("text", 60)


@pytest.mark.parametrize("locale", locales())
def test_every_page_of_every_game_fits_discords_modal_limits(sixth_game, locale):
    for game in available_games():
        for options in ({}, CHANGED.get(game, {})):
            table = lobby(game, options)
            for page in options_form.pages(table):
                modal = modal_dict(table, page.number, locale)
                assert modal_problems(modal) == [], (game, page.number, locale)
                assert modal["custom_id"] == f"do:{table.id}:{page.number}"
                for label in modal["components"]:  # the texts fit as written: nothing was cut to fit
                    assert not label["label"].endswith("…") and not label.get("description", "").endswith("…")
                    for option in label["component"].get("options", []):
                        assert not option["label"].endswith("…"), (game, option)
                assert not modal["title"].endswith("…")


@pytest.mark.parametrize("locale", locales())
def test_the_form_texts_are_translated_and_within_discords_limits(locale):
    english, texts = catalog("en"), catalog(locale)
    keys = [k for k in english if k.startswith("form.")]
    assert all(k in texts for k in keys), [k for k in keys if k not in texts]
    for key in keys:
        game, _, rest = key.removeprefix("form.").partition(".")
        if game in GAMES:
            limit = 45 if "." not in rest else 100  # a label, or a value's word
            assert len(t(key, locale)) <= limit, (locale, key)
    for game in GAMES:
        for f in dataclasses.fields(get_engine(game).Options):
            assert f"form.{game}.{f.name}" in texts, (locale, game, f.name)
            for value in (
                get_engine(game).Options.declared().get(f.name, ("", ()))[1] if f.metadata.get("choices") else ()
            ):
                assert f"form.{game}.{f.name}.{value}" in texts, (locale, game, f.name, value)


# -- a submitted page --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_a_submitted_page_reads_back_the_tables_options(game):
    for options in ({}, CHANGED[game]):
        table = lobby(game, options)
        for page in options_form.pages(table):
            got = options_form.submitted(table, page.number, answered(modal_dict(table, page.number)), "en")
            assert set(got) == {f.name for f in page.fields}
            assert table.engine.options({**table.options, **got}).to_dict() == table.options, (game, page.number)


def test_a_submitted_page_changes_what_was_changed():
    table = lobby("liar")
    got = options_form.submitted(
        table, "1", answered(modal_dict(table, 1), raise_rule="pirates", wild_ones=True, dice_per_player=["3"]), "en"
    )
    assert got == {
        "dice_per_player": "3",
        "raise_rule": "pirates",
        "wild_ones": True,
        "mode": "single",
        "starter": "loser",
    }
    chosen = table.engine.options({**table.options, **got})
    assert (chosen.dice_per_player, chosen.raise_rule, chosen.wild_ones) == (3, "pirates", True)
    pig = lobby("pig")
    got = options_form.submitted(pig, 1, answered(modal_dict(pig, 1), **{"+switches": ["equal_turns"]}), "en")
    assert (got["equal_turns"], got["auto_hold_at_target"], got["must_roll_after_doubles"]) == (True, False, False)


def test_forged_submits_are_refused_with_their_own_code():
    table = lobby("liar")
    page = answered(modal_dict(table, 1))

    def with_leaf(**leaf: Any) -> list[dict[str, Any]]:
        return [*page, {"type": 18, "component": leaf}]

    error = refused(table, 1, with_leaf(type=4, custom_id="max_rounds", value="3"))  # on page 2, not page 1
    assert (error.code, error.params) == ("form_unknown_option", {"field": "'max_rounds'", "page": 1})
    assert refused(table, 1, with_leaf(type=4, custom_id="nope", value="3")).code == "form_unknown_option"
    assert refused(table, 1, with_leaf(type=22, custom_id="+switches", values=["wild_ones"])).code == (
        "form_unknown_option"  # one switch on this page: a checkbox, no group
    )
    assert refused(table, 1, [*page, page[0]]).code == "form_bad_value"  # an input twice
    assert refused(table, 1, with_leaf(type=4, value="3")).code == "form_bad_value"  # no custom id
    for name, sent in (
        ("wild_ones", {"value": "true"}),  # a checkbox sends a bool
        ("raise_rule", {"value": None}),  # nothing chosen
        ("raise_rule", {"value": ["poker"]}),
        ("dice_per_player", {"values": ["3", "4"]}),  # one value only
        ("dice_per_player", {"values": [3]}),
    ):
        forged = [
            leaf if leaf["component"]["custom_id"] != name else {"type": 18, "component": {"custom_id": name, **sent}}
            for leaf in page
        ]
        error = refused(table, 1, forged)
        assert error.code == "form_bad_value" and error.params["field"] == t(f"form.liar.{name}", "en"), name
    two = answered(modal_dict(table, 2), max_rounds="9" * 61)
    assert refused(table, 2, two).code == "form_bad_value"  # longer than the input takes
    for page_text in ("0", "3", "x", "", "²"):
        error = refused(table, page_text, page)
        assert error.code == "form_no_page" and error.params["pages"] == 2
    mex = lobby("mex")
    group = answered(modal_dict(mex, 2))
    forged = [
        *group[:1],
        {"type": 18, "component": {"type": 22, "custom_id": "+switches", "values": ["first_starter"]}},
    ]
    assert refused(mex, 2, forged).code == "form_bad_value"  # a radio field's name among the switches
    forged = [*group[:1], {"type": 18, "component": {"type": 22, "custom_id": "+switches", "values": ["bogus"]}}]
    assert refused(mex, 2, forged).code == "form_unknown_option"
    forged = [*group[:1], {"type": 18, "component": {"type": 22, "custom_id": "+switches", "values": "points_enabled"}}]
    assert refused(mex, 2, forged).code == "form_bad_value"
    forged = [*group[:1], {"type": 18, "component": {"type": 23, "custom_id": "points_enabled", "value": True}}]
    assert refused(mex, 2, forged).code == "form_unknown_option"  # a grouped switch answers in its group only


def test_the_modal_custom_id():
    assert options_form.parse_custom_id("do:12:3") == (12, "3")
    assert options_form.parse_custom_id("dt:12:3:join") is None  # another control's
    assert options_form.parse_custom_id("other") is None
    for forged in ("do:x:1", "do:12", "do::1", "do:12:1:2", "do:١٢:1"):
        with pytest.raises(TableError) as caught:
            options_form.parse_custom_id(forged)
        assert caught.value.code == "bad_control", forged


# -- the lobby: the ⚙ control and the options in words ---------------------------------------------------------


def test_the_lobby_control_is_a_select_of_pages_or_a_button():
    liar = lobby("liar")
    control = options_control(liar, "en")
    assert control.item.custom_id == f"ds:{liar.id}:{liar.version}:options"
    assert isinstance(control.item, discord.ui.Select)
    assert [(o.label, o.value) for o in control.item.options] == [
        ("Page 1: Dice per player, Raise rule, Wild ones, Game length, Next round opened by", "options:1"),
        ("Page 2: Most rounds (0 = no limit)", "options:2"),
    ]
    pig = options_control(lobby("pig"), "de")
    assert isinstance(pig.item, discord.ui.Button) and pig.item.label == "⚙ Optionen"
    assert pig.item.custom_id == f"dt:{liar.id}:{liar.version}:options:1"
    for locale in locales():
        for game in GAMES:
            rows = table_rows(lobby(game), locale)
            ids = [c.custom_id for row in rows for c in row.children if getattr(c, "custom_id", None)]
            assert sum(":options" in i for i in ids) == 1
            control = options_control(lobby(game), locale)
            for option in getattr(control.item, "options", []):
                assert len(option.label) <= 100
    running = lobby("liar")
    running.status = "running"
    assert not any(
        ":options" in (getattr(c, "custom_id", "") or "") for row in table_rows(running, "en") for c in row.children
    )


def test_the_lobby_shows_its_options_in_words_in_the_tables_language(sixth_game):
    table = lobby("liar", {"mode": "loot", "wild_ones": True, "max_rounds": 0, "raise_rule": "sum"})
    assert (
        table_text(table, "en").head[-1]
        == "⚙ Raise rule: sum (quantity × face must grow) · Wild ones: on · Game length: loot (the loser gives a die)"
    )
    assert table_text(table, "de").head[-1] == (
        "⚙ Erhöhungsregel: Summe (Anzahl × Augenzahl muss steigen) · Einsen sind Joker: an · "
        "Spieldauer: Beute (wer verliert, gibt einen Würfel ab)"
    )
    rounds = lobby("liar", {"mode": "loot", "max_rounds": 12})
    assert "Most rounds (0 = no limit): 12" in table_text(rounds, "en").head[-1]
    assert table_text(lobby("pig", {"target": 50}), "it").head[-1] == "⚙ Punti per vincere: 50"
    assert len(table_text(lobby("pig"), "en").head) == 1  # the defaults: no options line
    # a game that brings no form texts: its slash option's name and choice, in the table's language
    high = lobby(sixth_game, {"ties": "share"})
    assert table_text(high, "en").head[-1] == "⚙ ties: share"
