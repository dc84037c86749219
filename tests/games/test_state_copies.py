"""One way of copying state for every engine (``bot.games.base.clone``): a true deep copy, fast enough for ``apply``."""

from __future__ import annotations

import pytest

from bot.games import available_games
from bot.games.base import clone
from tests.games.contract import check_state_copies, mutable_parts


def test_clone_copies_nested_containers_even_in_lists_that_start_with_a_scalar():
    value = {"a": [1, [2, 3], {"b": [4]}], "t": (5, 6), "s": "x"}
    copied = clone(value)
    assert copied == value
    assert not mutable_parts(copied).keys() & mutable_parts(value).keys()
    assert copied["t"] is value["t"]  # immutables are shared, not copied


def test_clone_refuses_what_it_cannot_copy():
    with pytest.raises(TypeError):
        clone({1, 2})


@pytest.mark.parametrize("name", available_games())
def test_every_engines_state_copies_deeply_and_its_json_shares_nothing_with_it(name):
    check_state_copies(name)
