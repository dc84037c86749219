"""Mythical Dice hard: the Monte Carlo search's rules, its deals of the unseen dice, and its choices."""

from __future__ import annotations

import random

import pytest

import bot.ai as ai
from bot.ai import mythic_mc
from bot.games.base import Action
from bot.games.mythical_dice import FACES, MythicOptions, bag_types, trick_winner

TYPES = bag_types()
ID = {t: TYPES.index(t) for t in set(TYPES)}  # the first die of each type


def ids(kind: str) -> list[int]:
    return [i for i, t in enumerate(TYPES) if t == kind]


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"three_way": "sequential"},
        {"same_special_tie": "earlier"},
        {"all_flags": "nobody"},
        {"three_way": "sequential", "same_special_tie": "earlier"},
    ],
)
def test_the_fast_trick_winner_is_the_engines(options):
    rng = random.Random(5)
    rules = mythic_mc.Rules(options)
    opts = MythicOptions(**options)
    for _ in range(3000):
        dice = rng.sample(range(len(TYPES)), rng.randint(2, 6))
        rolls = [
            {"player": k, "die": d, "type": TYPES[d], "face": rng.choice(FACES[TYPES[d]])} for k, d in enumerate(dice)
        ]
        codes = [mythic_mc._CODE[r["face"]] for r in rolls]
        assert rules.winner(codes) == trick_winner(rolls, opts)


def _view(mine: list[int], **kw) -> dict:
    view = {
        "options": {}, "you": 0, "players": 3, "hand": 3, "active": [True] * 3, "leader": 1,
        "your_dice": [{"id": d, "type": TYPES[d]} for d in mine], "trick": [], "captured": [[], [], []],
        "last_trick": None, "hand_sizes": [len(mine), 3, 3], "tricks": [0, 0, 0], "bids": [None, None, None],
        "bids_revealed": False, "legal": [],
    }  # fmt: skip
    view.update(kw)
    return view


def test_a_deal_gives_each_seat_its_count_of_unseen_dice_and_respects_shown_voids():
    # trick 1 (won by seat 1): seat 1 led red, seat 2 threw a purple -> seat 2 holds no red
    red, purple = ids("red"), ids("purple")
    rolls = [
        {"player": 1, "die": red[0], "type": "red", "face": "7"},
        {"player": 2, "die": purple[0], "type": "purple", "face": "1"},
        {"player": 0, "die": red[1], "type": "red", "face": "5"},
    ]
    mine = [ID["minotaur"], ID["yellow"]]
    view = _view(mine, captured=[[], rolls, []], hand_sizes=[2, 2, 2], tricks=[0, 1, 0], trick_no=1)
    deal = mythic_mc.Deal(view)
    assert deal.voids == {2: {mythic_mc._type_id("red")}}
    seen = set(mine) | {r["die"] for r in rolls}
    for seed in range(200):
        hands = deal.sample(random.Random(seed))
        assert hands[0] == mine
        assert len(hands[1]) == len(hands[2]) == 2
        assert not (set(hands[1]) | set(hands[2])) & seen
        assert not set(hands[1]) & set(hands[2])
        assert all(TYPES[d] != "red" for d in hands[2])


def test_the_search_budget_is_a_count_so_a_decision_replays():
    view = _view([ID["minotaur"], ID["red"], ID["purple"]], legal=["bid:0", "bid:1", "bid:2", "bid:3"])
    picks = {ai.decide("mythic", view, "hard", random.Random(7)) for _ in range(3)}
    assert len(picks) == 1
    deal = mythic_mc.Deal(view)
    assert mythic_mc.MIN_SAMPLES <= mythic_mc.samples_for(deal, 4) <= mythic_mc.MAX_SAMPLES


def test_hard_bids_a_sure_special_and_not_a_weak_die():
    one = _view([ID["minotaur"]], hand=1, hand_sizes=[1, 1, 1], legal=["bid:0", "bid:1"])
    assert ai.decide("mythic", one, "hard", random.Random(1)) == Action("bid", (1,))
    weak = _view([ID["purple"]], hand=1, hand_sizes=[1, 1, 1], legal=["bid:0", "bid:1"])
    assert ai.decide("mythic", weak, "hard", random.Random(1)) == Action("bid", (0,))


def _playing(mine: list[int], bid: int, trick: list[tuple[int, int, str]], taken: int = 0) -> dict:
    rolls = [{"player": p, "die": d, "type": TYPES[d], "face": f} for p, d, f in trick]
    rolled = {p for p, _, _ in trick}
    sizes = [len(mine)] + [3 - (p in rolled) for p in (1, 2)]
    return _view(
        mine,
        bids=[bid, 1, 1],
        bids_revealed=True,
        tricks=[taken, 0, 0],
        trick=rolls,
        leader=trick[0][0] if trick else 0,
        hand_sizes=sizes,
        legal=[f"play:{d}" for d in mine],
    )


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_hard_takes_a_trick_it_needs_with_its_special_when_last_to_roll(level):
    mine = [ID["griffin"], ID["purple"]]  # it needs both tricks: the purple cannot take this one
    view = _playing(mine, 2, [(1, ID["red"], "6"), (2, ids("red")[1], "7")])
    assert {ai.decide("mythic", view, level, random.Random(s)) for s in range(5)} == {Action("play", (ID["griffin"],))}


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_hard_with_its_bid_made_dumps_the_die_that_cannot_win_now_but_would_later(level):
    mine = [ID["minotaur"], ID["purple"], ID["yellow"]]
    view = _playing(mine, 1, [(1, ID["mermaid"], "mermaid"), (2, ID["red"], "7")], taken=1)
    assert {ai.decide("mythic", view, level, random.Random(s)) for s in range(5)} == {Action("play", (ID["minotaur"],))}


def test_a_deal_that_fits_the_revealed_bids_weighs_more(monkeypatch):
    # seat 1 bid 2 and has rolled a purple (it counts towards the hand it bid on); seat 2 bid 0
    purple = ids("purple")
    rolls = [{"player": 1, "die": purple[0], "type": "purple", "face": "1"}]
    view = _view(
        [ID["yellow"], ID["gray"]],
        bids=[1, 2, 0],
        bids_revealed=True,
        captured=[[], rolls, []],
        hand_sizes=[2, 2, 2],
        tricks=[0, 1, 0],
    )
    deal = mythic_mc.Deal(view)
    assert deal.rolled == {1: [purple[0]]}
    worth = [1.0 if t in ("minotaur", "griffin", "mermaid") else 0.1 for t in TYPES]
    strong = [[], ids("griffin")[:2], purple[1:3]]
    weak = [[], purple[1:3], ids("griffin")[:2]]
    monkeypatch.setattr(mythic_mc, "BID_FIT", 1.0)
    assert mythic_mc.bid_weight(deal, strong, worth) > 10 * mythic_mc.bid_weight(deal, weak, worth)
    assert mythic_mc.bid_weight(deal, strong, None) == 1.0  # no model: every deal counts the same
    monkeypatch.setattr(mythic_mc, "BID_FIT", 0.0)
    assert mythic_mc.bid_weight(deal, strong, worth) == mythic_mc.bid_weight(deal, weak, worth) == 1.0
