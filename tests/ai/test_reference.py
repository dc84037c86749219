"""Reference players (bot.ai.reference): reachable as ``ref:<kind>`` in simulations only; legal, secret, sensible."""

from __future__ import annotations

import pytest

import bot.ai as ai
from bot.ai import reference
from bot.ai.reference import liar as ref_liar
from bot.ai.reference import mia as ref_mia
from bot.ai.reference import mythic as ref_mythic
from bot.games.base import Action
from bot.games.registry import game_ids
from bot.simulate import check_level, known_levels, parse_levels, run_simulation
from tests.ai.test_players import CONFIGS, play_checked

GAMES = game_ids()  # every registered game has reference players (GameSpec.reference)
GAMES_PER_CONFIG = {"pig": 3, "mia": 6, "mex": 4, "liar": 12, "mythic": 2}


def test_kinds_and_levels():
    for game in GAMES:
        assert reference.kinds(game)[0] == "sensible"
    assert {"sensible", "rational", "always_mia", "claim62", "mia_lie", "lowest", "step2", "step3"} <= set(
        reference.kinds("mia")
    )
    assert {"from31", "from62", "from11"} <= set(reference.kinds("mia"))  # challenge from T, every T below Mia
    assert set(reference.kinds("mythic")) == {"sensible", "expected", "zero", "specials"}
    assert "probability" in reference.kinds("liar")
    assert ai.LEVELS == ("easy", "normal", "hard")  # never offered at a table
    assert reference.normalise("mia", " REF:Always_Mia ") == "ref:always_mia"
    with pytest.raises(ValueError):
        reference.normalise("pig", "ref:always_mia")  # a Mia player only
    with pytest.raises(ValueError):
        reference.normalise(None, "ref:nobody")


def test_reference_levels_only_in_simulations():
    with pytest.raises(ValueError):
        check_level("ref:sensible")  # the terminal's and the tables' check
    assert "ref:sensible" not in known_levels()
    assert check_level("ref:sensible", reference=True) == "ref:sensible"
    assert check_level("ref:claim62", reference=True, game="mia") == "ref:claim62"
    with pytest.raises(ValueError, match="ref:sensible"):
        check_level("ref:claim62", reference=True, game="pig")
    assert parse_levels("hard,ref:sensible*2") == ["hard", "ref:sensible", "ref:sensible"]
    result = run_simulation("mia", ["hard", "ref:always_mia"], 5, seed=1)
    assert result.levels == ("hard", "ref:always_mia")
    with pytest.raises(ValueError):
        run_simulation("pig", ["hard", "ref:always_mia"], 5, seed=1)


@pytest.mark.parametrize("game", GAMES)
def test_reference_players_are_legal_and_decide_from_the_view(game):
    decisions = sum(
        play_checked(game, players, options, seed, [f"ref:{kind}" for kind in reference.kinds(game)], "ref:")
        for players, options in CONFIGS[game]
        for seed in range(GAMES_PER_CONFIG.get(game, 3))
    )
    assert decisions > 100


# --- behaviour ---------------------------------------------------------------------------------


def pig_view(i: int, j: int, k: int, target: int = 100, dice: int = 1) -> dict:
    return {
        "options": {"target": target, "dice": dice},
        "scores": [i, j],
        "active": [True, True],
        "turn_total": k,
        "you": 0,
        "legal": ["roll", "hold"],
    }


def test_pig_holds_at_20_or_at_the_target():
    def choice(*args: int) -> str:
        return ai.decide("pig", pig_view(*args), "ref:sensible").name

    assert choice(0, 0, 19) == "roll"
    assert choice(0, 0, 20) == "hold"
    assert choice(90, 0, 10) == "hold"  # banking reaches the target
    assert choice(0, 99, 19) == "roll"
    assert choice(0, 0, 24, 100, 2) == "roll"
    assert choice(0, 0, 25, 100, 2) == "hold"


def test_mex_stands_when_safe_and_the_first_player_uses_thresholds():
    def view(throws: list[list[int]], final: list[int | None], pos: int, limit: int | None, lives: int = 6) -> dict:
        return {
            "options": {},
            "lives": [lives, 6],
            "you": 1 if pos else 0,
            "round": {
                "order": [0, 1],
                "pos": pos,
                "final": final,
                "throws": [throws, []] if pos == 0 else [[[6, 5]], throws],
                "throw_limit": limit,
            },
            "legal": ["throw", "stand"],
        }

    def choice(v: dict) -> str:
        return ai.decide("mex", v, "ref:sensible").name

    assert choice(view([[6, 1]], [54, None], 1, 3)) == "stand"  # beats the lowest standing value: safe
    assert choice(view([[6, 1]], [65, None], 1, 3)) == "throw"
    assert choice(view([[6, 4]], [None, None], 0, None)) == "stand"  # 64 with two throws left
    assert choice(view([[6, 3]], [None, None], 0, None)) == "throw"
    assert choice(view([[5, 4], [5, 4]], [None, None], 0, None)) == "stand"  # 54 with one left
    assert choice(view([[6, 4]], [None, None], 0, None, lives=1)) == "throw"  # last life: wants a double


def liar_view(hand: list[int], bid: tuple[int, int] | None, bidder: int | None, total: int, wild: bool = False) -> dict:
    return {
        "options": {"wild_ones": wild, "raise_rule": "poker"},
        "you": 0,
        "hand": hand,
        "counts": [len(hand), total - len(hand)],
        "total": total,
        "bid": {"quantity": bid[0], "face": bid[1]} if bid else None,
        "bidder": bidder,
        "bids": [[bidder, *bid]] if bid and bidder is not None else [],
    }


def test_liar_credits_the_last_bidder_with_one_die_of_their_face():
    # two dice each; the opponent bid two 5s; we hold no 5: one credited 5 and one unknown die
    view = liar_view([2, 3], (2, 5), 1, 4)
    assert ref_liar.p_true(view, 2, 5) == pytest.approx(1 / 6)
    assert ref_liar.p_true(view, 1, 5) == 1.0
    assert ref_liar.p_true(view, 1, 4) == pytest.approx(1 / 6)  # the credited die is a 5, not a 4
    assert ref_liar.p_true(liar_view([2, 3], None, None, 4), 1, 5) == pytest.approx(1 - (5 / 6) ** 2)
    wild = liar_view([2, 3], (1, 1), 1, 4, wild=True)  # a credited 1 counts for every face
    assert ref_liar.p_true(wild, 2, 4) == pytest.approx(1 / 3)
    assert ai.decide("liar", {**view, "legal": ["challenge", "bid:3:5"]}, "ref:probability").name == "challenge"
    # holding a 5 after a bid of one 5: two 5s are sure (ours and the credited one)
    sure = {**liar_view([5, 3], (1, 5), 1, 4), "legal": ["challenge", "bid:1:6", "bid:2:5", "bid:2:6"]}
    assert ai.decide("liar", sure, "ref:probability") == Action("bid", (2, 5))
    sure["legal"] = ["challenge", "bid:1:6", "bid:2:6"]  # equally likely raises: the smallest
    assert ai.decide("liar", sure, "ref:probability") == Action("bid", (1, 6))


def mia_view(legal: list[str], claim: int | None = None, dice: list[int] | None = None, phase: str = "") -> dict:
    return {"options": {}, "you": 0, "phase": phase, "claim": claim, "dice": dice, "legal": legal}


def test_mia_rational_challenges_62_and_up_and_tells_the_truth_when_it_can():
    respond = ["challenge", "roll"]
    assert ai.decide("mia", mia_view(respond, 61), "ref:rational").name == "roll"
    assert ai.decide("mia", mia_view(respond, 62), "ref:rational").name == "challenge"
    assert ai.decide("mia", mia_view(["give_up", "challenge_mia"], 21), "ref:rational").name == "challenge_mia"
    claims = ["claim:53", "claim:54", "claim:61", "claim:62", "claim:21"]
    assert ai.decide("mia", mia_view(claims, 52, [6, 1]), "ref:rational") == Action("claim", (61,))
    assert ai.decide("mia", mia_view(claims, 52, [3, 1]), "ref:rational") == Action("claim", (53,))
    assert ai.decide("mia", mia_view(["peek", *claims], 52), "ref:rational").name == "peek"
    assert ref_mia.claim_probability(62, "ones_high") == pytest.approx(16 / 36)


def test_mia_always_mia_and_claim62():
    claims = ["claim:53", "claim:54", "claim:61", "claim:62", "claim:63", "claim:21"]
    assert ai.decide("mia", mia_view(["peek", *claims], 52), "ref:always_mia") == Action("claim", (21,))
    assert ai.decide("mia", mia_view(claims, 52, [3, 1]), "ref:claim62") == Action("claim", (62,))
    assert ai.decide("mia", mia_view(claims, 52, [6, 1]), "ref:claim62") == Action("claim", (62,))  # 61 < 62
    assert ai.decide("mia", mia_view(claims, 52, [6, 3]), "ref:claim62") == Action("claim", (63,))
    late = ["claim:63", "claim:21"]
    assert ai.decide("mia", mia_view(late, 62, [3, 1]), "ref:claim62") == Action("claim", (63,))  # minimal lie


def test_mia_fixed_exploits():
    claims = ["claim:53", "claim:54", "claim:61", "claim:62", "claim:63", "claim:21"]
    assert ai.decide("mia", mia_view(claims, 52, [3, 1]), "ref:mia_lie") == Action("claim", (21,))  # must lie: Mia
    assert ai.decide("mia", mia_view(claims, 52, [6, 1]), "ref:mia_lie") == Action("claim", (61,))  # the truth
    assert ai.decide("mia", mia_view(["peek", *claims], 52), "ref:lowest") == Action("claim", (53,))  # never looks
    assert ai.decide("mia", mia_view(claims, 52, [6, 6]), "ref:lowest") == Action("claim", (53,))
    assert ai.decide("mia", mia_view(claims, 52, [3, 1]), "ref:step2") == Action("claim", (54,))
    assert ai.decide("mia", mia_view(claims, 52, [3, 1]), "ref:step3") == Action("claim", (61,))
    assert ai.decide("mia", mia_view(claims[-2:], 62, [3, 1]), "ref:step3") == Action("claim", (21,))  # capped
    respond = ["challenge", "roll"]
    assert ai.decide("mia", mia_view(respond, 42), "ref:from43").name == "roll"
    assert ai.decide("mia", mia_view(respond, 43), "ref:from43").name == "challenge"
    assert ai.decide("mia", mia_view(respond, 11), "ref:from43").name == "challenge"  # doubles rank above 65
    assert ai.decide("mia", mia_view(respond, 65), "ref:from11").name == "roll"
    assert ai.decide("mia", mia_view(respond, 22), "ref:from11").name == "roll"  # ones_high: 22 < 11
    sixes = {**mia_view(respond, 22), "options": {"doubles_order": "sixes_high"}}
    assert ai.decide("mia", sixes, "ref:from11").name == "challenge"  # sixes_high: 22 > 11


def test_mythic_other_bidders():
    from bot.games.mythical_dice import bag_types

    types = bag_types()
    # every face of a Minotaur beats more of the bag than a red die's, a red's more than a purple's
    wins = {k: ref_mythic.expected_wins(k, types, 2) for k in ("minotaur", "red", "yellow", "purple")}
    assert wins["minotaur"] > wins["red"] > wins["yellow"] > wins["purple"] > 0
    assert ref_mythic.bid_for("expected", ["red", "minotaur", "gray"], types, 3) == 1  # 0.57 + 0.61 + 0.14
    assert ref_mythic.bid_for("expected", ["red", "minotaur", "griffin"], types, 3) == 2
    assert ref_mythic.bid_for("zero", ["yellow", "gray", "purple"], types, 3) == 0
    assert ref_mythic.bid_for("zero", ["red", "yellow", "yellow", "purple", "gray"], types, 3) == 0  # one red
    assert ref_mythic.bid_for("sensible", ["red", "yellow", "yellow", "purple", "gray"], types, 3) == 1
    assert ref_mythic.bid_for("zero", ["red", "red", "gray"], types, 3) == 1  # not weak: its expected tricks
    assert ref_mythic.bid_for("sensible", ["yellow", "gray"], types, 3) == 0
    assert ref_mythic.bid_for("specials", ["griffin", "yellow"], types, 3) == 2  # 1.5 rounded up
    assert ref_mythic.bid_for("specials", ["mermaid", "griffin", "red"], types, 3) == 3


def test_mythic_bids_strong_dice_and_plays_to_its_bid():
    def view(dice: list[tuple[int, str]], legal: list[str], bid: int | None = None, taken: int = 0, trick=()):
        return {
            "options": {},
            "you": 0,
            "your_dice": [{"id": i, "type": t} for i, t in dice],
            "bids": [bid, None, None],
            "tricks": [taken, 0, 0],
            "trick": [{"player": 1, "die": 99, "type": "x", "face": f} for f in trick],
            "legal": legal,
        }

    # standard bag ids: 0 minotaur, 1-3 griffins, 4-5 mermaids, then the colours
    from bot.games.mythical_dice import bag_types

    types = bag_types()
    ids = {t: types.index(t) for t in ("minotaur", "red", "purple", "mermaid")}
    dice = [(ids[t], t) for t in ("minotaur", "red", "purple")]
    assert ai.decide("mythic", view(dice, ["bid:0", "bid:1", "bid:2", "bid:3"]), "ref:sensible") == Action("bid", (2,))
    plays = [f"play:{i}" for i, _ in dice]
    assert ai.decide("mythic", view(dice, plays, bid=2), "ref:sensible") == Action("play", (ids["minotaur"],))
    assert ai.decide("mythic", view(dice, plays, bid=0), "ref:sensible") == Action("play", (ids["purple"],))
    # a Mermaid already shows: the Minotaur cannot win, throw the weakest away
    assert ai.decide("mythic", view(dice, plays, bid=2, trick=["mermaid"]), "ref:sensible") == Action(
        "play", (ids["purple"],)
    )
    # its bid made and a Mermaid showing: nothing can win, so get rid of the Minotaur
    assert ai.decide("mythic", view(dice, plays, bid=0, trick=["mermaid"]), "ref:sensible") == Action(
        "play", (ids["minotaur"],)
    )
    assert ref_mythic.can_beat("mermaid", ["griffin", "minotaur"])  # all three: Mermaid wins
    assert not ref_mythic.can_beat("griffin", ["minotaur"])
    assert not ref_mythic.can_beat("yellow", ["6"])
