"""The checker: every rule, every violation (what `core.verdict` gates each answer with)."""

from __future__ import annotations

from ...core.report import Report
from ...core.result import Solution
from .instance import LatinInstance


def verify(inst: LatinInstance, solution: Solution, objective: str | None = None) -> Report:
    report = Report()
    n = inst.n
    for cell in inst.cells():
        value = solution.get(cell)
        if not isinstance(value, int) or not 1 <= value <= n:
            report.add("bad-cell", f"cell {cell} holds {value!r}; expected 1..{n}")
        elif cell in inst.givens and value != inst.givens[cell]:
            report.add("given", f"cell {cell} holds {value}; the puzzle gives {inst.givens[cell]}")
    for i in range(n):
        for what, line in (("row", [(i, c) for c in range(n)]), ("column", [(r, i) for r in
                                                                             range(n)])):
            values = [solution.get(cell) for cell in line]
            if len(set(values)) != n:
                report.add("repeat", f"{what} {i} repeats a number: {values}")
    return report
