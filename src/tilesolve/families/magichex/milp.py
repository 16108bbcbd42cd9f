"""The magic hexagon as a MILP (PuLP; CBC or HiGHS).

Binary x[c, v] = "cell c holds number v": one number per cell, one cell per number, and for
each line sum(v * x[c, v]) = M. Without givens the 12 symmetries are broken as in the CP-SAT
model (top-left corner smallest among the corners, its clockwise neighbour corner below its
anticlockwise one), stated on the cell values sum(v * x[c, v]).

The LP relaxation is weak (spreading every cell evenly over all numbers satisfies it), so this
is the slowest backend; HiGHS is the default solver here because CBC did not solve order 3
within 90 s while HiGHS needed about 15 s (`--solver cbc` still selects CBC).
"""

from __future__ import annotations

import pulp

from ...backends import milp as runner
from ...core.limits import built
from ...core.options import NO_SYMMETRY, Options, switch
from ...core.registry import Backend
from ...core.result import Outcome, Solution, SolveOptions
from .instance import MagicHexInstance

OPTIONS = Options(runner.OPTIONS, NO_SYMMETRY)


class MagicHexMilp(runner.MilpModel):
    def __init__(self, inst: MagicHexInstance, symmetry: bool = True):
        self.inst = inst
        prob = self.prob = pulp.LpProblem("magichex", pulp.LpMinimize)
        vals = list(inst.values)
        self.x = {
            (c, v): prob.add_variable(f"x_{k}_{v - inst.first}", 0, 1, pulp.LpBinary)
            for k, c in enumerate(inst.cells)
            for v in vals
        }
        prob += pulp.lpSum([])  # pure feasibility
        for k, c in enumerate(inst.cells):
            prob += pulp.lpSum(self.x[c, v] for v in vals) == 1, f"cell_{k}"
        for v in vals:
            prob += pulp.lpSum(self.x[c, v] for c in inst.cells) == 1, f"number_{v - inst.first}"
        for li, (_name, line) in enumerate(inst.lines):
            prob += self.value(line) == inst.magic, f"line_{li}"
        for k, c in enumerate(inst.cells):
            if c in inst.givens:
                prob += self.x[c, inst.givens[c]] == 1, f"given_{k}"
        if symmetry and not inst.givens and inst.order > 1:
            corner = inst.corners
            for i in range(1, 6):
                prob += self.value([corner[0]]) + 1 <= self.value([corner[i]]), f"sym_{i}"
            prob += self.value([corner[1]]) + 1 <= self.value([corner[5]]), "sym_mirror"
        self.nogoods = 0

    def value(self, cells) -> pulp.LpAffineExpression:
        return pulp.lpSum(v * self.x[c, v] for c in cells for v in self.inst.values)

    def decode(self, value) -> Solution:
        return {c: v for (c, v), var in self.x.items() if value(var) > 0.5}

    def suggest(self, solution: Solution) -> None:
        for (c, v), var in self.x.items():
            if c in solution:
                var.setInitialValue(1 if solution[c] == v else 0)

    def impose(self, partial: Solution) -> None:
        for k, c in enumerate(self.inst.cells):
            if c in partial:
                self.prob += self.x[c, int(partial[c])] == 1, f"fix_{k}"

    def forbid(self, solution: Solution) -> None:
        chosen = [self.x[c, int(v)] for c, v in solution.items()]
        self.nogoods += 1
        self.prob += pulp.lpSum(chosen) <= len(chosen) - 1, f"nogood_{self.nogoods}"


def build(inst: MagicHexInstance, opts: SolveOptions) -> MagicHexMilp:
    symmetry = not (opts.fix or opts.hint or switch(opts.params, "no_symmetry", False))
    return MagicHexMilp(inst, symmetry=symmetry)


def solve(inst: MagicHexInstance, opts: SolveOptions) -> Outcome:
    opts = runner.unless_named(opts, "highs")
    return runner.run(built(opts, lambda: build(inst, opts)), opts)


def count(inst: MagicHexInstance, opts: SolveOptions) -> Outcome:
    # every raw solution, so the 12 symmetries stay in
    opts = runner.unless_named(opts, "highs")
    return runner.count(built(opts, lambda: MagicHexMilp(inst, symmetry=False)), opts)


BACKEND = Backend("milp", OPTIONS, solve, count=count, build=build)
