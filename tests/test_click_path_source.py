"""The Discord side keeps one path for a click (issue 11): no cog reaches another by name, refusals are answered
by the one error path (cogs/utils/replies.answer_error), a table message is held only through
``presenter.holding``, and Discord's select limit is one constant."""

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
