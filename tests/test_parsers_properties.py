"""Issue 10: arbitrary text thrown at every parser of user input (component ids, free-text and numeric options,
typed moves) is refused with a catalog error and nothing escapes as an exception; refusals stay short."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from bot.games import Action, IllegalMove, InvalidOptions, available_games, get_engine
from bot.games.dice import SeededDice
from bot.games.parsing import MAX_INT, QUOTE_LIMIT, parse_int, quote
from bot.i18n import has
from bot.render import error_text
from bot.tables import TableError
from bot.tables.settings import validate_options
from cogs.settings import parse_options
from cogs.utils.components import parse_table_control

SETTINGS = settings(max_examples=150, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
DISCORD_LIMIT = 2000
REFUSAL_BOUND = 450  # a refusal of any input: its own words plus a short quote, never the input itself

# Digits that fool str.isdigit() or int(): superscripts, circled, Arabic-Indic, fullwidth; and huge runs.
TRICKY = ["²", "①", "٣", "１２", "1_000", " 5", "5 ", "+5", "--5", "-", "", "9" * 2500, "9" * 5000, "0x10", "1e3"]
texts = st.one_of(
    st.text(max_size=60),
    st.sampled_from(TRICKY),
    st.text(alphabet="0123456789²①٣:-_ab", max_size=30),
    st.integers(0, 6000).map(lambda n: "9" * n),
)


def refusal_known(error: Exception, game: str | None = None) -> bool:
    """The error has a catalog entry (so the user reads our words, not a traceback)."""
    if isinstance(error, TableError):
        return has(f"error.{error.code}")
    assert isinstance(error, IllegalMove)
    return has(f"{game}.error.{error.code}") or has(f"error.{error.code}")


# -- the shared number parser --------------------------------------------------------------------


@pytest.mark.parametrize("text", ["²", "①", "٣", "１２", "1_000", " 5", "+5", "--5", "-", "", "9" * 20, "9" * 5000])
def test_parse_int_refuses_what_isdigit_or_int_would_let_through(text):
    assert parse_int(text, signed=True) is None


def test_parse_int_reads_ascii_digits_up_to_sqlite_integers():
    assert parse_int("42") == 42 and parse_int("-7", signed=True) == -7 and parse_int("-7") is None
    assert parse_int(str(MAX_INT)) == MAX_INT and parse_int(str(MAX_INT + 1)) is None
    assert parse_int(12) == 12 and parse_int(True) is None and parse_int(10**30) is None


@SETTINGS
@given(st.text(max_size=40) | st.sampled_from(TRICKY))
def test_parse_int_is_an_int_of_ascii_digits_or_none(text):
    number = parse_int(text, signed=True)
    if number is not None:
        digits = text.removeprefix("-")
        assert digits.isascii() and digits.isdigit() and int(text) == number
        assert -MAX_INT <= number <= MAX_INT


@SETTINGS
@given(texts)
def test_quote_shows_at_most_a_short_prefix(text):
    assert len(quote(text)) <= QUOTE_LIMIT + 3  # the prefix, two quotes and an ellipsis


# -- component ids --------------------------------------------------------------------------------

ids = st.one_of(
    st.text(max_size=120),
    st.builds(lambda a, b, c: f"dt:{a}:{b}:{c}", texts, texts, texts),
    st.builds(lambda a, b, c: f"ds:{a}:{b}:{c}", texts, texts, texts),
)
values = st.one_of(st.none(), st.lists(texts, max_size=3))


@SETTINGS
@given(ids, values)
@example("dt:1:2:bid:²:5", None)
@example("ds:1:2:bid", [])
@example("ds:1:2:bid", None)
@example(f"dt:{'9' * 5000}:1:roll", None)
def test_every_component_id_is_parsed_or_refused_with_a_catalog_error(custom_id, chosen):
    try:
        parsed = parse_table_control(custom_id, chosen)
    except TableError as error:
        assert refusal_known(error) and error.code == "bad_control"
        assert len(error_text(error, "en")) <= REFUSAL_BOUND
        return
    if parsed is None:
        assert not custom_id.startswith(("dt:", "ds:"))
        return
    table_id, version, action = parsed
    assert 0 <= table_id <= MAX_INT and 0 <= version <= MAX_INT
    assert action.isascii() and len(action) <= 100
    Action.parse(action)  # an action we accept parses without an exception


def test_a_forged_bid_button_and_an_empty_bid_select_are_refused():
    for custom_id, chosen in [("dt:1:2:bid:²:5", None), ("ds:1:2:bid", []), ("ds:1:2:bid", ["bid:①"])]:
        with pytest.raises(TableError) as e:
            parse_table_control(custom_id, chosen)
        assert e.value.code == "bad_control"
    assert parse_table_control("ds:1:2:bid", ["bid:3"]) == (1, 2, "bid:3")
    assert parse_table_control("dt:1:2:kick:-5", None) == (1, 2, "kick:-5")
    assert parse_table_control("lb:1:pig:2", None) is None  # someone else's control


@SETTINGS
@given(texts)
def test_action_parse_never_raises_and_keeps_non_ascii_digits_as_text(text):
    action = Action.parse(text)
    for arg in action.args:
        assert isinstance(arg, str) or (isinstance(arg, int) and -MAX_INT <= arg <= MAX_INT)
    assert Action.parse("bid:²:5").args == ("²", 5)


# -- typed moves against every engine -------------------------------------------------------------

moves = st.one_of(
    texts,
    st.builds(
        lambda name, rest: f"{name}:{rest}",
        st.sampled_from(["roll", "hold", "bid", "play", "claim", "blind_pass", "choose", "challenge", "peek"]),
        texts,
    ),
)


@pytest.mark.parametrize("game", available_games())
@settings(max_examples=120, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(text=moves)
def test_any_typed_move_is_applied_or_refused_with_a_catalog_error_and_changes_nothing(game, text):
    engine = get_engine(game)
    state, _ = engine.new_game(engine.min_players, engine.options(), SeededDice(3))
    before = engine.dumps(state)
    for seat in range(engine.min_players):
        try:
            engine.apply(state, seat, Action.parse(text), SeededDice(4))
        except IllegalMove as error:
            assert refusal_known(error, game), error.code
            assert len(error_text(error, "en", game)) <= REFUSAL_BOUND
        assert engine.dumps(state) == before  # engines never change the state they are given


# -- free-text and numeric options ----------------------------------------------------------------


def option_names(game: str) -> list[str]:
    return [f.name for f in dataclasses.fields(get_engine(game).Options)]


@pytest.mark.parametrize("game", available_games())
@SETTINGS
@given(text=texts, data=st.data())
def test_any_option_text_is_accepted_or_refused_with_a_short_catalog_error(game, text, data):
    engine = get_engine(game)
    name = data.draw(st.sampled_from(option_names(game)))
    try:
        options = validate_options(engine, {name: text})
    except TableError as error:
        assert error.code == "bad_option" and refusal_known(error)
        assert len(error_text(error, "en", game)) <= REFUSAL_BOUND
        return
    value = options.to_dict()[name]
    assert not isinstance(value, int) or -MAX_INT <= value <= MAX_INT  # fits SQLite and any int() round trip


def test_a_target_of_2500_nines_is_refused_quoting_a_short_prefix():
    for nines in ("9" * 2500, "9" * 5000):  # under and over Python's 4300-digit int() limit
        with pytest.raises(InvalidOptions):
            get_engine("pig").options({"target": nines})
        with pytest.raises(TableError) as e:
            validate_options(get_engine("pig"), {"target": nines})
        text = error_text(e.value, "en", "pig")
        assert "target" in text and "9" * (QUOTE_LIMIT + 1) not in text and len(text) < 200


@SETTINGS
@given(st.text(max_size=3000) | st.sampled_from(["a" * 3000, "target=" + "9" * 2500, 'target="50', "=5", "x"]))
def test_settings_options_text_is_parsed_or_refused_with_a_short_catalog_error(text):
    try:
        parsed = parse_options(text)
    except TableError as error:
        assert refusal_known(error) and error.code in ("bad_option", "options_too_long")
        assert len(error_text(error, "en")) <= REFUSAL_BOUND
        return
    assert all(isinstance(k, str) and isinstance(v, str) for k, v in parsed.items())


def test_settings_options_of_3000_characters_are_refused_as_too_long():
    with pytest.raises(TableError) as e:
        parse_options("a" * 3000)
    text = error_text(e.value, "en")
    assert e.value.code == "options_too_long" and "3000 characters" in text and len(text) < 200


def test_every_refusal_that_quotes_user_text_is_cut_short():
    long = "x" * 3000
    for error in (
        TableError("bad_option", option=long, detail=long),
        IllegalMove("unknown_die", die=long),
        IllegalMove("no_such_code", detail=long),  # no catalog entry: the generic refusal, never the params
    ):
        assert len(error_text(error, "en", "mythic")) < DISCORD_LIMIT
    assert error_text(IllegalMove("no_such_code", detail=long), "en", "mythic") == "That is not a legal move now."
    assert "x" * (QUOTE_LIMIT + 1) not in error_text(TableError("bad_option", option=long, detail="d"), "en")


@pytest.mark.parametrize("seed", ["²", "--5", "٣", "9" * 5000])
def test_a_simulation_seed_that_only_looks_like_a_number_is_used_as_text(seed):
    import io

    from bot import simulate

    args = simulate.build_parser().parse_args(["pig", "--games", "2", "--players", "easy,easy", f"--seed={seed}"])
    out, err = io.StringIO(), io.StringIO()
    assert simulate.main_from_args(args, out, err) == 0, err.getvalue()


async def test_a_leaderboard_page_id_beyond_sqlite_integers_never_reaches_the_query():
    import re
    from types import SimpleNamespace

    from cogs.stats import PAGE_ID, PageButton

    custom_id = f"lb:{'9' * 20}:pig:2"
    match = re.fullmatch(PAGE_ID, custom_id)
    assert match is not None
    button = await PageButton.from_custom_id(SimpleNamespace(guild_id=5), SimpleNamespace(label="Next"), match)
    assert (button.guild_id, button.page) == (5, 2)  # the clicking server's own board, not an OverflowError
