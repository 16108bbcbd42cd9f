"""Pieces saved for the last rows (Verhaard's eii: a "good" group placed last, a "bad" group first).

A scan-row search ends in the rows where it allows breaks with whatever pieces are left. eii
chooses those leftovers on purpose: a group of pieces that tile well together is kept for the
end and the rest is placed first. Here a group tiles well when its edges show few colours
often, measured by the pairs of equal edges inside the group, sum over colours of n_c^2 (the
number of ways two of its pieces can meet). The group has as many corners, border and inner
pieces as the last rows have cells of each kind, and a local search swaps pieces in and out
until no swap adds pairs. The break search then tries the other pieces first in every bucket,
so the good group is what remains when the scan reaches the last rows.
"""

from __future__ import annotations

import numpy as np

from ...core import squaregrid as sq
from .instance import EdgeInstance

KINDS = ("corner", "border", "inner")


def good_group(inst: EdgeInstance, first_row: int, seed: int) -> np.ndarray:
    """good[p] (0-based piece): p belongs to the group kept for rows first_row.. (the fixed
    pieces never do). A seeded random group of the right make-up, improved by best swaps."""
    rng = np.random.default_rng(seed)
    counts = colour_counts(inst)
    fixed = {p - 1 for p, _ in inst.fixed.values()}
    kind = np.array([KINDS.index(inst.kind(p + 1)) for p in range(inst.n)])
    free_cells = [c for c in inst.cells() if c[0] >= first_row and c not in inst.fixed]
    need = [sum(sq.cell_kind(c, inst.width, inst.height) == k for c in free_cells)
            for k in KINDS]
    good = np.zeros(inst.n, bool)
    for k, size in enumerate(need):
        pool = [p for p in range(inst.n) if kind[p] == k and p not in fixed]
        good[rng.choice(pool, size=min(size, len(pool)), replace=False)] = True
    movable = np.array([p not in fixed for p in range(inst.n)])
    sq_norm = (counts ** 2).sum(axis=1)
    for _ in range(4 * inst.n):  # each swap adds pairs, so this ends; the cap bounds its cost
        n = counts[good].sum(axis=0)
        best_gain, best_swap = 0, None
        for p in np.flatnonzero(good):
            v = n - counts[p]
            outside = ~good & movable & (kind == kind[p])
            gain = 2 * counts @ v + sq_norm - (n ** 2).sum() + (v ** 2).sum()
            gain = np.where(outside, gain, -1)
            q = int(np.argmax(gain + rng.random(inst.n)))  # random among equal gains
            if gain[q] > best_gain:
                best_gain, best_swap = gain[q], (p, q)
        if best_swap is None:
            break
        good[best_swap[0]], good[best_swap[1]] = False, True
    return good


def colour_counts(inst: EdgeInstance) -> np.ndarray:
    """counts[p, c]: how many edges of piece p (0-based) show colour c (grey counted as 0)."""
    counts = np.zeros((inst.n, inst.colour_span()), np.int64)
    for p, edges in enumerate(inst.pieces):
        for c in edges:
            if c:
                counts[p, c] += 1
    return counts


def pairs(inst: EdgeInstance, group: np.ndarray) -> int:
    """Pairs of equal non-grey edges among the group's pieces' edges, sum over colours of
    n_c^2 (the measure good_group raises)."""
    return int((colour_counts(inst)[group].sum(axis=0) ** 2).sum())
