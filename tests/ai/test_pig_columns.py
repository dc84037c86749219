"""Pig's per-cell solver (bot/ai/pig_columns.py) against the wavefront and per-layer solvers.

Every comparison is bit for bit on the roll/hold table, and the win probabilities agree to rounding.
"""

from __future__ import annotations

import pytest

from bot.ai import pig_columns
from bot.ai.pig_solver import _kernel, solve, solve_layered, solve_wavefront
from bot.ai.pig_tables import PigRules, load_shipped


@pytest.fixture
def numpy():
    return pytest.importorskip("numpy")


def _columns(np, rules, zone=pig_columns.ZONE):
    fast = pig_columns.solve_columns(np, rules, _kernel(np, rules), zone=zone)
    i, j = np.indices((rules.target, rules.target))
    return fast, fast.q[i + j, i]


@pytest.mark.parametrize(
    "rules",
    [
        PigRules(target=2),
        PigRules(target=10),
        PigRules(target=57),
        PigRules(target=100),
        PigRules(dice=2, target=10),
        PigRules(dice=2, target=61),
        PigRules(dice=2, target=100),
        PigRules(dice=2, target=50, doubles_multiplier=1),
        PigRules(dice=2, target=70, double_ones="bust", doubles_multiplier=1),
    ],
    ids=lambda r: r.key,
)
def test_columns_solver_gives_the_wavefront_bits(numpy, rules):
    fast, p0 = _columns(numpy, rules)
    wave = solve_wavefront(rules)
    assert fast.bits == wave.bits
    assert numpy.abs(p0 - wave.p0).max() < 1e-13
    assert fast.stats["layers_settled"] == 0  # policy iteration converged in every layer


@pytest.mark.parametrize("rules", [PigRules(target=40), PigRules(dice=2, target=45)], ids=lambda r: r.key)
def test_columns_solver_matches_the_per_layer_solver(numpy, rules):
    fast, p0 = _columns(numpy, rules)
    layered = solve_layered(rules)
    assert fast.bits == layered.bits
    assert numpy.abs(p0 - layered.p0).max() < 1e-13


@pytest.mark.parametrize("zone", [6, 13, 200])
def test_the_zone_size_changes_only_the_work(numpy, zone):
    """A small zone sends most cells through the walk, a zone past the target sweeps every turn total."""
    rules = PigRules(target=90)
    fast, p0 = _columns(numpy, rules, zone=zone)
    base, base_p0 = _columns(numpy, rules)
    assert fast.bits == base.bits
    assert numpy.abs(p0 - base_p0).max() < 1e-13
    if zone == 6:
        assert fast.stats["wide_cells"] > base.stats["wide_cells"]


def test_solve_uses_the_columns_solver_where_it_applies(numpy):
    assert pig_columns.supports(_kernel(numpy, PigRules()))
    assert pig_columns.supports(_kernel(numpy, PigRules(dice=2, double_ones="bust")))
    assert not pig_columns.supports(_kernel(numpy, PigRules(dice=2, double_ones="lose_score")))
    assert not pig_columns.supports(_kernel(numpy, PigRules(dice=2, must_roll_after_doubles=True)))
    assert "wide_cells" in solve(PigRules(target=30)).stats
    assert "wide_cells" not in solve(PigRules(dice=2, target=30, must_roll_after_doubles=True)).stats


def test_shipped_tables_come_out_of_the_columns_solver(numpy):
    for rules in (PigRules(), PigRules(dice=2)):
        fast, _ = _columns(numpy, rules)
        shipped = load_shipped(rules)
        assert shipped is not None and fast.bits == shipped.bits
