"""Free-shape Tantrix puzzles with several goals or line goals, by walking one goal's line
(part of the `search` backend; single loops through every tile go to the loop search).

The walk follows the goal colour F carried by the most tiles: every tile carrying F lies on
F's line (or loop), so the walk visits them one by one. It starts at the origin with one end of
the first tile's F arc facing side 3 (SW), which removes translations and rotations; each
later cell is the one the previous tile's F arc points at, and a candidate is a remaining tile
with an end of its F arc at the entry side, which fixes its rotation. A loop starts at the
pinned tile and must close on it; a line ends where its last exit faces an empty cell. Tiles
without F ("extras") are placed last, next to the cluster, anywhere the colours fit.

Pruning after each placement:
- the golden rule against every placed neighbour; the walk moves on to an empty cell;
- a loop's walk must be able to get back (hex distance to the cell beside the start);
- every other goal colour g: its links may not close a cycle (a line) or only the final one
  (a loop); its fragments must be joinable by the g tiles left (each joins at most two); and
  its open ends that nothing can reach any more stay open, at most 2 for a line, 0 for a loop.
  An open end is final when three or more ends face its cell (no tile takes three) or when
  the walk can no longer reach the cell and no extra tile carrying g is left to fill it.
At the end no cell may be enclosed (a flood fill from the border of the grid).

The state lives in numpy arrays so a compiled core (`_linewalk.c`) and this Python loop run
the same machine; `step(budget)` stops after `budget` placements and resumes where it left.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...backends.search import Searcher
from ...core import hexgrid as hx
from ...core.errors import InputError
from ...core.result import Solution
from . import catalogue as cat
from .instance import TantrixInstance
from .scan_tables import candidate_order, side_masks

try:
    from . import _linewalk
except ImportError:  # no compiler at install time: the Python loop below takes over
    _linewalk = None

OPEN, SCAN, RESUME = 0, 1, 2
MAXG = 3  # other goals besides the followed one (four colours at most)
# state vector (int64): level, mode, deepest level
K, MODE, MAXD = range(3)
# static scalars (int32): tiles, walk tiles, origin, cell beside the start, walk candidates per
# entry side, extra placements offset, other goals, followed goal is a loop, grid side
(C_N, C_NW, C_ORIGIN, C_BESIDE, C_CANDS, C_XOFF, C_NG, C_FLOOP, C_SIDE) = range(9)


def followed_goal(inst: TantrixInstance) -> int:
    """Index of the goal to walk, or an InputError for puzzles the walk does not handle."""
    reason = None
    if inst.shape != "free":
        reason = f"shape {inst.shape} is not free"
    elif not inst.goals:
        reason = "no goal"
    elif any(g.colour == "any" for g in inst.goals):
        reason = "a goal of colour any"
    elif len({g.colour for g in inst.goals}) < len(inst.goals):
        reason = "two goals of one colour"
    if reason:
        raise InputError(reason)
    counts = inst.counts()

    def carried(gi: int) -> int:
        return sum(counts[t] for t in inst.types() if inst.goals[gi].colour in cat.colours(t))

    # most tiles first; a loop before a line, since closing it is a strong test
    return max(range(len(inst.goals)), key=lambda gi: (carried(gi), inst.goals[gi].kind == "loop"))


def _code(t: int, rot: int) -> int:
    e = cat.edges(t, rot)
    return sum(cat.COLOURS.index(e[d]) << (3 * d) for d in range(6))


@dataclass
class Walk:
    """The static tables of one walk."""

    inst: TantrixInstance
    types: list[int]
    side: int
    static: tuple[np.ndarray, ...]  # in _linewalk.c's order
    cfg: np.ndarray
    n: int
    prot: np.ndarray  # placement -> rotation
    ptype: np.ndarray  # placement -> type index

    @classmethod
    def build(cls, inst: TantrixInstance) -> Walk:
        fi = followed_goal(inst)
        goals = inst.goals
        fcol = goals[fi].colour
        others = [g for gi, g in enumerate(goals) if gi != fi]
        n, types, counts = inst.n, inst.types(), inst.counts()
        nt = len(types)
        walkers = [ti for ti, t in enumerate(types) if fcol in cat.colours(t)]
        nw = sum(counts[types[ti]] for ti in walkers)
        off = n + 3  # a walk of n tiles and its neighbours stay inside
        side = 2 * off + 1
        dirs = np.array([dr * side + dq for dq, dr in hx.DIRECTIONS], np.int32)
        origin = off * side + off
        xoff = 12 * nt
        npl = xoff + 6 * nt
        ptype, pcode, pexit = (np.full(npl, -1, np.int32) for _ in range(3))
        prot = np.zeros(npl, np.int32)
        gmask = np.zeros(npl * MAXG, np.int32)

        def fill(o: int, ti: int, rot: int, exit_: int) -> None:
            t = types[ti]
            ptype[o], pcode[o], prot[o], pexit[o] = ti, _code(t, rot), rot, exit_
            e = cat.edges(t, rot)
            for g, goal in enumerate(others):
                gmask[o * MAXG + g] = sum(1 << d for d in range(6) if e[d] == goal.colour)

        for ti in walkers:
            ends = cat.arc(types[ti], 0, fcol)
            for s in range(6):
                for e in range(2):
                    rot = (s - ends[e]) % 6
                    fill((ti * 6 + s) * 2 + e, ti, rot, (ends[1 - e] + rot) % 6)
        for ti in range(nt):
            if ti not in walkers:
                for rot in range(6):
                    fill(xoff + ti * 6 + rot, ti, rot, -1)
        # extra tiles (off the walk) carrying each other goal colour
        xcarry = np.array([[int(g.colour in cat.colours(t) and ti not in walkers) for g in others]
                           + [0] * (MAXG - len(others)) for ti, t in enumerate(types)],
                          np.int32).ravel()
        gloop = np.array([int(g.kind == "loop") for g in others] + [0] * (MAXG - len(others)),
                         np.int32)
        gtotal = np.array([sum(counts[t] for t in types if g.colour in cat.colours(t))
                           for g in others] + [0] * (MAXG - len(others)), np.int32)
        floop = goals[fi].kind == "loop"
        first = np.zeros(2 * nt, np.int32)  # level-0 candidates
        if floop:  # a loop starts at the pinned tile, arc end 0 facing side 3 (one direction)
            pin = max(ti for ti in walkers if counts[types[ti]] == 1) if any(
                counts[types[ti]] == 1 for ti in walkers) else walkers[0]
            first[:] = -1
            first[0] = (pin * 6 + 3) * 2
        else:
            first[:] = [(ti * 6 + 3) * 2 + e if ti in walkers else -1
                        for ti in range(nt) for e in range(2)]
        qs, rs = np.meshgrid(np.arange(side) - off, np.arange(side) - off)
        qc, rc = qs.ravel().astype(np.int32), rs.ravel().astype(np.int32)
        beside = origin + int(dirs[3])
        cfg = np.array([n, nw, origin, beside, 2 * nt, xoff, len(others), int(floop), side],
                       np.int32)
        static = (dirs, qc, rc, ptype, pcode, pexit, gmask, xcarry, gloop, gtotal, first,
                  np.array(side_masks(), np.int32))
        return cls(inst, types, side, static, cfg, n, prot, ptype)

    def order(self, seed: int) -> np.ndarray:
        """Walk candidates per (level, entry side); seed 0 keeps the natural order."""
        return candidate_order(self.n, int(self.cfg[C_CANDS]), seed, natural_at_zero=True)


class WalkCore(Searcher):
    """The mutable state of one depth-first walk, advanced by `step`: the search backend's
    Searcher for a line walk."""

    parallel = False

    def __init__(self, walk: Walk, seed: int):
        self.walk = walk
        g = walk.side ** 2
        n = walk.n
        self.ord = walk.order(seed)
        # placement+1 per cell, codes facing a cell, occupied-sides mask, flood stamps/queue
        self.grid_state = [np.zeros(g, np.int32) for _ in range(5)]
        self.cnt = np.array([walk.inst.counts()[t] for t in walk.types], np.int32)
        # cell, placement, candidate, frontier size per level; frontier cells
        self.levels = [np.zeros(n, np.int32) for _ in range(4)]
        self.front = np.zeros(n * 6 * n, np.int32)
        self.state = np.zeros(3, np.int64)

    @property
    def max_depth(self) -> int:
        return int(self.state[MAXD])

    def arrays(self) -> tuple:
        return (*self.walk.static, self.ord, self.walk.cfg, *self.grid_state, self.cnt,
                *self.levels, self.front, self.state)

    def solution(self) -> Solution:
        w = self.walk
        cells, places = self.levels[0], self.levels[1]
        out = {}
        for k in range(w.n):
            c, o = int(cells[k]), int(places[k])
            cell = (c % w.side - (w.side // 2), c // w.side - (w.side // 2))
            out[cell] = (w.types[int(w.ptype[o])], int(w.prot[o]))
        return out

    def step(self, budget: int) -> tuple[int, int]:
        machine = PyWalk(self)
        out = machine.step(budget)
        machine.flush()
        return out


class CWalkCore(WalkCore):
    parallel = True

    def step(self, budget: int) -> tuple[int, int]:
        return _linewalk.step(self.arrays(), budget)


class PyWalk:
    """Reference implementation of `_linewalk.c`: its state machine on Python lists (the
    fallback)."""

    def __init__(self, core: WalkCore):
        self.core = core
        (self.dirs, self.qc, self.rc, self.ptype, self.pcode, self.pexit, self.gmask,
         self.xcarry, self.gloop, self.gtotal, self.first, self.exp, self.ord,
         cfg) = (a.tolist() for a in core.arrays()[:14])
        (self.n, self.nw, self.origin, self.beside, self.ncand, self.xoff, self.ng, self.floop,
         self.side) = cfg
        self.occ, self.cv, self.nm, self.vis, self.queue = (a.tolist() for a in core.grid_state)
        self.cnt = core.cnt.tolist()
        self.lv_cell, self.lv_o, self.lv_j, self.lv_nf = (a.tolist() for a in core.levels)
        self.front = core.front.tolist()
        self.k, self.mode, self.maxd = core.state.tolist()
        self.ntypes = len(self.cnt)

    def flush(self) -> None:
        c = self.core
        for arr, lst in zip(c.grid_state, (self.occ, self.cv, self.nm, self.vis, self.queue),
                            strict=True):
            arr[:] = lst
        c.cnt[:] = self.cnt
        for arr, lst in zip(c.levels, (self.lv_cell, self.lv_o, self.lv_j, self.lv_nf),
                            strict=True):
            arr[:] = lst
        c.front[:] = self.front
        c.state[:] = [self.k, self.mode, self.maxd]

    def apply(self, c: int, o: int) -> None:
        self.cnt[self.ptype[o]] -= 1
        self.occ[c] = o + 1
        code = self.pcode[o]
        for d in range(6):
            nb = c + self.dirs[d]
            od = (d + 3) % 6
            self.cv[nb] |= ((code >> (3 * d)) & 7) << (3 * od)
            self.nm[nb] |= 1 << od

    def undo(self, c: int, o: int) -> None:
        for d in range(6):
            nb = c + self.dirs[d]
            od = (d + 3) % 6
            self.cv[nb] &= ~(7 << (3 * od))
            self.nm[nb] &= ~(1 << od)
        self.occ[c] = 0
        self.cnt[self.ptype[o]] += 1

    def _dist(self, a: int, b: int) -> int:
        dq, dr = self.qc[a] - self.qc[b], self.rc[a] - self.rc[b]
        return (abs(dq) + abs(dr) + abs(dq + dr)) // 2

    def goals_ok(self, placed: int, nxt: int, walk_left: int) -> bool:
        """The other goals can still come true with `placed` tiles down (see the module)."""
        n = self.n
        for g in range(self.ng):
            parent = list(range(placed))
            at: dict[int, int] = {}
            mine = 0
            for i in range(placed):
                o = self.lv_o[i]
                if self.gmask[o * MAXG + g]:
                    at[self.lv_cell[i]] = i
                    mine += 1
            links, cycle = 0, False
            ends: dict[int, int] = {}
            for c, i in at.items():
                m = self.gmask[self.lv_o[i] * MAXG + g]
                for d in range(6):
                    if not m >> d & 1:
                        continue
                    nb = c + self.dirs[d]
                    if self.occ[nb]:
                        if d < 3:  # each link once
                            a, b = i, at[nb]
                            while parent[a] != a:
                                a = parent[a]
                            while parent[b] != b:
                                b = parent[b]
                            if a == b:
                                cycle = True
                            else:
                                parent[a] = b
                                links += 1
                    else:
                        ends[nb] = ends.get(nb, 0) + 1
            total = self.gtotal[g]
            left = total - mine
            loop = self.gloop[g]
            if cycle and not (loop and left == 0):
                return False
            parts = mine - links
            if parts > left + 1:
                return False
            allowed = 0 if loop else 2
            extra_g = sum(self.cnt[t] for t in range(self.ntypes) if self.xcarry[t * MAXG + g])
            strong = weak = 0
            for cell, c in ends.items():
                if c >= 3:
                    strong += c
                elif walk_left == 0 or self._dist(nxt, cell) > walk_left - 1:
                    weak += c
            if strong + max(0, weak - 2 * extra_g) > allowed:
                return False
            if placed == n and (parts != 1 or sum(ends.values()) != allowed
                                or bool(loop) != cycle):
                return False
        return True

    def no_holes(self) -> bool:
        """Every empty cell of the grid reaches its corner."""
        s = self.side
        vis, queue, occ, dirs = self.vis, self.queue, self.occ, self.dirs
        for i in range(s * s):
            vis[i] = 0
        vis[0], queue[0] = 1, 0
        head, tail = 0, 1
        while head < tail:
            x = queue[head]
            head += 1
            q, r = x % s, x // s
            for d in range(6):
                dq, dr = hx.DIRECTIONS[d]
                if 0 <= q + dq < s and 0 <= r + dr < s:
                    y = x + dirs[d]
                    if not vis[y] and not occ[y]:
                        vis[y] = 1
                        queue[tail] = y
                        tail += 1
        return tail == s * s - self.n

    def _frontier(self, k: int) -> None:
        """Empty cells next to the cluster, listed for level k."""
        base, nf = k * 6 * self.n, 0
        seen = set()
        for i in range(k):
            c = self.lv_cell[i]
            for d in range(6):
                nb = c + self.dirs[d]
                if not self.occ[nb] and nb not in seen:
                    seen.add(nb)
                    self.front[base + nf] = nb
                    nf += 1
        self.lv_nf[k] = nf

    def _try(self, k: int) -> bool:
        """Advance level k to its next placement that passes every test."""
        n, nw = self.n, self.nw
        j = self.lv_j[k]
        if k < nw:
            c = self.lv_cell[k]
            ncand = self.ncand
            s = 3 if k == 0 else (self.pexit[self.lv_o[k - 1]] + 3) % 6
            while j < ncand:
                o = self.first[j] if k == 0 else self.ord[(k * 6 + s) * ncand + j]
                j += 1
                if o < 0 or self.cnt[self.ptype[o]] == 0:
                    continue
                if self.pcode[o] & self.exp[self.nm[c]] != self.cv[c]:
                    continue
                nxt = c + self.dirs[self.pexit[o]]
                left = nw - 1 - k
                if left == 0:
                    if self.floop and nxt != self.origin:
                        continue
                    if not self.floop and self.occ[nxt]:
                        continue
                elif self.occ[nxt]:
                    continue
                elif self.floop and (self._dist(nxt, self.beside) > left - 1
                                     or nxt == self.beside and left > 1):
                    continue
                self.apply(c, o)
                self.lv_o[k] = o
                if self.goals_ok(k + 1, nxt, left) and (k + 1 < n or self.no_holes()):
                    self.lv_j[k] = j
                    return True
                self.undo(c, o)
            self.lv_j[k] = j
            return False
        nf = self.lv_nf[k]
        per = 6 * self.ntypes
        while j < nf * per:
            c = self.front[k * 6 * n + j // per]
            ti, rot = divmod(j % per, 6)
            j += 1
            o = self.xoff + ti * 6 + rot
            if self.ptype[o] < 0 or self.cnt[ti] == 0 or self.occ[c]:
                continue
            if self.pcode[o] & self.exp[self.nm[c]] != self.cv[c]:
                continue
            self.apply(c, o)
            self.lv_cell[k], self.lv_o[k] = c, o
            if self.goals_ok(k + 1, -1, 0) and (k + 1 < n or self.no_holes()):
                self.lv_j[k] = j
                return True
            self.undo(c, o)
        self.lv_j[k] = j
        return False

    def step(self, budget: int) -> tuple[int, int]:
        n, nw = self.n, self.nw
        k, mode, nodes = self.k, self.mode, 0
        while True:
            if mode == OPEN:
                if k == 0:
                    self.lv_cell[0] = self.origin
                elif k < nw:
                    self.lv_cell[k] = self.lv_cell[k - 1] + self.dirs[self.pexit[self.lv_o[k - 1]]]
                else:
                    self._frontier(k)
                self.lv_j[k] = 0
            elif mode == RESUME:
                self.undo(self.lv_cell[k], self.lv_o[k])
            mode = SCAN
            if self._try(k):
                nodes += 1
                if k == n - 1:
                    self.k, self.mode = k, RESUME
                    return 1, nodes
                k += 1
                self.maxd = max(self.maxd, k)
                mode = OPEN
                if nodes >= budget:
                    break
            elif k == 0:
                self.k, self.mode = k, SCAN
                return -1, nodes
            else:
                k -= 1
                mode = RESUME
        self.k, self.mode = k, mode
        return 0, nodes
