"""Hidato puzzles that cannot be solved for a reason a count shows, before any search."""

from __future__ import annotations

from .instance import HidatoInstance


def reason(inst: HidatoInstance, objective: str | None = None) -> str | None:
    n = inst.n
    if n == 1:
        return None
    lonely = [inst.cells[i] for i, nb in enumerate(inst.neighbours) if not nb]
    if lonely:
        return f"cell {lonely[0]} touches no other cell, so no path of 1..{n} can pass it"
    reach = inst.distances_from(0)
    cut = [inst.cells[i] for i in range(n) if reach[i] >= n]
    if cut:
        return f"the board falls apart: cell {cut[0]} cannot be reached from {inst.cells[0]}"
    # consecutive givens k < m: their cells are at most m - k moves apart on any path
    given = sorted(inst.given_at.items())
    for (k, a), (m, b) in zip(given, given[1:], strict=False):
        moves = int(inst.distances_from(a)[b])
        if moves > m - k:
            return (f"givens {k} and {m} lie {moves} moves apart, but a path gets only "
                    f"{m - k} moves between them")
    return None
