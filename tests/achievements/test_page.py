"""/achievements' page and the end-of-game line, in every shipped language: the whole list fits Discord's limit
(detail goes first, never an achievement), one game's page has every rule, rarity and dates are shown."""

from __future__ import annotations

import pytest

from bot.achievements import ACHIEVEMENTS, catalog_key, rule_key
from bot.i18n import t
from bot.store.achievements import Earned, Rarity
from cogs.achievements import LIMIT, page

LOCALES = ("en", "it", "ru", "el", "de", "cy", "et")
EVERY = [Earned(a.id, 1000 + n, a.game or "pig", 1_700_000_000.0 + n) for n, a in enumerate(ACHIEVEMENTS)]
RARITY = Rarity(7, {a.id: 1 + n % 7 for n, a in enumerate(ACHIEVEMENTS)})


def size(blocks: list[str]) -> int:
    return sum(len(b) + 1 for b in blocks)


@pytest.mark.parametrize("locale", LOCALES)
def test_every_achievement_is_named_earned_or_not_and_the_page_fits(locale):
    for earned in (EVERY, [], EVERY[::2]):
        blocks = page("Zephyrine Quillfeather", earned, RARITY, locale, pending=True)
        text = "\n".join(blocks)
        assert size(blocks) <= LIMIT
        assert all(t(catalog_key(a.id), locale) in text for a in ACHIEVEMENTS)
        assert t("achievements.summary", locale, earned=len(earned), total=len(ACHIEVEMENTS)) in text


@pytest.mark.parametrize("locale", LOCALES)
def test_one_games_page_has_every_rule_rarity_and_date(locale):
    for game in ("pig", "mia", "mex", "liar", "mythic"):
        mine = [a for a in ACHIEVEMENTS if a.game == game]
        earned = [e for e in EVERY if e.achievement == mine[0].id]
        text = "\n".join(page("Bram", earned, RARITY, locale, game=game))
        assert all(t(rule_key(a.id), locale) in text for a in mine)
        assert t("achievements.rarity", locale, percent=RARITY.percent(mine[0].id)) in text
        assert f"<t:{int(earned[0].at)}:d>" in text
        assert t(f"game.{game}", locale) in text
        others = [a for a in ACHIEVEMENTS if a.game != game]
        assert not any(t(catalog_key(a.id), locale) in text for a in others)


def test_rarity_is_whole_percent_never_zero_when_held():
    rarity = Rarity(300, {"first_win": 1, "ten_wins": 150, "regular": 0})
    assert (rarity.percent("first_win"), rarity.percent("ten_wins"), rarity.percent("regular")) == (1, 50, 0)
    assert Rarity(0, {}).percent("first_win") == 0


class _Seat:
    def __init__(self, member: int, bot: bool = False) -> None:
        self.id, self.is_bot = member, bot


class _Table:
    seats = [_Seat(11), _Seat(-1, bot=True), _Seat(12), _Seat(13)]


@pytest.mark.parametrize("locale", LOCALES)
def test_the_end_line_names_each_persons_new_ones_in_seat_order(locale):
    from cogs.utils.presented import achievements_line

    earned = {12: ["first_win"], 11: ["pig_bank_30", "pig_no_bust"], -1: ["first_win"]}
    line = achievements_line(_Table(), earned, locale)  # type: ignore[arg-type]
    first, second = t(catalog_key("pig_bank_30"), locale), t(catalog_key("first_win"), locale)
    assert line.startswith("🏅") and "\n" not in line
    assert line.index("<@11>") < line.index(first) < line.index("<@12>") < line.index(second)
    assert "<@-1>" not in line and "<@13>" not in line
    assert achievements_line(_Table(), {}, locale) == ""  # type: ignore[arg-type]
