"""A rematch: a new lobby from a finished game (filled in by issue 25's rematch work)."""

from __future__ import annotations


class RematchCommands:
    """The rematch half of the table service's API (``TableService`` is one)."""
