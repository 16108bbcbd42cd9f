"""Rowscan search that allows a bounded number of mismatched joins ("breaks").

The record Eternity II boards come from rowscan backtrackers that demand exact matches for
most of the board and allow a few breaks late in the scan (Blackwood: 10 breaks, all after
cell 200). Here a schedule `allow[d]` bounds the breaks placed by cell d (row-major): none
before row `start_row`, then rising linearly to `breaks` at the last cell. Every complete
board the search meets scores `joins - breaks`; after each one the cap drops below it, so the
search goes on looking for a better board (anytime). Restarts (Luby, seeded value orders)
spread the search over different early rows, where the tree is widest.

`--break-rule eii` follows Verhaard's eii instead: its break table (few breaks early in the
last rows, more and more towards the end), no break between two frame pieces, piece groups
by tileability that keep good pieces for late in the scan (eii_groups.py), and restarts of
runs that stop getting deeper (lab/pages/hybrid.md, "The eii rule").

The inner loop is compiled C (`_breakscan.c`); without it the same loop runs in Python.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np

from ...backends.search import luby
from ...core import squaregrid as sq
from ...core.errors import InputError
from ...core.result import Outcome, Solution, SolveOptions, Status
from . import colour_rule, eii_groups, holefill, keep_last
from .break_options import BREAK_OPTIONS
from .instance import EdgeInstance
from .official import is_official
from .placements import placement_rows

try:
    from . import _breakscan
except ImportError:  # no compiler at install time: the Python loop takes over
    _breakscan = None

OPEN, SCAN, BACK = 0, 1, 2
RESTART_UNIT = 2_000_000  # placements in a Luby restart unit
# eii's break ("edge slipping") table, tuned for 468 (12 breaks) on the 256 cells: the j-th break
# is allowed from 1-based depth EII_SLIPS[j - 1]; the gaps shrink towards the end of the scan
EII_SLIPS = (193, 202, 209, 214, 218, 222, 226, 229, 232, 235, 238, 240)
# eii restarts a run that stops getting deeper: here a run goes on past each window of this many
# placements only when it reached a new depth or a board in it. On Eternity II (30 breaks,
# seeds 0 and 1, ~20 CPU s each) windows of 5 million placements (~0.4 CPU s) ended at 455 and
# 456, windows of 20 million at 457 and 456; runs are heavy-tailed: after 5 million placements
# 8 of 8 runs stood at depth 235-244, one completed a board 7 million later, the runs that
# stalled stayed stalled to 150 million.
EII_WINDOW = 20_000_000
# the eii rule's first bound, per cell from the first row of breaks: 30 on Eternity II's last
# four rows. One run without restarts (seed 0): 30 breaks gave 454 after 3 CPU s, 25 456 after
# 5 s, 22 458 after 14 s; with restarts 22 gave no board within 20 CPU s (seeds 0 and 1), 30
# gave 455 and 456.
EII_BREAKS_PER_CELL = 0.47
# boards with at least this many cells get the eii rule by default: on the official Eternity
# II, 150 CPU s, it reaches 457-459 alone (the ramp 439-441), and the LNS from its starts ends
# at median 458 against 455.5 from the ramp's, seeds 0-3 (lab/pages/hybrid.md, "The eii rule")
EII_DEFAULT_CELLS = 256
# Blackwood's break schedule as libblackwood's 470 scenario has it for the 256 cells: one more
# break allowed from each of these 0-based depths, at most one per placement, none between two
# frame pieces; on other boards the depths scale with the cell count
BLACKWOOD_DEPTHS = (197, 203, 210, 216, 221, 225, 229, 233, 236, 238)
# the Blackwood rule's first bound on 256 cells (scaled with the cell count elsewhere): on
# Eternity II, seed 0, 30 CPU s, 20 breaks gave no complete board, 30 gave 451, 45 gave 447
BLACKWOOD_BREAKS = 30
# The official Eternity II's default search: Blackwood's own setting, his 10 breaks and
# colours, each run's deepest partial board completed when 24 cells or fewer are left. One
# core, 60 CPU s, seeds 0/1 (lab/pages/hybrid.md, "The deepest partial board, completed"):
# 462/461 against 452/451 for the Blackwood rule's complete boards (30 breaks) and 457-459
# for the eii rule; 12, 14 and 16 breaks gave 459/461, 460/463 and 458/460. libblackwood's
# fill order and the completion of boards up to 2 cells shallower than the deepest completed:
# 120 CPU s, seeds 0-2, deepest boards 248 against 244, 464/463/463 against 462/461/461 in
# rows (the order alone 462/463/463; lab/pages/hybrid.md, "libblackwood's fill order").
OFFICIAL_SEARCH = {"break_rule": "blackwood", "colour_rule": "blackwood", "breaks": "10",
                   "fill_holes": "24", "scan_order": "blackwood", "fill_slack": "2"}


@dataclass(frozen=True)
class Schedule:
    """How many breaks the board may have in all, and from which row they are allowed."""

    breaks: int
    start_row: int
    keep_last: bool = False  # place a good group of pieces last (keep_last.py)
    rule: str = "ramp"  # "ramp", or "eii" (Verhaard's eii: its break table, groups, restarts)
    colours: tuple[int, ...] = ()  # the blackwood rule's colours to exhaust (colour_rule.py)
    restart_nodes: int | None = None  # placements per run (0: one run), else Luby restarts
    fill_holes: int = 0  # blackwood rule: complete deepest partial boards this short (0 off)
    fill_slack: int = 0  # ... and those up to this much shallower than the deepest completed
    order: str = "rows"  # blackwood rule: the order cells are filled in (blackwood_order)

    def allow(self, width: int, height: int) -> np.ndarray:
        n = width * height
        first = min(n - 1, max(0, self.start_row * width))
        d = np.arange(n)
        if self.rule == "eii":
            return eii_allow(self.breaks, first, n)
        if self.rule == "blackwood":
            return blackwood_allow(self.breaks, n)
        ramp = np.ceil(self.breaks * (d - first + 1) / (n - first)).astype(np.int32)
        return np.where(d >= first, np.minimum(ramp, self.breaks), 0).astype(np.int32)


def eii_allow(breaks: int, first: int, n: int) -> np.ndarray:
    """allow[d] for eii's break table spread over `breaks` breaks and the cells first..n-1:
    the j-th break comes where eii's table puts break 12 j / breaks, the table's depths 192-240
    stretched to first..n-1. eii's table ends at depth 240 (the last row exact) because eii fills
    its last rows in another order; in our row-major scan the last row holds the leftovers, and
    with it exact no board of 45 breaks appeared in 20 CPU s, while stretched to the last cell
    22 breaks gave a board of 458 within 14 CPU s (official puzzle, seed 0)."""
    allow = np.zeros(n, np.int32)
    if breaks <= 0:
        return allow
    depth = np.array((192, *EII_SLIPS), float)
    span = (n - 1 - first) / (EII_SLIPS[-1] - 192)
    for j in range(1, breaks + 1):
        at = first + (np.interp(12 * j / breaks, np.arange(13), depth) - 192) * span
        allow[min(n - 1, max(first, int(np.ceil(at)) - 1)):] += 1
    return allow


def blackwood_allow(breaks: int, n: int) -> np.ndarray:
    """allow[d] for Blackwood's schedule: the first breaks at BLACKWOOD_DEPTHS (scaled to n
    cells), any more spread evenly from the first of them to the last cell. Blackwood stops
    at 10 and keeps the deepest partial board; this search keeps complete boards only, and
    with the extra breaks only after depth 238 it finished none in 30 CPU s (20 or 45 breaks,
    seed 0, deepest 235): the 10 breaks of depths 197-238 were the wall."""
    at = [min(n - 1, round(x * n / 256)) for x in BLACKWOOD_DEPTHS[:breaks]]
    extra = breaks - len(at)
    if extra > 0:
        first = at[0]
        at += [min(n - 1, int(first + (n - 1 - first) * (k + 1) / extra)) for k in range(extra)]
    allow = np.zeros(n, np.int32)
    for depth in at:
        allow[depth:] += 1
    return allow


def eii_exact(inst: EdgeInstance, cells: list) -> np.ndarray:
    """exact[d]: eii lets no join between two frame pieces break (bit 0 west, bit 1 north)."""
    h, w = inst.height, inst.width
    exact = np.zeros(len(cells), np.int32)
    for i, (r, c) in enumerate(cells):
        if r in (0, h - 1) and c > 0:
            exact[i] |= 1
        if c in (0, w - 1) and r > 0:
            exact[i] |= 2
    return exact


def blackwood_order(width: int, height: int) -> list[tuple[int, int]]:
    """libblackwood's fill order (its jb470 scenario, read the right way up): rows down to the
    last five; there a 5x5 block row by row, then the columns up to the last four one at a
    time top to bottom, then the last 4x5 corner closed by alternating a row's rest and a
    column's rest. Every cell still comes after its west and north neighbours and before its
    east and south ones, but the frame cells of the last rows are placed among the others,
    not all at the end. Boards under 10 wide or 6 high: rows."""
    if width < 10 or height < 6:
        return [(r, c) for r in range(height) for c in range(width)]
    top = height - 5
    out = [(r, c) for r in range(top) for c in range(width)]
    out += [(r, c) for r in range(top, height) for c in range(5)]
    out += [(r, c) for c in range(5, width - 4) for r in range(top, height)]
    out += [(top, c) for c in range(width - 4, width)]
    r, c = top + 1, width - 4
    while len(out) < width * height:  # a column's rest, then the next row's rest
        out += [(rr, c) for rr in range(r, height)]
        if c + 1 < width and r < height:
            out += [(r, cc) for cc in range(c + 1, width)]
        r, c = r + 1, c + 1
        if c >= width - 2:  # the last two columns: row by row
            out += [(rr, cc) for rr in range(r, height) for cc in range(c, width)]
            break
    return out


def default_schedule(inst: EdgeInstance) -> Schedule:
    """Breaks from three quarters down, about 0.7 per cell there: the exact rowscan reaches
    row 12 of Eternity II (depth ~200) within seconds but rarely further, so a 16x16 board
    gets 45 breaks from row 12 and the cap then tightens (measured: complete boards of
    436-439 within 5 s; breaks from row 9 or 10 gave no complete board in 30 s)."""
    start = min(inst.height - 1, (inst.height * 3) // 4)
    cells = (inst.height - start) * inst.width
    return Schedule(max(1, round(0.7 * cells)), start)


class BreakTables:
    """Candidates per cell and their three bucket indexes (W+N, W, N), before ordering."""

    def __init__(self, inst: EdgeInstance, fix: Solution | None = None,
                 meet_fixed: bool = True, later: np.ndarray | None = None,
                 order: list[tuple[int, int]] | None = None):
        """meet_fixed: cells before a fixed piece in the scan must match it exactly (prunes
        early); off, a fixed piece's mismatches count as breaks when the scan reaches it.
        later[p] (0-based piece): p comes after the other pieces in every bucket.
        order: the cells in the order they are filled (default row by row), each after its
        west and north neighbours and before its east and south ones (scan_order)."""
        fixed = {**inst.fixed, **(fix or {})}
        base = replace(inst, fixed=fixed)
        self.inst, self.fixed = inst, fixed
        self.cells = order or inst.cells()
        n = self.ncells = len(self.cells)
        self.ncol = inst.colour_span()
        self.nkeys = self.ncol * self.ncol
        self.npieces = inst.n
        self._kinds: tuple[np.ndarray, np.ndarray] | None = None  # kinds(), found once
        self._fast: dict[tuple, _FastBase] = {}  # fast_base(), one per (shared, colours, exact)
        # (depth, piece0, rot, W, N, E, S): placement_rows numbers cells row by row
        self.rows = np.array(placement_rows(base), dtype=np.int32).reshape(-1, 7)
        depth = {cell: i for i, cell in enumerate(self.cells)}
        if order:
            self.rows[:, 0] = np.array([depth[c] for c in inst.cells()], np.int32)[self.rows[:, 0]]
        self.rot = np.ascontiguousarray(self.rows[:, 2])
        self.later = np.zeros(len(self.rows), np.int64) if later is None else \
            later[self.rows[:, 1]].astype(np.int64)
        self.cand = tuple(np.ascontiguousarray(self.rows[:, k]) for k in (1, 3, 4, 5, 6))
        cell, cw, cn = self.rows[:, 0].astype(np.int64), self.rows[:, 3], self.rows[:, 4]
        self.keys = (cell * self.nkeys + cw * self.ncol + cn, cell * self.ncol + cw,
                     cell * self.ncol + cn, cell)
        self.sizes = (n * self.nkeys, n * self.ncol, n * self.ncol, n)
        self.left, self.up = (np.array([depth.get(sq.neighbour(c, side), -1) for c in self.cells],
                                       dtype=np.int32) for side in (sq.W, sq.N))
        self.need_e = np.full(n, -1, np.int32)
        self.need_s = np.full(n, -1, np.int32)
        for i, cell in enumerate(self.cells):
            for side, need in ((sq.E, self.need_e), (sq.S, self.need_s)):
                nb = sq.neighbour(cell, side)
                if meet_fixed and nb in fixed and cell not in fixed:
                    need[i] = inst.edges(*fixed[nb])[sq.opposite(side)]

    def buckets(self, seed: int, rows: np.ndarray | None = None, keys: tuple | None = None,
                sizes: tuple | None = None,
                rank: np.ndarray | None = None) -> tuple[np.ndarray, ...]:
        """(start, idx) for each phase's buckets, each bucket in a seeded random order, the
        pieces marked `later` after the others; idx indexes `self.rows`. By default all rows
        by (cell, colours), else the rows `rows` by `keys` (one array per phase, over those
        rows) into `sizes` buckets. rank[p] (0-based piece, 0-7): lower ranks first, random
        among equals (the colour rule's order)."""
        rows = np.arange(len(self.rows)) if rows is None else rows
        keys, sizes = (self.keys, self.sizes) if keys is None else (keys, sizes)
        noise = np.random.default_rng(seed).integers(0, 1 << 20, len(rows))
        if self.later.any():  # the top bit orders; without a group the draws stay as they were
            noise = (noise >> 1) | (self.later[rows] << 19)
        if rank is not None:  # the top three bits order, before `later`
            noise = (noise >> 3) | (rank[self.rows[rows, 1]].astype(np.int64) << 17)
        out = []
        for key, size in zip(keys, sizes, strict=True):
            idx = rows[np.argsort((key.astype(np.int64) << 20) | noise)].astype(np.int32)
            start = np.concatenate(([0], np.cumsum(np.bincount(key, minlength=size))))
            out += [start.astype(np.int32), idx]
        return tuple(out)

    def kinds(self) -> tuple[np.ndarray, np.ndarray]:
        if self._kinds is None:
            self._kinds = self._find_kinds()
        return self._kinds

    def fast_base(self, shared: bool, colours: tuple[int, ...],
                  exact: np.ndarray) -> _FastBase:
        """What every run of the Blackwood rule shares on this table, built once."""
        key = (shared, colours, exact.tobytes())
        if key not in self._fast:
            self._fast[key] = _build_fast_base(self, shared, colours, exact)
        return self._fast[key]

    def _find_kinds(self) -> tuple[np.ndarray, np.ndarray]:
        """(kind per cell, rows of one cell of each kind): cells with the same candidates
        (corners, edges by side, inner cells, each fixed cell) share one kind, as Blackwood's
        lists are per cell kind: on Eternity II 10 kinds instead of 256 cells, so the lists
        the loop reads fit the cache."""
        cell = self.rows[:, 0]
        order = np.argsort(cell, kind="stable")
        bounds = np.searchsorted(cell[order], np.arange(self.ncells + 1))
        seen: dict[bytes, int] = {}
        kind = np.zeros(self.ncells, np.int32)
        keep = []
        for i in range(self.ncells):
            mine = order[bounds[i]:bounds[i + 1]]
            sig = self.rows[mine][:, 1:].tobytes()
            if sig not in seen:
                seen[sig] = len(seen)
                keep.append(mine)
            kind[i] = seen[sig]
        return kind, np.concatenate(keep)

    def decode(self, cur) -> Solution:
        piece, rot = self.cand[0], self.rot
        return {cell: (int(piece[c]) + 1, int(rot[c]))
                for c, cell in zip(cur, self.cells, strict=False)}  # a partial walk: fewer


class BreakSearcher:
    """One seeded search: its state arrays, advanced by the C core or the Python loop.
    exact[d]: the joins of depth d that may not break (bit 0 west, bit 1 north); gates: the
    piece groups' limits by depth (eii_groups.Gates), or none."""

    def __init__(self, t: BreakTables, seed: int, allow: np.ndarray, engine: str = "auto",
                 exact: np.ndarray | None = None, gates: eii_groups.Gates | None = None):
        self.t = t
        n = t.ncells
        self.allow = np.ascontiguousarray(allow, dtype=np.int32).copy()
        self.buckets = t.buckets(seed)
        self.state_arrays = [np.zeros(n, np.int32) for _ in range(7)]  # pos .. ps
        self.used = np.zeros(t.npieces, np.int32)
        self.counts = [np.zeros(n, np.int32) for _ in range(3)]  # good, precious, useless
        self.state = np.array([0, OPEN, 0, t.nkeys, t.ncol], np.int64)
        self.compiled = engine != "python" and _breakscan is not None
        exact = np.zeros(n, np.int32) if exact is None else np.asarray(exact, np.int32)
        if gates is None:
            big = np.full(n, np.iinfo(np.int32).max, np.int32)
            gates = eii_groups.Gates(np.zeros(t.npieces, np.int32), big, big,
                                     np.zeros(n, np.int32))
        self.arrays = (*t.cand, *self.buckets, t.left, t.up, t.need_e, t.need_s, self.allow,
                       exact, gates.flags, gates.good_max, gates.precious_max,
                       gates.useless_min, *self.state_arrays, self.used, *self.counts,
                       self.state)

    @property
    def max_depth(self) -> int:
        return int(self.state[2])

    @property
    def breaks(self) -> int:
        return int(self.state_arrays[4][self.t.ncells - 1])

    def cap(self, most: int) -> None:
        """From now on, boards with at most `most` breaks."""
        np.minimum(self.allow, most, out=self.allow)

    def step(self, budget: int) -> tuple[int, int]:
        if self.compiled:
            return _breakscan.step(self.arrays, budget)
        return py_step(self.arrays, budget)

    def solution(self) -> Solution:
        return self.t.decode(self.state_arrays[3])


@dataclass(frozen=True)
class _FastBase:
    """What every run of the Blackwood rule shares on one table, built once instead of at
    every restart (5.7 ms a restart, about 3% of the CPU of a search on the official board,
    which restarts some 6 times a second): the rows by cell kind and their bucket keys (the
    three phases' orders, seeded per run), each row's packed record (piece, E colour times
    ncol, S colour), for each phase the lists each row goes into, the lists' layout (where
    each part starts, the separators and ends in place, each list's head), the neighbours'
    depths and each depth's blocks of lists without and with a break, and the colour rule's
    weights and floor. Only the order within each part is the run's."""

    rows: np.ndarray
    keys: tuple[np.ndarray, ...]
    sizes: tuple[int, ...]
    rank: np.ndarray | None
    body: np.ndarray  # per row: piece | E * ncol << 12 | S << 24
    where: np.ndarray  # per table row: its row here, or -1
    phases: tuple[_PhaseLists, ...]
    blank: tuple[np.ndarray, np.ndarray]  # lists and rows with the separators and ends only
    head: np.ndarray  # each list's first entry
    cells: tuple[np.ndarray, ...]  # left, up, base0, base1 by depth
    weight: np.ndarray
    due: np.ndarray
    floor_end: int


@dataclass(frozen=True)
class _PhaseLists:
    """One phase's entries in the lists: the lists each row goes into (offsets by row,
    list numbers: block * nkeys + W * ncol + N), and per list where the phase's part starts
    in the lists and where its entries start among the phase's sorted by list."""

    offsets: np.ndarray
    lists: np.ndarray
    part_start: np.ndarray
    first: np.ndarray
    broke: np.uint32  # the break bit of the phase's records


SEP, END = -1, -2  # a list's separator (before each break part) and end, as rows


def _blocks(t: BreakTables, kind: np.ndarray, exact: np.ndarray) -> tuple[dict, np.ndarray,
                                                                         np.ndarray]:
    """The blocks of lists: one per (kind, fixed east and south demands, break phases
    allowed: bit 0 N may break, bit 1 W may), and each depth's block without a break and with
    its own breaks (the same block where no join may break)."""
    blocks: dict[tuple[int, int, int, int], int] = {}
    base0, base1 = (np.zeros(t.ncells, np.int32) for _ in range(2))
    for d in range(t.ncells):
        sig = (int(kind[d]), int(t.need_e[d]), int(t.need_s[d]))
        phases = (0 if exact[d] & 2 else 1) | (0 if exact[d] & 1 else 2)
        b0 = blocks.setdefault((*sig, 0), len(blocks))
        b1 = blocks.setdefault((*sig, phases), len(blocks)) if phases else b0
        base0[d], base1[d] = b0 * t.nkeys, b1 * t.nkeys
    return blocks, base0, base1


def _targets(t: BreakTables, rows: np.ndarray, row_kind: np.ndarray,
             blocks: dict) -> list[tuple[np.ndarray, np.ndarray]]:
    """For each phase, (row, list) of every entry: phase 0 (both joins matched) into every
    block of the row's kind whose demands it meets, at its own colours; phase 1 (W matched)
    into those blocks where N may break, at every other N; phase 2 (N matched) likewise at
    every other W."""
    ncol, nkeys = t.ncol, t.nkeys
    cw, cn, ce, cs = (t.rows[rows, k].astype(np.int64) for k in (3, 4, 5, 6))
    others = np.arange(ncol)
    found: list[list[tuple[np.ndarray, np.ndarray]]] = [[], [], []]
    for (k, need_e, need_s, phases), b in blocks.items():
        mine = np.flatnonzero((row_kind == k) & ((need_e < 0) | (ce == need_e))
                              & ((need_s < 0) | (cs == need_s)))
        found[0].append((mine, b * nkeys + cw[mine] * ncol + cn[mine]))
        for ph, own, fixed, step in ((1, cn, cw * ncol, 1), (2, cw, cn, ncol)):
            if phases & ph:
                keep = others != own[mine][:, None]
                lists = b * nkeys + fixed[mine][:, None] + others * step
                found[ph].append((np.broadcast_to(mine[:, None], keep.shape)[keep],
                                  lists[keep]))
    empty = np.zeros(0, np.int64)
    return [(np.concatenate([m for m, _ in f]) if f else empty,
             np.concatenate([k for _, k in f]) if f else empty) for f in found]


def _layout(t: BreakTables, rows: np.ndarray, blocks: dict,
            found: list[tuple[np.ndarray, np.ndarray]]) -> tuple:
    """Each list as its parts: the exact entries, a separator and the W-matched ones where N
    may break, a separator and the N-matched ones where W may, the end. (phases, blank,
    head)."""
    nlists = len(blocks) * t.nkeys
    count = [np.bincount(lists, minlength=nlists) for _, lists in found]
    phases = np.repeat([ph for (*_, ph) in blocks], t.nkeys)  # per list: break parts allowed
    seps = [(phases & 1) > 0, (phases & 2) > 0]
    # the list's length: its parts, a separator before each break part, its end
    size = count[0] + count[1] + count[2] + seps[0] + seps[1] + 1
    head = np.concatenate(([0], np.cumsum(size)))
    starts = [head[:-1], head[:-1] + count[0] + seps[0], 0]
    starts[2] = starts[1] + count[1] + seps[1]
    lists = np.zeros(head[-1], np.int64)
    for ph in (1, 2):  # the separators, where the parts begin
        lists[(starts[ph] - 1)[seps[ph - 1]]] = SEP
    lists[head[1:] - 1] = END
    out = []
    for ph, (who, lid) in enumerate(found):
        order = np.argsort(who, kind="stable")
        offsets = np.concatenate(([0], np.cumsum(np.bincount(who, minlength=len(rows)))))
        first = np.concatenate(([0], np.cumsum(count[ph])[:-1]))
        out.append(_PhaseLists(offsets.astype(np.int32), lid[order].astype(np.int32),
                               starts[ph].astype(np.int32), first, np.uint32(ph > 0) << 30))
    npieces = t.npieces
    blank = np.where(lists == SEP, npieces, np.where(lists == END, npieces + 1, 0))
    return tuple(out), (blank.astype(np.uint32), lists.astype(np.int32)), \
        head[:-1].astype(np.int32)


def _build_fast_base(t: BreakTables, shared: bool, colours: tuple[int, ...],
                     exact: np.ndarray) -> _FastBase:
    n = t.ncells
    if shared:
        kind, rows = t.kinds()
    else:
        kind, rows = np.arange(n, dtype=np.int32), np.arange(len(t.rows))
    nk = int(kind.max()) + 1
    weight = colour_rule.weights(t.inst, colours)
    due = colour_rule.floor(n, int(weight.sum())) if colours else np.zeros(n, np.int32)
    row_kind = kind[t.rows[rows, 0]].astype(np.int64)
    w, no = t.rows[rows, 3], t.rows[rows, 4]
    piece, _, _, ce, cs = (a[rows].astype(np.uint32) for a in t.cand)
    blocks, base0, base1 = _blocks(t, kind, exact)
    phases, blank, head = _layout(t, rows, blocks, _targets(t, rows, row_kind, blocks))
    where = np.full(len(t.rows), -1, np.int32)
    where[rows] = np.arange(len(rows))
    left = np.where(t.left < 0, n, t.left).astype(np.int32)
    up = np.where(t.up < 0, n, t.up).astype(np.int32)
    return _FastBase(
        rows=rows.astype(np.int32),
        keys=(row_kind * t.nkeys + w * t.ncol + no, row_kind * t.ncol + w,
              row_kind * t.ncol + no),
        sizes=(nk * t.nkeys, nk * t.ncol, nk * t.ncol),
        rank=4 - weight if colours else None,
        body=piece | ce * np.uint32(t.ncol) << 12 | cs << 24, where=where,
        phases=phases, blank=blank, head=head, cells=(left, up, base0, base1),
        weight=weight, due=due,
        floor_end=int(np.flatnonzero(due).max()) + 1 if due.any() else 0)


def fast_lists(base: _FastBase, buckets: tuple[np.ndarray, ...],
               compiled: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """(lists, rows) of one run: each list's parts in the run's seeded order (each phase's
    buckets) between the separators and ends the base laid out; rows[i] entry i's row of
    the table, or SEP / END. Compiled, a counting scatter (`_breakscan.fast_fill`); else per
    phase one stable sort of its entries by list, so that within a part the rows keep the
    phase's order."""
    lists, rows = base.blank[0].copy(), base.blank[1].copy()
    for ph, part in enumerate(base.phases):
        order = base.where[buckets[2 * ph + 1]]
        if compiled:
            _breakscan.fast_fill(lists, rows, order, part.offsets, part.lists, part.part_start,
                                 base.body, base.rows, int(part.broke))
            continue
        count = part.offsets[order + 1] - part.offsets[order]
        ends = np.cumsum(count)
        total = int(ends[-1]) if len(ends) else 0
        at = np.repeat(part.offsets[order] - (ends - count), count) + np.arange(total)
        lid = part.lists[at]
        perm = np.argsort(lid, kind="stable")
        lid, row = lid[perm], np.repeat(order, count)[perm]
        dest = part.part_start[lid] + np.arange(total) - part.first[lid]
        lists[dest] = base.body[row] | part.broke
        rows[dest] = base.rows[row]
    return lists, rows


class FastSearcher:
    """One seeded search under the Blackwood rule, in `_breakscan.fast_step`: at most one
    break per placement, one list per (cell kind, W, N) holding the exact candidates then
    the one-break ones, each entry a packed record read with one load (_breakscan.c);
    without the compiled core, or with engine "python", the same loop in Python
    (py_fast_step). colours: Blackwood's colour-exhaustion rule on those colours
    (colour_rule.py), or none."""

    MAX_PIECES, MAX_COLOURS = (1 << 12) - 2, 1 << 6  # two piece numbers mark a list's parts

    def __init__(self, t: BreakTables, seed: int, allow: np.ndarray, exact: np.ndarray,
                 shared: bool = True, engine: str = "auto", colours: tuple[int, ...] = ()):
        self.compiled = engine != "python" and _breakscan is not None
        if t.npieces > self.MAX_PIECES or t.ncol > self.MAX_COLOURS:
            raise InputError(f"--break-rule blackwood packs pieces in 12 bits and colours in "
                             f"6; expected at most {self.MAX_PIECES} pieces and "
                             f"{self.MAX_COLOURS} colours")
        self.t = t
        n = t.ncells
        self.allow = np.ascontiguousarray(allow, dtype=np.int32).copy()
        base = t.fast_base(shared, colours, np.asarray(exact, np.int32))
        self.buckets = t.buckets(seed, base.rows, base.keys, base.sizes, base.rank)
        lists, self.entry_rows = fast_lists(base, self.buckets, self.compiled)
        head = base.head
        self.pos, self.piece = np.zeros(n, np.int32), np.zeros(n, np.int32)
        self.br, self.pe, self.ps, self.cum = (np.zeros(n + 1, np.int32) for _ in range(4))
        self.used = np.zeros(t.npieces, np.int32)
        self.state = np.array([0, OPEN, 0, t.ncol, base.floor_end], np.int64)
        self.deep = np.zeros(n, np.int32)  # pos of the deepest walk (_breakscan.c)
        self.arrays = (lists, head, *base.cells[:2], self.allow, *base.cells[2:], base.weight,
                       base.due, self.pos, self.piece, self.br, self.pe, self.ps, self.used,
                       self.cum, self.deep, self.state)

    @property
    def max_depth(self) -> int:
        return int(self.state[2])

    @property
    def breaks(self) -> int:
        return int(self.br[self.t.ncells])

    def cap(self, most: int) -> None:
        np.minimum(self.allow, most, out=self.allow)

    def step(self, budget: int) -> tuple[int, int]:
        if self.compiled:
            return _breakscan.fast_step(self.arrays, budget)
        return py_fast_step(self.arrays, budget)

    def _decode(self, pos: np.ndarray) -> Solution:
        return self.t.decode(self.entry_rows[pos - 1])  # pos: the entry after the one placed

    def solution(self) -> Solution:
        return self._decode(self.pos)

    def deepest(self) -> Solution:
        """The deepest partial board this run has placed (its first `max_depth` cells)."""
        return self._decode(self.deep[:self.max_depth])


def py_fast_step(arrays: tuple, budget: int) -> tuple[int, int]:
    """The loop of `_breakscan.fast_step` in Python (the fallback of the Blackwood rule)."""
    (lists, head, left, up, allow, base0, base1, weight, due, pos, piece, br, pe, ps, used,
     cum, deep, state) = arrays
    d, mode, maxd, _, floor_end = (int(x) for x in state[:5])
    n, nodes, code, sep = len(left), 0, 0, len(used)

    def next_(d: int, p: int) -> int | None:
        """From entry p on, the record of the next candidate placed at depth d, or none."""
        while True:
            v = int(lists[p])
            p += 1
            pc = v & 0xFFF
            if pc >= sep:  # a separator goes on to the breaks while one is left
                if pc > sep or br[d] >= allow[d]:
                    return None
                continue
            if used[pc]:
                continue
            if d < floor_end:  # the colour rule: this part ends at the first one short
                if cum[d] + weight[pc] < due[d]:
                    if br[d] >= allow[d]:  # and no break part may follow
                        return None
                    while int(lists[p]) & 0xFFF < sep:
                        p += 1
                    continue
                cum[d + 1] = cum[d] + weight[pc]
            pos[d] = p
            return v

    while True:
        if mode == OPEN:
            if d == n:
                mode, code = BACK, 1
                break
            key = int(pe[left[d]]) + int(ps[up[d]])  # pe: E times ncol
            p = int(head[(base1[d] if br[d] < allow[d] else base0[d]) + key])
        else:
            d -= 1
            used[piece[d]] = 0
            p = int(pos[d])
        v = next_(d, p)
        if v is None:
            if d == 0:  # the tree is done; a next step walks it again
                code, mode = -1, OPEN
                break
            mode = BACK
            continue
        piece[d], used[v & 0xFFF] = v & 0xFFF, 1
        pe[d], ps[d], br[d + 1] = (v >> 12) & 0xFFF, (v >> 24) & 0x3F, br[d] + (v >> 30 & 1)
        if d >= maxd:  # the deepest walk so far: kept (fast_step's keep_deepest)
            deep[:d + 1] = pos[:d + 1]
        d, maxd, mode, nodes = d + 1, max(maxd, d + 1), OPEN, nodes + 1
        if nodes >= budget:
            break
    state[0], state[1], state[2] = d, mode, maxd
    return code, nodes


def advance(placed: bool, d: int, maxd: int, mode: int,
            nodes: int) -> tuple[int, int, int, int, int]:
    """(depth, deepest, mode, placements, code) after depth d placed a piece or not, as
    `advance` of _breakscan.c: deeper, or back, or the tree done (code -1)."""
    if placed:
        return d + 1, max(maxd, d + 1), OPEN, nodes + 1, 0
    return (d, maxd, mode, nodes, -1) if d == 0 else (d, maxd, BACK, nodes, 0)


def py_step(arrays: tuple, budget: int) -> tuple[int, int]:
    """Reference implementation of `_breakscan.c`: its loop in Python (the fallback; about a
    hundred times slower)."""
    (cpiece, cw, cn, ce, cs, s0, i0, s1, i1, s2, i2, s3, i3, left, up, need_e, need_s, allow,
     exact, flags, gmax, pmax, umin, pos, lim, phase, cur, br, pe, ps, used, cg, cp, cu,
     state) = arrays
    starts, idxs = (s0, s1, s2, s3), (i0, i1, i2, i3)
    d, mode, maxd, nkeys, ncol = (int(x) for x in state[:5])
    ncells = len(left)
    nodes, code = 0, 0
    while True:
        if mode == BACK:
            d -= 1
            used[cpiece[cur[d]]] = 0
            pos[d] += 1
        lc = uc = 0
        if d < ncells:
            lc = int(pe[left[d]]) if left[d] >= 0 else 0
            uc = int(ps[up[d]]) if up[d] >= 0 else 0
        if mode == OPEN:
            if d == ncells:
                mode, code = BACK, 1
                break
            b = d * nkeys + lc * ncol + uc
            phase[d], pos[d], lim[d] = 0, s0[b], s0[b + 1]
        base = int(br[d - 1]) if d > 0 else 0
        cap, ex = int(allow[d]), int(exact[d])
        g0, p0, u0 = (int(a[d - 1]) if d > 0 else 0 for a in (cg, cp, cu))
        placed = False
        while True:
            ph = int(phase[d])
            idx = idxs[ph]
            for i in range(int(pos[d]), int(lim[d])):
                c = idx[i]
                if used[cpiece[c]]:
                    continue
                wm, nm = cw[c] != lc, cn[c] != uc
                if (ph == 1 and not nm) or (ph == 2 and not wm) or \
                        (ph == 3 and not (wm and nm)):
                    continue
                if (need_e[d] >= 0 and ce[c] != need_e[d]) or \
                        (need_s[d] >= 0 and cs[c] != need_s[d]):
                    continue
                cost = int(wm) + int(nm)
                if base + cost > cap or (wm and ex & 1) or (nm and ex & 2):
                    continue
                f = int(flags[cpiece[c]])
                g, p, u = g0 + (f & 1), p0 + (f >> 1 & 1), u0 + (f >> 2 & 1)
                if g > gmax[d] or p > pmax[d] or u < umin[d]:
                    continue
                cg[d], cp[d], cu[d] = g, p, u
                pos[d], cur[d] = i, c
                used[cpiece[c]] = 1
                pe[d], ps[d], br[d] = ce[c], cs[c], base + cost
                placed = True
                break
            if placed or ph == 3 or base + (2 if ph == 2 else 1) > cap:
                break
            b = d if ph == 2 else d * ncol + (lc if ph == 0 else uc)
            phase[d] = ph + 1
            pos[d], lim[d] = starts[ph + 1][b], starts[ph + 1][b + 1]
        d, maxd, mode, nodes, code = advance(placed, d, maxd, mode, nodes)
        if code == -1 or (mode == OPEN and nodes >= budget):
            break
    state[0], state[1], state[2] = d, mode, maxd
    return code, nodes


@dataclass
class BreakResult:
    board: Solution | None
    breaks: int | None
    nodes: int
    restarts: int
    max_depth: int
    exhausted: bool  # the last search's tree was walked to the end under its cap
    bounded: int = 0  # times a better board found elsewhere lowered the cap (`bound`)
    filled: int = 0  # deepest partial boards completed to a better board (`--fill-holes`)
    unfilled: int = 0  # deepest partial boards whose completion could not beat the best


def search(inst: EdgeInstance, schedule: Schedule, seed: int = 0, *,
           time_limit: float | None = None, node_limit: int | None = None,
           stop: Callable[[], bool] = lambda: False, fix: Solution | None = None,
           on_board: Callable[[Solution, int], None] | None = None, engine: str = "auto",
           restart: int = RESTART_UNIT, tables: BreakTables | None = None,
           report: Callable[..., None] = lambda **_: None,
           bound: Callable[[], int | None] = lambda: None) -> BreakResult:
    """The board with the fewest breaks found within the limits (anytime: on_board gets
    every improvement, `report` the node count after every chunk). A search whose tree is
    exhausted under the cap stops: no board of this schedule beats the best one.

    With the eii rule (Verhaard's eii) the schedule is eii's break table, no join between two
    frame pieces breaks, each run obeys the gates of one of 60 piece groups (eii_groups.py),
    a run is restarted when a window of EII_WINDOW placements brings it no new depth, and
    after a board of k breaks the table is spread over k - 1 breaks.

    `bound` gives the fewest breaks of a board found elsewhere (the portfolio's other lanes),
    or None: the search then looks only for boards with fewer, as after a board of its own,
    instead of spending its placements on boards that would not be the portfolio's best."""
    end = None if time_limit is None else time.monotonic() + time_limit  # tables counted

    def halted() -> bool:
        return stop() or (end is not None and time.monotonic() >= end)

    runs = _Runs(inst, schedule, seed, fix, tables, engine, halted)
    best, best_breaks = None, None
    known = None  # the fewest breaks of any board met, here or elsewhere (`bound`)
    nodes = restarts = maxd = bounded = 0
    s = runs.searcher()
    pace = 20_000
    exhausted = False
    while s is not None and not halted() and (node_limit is None or nodes < node_limit):
        elsewhere = bound()
        if elsewhere is not None and (known is None or elsewhere < known):
            known, bounded = elsewhere, bounded + 1
            if known == 0:
                break
            runs.tighten(s, known)
        t0 = time.perf_counter()
        code, done = s.step(runs.chunk(pace))
        took = time.perf_counter() - t0
        nodes += done
        runs.nodes += done
        maxd = max(maxd, s.max_depth)
        report(nodes=nodes, depth=maxd, restarts=restarts)
        found = None
        if code == 1:
            found = s.solution(), s.breaks
            runs.nodes = 0  # progress: this value order keeps its budget
        elif runs.completes(s):
            found = runs.complete(s, known)
        if found is not None:
            best, best_breaks = found
            known = best_breaks
            if on_board is not None:
                on_board(best, best_breaks)
            if best_breaks == 0:
                break
            runs.tighten(s, best_breaks)
        elif code == -1 and not runs.eii:
            exhausted = True
            break
        pace = int(min(max(1_000, done / took * 0.05 if took > 0 else pace * 4), pace * 4))
        if runs.goes_on(s, code, restart):
            continue
        restarts += 1
        s = runs.next()
    return BreakResult(best, best_breaks, nodes, restarts, maxd, exhausted, bounded,
                       runs.filled, runs.unfilled)


class _Runs:
    """The runs of one `search`: each run's searcher (a seed of its own; with the eii rule
    the gates of one of the piece groups, each group built once), the breaks allowed by
    depth, tightened after each better board, and when a run gives way to the next."""

    def __init__(self, inst: EdgeInstance, schedule: Schedule, seed: int,
                 fix: Solution | None, tables: BreakTables | None, engine: str,
                 halted: Callable[[], bool]) -> None:
        self.inst, self.schedule, self.seed, self.engine = inst, schedule, seed, engine
        self.halted = halted
        self.eii = schedule.rule == "eii"
        self.blackwood = schedule.rule == "blackwood"
        self.whole = replace(inst, fixed={**inst.fixed, **(fix or {})})
        if tables is None:
            later = keep_last.good_group(self.whole, schedule.start_row, seed) \
                if schedule.keep_last else None
            order = blackwood_order(inst.width, inst.height) \
                if schedule.order == "blackwood" else None
            tables = BreakTables(inst, fix, later=later, order=order)
        self.t = tables
        self.allow = schedule.allow(inst.width, inst.height)
        self.exact = eii_exact(inst, tables.cells) if self.eii or self.blackwood else None
        self.groups: dict[int, eii_groups.Gates] = {}
        self.run, self.nodes, self.depth = 1, 0, 0  # this run's number, placements, depth
        # --fill-holes: the completer, the deepest depth completed (any run, this run)
        self.filler = holefill.HoleFiller(self.whole) if schedule.fill_holes else None
        self.filled = self.unfilled = 0  # completions that beat the best board, and not
        self.fill_depth, self.run_fill_depth = 0, 0

    def completes(self, s) -> bool:
        """Whether this run's deepest partial board is due a completion: at most
        `fill_holes` cells short, and at least as deep as any completed before (in any run)
        and deeper than this run's last one (`fill_slack` cells less deep with it)."""
        n, d = self.t.ncells, s.max_depth
        return (self.filler is not None and n - self.schedule.fill_holes <= d < n
                and d >= self.fill_depth - self.schedule.fill_slack and d > self.run_fill_depth)

    def complete(self, s, best: int | None) -> tuple[Solution, int] | None:
        """This run's deepest partial board, its holes filled (holefill.py), when that gives
        fewer breaks than `best` (the fewest known here or elsewhere); None when it does not,
        or cannot (its bound says so)."""
        self.fill_depth, self.run_fill_depth = max(self.fill_depth, s.max_depth), s.max_depth
        found = self.filler.complete(s.deepest(), seed=self.seed + self.run, below=best)
        self.filled += found is not None
        self.unfilled += found is None
        return found

    def searcher(self) -> BreakSearcher | FastSearcher | None:
        """The searcher of this run; None when the limits end the search while eii's group
        for it is built."""
        gates = None
        if self.blackwood:
            return FastSearcher(self.t, self.seed + 7919 * self.run, self.allow, self.exact,
                                engine=self.engine, colours=self.schedule.colours)
        if self.eii:
            k = self.run % eii_groups.GROUPS
            if k not in self.groups:
                whole = self.whole
                built = eii_groups.gates(whole, self.t.cells, self.seed + 104729 * k,
                                         {p for p, _ in whole.fixed.values()},
                                         stop=self.halted)
                if built is None:
                    return None
                self.groups[k] = built
            gates = self.groups[k]
        return BreakSearcher(self.t, self.seed + 7919 * self.run, self.allow, self.engine,
                             self.exact, gates)

    def tighten(self, s: BreakSearcher, k: int) -> None:
        """From now on only boards of fewer than k breaks: eii's table spread over k - 1,
        or the cap lowered."""
        inst = self.inst
        if self.eii:
            s.allow[:] = replace(self.schedule, breaks=k - 1).allow(inst.width, inst.height)
            self.allow = s.allow.copy()
        else:
            s.cap(k - 1)
            self.allow = np.minimum(self.allow, k - 1)
        self.fill_depth = 0  # under the lower cap runs stop sooner: depths count afresh

    def goes_on(self, s: BreakSearcher, code: int, restart: int) -> bool:
        """Whether the run goes on after a chunk that ended with `code`: with the eii rule
        while each window of EII_WINDOW placements reaches a new depth (and the tree is not
        walked to its end), else until its Luby share of `restart` placements is spent, or
        with the schedule's `restart_nodes` until that many (0: never) since the run began or
        last found a board."""
        if self.eii:
            if self.nodes >= EII_WINDOW:
                if s.max_depth > self.depth:  # deeper in this window: it keeps going
                    self.depth, self.nodes = s.max_depth, 0
                    return True
            elif code != -1:
                return True
            return False
        fixed = self.schedule.restart_nodes
        if fixed is not None:
            return bool(not fixed or self.nodes < fixed)
        return bool(not restart or self.nodes < restart * luby(self.run))

    def chunk(self, pace: int) -> int:
        """The placements of the next step: `pace`, cut to what is left of this run's
        `restart_nodes`, so that a run ends at its limit, not at the end of a step."""
        fixed = self.schedule.restart_nodes
        return min(pace, max(1, fixed - self.nodes)) if fixed else pace

    def next(self) -> BreakSearcher | FastSearcher | None:
        """The next run's searcher."""
        self.run += 1
        self.nodes = self.depth = self.run_fill_depth = 0
        return self.searcher()


def research_rows(inst: EdgeInstance, sol: Solution, rows: range, seed: int,
                  node_limit: int, fix: Solution | None = None) -> tuple[Solution, int] | None:
    """A better board that differs from `sol` only on the free cells of `rows`, found by the
    break search with everything else fixed and fewer breaks than `sol` in all; None if
    none turns up within `node_limit` placements (a large neighbourhood, searched by the
    backtracker)."""
    return search_rows(inst, sol, rows, seed, node_limit, fix)[0]


def search_rows(inst: EdgeInstance, sol: Solution, rows: range, seed: int, node_limit: int,
                fix: Solution | None = None) -> tuple[tuple[Solution, int] | None, bool]:
    """research_rows, and whether the search walked its whole tree: then no arrangement of
    those rows' pieces beats the board returned (or `sol`, when None)."""
    fixed = {**inst.fixed, **(fix or {})}
    keep = {c: pr for c, pr in sol.items() if c[0] not in rows or c in fixed}
    if len(keep) == len(sol):
        return None, True
    from .check import score

    breaks = sq.join_count(inst.width, inst.height) - score(inst, sol)
    if breaks == 0:
        return None, True
    t = BreakTables(inst, keep, meet_fixed=False)
    s = BreakSearcher(t, seed, np.full(t.ncells, breaks - 1, np.int32))
    best, done, exhausted = None, 0, False
    while done < node_limit:
        code, nodes = s.step(min(node_limit - done, 1_000_000))
        done += nodes
        if code == 1:
            best = (s.solution(), s.breaks)
            if s.breaks == 0:
                exhausted = True
                break
            s.cap(s.breaks - 1)
        elif code == -1:
            exhausted = True
            break
    return best, exhausted


# --- the backend (`--backend search --objective matches`) -------------------------------------
def schedule_of(inst: EdgeInstance, params: dict) -> Schedule:
    """`--breaks N --break-from ROW --break-rule RULE`, each defaulting to default_schedule's
    (the eii rule, the default from EII_DEFAULT_CELLS cells, starts from EII_BREAKS_PER_CELL
    breaks per cell from the first row), and `--colour-rule`, `--restart-nodes` (run_options).
    On the official Eternity II without `--break-rule` the defaults are OFFICIAL_SEARCH."""
    if is_official(inst) and BREAK_OPTIONS.value(params, "break_rule") is None:
        params = {**OFFICIAL_SEARCH, **params}
    sched = default_schedule(inst)
    breaks = BREAK_OPTIONS.value(params, "breaks")
    start = BREAK_OPTIONS.value(params, "break_from")
    keep = BREAK_OPTIONS.value(params, "keep_last")
    rule = BREAK_OPTIONS.value(params, "break_rule") or \
        ("eii" if inst.width * inst.height >= EII_DEFAULT_CELLS else "ramp")
    start = sched.start_row if start is None else start
    if start >= inst.height:
        raise InputError(f"--break-from {start} is off the board; expected a row "
                         f"0..{inst.height - 1}")
    if breaks is None and rule == "blackwood":
        breaks = max(1, round(BLACKWOOD_BREAKS * inst.width * inst.height / 256))
    if breaks is None:
        breaks = sched.breaks if rule == "ramp" else \
            max(1, round(EII_BREAKS_PER_CELL * (inst.height - start) * inst.width))
    fill = BREAK_OPTIONS.value(params, "fill_holes") or 0
    if fill and rule != "blackwood":
        raise InputError(f"--fill-holes works with --break-rule blackwood; got the {rule} rule")
    slack = BREAK_OPTIONS.value(params, "fill_slack") or 0
    if slack and not fill:
        raise InputError("--fill-slack needs --fill-holes")
    order = BREAK_OPTIONS.value(params, "scan_order") or "rows"
    if order != "rows" and rule != "blackwood":
        raise InputError(f"--scan-order works with --break-rule blackwood; got the {rule} rule")
    return Schedule(breaks, start, bool(keep), rule, *run_options(inst, params, rule), fill,
                    slack, order)


def run_options(inst: EdgeInstance, params: dict, rule: str) -> tuple[tuple[int, ...], int | None]:
    """(the colours `--colour-rule` exhausts, `--restart-nodes`): the colour rule is the
    blackwood rule's, and eii restarts by its own windows."""
    colours = colour_rule.chosen(inst, BREAK_OPTIONS.value(params, "colour_rule"))
    if colours and rule != "blackwood":
        raise InputError("--colour-rule works with --break-rule blackwood; got the "
                         f"{rule} rule")
    nodes = BREAK_OPTIONS.value(params, "restart_nodes")
    if nodes is not None and rule == "eii":
        raise InputError("--restart-nodes works with --break-rule blackwood or ramp; the eii "
                         "rule restarts runs that stop getting deeper")
    return colours, nodes


def elsewhere(inbox, joins: int) -> Callable[[], int | None]:
    """The breaks of the newest board the portfolio's other lanes sent (`--share`: an inbox
    of hybrid.lanes, read for its score only), or None; the search keeps its own boards."""
    newest: list[int] = []

    def breaks() -> int | None:
        held = None if inbox is None else inbox.take()
        if held is not None:
            newest[:] = [joins - int(held[1])]
        return newest[0] if newest else None

    return breaks


def solve(inst: EdgeInstance, opts: SolveOptions, engine: str = "auto") -> Outcome:
    """The best board the break search finds within the limits (objective: matched joins)."""
    joins = sq.join_count(inst.width, inst.height)
    t0, cpu0 = time.perf_counter(), time.process_time()
    schedule = schedule_of(inst, opts.params)
    res = search(inst, schedule, opts.seed, time_limit=opts.remaining(),
                 stop=opts.stopped, fix=opts.fix, engine=engine, report=opts.report,
                 on_board=lambda b, k: opts.offer(b, joins - k, "backtracker"),
                 bound=elsewhere(opts.params.get("bound"), joins))
    stats = {"solver": "breakscan", "nodes": res.nodes, "restarts": res.restarts,
             "max_depth": res.max_depth, "breaks": res.breaks, "bounded": res.bounded,
             "seconds": round(time.perf_counter() - t0, 4),
             "cpu_seconds": round(time.process_time() - cpu0, 4)}
    if schedule.fill_holes:
        stats.update(filled=res.filled, unfilled=res.unfilled)
    if res.board is None:
        return Outcome(Status.TIMEOUT, stats=stats)
    score = joins - res.breaks
    status = Status.SOLVED if res.breaks == 0 else Status.FEASIBLE
    return Outcome(status, res.board, score, joins if res.breaks == 0 else None, stats)
