"""The edge-matching board genome shared by every GA preset.

Genome (length 2 * cells): genes 0..n-1 hold the 0-based piece at each cell (row-major), genes
n..2n-1 the rotation at that cell: the thesis's tile vector (four colours and an orientation)
stored as a piece number and its turn. Fixed pieces (the instance's hints and `--fix`) never
move. Two layouts:

* keep_frame=True: pieces stay in their class: corner pieces on corner cells, border pieces
  on border cells, inner pieces inside, and the rotation of a frame piece is the one turning
  its grey sides outwards, so every genome obeys the frame rule and the GA searches only the
  inner joins.
* keep_frame=False (Niang's boards): any piece on any cell in any turn. The frame rule needs
  no term of its own: a join counts as matched only when both sides show the same colour and
  it is not grey, and a board has exactly as many grey sides as frame sides, so with every
  inner join matched every grey side faces the frame.

Operators move pieces only between cells of one *group*: the class under keep_frame, a single
group otherwise.
"""

from __future__ import annotations

import numpy as np

from ...backends.ga import Encoding
from ...core import squaregrid as sq
from ...core.errors import InputError
from ...core.result import Solution
from .instance import EdgeInstance

CLASSES = ("corner", "border", "inner")


class BoardGenome(Encoding):
    """Board layout tables, fixed pieces, random boards and the genome <-> board mapping."""

    def __init__(self, inst: EdgeInstance, fixed: dict | None = None,
                 keep_frame: bool = True) -> None:
        self.inst = inst
        self.keep_frame = keep_frame
        w, h = inst.width, inst.height
        self.w, self.h = w, h
        n = self.n = w * h
        self.length = 2 * n
        npc = inst.n
        # col[p, r, s]: colour piece p (0-based) shows on side s when turned r quarter turns
        self.col = np.array([[inst.edges(p + 1, r) for r in range(4)] for p in range(npc)],
                            dtype=np.int16)
        cells = inst.cells()
        self.cells = cells
        self.cell_class = np.array([CLASSES.index(sq.cell_kind(c, w, h)) for c in cells])
        self.piece_class = np.array([CLASSES.index(inst.kind(p)) for p in range(1, npc + 1)])
        # the groups operators keep pieces in (see the module docstring)
        self.cell_group = self.cell_class if keep_frame else np.zeros(n, dtype=np.int64)
        self.piece_group = self.piece_class if keep_frame else np.zeros(npc, dtype=np.int64)
        # the rotation that shows grey exactly to the frame (frame cells); -1 where none does
        self.frame_rot = np.full((n, npc), -1, dtype=np.int64)
        for i, c in enumerate(cells):
            if self.cell_class[i] == 2:
                continue
            for p in np.flatnonzero(self.piece_class == self.cell_class[i]):
                for r in range(4):
                    if inst.fits(c, int(p) + 1, r):
                        self.frame_rot[i, p] = r
                        break
        # neighbours: nb[i, s] = cell index across side s, or -1 at the frame
        self.nb = np.full((n, 4), -1, dtype=np.int64)
        for i, c in enumerate(cells):
            for s in sq.SIDES:
                o = sq.neighbour(c, s)
                if sq.inside(o, w, h):
                    self.nb[i, s] = o[0] * w + o[1]
        hz = [(r * w + c, r * w + c + 1) for r in range(h) for c in range(w - 1)]
        vt = [(r * w + c, (r + 1) * w + c) for r in range(h - 1) for c in range(w)]
        self.hz = np.array(hz, dtype=np.int64).reshape(-1, 2)
        self.vt = np.array(vt, dtype=np.int64).reshape(-1, 2)
        self._set_fixed(dict(inst.fixed) | dict(fixed or {}))

    # --- fixed pieces and classes ------------------------------------------------------------
    def _set_fixed(self, fixed: dict) -> None:
        inst, n = self.inst, self.n
        index = {c: i for i, c in enumerate(self.cells)}
        self.fixed_cells: dict[int, tuple[int, int]] = {}
        for cell, (p, r) in fixed.items():
            if cell not in index or not 1 <= p <= inst.n:
                raise InputError(f"fixed piece {p} at {cell} is not on the board")
            self.fixed_cells[index[cell]] = (p - 1, r % 4)
        used = [p for p, _ in self.fixed_cells.values()]
        if len(set(used)) != len(used):
            raise InputError("a piece is fixed at two cells")
        self.free = np.ones(n, dtype=bool)
        self.free[list(self.fixed_cells)] = False
        self.groups: list[tuple[np.ndarray, np.ndarray]] = []  # (free cells, free pieces)
        for k in range(3 if self.keep_frame else 1):
            cells = np.flatnonzero((self.cell_group == k) & self.free)
            pieces = np.array([p for p in np.flatnonzero(self.piece_group == k) if p not in used],
                              dtype=np.int64)
            if len(cells) != len(pieces):
                raise InputError(
                    f"the fixed pieces leave {len(pieces)} free {CLASSES[k]} pieces for "
                    f"{len(cells)} free {CLASSES[k]} cells; a fixed piece breaks the frame rule"
                )
            self.groups.append((cells, pieces))
        if self.keep_frame:
            self.frame_free = np.flatnonzero(self.free & (self.cell_class < 2))
            self.inner_free = np.flatnonzero(self.free & (self.cell_class == 2))
            # the block of inner cells (row, col, height, width), for the region operators
            self.inner_box = (1, 1, self.h - 2, self.w - 2) if self.w > 2 and self.h > 2 \
                else None
        else:  # every free cell turns freely; region operators may use the whole board
            self.frame_free = np.zeros(0, dtype=np.int64)
            self.inner_free = np.flatnonzero(self.free)
            self.inner_box = (0, 0, self.h, self.w)

    def block(self, r0: int, c0: int, hh: int, ww: int) -> np.ndarray:
        """Cell indices of a block, row-major."""
        return np.array([(r0 + i) * self.w + c0 + j for i in range(hh) for j in range(ww)],
                        dtype=np.int64)

    def free_block(self, r0: int, c0: int, hh: int, ww: int) -> np.ndarray | None:
        cells = self.block(r0, c0, hh, ww)
        return cells if self.free[cells].all() else None

    def movable(self, src: np.ndarray, dst: np.ndarray) -> bool:
        """Can the pieces at cells `src` go to cells `dst` (same order) keeping the classes
        and the fixed pieces?"""
        return bool(self.free[src].all() and self.free[dst].all()
                    and (self.cell_group[src] == self.cell_group[dst]).all())

    # --- genomes -----------------------------------------------------------------------------
    def normalise(self, pop: np.ndarray) -> np.ndarray:
        """Fixed cells hold their pieces; frame pieces face grey outwards."""
        n = self.n
        for i, (p, r) in self.fixed_cells.items():
            pop[:, i], pop[:, n + i] = p, r
        if len(self.frame_free):
            fr = self.frame_rot[self.frame_free[None, :], pop[:, self.frame_free]]
            pop[:, n + self.frame_free] = np.maximum(fr, 0)
        return pop

    def random(self, rng: np.random.Generator, m: int) -> np.ndarray:
        pop = np.zeros((m, self.length), dtype=np.int64)
        for cells, pieces in self.groups:
            if len(cells):
                perm = np.argsort(rng.random((m, len(cells))), axis=1)
                pop[:, cells] = pieces[perm]
        pop[:, self.n + self.inner_free] = rng.integers(0, 4, (m, len(self.inner_free)))
        return self.normalise(pop)

    def join_matches(self, pop: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(horizontal, vertical) join matches per board, shapes (m, h, w-1) and (m, h-1, w):
        both sides the same colour, not grey (as the checker scores)."""
        n, col = self.n, self.col
        pcs, rts = pop[:, :n], pop[:, n:]
        a, b = self.hz[:, 0], self.hz[:, 1]
        left = col[pcs[:, a], rts[:, a], sq.E]
        mh = (left == col[pcs[:, b], rts[:, b], sq.W]) & (left != 0)
        a, b = self.vt[:, 0], self.vt[:, 1]
        top = col[pcs[:, a], rts[:, a], sq.S]
        mv = (top == col[pcs[:, b], rts[:, b], sq.N]) & (top != 0)
        m = len(pop)
        return mh.reshape(m, self.h, self.w - 1), mv.reshape(m, self.h - 1, self.w)

    def matches(self, pop: np.ndarray) -> np.ndarray:
        """Matched inner joins per board (the checker's score)."""
        mh, mv = self.join_matches(pop)
        return mh.sum(axis=(1, 2)) + mv.sum(axis=(1, 2))

    def decode(self, genome: np.ndarray) -> Solution:
        n = self.n
        return {c: (int(genome[i]) + 1, int(genome[n + i])) for i, c in enumerate(self.cells)}

    def encode(self, solution: Solution, rng: np.random.Generator | None = None) -> np.ndarray:
        """A genome showing the solution where it fits the classes; the rest filled at random."""
        rng = rng or np.random.default_rng(0)
        g = self.random(rng, 1)[0]
        n = self.n
        index = {c: i for i, c in enumerate(self.cells)}
        for cell, (p, r) in solution.items():
            i = index.get(cell)
            if i is None or not self.free[i] or not 1 <= p <= self.inst.n:
                continue
            if self.piece_group[p - 1] != self.cell_group[i]:
                continue
            j = int(np.flatnonzero(g[:n] == p - 1)[0])
            g[i], g[j] = g[j], g[i]
            g[n + i] = r % 4
        return self.normalise(g[None, :])[0]

    def gene_cells(self, genome: np.ndarray, idx) -> Solution:
        n = self.n
        out = {}
        for g in idx:
            i = int(g) % n
            out[self.cells[i]] = (int(genome[i]) + 1, int(genome[n + i]))
        return out

    def force_genes(self, pop: np.ndarray, genes: dict[int, int]) -> np.ndarray:
        n = self.n
        rows = np.arange(len(pop))
        for g, v in genes.items():
            if g < n:
                where = np.argmax(pop[:, :n] == v, axis=1)
                pop[rows, where], pop[rows, n + where] = pop[rows, g], pop[rows, n + g]
                pop[:, g] = v
            elif self.free[g - n]:
                pop[:, g] = v
        return self.normalise(pop)
