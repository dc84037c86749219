"""docs/ACHIEVEMENTS.md lists every achievement, by its stored id and its English name, once, and no other."""

from __future__ import annotations

import re
from pathlib import Path

from bot.achievements import ACHIEVEMENTS, catalog_key
from bot.i18n import t

DOC = Path(__file__).resolve().parents[2] / "docs" / "ACHIEVEMENTS.md"


def test_the_doc_has_a_row_for_each_achievement_with_its_name():
    rows = re.findall(r"^\| `(\w+)` \| ([^|]+) \|", DOC.read_text(encoding="utf-8"), re.MULTILINE)
    assert [row[0] for row in rows] == [a.id for a in ACHIEVEMENTS]
    assert [row[1].strip() for row in rows] == [t(catalog_key(a.id), "en") for a in ACHIEVEMENTS]
    assert len(ACHIEVEMENTS) == 29
