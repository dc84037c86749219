"""The per-game achievements: each a rule over one replayed finished game and one seat (rules in
docs/ACHIEVEMENTS.md; the event fields are the engines' own, bot/games/*.py)."""

from __future__ import annotations

from collections.abc import Callable

from bot.achievements.model import Played

Rule = Callable[[Played, int], bool]

MIA_VALUE = 21  # bot.games.mia.MIA: the highest throw, 2-1


def _mine(played: Played, kind: str, seat: int, key: str = "player") -> list[dict]:
    return [e.data for e in played.events() if e.kind == kind and e.data.get(key) == seat]


def _best_of(counts: list[int]) -> int:
    return max(counts, default=0)


# -- Pig ------------------------------------------------------------------------------------------------------


def pig_bank_30(played: Played, seat: int) -> bool:
    """Bank 30 or more in one turn (a hold, or the automatic hold at the target)."""
    return any(data["banked"] >= 30 for data in _mine(played, "hold", seat))


def pig_one_turn_win(played: Played, seat: int) -> bool:
    """Win with a single bank: the winning hold banks the whole score, from 0."""
    if not played.won(seat):
        return False
    holds = _mine(played, "hold", seat)
    return len([h for h in holds if h["banked"] > 0]) == 1 and holds[-1]["banked"] > 0


def pig_no_bust(played: Played, seat: int) -> bool:
    """Win without a single bust (no 1 rolled, no lost turn) in the whole game."""
    return played.won(seat) and not any(data["bust"] for data in _mine(played, "roll", seat))


def pig_ten_rolls(played: Played, seat: int) -> bool:
    """Ten rolls or more in one turn, then bank it."""
    run = 0
    for event in played.events():
        if event.data.get("player") != seat:
            continue
        if event.kind == "roll":
            run = 0 if event.data["bust"] else run + 1
        elif event.kind == "hold":
            if run >= 10 and event.data["banked"] > 0:
                return True
            run = 0
        elif event.kind in ("turn", "timeout", "forfeit"):
            run = 0
    return False


def pig_double_ones(played: Played, seat: int) -> bool:
    """Two dice: roll double ones when they are worth 25."""
    return any(data["faces"] == [1, 1] and data["gain"] == 25 for data in _mine(played, "roll", seat))


# -- Mia ------------------------------------------------------------------------------------------------------


def _lives_lost(played: Played, seat: int) -> int:
    return sum(data["lost"] for data in _mine(played, "life_lost", seat))


def _any_life_lost(played: Played) -> bool:
    """Some round was decided: a win because everyone else left at once is not flawless."""
    return any(e.kind == "life_lost" for e in played.events())


def _flawless(played: Played, seat: int) -> bool:
    return played.won(seat) and _lives_lost(played, seat) == 0 and _any_life_lost(played)


def _last_life(played: Played, seat: int) -> bool:
    """Won with one life left, having lost at least one (a game of one life is not a narrow escape)."""
    return played.won(seat) and played.final.lives[seat] == 1 and _lives_lost(played, seat) > 0


def mia_flawless(played: Played, seat: int) -> bool:
    """Win without losing a life (in a game where someone lost one)."""
    return _flawless(played, seat)


def mia_last_life(played: Played, seat: int) -> bool:
    """Win with one life left, after losing at least one."""
    return _last_life(played, seat)


def mia_real_mia(played: Played, seat: int) -> bool:
    """Announce Mia and have it revealed real."""
    return any(
        e.kind == "reveal" and e.data["claimant"] == seat and e.data["claim"] == e.data["value"] == MIA_VALUE
        for e in played.events()
    )


def mia_bluff_hunter(played: Played, seat: int) -> bool:
    """Catch three bluffs in one game (three challenges of yours that cost the announcer a life)."""
    return (
        _caught(played, seat, "challenge", "caught_bluffing") + _caught(played, seat, "challenge_mia", "mia_bluff") >= 3
    )


def _caught(played: Played, seat: int, challenge: str, reason: str) -> int:
    """How often ``seat``'s ``challenge`` was followed by someone else's life lost for ``reason``."""
    found, pending = 0, False
    for event in played.events():
        if event.kind == challenge:
            pending = event.data["player"] == seat
        elif event.kind == "life_lost" and pending:
            found += event.data["reason"] == reason and event.data["player"] != seat
            pending = False
    return found


def mia_full_table(played: Played, seat: int) -> bool:
    """Win a game of five or more players."""
    return played.won(seat) and len(played.record.seats) >= 5


# -- Mex ------------------------------------------------------------------------------------------------------


def _mexes(played: Played, seat: int) -> list[dict]:
    """The seat's Mexes of normal rounds (``extra`` is the tie-break depth, 0 outside one)."""
    return [data for data in _mine(played, "throw", seat) if data["mex"] and data["extra"] == 0]


def mex_three_mexes(played: Played, seat: int) -> bool:
    """Throw three Mexes in one game (tie-break throws not counted)."""
    return len(_mexes(played, seat)) >= 3


def mex_first_throw(played: Played, seat: int) -> bool:
    """A Mex with the first throw of a turn."""
    return any(data["throw"] == 1 for data in _mexes(played, seat))


def mex_flawless(played: Played, seat: int) -> bool:
    """Win without losing a life (in a game where someone lost one)."""
    return _flawless(played, seat)


def mex_last_life(played: Played, seat: int) -> bool:
    """Win with one life left, after losing at least one."""
    return _last_life(played, seat)


def mex_full_table(played: Played, seat: int) -> bool:
    """Win a game of five or more players."""
    return played.won(seat) and len(played.record.seats) >= 5


# -- Liar's Dice ----------------------------------------------------------------------------------------------


def _reveals(played: Played) -> list[dict]:
    return [e.data for e in played.events() if e.kind == "reveal"]


def _rounds_mode(played: Played) -> bool:
    """Dice are lost or passed (not the single-round mode, where one challenge decides)."""
    return bool(played.final.options.mode != "single")


def liar_last_die_challenge(played: Played, seat: int) -> bool:
    """Challenge correctly with one die left."""
    return any(r["challenger"] == seat == r["winner"] and len(r["hands"][seat]) == 1 for r in _reveals(played))


def liar_exact_bid(played: Played, seat: int) -> bool:
    """Be challenged on a bid that was exactly right (as many dice as bid, not one more)."""
    return any(r["bidder"] == seat and r["count"] == r["quantity"] for r in _reveals(played))


def liar_sharp_eye(played: Played, seat: int) -> bool:
    """Three correct challenges in one game."""
    return sum(r["challenger"] == seat == r["winner"] for r in _reveals(played)) >= 3


def liar_flawless(played: Played, seat: int) -> bool:
    """Win a game of rounds without losing a die."""
    if not (played.won(seat) and _rounds_mode(played)):
        return False
    lost = [e for e in played.events() if e.kind in ("die_lost", "die_passed")]
    return bool(lost) and not any(e.data.get("player", e.data.get("from")) == seat for e in lost)


def liar_comeback(played: Played, seat: int) -> bool:
    """Win a game of rounds, starting with two dice or more, after being down to one die."""
    if not (played.won(seat) and _rounds_mode(played) and played.final.options.dice_per_player >= 2):
        return False
    counts = [e.data["counts"] for e in played.events() if e.kind in ("round", "die_lost", "die_passed")]
    return any(c[seat] == 1 for c in counts)


# -- Mythical Dice --------------------------------------------------------------------------------------------


def _rows(played: Played, seat: int) -> list[dict]:
    return [row for e in played.events() if e.kind == "hand_scored" for row in e.data["rows"] if row["player"] == seat]


def mythic_all_exact(played: Played, seat: int) -> bool:
    """Every bid exact, in every hand of the game."""
    rows = _rows(played, seat)
    return len(rows) == played.final.hands_total and all(row["bid"] == row["tricks"] for row in rows)


def mythic_big_bid(played: Played, seat: int) -> bool:
    """An exact bid of three tricks or more."""
    return any(row["bid"] == row["tricks"] >= 3 for row in _rows(played, seat))


def mythic_sweep(played: Played, seat: int) -> bool:
    """Take every trick of a hand of three dice or more."""
    hands = [e.data for e in played.events() if e.kind == "hand_scored"]
    return any(
        row["player"] == seat and hand["hand"] >= 3 and row["tricks"] == hand["hand"]
        for hand in hands
        for row in hand["rows"]
    )


def mythic_zero(played: Played, seat: int) -> bool:
    """Bid nothing and take nothing in a hand of three dice or more."""
    hands = [e.data for e in played.events() if e.kind == "hand_scored"]
    return any(
        row["player"] == seat and hand["hand"] >= 3 and row["bid"] == row["tricks"] == 0
        for hand in hands
        for row in hand["rows"]
    )


def mythic_winner_exact(played: Played, seat: int) -> bool:
    """Win the game with more exact bids than bids missed."""
    if not played.won(seat):
        return False
    rows = _rows(played, seat)
    exact = sum(row["bid"] == row["tricks"] for row in rows)
    return exact > len(rows) - exact
