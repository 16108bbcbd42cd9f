"""Recombination of two complete boards for the memetic pool (memetic.py, `pool`).

The child takes parent A's pieces on a rectangle of cells and parent B's everywhere else.
A piece of A's rectangle that B has outside the rectangle would then stand twice; those
cells of B (the clashes) are emptied, and the pieces B had in the rectangle that A did not
(as many, class by class) are put on them by the linear assignment of lns.py: each piece on
the clash cell where it matches most joins with the board around it. The child is a legal
board (a permutation that keeps fixed pieces where they are), both parents' structure
survives on each side of the seam, and the annealer then repairs the seam.
"""

from __future__ import annotations

import numpy as np

from .lns import Board, assign

Arrays = tuple[np.ndarray, np.ndarray]  # pieces, rotations per cell (lns.Board.arrays)


def rectangle(board: Board, rng: np.random.Generator, lo: float = 0.25,
              hi: float = 0.6) -> np.ndarray:
    """The free cells of a random rectangle covering a share in [lo, hi] of the board."""
    share = rng.uniform(lo, hi)
    h = int(rng.integers(max(1, int(np.ceil(share * board.h))), board.h + 1))
    w = max(1, min(board.w, int(round(share * board.w * board.h / h))))
    r0 = int(rng.integers(0, board.h - h + 1))
    c0 = int(rng.integers(0, board.w - w + 1))
    cells = np.array([r * board.w + c for r in range(r0, r0 + h) for c in range(c0, c0 + w)],
                     dtype=np.int64)
    return cells[board.free[cells]]


def recombine(board: Board, a: Arrays, b: Arrays, cells: np.ndarray,
              rng: np.random.Generator) -> Arrays:
    """The child of a (on `cells`) and b (elsewhere), as new arrays; see the module text."""
    pcs, rts = b[0].copy(), b[1].copy()
    take = np.asarray(cells, dtype=np.int64)
    take = take[board.free[take]]
    pcs[take], rts[take] = a[0][take], a[1][take]
    inside = np.zeros(board.n, dtype=bool)
    inside[take] = True
    where_b = np.empty(board.inst.n, dtype=np.int64)
    where_b[b[0]] = np.arange(board.n)
    clash = where_b[a[0][take]]
    clash = np.sort(clash[~inside[clash]])
    lost = np.setdiff1d(b[0][take], a[0][take])
    for k in range(3):  # a cell of each class gets a piece of its class
        cells_k = clash[board.cell_class[clash] == k]
        pieces_k = lost[board.piece_class[lost] == k]
        for c, p in zip(cells_k.tolist(), pieces_k.tolist(), strict=True):
            pcs[c] = p
            rts[c] = best_rotation(board, pcs, rts, c)
    assign(board, pcs, rts, clash, rng)
    return pcs, rts


def best_rotation(board: Board, pcs: np.ndarray, rts: np.ndarray, cell: int) -> int:
    """The allowed rotation of the piece at `cell` that matches most joins with the board
    around it (the first of equals)."""
    facing = board.facing(pcs, rts)[cell]
    shown = board.col[pcs[cell]]  # (4 rotations, 4 sides)
    gain = ((shown == facing[None, :]) & (facing[None, :] > 0)).sum(axis=1)
    gain = np.where(board.allowed[cell, pcs[cell]], gain, -1)
    return int(gain.argmax())
