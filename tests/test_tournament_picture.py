"""Tournament pictures (bot.render.tournament): standings tables and brackets of the size asked, not blank, showing
the data, every name inside its column and the frame, a long name shortened with an ellipsis."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.render.chart import BACKGROUND
from bot.render.tournament import (
    ELLIPSIS,
    HEAD,
    HEADER_ROW,
    MARGIN,
    MEDALS,
    ROW,
    WIDTH,
    WIN,
    TournamentText,
    _Page,
    bracket_picture,
    fit,
    standings_columns,
    standings_picture,
    tournament_picture,
)
from bot.tournaments import Entrant, Outcome, Plan, Round, is_over, pair_round, standings
from tests.tournaments.helpers import entrants, play, seed_wins

TEXT = TournamentText(
    title="Swiss · Liar's Dice",
    status="After round 2 of 3",
    rank="#",
    player="Player",
    points="Points",
    tiebreaks=("Buchholz", "SB"),
    rounds=("Quarter-finals", "Semi-finals", "Final"),
    winner="Winner",
    bye="bye",
    no_show="no-show",
    withdrawn="withdrawn",
)
LONG = "Bartholomew the Unbelievably Long-Named Dice Champion of Aberystwyth"
NAMES = {p: name for p, name in enumerate(["", "Ada", "Bryn", "Cleo", "Dmitri", "Eleni", "Farid", "Greta", "Hywel"])}


def decode(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    image.load()
    return image


def rgb_pixels(image: Image.Image) -> list[tuple[int, int, int]]:
    data = image.convert("RGB").tobytes()
    return list(zip(data[0::3], data[1::3], data[2::3], strict=True))


def ink(image: Image.Image, box: tuple[int, int, int, int] | None = None) -> tuple[int, int, int, int] | None:
    """The bounding box of the text's pixels (light grey or gold: far brighter than the card, its stripes, boxes
    and grid lines; the green connectors are not text) inside ``box`` (left, top, right, bottom), or None."""
    rgb = image.convert("RGB")
    if box is not None:
        rgb = rgb.crop(box)
    width, height = rgb.size
    pixels = rgb.load()
    found = []
    for y in range(height):
        for x in range(width):
            r, g, b = pixels[x, y]
            if 0.299 * r + 0.587 * g + 0.114 * b > 110 and not (g > r + 60 and g > b + 40):
                found.append((x, y))
    if not found:
        return None
    xs, ys = [x for x, _ in found], [y for _, y in found]
    dx, dy = (box[0], box[1]) if box else (0, 0)
    return min(xs) + dx, min(ys) + dy, max(xs) + dx, max(ys) + dy


def assert_a_card(image: Image.Image, width: int = WIDTH) -> None:
    """A PNG of ``width`` (at least), not blank, its text inside the frame's margins."""
    assert image.format == "PNG"
    assert image.size[0] >= width
    assert len(set(image.convert("L").tobytes())) > 8
    box = ink(image)
    assert box is not None
    left, top, right, bottom = box
    w, h = image.size
    assert left >= MARGIN - 2 and right <= w - MARGIN + 2 and top >= MARGIN - 8 and bottom <= h - MARGIN + 2, box


def swiss_after_two(count: int = 5) -> tuple[Plan, list[Entrant], list[Round], list[Outcome]]:
    plan = Plan("swiss", rounds=3)
    people = entrants(count)
    rounds: list[Round] = []
    outcomes: list[Outcome] = []
    for _ in range(2):
        rnd = pair_round(plan, people, rounds, outcomes)
        rounds.append(rnd)
        outcomes += [seed_wins(rnd, t) for t in rnd.tables]
    return plan, people, rounds, outcomes


def test_a_five_player_swiss_after_two_rounds() -> None:
    plan, people, rounds, outcomes = swiss_after_two()
    image = decode(tournament_picture(plan, people, rounds, outcomes, NAMES, text=TEXT))
    assert_a_card(image)
    assert image.size == (WIDTH, HEAD + HEADER_ROW + 5 * ROW + MARGIN)  # a row per entrant
    columns = standings_columns(WIDTH, 2)
    # the leader's rank in gold, a row's name inside its column
    first = HEAD + HEADER_ROW
    gold = tuple(int(MEDALS[0][i : i + 2], 16) for i in (1, 3, 5))
    rank_cell = image.convert("RGB").crop((columns.rank[0], first, columns.rank[1], first + ROW))
    assert any(sum(abs(a - b) for a, b in zip(px, gold, strict=True)) < 60 for px in rgb_pixels(rank_cell))
    for row in range(5):
        y = first + row * ROW
        name = ink(image, (columns.name[0] - 4, y + 2, columns.points[0], y + ROW - 2))
        assert name is not None and name[2] <= columns.name[1], (row, name)


def test_standings_follow_the_data_and_the_words() -> None:
    plan, people, rounds, outcomes = swiss_after_two()
    again = tournament_picture(plan, people, rounds, outcomes, NAMES, text=TEXT)
    assert tournament_picture(plan, people, rounds, outcomes, NAMES, text=TEXT) == again  # deterministic
    other = [
        Outcome(o.round, o.table, {p: len(o.places) + 1 - place for p, place in o.places.items()}) for o in outcomes
    ]
    assert tournament_picture(plan, people, rounds, other, NAMES, text=TEXT) != again
    german = TournamentText(**{**TEXT.__dict__, "player": "Spieler", "points": "Punkte"})
    assert tournament_picture(plan, people, rounds, outcomes, NAMES, text=german, locale="de") != again


def test_a_64_player_swiss_has_a_row_each_and_shortens_a_long_name() -> None:
    plan = Plan("swiss")
    people = entrants(64)
    rounds, outcomes = play(plan, people)
    names = {p: f"Player {p}" for p in range(1, 65)}
    names[1] = LONG  # the winner: the first row
    names[2] = "$$ \\frac{a}{b} $$"  # a name, not TeX
    gone = frozenset({40})
    rows = standings(plan, people, rounds, outcomes, gone)
    assert rows[0].player == 1
    image = decode(standings_picture(plan, rows, names, text=TEXT))
    assert_a_card(image)
    assert image.size == (WIDTH, HEAD + HEADER_ROW + 64 * ROW + MARGIN)
    columns = standings_columns(WIDTH, 2)
    first = HEAD + HEADER_ROW
    for row in range(64):
        y = first + row * ROW
        name = ink(image, (columns.name[0] - 4, y + 2, columns.points[0], y + ROW - 2))
        assert name is not None and name[2] <= columns.name[1], (row, name)
    # the long name fills its column (shortened, not dropped), nothing of it past the column
    long_row = ink(image, (columns.name[0] - 4, first + 2, columns.points[0], first + ROW - 2))
    assert long_row is not None and long_row[2] > columns.name[1] - 60


def test_a_long_name_is_shortened_with_an_ellipsis() -> None:
    page = _Page(100, 100)
    room = 300

    def width_of(words: str) -> float:
        return page.width_of(words, 20)

    short = fit(LONG, room, width_of)
    assert short.endswith(ELLIPSIS) and LONG.startswith(short[:-1]) and len(short) > 10
    assert width_of(short) <= room
    assert width_of(LONG[: len(short)] + ELLIPSIS) > room  # the longest start that fits
    assert fit("Ada", room, width_of) == "Ada"
    assert fit(LONG, 1, width_of) == ""


def test_an_eight_player_knockout_finished() -> None:
    plan = Plan("knockout")
    people = entrants(8)
    rounds, outcomes = play(plan, people)
    image = decode(tournament_picture(plan, people, rounds, outcomes, NAMES, text=TEXT))
    assert_a_card(image)
    assert image.size[0] == WIDTH  # four columns fit the standard width
    rgb = image.convert("RGB")
    width, height = image.size
    gold = tuple(int(MEDALS[0][i : i + 2], 16) for i in (1, 3, 5))
    green = tuple(int(WIN[i : i + 2], 16) for i in (1, 3, 5))

    def near(px: tuple[int, int, int], colour: tuple[int, ...]) -> bool:
        return sum(abs(a - b) for a, b in zip(px, colour, strict=True)) < 40

    # the champion in gold in the last column, and a green path for every table won (4 + 2 + 1)
    last = rgb.crop((width * 3 // 4, HEAD, width, height))
    assert sum(near(px, gold) for px in rgb_pixels(last)) > 100
    assert sum(near(px, green) for px in rgb_pixels(rgb)) > 7 * 40


def test_a_six_player_knockout_with_byes() -> None:
    plan = Plan("knockout")
    people = entrants(6)
    rounds, outcomes = play(plan, people)
    assert rounds[0].byes == (1, 2)
    png = tournament_picture(plan, people, rounds, outcomes, NAMES, text=TEXT)
    assert_a_card(decode(png))
    unmarked = TournamentText(**{**TEXT.__dict__, "bye": ""})
    assert tournament_picture(plan, people, rounds, outcomes, NAMES, text=unmarked) != png  # the byes are written


def test_a_knockout_in_progress_with_no_shows_and_a_withdrawal() -> None:
    """Round 1 of 16 with a no-show and a double no-show, then a winner withdrawn: every tag fits its box, whole
    (the column widens rather than cutting "no-show")."""
    plan = Plan("knockout")
    people = entrants(16)
    first = pair_round(plan, people, [], [])
    outcomes = [seed_wins(first, t) for t in first.tables]
    outcomes[1] = Outcome(1, 2, {first.tables[1].players[1]: 1}, frozenset({first.tables[1].players[0]}))
    outcomes[2] = Outcome(1, 3, {}, frozenset(first.tables[2].players))
    gone = frozenset({1})
    second = pair_round(plan, people, [first], outcomes, gone)
    names = {p: f"Player {p}" for p in range(1, 17)}
    words = TournamentText(**{**TEXT.__dict__, "rounds": ("Round 1", *TEXT.rounds)})
    png = bracket_picture(plan, people, [first, second], outcomes, names, text=words, withdrawn=gone)
    image = decode(png)
    assert_a_card(image)
    blank = TournamentText(**{**words.__dict__, "no_show": "", "withdrawn": ""})
    assert bracket_picture(plan, people, [first, second], outcomes, names, text=blank, withdrawn=gone) != png


def test_before_the_first_round_and_a_double_no_show_final() -> None:
    plan = Plan("knockout")
    people = entrants(2)
    assert_a_card(decode(tournament_picture(plan, people, [], [], NAMES, text=TEXT)))
    first = pair_round(plan, people, [], [])
    outcomes = [Outcome(1, 1, {}, frozenset({1, 2}))]
    assert is_over(plan, people, [first], outcomes)
    assert_a_card(decode(tournament_picture(plan, people, [first], outcomes, NAMES, text=TEXT)))


@pytest.mark.parametrize("seats", [3, 4])
def test_knockouts_of_more_seats(seats: int) -> None:
    plan = Plan("knockout", seats=seats)
    people = entrants(9)
    rounds, outcomes = play(plan, people)
    assert_a_card(decode(tournament_picture(plan, people, rounds, outcomes, NAMES, text=TEXT)))


def test_a_deep_bracket_grows_wider_and_keeps_its_names_in_the_frame() -> None:
    plan = Plan("knockout")
    people = entrants(64)
    rounds, outcomes = play(plan, people)
    names = {p: LONG if p % 7 == 0 else f"Player {p}" for p in range(1, 65)}
    image = decode(tournament_picture(plan, people, rounds, outcomes, names, text=TEXT))
    assert_a_card(image)
    assert image.size[0] > WIDTH


def test_a_round_robin_table() -> None:
    plan = Plan("round_robin")
    people = entrants(6)
    rounds, outcomes = play(plan, people)
    words = TournamentText(**{**TEXT.__dict__, "tiebreaks": ("SB", "H2H")})
    image = decode(tournament_picture(plan, people, rounds, outcomes, NAMES, text=words))
    assert_a_card(image)
    assert image.size == (WIDTH, HEAD + HEADER_ROW + 6 * ROW + MARGIN)


def test_a_missing_name_shows_the_id_and_the_card_is_opaque() -> None:
    plan, people, rounds, outcomes = swiss_after_two()
    image = decode(tournament_picture(plan, people, rounds, outcomes, {}, text=TEXT))
    assert_a_card(image)
    card = tuple(int(BACKGROUND[i : i + 2], 16) for i in (1, 3, 5))
    assert image.convert("RGB").getpixel((1, 1)) == card  # no transparency: the same in light and dark themes


def test_matplotlib_is_not_imported_with_the_module() -> None:
    import subprocess
    import sys

    code = "import sys, bot.render.tournament; print('matplotlib' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


def test_points_print_to_two_decimals_as_the_locale_writes_them() -> None:
    from bot.render.tournament import decimals

    assert decimals("en")(4.0) == "4" and decimals("en")(2.5) == "2.5"
    assert decimals("de")(1.666667) == "1,67"  # a third of a 4-seat table, not 1,7 beside a 1,7 that is 1,72
    assert decimals("no-such-locale")(0.333333) == "0.33"


def test_before_the_first_round_nobody_has_a_medal() -> None:
    """Everyone shares rank 1 before a table is played: the rank is not drawn in gold for all of them."""
    plan = Plan("swiss")
    people = entrants(6)
    image = decode(tournament_picture(plan, people, [], [], NAMES, text=TEXT))
    assert_a_card(image)
    gold = tuple(int(MEDALS[0][i : i + 2], 16) for i in (1, 3, 5))
    assert not any(sum(abs(a - b) for a, b in zip(px, gold, strict=True)) < 60 for px in rgb_pixels(image))


def test_a_knockout_won_by_a_withdrawal_shows_its_champion() -> None:
    plan = Plan("knockout")
    people = entrants(4)
    first = pair_round(plan, people, [], [])
    outcomes = [seed_wins(first, t) for t in first.tables]
    gone = frozenset({2})
    assert is_over(plan, people, [first], outcomes, gone)
    png = tournament_picture(plan, people, [first], outcomes, NAMES, text=TEXT, withdrawn=gone)
    image = decode(png)
    assert_a_card(image)
    gold = tuple(int(MEDALS[0][i : i + 2], 16) for i in (1, 3, 5))
    assert sum(sum(abs(a - b) for a, b in zip(px, gold, strict=True)) < 40 for px in rgb_pixels(image)) > 100
