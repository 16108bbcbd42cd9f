"""A static branching order for magic hexagons: complete lines as early as possible.

Greedy: the next cell is the one on a line with the fewest unassigned cells (a line with one
left is forced by its sum), ties going to the outer rings and then to the cell nearest the one
chosen before. Starting at a corner, this walks the outer ring edge by edge, then the next
ring, so every line's sum prunes long before the centre is reached.
"""

from __future__ import annotations

from ...core import hexgrid as hx
from .instance import Cell, MagicHexInstance


def cell_order(inst: MagicHexInstance) -> list[Cell]:
    lines_of: dict[Cell, list[int]] = {c: [] for c in inst.cells}
    free = []
    for i, (_name, line) in enumerate(inst.lines):
        free.append(len(line))
        for c in line:
            lines_of[c].append(i)
    left = set(inst.cells)
    order: list[Cell] = []
    last = inst.corners[0]
    while left:
        best = min(
            left,
            key=lambda c, last=last: (
                min(free[i] for i in lines_of[c]),
                -hx.distance(c, (0, 0)),
                hx.distance(c, last),
                c[1],
                c[0],
            ),
        )
        left.remove(best)
        order.append(best)
        for i in lines_of[best]:
            free[i] -= 1
        last = best
    return order
