"""The tuned preset's stall repair for board genomes (see genome.py): a tabu search, then
region rebuilds around the joins that still mismatch.

The tabu search's moves are all swaps of two non-adjacent pieces of one class (each placed in
its best rotation) and all rotations in place. Every move is scored at once with numpy from a
(cell, piece, rotation) table of matches against the current neighbours, so an iteration
costs one table rebuild, not a board evaluation per move. The region rebuild re-places the
pieces of a small region depth first so fewer joins mismatch (or, sideways, no more).

`LocalSearch` is a mixin for a `BoardGenome` subclass that sets `tabu_iterations`, `tenure`,
`lns_moves`, `sideways`, `target` and `ls_iterations`, and calls `_ls_tables()`. Both searches
stop at the GA engine's `deadline`: one repair of the 16x16 took 4.8 s, so a run of `-t 3`
lasted 8.4 s before they looked at the clock.
"""

from __future__ import annotations

import time

import numpy as np

from ...core import squaregrid as sq


class LocalSearch:
    """Tabu search and region rebuilds on a board genome (mixin)."""

    deadline: float | None = None  # time.perf_counter() by which to stop (set by the engine)

    def _late(self) -> bool:
        return self.deadline is not None and time.perf_counter() >= self.deadline

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
        total = best_total = int(self.matches(genome[None, :])[0])
        iters = iterations if iterations is not None else self.tabu_iterations
        for it in range(1, iters + 1):
            if best_total >= target or self._late():
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

    def _fill_order(self, region: list[int], rng) -> tuple[list[int], list[list]]:
        """The region's cells in the order `_rebuild` fills them, most constrained first
        (neighbours outside the region or already placed; ties at random), and for each the
        (side, neighbour) joins already fixed when it is filled."""
        inside = set(region)
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
        return order, checks

    def _region_misses(self, pcs, rts, region: list[int]) -> int:
        """Mismatched joins touching the region, each inner join counted once."""
        shows, inside = self._shows, set(region)
        cur = 0
        for c in region:
            for s, o in self._nbl[c]:
                if o in inside and o < c:
                    continue
                cur += shows[pcs[c]][rts[c]][s] != shows[pcs[o]][rts[o]][sq.opposite(s)]
        return cur

    def _rebuild(self, pcs, rts, region: list[int], rng, strict: bool,
                 node_limit: int) -> bool:
        """Re-place the region's pieces depth first so the joins touching the region have
        fewer mismatches (strict) or no more (a sideways move); edits pcs/rts in place."""
        shows = self._shows
        order, checks = self._fill_order(region, rng)
        cur = self._region_misses(pcs, rts, region)
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
        score = int(self.matches(genome[None, :])[0])
        target = int(self.target or 0)
        for _ in range(moves):
            if score >= target or self._late():
                break
            region = self._region(pcs, rts, rng, int(rng.integers(max(2, size // 2), size + 1)))
            if self._rebuild(pcs, rts, region, rng, True, node_limit):
                score = int(self.matches(np.concatenate([pcs, rts])[None, :])[0])
            elif rng.random() < self.sideways:
                self._rebuild(pcs, rts, region, rng, False, node_limit)
            self.ls_iterations += 1
        return np.concatenate([pcs, rts])
