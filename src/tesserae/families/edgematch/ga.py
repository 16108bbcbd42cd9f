"""Edge matching by a genetic algorithm after Niang (Concordia MASc thesis, 2010), with a tabu
local search as the repair step (a memetic GA).

Genome (length 2 * cells): genes 0..n-1 hold the 0-based piece at each cell (row-major), genes
n..2n-1 the rotation at that cell. Pieces stay in their class: corner pieces on corner cells,
border pieces on border cells, inner pieces inside, and the rotation of a frame piece is the
one turning its grey sides outwards, so every genome obeys the frame rule and the GA searches
only the inner joins. Fixed pieces (the instance's hints and `opts.fix`) never move.

Fitness = matched joins (vectorised over the population); the target is every join.

Operators after Niang: tournament selection (k = 3), elitism, mutations rotate, swap,
swap-and-rotate, region rotation (a square block of inner cells turned a quarter), region swap
(two equal blocks exchanged), row-and-column inversion (a row or column segment reversed,
inner pieces turned half a turn so their sides keep facing the same neighbours' axis);
crossovers region exchange and uniform, both followed by permutation repair (duplicates
replaced by the missing pieces of the same class).

Repair: when the best has not improved for `stall` generations, the best individuals get a tabu
search whose moves are all swaps of two non-adjacent pieces of one class (each placed in its
best rotation) and all rotations in place. Every move is scored at once with numpy from a
(cell, piece, rotation) table of matches against the current neighbours, so an iteration
costs one table rebuild, not a board evaluation per move.

Command-line parameters (`--name value`): the engine's (see backends/ga.py: population,
generations, evaluations, tournament, elitism, immigrants, crossover-rate, mutation-rate,
stall, repair-count, cbgi...) plus `uniform-rate` (share of crossovers that are uniform rather
than region exchange), `tabu-iterations` (per repair), `tabu-tenure`, `operators` (comma list
of mutation operators to use).
"""

from __future__ import annotations

import time

import numpy as np

from ...backends import ga as engine
from ...core import squaregrid as sq
from ...core.errors import InputError
from ...core.result import Outcome, Solution, SolveOptions, Status
from .model import EdgeInstance

DEFAULT_TIME = 120.0  # seconds, when neither --time-limit nor a generation/evaluation budget
MUTATIONS = ("rotate", "swap", "swap_rotate", "region_rotate", "region_swap", "invert")
PARAMS = (*engine.ENGINE_PARAMS, "uniform_rate", "tabu_iterations", "tabu_tenure", "operators",
          "lns_moves", "sideways")
CLASSES = ("corner", "border", "inner")

# Niang's thesis text was not available here: only its figures (4x4 in 27 s, 5x5 in 30 s,
# 6x6 in 195 s) are known, so these are this module's own choices (tournament k = 3 and
# elitism are the thesis's mechanisms; the sizes and rates are ours, tuned on 6x6 boards).
DEFAULTS = engine.GAConfig(
    population=60,
    selection="tournament",
    tournament_k=3,
    elitism=0.05,
    crossover_rate=0.8,
    mutation_rate=0.3,
    stall_generations=1,
    repair_count=2,
    repair_pick="mixed",
    cbgi=None,  # on when the portfolio connects a CbgiLink (or with --cbgi on)
)
DEFAULT_UNIFORM_RATE = 0.5
DEFAULT_TABU_ITERATIONS = 300
DEFAULT_LNS_MOVES = 100
DEFAULT_SIDEWAYS = 0.3


class EdgeEncoding:
    """The board genome, its operators and the tabu repair."""

    def __init__(self, inst: EdgeInstance, fixed: dict | None = None,
                 operators: tuple[str, ...] = MUTATIONS, uniform_rate: float = 0.5,
                 tabu_iterations: int = 300, tabu_tenure: int | None = None,
                 lns_moves: int = 100, sideways: float = 0.3) -> None:
        self.inst = inst
        w, h = inst.width, inst.height
        self.w, self.h = w, h
        n = self.n = w * h
        self.length = 2 * n
        self.target: float | None = float(sq.join_count(w, h))
        self.operators = operators
        self.uniform_rate = uniform_rate
        self.tabu_iterations = tabu_iterations
        self.lns_moves = lns_moves
        self.sideways = sideways  # chance of a sideways rebuild after a failed improving one
        self.tenure = tabu_tenure if tabu_tenure is not None else max(4, n // 4)
        self.ls_iterations = 0
        npc = inst.n
        # col[p, r, s]: colour piece p (0-based) shows on side s when turned r quarter turns
        self.col = np.array([[inst.edges(p + 1, r) for r in range(4)] for p in range(npc)],
                            dtype=np.int16)
        cells = inst.cells()
        self.cells = cells
        self.cell_class = np.array([CLASSES.index(sq.cell_kind(c, w, h)) for c in cells])
        self.piece_class = np.array([CLASSES.index(inst.kind(p)) for p in range(1, npc + 1)])
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
        self._ls_tables()

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
        for k in range(3):
            cells = np.flatnonzero((self.cell_class == k) & self.free)
            pieces = np.array([p for p in np.flatnonzero(self.piece_class == k) if p not in used],
                              dtype=np.int64)
            if len(cells) != len(pieces):
                raise InputError(
                    f"the fixed pieces leave {len(pieces)} free {CLASSES[k]} pieces for "
                    f"{len(cells)} free {CLASSES[k]} cells; a fixed piece breaks the frame rule"
                )
            self.groups.append((cells, pieces))
        self.frame_free = np.flatnonzero(self.free & (self.cell_class < 2))
        self.inner_free = np.flatnonzero(self.free & (self.cell_class == 2))
        # square blocks and row/column segments of free inner cells, for the region operators
        self.inner_box = (1, 1, self.h - 2, self.w - 2) if self.w > 2 and self.h > 2 else None

    # --- the protocol ------------------------------------------------------------------------
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

    def fitness(self, pop: np.ndarray) -> np.ndarray:
        n, col = self.n, self.col
        pcs, rts = pop[:, :n], pop[:, n:]
        a, b = self.hz[:, 0], self.hz[:, 1]
        m = (col[pcs[:, a], rts[:, a], sq.E] == col[pcs[:, b], rts[:, b], sq.W]).sum(axis=1)
        a, b = self.vt[:, 0], self.vt[:, 1]
        m += (col[pcs[:, a], rts[:, a], sq.S] == col[pcs[:, b], rts[:, b], sq.N]).sum(axis=1)
        return m.astype(float)

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
            if self.piece_class[p - 1] != self.cell_class[i]:
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

    def fix(self, pop: np.ndarray, genes: dict[int, int]) -> np.ndarray:
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

    # --- mutation ----------------------------------------------------------------------------
    def mutate(self, pop: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        ops = {"rotate": self._rotate, "swap": self._swap, "swap_rotate": self._swap_rotate,
               "region_rotate": self._region_rotate, "region_swap": self._region_swap,
               "invert": self._invert}
        choice = rng.integers(0, len(self.operators), len(pop))
        for row, k in zip(pop, choice, strict=True):
            ops[self.operators[k]](row, rng)
        return self.normalise(pop)

    def _rotate(self, g: np.ndarray, rng) -> None:
        if len(self.inner_free):
            i = rng.choice(self.inner_free)
            g[self.n + i] = (g[self.n + i] + rng.integers(1, 4)) % 4

    def _swap(self, g: np.ndarray, rng, turn: bool = False) -> None:
        sizes = np.array([len(c) for c, _ in self.groups], dtype=float)
        if (sizes >= 2).sum() == 0:
            return
        k = rng.choice(3, p=np.where(sizes >= 2, sizes, 0) / np.where(sizes >= 2, sizes, 0).sum())
        a, b = rng.choice(self.groups[k][0], 2, replace=False)
        n = self.n
        g[[a, b]], g[[n + a, n + b]] = g[[b, a]], g[[n + b, n + a]]
        if turn and k == 2:
            g[[n + a, n + b]] = rng.integers(0, 4, 2)

    def _swap_rotate(self, g: np.ndarray, rng) -> None:
        self._swap(g, rng, turn=True)

    def _free_block(self, r0: int, c0: int, hh: int, ww: int) -> np.ndarray | None:
        cells = np.array([(r0 + i) * self.w + c0 + j for i in range(hh) for j in range(ww)])
        return cells if self.free[cells].all() else None

    def _region_rotate(self, g: np.ndarray, rng) -> None:
        """Turn a k x k block of inner cells a quarter clockwise: its inner joins survive."""
        box = self.inner_box
        if box is None or min(box[2], box[3]) < 2:
            return self._swap(g, rng)
        k = int(rng.integers(2, min(box[2], box[3]) + 1))
        r0 = box[0] + int(rng.integers(0, box[2] - k + 1))
        c0 = box[1] + int(rng.integers(0, box[3] - k + 1))
        cells = self._free_block(r0, c0, k, k)
        if cells is None:
            return self._swap(g, rng)
        n = self.n
        grid = cells.reshape(k, k)
        pcs, rts = g[grid].copy(), g[n + grid].copy()
        g[grid] = np.rot90(pcs, -1)  # clockwise
        g[n + grid] = (np.rot90(rts, -1) + 1) % 4

    def _region_swap(self, g: np.ndarray, rng) -> None:
        """Exchange two non-overlapping equal blocks of inner cells (rotations kept)."""
        box = self.inner_box
        if box is None or box[2] * box[3] < 2:
            return self._swap(g, rng)
        for _ in range(8):
            hh = int(rng.integers(1, max(1, box[2] // 2) + 1))
            ww = int(rng.integers(1, max(1, box[3] // 2) + 1))
            r1, r2 = box[0] + rng.integers(0, box[2] - hh + 1, 2)
            c1, c2 = box[1] + rng.integers(0, box[3] - ww + 1, 2)
            if abs(int(r1) - int(r2)) < hh and abs(int(c1) - int(c2)) < ww:
                continue  # overlapping
            a = self._free_block(int(r1), int(c1), hh, ww)
            b = self._free_block(int(r2), int(c2), hh, ww)
            if a is None or b is None:
                continue
            n = self.n
            g[a], g[b] = g[b].copy(), g[a].copy()
            g[n + a], g[n + b] = g[n + b].copy(), g[n + a].copy()
            return None
        return self._swap(g, rng)

    def _invert(self, g: np.ndarray, rng) -> None:
        """Reverse a segment of a row or column of one class (inner, or one side of the frame);
        inner pieces turn half a turn so the reversed run still joins along its axis."""
        w, h, n = self.w, self.h, self.n
        horizontal = bool(rng.integers(0, 2))
        length = w if horizontal else h
        line = int(rng.integers(0, h if horizontal else w))
        idx = [line * w + j for j in range(length)] if horizontal else \
            [j * w + line for j in range(length)]
        idx = np.array(idx)
        kind = self.cell_class[idx]
        lo, hi = sorted(rng.choice(np.arange(1, length - 1), 2, replace=True)) if length > 3 \
            else (1, length - 2)
        seg = idx[lo : hi + 1]
        if len(seg) < 2 or len(set(kind[lo : hi + 1])) != 1 or not self.free[seg].all():
            return self._swap(g, rng)
        g[seg] = g[seg[::-1]].copy()
        if kind[lo] == 2:
            g[n + seg] = (g[n + seg[::-1]] + 2) % 4

    # --- crossover ---------------------------------------------------------------------------
    def crossover(self, a: np.ndarray, b: np.ndarray, rng) -> tuple[np.ndarray, np.ndarray]:
        m = len(a)
        uniform = rng.random(m) < self.uniform_rate
        take = np.zeros((m, self.n), dtype=bool)  # cells the child copies from the other parent
        take[uniform] = rng.random((int(uniform.sum()), self.n)) < 0.5
        for k in np.flatnonzero(~uniform):
            hh, ww = int(rng.integers(1, self.h + 1)), int(rng.integers(1, self.w + 1))
            r0, c0 = int(rng.integers(0, self.h - hh + 1)), int(rng.integers(0, self.w - ww + 1))
            blk = np.zeros((self.h, self.w), dtype=bool)
            blk[r0 : r0 + hh, c0 : c0 + ww] = True
            take[k] = blk.ravel()
        take &= self.free
        return self._child(a, b, take, rng), self._child(b, a, take, rng)

    def _child(self, base: np.ndarray, donor: np.ndarray, take: np.ndarray, rng) -> np.ndarray:
        kid = base.copy()
        both = np.concatenate([take, take], axis=1)
        kid[both] = donor[both]
        for row, t in zip(kid, take, strict=True):
            self._repair_permutation(row, t, rng)
        return self.normalise(kid)

    def _repair_permutation(self, g: np.ndarray, taken: np.ndarray, rng) -> None:
        """Pieces placed twice keep the donor's copy; the other copy gets a missing piece."""
        n = self.n
        for cells, pieces in self.groups:
            if len(cells) < 2:
                continue
            here = g[cells]
            counts = np.bincount(here, minlength=self.inst.n)
            missing = pieces[counts[pieces] == 0]
            if not len(missing):
                continue
            dup = (counts[here] > 1) & ~taken[cells]
            slots = cells[dup]
            missing = rng.permutation(missing)
            g[slots] = missing[: len(slots)]
            g[n + slots] = rng.integers(0, 4, len(slots))

    # --- repair: tabu search -----------------------------------------------------------------
    def _ls_tables(self) -> None:
        n = self.n
        npc = self.inst.n
        allowed = np.zeros((n, npc, 4), dtype=bool)
        for i in range(n):
            if not self.free[i]:
                continue
            k = self.cell_class[i]
            ps = np.flatnonzero(self.piece_class == k)
            if k == 2:
                allowed[i, ps, :] = True
            else:
                for p in ps:
                    r = self.frame_rot[i, p]
                    allowed[i, p, max(r, 0)] = True
        self.allowed = allowed
        same = (self.cell_class[:, None] == self.cell_class[None, :]) & \
            self.free[:, None] & self.free[None, :]
        adjacent = np.zeros((n, n), dtype=bool)
        for s in sq.SIDES:
            ok = self.nb[:, s] >= 0
            adjacent[np.flatnonzero(ok), self.nb[ok, s]] = True
        np.fill_diagonal(same, False)
        self.swap_ok = same & ~adjacent
        self.rot_ok = self.free & (self.cell_class == 2)
        # the side of a neighbour that faces a cell's side s
        self.opp = np.array([sq.opposite(s) for s in sq.SIDES])

    def _facing(self, pcs: np.ndarray, rts: np.ndarray) -> np.ndarray:
        """F[i, s]: colour the neighbour across side s shows to cell i (-1 at the frame)."""
        shown = self.col[pcs, rts]  # (n, 4)
        nb = self.nb
        f = shown[np.maximum(nb, 0), self.opp[None, :]]
        return np.where(nb >= 0, f, -1)

    def repair(self, genome: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """The stall repair: a tabu search, then region rebuilds around what still mismatches."""
        g = self.tabu(genome, rng) if self.tabu_iterations else genome
        return self.lns(g, rng, self.lns_moves) if self.lns_moves else g

    def tabu(self, genome: np.ndarray, rng: np.random.Generator,
             iterations: int | None = None) -> np.ndarray:
        """Tabu search over swaps and rotations; returns the best board met."""
        n = self.n
        pcs, rts = genome[:n].copy(), genome[n:].copy()
        col = self.col
        ar = np.arange(n)
        tabu = np.zeros((n, self.inst.n), dtype=np.int64)  # (cell, piece) -> first free iteration
        target = int(self.target or 0)
        best = genome.copy()
        total = best_total = int(self.fitness(genome[None, :])[0])
        iters = iterations if iterations is not None else self.tabu_iterations
        for it in range(1, iters + 1):
            if best_total >= target:
                break
            f = self._facing(pcs, rts)
            table = (col[None, :, :, :] == f[:, None, None, :]).sum(axis=3)  # (n, P, 4)
            table = np.where(self.allowed, table, -9)
            bestv, bestr = table.max(axis=2), table.argmax(axis=2)
            cur = table[ar, pcs, rts]
            gain_of = bestv[:, pcs]  # [a, b]: the piece now at b, best turned, placed at a
            gain = gain_of + gain_of.T - cur[:, None] - cur[None, :]
            ok = self.swap_ok.copy()
            # a swap is tabu when it moves a piece back to a cell it left recently
            taboo = (tabu[:, pcs] > it)
            ok &= ~(taboo | taboo.T) | (total + gain > best_total)
            diag = np.where(self.rot_ok, bestv[ar, pcs] - cur, -99)
            gain = np.where(ok, gain, -99).astype(float)
            gain[ar, ar] = diag
            gain += rng.random(gain.shape) * 0.5  # random tie-break
            a, b = divmod(int(np.argmax(gain)), n)
            if gain[a, b] < -50:
                break
            if a == b:
                rts[a] = bestr[a, pcs[a]]
                total += int(bestv[a, pcs[a]] - cur[a])
            else:
                pa, pb = pcs[a], pcs[b]
                total += int(gain_of[a, b] + gain_of[b, a] - cur[a] - cur[b])
                pcs[a], pcs[b] = pb, pa
                rts[a], rts[b] = bestr[a, pb], bestr[b, pa]
                tenure = self.tenure + int(rng.integers(0, self.tenure + 1))
                tabu[a, pa] = it + tenure
                tabu[b, pb] = it + tenure
            if total > best_total:
                best_total = total
                best[:n], best[n:] = pcs, rts
        self.ls_iterations += it if iters else 0
        return best


    # --- repair: large neighbourhood search ---------------------------------------------------
    def _py_tables(self) -> None:
        """Plain-Python views for the depth-first rebuild (faster than numpy on tiny steps)."""
        if hasattr(self, "_shows"):
            return
        self._shows = [[tuple(int(x) for x in self.col[p, r]) for r in range(4)]
                       for p in range(self.inst.n)]
        self._rots: list[dict[int, list[int]]] = []  # cell -> piece -> rotations allowed
        for i in range(self.n):
            per: dict[int, list[int]] = {}
            for p in np.flatnonzero(self.allowed[i].any(axis=1)):
                seen, rs = set(), []
                for r in np.flatnonzero(self.allowed[i, p]):
                    look = self._shows[p][r]
                    if look not in seen:
                        seen.add(look)
                        rs.append(int(r))
                per[int(p)] = rs
            self._rots.append(per)
        self._nbl = [[(s, int(self.nb[i, s])) for s in sq.SIDES if self.nb[i, s] >= 0]
                     for i in range(self.n)]
        # cell -> (side, colour) -> placements showing that colour there (exact-fit lookups)
        self._index: list[dict[tuple[int, int], list[tuple[int, int]]]] = []
        for per in self._rots:
            idx: dict[tuple[int, int], list[tuple[int, int]]] = {}
            for p, rs in per.items():
                for r in rs:
                    for side, colour in enumerate(self._shows[p][r]):
                        idx.setdefault((side, colour), []).append((p, r))
            self._index.append(idx)

    def _region(self, pcs, rts, rng, size: int) -> list[int]:
        """Free cells around a mismatched join, grown at random to about `size` cells."""
        bad = [(a, b) for a, b in np.concatenate([self.hz, self.vt]).tolist()
               if self._shows[pcs[a]][rts[a]][self._side(a, b)]
               != self._shows[pcs[b]][rts[b]][sq.opposite(self._side(a, b))]]
        if bad:
            a, b = bad[int(rng.integers(0, len(bad)))]
            region = [c for c in (a, b) if self.free[c]]
        else:
            region = []
        if not region:
            region = [int(rng.choice(np.flatnonzero(self.free)))]
        inside = set(region)
        frontier = list(region)
        while len(region) < size and frontier:
            c = frontier[int(rng.integers(0, len(frontier)))]
            opts = [o for _, o in self._nbl[c] if o not in inside and self.free[o]]
            if not opts:
                frontier.remove(c)
                continue
            o = opts[int(rng.integers(0, len(opts)))]
            inside.add(o)
            region.append(o)
            frontier.append(o)
        return region

    def _side(self, a: int, b: int) -> int:
        return sq.E if b == a + 1 else sq.S

    def _rebuild(self, pcs, rts, region: list[int], rng, strict: bool,
                 node_limit: int) -> bool:
        """Re-place the region's pieces depth first so the joins touching the region have
        fewer mismatches (strict) or no more (a sideways move); edits pcs/rts in place."""
        shows, inside = self._shows, set(region)
        # order: most constrained first (neighbours outside the region or already placed)
        order, placed = [], set()
        left = list(region)
        while left:
            k = max(left, key=lambda c: (sum(o not in inside or o in placed
                                             for _, o in self._nbl[c]), rng.random()))
            left.remove(k)
            order.append(k)
            placed.add(k)
        checks = []
        done: set[int] = set()
        for c in order:
            checks.append([(s, o) for s, o in self._nbl[c] if o not in inside or o in done])
            done.add(c)
        cur = 0
        for c in region:
            for s, o in self._nbl[c]:
                if o in inside and o < c:
                    continue  # count each inner join of the region once
                cur += shows[pcs[c]][rts[c]][s] != shows[pcs[o]][rts[o]][sq.opposite(s)]
        budget = cur - 1 if strict else cur
        if budget < 0:
            return False
        plist = [int(pcs[c]) for c in region]
        pool = set(plist)
        old = {c: (int(pcs[c]), int(rts[c])) for c in region}
        used: set[int] = set()
        nodes = 0
        opp = (2, 3, 0, 1)

        def rec(k: int, miss: int) -> bool:
            nonlocal nodes
            if k == len(order):
                return strict or any((int(pcs[c]), int(rts[c])) != old[c] for c in region)
            nodes += 1
            if nodes > node_limit:
                return False
            c = order[k]
            chk = checks[k]
            if miss == budget and chk:
                # no slack left: only exact fits, straight from the index
                s0, o0 = chk[0]
                need = shows[pcs[o0]][rts[o0]][opp[s0]]
                cands = self._index[c].get((s0, need), ())
                for j in rng.permutation(len(cands)) if len(cands) > 1 else range(len(cands)):
                    p, r = cands[j]
                    if p not in pool or p in used:
                        continue
                    e = shows[p][r]
                    if all(e[s] == shows[pcs[o]][rts[o]][opp[s]] for s, o in chk[1:]):
                        pcs[c], rts[c] = p, r
                        used.add(p)
                        if rec(k + 1, miss):
                            return True
                        used.discard(p)
                return False
            rots = self._rots[c]
            for j in rng.permutation(len(plist)):
                p = plist[j]
                if p in used or p not in rots:
                    continue
                for r in rots[p]:
                    e = shows[p][r]
                    m = miss
                    for s, o in chk:
                        if e[s] != shows[pcs[o]][rts[o]][opp[s]]:
                            m += 1
                    if m <= budget:
                        pcs[c], rts[c] = p, r
                        used.add(p)
                        if rec(k + 1, m):
                            return True
                        used.discard(p)
            return False

        ok = rec(0, 0)
        if not ok:
            for c, (p, r) in old.items():
                pcs[c], rts[c] = p, r
        return ok

    def lns(self, genome: np.ndarray, rng: np.random.Generator, moves: int,
            size: int = 8, node_limit: int = 3000) -> np.ndarray:
        """Large neighbourhood search: rebuild regions around mismatches, improving moves first,
        sideways moves to drift across plateaus."""
        self._py_tables()
        n = self.n
        pcs, rts = genome[:n].copy(), genome[n:].copy()
        score = int(self.fitness(genome[None, :])[0])
        target = int(self.target or 0)
        for _ in range(moves):
            if score >= target:
                break
            region = self._region(pcs, rts, rng, int(rng.integers(max(2, size // 2), size + 1)))
            if self._rebuild(pcs, rts, region, rng, True, node_limit):
                score = int(self.fitness(np.concatenate([pcs, rts])[None, :])[0])
            elif rng.random() < self.sideways:
                self._rebuild(pcs, rts, region, rng, False, node_limit)
            self.ls_iterations += 1
        return np.concatenate([pcs, rts])


# --- the backend -------------------------------------------------------------------------------
def _operators(text: str) -> tuple[str, ...]:
    names = tuple(t.strip().replace("-", "_") for t in text.split(",") if t.strip())
    if not names or any(t not in MUTATIONS for t in names):
        raise ValueError
    return names


def build(inst: EdgeInstance, opts: SolveOptions) -> tuple[EdgeEncoding, engine.GAConfig]:
    """The encoding and engine configuration for these options (parameters validated)."""
    p = opts.params
    cfg = engine.apply_params(DEFAULTS, p)
    uniform = engine.convert(p, "uniform_rate", engine._fraction, "a fraction in [0, 1]") \
        if "uniform_rate" in p else DEFAULT_UNIFORM_RATE
    iters = engine.convert(p, "tabu_iterations", engine._count, "an integer >= 0") \
        if "tabu_iterations" in p else DEFAULT_TABU_ITERATIONS
    tenure = engine.convert(p, "tabu_tenure", engine._positive_int, "a positive integer") \
        if "tabu_tenure" in p else None
    ops = engine.convert(p, "operators", _operators, "a comma list of " + ", ".join(MUTATIONS)) \
        if "operators" in p else MUTATIONS
    lns = engine.convert(p, "lns_moves", engine._count, "an integer >= 0") \
        if "lns_moves" in p else DEFAULT_LNS_MOVES
    side = engine.convert(p, "sideways", engine._fraction, "a fraction in [0, 1]") \
        if "sideways" in p else DEFAULT_SIDEWAYS
    enc = EdgeEncoding(inst, opts.fix, ops, uniform, iters, tenure, lns, side)
    if opts.objective == "matches":
        enc.target = float(sq.join_count(inst.width, inst.height))
    if cfg.generations is None and cfg.max_evaluations is None and opts.time_limit is None:
        cfg.time_limit = DEFAULT_TIME
    if iters == 0 and lns == 0:
        cfg.stall_generations = 0
    return enc, cfg


def solve(inst: EdgeInstance, opts: SolveOptions) -> Outcome:
    t0 = time.perf_counter()
    enc, cfg = build(inst, opts)
    rng = np.random.default_rng(opts.seed)
    seeds = [enc.encode(opts.hint, rng)] if opts.hint else []
    res = engine.evolve(enc, cfg, opts, seeds=seeds)
    sol = enc.decode(res.best)
    stats = res.stats()
    stats.update(max_fitness=enc.target, tabu_iterations=enc.ls_iterations,
                 population=cfg.population, seconds=round(time.perf_counter() - t0, 4))
    if res.fixed_partial:
        stats["cbgi_partial"] = [[r, c, p, rot] for (r, c), (p, rot) in res.fixed_partial.items()]
    score = int(res.fitness)
    if res.solved:
        return Outcome(Status.SOLVED, sol, score if opts.objective else None, score, stats)
    if opts.objective == "matches":
        return Outcome(Status.FEASIBLE, sol, score, None, stats)
    return Outcome(Status.TIMEOUT, sol, None, None, stats)
