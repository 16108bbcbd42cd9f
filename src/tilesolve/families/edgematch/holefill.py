"""Completing a partial board: its empty cells filled with the pieces it does not hold, placed
to match the most joins.

The record searches for Eternity II (Blackwood's, libblackwood) stop a few pieces short of a
full board once their breaks are spent, and the boards they report are those deepest partial
boards with the holes filled. The fill here is exact: the free pieces go on the holes in the
placement that matches the most joins (the LNS's region repair, `lns.repair_region`, over the
holes with the rest fixed; about 0.1-0.3 CPU s for the 7-10 holes of a deep Eternity II board).
On the official board a deepest partial board of 249 pieces with 456 matching joins between
them completes to 462.

A search that already holds a board asks only for a better completion (`below`): a bound at
numpy speed (each hole's fewest mismatches with its placed neighbours) rules some out, and
CP-SAT then has a floor on the matched joins and mostly proves quickly that none is left. On
the official board, 15 CPU s of the default search spent 1.9 CPU s in 13 fills without the
floor (one of 23 holes 1.1 s, for a board 4 joins short of the best), 0.4 s with it.
"""

from __future__ import annotations

import numpy as np

from ...core.result import Solution
from . import lns
from .instance import EdgeInstance

# A fill mostly ends in CP-SAT's proof that no better completion is left (0.01-0.05 CPU s for
# 10-17 holes on the official board); the slow ones are a first fill with no board to beat
# (CP-SAT optimises and proves: 5 s for 19 holes) and a few proofs that do not close. Official
# board, default search, one core each, 60 CPU s, seeds 3-8: with 1 s for every fill, 13.4 CPU s
# of 360 went to fills and the median best board was 463.5 (no seed worse); with 5 s, 21.4 CPU
# s and 462.5; with 0.5 s for the first and 5 s for the others, 22.2 CPU s and 462.5.
FILL_SECONDS = 1.0


class HoleFiller:
    """Completes partial boards of one instance (its fixed pieces stay where they are)."""

    def __init__(self, inst: EdgeInstance):
        self.inst = inst
        self.board = lns.Board(inst)

    def start(self, partial: Solution) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(pieces, turns, holes): the partial board with each hole given a free piece of its
        class (corner, border, inner) in a turn the frame rule allows."""
        b = self.board
        pcs = np.full(b.n, -1, dtype=np.int64)
        rts = np.zeros(b.n, dtype=np.int64)
        for cell, (p, r) in {**partial, **self.inst.fixed}.items():
            pcs[b.index[cell]], rts[b.index[cell]] = p - 1, r % 4
        holes = np.flatnonzero(pcs < 0)
        free = sorted(set(range(self.inst.n)) - set(pcs[pcs >= 0].tolist()))
        by_class = {k: [p for p in free if b.piece_class[p] == k] for k in range(3)}
        for i in holes:
            p = by_class[b.cell_class[i]].pop()
            pcs[i], rts[i] = p, int(np.argmax(b.allowed[i, p]))
        return pcs, rts, holes

    def hole_misses(self, pcs, rts, holes, placed) -> int:
        """A lower bound on the mismatches between the holes and their placed neighbours: for
        each hole the fewest that any free piece of its class, in any turn the frame rule
        allows, makes there (each such join touches one hole; joins between holes count 0)."""
        b = self.board
        facing = b.facing(pcs, rts)[holes]  # (hole, side); -1 at the frame
        nbs = b.nb[holes]
        shown = np.where((nbs >= 0) & placed[np.maximum(nbs, 0)], facing, -1)
        free = pcs[holes]  # start() gave each hole one free piece of its class
        cols = b.col[free]  # (piece, turn, side)
        miss = ((shown[:, None, None, :] >= 0)
                & (cols[None, :, :, :] != shown[:, None, None, :])).sum(axis=3)
        fits = b.allowed[holes][:, free, :]  # the frame rule keeps each class to its cells
        return int(np.where(fits, miss, 5).min(axis=(1, 2)).sum())

    def complete(self, partial: Solution, seed: int = 0, time_limit: float = FILL_SECONDS,
                 below: int | None = None) -> tuple[Solution, int] | None:
        """(the completed board, its mismatched joins): the holes filled exactly, or as well
        as CP-SAT gets within `time_limit`. With `below`, only a completion of fewer
        mismatches than that counts: None when there is none (CP-SAT proves it, usually far
        sooner than it finds the best fill) or none was found in the limit."""
        b = self.board
        pcs, rts, holes = self.start(partial)
        at_least = 0
        if below is not None:
            # mismatches = those between placed pieces + the holes' joins left unmatched
            placed = np.ones(b.n, dtype=bool)
            placed[holes] = False
            a, c = b.joins[:, 0], b.joins[:, 2]
            touching = int((~placed[a] | ~placed[c]).sum())
            own = int((placed[a] & placed[c] & ~b.matched(pcs, rts)).sum())
            at_least = own + touching - below + 1
            if at_least > touching or own + self.hole_misses(pcs, rts, holes, placed) >= below:
                return None
        lns.repair_region(b, pcs, rts, holes, seed, time_limit, at_least)
        missed = len(b.joins) - b.score(pcs, rts)
        if below is not None and missed >= below:
            return None
        return b.solution(pcs, rts), missed
