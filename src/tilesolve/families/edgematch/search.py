"""Edge matching by rowscan backtracking (the method of the best Eternity II searches).

Cells are filled row by row from the top left. A cell's candidates are the placements whose
west and north colours equal the colours already facing it, precomputed per cell in buckets
keyed on (west, north); the search only skips used pieces. The tables hold:
- the frame rule per cell (corners, sides, inner cells: grey exactly on the frame);
- fixed pieces (the instance's and `--fix`'s), also as a filter on the cells left of and
  above them (their east / south colour must meet the fixed piece);
- without fixed pieces, the first corner piece kept to the top-left corner (square boards)
  or the top row (rectangles), which removes the board's rotations;
- a seeded random order inside each bucket, with hinted placements first.

The inner loop is compiled C (`_rowscan.c`, built on install); without it the same loop
runs in Python, about a hundred times slower. Parallel threads race differently seeded
searches (the C core releases the GIL). With --objective matches the search allows a bounded
number of mismatched joins (breakscan.py: --breaks N, --break-from ROW) and returns the best
board it meets.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from ...backends import search as runner
from ...core import squaregrid as sq
from ...core.options import NO_SYMMETRY, Options
from ...core.result import Outcome, Solution, SolveOptions
from .breakscan import BREAK_OPTIONS, placement_rows
from .instance import EdgeInstance

try:
    from . import _rowscan
except ImportError:  # no compiler at install time: the Python loop below takes over
    _rowscan = None

OPEN, SCAN, BACK = 0, 1, 2
RESTART_UNIT = 200_000  # nodes in a Luby restart unit (--restart 0: never restart)
OPTIONS = Options(NO_SYMMETRY, runner.restart_option(RESTART_UNIT), runner.ENGINE_OPTION,
                  BREAK_OPTIONS)


class RowscanTables:
    """Candidate buckets for every cell, in row-major order, before any value ordering."""

    def __init__(
        self,
        inst: EdgeInstance,
        symmetry: bool = True,
        hint: Solution | None = None,
        fix: Solution | None = None,
    ):
        fixed = {**inst.fixed, **(fix or {})}
        base = replace(inst, fixed=fixed)
        w = inst.width
        self.cells = inst.cells()
        self.index = {c: i for i, c in enumerate(self.cells)}
        self.ncells = len(self.cells)
        self.ncol = max(max(e) for e in inst.pieces) + 1
        self.nkeys = self.ncol * self.ncol
        self.npieces = inst.n
        anchor = self._anchor(inst) if symmetry and not fixed else None
        # every placement the frame rule and the fixed pieces allow (numpy: the Python loop
        # took 4-12 s on the 16x16, longer than short time limits), one per distinct look
        rows = placement_rows(base)
        cell, piece, rot = rows[:, 0], rows[:, 1], rows[:, 2]
        e = rows[:, 3:7]  # W, N, E, S
        keep = np.ones(len(rows), dtype=bool)
        for side, col in ((sq.E, 5), (sq.S, 6)):
            need = self._needs(base, side)
            keep &= (need[cell] < 0) | (rows[:, col] == need[cell])
        if anchor:
            allowed = np.array([self.cells.index(c) for c in anchor[1]])
            keep &= (piece != anchor[0] - 1) | np.isin(cell, allowed)
        want = np.full((self.ncells, 2), -1, dtype=np.int64)
        for c, (p, r) in (hint or {}).items():
            if c in self.index:
                want[self.index[c]] = (p - 1, r)
        hinted = (want[cell, 0] == piece) & (want[cell, 1] == rot)
        bucket = cell * self.nkeys + e[:, 0] * self.ncol + e[:, 1]
        table = np.column_stack([bucket, ~hinted, piece, rot, e[:, 2], e[:, 3]])[keep]
        table = table.astype(np.int32).reshape(-1, 6)
        self.table = table[np.lexsort((table[:, 1], table[:, 0]))]
        sizes = np.bincount(self.table[:, 0], minlength=self.ncells * self.nkeys)
        self.start = np.concatenate(([0], np.cumsum(sizes))).astype(np.int32)
        self.left = np.array([i - 1 if c > 0 else -1 for i, (r, c) in enumerate(self.cells)],
                             dtype=np.int32)
        self.up = np.array([i - w if r > 0 else -1 for i, (r, c) in enumerate(self.cells)],
                           dtype=np.int32)

    @staticmethod
    def _anchor(inst: EdgeInstance) -> tuple[int, set]:
        first = next(p for p in range(1, inst.n + 1) if inst.kind(p) == "corner")
        w, h = inst.width, inst.height
        return first, ({(0, 0)} if w == h else {(0, 0), (0, w - 1)})

    def _needs(self, inst: EdgeInstance, side: int) -> np.ndarray:
        """need[i]: the colour cell i must show on `side` to meet a fixed piece there (a piece
        left of or above a fixed one shows it the fixed piece's west or north), else -1."""
        need = np.full(self.ncells, -1, dtype=np.int64)
        for i, cell in enumerate(self.cells):
            nb = sq.neighbour(cell, side)
            if nb in inst.fixed:
                need[i] = inst.edges(*inst.fixed[nb])[sq.opposite(side)]
        return need

    def ordered(self, seed: int) -> tuple[np.ndarray, ...]:
        """(piece, rot, east, south) with each bucket in a seeded random order, hints first."""
        noise = np.random.default_rng(seed).random(len(self.table))
        t = self.table[np.lexsort((noise, self.table[:, 1], self.table[:, 0]))]
        return tuple(np.ascontiguousarray(t[:, k]) for k in (2, 3, 4, 5))


class CSearcher(runner.Searcher):
    """The search state in numpy arrays, advanced by the compiled core."""

    parallel = True

    def __init__(self, t: RowscanTables, seed: int):
        self.t = t
        self.piece, self.rot, self.east, self.south = t.ordered(seed)
        n = t.ncells
        self.pos = np.zeros(n, np.int32)
        self.lim = np.zeros(n, np.int32)
        self.used = np.zeros(t.npieces, np.uint8)
        self.pe = np.zeros(n, np.int32)
        self.ps = np.zeros(n, np.int32)
        self.state = np.array([0, OPEN, 0, t.nkeys, t.ncol], np.int64)

    @property
    def max_depth(self) -> int:
        return int(self.state[2])

    def step(self, budget: int) -> tuple[int, int]:
        t = self.t
        return _rowscan.step(
            t.start, self.piece, self.east, self.south, t.left, t.up,
            self.pos, self.lim, self.used, self.pe, self.ps, self.state, budget,
        )  # fmt: skip

    def solution(self) -> Solution:
        return _decode(self.t, self.piece, self.rot, self.pos)


def _decode(t: RowscanTables, piece, rot, pos) -> Solution:
    return {cell: (int(piece[pos[i]]) + 1, int(rot[pos[i]])) for i, cell in enumerate(t.cells)}


class PySearcher(runner.Searcher):
    """The same state machine as `_rowscan.c`, in Python lists (the fallback)."""

    parallel = False

    def __init__(self, t: RowscanTables, seed: int):
        self.t = t
        self.start = t.start.tolist()
        self.piece, self.rot, self.east, self.south = (a.tolist() for a in t.ordered(seed))
        self.left = t.left.tolist()
        self.up = t.up.tolist()
        n = t.ncells
        self.pos, self.lim = [0] * n, [0] * n
        self.used = [False] * t.npieces
        self.pe, self.ps = [0] * n, [0] * n
        self.depth, self.mode, self.max_depth = 0, OPEN, 0

    def step(self, budget: int) -> tuple[int, int]:
        start, piece, east, south = self.start, self.piece, self.east, self.south
        left, up, pos, lim = self.left, self.up, self.pos, self.lim
        used, pe, ps = self.used, self.pe, self.ps
        ncells, nkeys, ncol = self.t.ncells, self.t.nkeys, self.t.ncol
        d, mode, nodes, code = self.depth, self.mode, 0, 0
        while True:
            if mode == OPEN:
                if d == ncells:
                    mode, code = BACK, 1
                    break
                b = d * nkeys + (pe[left[d]] if left[d] >= 0 else 0) * ncol
                b += ps[up[d]] if up[d] >= 0 else 0
                pos[d], lim[d] = start[b], start[b + 1]
            elif mode == BACK:
                d -= 1
                used[piece[pos[d]]] = False
                pos[d] += 1
            i, end = pos[d], lim[d]
            while i < end and used[piece[i]]:
                i += 1
            if i < end:
                pos[d] = i
                used[piece[i]] = True
                pe[d], ps[d] = east[i], south[i]
                d += 1
                mode = OPEN
                nodes += 1
                if nodes >= budget:
                    break
            elif d == 0:
                code = -1
                break
            else:
                mode = BACK
        self.depth, self.mode = d, mode
        self.max_depth = max(self.max_depth, d)
        return code, nodes

    def solution(self) -> Solution:
        return _decode(self.t, self.piece, self.rot, self.pos)


def _engine(opts: SolveOptions) -> type:
    return runner.engine_choice(opts, _rowscan, "rowscan", CSearcher, PySearcher)


def _restart(opts: SolveOptions) -> int:
    return runner.restart_unit(opts, RESTART_UNIT)


def _no_symmetry(opts: SolveOptions) -> bool:
    return OPTIONS.value(opts.params, "no_symmetry")


def solve(inst: EdgeInstance, opts: SolveOptions) -> Outcome:
    if opts.objective:
        # the most matched joins: rowscan with a bounded, shrinking number of breaks
        from . import breakscan

        return breakscan.solve(inst, opts, "python" if _engine(opts) is PySearcher else "c")
    kind = _engine(opts)
    tables = RowscanTables(inst, not _no_symmetry(opts), opts.hint, opts.fix)
    return runner.run(lambda seed: kind(tables, seed), opts, restart=_restart(opts))


def count(inst: EdgeInstance, opts: SolveOptions) -> Outcome:
    # every solution, so no symmetry breaking
    kind = _engine(opts)
    tables = RowscanTables(inst, False, None, opts.fix)
    return runner.count(kind(tables, opts.seed), opts)
