"""The engine tests of Pig and Liar's Dice run twice: on the compiled fast path (bot/games/_fast.c, what the registry
serves when it is built) and on the pure-Python engine it must equal (the reference). The registry's engine object
is the same in both runs (module ``ENGINE``s, ``get_engine``); only its class is switched, so every test module
that imports it reaches the implementation of the run.

Where a C compiler is found the extension must have been built (``pip install -e .`` builds it): the compiled runs
fail then rather than skip, so a build that broke is seen. Without a compiler they skip, saying so.
"""

from __future__ import annotations

import shutil
import sysconfig
from collections.abc import Iterator

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


def compiler() -> bool:
    cc = (sysconfig.get_config_var("CC") or "cc").split()[0]
    return shutil.which(cc) is not None


def require_compiled() -> None:
    """Skip (no C compiler here) or fail (a compiler, but no extension) when bot.games._fast is not importable."""
    if _compiled.built():
        return
    if compiler():
        pytest.fail("bot.games._fast is not built although a C compiler is here: run `pip install -e .` (setup.py)")
    pytest.skip("bot.games._fast is not built (no C compiler): the pure-Python engines only")


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
