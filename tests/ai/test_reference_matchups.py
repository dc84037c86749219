"""benchmarks/ai_matchups.py: seats rotated evenly, shares with ties split, the Wilson interval, the matrix."""

from __future__ import annotations

import math
from collections import Counter

import pytest

from benchmarks import ai_matchups as am
from bot.games import Outcome
from bot.simulate import credit, wilson


def test_every_seat_order_equally_often():
    levels = ("hard", "normal", "normal")
    orders = am.seat_orders(levels)
    assert len(orders) == 3 and len(set(orders)) == 3
    assert am.seat_orders(("normal", "hard", "normal")) == orders  # the order given does not matter
    games = am.rounded_games(100, levels)
    assert games == 102
    seats = Counter(orders[i % len(orders)].index("hard") for i in range(games))
    assert seats == {0: 34, 1: 34, 2: 34}
    assert len(am.seat_orders(("a", "b", "c", "d"))) == 24
    assert am.rounded_games(1, ("a", "b")) == 2


def test_wilson_interval():
    lo, hi = wilson(50, 100)
    assert (lo, hi) == pytest.approx((0.4038, 0.5962), abs=1e-4)  # the textbook value
    lo, hi = wilson(0, 20)
    assert lo == 0 and hi == pytest.approx(0.1611, abs=1e-4)
    z = 1.959963984540054
    p, n = 0.7, 400  # the closed form
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    assert wilson(280, 400) == pytest.approx((centre - half, centre + half))


def test_ties_are_split():
    tie = Outcome(ranking=((0, 2), (1,)), scores=(3, 1, 3))
    assert credit(tie, 3) == [0.5, 0.0, 0.5]


def test_a_small_matchup_is_reproducible_and_balanced():
    m = am.Matchup("mia", ("hard", "ref:sensible"), target=0.58)
    a = am.run_matchup(m, 24, seed=5, workers=1)
    b = am.run_matchup(m, 24, seed=5, workers=1)
    assert a.games == 24 and a.wins == b.wins
    assert sum(a.wins.values()) == pytest.approx(24)
    assert m.fair("hard") == 0.5
    assert a.verdict() in ("yes", "no", "unclear")
    assert "hard vs ref:sensible" in am.format_result(a)
    # one game at a time in the same seat orders gives the same wins
    wins, _, _ = am.play_games(m, 5, range(24))
    assert wins == a.wins


def test_the_matrix_covers_every_game_and_count():
    cells = am.matrix()
    for game in am.GAMES:
        for n in (2, 3, 4):
            labels = {m.label().split(" (")[0] for m in cells if m.game == game and len(m.levels) == n}
            assert {
                f"normal vs easy*{n - 1}" if n > 2 else "normal vs easy",
                f"hard vs normal*{n - 1}" if n > 2 else "hard vs normal",
            } <= labels
    assert any(m.levels == ("hard", "ref:always_mia") and m.target == 0.90 for m in cells)
    assert any(m.levels == ("hard", "ref:claim62") for m in cells)
    # every level against every reference player: Mythical Dice in three seats, the others heads-up
    from bot.ai import reference

    for game in am.GAMES:
        n = 3 if game == "mythic" else 2
        for kind in reference.kinds(game):
            for level in ("easy", "normal", "hard"):
                assert any(m.game == game and m.levels == (level, *[f"ref:{kind}"] * (n - 1)) for m in cells)
    assert any(m.levels == ("hard", "ref:mia_lie") and m.target == 0.55 for m in cells)
    assert any(m.levels == ("normal", "ref:from62") and m.target == 0.45 for m in cells)
    assert any(m.levels == ("normal", "ref:zero", "ref:zero") and m.target == 0.36 for m in cells)
    assert any(m.levels == ("hard", "ref:sensible", "ref:sensible") and m.target == 0.45 for m in cells)
    mythic2 = [m for m in cells if m.game == "mythic" and len(m.levels) == 2]
    assert all(dict(m.options).get("allow_two_players") for m in mythic2)


def test_verdicts():
    m = am.Matchup("mia", ("hard", "normal"))
    r = am.MatchResult(m, games=400, wins={"hard": 240.0, "normal": 160.0})
    assert r.verdict() == "yes"  # 0.60, interval well above 0.5
    r.wins = {"hard": 205.0, "normal": 195.0}
    assert r.verdict() == "unclear"
    m2 = am.Matchup("mia", ("hard", "normal"), target=0.9)
    assert am.MatchResult(m2, games=400, wins={"hard": 240.0}).verdict() == "no"
