"""No message exceeds Discord's limits in any shipped language, for the longest realistic game states.

Each game is played with random legal moves (seeded) at its most players, with 32-character display names and the
options that make its text longest; the states whose English text is longest (and the finished game, with the fair
dice's seed revealed) are then rendered in every locale: the table message, every seat's own view (🎲 My dice and
its DM), the DMs of private events, a move's reply, the final message, the rules, /help, refusals, /history and
replay pages, with the die faces as Unicode and as uploaded application emojis (~30 characters of markup a die).
The table, 🎲 My dice, replies, the final message and replays are Components V2 messages (40 components, 4,000
characters of text in all). The limits are checked on the text as built, BEFORE any cut the code applies (a V2
message's oldest log lines, a ``[:2000]``): a cut text is a defect (it loses its end). Each check returns its
problems, listed in one failure.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from string import Formatter
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot.client import DiceTavern
from bot.games import Event, get_engine
from bot.games.dice import SeededDice
from bot.games.fair import FairDice
from bot.i18n import catalog, locales, t
from bot.render import CONTENT_LIMIT, REFUSAL_LIMIT, faces, private_text, rules_pages, rules_text, table_text
from bot.render.replay import replay_page
from bot.tables.model import Seat, Table
from bot.translator import discord_languages
from tests.fakediscord import display_length, iter_components, text_displays

CONTENT, TITLE, DESCRIPTION, FIELD, FIELD_NAME, FOOTER, TOTAL, FIELDS = 2000, 256, 4096, 1024, 256, 2048, 6000, 25
V2_TEXT = 4000  # a Components V2 message's text in all (the table, 🎲 My dice, replies, the final message, replays)
EMBED_DESCRIPTION_CUT = 4000  # the table and replay embeds cut their description here: past it is a cut text
SNOWFLAKE = 1_234_567_890_123_456_789  # a 19-digit Discord id, as long as they get
LINK = f"https://discord.com/channels/{SNOWFLAKE}/{SNOWFLAKE}/{SNOWFLAKE}"
GUILD_NAME, CHANNEL_NAME = "G" * 100, "c" * 100  # Discord's longest server and channel names
STATES_PER_GAME = 12  # the longest states (by their English text) rendered in every locale


def names(players: int) -> list[str]:
    """32-character display names (Discord's longest), wide letters."""
    return [f"Wilhelmina-Świętosława {i:02d} ŴŴŴŴŴ"[:32].ljust(32, "W") for i in range(players)]


@dataclass(frozen=True)
class Scenario:
    game: str
    players: int
    options: dict[str, Any]
    seed: int = 1
    steps: int = 4000  # moves at most: long into a game


SCENARIOS = [
    Scenario("liar", 6, {"dice_per_player": 6, "mode": "lose_die", "wild_ones": True, "max_rounds": 10_000}),
    Scenario("liar", 6, {"dice_per_player": 6, "mode": "loot", "raise_rule": "pirates", "starter": "winner"}, 2),
    Scenario("mythic", 6, {"hand_leader": "last_trick_winner", "three_way": "sequential", "all_flags": "nobody"}),
    Scenario("mia", 10, {"lives": 10, "blind_pass": "any", "mia_mode": "challengeable", "doubles_order": "sixes_high"}),
    Scenario("mex", 10, {"starting_lives": 99, "hold_one_or_two": True, "mex_penalty": "doubling", "max_throws": 3}),
    Scenario("mex", 10, {"starting_lives": 2, "points_enabled": True, "tiebreak_mode_choice": "chooser"}, 3),  # ends
    Scenario("pig", 8, {"dice": 2, "target": 500, "double_ones": "plus25", "equal_turns": True}),
]


@dataclass
class Step:
    state: Any
    events: list[Event]
    mover: int | None
    log: list[tuple[str, dict[str, Any]]]  # the public log up to this step


def play(s: Scenario) -> tuple[list[Step], Any]:
    """Every step of a random legal game (the options checked by the engine), and its final state."""
    engine = get_engine(s.game)
    options = engine.options(s.options)
    rng, dice = random.Random(s.seed), SeededDice(s.seed)
    state, events = engine.new_game(s.players, options, dice)
    log = [(e.kind, e.data) for e in events if e.public]
    steps = [Step(state, list(events), None, list(log))]
    for _ in range(s.steps):
        if engine.is_over(state):
            break
        mover = rng.choice(engine.to_act(state))
        state, events = engine.apply(state, mover, rng.choice(engine.legal_actions(state, mover)), dice)
        log += [(e.kind, e.data) for e in events if e.public]
        steps.append(Step(state, list(events), mover, log[-30:]))
    return steps, state


def table_at(s: Scenario, step: Step, over: bool) -> Table:
    seats = [Seat(SNOWFLAKE - i, name) for i, name in enumerate(names(s.players))]
    seats[-1] = Seat(-1, seats[-1].name, "hard")  # a computer player: "🤖 " before its name
    table = Table(
        id=987_654_321,
        guild_id=SNOWFLAKE,
        channel_id=SNOWFLAKE,
        game=s.game,
        status="finished" if over else "running",
        host_id=seats[0].id,
        options=s.options,
        seats=seats,
        state=step.state,
        version=len(step.log),
        message_id=SNOWFLAKE,
    )
    table.add_log(step.log)
    table.fair = FairDice(b"s" * 32, "".join(f"{SNOWFLAKE}" for _ in range(s.players)) + "x" * 100)
    return table


def dm_header(table: Table, locale: str) -> str:
    game = t(f"game.{table.game}", locale)
    return t("table.dm_header", locale, game=game, id=table.id, guild=GUILD_NAME, channel=CHANNEL_NAME, link=LINK)


def over(what: str, text: str, limit: int) -> list[str]:
    return [f"{what}: {len(text)} characters (limit {limit})"] if len(text) > limit else []


def embed_problems(what: str, title: str, description: str, fields: list[tuple[str, str]], footer: str) -> list[str]:
    problems = over(f"{what} title", title, TITLE) + over(f"{what} description", description, DESCRIPTION)
    problems += over(f"{what} footer", footer, FOOTER)
    for name, value in fields:
        problems += over(f"{what} field {name!r} name", name, FIELD_NAME) + over(f"{what} field {name!r}", value, FIELD)
    total = len(title) + len(description) + len(footer) + sum(len(n) + len(v) for n, v in fields)
    problems += [f"{what}: {total} characters in all (limit {TOTAL})"] if total > TOTAL else []
    problems += [f"{what}: {len(fields)} fields (limit {FIELDS})"] if len(fields) > FIELDS else []
    return problems


def v2_problems(what: str, view: discord.ui.LayoutView) -> list[str]:
    """A Components V2 message against Discord's limits: 40 components in all (nested ones count), 4,000
    characters of text in all, 80 per button label, 100 per custom id and select option."""
    components, problems = list(iter_components(view.to_components())), []
    for component in components:
        problems += over(f"{what} button label", component.get("label", ""), 80) if component.get("type") == 2 else []
        problems += over(f"{what} custom id", component.get("custom_id", ""), 100)
        for option in component.get("options", []):
            problems += over(f"{what} option label", option["label"], 100)
    texts = display_length(view.to_components())
    problems += [f"{what}: {len(components)} components (limit 40)"] if len(components) > 40 else []
    problems += [f"{what}: {texts} characters of text (limit 4000)"] if texts > 4000 else []
    return problems


def displayed(view: discord.ui.LayoutView) -> list[str]:
    """Every text block of a V2 message, in order."""
    return text_displays(view.to_components())


def table_problems(table: Table, locale: str) -> list[str]:
    """The table message (as cogs.utils.components.table_message builds it): within V2's limits, and nothing
    left out to fit (every seat its own block, every log line shown)."""
    from cogs.utils.components import table_message

    text = table_text(table, locale)
    view = table_message(table, locale)
    problems = v2_problems("table message", view)
    blocks = displayed(view)
    problems += [] if all(seat in blocks for seat in text.seats) else ["table message: the seats share one block"]
    shown = "\n".join(blocks)
    problems += [] if all(line in shown for line in text.log) else ["table message: a log line was left out"]
    return problems


def seat_problems(table: Table, step: Step, locale: str) -> list[str]:
    """Every seat's own view (🎲 My dice's reply and its DM), the DMs of this step's private events, the mover's
    reply (the move's public lines, and their undelivered secrets when DMs are closed)."""
    problems: list[str] = []
    header = dm_header(table, locale)
    for seat in range(len(table.seats)):
        body = table_text(table, locale, seat).body
        problems += over(f"seat {seat}'s 🎲 My dice", "\n".join([t("ui.your_view", locale), *body]), V2_TEXT)
        problems += over(f"seat {seat}'s view by DM", "\n".join([header, *body]), V2_TEXT)
    secrets: dict[int, list[str]] = {}
    for event in step.events:
        if not event.public and (text := private_text(table, event, locale)):
            problems += over(f"the DM of a {event.kind!r} event", f"{header}\n{text}", V2_TEXT)
            if event.to is not None:
                secrets.setdefault(event.to, []).append(text)
    if step.mover is not None:
        lines = [line for e in step.events if e.public and (line := _event_line(table, e, locale))]
        mine = secrets.get(step.mover, [])
        reply = "\n".join([*lines, *(["", t("ui.dm_closed", locale), *mine] if mine else [])])
        problems += over("a move's reply", reply, V2_TEXT)
    return problems


def _event_line(table: Table, event: Event, locale: str) -> str | None:
    from bot.render import event_text, seat_names

    return event_text(table.game, event.kind, event.data, seat_names(table), locale)


def final_problems(table: Table, locale: str) -> list[str]:
    from cogs.utils.presenter import final_text

    outcome = table.engine.outcome(table.state)
    assert outcome is not None
    return over("the final message", final_text(table, outcome, locale), V2_TEXT)


def replay_problems(s: Scenario, steps: list[Step], at: int, locale: str) -> list[str]:
    """A /game replay page (as cogs.history.show_replay builds it), uncut."""
    seats = [{"id": SNOWFLAKE - i, "name": name, "level": None} for i, name in enumerate(names(s.players))]
    record = SimpleNamespace(
        id=987_654_321,
        guild_id=SNOWFLAKE,
        channel_id=SNOWFLAKE,
        game=s.game,
        status="finished",
        options=s.options,
        seats=seats,
        names=[seat["name"] for seat in seats],
    )
    moves = [SimpleNamespace(state=x.state, events=x.events, move=SimpleNamespace(seq=n)) for n, x in enumerate(steps)]
    page = replay_page(record, SimpleNamespace(steps=moves, failed=None), at, locale)  # type: ignore[arg-type]
    from cogs.history import replay_layout

    view = replay_layout(page, record.id, at, len(steps) - 1, locale)
    problems = v2_problems("replay page", view)
    shown = "\n".join(displayed(view))
    return problems + ([] if all(line in shown for line in page.log) else ["replay page: a log line was left out"])


def english_size(table: Table, step: Step) -> int:
    """How long a state's texts are in English: the longest states are rendered in every locale."""
    text = table_text(table, "en")
    own = max(len("\n".join(table_text(table, "en", seat).body)) for seat in range(len(table.seats)))
    return max(len("\n".join(text.body)), len("\n".join(text.log)), own)


@pytest.fixture(scope="module")
def games() -> list[tuple[Scenario, list[Step], list[int]]]:
    """Each scenario's steps, and the indices of its longest states (the last step, the finished game, among them)."""
    played = []
    for s in SCENARIOS:
        steps, final = play(s)
        assert get_engine(s.game).is_over(final) or len(steps) > 1000, s  # over, or long into the game
        sizes = sorted(range(len(steps)), key=lambda n: english_size(table_at(s, steps[n], False), steps[n]))
        chosen = sorted({*sizes[-STATES_PER_GAME:], len(steps) - 1})
        played.append((s, steps, chosen))
    return played


LOCALES = locales()


@pytest.fixture(params=[False, True], ids=["unicode faces", "uploaded faces"])
def uploaded(request: pytest.FixtureRequest) -> Iterator[bool]:
    """Die faces as Unicode, or as application emojis with the longest names and ids (``<:dt_…:19 digits>``)."""
    if request.param:
        faces.load({key: (f"dt_{key}_abcdef", SNOWFLAKE) for key in faces.KEYS})
    try:
        yield request.param
    finally:
        faces.load({})


@pytest.mark.parametrize("locale", LOCALES)
def test_table_messages_views_dms_and_replies_fit_in_every_locale(games, locale, uploaded):
    problems = []
    for s, steps, chosen in games:
        last = len(steps) - 1
        for n in chosen:
            finished = n == last and get_engine(s.game).is_over(steps[n].state)
            table = table_at(s, steps[n], finished)
            found = table_problems(table, locale) + seat_problems(table, steps[n], locale)
            if finished:
                found += final_problems(table, locale)
            found += replay_problems(s, steps, n, locale)
            problems += [f"{locale} {s.game} (seed {s.seed}) step {n}: {p}" for p in found]
    assert problems == [], f"{len(problems)} problems:\n" + "\n".join(sorted(set(problems)))


@pytest.mark.parametrize("locale", LOCALES)
def test_rules_fit_in_pages_and_lose_nothing(locale):
    for s in SCENARIOS:
        changed = get_engine(s.game).options(s.options).changed()
        text = rules_text(s.game, changed, locale)
        pages = rules_pages(s.game, changed, locale)
        assert all(0 < len(page) <= CONTENT_LIMIT for page in pages), (locale, s.game, [len(p) for p in pages])
        assert "\n".join(pages) == text, (locale, s.game)  # split between lines: nothing lost
        assert len(pages) <= 3, (locale, s.game, len(text))  # a page or two; three at most


def test_rules_pages_split_between_lines():
    assert rules_pages("pig", {}, "en") == [rules_text("pig", {}, "en")]
    pages = rules_pages("liar", {}, "en", limit=500)
    assert len(pages) > 3 and all(len(p) <= 500 for p in pages)
    assert "\n".join(pages) == rules_text("liar", {}, "en")


def fields_of(template: Any) -> set[str]:
    texts = template.values() if isinstance(template, dict) else [template]
    return {f.split(".")[0].split("[")[0] for text in texts for _, f, _, _ in Formatter().parse(text) if f}


LONG_PARAMS = {"detail": "d" * 300, "problem": "p" * 300}  # an engine's detail: DETAIL_LIMIT (bot.render)


def filled(template: Any, count: int = 99_999) -> list[str]:
    """Every form of ``template`` with each field as long as it gets: a 36-character bold name, a user's text
    (quoted, QUOTE_LIMIT), a detail (DETAIL_LIMIT), else 40 characters."""
    forms = template.values() if isinstance(template, dict) else [template]
    params: dict[str, Any] = {f: LONG_PARAMS.get(f, "x" * 40) for f in fields_of(template)}
    params["count"] = count
    return [form.format_map(params) for form in forms]


@pytest.mark.parametrize("locale", LOCALES)
def test_refusals_fit_before_they_are_clipped(locale):
    """Every refusal text (error.*, <game>.error.*) with its fields at their longest stays under REFUSAL_LIMIT,
    where bot.render.error_text clips it, so a refusal is never cut."""
    problems = []
    texts = catalog(locale)
    for key, template in texts.items():
        if key.startswith("error.") or ".error." in key:
            for text in filled(template):
                if len("⚠️ " + text) > REFUSAL_LIMIT:
                    problems.append(f"{locale}: {key}: {len(text)} characters with its fields filled")
    assert problems == []


@pytest.mark.parametrize("locale", LOCALES)
def test_history_pages_fit(locale):
    """A full page of /history (10 games of 10 players with 32-character names, 9 of them winners, the bot's owner
    among them) as cogs.history.history_page builds it, with its title and footer; and a page of games cancelled
    after they started, each with its 64-digit seed."""
    from bot.store.history import GameSummary
    from cogs.history import PAGE, history_line

    game = max(("pig", "mia", "mex", "liar", "mythic"), key=lambda g: len(t(f"game.{g}", locale)))
    played = GameSummary(SNOWFLAKE, game, 1893456000, names(10), names(9), owner_seated=True)
    cancelled = GameSummary(SNOWFLAKE, game, 1893456000, names(10), [], True, "f" * 64, owner_seated=True)
    longest = max((history_line(g, locale) for g in (played, cancelled)), key=len)
    description = "\n".join([longest] * PAGE)
    what = f"{t(f'game.{game}', locale)} · <@{SNOWFLAKE}>"
    title, footer = t("history.title", locale, what=what), t("history.page", locale, page=999, pages=999)
    problems = embed_problems("history", title, description, [], footer)
    problems += over("history description (cut at 4000)", description, EMBED_DESCRIPTION_CUT)
    assert problems == []


def test_history_lists_what_fits_and_counts_the_rest():
    from cogs.history import listed

    assert listed(["ann", "bob"], 100) == "ann, bob"
    assert listed(["ann", "bob", "cy"], 9) == "ann, +2"
    assert listed(["x" * 50], 10) == "x" * 50  # one name is always shown


def _discord_locale(locale: str) -> discord.Locale:
    """The Discord client a reader of ``locale`` runs: their own language where Discord has it, else English."""
    return discord.Locale(locale) if locale in discord_languages() else discord.Locale.american_english


@pytest.mark.parametrize("locale", LOCALES)
async def test_help_fits_without_cutting_a_text(locale):
    """/help's overview (under 1,500 characters) and every page its select opens within the V2 limits, nothing
    left out (its fallbacks, fewer options' words or names only, drop detail whole, as designed);
    tests/test_help_pages.py checks the pages in detail and with a huge command tree."""
    bot = DiceTavern(database_path=":memory:", commands_only=True)
    await bot.setup_hook()
    helps = sys.modules[type(bot.get_cog("Help")).__module__]  # the module the extension loaded
    try:
        words = helps.Words(bot.tree.translator, _discord_locale(locale), locale)
        tree = helps.command_tree(bot, None)
        first = await helps.build_page(words, tree, helps.OVERVIEW)
        values = [str(o["value"]) for c in iter_components(first.to_components()) for o in c.get("options", [])]
        pages = {value: await helps.build_page(words, tree, value) for value in values}
    finally:
        await bot.close()
    problems = []
    for value, view in pages.items():
        problems += v2_problems(f"{locale} /help {value}", view)
        if value == helps.OVERVIEW:
            problems += over(f"{locale} /help overview", "".join(displayed(view)), helps.OVERVIEW_LIMIT)
        cut = [text[:60] for text in displayed(view) if "\n…" in text or text == "…"]
        problems += [f"{locale} /help {value}: lines left out (help.fit): {v!r}" for v in cut]
    assert len(pages) >= 7 and problems == [], "\n".join(problems)


def test_the_checks_catch_an_overflow(games):
    """With a catalog whose texts run long, the checks report each limit passed (and the rules still page)."""
    import bot.i18n

    long = {"table.title": "T" * 300, "pig.event.hold": "{player} " + "h" * 4000, "pig.rules": "word " * 900}
    s, steps, chosen = next(g for g in games if g[0].game == "pig")
    n = max(n for n in range(len(steps)) if any(kind == "hold" for kind, _ in steps[n].log[-3:]))
    with bot.i18n.overridden(dict.fromkeys(bot.i18n.locales(), long)):
        problems = table_problems(table_at(s, steps[n], False), "en")
        pages = rules_pages("pig", {}, "en")
    assert "table message: a log line was left out" in problems, problems  # the 4,000 characters ran out
    assert len(pages) == 3 and all(len(p) <= CONTENT_LIMIT for p in pages)
    crowded = discord.ui.LayoutView()
    container: discord.ui.Container[Any] = discord.ui.Container()
    for _ in range(39):
        container.add_item(discord.ui.TextDisplay("x" * 103))
    crowded.add_item(container)
    crowded._total_children = 0  # past discord.py's own count, to see ours
    crowded.add_item(discord.ui.TextDisplay("y"))
    assert v2_problems("m", crowded) == ["m: 41 components (limit 40)", "m: 4018 characters of text (limit 4000)"]


def test_a_rules_text_longer_than_a_message_is_sent_in_pages():
    """Where a translation's rules run past 2,000 characters, /<game> rules must send rules_pages, not a cut text."""
    import inspect

    from cogs.utils.gamecog import GameCog

    longest = max(
        (
            (len(rules_text(g, {}, locale)), locale, g)
            for locale in LOCALES
            for g in ("pig", "mia", "mex", "liar", "mythic")
        ),
    )
    source = inspect.getsource(GameCog.rules.callback)
    if longest[0] > CONTENT_LIMIT:
        assert "rules_pages" in source, f"the rules of {longest[2]} in {longest[1]} are {longest[0]} characters"
