"""Log lines for table events read as words, never as the service's internal codes."""

from __future__ import annotations

import pytest

from bot.render import event_text


@pytest.mark.parametrize(
    ("reason", "words"),
    [("cancelled", "cancelled"), ("expired", "lobby expired"), ("empty", "everyone left the lobby")],
)
def test_a_closed_table_says_why_in_words(reason: str, words: str) -> None:
    text = event_text("pig", "closed", {"reason": reason}, ["alice"], "en")
    assert text is not None and words in text and f"({reason})" not in text


def test_a_closed_table_with_an_unknown_reason_still_reads_as_words() -> None:
    assert event_text("mia", "closed", {"reason": "no_such_reason"}, ["alice"], "en") == "Table closed."
