"""The Discord side keeps one path for a click (issue 11): no cog reaches another by name, refusals are answered
by the one error path (cogs/utils/replies.answer_error), a table message is held only through
``presenter.holding``, and Discord's select limit is one constant. Issue 23: a table control has one entry point
(``Tables.on_interaction``) and one function that answers it (``Click.answer``), the table message is built in one
module, and the bot types what the cogs provide with ``bot.surface``'s Protocols instead of importing them."""

from __future__ import annotations

import re
from pathlib import Path

COGS = Path(__file__).resolve().parent.parent / "cogs"
SOURCES = {path.relative_to(COGS.parent).as_posix(): path.read_text(encoding="utf-8") for path in COGS.rglob("*.py")}


def places(pattern: str, *, outside: tuple[str, ...] = ()) -> list[str]:
    found = re.compile(pattern)
    return [
        f"{name}:{number}"
        for name, text in SOURCES.items()
        if name not in outside
        for number, line in enumerate(text.splitlines(), 1)
        if found.search(line)
    ]


def test_no_cog_reaches_another_by_name_or_scans_for_the_game_cog():
    assert places(r"get_cog\(") == []  # bot.table_ui and bot.game_cogs are typed
    assert places(r"bot\.cogs\.values\(\)") == []


def test_refusals_are_answered_by_the_one_error_path():
    assert places(r"except .*REFUSALS") == []


def test_a_table_message_is_held_only_through_the_context_manager():
    assert places(r"\.(hold|release)\(", outside=("cogs/utils/presenter.py",)) == []


def test_the_select_limit_is_defined_once():
    assert places(r"\[:25\]") == []
    assert [place.split(":")[0] for place in places(r"= 25\b", outside=("cogs/help.py",))] == [
        "cogs/utils/components.py"
    ]


# -- one object answers a click (issue 23) ------------------------------------------------------

ANSWERING = r"\.response\.(edit_message|send_message|defer)\(|\.edit_original_response\(|\.followup\.send\("


def function_of(name: str, place: str) -> str:
    """The name of the innermost ``def`` of ``name`` that holds ``place`` (a "file:line" from ``places``)."""
    lines = SOURCES[name].splitlines()
    number = int(place.rsplit(":", 1)[1])
    for line in reversed(lines[:number]):
        found = re.match(r"\s*(?:async )?def (\w+)\(", line)
        if found and len(line) - len(line.lstrip()) < len(lines[number - 1]) - len(lines[number - 1].lstrip()):
            return found[1]
    return ""


def test_a_table_control_has_one_entry_point_the_listener_that_sees_every_click():
    # discord.py hands every component interaction to on_interaction, one whose control the message no longer has
    # too (its DynamicItem dispatch drops those): the table controls' DynamicItems answer nothing themselves.
    entries = places(r"Click\(self, interaction\)\.run\(\)")
    assert [function_of("cogs/tables.py", place) for place in entries] == ["on_interaction"]
    assert [place.split(":")[0] for place in places(r"def on_interaction\(")] == ["cogs/tables.py"]
    assert places(r"def callback\(|on_control|table_ui\(") == [
        place
        for place in places(r"def callback\(")
        if place.startswith(
            (
                "cogs/history.py",
                "cogs/stats.py",
                "cogs/privacy.py",
                "cogs/utils/rematch.py",
                "cogs/help.py",
                "cogs/tournament.py",
            )
        )
    ]  # other cogs' own controls (pages, confirmations, the end message's 🔁 Rematch, /help's select, a tournament's
    # sign-up buttons) keep theirs


def test_the_table_surface_answers_in_one_function():
    inside = [place for place in places(ANSWERING) if place.startswith("cogs/tables.py:")]
    assert inside and {function_of("cogs/tables.py", place) for place in inside} == {"answer"}
    private = places(r"send_ephemeral\(", outside=tuple(n for n in SOURCES if n != "cogs/tables.py"))
    assert {function_of("cogs/tables.py", place) for place in private} == {"answer", "cancel"}
    assert places(r"within_deadline", outside=tuple(n for n in SOURCES if n != "cogs/tables.py")) == []


def test_the_table_message_is_built_in_one_module_that_does_not_import_the_surface():
    built = places(r"^def (table_message|table_rows|text_message)\(")
    assert [place.split(":")[0] for place in built] == ["cogs/utils/components.py"] * 3
    assert places(r"from cogs\.tables import|import cogs\.tables") == []


def test_the_bot_types_what_the_cogs_provide_with_protocols_and_never_imports_them():
    client = (COGS.parent / "bot" / "client.py").read_text(encoding="utf-8")
    assert not re.search(r"^\s*(from cogs\b|import cogs\b)", client, re.MULTILINE)  # not even the package
    assert "from bot.surface import" in client


def test_no_private_name_is_imported_across_the_cogs():
    assert places(r"^\s*from (cogs|bot)\S* import (.*, )?_[a-z]") == []
