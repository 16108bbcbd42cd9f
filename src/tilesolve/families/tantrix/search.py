"""Free-shape Tantrix puzzles by growing a goal line tile by tile (the `search` backend).

This module is the loop search, for a free shape and one goal, a loop whose colour every tile
carries (Discovery 3..30, the green/yellow/white Rainbow puzzles, Super Junior, Student,
Master): the loop then runs through every tile, so a solution is a closed walk over cells.
Other free-shape puzzles with goals of fixed, distinct colours (lines, several loops, tiles off
the goal colour: Super Genius and Professor) go to the line walk in `linewalk.py`.

The walk starts at the pinned tile (the highest-numbered tile used once, at the origin, unturned)
and leaves it through the first end of its loop arc: that removes translations, rotations and
the loop's two directions. Each step the next cell is fixed by the previous exit; a candidate is
a remaining tile with one end of its loop arc at the entry side, which fixes its rotation. The
walk is split at the top by handedness: the inside of the loop lies to its right (clockwise, the
turns sum to +6 sixths of a turn) or to its left. Pruning after each placement:
- the golden rule against every placed neighbour, and the walk moves to an empty cell (closing
  onto the start only with the last tile);
- each side of a tile faces the inside or the outside of the loop; two touching tiles must agree
  (checked with the colours, as a 3-bit code per side);
- turning: straight, bend and corner arcs turn the walk by 0, 1 and 2 sixths, so the remaining
  tiles must be able to make the total +-6;
- no holes: every cell on the inner side of a placed tile must be filled later, by a remaining
  tile that fits the colours and sides already facing it; these cells and the last cell (beside
  the start) must be within reach of the remaining walk (hex distance);
- when a placement splits the empty cells around it, a flood fill checks that no region is cut
  off (an enclosed region must be the one the walk continues into, and small enough).
The closed loop is checked for holes and turning before it is returned (and verified again).

The inner loop is compiled C (`_loopscan.c`, built on install); without it the same state
machine runs in Python, much slower. Parallel threads race differently seeded searches (the C
core releases the GIL), each with its own candidate order and Luby restarts.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np

from ...backends import counting
from ...backends import search as runner
from ...core import hexgrid as hx
from ...core.errors import InputError
from ...core.options import Options
from ...core.registry import Backend
from ...core.result import Outcome, Solution, SolveOptions, Status
from . import catalogue as cat
from . import linewalk, score_search
from .instance import Goal, TantrixInstance, goal_colour_options
from .region import pin_tile
from .scan_tables import candidate_order, side_masks

try:
    from . import _loopscan
except ImportError:  # no compiler at install time: the Python loop below takes over
    _loopscan = None

OBJECTIVES = ("longest",)  # Downing's score, by the anytime search of `score_search`
RESTART_UNIT = 5_000  # nodes in a Luby restart unit (--restart 0: never restart)
OPTIONS = Options(runner.restart_option(RESTART_UNIT), runner.ENGINE_OPTION, score_search.OPTIONS)
OPEN, SCAN, RESUME = 0, 1, 2
HANDLES = (
    "the search backend handles free-shape puzzles: a single loop through every tile, or goals "
    "of fixed, distinct colours (lines, several loops)"
)

# state vector (int64): level being filled, mode, deepest level, turning so far, turning the
# remaining tiles can still make, required cells (mirrors len(rlist)), flood stamp
K, MODE, MAXD, TURN, MREM, NREQ, STAMP = range(7)
# static scalars (int32): tiles, origin, last cell, candidates per entry side, pin placement,
# target turning (+-6)
C_N, C_ORIGIN, C_LAST, C_CANDS, C_PIN, C_GOAL = range(6)


def _runs() -> list[int]:
    """Runs of occupied sides around a cell, per 6-bit occupancy mask (all six: one run)."""
    out = []
    for m in range(64):
        starts = sum(1 for d in range(6) if m >> d & 1 and not m >> ((d - 1) % 6) & 1)
        out.append(1 if m == 63 else starts)
    return out


def turn_of(entry: int, exit_: int) -> int:
    """Sixths of a turn (clockwise positive) of a walk entering at `entry`, leaving at `exit_`."""
    return (exit_ - entry - 3 + 2) % 6 - 2


def inner_sides(entry: int, exit_: int, hand: int) -> list[int]:
    """Sides facing the inside of the loop: right of the walk when clockwise (hand +1)."""
    a, b = (exit_, entry) if hand > 0 else (entry, exit_)
    out, d = [], (a + 1) % 6
    while d != b:
        out.append(d)
        d = (d + 1) % 6
    return out


def loop_colours(inst: TantrixInstance) -> list[str]:
    """The loop colours to try, or an InputError for puzzles this backend does not handle."""
    if inst.shape != "free":
        reason = f"shape {inst.shape} is not free"
    elif len(inst.goals) != 1:
        reason = f"{len(inst.goals)} goals"
    elif inst.goals[0].kind != "loop":
        reason = f"the goal is a {inst.goals[0].kind}"
    else:
        goal = inst.goals[0].colour
        wanted = list(cat.COLOURS) if goal == "any" else [goal]
        carried = [c for c in wanted if all(c in cat.colours(t) for t in inst.types())]
        if carried:
            return carried
        lacking = next(t for t in inst.types() if wanted[0] not in cat.colours(t))
        reason = f"tile {lacking} has no {wanted[0]}" if len(wanted) == 1 else (
            "no colour is carried by every tile")
    raise InputError(f"{reason}; {HANDLES}")


class Grid:
    """A square array of axial cells around the origin, with room for flood fills."""

    def __init__(self, n: int):
        self.rmax = max(1, n // 2)  # a loop through n tiles stays within n // 2 of any tile
        self.off = self.rmax + 2
        self.side = 2 * self.off + 1
        s = self.side
        qs, rs = np.meshgrid(np.arange(s) - self.off, np.arange(s) - self.off)
        self.qc = qs.ravel().astype(np.int32)
        self.rc = rs.ravel().astype(np.int32)
        self.d0 = ((np.abs(self.qc) + np.abs(self.rc) + np.abs(self.qc + self.rc)) // 2).astype(
            np.int32
        )
        self.valid = (self.d0 <= self.rmax).astype(np.int32)
        self.dirs = np.array([dr * s + dq for dq, dr in hx.DIRECTIONS], np.int32)

    def index(self, cell: hx.Hex) -> int:
        return (cell[1] + self.off) * self.side + cell[0] + self.off

    def cell(self, i: int) -> hx.Hex:
        return int(self.qc[i]), int(self.rc[i])

    def dist_to(self, i: int) -> np.ndarray:
        dq, dr = self.qc - self.qc[i], self.rc - self.rc[i]
        return ((np.abs(dq) + np.abs(dr) + np.abs(dq + dr)) // 2).astype(np.int32)


@dataclass
class Tree:
    """The static tables of one search tree: a loop colour and a handedness."""

    colour: str
    hand: int
    grid: Grid
    types: list[int]  # tile numbers; placement o has type index o // 12
    counts: np.ndarray  # copies of each type
    rot: np.ndarray  # placement -> rotation (last entry: the pin)
    static: tuple[np.ndarray, ...]  # the arrays the core reads, in _loopscan.c's order
    cfg: np.ndarray
    ncand: int
    _start: _Start | None = None

    @classmethod
    def build(cls, inst: TantrixInstance, colour: str, hand: int) -> Tree:
        n = inst.n
        grid = Grid(n)
        types = inst.types()
        counts = inst.counts()
        pin = pin_tile(inst)
        copies = np.array([counts[t] for t in types], np.int32)  # the pin takes one at level 0
        cidx = cat.COLOURS.index
        mag = np.array([abs(turn_of(*cat.arc(t, 0, colour))) for t in types], np.int32)
        p = 12 * len(types)
        ptype, pcode, pinner, pexit, pturn, prot = (np.zeros(p + 1, np.int32) for _ in range(6))

        def fill(o: int, ti: int, t: int, rot: int, entry: int, exit_: int) -> None:
            inner = inner_sides(entry, exit_, hand)
            e = cat.edges(t, rot)
            code = 0
            for d in range(6):
                code |= (cidx(e[d]) | (4 if d in inner else 0)) << (3 * d)
            ptype[o], pcode[o], prot[o] = ti, code, rot
            pinner[o] = sum(1 << d for d in inner)
            pexit[o], pturn[o] = exit_, turn_of(entry, exit_)

        for ti, t in enumerate(types):
            ends = cat.arc(t, 0, colour)
            for s in range(6):
                for e in range(2):
                    rot = (s - ends[e]) % 6
                    fill((ti * 6 + s) * 2 + e, ti, t, rot, s, (ends[1 - e] + rot) % 6)
        a, b = cat.arc(pin, 0, colour)
        fill(p, types.index(pin), pin, 0, b, a)  # the pin leaves through its first arc end
        origin = grid.index((0, 0))
        last = origin + int(grid.dirs[b])
        ncand = 2 * len(types)
        cfg = np.array([n, origin, last, ncand, p, 6 * hand], np.int32)
        static = (
            grid.dirs, grid.valid, grid.d0, grid.dist_to(last), grid.qc, grid.rc,
            ptype, pcode, pinner, pexit, pturn, mag,
            np.array(_runs(), np.int32), np.array(side_masks(), np.int32),
        )  # fmt: skip
        return cls(colour, hand, grid, types, copies, prot, static, cfg, ncand)

    def start(self) -> _Start:
        if self._start is None:
            self._start = _Start(self)
        return self._start

    def order(self, seed: int) -> np.ndarray:
        return candidate_order(int(self.cfg[C_N]), self.ncand, seed)


class Core(runner.Searcher):
    """The mutable state of one tree's depth-first search, advanced by `step`."""

    def __init__(self, tree: Tree, seed: int):
        self.tree = tree
        self.ord = tree.order(seed)
        start = tree.start()
        # occupied, side codes facing a cell, occupied-sides mask, inner-side count, required
        # list position, required list, witness placement, flood stamps, flood queue
        self.grid_state = [a.copy() for a in start.grid_state]
        self.cnt = start.cnt.copy()
        self.levels = [a.copy() for a in start.levels]  # cell, placement, cand, radius
        self.state = start.state.copy()

    @property
    def max_depth(self) -> int:
        return int(self.state[MAXD])

    def arrays(self) -> tuple:
        return (*self.tree.static, self.ord, self.tree.cfg, *self.grid_state, self.cnt,
                *self.levels, self.state)

    def solution(self) -> Solution:
        t = self.tree
        cells, places = self.levels[0], self.levels[1]
        return {
            t.grid.cell(int(cells[k])): (t.types[int(t.static[6][places[k]])],
                                         int(t.rot[places[k]]))
            for k in range(int(t.cfg[C_N]))
        }


class _Start:
    """The search state with only the pin placed, copied by every new search of a tree."""

    def __init__(self, tree: Tree):
        g = tree.grid.side**2
        n = int(tree.cfg[C_N])
        self.tree = tree
        self.ord = np.zeros(n * 6 * tree.ncand, np.int32)
        self.grid_state = [np.zeros(g, np.int32) for _ in range(10)]
        self.grid_state[4][:] = -1
        self.grid_state[6][:] = -1
        self.cnt = tree.counts.copy()
        self.levels = [np.zeros(n, np.int32) for _ in range(4)]
        self.state = np.zeros(7, np.int64)
        self.state[STAMP] = 1
        lv_cell, lv_o, _, _ = self.levels
        cfg = tree.cfg
        lv_cell[0], lv_o[0] = cfg[C_ORIGIN], cfg[C_PIN]
        py = PyLoop(self)  # type: ignore[arg-type]
        py.apply(int(cfg[C_ORIGIN]), int(cfg[C_PIN]))
        py.flush()
        st = self.state
        st[K], st[MODE], st[MAXD] = 1, OPEN, 1
        st[TURN] = int(tree.static[10][cfg[C_PIN]])
        st[MREM] = int((tree.static[11] * self.cnt).sum())

    arrays = Core.arrays


class PyLoop:
    """Reference implementation of `_loopscan.c`: its state machine in Python lists (the
    fallback, and the pin setup)."""

    def __init__(self, core: Core):
        self.core = core
        (self.dirs, self.valid, self.d0, self.dlast, self.qc, self.rc, self.ptype, self.pcode,
         self.pinner, self.pexit, self.pturn, self.mag, self.runs, self.exp, self.ord,
         cfg) = (a.tolist() for a in core.arrays()[:16])
        self.n, self.origin, self.last, self.ncand, self.npl, self.goal = cfg
        (self.occ, self.cv, self.nm, self.icnt, self.rpos, self.rlist, self.wit, self.vis,
         self.tgt, self.queue) = (a.tolist() for a in core.grid_state)
        self.cnt = core.cnt.tolist()
        self.lv_cell, self.lv_o, self.lv_j, self.lv_rad = (a.tolist() for a in core.levels)
        st = core.state.tolist()
        self.k, self.mode, self.maxd, self.turn, self.mrem, self.nreq, self.stamp = st

    def flush(self) -> None:
        """Write the Python lists back into the core's arrays."""
        c = self.core
        for arr, lst in zip(c.grid_state, (self.occ, self.cv, self.nm, self.icnt, self.rpos,
                                           self.rlist, self.wit, self.vis, self.tgt,
                                           self.queue), strict=True):
            arr[:] = lst
        c.cnt[:] = self.cnt
        for arr, lst in zip(c.levels, (self.lv_cell, self.lv_o, self.lv_j, self.lv_rad),
                            strict=True):
            arr[:] = lst
        c.state[:] = [self.k, self.mode, self.maxd, self.turn, self.mrem, self.nreq, self.stamp]

    # --- required cells (empty cells on the inner side of a placed tile) ---------------------
    def _req_add(self, c: int) -> None:
        self.rpos[c] = self.nreq
        self.rlist[self.nreq] = c
        self.nreq += 1

    def _req_remove(self, c: int) -> None:
        i = self.rpos[c]
        self.nreq -= 1
        moved = self.rlist[self.nreq]
        self.rlist[i] = moved
        self.rpos[moved] = i
        self.rpos[c] = -1

    def apply(self, c: int, o: int) -> None:
        t = self.ptype[o]
        self.cnt[t] -= 1
        self.turn += self.pturn[o]
        self.mrem -= self.mag[t]
        self.occ[c] = 1
        if self.icnt[c] > 0:
            self._req_remove(c)
        code, inner = self.pcode[o], self.pinner[o]
        for d in range(6):
            nb = c + self.dirs[d]
            od = (d + 3) % 6
            self.cv[nb] |= ((code >> (3 * d)) & 7) << (3 * od)
            self.nm[nb] |= 1 << od
            if inner >> d & 1:
                self.icnt[nb] += 1
                if self.icnt[nb] == 1 and not self.occ[nb]:
                    self._req_add(nb)

    def undo(self, c: int, o: int) -> None:
        inner = self.pinner[o]
        for d in range(5, -1, -1):
            nb = c + self.dirs[d]
            od = (d + 3) % 6
            if inner >> d & 1:
                if self.icnt[nb] == 1 and not self.occ[nb]:
                    self._req_remove(nb)
                self.icnt[nb] -= 1
            self.cv[nb] &= ~(7 << (3 * od))
            self.nm[nb] &= ~(1 << od)
        self.occ[c] = 0
        if self.icnt[c] > 0:
            self._req_add(c)
        t = self.ptype[o]
        self.cnt[t] += 1
        self.turn -= self.pturn[o]
        self.mrem += self.mag[t]

    # --- pruning -----------------------------------------------------------------------------
    def _fits_somewhere(self, r: int) -> bool:
        """Some remaining tile, turned somehow, fits the codes facing cell r."""
        m, want = self.exp[self.nm[r]], self.cv[r]
        w = self.wit[r]
        if w >= 0 and self.cnt[self.ptype[w]] > 0 and self.pcode[w] & m == want:
            return True
        pcode, ptype, cnt = self.pcode, self.ptype, self.cnt
        for o in range(self.npl):
            if cnt[ptype[o]] > 0 and pcode[o] & m == want:
                self.wit[r] = o
                return True
        return False

    def _dist(self, a: int, b: int) -> int:
        dq, dr = self.qc[a] - self.qc[b], self.rc[a] - self.rc[b]
        return (abs(dq) + abs(dr) + abs(dq + dr)) // 2

    def ok(self, c: int, o: int, left: int, rad: int) -> bool:
        """May the walk go on after placing o at c, with `left` tiles still to place?"""
        nxt = c + self.dirs[self.pexit[o]]
        if left == 0:
            return nxt == self.origin and self.turn == self.goal and self._no_holes(rad)
        if self.occ[nxt] or not self.valid[nxt]:
            return False
        if abs(self.goal - self.turn) > self.mrem:
            return False
        reach = left - 1
        if self.dlast[nxt] > reach:
            return False
        need = self.nreq + (self.icnt[nxt] == 0) + (self.last != nxt and self.icnt[self.last] == 0)
        if need > left:
            return False
        for i in range(self.nreq):
            r = self.rlist[i]
            if not self.valid[r] or self._dist(nxt, r) + self.dlast[r] > reach:
                return False
            if not self._fits_somewhere(r):
                return False
        if self.runs[self.nm[c]] >= 2:
            return self._still_open(c, nxt, left, rad)
        return True

    def _flood(self, start: int, rad: int, stop_at: int) -> tuple[int, bool, int]:
        """Breadth-first over empty cells within rad + 1 of the origin from `start`, marking
        them with the current stamp. Stops once `stop_at` targets are seen and the outer ring
        reached. Returns (targets seen, ring reached, cells seen)."""
        stamp, vis, tgt, queue = self.stamp, self.vis, self.tgt, self.queue
        occ, d0, dirs = self.occ, self.d0, self.dirs
        ring = rad + 1
        vis[start] = stamp
        queue[0] = start
        head, tail, found, outside = 0, 1, 0, False
        while head < tail:
            x = queue[head]
            head += 1
            if tgt[x] == stamp:
                found += 1
            if d0[x] == ring:
                outside = True
            if found >= stop_at and outside:
                break
            for d in range(6):
                y = x + dirs[d]
                if vis[y] != stamp and not occ[y] and d0[y] <= ring:
                    vis[y] = stamp
                    queue[tail] = y
                    tail += 1
        return found, outside, tail

    def _still_open(self, c: int, nxt: int, left: int, rad: int) -> bool:
        """The placement at c split the empty cells around it: no region may be cut off."""
        self.stamp += 1
        stamp, tgt = self.stamp, self.tgt
        targets = 0
        for i in range(self.nreq):
            tgt[self.rlist[i]] = stamp
            targets += 1
        if tgt[self.last] != stamp:
            tgt[self.last] = stamp
            targets += 1
        for d in range(6):
            y = c + self.dirs[d]
            if not self.occ[y] and tgt[y] != stamp:
                tgt[y] = stamp
                targets += 1
        found, outside, size = self._flood(nxt, rad, targets)
        if outside:
            return found == targets
        # the walk continues into an enclosed region: it must hold every required cell and the
        # last cell, fit the tiles left, and every other region must reach the outside
        if size > left or self.vis[self.last] != stamp:
            return False
        if any(self.vis[self.rlist[i]] != stamp for i in range(self.nreq)):
            return False
        for d in range(6):
            y = c + self.dirs[d]
            if not self.occ[y] and self.vis[y] != stamp:
                self.stamp += 1
                if not self._flood(y, rad, 1 << 30)[1]:
                    return False
        return True

    def _no_holes(self, rad: int) -> bool:
        """Every empty cell within rad + 1 of the origin reaches the outer ring."""
        self.stamp += 1
        ring = rad + 1
        start = self.origin + ring * self.dirs[4]  # a cell on the outer ring
        _, _, size = self._flood(start, rad, 1 << 30)
        return size == 3 * ring * (ring + 1) + 1 - self.n

    # --- the state machine -------------------------------------------------------------------
    def step(self, budget: int) -> tuple[int, int]:
        n, ncand, ord_ = self.n, self.ncand, self.ord
        ptype, pcode, pexit, cnt, exp = self.ptype, self.pcode, self.pexit, self.cnt, self.exp
        lv_cell, lv_o, lv_j, lv_rad = self.lv_cell, self.lv_o, self.lv_j, self.lv_rad
        k, mode, nodes, code = self.k, self.mode, 0, 0
        while True:
            if mode == OPEN:
                prev = lv_cell[k - 1]
                x = pexit[lv_o[k - 1]]
                c = prev + self.dirs[x]
                lv_cell[k] = c
                lv_j[k] = 0
                lv_rad[k] = max(lv_rad[k - 1], self.d0[c])
            elif mode == RESUME:
                self.undo(lv_cell[k], lv_o[k])
                lv_j[k] += 1
            mode = SCAN
            c = lv_cell[k]
            s = (pexit[lv_o[k - 1]] + 3) % 6
            base = (k * 6 + s) * ncand
            m, want = exp[self.nm[c]], self.cv[c]
            j = lv_j[k]
            placed = False
            while j < ncand:
                o = ord_[base + j]
                if cnt[ptype[o]] > 0 and pcode[o] & m == want:
                    self.apply(c, o)
                    if self.ok(c, o, n - 1 - k, lv_rad[k]):
                        placed = True
                        break
                    self.undo(c, o)
                j += 1
            lv_j[k] = j
            if placed:
                lv_o[k] = o
                nodes += 1
                if k == n - 1:
                    mode, code = RESUME, 1
                    break
                k += 1
                self.maxd = max(self.maxd, k)
                mode = OPEN
                if nodes >= budget:
                    break
            elif k == 1:
                code = -1
                break
            else:
                k -= 1
                mode = RESUME
        self.k, self.mode = k, mode
        return code, nodes


class PyCore(Core):
    parallel = False

    def step(self, budget: int) -> tuple[int, int]:
        loop = PyLoop(self)
        out = loop.step(budget)
        loop.flush()
        return out


class CCore(Core):
    parallel = True

    def step(self, budget: int) -> tuple[int, int]:
        return _loopscan.step(self.arrays(), budget)


class LoopSearcher(runner.Searcher):
    """One complete search: the trees (colour x handedness) one after another, in a seeded
    order, each with its own seeded candidate order."""

    def __init__(self, trees: list[Tree], seed: int, core: type[Core]):
        rng = np.random.default_rng(seed)
        order = list(rng.permutation(len(trees))) if len(trees) > 2 else [0, 1]
        if len(trees) == 2 and seed % 2:  # racing workers get seeds of both parities
            order = [1, 0]
        self.trees = [trees[i] for i in order]
        self.seed = seed
        self.kind = core
        self.parallel = core.parallel
        self.index = 0
        self.core = core(self.trees[0], seed)
        self.deepest = 0

    @property
    def max_depth(self) -> int:
        return max(self.deepest, self.core.max_depth)

    def step(self, budget: int) -> tuple[int, int]:
        total = 0
        while True:
            code, nodes = self.core.step(max(1, budget - total))
            total += nodes
            if code != -1 or self.index + 1 == len(self.trees):
                return code, total
            self.deepest = self.max_depth
            self.index += 1
            self.core = self.kind(self.trees[self.index], self.seed + self.index)
            if total >= budget:
                return 0, total

    def solution(self) -> Solution:
        return self.core.solution()


def _engine(opts: SolveOptions) -> type[Core]:
    return runner.engine_choice(opts, _loopscan, "loopscan", CCore, PyCore)


def _restart(opts: SolveOptions) -> int:
    return runner.restart_unit(opts, RESTART_UNIT)


def trees(inst: TantrixInstance) -> list[Tree]:
    return [Tree.build(inst, c, h) for c in loop_colours(inst) for h in (1, -1)]


def _refuse_extras(opts: SolveOptions) -> None:
    if opts.objective:
        raise InputError(f"--objective {opts.objective} is not supported by the search backend")
    if opts.fix:
        raise InputError("fixed placements are not supported by the search backend")


def searchers(inst: TantrixInstance, opts: SolveOptions) -> tuple[Callable, str]:
    """`make(seed) -> Searcher` and its name: the loop search for a single loop through every
    tile, else the line walk (lines, several goals, tiles off the goal colour)."""
    _refuse_extras(opts)
    try:
        ts = trees(inst)
    except InputError:
        try:
            walk = linewalk.Walk.build(inst)
        except InputError as walk_refusal:
            raise InputError(f"{walk_refusal}; {HANDLES}") from None
        kind = runner.engine_choice(opts, linewalk._linewalk, "linewalk", linewalk.CWalkCore,
                                    linewalk.WalkCore)
        return (lambda seed: kind(walk, seed)), "linewalk"
    kind = _engine(opts)
    return (lambda seed: LoopSearcher(ts, seed, kind)), "loopscan"


def colour_choices(inst: TantrixInstance) -> list[TantrixInstance]:
    """The puzzle once per way to colour its `any` goals (Downing states the Super puzzles
    so), each unordered choice once; [inst] when the search takes the puzzle as it is."""
    if not any(g.colour == "any" for g in inst.goals):
        return [inst]
    try:
        trees(inst)  # a single loop of any colour: the loop search tries every colour itself
        return [inst]
    except InputError:
        pass
    seen, out = set(), []
    for choice in goal_colour_options(inst):
        goals = [Goal(g.kind, c) for g, c in zip(inst.goals, choice, strict=True)]
        key = tuple(sorted((g.kind, g.colour) for g in goals))
        if key not in seen:
            seen.add(key)
            out.append(replace(inst, goals=goals))
    return out


def _left(opts: SolveOptions, t0: float) -> SolveOptions:
    if opts.time_limit is None:
        return opts
    return replace(opts, time_limit=max(0.01, opts.time_limit - (time.perf_counter() - t0)))


def _merge_stats(outs: list[tuple[TantrixInstance, Outcome]]) -> dict:
    stats = dict(outs[-1][1].stats)
    stats["nodes"] = sum(o.stats.get("nodes", 0) for _, o in outs)
    if len(outs) > 1 or outs[0][0].goals != outs[-1][0].goals:
        stats["colour_choices"] = {" + ".join(str(g) for g in i.goals):
                                   o.status.value if o.solutions is None
                                   else len(o.solutions) for i, o in outs}
    return stats


def solve(inst: TantrixInstance, opts: SolveOptions) -> Outcome:
    """First solution; goals of colour `any` that only the line walk takes are tried colour
    choice by colour choice, each with the time left. --objective: the anytime search of
    `score_search`."""
    if opts.objective in OBJECTIVES:
        return score_search.solve(inst, opts)
    t0, outs = time.perf_counter(), []
    for choice in colour_choices(inst):
        make, name = searchers(choice, opts)
        restart = _restart(opts) if name == "loopscan" else 0
        out = runner.run(make, _left(opts, t0), restart=restart)
        out.stats["solver"] = name
        outs.append((choice, out))
        if out.status != Status.INFEASIBLE:
            break
    out = outs[-1][1]
    return Outcome(out.status, out.solution, stats=_merge_stats(outs))


def count(inst: TantrixInstance, opts: SolveOptions) -> Outcome:
    """Every solution of one complete search (per colour choice of `any` goals). The loop
    search's pin removes rotations, translations and the two directions of travel; the line
    walk meets a line from both ends, and the pipeline merges what is the same up to
    translation and rotation."""
    t0, outs, found = time.perf_counter(), [], []
    for choice in colour_choices(inst):
        make, name = searchers(choice, opts)
        out = runner.count(make(opts.seed), _left(opts, t0))
        out.stats["solver"] = name
        outs.append((choice, out))
        seen = {frozenset(sol.items()) for sol in found}
        found.extend(sol for sol in out.solutions or [] if frozenset(sol.items()) not in seen)
        if not out.stats.get("complete"):
            break
    complete = all(o.stats.get("complete") for _, o in outs) and \
        len(outs) == len(colour_choices(inst))
    return counting.tally(found[:opts.count_limit], complete, _merge_stats(outs), opts)


BACKEND = Backend("search", OPTIONS, solve, objectives=OBJECTIVES, count=count)
