"""The engine tests of Pig and Liar's Dice run twice: on the compiled fast path (bot/games/_fast.c, what the registry
serves when it is built) and on the pure-Python engine it must equal (the reference). The registry's engine object
is the same in both runs (module ``ENGINE``s, ``get_engine``); only its class is switched, so every test module
that imports it reaches the implementation of the run.

Where the extension can be built (a C compiler and Python's headers; ``pip install -e .`` builds it) it must have been:
the compiled runs fail then rather than skip, so a build that broke is seen. Elsewhere they skip, saying so.
"""

from __future__ import annotations

import shutil
import sysconfig
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.games import _compiled, liars_dice, pig

IMPLEMENTATIONS = ("compiled", "pure")
# the modules whose tests run on both: the two engines' own, and the contract and copy tests of every game
BOTH = {
    "test_pig",
    "test_pig_compat",
    "test_liars_dice",
    "test_liars_dice_compat",
    "test_liars_dice_properties",
    "test_contract",
    "test_state_copies",
}
ENGINES = (
    (pig.ENGINE, pig.Pig, pig.CompiledPig),
    (liars_dice.ENGINE, liars_dice.LiarsDice, liars_dice.CompiledLiarsDice),
)


def can_build() -> bool:
    """A C compiler and Python's headers are here: ``pip install`` builds the extension (setup.py)."""
    cc = (sysconfig.get_config_var("CC") or "cc").split()[0]
    return shutil.which(cc) is not None and (Path(sysconfig.get_paths()["include"]) / "Python.h").is_file()


def require_compiled() -> None:
    """Skip (it cannot be built here) or fail (it can, but was not) when bot.games._fast is not importable."""
    if _compiled.built():
        return
    if can_build():
        pytest.fail("bot.games._fast is not built, though a C compiler and Python headers are here: pip install -e .")
    pytest.skip("bot.games._fast is not built (no C compiler or no Python headers): the pure-Python engines only")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if metafunc.module.__name__.rpartition(".")[2] in BOTH:
        metafunc.parametrize("engine_impl", IMPLEMENTATIONS, indirect=True, scope="module")


@pytest.fixture(scope="module", autouse=True)
def engine_impl(request: pytest.FixtureRequest) -> Iterator[str | None]:
    """The implementation of this run (None outside the modules of ``BOTH``): the registry's engines switched to it."""
    impl = getattr(request, "param", None)
    if impl is None:
        yield None
        return
    if impl == "compiled":
        require_compiled()
    was = [type(engine) for engine, _, _ in ENGINES]
    for engine, pure, fast in ENGINES:
        engine.__class__ = fast if impl == "compiled" else pure
    try:
        yield impl
    finally:
        for (engine, _, _), cls in zip(ENGINES, was, strict=True):
            engine.__class__ = cls
