"""Pig's fast exact solver: a few numpy operations per layer and cell instead of ~40 per state.

The equations are :mod:`bot.ai.pig_solver`'s (``q[s, i] = P(i, s - i, 0)``, score-sum layers ``s`` solved
from the top, the bust cycle ``(i, j, 0) <-> (j, i, 0)`` solved exactly per pair, policy iteration per
layer). What changes is how a cell ``(i, j)``'s turn totals ``k`` are handled. With ``b`` the bust value and
``H(k) = 1 - q[s + k, j]`` the value of holding (``q`` is 0 past the target, so a winning total holds at 1):

* *Rolling once more and then holding* beats holding now exactly when
  ``D(k) = p_bust b + sum_g p_g H(k + g) - H(k) > 0``, i.e. when ``G[s + k, j] > 1 - b`` with
  ``G[r, j] = (q[r, j] - sum_g p_g q[r + g, j]) / p_bust``: a number per (row, column), shared by every layer.
  ``D(k) > 0`` proves rolling optimal at ``k`` (rolling on is worth at least rolling once, since every value is
  at least its hold value), and where every successor ``k + g`` holds, ``D(k) <= 0`` proves holding optimal.
* So below the last :data:`ZONE` points before the target, a cell tries one policy: roll below a bound, hold
  from the bound up to the zone. The bound is the zone itself when the zone's lowest turn totals roll (or
  ``D > 0`` right up to it), else one above the highest ``D > 0`` turn total (holding there is then proved
  right). Turn totals with ``D > 0`` below the bound are proved right; the few with ``D <= 0`` ("dips") are
  checked with their exact value. A rolling stretch is a linear recurrence with constant coefficients, solved
  once for every distance (``_closed_form``): ``P(i, j, 0)`` is a fixed combination of the bust value and the
  values at ``bound .. bound + gmax - 1``, so the cell costs one comparison per turn total (finding the
  bound, in one numpy pass per layer) and O(1) more.
* The zone (where "roll for the goal" starts again) is swept turn total by turn total, all cells of a layer at
  once. Cells where the tried policy is wrong are walked down from the zone (:meth:`_Layer.walk`): a turn
  total is decided on its own only where D cannot decide it; runs of ``D > 0`` and runs of ``D <= 0`` under
  ``gmax`` holds are jumped. Layers with many such cells (at target 1,000, where the opponent needs only a
  few points and values tie to the last bit) sweep them in full instead.

Policy iteration per layer starts from the layer above extrapolated, and stops as soon as every decision is
consistent with the solved bust values (to :data:`TIE`, as the wavefront solver); a later step re-evaluates
only the cells whose decisions are not (:meth:`_Layer.inconsistent`). The values are exact for the decisions
taken and each decision is greedy at the layer's own values, as in the other solvers; the tests check the bits
against them. Variants with a forced re-roll or a score wipe keep the wavefront solver (:func:`supports`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from operator import mul
from typing import Any

#: Turn totals within this many points of the target are swept one by one (the end race lives there).
ZONE = 40
TIE = 1e-12  # a decision this close to its threshold (in bust value) is optimal either way, as in pig_solver
MAX_ITERATIONS = 64  # policy iteration per layer; past this the layer settles by value iteration
WALK_MAX = 12  # with more cells to walk in a layer, one numpy sweep over all their turn totals is cheaper


@dataclass
class ColumnSolve:
    """``q[s, i] = P(i, s - i, 0)`` (rows ``0 .. 2t - 2``), the packed table, and counters."""

    q: Any
    bits: bytes
    margin: float
    iterations: int = 0
    stats: dict[str, int] = field(default_factory=dict)


def supports(kern: Any) -> bool:
    """True for variants without a forced re-roll or a score wipe (one die, Big Pig, ``bust``)."""
    return not kern.forced and not kern.p_wipe


def _closed_form(np: Any, gains: list[tuple[int, float]], p_bust: float, gmax: int, t: int) -> Any:
    """``U[d]``: the value ``d`` turn totals below a boundary ``h`` when every state in between rolls, as
    coefficients of ``(b, V(h), V(h + 1), ..., V(h + gmax - 1))``."""
    u = np.zeros((t + gmax + 1, gmax + 1))  # row d + gmax - 1 for d = 1 - gmax .. t + 1
    for m in range(gmax):
        u[gmax - 1 - m, 1 + m] = 1.0  # d = -m: the boundary value V(h + m)
    for d in range(1, t + 2):
        row = u[d + gmax - 1]
        row[0] = p_bust
        for g, p in gains:
            row += p * u[d - g + gmax - 1]
    return u[gmax - 1 :]  # index d = 0 .. t + 1


@dataclass
class _Dips:
    """The cells below the zone being checked (global indices), their bust values, bounds and windows."""

    cells: Any
    b: Any
    bound: Any
    win_a: Any
    win_c: Any
    bad: Any


class _Layer:
    """One layer: its cells' values and decisions, evaluated (all or some cells) at given bust values."""

    def __init__(self, np: Any, solver: _Columns, s: int) -> None:
        t = solver.t
        self.np, self.sv, self.s = np, solver, s
        self.lo, self.hi = max(0, s - t + 1), min(s, t - 1)
        self.n = self.hi - self.lo + 1
        self.i = np.arange(self.lo, self.hi + 1)
        self.j = s - self.i
        self.left = t - self.i  # turn totals 0 .. left - 1 are decisions (k = 0 always rolls)
        self.pz = int(np.count_nonzero(self.left > solver.zone))  # cells with a stretch below the zone
        self.rows = min(solver.zone, int(self.left[0]))  # zone steps for the cell with the most
        r = np.arange(1, self.rows + 1)
        # hold values in the zone, by points still needed r = left - k (row T + j - r of column j)
        self.hz = 1.0 - solver.q[np.maximum(t + self.j[None, :] - r[:, None], 0), self.j[None, :]]
        self.first = r[:, None] == self.left[None, :]  # k = 0: no hold
        n = self.n
        self.a0, self.c0 = np.empty(n), np.empty(n)  # P(i, j, 0) = a0 + c0 b for the decisions taken
        self.b_lo, self.b_hi = np.full(n, -np.inf), np.full(n, np.inf)
        self.zroll = np.zeros((self.rows, n), dtype=bool)  # zone decisions by points still needed (r - 1)
        self.bound = np.zeros(self.pz, dtype=np.int64)  # below the zone: roll for k < bound (-1: walked)
        self.count = np.zeros(self.pz, dtype=np.int64)  # how many D > 0 below the zone, per cell
        self.wide: dict[int, Any] = {}  # walked cells: their decisions for k < kz
        self.swept = np.zeros(self.pz, dtype=bool)  # walked by a full sweep: D played no part
        if self.pz:
            ja, jb = int(self.j[self.pz - 1]), int(self.j[0])
            # G over the turn totals below the zone, columns in cell order (j descending)
            self.block = solver.g[s + 1 : t + jb - solver.zone, ja : jb + 1][:, ::-1]
            self.kz = self.left[: self.pz] - solver.zone  # the zone starts at this turn total

    def sweep(self, b: Any, cells: Any, rows: int) -> tuple[Any, Any, Any, float]:
        """Backward induction over the ``rows`` turn totals nearest the target for ``cells`` (an index
        array): values as ``a + c b`` and the decisions, by points still needed ``r`` (row ``r - 1``)."""
        np, sv = self.np, self.sv
        g, gmin = sv.gmax, sv.gmin
        left = self.left[cells]
        n = len(cells)
        v = np.empty((rows + g, 2, n))
        v[:g, 0], v[:g, 1] = 1.0, 0.0  # r <= 0: won
        roll = np.empty((rows, n), dtype=bool)
        diff = np.empty((rows, n))
        acs = np.empty((rows, 2 * n))  # the roll value's a and c per step
        r_all = np.arange(1, rows + 1)[:, None]
        if rows > self.rows:
            jj = self.j[cells]
            hz = 1.0 - sv.q[np.maximum(sv.t + jj[None, :] - r_all, 0), jj[None, :]]
            first = r_all == left[None, :]
        else:
            hz, first = self.hz[:rows, cells], self.first[:rows, cells]
        held = np.zeros((rows, 2, n))  # the hold value as (a, c); -inf at k = 0 forces the roll
        held[:, 0] = np.where(first, -np.inf, hz)
        hzf = held[:, 0]
        bc = b[cells]
        p_rev, width, pb = sv.p_rev, g - gmin + 1, sv.p_bust
        for r in range(rows):
            row = r + g
            ac = acs[r]
            np.matmul(p_rev, v[row - g : row - gmin + 1].reshape(width, 2 * n), out=ac)
            c = ac[n:]
            c += pb
            d = diff[r]
            np.multiply(c, bc, out=d)
            d += ac[:n]
            d -= hzf[r]
            rr = np.greater(d, 0, out=roll[r])
            v[row] = np.where(rr, ac.reshape(2, n), held[r])
        cs = acs[:, n:]
        live = r_all < left[None, :]
        margin = float(np.abs(diff[live]).min()) if live.any() else np.inf
        theta = bc[None, :] - diff / cs
        self.b_lo[cells] = np.maximum(self.b_lo[cells], np.max(theta, axis=0, where=live & roll, initial=-np.inf))
        self.b_hi[cells] = np.minimum(self.b_hi[cells], np.min(theta, axis=0, where=live & ~roll, initial=np.inf))
        return v[g - 1 :, 0], v[g - 1 :, 1], roll, margin

    def values(self, b: Any, cells: Any) -> float:
        """Evaluate ``cells`` (sorted indices) at bust values ``b``: ``P(i, j, 0) = a0 + c0 b`` per cell and the
        decisions behind it go into this layer's arrays (other cells keep theirs). Returns the margin met."""
        np, sv = self.np, self.sv
        g, z = sv.gmax, sv.zone
        self.b_lo[cells] = -np.inf  # the decisions taken stay the same for bust values in (b_lo, b_hi]
        self.b_hi[cells] = np.inf
        va, vc, zroll, margin = self.sweep(b, cells, self.rows)
        self.zroll[:, cells] = zroll
        loc = np.arange(len(cells))
        left = self.left[cells]
        near = left <= z  # the zone reaches k = 0
        self.a0[cells[near]] = va[left[near], loc[near]]
        self.c0[cells[near]] = vc[left[near], loc[near]]
        for cell in cells.tolist():
            self.wide.pop(cell, None)
        nb = int(np.count_nonzero(cells < self.pz))  # cells with a stretch below the zone come first
        if not nb:
            return margin
        below = cells[:nb]
        self.swept[below] = False
        block = self.block if nb == self.pz else self.block[:, below]
        over = block > (1.0 - b[below])[None, :]  # D(k) > 0: rolling once beats holding
        count = over.sum(axis=0)
        self.count[below] = count
        rows = over.shape[0]
        last = np.where(count > 0, rows - over[::-1].argmax(axis=0), 0) if rows else count
        kz = self.kz[below]
        quiet = ~zroll[z - g : z, :nb].any(axis=0)  # the zone's lowest turn totals all hold
        top = (last == kz - 1) | ~quiet
        # the policy tried: roll below bound, hold from bound up to the zone (D <= 0 there, and with
        # a quiet zone every successor holds, so holding is right); bound = kz: roll up to the zone
        bound = np.where(top, kz, last + 1)
        m = np.arange(g)[:, None]
        win_a = np.where(
            top[None, :], va[z - m, loc[None, :nb]], 1.0 - sv.q[self.s + bound[None, :] + m, self.j[below]]
        )
        win_c = np.where(top[None, :], vc[z - m, loc[None, :nb]], 0.0)
        coef = sv.u[bound]  # (nb, 1 + gmax)
        self.a0[below] = np.einsum("pm,mp->p", coef[:, 1:], win_a)
        self.c0[below] = coef[:, 0] + np.einsum("pm,mp->p", coef[:, 1:], win_c)
        # below bound, D > 0 proves rolling right; where D <= 0 (a dip) check rolling at its value
        check = np.nonzero(bound - 1 > count)[0]
        bad = np.zeros(nb, dtype=bool)
        dips = _Dips(below, b[below], bound, win_a, win_c, bad)
        if len(check):  # the dips just below bound first: where the tried policy fails, it mostly fails there
            w = np.arange(4 * g)[:, None]
            ks = bound[check][None, :] - 1 - w
            near_dips = (ks >= 1) & ~over[np.maximum(ks, 1) - 1, check[None, :]]
            wi, ci = np.nonzero(near_dips)
            margin = self._dips(dips, check[ci], ks[wi, ci], margin)
            rest = check[~bad[check] & (bound[check] - 1 - 4 * g >= 1)]
            if len(rest):
                far = ~over[:, rest]
                far &= np.arange(1, rows + 1)[:, None] < (bound[rest] - 4 * g)[None, :]
                rk, ci = np.nonzero(far)
                margin = self._dips(dips, rest[ci], rk + 1, margin)
        wide = np.nonzero(bad)[0]  # local indices
        self.bound[below] = np.where(bad, -1, bound)
        if len(wide):  # the tried policy is wrong somewhere: walk these cells down from the zone
            gl = below[wide]
            if len(wide) <= WALK_MAX:
                a, c, rolls, wm = self.walk(b, gl, over[:, wide], va[:, wide], vc[:, wide], zroll[:, wide])
            else:
                a, c, rolls, wm = self.sweep_below(b, gl)
                self.swept[gl] = True
            self.a0[gl], self.c0[gl] = a, c
            for n, cell in enumerate(gl.tolist()):
                self.wide[cell] = rolls[n, : self.kz[cell]].copy()
            margin = min(margin, wm)
        return margin

    def inconsistent(self, b: Any) -> Any:
        """The cells whose decisions might differ at bust values ``b`` (to :data:`TIE`; the D comparisons
        exactly, except for cells swept in full, which did not use them): the ones to evaluate again."""
        np = self.np
        bad = ~((self.b_lo - TIE < b) & (b <= self.b_hi + TIE))
        if self.pz:
            moved = (self.block > (1.0 - b[: self.pz])[None, :]).sum(axis=0) != self.count
            bad[: self.pz] |= moved & ~self.swept
        return np.nonzero(bad)[0]

    def sweep_below(self, b: Any, cells: Any) -> tuple[Any, Any, Any, float]:
        """:meth:`walk`'s results from a full sweep of ``cells`` (cheaper when there are many of them)."""
        np = self.np
        left = self.left[cells]
        va, vc, roll, margin = self.sweep(b, cells, int(left.max()))
        col = np.arange(len(cells))
        kz = left - self.sv.zone
        rows = np.maximum(left[:, None] - 1 - np.arange(int(kz.max()))[None, :], 0)  # k = left - r
        return va[left, col], vc[left, col], roll[rows, col[:, None]], margin

    def _dips(self, d: _Dips, loc: Any, k: Any, margin: float) -> float:
        """Check rolling at dips ``(loc, k)`` below the bound (values in closed form); mark cells where it is wrong."""
        if not len(loc):
            return margin
        np, sv = self.np, self.sv
        cf = sv.u[d.bound[loc] - k]
        ra = np.einsum("dm,md->d", cf[:, 1:], d.win_a[:, loc])
        rc = cf[:, 0] + np.einsum("dm,md->d", cf[:, 1:], d.win_c[:, loc])
        gl = d.cells[loc]
        gap = ra + rc * d.b[loc] - (1.0 - sv.q[self.s + k, self.j[gl]])
        d.bad[loc[gap <= 0]] = True
        self._bounds(gl, d.b[loc] - gap / rc, gap > 0)
        return min(margin, float(np.abs(gap).min()))

    def walk(self, b: Any, cells: Any, over: Any, va: Any, vc: Any, zroll: Any) -> tuple[Any, Any, Any, float]:
        """Exact decisions below the zone for ``cells``, walking down from the zone. A turn total is decided
        on its own only where D cannot: D <= 0 with a roll among its successors. Runs of D > 0 roll (values in
        closed form); runs of D <= 0 under ``gmax`` holds hold. Once the D > 0 turn totals left below form a
        prefix, the rest follows at once: roll down to k = 0, or hold down to the prefix and roll from there.
        Returns ``a``, ``c`` per cell, the decisions for ``k < kz`` (one row per cell) and the margin.

        Plain Python, one cell at a time: there are few such cells per layer and each walk is short, so numpy
        calls would cost more than they save."""
        np, sv = self.np, self.sv
        g, z = sv.gmax, sv.zone
        n = len(cells)
        sub = over  # row k - 1
        kk = np.arange(1, sub.shape[0] + 1)[:, None]
        top = np.maximum.accumulate(np.where(sub, kk, 0), axis=0)  # highest D > 0 turn total <= k
        dip = np.maximum.accumulate(np.where(sub, 0, kk), axis=0)  # highest D <= 0 turn total <= k
        clean = sub.cumsum(axis=0) == top  # the D > 0 turn totals <= k are a prefix 1 .. top
        mm = np.arange(g)
        wa = va[z - mm].T.tolist()  # per cell: V(kz + m)
        wc = vc[z - mm].T.tolist()
        held = ~zroll[z - 1 - mm]
        streaks = np.where(held.all(axis=0), g, held.argmin(axis=0)).tolist()  # holds just above kz - 1
        kzs = self.kz[cells].tolist()
        rolls = np.zeros((n, max(kzs)), dtype=bool)
        a0, c0 = np.empty(n), np.empty(n)
        margin = np.inf
        for col, cell in enumerate(cells.tolist()):
            kz = kzs[col]
            j = int(self.j[cell])
            hold = (1.0 - sv.q[self.s : self.s + kz + g + 1, j]).tolist()  # H(k), 1 past the target
            a, c, bounds, m = self._walk_cell(
                float(b[cell]),
                kz,
                hold,
                sub[: kz - 1, col].tolist(),
                top[: kz - 1, col].tolist(),
                dip[: kz - 1, col].tolist(),
                clean[: kz - 1, col].tolist(),
                wa[col],
                wc[col],
                streaks[col],
                rolls[col],
            )
            a0[col], c0[col] = a, c
            margin = min(margin, m)
            lo, hi = bounds
            self.b_lo[cell] = max(self.b_lo[cell], lo)
            self.b_hi[cell] = min(self.b_hi[cell], hi)
        return a0, c0, rolls, margin

    def _walk_cell(
        self,
        b: float,
        kz: int,
        hold: list[float],
        over: list[bool],
        top: list[int],
        dip: list[int],
        clean: list[bool],
        wa: list[float],
        wc: list[float],
        streak: int,
        rolls: Any,
    ) -> tuple[float, float, tuple[float, float], float]:
        """One cell of :meth:`walk` (lists indexed by turn total k - 1; ``hold[k]`` is H(k))."""
        sv = self.sv
        g, u, pb = sv.gmax, sv.u_list, sv.p_bust
        probs = sv.p_window
        lo, hi, margin = -math.inf, math.inf, math.inf
        pos = kz - 1
        while True:
            k = pos
            if k == 0 or (over[k - 1] and clean[k - 1]):  # D > 0 all the way down: roll to k = 0
                row = u[k + 1]
                a = sum(w * x for w, x in zip(row[1:], wa, strict=True))
                c = row[0] + sum(w * x for w, x in zip(row[1:], wc, strict=True))
                rolls[: k + 1] = True
                return a, c, (lo, hi), margin
            calm = streak >= g
            if calm and clean[k - 1]:  # hold down to the D > 0 prefix, roll below it
                bd = top[k - 1] + 1
                row = u[bd]
                a = sum(w * hold[bd + m] for m, w in enumerate(row[1:]))
                rolls[:bd] = True
                return a, row[0], (lo, hi), margin
            if over[k - 1]:  # a run of D > 0: roll down to the next D <= 0 turn total e
                e = dip[k - 1]
                na, nc = [], []
                for x in range(e + 1, e + 1 + g):
                    if x <= k:
                        row = u[k + 1 - x]
                        na.append(sum(w * y for w, y in zip(row[1:], wa, strict=True)))
                        nc.append(row[0] + sum(w * y for w, y in zip(row[1:], wc, strict=True)))
                    else:
                        na.append(wa[x - k - 1])
                        nc.append(wc[x - k - 1])
                wa, wc = na, nc
                rolls[e + 1 : k + 1] = True
                pos, streak = e, 0
                continue
            if calm:  # a run of D <= 0 under holds: hold down to the next D > 0 turn total
                t = top[k - 1]
                wa = hold[t + 1 : t + 1 + g]
                wc = [0.0] * g
                pos = t
                continue
            ra = sum(map(mul, probs, wa))
            rc = pb + sum(map(mul, probs, wc))
            diff = ra + rc * b - hold[k]
            margin = min(margin, abs(diff))
            theta = b - diff / rc
            if diff > 0:
                lo = max(lo, theta)
                rolls[k] = True
                wa, wc = [ra, *wa[:-1]], [rc, *wc[:-1]]
                streak = 0
            else:
                hi = min(hi, theta)
                wa, wc = [hold[k], *wa[:-1]], [0.0, *wc[:-1]]
                streak += 1
            pos = k - 1

    def _bounds(self, cells: Any, theta: Any, roll: Any) -> None:
        """Rolling stays right while the bust value is above ``theta``, holding while it is at most ``theta``."""
        self.np.maximum.at(self.b_lo, cells[roll], theta[roll])
        self.np.minimum.at(self.b_hi, cells[~roll], theta[~roll])


class _Columns:
    def __init__(self, np: Any, rules: Any, kern: Any, zone: int) -> None:
        t = rules.target
        self.np, self.t = np, t
        self.gains = [(kern.gmin + n, float(p)) for n, p in enumerate(kern.p_free) if p]
        self.gmax, self.gmin = kern.gmax, kern.gmin
        self.p_rev = np.ascontiguousarray(kern.p_free[::-1])  # by gain, largest first
        self.p_bust = float(kern.p_bust)
        self.zone = max(zone, self.gmax)
        big = 2 * t - 2
        self.q = np.zeros((big + self.gmax + 2, t))  # 0 past the target: the mover there has lost
        self.g = np.full((big + 2, t), -np.inf)  # G below the zone only (the zone is swept)
        self.u = _closed_form(np, self.gains, self.p_bust, self.gmax, t)
        self.u_list = self.u.tolist()
        self.p_window = [0.0] * self.gmax  # P(gain m + 1), to weigh a window V(k + 1 .. k + gmax)
        for gain, p in self.gains:
            self.p_window[gain - 1] = p

    def row_g(self, s: int) -> None:
        """G's row ``s`` (needs q's rows ``s .. s + gmax``), for the columns whose zone starts above it."""
        t = self.t
        ja = max(0, s - t + self.zone + 1)
        jb = min(s, t - 1) + 1
        if ja >= jb:
            return
        acc = self.q[s, ja:jb].copy()
        for gain, p in self.gains:
            acc -= p * self.q[s + gain, ja:jb]
        self.g[s, ja:jb] = acc / self.p_bust


def solve_columns(np: Any, rules: Any, kern: Any, zone: int = ZONE) -> ColumnSolve:
    """Solve a variant that :func:`supports` accepts; the table bits come out in table order."""
    t = rules.target
    sv = _Columns(np, rules, kern, zone)
    z = sv.zone
    q = sv.q
    h_low = np.zeros((t, t), dtype=np.int32)  # below the zone: roll for k < h_low
    zone_bits = np.zeros((t, t, z), dtype=bool)  # zone decisions by points still needed (r - 1)
    wide_bits: dict[tuple[int, int], Any] = {}
    margin = np.inf
    iterations = wide_cells = settled = 0
    for s in range(2 * t - 2, -1, -1):
        layer = _Layer(np, sv, s)
        i, n = layer.i, layer.n
        x = _guess(np, q, s, i, t)
        cells = np.arange(n)
        for step in range(MAX_ITERATIONS + 10_000):
            iterations += 1
            b = 1.0 - x[::-1]
            margin = min(margin, layer.values(b, cells))
            a0, c0 = layer.a0, layer.c0
            if step >= MAX_ITERATIONS:  # value iteration (each step is also greedy)
                new = a0 + c0 * b
                done = float(np.abs(new - x).max()) <= 1e-15
                x = new
                if done:
                    settled += 1
                    break
                cells = np.arange(n)
                continue
            ar, cr = a0[::-1], c0[::-1]
            new = (a0 + c0 - c0 * (ar + cr)) / (1.0 - c0 * cr)
            still = step > 0 and float(np.abs(new - x).max()) <= 1e-15  # only ties flip
            x = new
            if still:
                break
            # policy iteration, improving only the cells whose decisions are not greedy at the new values
            cells = layer.inconsistent(1.0 - x[::-1])
            if not len(cells):
                break
        q[s, i] = x
        zone_bits[i, layer.j, : layer.rows] = layer.zroll.T
        if layer.pz:
            h_low[i[: layer.pz], layer.j[: layer.pz]] = layer.bound
        for p, roll in layer.wide.items():
            wide_cells += 1
            wide_bits[(int(i[p]), int(layer.j[p]))] = roll
        sv.row_g(s)
    bits = _pack(np, t, z, h_low, zone_bits, wide_bits)
    p_stats = {"wide_cells": wide_cells, "layers_settled": settled, "layers": 2 * t - 1}
    return ColumnSolve(q[: 2 * t - 1], bits, margin, iterations, p_stats)


def _guess(np: Any, q: Any, s: int, i: Any, t: int) -> Any:
    """A first guess at layer ``s``: both scores one and two points higher, extrapolated linearly."""
    one = q[s + 2, np.minimum(i + 1, t - 1)]
    two = q[s + 4, np.minimum(i + 2, t - 1)]
    guess = np.where(two > 0, 2.0 * one - two, one)
    return np.where(one > 0, np.clip(guess, 0.0, 1.0), 0.5)


def _pack(np: Any, t: int, z: int, h_low: Any, zone_bits: Any, wide: dict[tuple[int, int], Any]) -> bytes:
    """The flat bitmap (i, then j, then k; see pig_tables), one mover score at a time."""
    out, carry = [], np.zeros(0, dtype=bool)
    ks = np.arange(t)
    by_mover: dict[int, list[tuple[int, Any]]] = {}
    for (wi, wj), roll in wide.items():
        by_mover.setdefault(wi, []).append((wj, roll))
    for i in range(t):
        left = t - i
        block = np.empty((t, left), dtype=bool)
        below = max(0, left - z)
        np.less(ks[None, :below], h_low[i, :, None], out=block[:, :below])
        block[:, below:] = zone_bits[i, :, left - below - 1 :: -1] if left - below else False
        for wj, roll in by_mover.get(i, ()):
            block[wj, :below] = roll
        run = np.concatenate((carry, block.ravel()))
        cut = len(run) // 8 * 8
        out.append(np.packbits(run[:cut], bitorder="little").tobytes())
        carry = run[cut:]
    if len(carry):
        out.append(np.packbits(carry, bitorder="little").tobytes())
    return b"".join(out)
