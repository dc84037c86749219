"""Mia's ``normal`` and ``hard`` decisions: the solved heads-up round, plus (hard) the opponents' shown habits.

Values are in lives: losing a life counts -1, another seat losing one counts ``+g`` with g = 1 / (seats alive - 1)
(heads-up g = 1, the solved game's lives difference; with more seats another's loss is shared). Believing a claim
``c`` hands the next holder the solved stage ``c``, worth ``-g x value[c]`` to the player who made the claim.

* Announcing with roll ``r`` above ``p``: claim ``c`` is worth ``rho(c) x (shown) + (1 - rho(c)) x (believed)``,
  ``rho`` the next seat's challenge rate for ``c``.
* Answering claim ``c`` (made above ``p``): challenging is worth ``-t + (1 - t) g``, ``t`` the chance the claim is
  true; believing is worth the best announcement over a fresh roll against the next seat.

``normal`` uses the equilibrium challenge rates for ``rho`` and, for ``t``, the posterior over kinds of announcer
(:mod:`bot.ai.mia_types`: the equilibrium, truth-else-minimal-lie, jump-to-X) given the claimant's claims this game;
``hard`` also learns each opponent's challenge rates and revealed truth (:mod:`bot.ai.mia_model`). ``normal`` plays
the best action under its model every time (predictable: ``hard`` learns its habits); ``hard`` plays the equilibrium
mix unless the best action is worth ``MARGIN`` more under its model, so it stays hard to exploit while the model
says nothing; the margin shrinks to nothing as the opponent shows ``EVIDENCE`` claims (answering) or answers
(announcing).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from bot.ai import mia_types
from bot.ai.mia_model import Model, Solution, last_claim, positions, previous_claim, read_log, solution
from bot.ai.mia_solver import MIA_POS, PROB, N
from bot.games.base import Action
from bot.games.mia import CHALLENGE, CHALLENGE_MIA, GIVE_UP, ROLL, MiaView, ranked_values, value_of

MARGIN = 0.02  # lives: how much better than the equilibrium mix a model's best action must be to be played...
EVIDENCE = 6  # ...shrinking to nothing once the opponent has shown this many claims (or answers to claims)


class Context:
    """One decision's inputs, read from the view."""

    def __init__(self, view: MiaView, level: str) -> None:
        options = view.get("options") or {}
        self.order = str(options.get("doubles_order", "ones_high"))
        self.penalty = int(options.get("mia_check_penalty", 2))
        self.auto_reveal = options.get("mia_mode") == "auto_reveal"
        self.sol: Solution = solution(self.penalty, self.auto_reveal)
        self.values = ranked_values(self.order)
        self.pos = positions(self.order)
        alive = list(view.get("alive") or [])
        self.g = 1.0 / max(1, sum(alive) - 1)
        me = view.get("you")
        self.me = int(me) if me is not None else 0
        n = len(alive)
        self.next_seat = next((q for q in ((self.me + i) % n for i in range(1, n)) if alive[q]), self.me)
        log = view.get("log") or ()
        self.log: Sequence[Any] = log
        self.round = int(view.get("round") or 0)
        self.level = level
        self.model = read_log(log, self.order)
        if level != "hard":  # normal weighs the kinds of announcer by their claims, and nothing else
            self.model = Model(history=self.model.history)
        self._rho: dict[int, np.ndarray] = {}

    def rho(self, stage: int) -> np.ndarray:
        """The next seat's chance to challenge each claim made at ``stage`` (kept: a decision asks up to 21 times)."""
        if stage not in self._rho:
            prior = self.sol.challenge[stage]
            if self.level == "hard":  # what the kinds of receiver its answers point to (:mod:`bot.ai.mia_types`)
                prior = mia_types.challenge_rates(self.model.answers.get(self.next_seat, []), stage - 1, self.sol)
            rho = self.model.challenge_rate(self.next_seat, prior)
            if self.auto_reveal:
                rho[MIA_POS] = 1.0
            self._rho[stage] = rho
        return self._rho[stage]

    def claim_values(self, r: int, stage: int) -> np.ndarray:
        """Worth of each claim c (all 21; the caller masks) with roll position ``r`` at ``stage``."""
        g = self.g
        shown = np.where(np.arange(N) <= r, g, -1.0)
        believed = -g * np.append(self.sol.value[1:], 0.0)  # stage c + 1 for claim c
        if r == MIA_POS:
            shown[MIA_POS] = 1.0 if self.auto_reveal else g * self.penalty
        else:
            shown[MIA_POS] = -1.0
        believed[MIA_POS] = g  # a conceded Mia
        rho = self.rho(stage)
        return rho * shown + (1 - rho) * believed

    def believe_value(self, c: int) -> float:
        """Worth of believing claim position ``c``: a fresh roll, then the best claim above ``c``."""
        stage = c + 1
        legal = np.arange(N) > c
        total = 0.0
        for r in range(N):
            q = self.claim_values(r, stage)
            total += PROB[r] * float(q[legal].max())
        return total


def margin(shown: float) -> float:
    """How much better than the equilibrium mix the model's best action must be, the opponent having shown
    ``shown`` claims or answers: without evidence the mix keeps hard hard to exploit; with much, the model decides."""
    return MARGIN * max(0.0, 1.0 - shown / EVIDENCE)


def _pick(
    rng: Any, options: Sequence[Action], q: Sequence[float], mix: Sequence[float], level: str, edge: float
) -> Action:
    """The best action if it beats the equilibrium mix by ``edge`` (``normal``: always), else a draw from the mix."""
    weights = np.clip(np.asarray(mix, dtype=float), 0.0, None)
    if weights.sum() <= 0:
        weights = np.ones(len(options))
    weights = weights / weights.sum()
    values = np.asarray(q, dtype=float)
    best = int(values.argmax())
    if level != "hard" or values[best] - float((weights * values).sum()) > edge:
        return options[best]
    u = rng.random() if rng is not None else 0.5
    i = int(np.searchsorted(np.cumsum(weights), u, side="right"))
    return options[min(i, len(options) - 1)]


def announce(view: MiaView, level: str, rng: Any, actions: list[Action]) -> Action | None:
    ctx = Context(view, level)
    dice = view.get("dice")
    claims = [a for a in actions if a.name == "claim" and a.args]
    if not dice or not claims:
        return None
    r = ctx.pos[value_of(dice)]
    claim = view.get("claim")
    p = ctx.pos[int(claim)] if claim is not None else -1
    stage = p + 1
    q = ctx.claim_values(r, stage)
    cs = [ctx.pos[int(a.args[0])] for a in claims]
    edge = margin(float(ctx.model.answered.get(ctx.next_seat, np.zeros(N)).sum()))
    return _pick(rng, claims, [q[c] for c in cs], [ctx.sol.claim[stage, r, c] for c in cs], level, edge)


def respond(view: MiaView, level: str, rng: Any, actions: list[Action]) -> Action | None:
    ctx = Context(view, level)
    claim, claimant = view.get("claim"), view.get("claimant")
    if claim is None or claimant is None:
        return None
    c = ctx.pos[int(claim)]
    p = previous_claim(ctx.log, ctx.round, ctx.order) if last_claim(ctx.log, ctx.round, ctx.order) == c else -1
    stage = p + 1
    t = ctx.model.truth_rate(int(claimant), c, p, ctx.sol)
    eq = float(ctx.sol.challenge[stage, c])
    if c == MIA_POS:
        options = [CHALLENGE_MIA, GIVE_UP]
        q = [-t * ctx.penalty + (1 - t) * ctx.g, -1.0]
    else:
        options = [CHALLENGE, ROLL]
        q = [-t + (1 - t) * ctx.g, ctx.believe_value(c)]
    present = [i for i, a in enumerate(options) if a in actions]
    if len(present) < 2:
        return None
    edge = margin(len(ctx.model.history.get(int(claimant), ())) - 1)  # the claim being answered is no evidence yet
    return _pick(rng, options, q, [eq, 1 - eq], level, edge)
