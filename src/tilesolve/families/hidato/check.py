"""Checking a Hidato board: every broken rule of the numbering."""

from __future__ import annotations

from ...core.report import Report
from ...core.result import Solution
from .instance import Cell, HidatoInstance


def _where(inst: HidatoInstance, sol: Solution) -> dict[int, list[Cell]]:
    where: dict[int, list[Cell]] = {}
    for c in inst.cells:
        if c in sol:
            where.setdefault(sol[c], []).append(c)
    return where


def verify(inst: HidatoInstance, sol: Solution, objective: str | None = None) -> Report:
    """Every violation: holes or foreign cells filled, empty cells, numbers out of range,
    doubled or missing numbers, givens changed, consecutive numbers not adjacent."""
    rep = Report()
    board = set(inst.cells)
    for c in sorted(set(sol) - board):
        what = "a hole" if c in inst.holes else "outside the board"
        rep.add("outside", f"cell {c} is {what} but holds {sol[c]}")
    for c in inst.cells:
        if c not in sol:
            rep.add("empty-cell", f"cell {c} is empty")
        elif not isinstance(sol[c], int) or not 1 <= sol[c] <= inst.n:
            rep.add("out-of-range", f"cell {c} holds {sol[c]!r}; expected 1..{inst.n}")
    where = _where(inst, sol)
    for k in range(1, inst.n + 1):
        if k not in where:
            rep.add("missing-number", f"number {k} is not on the board")
        elif len(where[k]) > 1:
            rep.add("doubled-number", f"number {k} is placed {len(where[k])} times, at {where[k]}")
    for c, v in sorted(inst.givens.items(), key=lambda cv: cv[1]):
        if sol.get(c) != v:
            rep.add("changed-given", f"cell {c} must hold the given {v}, found {sol.get(c)}")
    for k in range(1, inst.n):
        a, b = where.get(k, []), where.get(k + 1, [])
        if len(a) == 1 and len(b) == 1 and not inst.adjacent(a[0], b[0]):
            rep.add("not-adjacent", f"{k} at {a[0]} and {k + 1} at {b[0]} are not neighbours")
    return rep

