"""The message catalog is the only user text: every refusal code the engines and cogs raise, every table error and
every event the engines and the table service emit has a template in every shipped locale, with only the fields
its parameters fill. The codes are found in the source (AST), so a new ``raise IllegalMove("x")`` needs its text.

Each check returns its problems for a given catalog, so ``test_removing_a_template_is_caught`` can show that it
fails when a template goes missing."""

from __future__ import annotations

import ast
import functools
import json
import random
from collections.abc import Iterator
from dataclasses import dataclass
from importlib import import_module
from pathlib import Path
from string import Formatter
from typing import Any

import pytest

import bot.render
from bot.games import Action, IllegalMove, InvalidOptions, available_games, get_engine
from bot.games.dice import SeededDice
from bot.i18n import catalog, locales
from bot.render import error_keys, event_keys, fill, option_error_text
from bot.tables.model import TableError

ROOT = Path(__file__).resolve().parent.parent
SOURCES = sorted([*(ROOT / "bot").rglob("*.py"), *(ROOT / "cogs").rglob("*.py")])
Catalog = dict[str, Any]

# TableError calls whose code is a variable, and the codes the callers pass in (each must appear in the source).
DYNAMIC_TABLE_ERRORS = {"refusal": ("only_host_remove", "only_host_transfer")}


def fields(template: Any) -> set[str]:
    texts = template.values() if isinstance(template, dict) else [template]
    return {name.split(".")[0].split("[")[0] for text in texts for _, name, _, _ in Formatter().parse(text) if name}


@dataclass(frozen=True)
class Raise:
    """One ``IllegalMove(...)`` / ``TableError(...)`` / ``Event(...)`` in the source."""

    where: str
    game: str | None  # None: shared by every game (bot/games/base.py, the table service)
    code: str | None  # None: not a literal
    params: frozenset[str]  # the keyword names it passes (``**d`` of a dict literal resolved)
    literals: tuple[tuple[str, Any], ...]  # the keyword values that are literals
    dynamic: bool = False  # some params could not be resolved (``**something``)


def _game_of(path: Path, tree: ast.Module) -> str | None:
    """The game a source file belongs to: an engine module's ``name``, or a cog / render module named after one."""
    if path.parent.name == "games":
        for node in ast.walk(tree):
            named = isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == ["name"]
            if named and isinstance(node.value, ast.Constant) and node.value.value in available_games():
                return node.value.value
        return None
    return path.stem if path.stem in available_games() else None


def _dict_keys(node: ast.AST, scope: ast.AST) -> set[str] | None:
    """The literal keys of a dict expression (a literal, or a name bound to one in ``scope``)."""
    if isinstance(node, ast.Dict):
        keys = {k.value for k in node.keys if isinstance(k, ast.Constant)}
        spread = [v for k, v in zip(node.keys, node.values, strict=True) if k is None]
        for inner in spread:
            more = _dict_keys(inner, scope)
            if more is None:
                return None
            keys |= more
        return keys
    if isinstance(node, ast.Name):
        for assign in ast.walk(scope):
            if isinstance(assign, ast.Assign) and [getattr(t, "id", None) for t in assign.targets] == [node.id]:
                return _dict_keys(assign.value, scope)
    return None


@functools.cache
def parsed() -> tuple[tuple[Path, str, ast.Module], ...]:
    """Every source file, its text and its syntax tree, read once per run: the checks below scan them for every
    locale and every edited catalog, and the sources do not change in between."""
    texts = [(path, path.read_text(encoding="utf-8")) for path in SOURCES]
    return tuple((path, text, ast.parse(text)) for path, text in texts)


@functools.cache
def calls(name: str) -> tuple[Raise, ...]:
    """Every ``name(...)`` call in the sources (found once per run)."""
    return tuple(_calls(name))


def _calls(name: str) -> Iterator[Raise]:
    for path, _, tree in parsed():
        game = _game_of(path, tree)
        functions = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and node.args):
                continue
            args = node.args
            func = getattr(node.func, "id", None)
            built = func == "_tuple_new" and getattr(args[0], "id", None) == name and len(args) == 2
            if built and isinstance(args[1], ast.Tuple):  # _tuple_new(Event, (kind, data, to)): an Event built in C
                args = args[1].elts
            elif func != name:
                continue
            scope = next((f for f in functions if f.lineno <= node.lineno <= (f.end_lineno or 0)), tree)
            first = args[0]
            params: set[str] = set()
            dynamic = False
            for keyword in node.keywords:
                if keyword.arg is not None:
                    params.add(keyword.arg)
                elif (keys := _dict_keys(keyword.value, scope)) is not None:
                    params |= keys
                else:
                    dynamic = True
            if name == "Event" and len(args) > 1:  # Event(kind, data): the data's keys are the params
                keys = _dict_keys(args[1], scope)
                params |= keys or set()
                dynamic = keys is None
            literals = tuple(
                (k.arg, k.value.value) for k in node.keywords if k.arg and isinstance(k.value, ast.Constant)
            )
            where = f"{path.relative_to(ROOT)}:{node.lineno}"
            code = first.value if isinstance(first, ast.Constant) else None
            yield Raise(where, game, code, frozenset(params), literals, dynamic)


def render_module(game: str | None) -> Any:
    return bot.render.game_module(game) if game else None


def refusal_problems(en: Catalog) -> list[str]:
    """Every IllegalMove: a template (for its variant too), with no field its params do not fill."""
    problems = []
    found = list(calls("IllegalMove"))
    assert len(found) > 40 and all(r.code for r in found), [r.where for r in found if not r.code]
    codes = {(r.game, r.code) for r in found}
    for r in found:
        module = render_module(r.game)
        extra = set(getattr(module, "ERROR_PARAMS", ()))  # what the game's renderer adds
        keys = error_keys(r.code, dict(r.literals), r.game)
        present = [key for key in keys if key in en]
        if not present:
            problems.append(f"{r.where}: no template for refusal {r.code!r} (one of {keys})")
            continue
        variant = module.error_key(r.code, dict(r.literals)) if hasattr(module, "error_key") else r.code
        if variant != r.code and not {f"{r.game}.error.{variant}", f"error.{variant}"} & set(en):
            problems.append(f"{r.where}: no template for the variant {variant!r} of {r.code!r}")
        # every text the refusal may read: the keys above, their variants (``<code>_…``) and terminal forms
        stems = {key.removesuffix(f".{r.code}") for key in keys}
        others = {code for game, code in codes if game in (r.game, None) and code != r.code}
        for key, template in en.items():
            base = key.split("@")[0]
            stem, _, name = base.rpartition(".")
            if stem in stems and (name == r.code or (name.startswith(f"{r.code}_") and name not in others)):
                unknown = fields(template) - r.params - extra
                if unknown and not r.dynamic:
                    problems.append(f"{r.where}: {key} uses {sorted(unknown)}, not passed by {r.code!r}")
    return problems


@functools.cache
def option_calls() -> tuple[tuple[str, ast.Call], ...]:
    """Every ``InvalidOptions(...)`` in the sources, with where it is (found once per run)."""
    return tuple(
        (f"{path.relative_to(ROOT)}:{node.lineno}", node)
        for path, _, tree in parsed()
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "InvalidOptions"
    )


def option_problems(en: Catalog) -> list[str]:
    """Every InvalidOptions(option, code, **params): ``error.option.<code>`` with only the fields its params fill."""
    problems = []
    found = option_calls()
    assert len(found) > 15
    for where, node in found:
        code = node.args[1] if len(node.args) == 2 else None
        branches = [code.body, code.orelse] if isinstance(code, ast.IfExp) else [code]  # "a" if … else "b"
        if not all(isinstance(c, ast.Constant) for c in branches):
            problems.append(f"{where}: InvalidOptions takes the option and a literal code (no message)")
            continue
        params = {k.arg for k in node.keywords}
        for key in (f"error.option.{c.value}" for c in branches):
            if key not in en:
                problems.append(f"{where}: no template for the option refusal {key!r}")
            elif unknown := fields(en[key]) - params:
                problems.append(f"{where}: {key} uses {sorted(unknown)}, not passed")
    return problems


def table_error_problems(en: Catalog) -> list[str]:
    problems = []
    found = list(calls("TableError"))
    assert len(found) > 30
    sources = "\n".join(text for _, text, _ in parsed())
    for r in found:
        codes = [r.code] if r.code else [code for known in DYNAMIC_TABLE_ERRORS.values() for code in known]
        assert all(f'"{code}"' in sources for code in codes), r.where  # the callers do pass these codes
        for code in codes:
            key = f"error.{code}"
            if key not in en:
                problems.append(f"{r.where}: no template for table error {code!r}")
                continue
            allowed = set(r.params) | ({"game_name"} if "game" in r.params else set())
            allowed |= {"detail"} if "problem" in r.params else set()  # error_text words an InvalidOptions
            for variant in (key, f"{key}@terminal"):
                if variant in en and (unknown := fields(en[variant]) - allowed):
                    problems.append(f"{r.where}: {variant} uses {sorted(unknown)}, not passed by {code!r}")
    return problems


def service_event_problems(en: Catalog) -> list[str]:
    """The table service's own events (lobby_open, joined, …): ``event.<kind>`` with the fields they carry."""
    problems = []
    found = [r for r in calls("Event") if "tables" in r.where and r.code]
    assert len(found) >= 5
    for r in found:
        key = f"event.{r.code}"
        if key not in en:
            problems.append(f"{r.where}: no template for the table event {r.code!r}")
        elif not r.dynamic and (unknown := fields(en[key]) - r.params):
            problems.append(f"{r.where}: {key} uses {sorted(unknown)}, not in the event's data")
        elif not r.dynamic and (unknown := fields(en.get(f"{key}@terminal", "")) - r.params):
            problems.append(f"{r.where}: {key}@terminal uses {sorted(unknown)}, not in the event's data")
    return problems


def engine_event_kind_problems(en: Catalog) -> list[str]:
    """Every literal event kind an engine emits has a template (its own or the shared one)."""
    problems = []
    found = [r for r in calls("Event") if r.game and "games" in r.where and r.code]
    assert len(found) > 50
    for r in found:
        keys = [f"{r.game}.event.{r.code}", f"event.{r.code}"]
        if not set(keys) & set(en):
            problems.append(f"{r.where}: no template for the {r.game} event {r.code!r}")
    return problems


OPTION_SETS: dict[str, list[dict[str, Any]]] = {
    "pig": [
        {"target": 30},
        {"dice": 2, "target": 60},
        {"dice": 2, "double_ones": "lose_score", "target": 60},
        {"dice": 2, "double_ones": "bust", "equal_turns": True, "target": 40},
    ],
    "mia": [
        {},
        {"doubles_order": "sixes_high", "lives": 2, "blind_pass": "any", "next_round_starter": "challenger"},
        {"lives": 3, "mia_mode": "auto_reveal", "blind_pass": "first_receiver", "stop_at_first_elimination": True},
    ],
    "mex": [
        {"starting_lives": 2},
        {"starting_lives": 2, "tiebreak_mode_choice": "always_pips", "hold_one_or_two": True},
        {"starting_lives": 1, "mex_penalty": "doubling", "mex_passes_lead": True, "max_throws": 2},
    ],
    "liar": [
        {"dice_per_player": 2},
        {"dice_per_player": 2, "mode": "loot", "wild_ones": True},
        {"dice_per_player": 2, "mode": "lose_die", "raise_rule": "pirates", "max_rounds": 3},
    ],
    "mythic": [{}, {"hand_leader": "last_trick_winner", "three_way": "sequential", "all_flags": "nobody"}],
}


def played_events(game: str, games: int = 6) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every event of random games under several options, with timeouts and forfeits now and then."""
    engine = get_engine(game)
    for n, data in enumerate(OPTION_SETS.get(game, [{}]) * games):  # a game not listed: its default options
        rng, dice = random.Random(n), SeededDice(n)
        options = engine.options(data)
        players = min(max(3, engine.player_range(options)[0]), engine.player_range(options)[1])
        state, events = engine.new_game(players, options, dice)
        for _ in range(3000):
            for event in events:
                yield event.kind, event.data
            if engine.is_over(state):
                break
            seat = rng.choice(engine.to_act(state))
            roll = rng.random()
            if roll < 0.03:
                state, events = engine.timeout(state, seat, dice)
            elif roll < 0.04 and not engine.is_over(state):
                state, events = engine.forfeit(state, rng.randrange(players), dice)
            else:
                state, events = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)), dice)


def event_problems(game: str, en: Catalog, events: list[tuple[str, dict[str, Any]]], locale: str = "en") -> list[str]:
    """Each event played reads a template whose fields its data (as ``event_text`` fills it) all fill."""
    module = bot.render.game_module(game)
    problems = set()
    for kind, data in events:
        keys = event_keys(game, kind, data)
        key = next((k for k in keys if k in en), None)
        if key is None:
            problems.add(f"{game}: no template for the event {kind!r} (one of {keys})")
            continue
        params = set(fill(data, [f"p{i}" for i in range(8)])) | ({"count"} if "missed" in data else set())
        if hasattr(module, "event_params"):
            variant = module.event_key(kind, data) if hasattr(module, "event_key") else kind
            params |= set(module.event_params(variant, data, [f"p{i}" for i in range(8)], locale))
        if unknown := fields(en[key]) - params:
            problems.add(f"{game}: {key} uses {sorted(unknown)}, not in the {kind!r} event's data")
    return sorted(problems)


@pytest.fixture(scope="module")
def events_by_game() -> dict[str, list[tuple[str, dict[str, Any]]]]:
    return {game: list(played_events(game)) for game in available_games()}


def effective(locale: str) -> Catalog:
    """What ``t`` reads in ``locale``: its templates, English where it has none (a missing key is
    tests/test_i18n.py's to report; these checks are about the templates' fields)."""
    return {**catalog("en"), **catalog(locale)}


@pytest.mark.parametrize("locale", locales())
def test_every_refusal_code_has_a_template_with_its_params(locale):
    assert refusal_problems(effective(locale)) == []


@pytest.mark.parametrize("locale", locales())
def test_every_table_error_has_a_template_with_its_params(locale):
    assert table_error_problems(effective(locale)) == []


@pytest.mark.parametrize("locale", locales())
def test_every_option_refusal_has_a_template_in_every_locale(locale):
    assert option_problems(effective(locale)) == []


def test_every_option_refusal_has_a_template_with_its_params():
    assert option_problems(catalog("en")) == []
    with pytest.raises(InvalidOptions) as refused:
        get_engine("pig").options({"target": "5"})
    assert str(refused.value) == "target: out_of_range (value=5, lo=20, hi=500)"  # for logs and tests
    assert option_error_text(refused.value, "en") == "target: must be a whole number from 20 to 500; got 5"
    # on Discord (the table service wraps it): the option is named once, the reason read from the catalog
    text = bot.render.error_text(TableError("bad_option", option="target", problem=refused.value), "en")
    assert text == "Invalid option `target`: must be a whole number from 20 to 500; got 5"


@pytest.mark.parametrize("locale", locales())
def test_every_event_of_the_table_service_and_the_engines_has_a_template(locale):
    assert service_event_problems(effective(locale)) == []
    assert engine_event_kind_problems(effective(locale)) == []


@pytest.mark.parametrize("locale", locales())
def test_every_event_played_fills_its_template(events_by_game, locale):
    for game, events in events_by_game.items():
        assert len({kind for kind, _ in events}) >= 6, game
        assert event_problems(game, effective(locale), events, locale) == []


def test_the_liar_refusals_add_exactly_the_fields_they_declare():
    """``ERROR_PARAMS`` declares what the Liar's Dice renderer adds to a refusal's params: it must be exactly that."""
    from bot.render import liar

    engine, dice = get_engine("liar"), SeededDice(1)
    state, _ = engine.new_game(2, engine.options({"dice_per_player": 1}), dice)
    first = engine.to_act(state)[0]
    state, _ = engine.apply(state, first, Action("bid", (1, 2)), dice)
    second = engine.to_act(state)[0]
    with pytest.raises(IllegalMove) as low:
        engine.apply(state, second, Action("bid", (1, 2)), dice)
    state, _ = engine.apply(state, second, Action("bid", (2, 6)), dice)
    with pytest.raises(IllegalMove) as top:
        engine.apply(state, first, Action("bid", (2, 6)), dice)
    assert (low.value.code, top.value.code) == ("bid_not_higher", "must_challenge")
    added = {*liar.error_params(low.value.code, low.value.params, "en")}
    added |= {*liar.error_params(top.value.code, top.value.params, "en")}
    assert added == liar.ERROR_PARAMS


def _sample_catalog_problems(en: Catalog, events: dict[str, list[tuple[str, dict[str, Any]]]]) -> list[str]:
    problems = refusal_problems(en) + table_error_problems(en) + service_event_problems(en) + option_problems(en)
    problems += engine_event_kind_problems(en)
    for game, played in events.items():
        problems += event_problems(game, en, played)
    return problems


@pytest.mark.parametrize(
    "removed",
    [
        "liar.error.bid_not_higher",
        "mia.error.blind_pass_not_allowed_first_receiver",
        "error.player_count",
        "error.table_full",
        "error.only_host_transfer",
        "event.joined",
        "mythic.event.trick_discarded",
        "mex.event.throw_pips",
        "pig.event.roll_bust",
        "error.option.out_of_range",
        "error.option.bag_too_small",
        "error.option.too_big",
    ],
)
def test_removing_a_template_is_caught(removed, events_by_game):
    en = dict(catalog("en"))
    assert removed in en
    del en[removed]
    assert any(removed.split(".")[-1] in problem for problem in _sample_catalog_problems(en, events_by_game))


def test_a_field_the_params_do_not_fill_is_caught(events_by_game):
    en = dict(catalog("en"))
    en["mex.error.hold_used"] = "You may keep a die only {times} per turn."
    en["error.table_full"] = "The table is full ({most} players)."
    en["pig.event.hold"] = "{player} banks {amount}"
    problems = _sample_catalog_problems(en, events_by_game)
    assert [p for p in problems if "'times'" in p] and [p for p in problems if "'most'" in p]
    assert [p for p in problems if "'amount'" in p]


def test_other_locales_use_the_same_fields_as_english_and_no_unknown_keys():
    english = catalog("en")
    others = [locale for locale in locales() if locale != "en"]
    assert "de" in others
    for locale in others:
        for key, template in catalog(locale).items():
            assert key in english, (locale, key)
            assert fields(template) == fields(english[key]), (locale, key)


def test_terminal_variants_read_only_their_base_fields_in_every_locale():
    for locale in locales():
        texts = catalog(locale)
        for key, template in texts.items():
            if "@" in key:
                base = key.split("@")[0]
                assert base in catalog("en"), (locale, key)
                if catalog("en")[base] == "":  # silent on Discord (the log skips it): the variant reads the
                    continue  # event's data, which service_event_problems checks
                assert fields(template) <= fields(catalog("en")[base]), (locale, key)


def test_refusals_read_the_catalog_not_the_engine():
    """No English in the engines: a refusal carries a code and params only, and its text is the catalog's."""
    for path in (ROOT / "bot" / "games").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "IllegalMove":
                assert len(node.args) == 1, f"{path.name}:{node.lineno} passes a message"
    error = IllegalMove(
        "bid_not_higher", rule="poker", quantity=2, face=3, bid_quantity=2, bid_face=4, min_quantity=2, min_face=5
    )
    assert str(error).startswith("bid_not_higher (") and "min_face=5" in str(error)  # for logs and test failures
    text = bot.render.error_text(error, "en", "liar")
    assert text.startswith("**2 × ⚂** (threes) does not raise **2 × ⚃** (fours) under the poker rule")
    assert text.endswith("The smallest legal raise is **2 × ⚄** (fives).")


def test_pig_command_texts_live_in_pig_json_like_every_game():
    """Each game's command strings are ``<game>.cmd.*``; cmd.json holds only the commands every game shares."""
    shared = json.loads((ROOT / "bot" / "locales" / "en" / "cmd.json").read_text(encoding="utf-8"))
    for game in available_games():
        assert not [key for key in shared if key == game or key.startswith((f"{game}_", "opt_"))], game
    pig = (ROOT / "cogs" / "pig.py").read_text(encoding="utf-8")
    used = {m for m in catalog("en") if m.startswith("pig.cmd.") and f'"{m}"' in pig}
    assert used == {key for key in catalog("en") if key.startswith("pig.cmd.")}
    assert len(used) >= 10
    assert import_module("cogs.pig").Pig.__cog_group_description__ == catalog("en")["pig.cmd.group"]
