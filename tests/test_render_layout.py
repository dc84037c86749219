"""The table's text in parts (``bot.render.TableText``): the head, one entry per seat, the foot, and the seat to act,
for every registered game (the sixth game of docs/ADDING_A_GAME.md too). A seat's secret stays in that seat's own
view; with the die faces uploaded every die is drawn as its emoji, never inside a label; a finished table shows no
seed (the end-of-game message has it, once) and names no control it no longer has; a cancelled one shows the seed."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

from bot.games import get_engine
from bot.games.dice import SeededDice
from bot.games.fair import FairDice
from bot.games.registry import game_ids, register, unregister
from bot.i18n import catalog, has, t
from bot.render import Control, Menu, controls, dice_text, faces, game_module, join_layout, table_text
from bot.render.liar import hand_text
from bot.render.mythic import die_text as mythic_die
from bot.tables.model import Seat, Table
from tests.sixth_game.engine import SPEC as SIXTH

NAMES = ["Ann", "Bartholomew", "Carol", "Dmitri", "Eve", "Fiona"]
OPTIONS: dict[str, dict[str, Any]] = {  # options that draw the most: several rounds, wild ones, blind passes, points
    "liar": {"mode": "lose_die", "wild_ones": True, "dice_per_player": 3},
    "mia": {"blind_pass": "any", "lives": 2},
    "mex": {"starting_lives": 2, "points_enabled": True, "hold_one_or_two": True},
    "pig": {"dice": 2, "target": 40},
}
STEPS = (0, 1, 2, 3, 5, 8, 13, 21, 34, 55)  # the states drawn, by moves played (then the end)
FAKE_FACES = {key: (f"dt_{key}", 1_000_000 + n) for n, key in enumerate(faces.KEYS)}
EMOJI = re.compile(r"<:dt_(\w+):(\d+)>")
UNICODE_DICE = set(faces.PIPS) | set(faces.MYTHIC_UNICODE.values())


@pytest.fixture(scope="module", autouse=True)
def sixth_game() -> Iterator[None]:
    register(SIXTH)
    try:
        yield
    finally:
        unregister(SIXTH.id)


@pytest.fixture
def uploaded() -> Iterator[None]:
    """The die faces as if ``dicetavern sync`` had uploaded them and the bot had found them at start."""
    faces.load(FAKE_FACES)
    try:
        yield
    finally:
        faces.load({})


def players(game: str) -> int:
    engine = get_engine(game)
    return min(4, engine.player_range(engine.options(OPTIONS.get(game, {})))[1])


def tables(game: str, seed: int = 1) -> Iterator[Table]:
    """A random legal game, drawn as a table at each of ``STEPS`` and once over (status ``finished``)."""
    engine = get_engine(game)
    options = OPTIONS.get(game, {})
    rng, dice = random.Random(seed), SeededDice(seed)
    count = players(game)
    state, events = engine.new_game(count, engine.options(options), dice)
    log = [(e.kind, e.data) for e in events if e.public]
    for step in range(2000):
        over = engine.is_over(state)
        if step in STEPS or over:
            table = Table(7, 1, 2, game, "finished" if over else "running", 100, options, seats(count), state, step)
            table.add_log(log)
            table.fair = FairDice(b"\x07" * 32, "players' luck")
            yield table
        if over:
            return
        mover = rng.choice(engine.to_act(state))
        state, events = engine.apply(state, mover, rng.choice(engine.legal_actions(state, mover)), dice)
        log += [(e.kind, e.data) for e in events if e.public]


def seats(count: int) -> list[Seat]:
    return [Seat(100 + i, name) for i, name in enumerate(NAMES[: count - 1])] + [Seat(-1, "Tilly", "easy")]


def public_text(table: Table) -> str:
    text = table_text(table, "en")
    return "\n".join([text.title, *text.head, *text.seats, *text.foot, *text.log, text.footer, *text.fair])


def test_the_sixth_game_is_among_the_games_drawn():
    assert "highroll" in game_ids() and len(game_ids()) == 6


@pytest.mark.parametrize("locale", ["en", "cy"])
def test_every_game_draws_one_entry_per_seat_naming_it_and_the_seat_to_act(locale):
    for game in game_ids():
        engine = get_engine(game)
        for table in tables(game):
            text = table_text(table, locale)
            names = [s.name if s.level is None else f"🤖 {s.name}" for s in table.seats]
            assert len(text.seats) == len(table.seats), (game, text.seats)
            assert all(name in entry for name, entry in zip(names, text.seats, strict=True)), (game, text.seats)
            assert all(entry.count("\n") <= 1 and entry.strip() for entry in text.seats), (game, text.seats)
            acting = engine.to_act(table.state)
            assert text.turn == (acting[0] if len(acting) == 1 and table.status == "running" else None), game
            assert text.body == join_layout(text.head, text.seats, text.foot)
            lines = [line for entry in text.seats for line in entry.split("\n")]
            assert text.body == [
                *text.head,
                *([""] if text.head else []),
                *lines,
                *([""] if text.foot else []),
                *text.foot,
            ]
            for seat in range(len(table.seats)):  # a seat's own view: one entry per seat as well
                assert len(table_text(table, locale, seat).seats) == len(table.seats)


def test_the_layout_is_what_the_game_module_draws():
    for game in game_ids():
        table = next(tables(game))
        view = table.engine.view(table.state, None)
        names = [s.name if s.level is None else f"🤖 {s.name}" for s in table.seats]
        drawn = game_module(game).layout(view, names, "en")
        text = table_text(table, "en")
        assert (text.head, text.seats, text.foot) == (drawn.head, drawn.seats, drawn.foot)
        assert not hasattr(game_module(game), "body"), f"{game}: the old body() is gone, layout() replaces it"


def test_the_lobby_has_a_seat_entry_per_player_and_nobody_to_act():
    table = Table(7, 1, 2, "liar", "lobby", 100, {"wild_ones": True}, seats(3))
    text = table_text(table, "en")
    assert text.seats == ["1. Ann 👑", "2. Bartholomew", "3. 🤖 Tilly"] and text.turn is None
    assert text.head == [t("table.lobby_players", "en", count=3), "⚙ Wild ones: on"]  # the options in words
    assert text.foot == [t("table.lobby_hint", "en", game="liar")]
    assert text.footer == t("table.footer_id", "en", id=7)  # no 🎲 My dice in the lobby


def test_a_seats_secret_shows_only_in_its_own_entry_and_the_foot_of_its_own_view():
    for game in game_ids():
        engine = get_engine(game)
        for table in tables(game):
            public = table_text(table, "en")
            shown = public_text(table)
            for viewer in range(len(table.seats)):
                own = table_text(table, "en", viewer)
                assert own.head == public.head, game
                others = [e for s, e in enumerate(own.seats) if s != viewer]
                assert others == [e for s, e in enumerate(public.seats) if s != viewer], (game, viewer)
                secret = [line for line in own.body if line and line not in public.body]
                assert not [line for line in secret if line in shown], (game, viewer, secret)
                # everything the viewer cannot see, dealt anew: the channel's text does not change
                table.state, kept = engine.scramble(table.state, viewer, SeededDice(viewer + 99)), table.state
                try:
                    assert public_text(table) == shown, (game, viewer)
                finally:
                    table.state = kept


DICE_RUN = re.compile(r"[⚀-⚅][1-6](?: [⚀-⚅][1-6])*")  # a drawn hand, e.g. "⚀1 ⚃4 ⚃4"


def runs(text: str) -> set[str]:
    """The hands drawn in ``text``, each whole (one hand is no part of another)."""
    return set(DICE_RUN.findall(text))


def test_a_liars_dice_hand_is_in_its_own_view_only_until_it_is_revealed():
    checked = 0
    for table in tables("liar", seed=3):
        state = table.state
        if state.finished or (state.last_reveal is not None and state.last_reveal["round"] == state.round_no):
            continue
        shown = runs(public_text(table))
        for seat, hand in enumerate(state.hands):
            if not hand:
                continue
            drawn = hand_text(hand, True)
            mine = table_text(table, "en", seat).seats[seat]
            assert drawn in runs(mine.split("\n")[1]), (seat, mine)  # under the seat's name, in its own view
            revealed = state.last_reveal and drawn in (hand_text(h, True) for h in state.last_reveal["hands"])
            assert revealed or drawn not in shown, (seat, drawn)
            checked += 1
    assert checked >= 8


def test_a_liars_dice_reveal_shows_its_hands_under_the_seats_until_the_next_rounds_first_bid():
    fresh = stale = 0
    for seed in range(1, 6):
        for table in tables("liar", seed):
            reveal, state = table.state.last_reveal, table.state
            if reveal is None:
                continue
            text = table_text(table, "en")
            shown = [entry for entry in text.seats if "\n🔍 " in entry]
            if state.bids and not state.finished:
                assert not shown and not any("🔍" in line for line in text.foot)
                stale += 1
            else:
                assert len(shown) == sum(1 for hand in reveal["hands"] if hand)
                fresh += 1
    assert fresh and stale


def labels(items: list[Control | Menu], locale: str = "en") -> list[str]:
    found = []
    for item in items:
        if isinstance(item, Control):
            found.append(t(item.label, locale))
        else:
            found += [
                t(item.placeholder, locale),
                *(t(label, locale) if has(label) else label for label, _ in item.options),
            ]
    return found


def private_controls(table: Table, seat: int) -> list[Control | Menu]:
    module = game_module(table.game)
    view = table.engine.view(table.state, seat)
    items: list[Control | Menu] = []
    if hasattr(module, "player_controls"):
        items += module.player_controls(view)
    if hasattr(module, "private_menus"):
        items += module.private_menus(view)
    return items


def test_with_the_faces_uploaded_every_die_is_its_emoji_and_no_label_holds_one(uploaded):
    seen: set[str] = set()
    button_labels = [t(key, "en") for key in catalog("en") if key.endswith("_button")]
    for game in game_ids():
        for table in tables(game):
            for viewer in (None, *range(len(table.seats))):
                text = table_text(table, "en", viewer)
                drawn = "\n".join([*text.head, *text.seats, *text.foot, *text.log])
                for label in button_labels:  # a button named in the text reads as on the button: Unicode faces
                    drawn = drawn.replace(label, "")
                assert not UNICODE_DICE & set(drawn), (game, viewer, drawn)
                assert all(FAKE_FACES[key][1] == int(n) for key, n in EMOJI.findall(drawn))
                seen |= {key for key, _ in EMOJI.findall(drawn)}
            items = controls(table) + [c for seat in range(len(table.seats)) for c in private_controls(table, seat)]
            assert not [label for label in labels(items) if "<:" in label], game
            keys = [c.face for c in items if isinstance(c, Control)] + [
                f for m in items if isinstance(m, Menu) for f in m.faces
            ]
            assert all(key is None or key in faces.KEYS for key in keys), (game, keys)
            menus = [m for m in items if isinstance(m, Menu) and m.faces]
            assert all(len(m.faces) == len(m.options) for m in menus), game
    # the pips, the wild one, Mythical Dice's dice in hand and rolled: all drawn somewhere
    assert {"d1", "d6", "w1", "m_red", "m_gray"} <= seen, seen
    assert any(key.startswith("m_") and key.count("_") == 2 for key in seen), seen


def test_with_the_faces_uploaded_a_hand_draws_a_run_of_one_face_once_with_its_count(uploaded):
    def e(key: str) -> str:
        return faces.text(key)

    assert hand_text([1, 1, 1, 4, 6, 6], True) == f"{e('w1')}×3 {e('d4')} {e('d6')}×2"
    assert dice_text([4, 4]) == f"{e('d4')} {e('d4')}"  # a throw of two stays two dice (a Mex double)
    assert mythic_die("red", "en", 3) == f"{e('m_red')}×3" and mythic_die("red", "en", 3, plain=True) == "🟥 red ×3"
    faces.load({})
    assert hand_text([1, 1, 1, 4], True) == "⚀1 ⚀1 ⚀1 ⚃4"  # the Unicode faces as ever


def test_without_the_faces_the_dice_read_as_unicode(uploaded):
    faces.load({})
    table = next(t for t in tables("liar") if t.state.round_no > 1)
    text = "\n".join(table_text(table, "en", 0).seats)
    assert "<:" not in text and re.search(r"[⚀-⚅][1-6]", text)


def test_buttons_and_menus_name_the_die_they_show():
    liar = next(t for t in tables("liar") if t.state.bid is not None and not t.state.finished)
    items = controls(liar)
    (smallest,) = [c for c in items if isinstance(c, Control) and c.action.startswith("bid:")]
    assert smallest.face == f"d{smallest.action.rsplit(':', 1)[1]}"
    for menu in (m for m in items if isinstance(m, Menu)):
        assert [f"d{action.rsplit(':', 1)[1]}" for _, action in menu.options] == list(menu.faces)
    mythic = next(t for t in tables("mythic") if t.state.phase == "playing")
    (seat,) = mythic.engine.to_act(mythic.state)
    (play,) = private_controls(mythic, seat)
    assert isinstance(play, Menu)
    kinds = {d["id"]: d["type"] for d in mythic.engine.view(mythic.state, seat)["your_dice"]}
    assert list(play.faces) == [f"m_{kinds[int(action.split(':')[1])]}" for _, action in play.options]


def over_table(game: str, status: str) -> Table:
    table = list(tables(game))[-1]
    table.status = status
    fair = table.fair
    assert fair is not None
    table.add_log([("fair_reveal", {"game_id": 7, "seed": fair.reveal(), "commitment": fair.commitment})])
    return table


def test_a_finished_table_shows_no_seed_and_no_control_it_has_not():
    for game in game_ids():
        table = over_table(game, "finished")
        fair = table.fair
        assert fair is not None
        text = table_text(table, "en")
        assert text.fair == [t("fair.commitment", "en", commitment=fair.commitment)], game  # one line
        assert fair.reveal() not in public_text(table), game  # the end-of-game message shows it, once
        assert text.footer == t("table.footer_id", "en", id=7) and text.turn is None
        assert t("ui.my_dice", "en") not in public_text(table), game
        assert controls(table) == []


def test_a_cancelled_table_shows_its_seed():
    table = over_table("pig", "cancelled")
    assert table.fair is not None
    text = table_text(table, "en")
    assert text.fair[-1] == t("fair.seed", "en", seed=table.fair.reveal(), id=7)
    assert "my dice" not in text.footer.lower()


def test_a_game_cancelled_midway_asks_nobody_to_move():
    for game in game_ids():
        live = [t for t in tables(game) if t.engine.to_act(t.state)]
        table = next((t for t in live if table_text(t, "en").foot), live[-1])  # High Roll has no foot
        running = table_text(table, "en")
        table.status = "cancelled"
        text = table_text(table, "en")
        assert text.foot == [] and text.turn is None, game  # no "▶️ … to roll: 🎲 My dice or /mythic play"
        assert text.head == running.head and text.seats == running.seats, game
        assert t("ui.my_dice", "en") not in public_text(table), game


def test_the_log_line_of_the_revealed_seed_is_silent_on_discord():
    assert all(catalog(locale)["event.fair_reveal"] == "" for locale in ("en", "it", "ru", "el", "de", "cy", "et"))
    assert "{seed}" in catalog("en")["event.fair_reveal@terminal"]  # the terminal has no end-of-game message
