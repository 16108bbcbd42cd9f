"""Edge matching by rowscan backtracking (the method of the best Eternity II searches).

Cells are filled row by row from the top left. A cell's candidates are the placements whose
west and north colours equal the colours already facing it, precomputed per cell in buckets
keyed on (west, north); the search only skips used pieces. The tables hold:
- the frame rule per cell (corners, sides, inner cells: grey exactly on the frame);
- fixed pieces (the instance's and `--fix`'s), also as a filter on the cells left of and
  above them (their east / south colour must meet the fixed piece);
- without fixed pieces, one corner piece kept to the top-left corner, which takes no other
  piece (square boards), or to the top row (rectangles): this removes the board's rotations;
- a seeded random order inside each bucket, with hinted placements first.
The tables can also be built in other orders in which each cell meets only its west and
north neighbours (`cell_order`: columns, diagonals, pairs of rows); `treesize.py` estimates
their trees, diagonals and pairs far larger than the rows' (Brendan's 8x8: 8.7e11 nodes by
rows, 2.8e12 by pairs of rows, 1.1e14 by diagonals, 1e7 random probes each). Rows and
columns, each with one of the four corner pieces kept top left, are eight trees that hold the
same boards in sizes up to 1.9 times apart; `--orient auto` (orient.py) walks the smallest.

The inner loop is compiled C (`_rowscan.c`, built on install); without it the same loop
runs in Python, about a hundred times slower. `--lookahead bottom|below` also skips a
placement after which some open cell has no free piece left that shows the colour above it
(counts per kind of cell and colour). It is exact and cuts the tree (Brendan's 6x6, whole
tree: 52.9 million nodes, 43.1 million with `below`) but not the nodes to the first board:
on Brendan's 7x7, seeds 0-15, one thread, median 0.27 CPU s without, 0.33 with `bottom`,
0.57 with `below`, on the same 8.2 million nodes; so it is off by default. `--values fixed`
walks the table's order with no restarts (as the public backtrackers do); over 16 generated
7x7 boards it took 61.5 CPU s against 14.5 for shuffled orders with restarts, so it is not
the default. Parallel threads race differently seeded searches (the C core releases the
GIL). With --objective matches the search allows a bounded number of mismatched joins
(breakscan.py: --breaks N, --break-from ROW) and returns the best board it meets.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable
from dataclasses import replace

from ...backends import search as runner
from ...core import squaregrid as sq
from ...core.options import NO_SYMMETRY, Option, Options, as_is
from ...core.registry import Backend
from ...core.result import Outcome, Solution, SolveOptions
from .break_options import BREAK_OPTIONS
from .instance import EdgeInstance
from .placements import placement_rows

try:
    from . import _rowscan
except ImportError:  # no compiler at install time: the Python loop below takes over
    _rowscan = None

OPEN, SCAN, BACK = 0, 1, 2
RESTART_UNIT = 200_000  # nodes in a Luby restart unit (--restart 0: never restart)
LOOKAHEAD = Option(
    "lookahead", str, "none", "skip a placement after which an open cell whose north colour is "
    "shown has no free piece of its kind to take (counted per kind of cell and colour): none, "
    "bottom (the last row's cells only) or below (every cell); not with --objective",
    ("none", "bottom", "below"))
VALUES = Option(
    "values", str, "shuffled", "the order in which a cell tries its candidates: shuffled (a "
    "seeded order per cell and pair of colours, renewed at each restart) or fixed (by piece "
    "number and turn, with no restarts; a second thread races shuffled orders)",
    ("shuffled", "fixed"))
ORIENT = Option(
    "orient", str, "auto", "the tree the search walks: rows or columns (cell order), with the "
    "first corner piece kept top left, or auto (rows; on a square board without fixed "
    "pieces or hint, after 10 s without an answer, the smallest tree by Knuth's estimate "
    "of rows and columns with each corner piece); not with --objective",
    ("auto", "rows", "columns"))
BOUND = Option("bound", as_is, help="the portfolio's best boards from the other lanes, "
               "whose scores the break search must beat (hybrid.lanes)", internal=True)
OPTIONS = Options(NO_SYMMETRY, runner.restart_option(RESTART_UNIT), runner.ENGINE_OPTION,
                  LOOKAHEAD, VALUES, ORIENT, BREAK_OPTIONS, BOUND)
MASK64 = (1 << 64) - 1


ORDERS = ("rows", "columns", "diagonal", "pairs")


def cell_order(width: int, height: int, order: str) -> list[tuple[int, int]]:
    """The cells in the order the search fills them. In each, a cell's west and north
    neighbours come before it (so one bucket keyed on those two colours holds its
    candidates) and the top-left cell is first: rows (row by row), diagonal (by row + column,
    top row first on each diagonal), pairs (two rows at a time, column by column), columns
    (column by column: the rows' order on the board mirrored about its diagonal)."""
    cells = list(sq.cells(width, height))
    if order == "columns":
        return sorted(cells, key=lambda rc: (rc[1], rc[0]))
    if order == "diagonal":
        return sorted(cells, key=lambda rc: (rc[0] + rc[1], rc[0]))
    if order == "pairs":
        return sorted(cells, key=lambda rc: (rc[0] // 2, rc[1], rc[0]))
    if order != "rows":
        raise ValueError(f"cell order {order!r}: expected one of {', '.join(ORDERS)}")
    return cells


class RowscanTables:
    """Candidate buckets for every cell, in row-major order, before any value ordering.

    Plain `array`s (the buffers the C core borrows), built without NumPy: its import was 0.2
    of the 0.6-1.1 CPU s a whole run on Brendan's 7x7 took."""

    def __init__(
        self,
        inst: EdgeInstance,
        symmetry: bool = True,
        hint: Solution | None = None,
        fix: Solution | None = None,
        lookahead: str = "none",
        order: str = "rows",
        anchor: int | None = None,
    ):
        """anchor: the corner piece kept to the top-left corner (default: the hint's there,
        else the first corner piece)."""
        fixed = {**inst.fixed, **(fix or {})}
        base = replace(inst, fixed=fixed)
        self.width = inst.width
        self.height = inst.height
        self.order = order
        self.cells = cell_order(inst.width, inst.height, order)  # depth -> cell
        self.index = {c: i for i, c in enumerate(self.cells)}
        depth = [self.index[c] for c in inst.cells()]  # a placement row's cell -> its depth
        self.ncells = len(self.cells)
        self.ncol = inst.colour_span()
        self.nkeys = self.ncol * self.ncol
        self.npieces = inst.n
        anchor = self._anchor(inst, hint or {}, anchor) if symmetry and not fixed else None
        self.anchor = anchor[0] if anchor else None  # the corner piece kept top left
        first, allowed = (anchor[0] - 1, {self.index[c] for c in anchor[1]}) if anchor \
            else (-1, set())
        # square: the top-left cell takes the anchor only. Any other corner there leaves the
        # anchor no cell, which the search finds only at the last corner, after a whole
        # subtree without a board (3 first tries in 4 with a shuffled order): on Brendan's
        # 7x7 the nodes to a board fell from 71 to 8.2 million (median of 16 seeds).
        alone = allowed if anchor and inst.width == inst.height else set()
        need_e, need_s = self._needs(base, sq.E), self._needs(base, sq.S)
        want = {self.index[c]: (p - 1, r) for c, (p, r) in (hint or {}).items()
                if c in self.index}
        # bucket (cell, west, north) -> its placements in table order
        groups: list[dict[int, list]] = [{} for _ in range(self.ncells)]
        for row in placement_rows(base):
            i = depth[row[0]]
            row = (i, *row[1:])
            _, p, r, cw, cn, ce, cs = row
            if (need_e[i] >= 0 and ce != need_e[i]) or (need_s[i] >= 0 and cs != need_s[i]):
                continue
            if (p == first and i not in allowed) or (i in alone and p != first):
                continue
            groups[i].setdefault(cw * self.ncol + cn, []).append(row)
        sizes = [0] * (self.ncells * self.nkeys)
        table: list[tuple] = []  # the rows, bucket by bucket
        keep: list[int] = []  # 1: a hinted placement, first in its bucket whatever the seed
        for i, buckets in enumerate(groups):
            for key in sorted(buckets):
                rows = buckets[key]
                hinted = [k for k, row in enumerate(rows) if (row[1], row[2]) == want.get(i)]
                for k in hinted:
                    rows.insert(0, rows.pop(k))
                sizes[i * self.nkeys + key] = len(rows)
                keep += [1] * len(hinted) + [0] * (len(rows) - len(hinted))
                table += rows
        total, starts = 0, [0]
        for size in sizes:
            total += size
            starts.append(total)
        self.start = array("i", starts)
        self.keep = bytes(keep)
        # piece, rot, east, south
        self.columns = tuple(array("i", [row[k] for row in table]) for k in (1, 2, 5, 6))
        self.left = array("i", [self.index.get((r, c - 1), -1) for r, c in self.cells])
        self.up = array("i", [self.index.get((r - 1, c), -1) for r, c in self.cells])
        self.look = self._lookahead(lookahead, table) if lookahead != "none" else None

    def _lookahead(self, mode: str, table: list[tuple]) -> tuple[array, ...]:
        """The lookahead's fixed tables (self, below, ent_start, ent) and its starting counts
        (need, have), as `_rowscan.c` describes them. A kind of cell is its set of frame
        sides; `below` counts every cell under the first row, `bottom` the last row's. A
        piece's counts are its looks over every cell of a kind, so a count never falls
        short of the pieces a cell of that kind can take (the cut stays exact)."""
        h, w = self.height, self.width
        first = 1 if mode == "below" else h - 1
        kinds: dict[frozenset, int] = {}
        self_key = array("i", [-1]) * self.ncells
        for i, (r, c) in enumerate(self.cells):
            if r >= max(first, 1):
                kind = frozenset(sq.frame_sides((r, c), w, h))
                self_key[i] = kinds.setdefault(kind, len(kinds)) * self.ncol
        below = array("i", [self_key[self.index[r + 1, c]] if r + 1 < h else -1
                            for r, c in self.cells])
        counts: list[set] = [set() for _ in range(self.npieces)]
        for i, p, _r, _w, north, _e, _s in table:
            if self_key[i] >= 0:
                counts[p].add(self_key[i] + north)
        ent_start, ent = array("i", [0]), array("i")
        have = array("i", [0]) * (max(len(kinds), 1) * self.ncol)
        for keys in counts:
            ent.extend(sorted(keys))
            ent_start.append(len(ent))
            for k in keys:
                have[k] += 1
        return self_key, below, ent_start, ent, array("i", [0]) * len(have), have

    @staticmethod
    def _anchor(inst: EdgeInstance, hint: Solution, chosen: int | None) -> tuple[int, set]:
        """The corner piece kept to the top left (square) or the top row: the one chosen, else
        the hint's top-left piece when it is a corner, so the hinted board stays in the tree,
        else the first."""
        at = chosen or hint.get((0, 0), (0, 0))[0]
        first = at if at and inst.kind(at) == "corner" else inst.corner_pieces()[0]
        w, h = inst.width, inst.height
        return first, ({(0, 0)} if w == h else {(0, 0), (0, w - 1)})

    def _needs(self, inst: EdgeInstance, side: int) -> list[int]:
        """need[i]: the colour cell i must show on `side` to meet a fixed piece there (a piece
        left of or above a fixed one shows it the fixed piece's west or north), else -1."""
        need = [-1] * self.ncells
        for i, cell in enumerate(self.cells):
            nb = sq.neighbour(cell, side)
            if nb in inst.fixed:
                need[i] = inst.edges(*inst.fixed[nb])[sq.opposite(side)]
        return need

    def ordered(self, seed: int | None) -> tuple[array, ...]:
        """(piece, rot, east, south) with each bucket in a seeded random order, hints first:
        the C core's shuffle, or the same steps in Python when it is not built. Seed None:
        the table's own order (by piece number and turn)."""
        cols = tuple(array("i", col) for col in self.columns)
        if seed is not None and _rowscan is not None:
            _rowscan.shuffle(self.start, self.keep, *cols, seed & MASK64)
        elif seed is not None:
            _shuffle(self.start, self.keep, cols, seed & MASK64)
        return cols


def splitmix64(x: int) -> tuple[int, int]:
    """The C core's random numbers: (the next state, its number)."""
    x = (x + 0x9E3779B97F4A7C15) & MASK64
    z = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return x, z ^ (z >> 31)


def _shuffle(start, keep, cols, x: int) -> None:
    """Reference implementation of `_rowscan.shuffle`: Fisher-Yates inside each bucket,
    splitmix64 numbers."""
    for b in range(len(start) - 1):
        lo, hi = start[b], start[b + 1]
        while lo < hi and keep[lo]:
            lo += 1
        for j in range(hi - 1, lo, -1):
            x, z = splitmix64(x)
            k = lo + z % (j - lo + 1)
            for col in cols:
                col[j], col[k] = col[k], col[j]


class CSearcher(runner.Searcher):
    """The search state in flat arrays, advanced by the compiled core."""

    parallel = True

    def __init__(self, t: RowscanTables, seed: int | None):
        self.t = t
        self.piece, self.rot, self.east, self.south = t.ordered(seed)
        n = t.ncells
        self.pos = array("i", [0]) * n
        self.lim = array("i", [0]) * n
        self.used = bytearray(t.npieces)
        self.pe = array("i", [0]) * n
        self.ps = array("i", [0]) * n
        self.state = array("q", [0, OPEN, 0, t.nkeys, t.ncol])
        # the counts change as the search goes: each searcher has its own
        self.look = t.look[:4] + tuple(array("i", a) for a in t.look[4:]) if t.look else None

    @property
    def max_depth(self) -> int:
        return int(self.state[2])

    def step(self, budget: int) -> tuple[int, int]:
        t = self.t
        return _rowscan.step(
            t.start, self.piece, self.east, self.south, t.left, t.up,
            self.pos, self.lim, self.used, self.pe, self.ps, self.state, budget, self.look,
        )  # fmt: skip

    def solution(self) -> Solution:
        return _decode(self.t, self.piece, self.rot, self.pos)


def _decode(t: RowscanTables, piece, rot, pos) -> Solution:
    return {cell: (int(piece[pos[i]]) + 1, int(rot[pos[i]])) for i, cell in enumerate(t.cells)}


class _Counts:
    """The lookahead of `_rowscan.c` (`starves`, `count_move`) over Python lists."""

    def __init__(self, look: tuple[array, ...]):
        self.self, self.below, bounds, ent, self.need, self.have = (a.tolist() for a in look)
        self.ent = [ent[bounds[p]:bounds[p + 1]] for p in range(len(bounds) - 1)]

    def self_key(self, ps: list, up: list, d: int) -> int:
        return -1 if self.self[d] < 0 else self.self[d] + ps[up[d]]

    def below_key(self, d: int, south: int) -> int:
        return -1 if self.below[d] < 0 else self.below[d] + south

    def starves(self, p: int, kd: int, kb: int) -> bool:
        need, have, ent = self.need, self.have, self.ent[p]
        if kb >= 0 and need[kb] + 1 - (kb == kd) > have[kb] - ent.count(kb):
            return True
        return any(k != kb and need[k] - (k == kd) > have[k] - 1 for k in ent)

    def move(self, p: int, kd: int, kb: int, sign: int) -> None:
        for k in self.ent[p]:
            self.have[k] += sign
        if kd >= 0:
            self.need[kd] += sign
        if kb >= 0:
            self.need[kb] -= sign


class PySearcher(runner.Searcher):
    """Reference implementation of `_rowscan.c`: the same state machine in Python lists (the
    fallback)."""

    parallel = False

    def __init__(self, t: RowscanTables, seed: int | None):
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
        self.look = _Counts(t.look) if t.look else None

    def step(self, budget: int) -> tuple[int, int]:
        start, piece, east, south = self.start, self.piece, self.east, self.south
        left, up, pos, lim = self.left, self.up, self.pos, self.lim
        used, pe, ps, look = self.used, self.pe, self.ps, self.look
        ncells, nkeys, ncol = self.t.ncells, self.t.nkeys, self.t.ncol
        d, mode, nodes, code, deepest = self.depth, self.mode, 0, 0, self.max_depth
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
                c = pos[d]
                used[piece[c]] = False
                if look:
                    look.move(piece[c], look.self_key(ps, up, d), look.below_key(d, south[c]), 1)
                pos[d] += 1
            kd = look.self_key(ps, up, d) if look else -1
            i, end = pos[d], lim[d]
            while True:
                while i < end and used[piece[i]]:
                    i += 1
                if (not look or i >= end or (kd < 0 and look.below[d] < 0)
                        or not look.starves(piece[i], kd, look.below_key(d, south[i]))):
                    break
                i += 1
            if i < end:
                pos[d] = i
                used[piece[i]] = True
                if look:
                    look.move(piece[i], kd, look.below_key(d, south[i]), -1)
                pe[d], ps[d] = east[i], south[i]
                d += 1
                deepest = max(deepest, d)
                mode = OPEN
                nodes += 1
                if nodes >= budget:
                    break
            elif d == 0:
                code = -1
                break
            else:
                mode = BACK
        self.depth, self.mode, self.max_depth = d, mode, deepest
        return code, nodes

    def solution(self) -> Solution:
        return _decode(self.t, self.piece, self.rot, self.pos)


def _engine(opts: SolveOptions) -> type:
    return runner.engine_choice(opts, _rowscan, "rowscan", CSearcher, PySearcher)


def _restart(opts: SolveOptions) -> int:
    return runner.restart_unit(opts, RESTART_UNIT)


def _no_symmetry(opts: SolveOptions) -> bool:
    return OPTIONS.value(opts.params, "no_symmetry")


def _lookahead(opts: SolveOptions) -> str:
    return OPTIONS.value(opts.params, "lookahead")


def _fixed(opts: SolveOptions) -> bool:
    return OPTIONS.value(opts.params, "values") == "fixed"


def solve(inst: EdgeInstance, opts: SolveOptions) -> Outcome:
    if opts.objective:
        # the most matched joins: rowscan with a bounded, shrinking number of breaks
        from . import breakscan

        return breakscan.solve(inst, opts, "python" if _engine(opts) is PySearcher else "c")
    kind = _engine(opts)
    symmetry = not _no_symmetry(opts)
    orient = OPTIONS.value(opts.params, "orient")

    def make(order: str, anchor: int | None) -> RowscanTables:
        return RowscanTables(inst, symmetry, opts.hint, opts.fix, _lookahead(opts), order, anchor)

    from .orient import Chooser, eligible  # orient builds this module's tables: no cycle

    if orient != "auto" or kind is not CSearcher or not eligible(
            inst, bool(inst.fixed or opts.fix), bool(opts.hint), symmetry):
        tables = make("rows" if orient == "auto" else orient, None)
        out = _run(lambda: tables, kind, opts)
        out.stats.update(orient=tables.order, anchor=tables.anchor)
        return out
    # auto: the smallest of the trees that hold the same boards, after a while (orient.py)
    with Chooser(inst, make, opts.seed, opts.remaining) as chooser:
        out = _run(lambda: chooser.tables, kind, opts)
    out.stats.update(chooser.seen)
    return out


def _run(tables: Callable[[], RowscanTables], kind: type, opts: SolveOptions) -> Outcome:
    """The race of seeded searchers, each (re)started on the tables of the moment."""
    if _fixed(opts):
        # the first worker walks the table's order once (a restart would repeat it); the
        # others race shuffled orders with restarts
        return runner.run(lambda seed: kind(tables(), None if seed == opts.seed else seed), opts,
                          restart=[0, _restart(opts)])
    return runner.run(lambda seed: kind(tables(), seed), opts, restart=_restart(opts))


def count(inst: EdgeInstance, opts: SolveOptions) -> Outcome:
    # every solution, so no symmetry breaking
    kind = _engine(opts)
    tables = RowscanTables(inst, False, None, opts.fix, _lookahead(opts))
    return runner.count(kind(tables, None if _fixed(opts) else opts.seed), opts)


BACKEND = Backend("search", OPTIONS, solve, objectives=("matches",), count=count)
