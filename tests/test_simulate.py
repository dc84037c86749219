"""``dicetavern simulate``: small seeded runs of every game, the statistics, the report and the CLI."""

from __future__ import annotations

import io
import re
from pathlib import Path
from string import Formatter

import pytest

from bot import simulate
from bot.games import Outcome, available_games, get_engine
from bot.i18n import catalog, t
from bot.simulate import ProgressBar, credit, format_report, run_simulation, wilson

GAMES = available_games()


def computer_levels(game: str) -> list[str]:
    """Real computer players where the game has one; the built-in ``random`` level until it lands."""
    engine = get_engine(game)
    seats = max(2, engine.player_range(engine.options())[0])
    try:
        simulate.default_chooser(game)
        levels = ["normal", "hard", "easy"]
    except RuntimeError:  # bot.ai has no player for this game yet
        levels = ["random"] * 3
    return levels[:seats]


@pytest.mark.parametrize("game", GAMES)
def test_small_run_of_every_game(game):
    levels = computer_levels(game)
    result = run_simulation(game, levels, 20, seed=7)
    assert result.games == 20
    assert sum(result.wins) == pytest.approx(20)
    assert sum(result.rate(seat) for seat in range(len(levels))) == pytest.approx(1.0)
    assert len(result.actions) == 20 and min(result.actions) >= 1
    for seat in range(len(levels)):
        lo, hi = result.interval(seat)
        assert 0 <= lo <= result.rate(seat) <= hi <= 1
    assert result.unit in ("turns", "rounds", "hands")
    assert len(result.units) == 20 and min(result.units) >= 1

    report = format_report(result).splitlines()
    assert re.match(rf"^.+: 20 games, {len(levels)} seats, options: defaults, seed 7$", report[0])
    assert report[2].split() == ["seat", "level", "wins", "win", "rate", "95%", "CI", "(Wilson)"]
    rows = report[3 : 3 + len(levels)]
    rates = []
    for seat, (row, level) in enumerate(zip(rows, levels, strict=True)):
        m = re.match(r"^\s+(\d+)\s+(\w+)\s+([\d.]+)\s+([\d.]+)%\s+\[\s*([\d.]+)%,\s*([\d.]+)%\]$", row)
        assert m, row
        assert int(m[1]) == seat + 1 and m[2] == level
        assert float(m[3]) == pytest.approx(result.wins[seat], abs=0.01)
        rates.append(float(m[4]))
    assert sum(rates) == pytest.approx(100, abs=0.2)
    assert any(line.startswith(f"mean length: {result.mean_actions:.1f} actions") for line in report)
    assert any(f"{result.mean_units:.1f} {result.unit}" in line for line in report)


@pytest.mark.parametrize("game", GAMES)
def test_runs_are_deterministic_with_a_seed(game):
    levels = computer_levels(game)
    a = run_simulation(game, levels, 6, seed="abc")
    b = run_simulation(game, levels, 6, seed="abc")
    assert (a.wins, a.actions, a.units) == (b.wins, b.actions, b.units)


def test_options_are_passed_to_the_engine_and_reported():
    short = run_simulation("pig", ["normal", "normal"], 20, {"target": "30"}, seed=1)
    full = run_simulation("pig", ["normal", "normal"], 20, seed=1)
    assert short.options == {"target": 30}
    assert short.mean_actions < full.mean_actions
    assert "options: target=30" in format_report(short).splitlines()[0]


def test_the_better_player_wins_more_often():
    result = run_simulation("pig", ["random", "hard"], 60, {"target": "50"}, seed=3)
    assert result.rate(1) > 0.65
    assert result.interval(1)[0] > 0.5


def test_wilson_interval():
    lo, hi = wilson(5, 10)
    assert (round(lo, 4), round(hi, 4)) == (0.2366, 0.7634)
    lo, hi = wilson(0, 10)
    assert lo == 0 and round(hi, 4) == 0.2775
    lo, hi = wilson(10, 10)
    assert round(lo, 4) == 0.7225 and hi == pytest.approx(1)
    assert wilson(0, 0) == (0.0, 1.0)
    lo, hi = wilson(2.5, 5)  # fractional wins from shared first places
    assert lo < 0.5 < hi and lo == pytest.approx(1 - hi)


def test_shared_first_place_counts_as_fractional_wins():
    assert credit(Outcome(((0, 1), (2,)), (5, 5, 1)), 3) == [0.5, 0.5, 0.0]
    assert credit(Outcome(((2,), (0, 1)), (1, 1, 9)), 3) == [0.0, 0.0, 1.0]
    third = credit(Outcome(((0, 1, 2),), (0, 0, 0)), 3)
    assert sum(third) == pytest.approx(1) and third[0] == pytest.approx(1 / 3)


def test_report_mentions_shared_first_places():
    result = simulate.SimResult("pig", ("easy", "hard"), {}, 1, games=2, wins=[1.5, 0.5], shared=1)
    result.actions, result.units, result.unit = [10, 20], [3, 5], "turns"
    text = format_report(result)
    assert "   1  easy          1.5     75.0%" in text
    assert "shared first place: 1 game (each of k winners got 1/k of a win)" in text
    assert "mean length: 15.0 actions (min 10, max 20), 4.0 turns" in text


def test_progress_bar():
    ticks = iter(range(100))
    stream = io.StringIO()
    bar = ProgressBar(4, stream, width=8, enabled=True, min_interval=0, clock=lambda: next(ticks))
    for done in range(1, 5):
        bar.update(done)
    bar.close()
    text = stream.getvalue()
    assert text.endswith("\n")
    frames = [f.replace("\x1b[K", "") for f in text.strip("\n").split("\r") if f]
    assert frames[0].startswith("[##------] 1/4 games  25% · 1.0s · ETA 3.0s")
    assert frames[-1].startswith("[########] 4/4 games 100%")
    quiet = io.StringIO()
    silent = ProgressBar(4, quiet)  # not a terminal: no bar
    silent.update(2)
    silent.close()
    assert quiet.getvalue() == ""


def test_command_line_run():
    out, err = io.StringIO(), io.StringIO()
    args = simulate.build_parser().parse_args(
        ["pig", "--games", "10", "--players", "easy,hard", "-o", "target=40", "--seed", "9"]
    )
    assert args.players == ["easy", "hard"] and args.option == [("target", "40")]
    assert simulate.main_from_args(args, out, err) == 0
    lines = out.getvalue().splitlines()
    assert lines[0] == "Pig: 10 games, 2 seats, options: target=40, seed 9"
    assert err.getvalue() == ""  # stderr is not a terminal here: no progress bar
    assert simulate.build_parser().parse_args(["mia", "-p", "normal*3,hard"]).players == ["normal"] * 3 + ["hard"]


def test_command_line_errors():
    parser = simulate.build_parser()
    for argv, message in (
        (["chess", "-p", "easy,easy"], "unknown game 'chess'"),
        (["pig", "-p", "easy,easy", "-o", "target=9"], "invalid option target"),
        (["pig", "-p", "easy"], "pig takes 2-8 players"),
        (["pig", "-p", "easy,easy", "--games", "0"], "at least 1"),
    ):
        out, err = io.StringIO(), io.StringIO()
        assert simulate.main_from_args(parser.parse_args(argv), out, err) == 2, argv
        assert message in err.getvalue(), (argv, err.getvalue())
        assert out.getvalue() == ""
    with pytest.raises(SystemExit):
        parser.parse_args(["pig", "-p", "easy,godlike"])
    with pytest.raises(SystemExit):
        parser.parse_args(["pig"])  # --players is required


def test_every_simulate_key_is_in_the_english_catalog():
    package = Path(simulate.__file__).parent  # every module of the package, not only __init__
    source = "\n".join(path.read_text(encoding="utf-8") for path in sorted(package.glob("*.py")))
    assert not re.findall(r"\bf[\"'](?:terminal|simulate)\.", source), "catalog keys must be literals"
    used = {m[1] for m in re.finditer(r"[\"']((?:terminal|simulate)\.\w+)[\"']", source)}
    english = catalog("en")
    assert used and all(key.startswith("simulate.") for key in used)
    assert sorted(key for key in used if key not in english) == []
    defined = {key for key in english if key.startswith("simulate.")}
    assert sorted(defined - used) == []  # and no catalog text that nothing prints


def test_german_report_falls_back_to_english():
    """A key the German catalog lacks is printed in English (the German catalog is complete now: drop some)."""
    from bot import i18n

    dropped = ("simulate.length", "simulate.length_range", "simulate.length_units", "simulate.unit_turns")
    english = i18n.catalog("en")
    with i18n.overridden({"de": dict.fromkeys(dropped)}):  # German without these keys
        for key in dropped:
            params = {field: 0.5 for _, field, _, _ in Formatter().parse(english[key]) if field}
            assert t(key, "de", **params) == t(key, "en", **params), key
        result = simulate.SimResult("pig", ("easy", "hard"), {}, 1, games=2, wins=[2.0, 0.0])
        result.actions, result.units, result.unit = [10, 20], [3, 5], "turns"
        assert "mean length: 15.0 actions (min 10, max 20), 4.0 turns" in format_report(result, "de")


def test_the_package_keeps_its_jobs_apart():
    """Statistics know no engines or text, the report no engines, and only the command line knows argparse."""
    package = Path(simulate.__file__).parent
    imports = {
        path.stem: set(re.findall(r"^(?:from|import) ([\w.]+)", path.read_text(encoding="utf-8"), re.M))
        for path in package.glob("*.py")
    }
    assert {"stats", "runner", "report", "progress", "command"} <= set(imports)
    assert not {name for name in imports["stats"] if name.startswith("bot.")} - {"bot.games"}
    assert not {"bot.simulate.runner", "bot.simulate.command"} & (imports["report"] | imports["stats"])
    assert [stem for stem, names in imports.items() if "argparse" in names] == ["command"]
    readme = (package.parents[1] / "README.md").read_text(encoding="utf-8")
    assert "bot/simulate/" in readme and all(f"{stem}.py" in readme for stem in imports if not stem.startswith("_"))


def test_one_loop_plays_computers_against_each_other():
    """Outside the engines only the table service (tables with people; its host tools start them) and ``play_one``
    start games: bot.ai's
    strength tests and ``dicetavern simulate`` share ``play_one`` rather than each keeping a loop. Replaying a
    recorded game (restore, /game replay, verify) starts one only through ``bot.games.logged.apply_logged``."""
    root = Path(simulate.__file__).parents[1]
    starters = {
        path.relative_to(root.parent).as_posix()
        for path in root.rglob("*.py")
        if ".new_game" in path.read_text(encoding="utf-8") and root / "games" not in path.parents
    }
    assert starters == {"bot/tables/host.py", "bot/simulate/runner.py"}  # the host's start: TableService's own
