"""The rules documents in docs/rules/ explain the tests: every rule id quoted in a game's test names is defined
in docs/rules/<game>.md (by a heading or a bold span that starts with the id), every option of the game's engine
is in the document's options table, and every test the document cites exists.

To add a game, add an entry to GAMES: its document, the test files of tests/games that quote its rule ids, how
an id is spelled in a test name (a regular expression) and in the document (a format of the expression's groups),
and the engine module whose ``ENGINE.Options`` lists the options.
"""

from __future__ import annotations

import ast
import dataclasses
import importlib
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "docs" / "rules"
GAME_TESTS = ROOT / "tests" / "games"

# An id is a whole underscore-separated part of a test name: "..._P4a_DP3" holds P4a and DP3, "..._MX_3b" holds 3b.
START, END = r"(?:^|_)", r"(?=_|$)"


@dataclass(frozen=True)
class RulesDoc:
    doc: str  # file name under docs/rules/
    tests: tuple[str, ...]  # glob patterns under tests/games/
    ids: tuple[tuple[str, str], ...]  # (regex over a test name, the id as the document writes it: a format of groups)
    engine: str  # the module with ENGINE (its Options are the game's options)


GAMES: dict[str, RulesDoc] = {
    "pig": RulesDoc(
        "pig.md",
        ("test_pig*.py",),
        ((rf"{START}P(\d+[a-z]?){END}", "P-{0}"), (rf"{START}DP(\d+){END}", "D-P{0}")),
        "bot.games.pig",
    ),
    "mia": RulesDoc(
        "mia.md",
        ("test_mia*.py",),
        ((rf"{START}M(\d+[a-z]?){END}", "M-{0}"), (rf"{START}DM(\d+){END}", "D-M{0}")),
        "bot.games.mia",
    ),
    "mex": RulesDoc(
        "mex.md",
        ("test_mex*.py",),
        ((rf"{START}MX_([A-Z]\d*[a-z]?|\d+[a-z]?){END}", "MX-{0}"), (rf"{START}decision_(\d+){END}", "Decision {0}")),
        "bot.games.mex",
    ),
    "liar": RulesDoc(
        "liars-dice.md",
        ("test_liars_dice*.py",),
        ((rf"{START}L(\d+){END}", "L-{0}"), (rf"{START}DL(\d+){END}", "D-L{0}")),
        "bot.games.liars_dice",
    ),
    "mythic": RulesDoc(
        "mythical-dice.md",
        ("test_mythical_dice*.py",),
        (
            (rf"{START}MD_([A-Z]\d*[a-z]?|\d+[a-z]?){END}", "MD-{0}"),
            (rf"{START}MD_[A-Z]?\d+[a-z]?_([A-Z]\d+[a-z]?){END}", "MD-{0}"),  # "MD_P1_P4": P4 is MD-P4 too
        ),
        "bot.games.mythical_dice",
    ),
}


def test_names(path: Path) -> list[str]:
    """The test functions defined in ``path`` (also inside classes)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        node.name
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith("test_")
    ]


test_names.__test__ = False  # a helper, not a test


def game_test_files(game: RulesDoc) -> list[Path]:
    return sorted({path for pattern in game.tests for path in GAME_TESTS.glob(pattern)})


def ids_in(name: str, game: RulesDoc) -> set[str]:
    """The rule ids quoted in one test name, spelled as the document spells them."""
    found = set()
    for pattern, spelling in game.ids:
        found |= {spelling.format(*m.groups()) for m in re.finditer(pattern, name)}
    return found


def defining_spans(text: str) -> list[str]:
    """Where an id can be defined: the text of headings and of bold spans (a mere mention does not count)."""
    headings = [m.group(1) for m in re.finditer(r"^\s*#+\s*(.*)$", text, flags=re.M)]
    return headings + re.findall(r"\*\*(.+?)\*\*", text)


def is_defined(rule_id: str, text: str) -> bool:
    """True if a heading or a bold span starts with the whole id ("### P-4a Automatic hold", "**D-P1** ...")."""
    whole = re.compile(rf"{re.escape(rule_id)}(?![\w-])")
    return any(whole.match(span) for span in defining_spans(text))


@cache
def every_test_name() -> frozenset[str]:
    return frozenset(name for path in (ROOT / "tests").rglob("test_*.py") for name in test_names(path))


def doc_text(game: RulesDoc) -> str:
    return (RULES / game.doc).read_text(encoding="utf-8")


def test_the_id_patterns_read_test_names_as_intended():
    assert ids_in("test_pig_example_3_first_roll_one_passes_and_hold_before_roll_rejected_P1_DP3", GAMES["pig"]) == {
        "P-1",
        "D-P3",
    }
    assert ids_in("test_x_P4a_P6", GAMES["pig"]) == {"P-4a", "P-6"}
    assert ids_in("test_mia_example_13_a_mia_conceder_counts_as_the_challenger_M7a_DM5", GAMES["mia"]) == {
        "M-7a",
        "D-M5",
    }
    assert ids_in("test_mex_decision_5_the_starter_at_max_throws_may_end_the_round_MX_3b_MX_5", GAMES["mex"]) == {
        "Decision 5",
        "MX-3b",
        "MX-5",
    }
    assert ids_in("test_forfeit_in_a_two_way_tie_leaves_the_other_as_loser_MX_T", GAMES["mex"]) == {"MX-T"}
    assert ids_in("test_mex_example_1_values_MX_V1_MX_V2_MX_V3", GAMES["mex"]) == {"MX-V1", "MX-V2", "MX-V3"}
    assert ids_in("test_pig_double_ones_bust_is_like_a_single_one", GAMES["pig"]) == set()
    assert ids_in("test_L1_L3_sum_wild_ones_after_three_threes_ten_ones_is_not_a_bid", GAMES["liar"]) == {"L-1", "L-3"}
    assert ids_in("test_L4_example_1_B_bids_four_twos_A_challenges_no_wild_B_loses", GAMES["liar"]) == {"L-4"}
    assert ids_in("test_MD_P1_P4_example_9_scoring_in_hand_5", GAMES["mythic"]) == {"MD-P1", "MD-P4"}
    assert ids_in("test_MD_P3a_zero_bid_uses_the_hand_number", GAMES["mythic"]) == {"MD-P3a"}
    assert ids_in("test_MD_1_example_1_hand_count", GAMES["mythic"]) == {"MD-1"}


def test_is_defined_needs_a_heading_or_bold_and_the_whole_id():
    text = "# Game\n### P-4a Automatic hold\nSee P-6 and **D-P1** and **MX-T1 (chooser)**; **Snake eyes (P-3)**.\n"
    assert is_defined("P-4a", text) and is_defined("D-P1", text) and is_defined("MX-T1", text)
    assert not is_defined("P-6", text)  # mentioned, not defined
    assert not is_defined("P-3", text)  # in bold, but not the id's definition
    assert not is_defined("P-4", text)  # only P-4a is there
    assert not is_defined("MX-T", text)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_rule_id_in_the_games_test_names_is_defined_in_its_rules_doc(name):
    game = GAMES[name]
    files = game_test_files(game)
    assert files, f"no test files match {game.tests}"
    quoted = {rule_id: test for path in files for test in test_names(path) for rule_id in ids_in(test, game)}
    assert quoted, f"no rule ids found in the test names of {[f.name for f in files]}"
    text = doc_text(game)
    missing = {rule_id: test for rule_id, test in quoted.items() if not is_defined(rule_id, text)}
    assert not missing, f"docs/rules/{game.doc} defines none of: {missing} (no heading or bold span starts with them)"


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_options_table_lists_every_option_of_the_engine(name):
    game = GAMES[name]
    options = importlib.import_module(game.engine).ENGINE.Options
    rows = [line for line in doc_text(game).splitlines() if line.startswith("| `")]
    listed = {m.group(1) for line in rows if (m := re.match(r"\| `(\w+)`", line))}
    fields = {f.name for f in dataclasses.fields(options)}
    assert fields <= listed, f"options missing from the table in docs/rules/{game.doc}: {sorted(fields - listed)}"
    assert listed <= fields, f"docs/rules/{game.doc} lists options the engine lacks: {sorted(listed - fields)}"


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_test_the_rules_doc_cites_exists(name):
    cited = set(re.findall(r"`(test_\w+)`", doc_text(GAMES[name])))
    assert cited, "a rules document names the tests that check its worked examples"
    missing = sorted(cited - every_test_name())
    assert not missing, f"docs/rules/{GAMES[name].doc} cites tests that do not exist: {missing}"
