"""The variables shared by the literal models (CP-SAT boolean, MILP, CNF): one per number k
and candidate cell c (after the distance pruning), read back the same way by each."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from ...core.result import Solution
from .instance import HidatoInstance


class Placements:
    """x[k][c] = the solver's variable for "number k in cell c" (k = 1..N, x[0] unused)."""

    def __init__(self, inst: HidatoInstance, new_var: Callable[[int, int], Any]):
        self.inst = inst
        self.cands = inst.candidates()
        self.x: list[dict[int, Any]] = [{}] + [
            {c: new_var(k, c) for c in self.cands[k]} for k in range(1, inst.n + 1)
        ]

    def by_cell(self) -> list[list[Any]]:
        out: list[list[Any]] = [[] for _ in range(self.inst.n)]
        for k in range(1, self.inst.n + 1):
            for c, var in self.x[k].items():
                out[c].append(var)
        return out

    def successions(self):
        return self.inst.successions(self.cands)

    def decode(self, value) -> Solution:
        """value(var) is the variable's value (bool, 0/1 or a float from a MILP)."""
        cells = self.inst.cells
        return {cells[c]: k for k in range(1, self.inst.n + 1)
                for c, var in self.x[k].items() if value(var) > 0.5}

    def placed(self, solution: Solution) -> Iterator[Any]:
        """The variable of every placement of `solution` on the board; None for a placement
        the pruning ruled out (the caller makes that impossible in its own way)."""
        idx = self.inst.index
        for c, k in solution.items():
            if c in idx and isinstance(k, int) and 1 <= k <= self.inst.n:
                yield self.x[k].get(idx[c])
