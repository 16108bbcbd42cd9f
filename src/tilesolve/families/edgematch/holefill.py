"""Completing a partial board: its empty cells filled with the pieces it does not hold, placed
to match the most joins.

The record searches for Eternity II (Blackwood's, libblackwood) stop a few pieces short of a
full board once their breaks are spent, and the boards they report are those deepest partial
boards with the holes filled. The fill here is exact: the free pieces go on the holes in the
placement that matches the most joins (the LNS's region repair, `lns.repair_region`, over the
holes with the rest fixed; about 0.1-0.3 CPU s for the 7-10 holes of a deep Eternity II board).
On the official board a deepest partial board of 249 pieces with 456 matching joins between
them completes to 462.
"""

from __future__ import annotations

import numpy as np

from ...core.result import Solution
from . import lns
from .instance import EdgeInstance


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

    def complete(self, partial: Solution, seed: int = 0,
                 time_limit: float = 5.0) -> tuple[Solution, int]:
        """(the completed board, its mismatched joins): the holes filled exactly, or as well
        as CP-SAT gets within `time_limit`."""
        pcs, rts, holes = self.start(partial)
        lns.repair_region(self.board, pcs, rts, holes, seed, time_limit)
        b = self.board
        return b.solution(pcs, rts), len(b.joins) - b.score(pcs, rts)
