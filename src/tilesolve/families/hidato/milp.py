"""Hidato as a MILP (PuLP; CBC by default, `--solver highs`).

Binary x(k, c) = "number k in cell c" over the pruned candidates
(`HidatoInstance.candidates`); each number in one cell, each cell one number; and the path
rule as x(k, c) <= sum of x(k+1, d) over the neighbours d of c (likewise for k-1). Positions
are numbered, so there are no subtours and the lazy-cut loop of backends/milp.py ends after one
round. No objective: any feasible point is a solution.
"""

from __future__ import annotations

import pulp

from ...backends import milp as runner
from ...core.limits import built
from ...core.registry import Backend
from ...core.result import Outcome, Solution, SolveOptions
from .instance import HidatoInstance
from .placements import Placements

OPTIONS = runner.OPTIONS  # the solver; the model itself has no options


def _sum(variables) -> pulp.LpAffineExpression:
    return pulp.LpAffineExpression((v, 1) for v in variables)


class HidatoMilp(Placements, runner.MilpModel):
    def __init__(self, inst: HidatoInstance):
        self.prob = prob = pulp.LpProblem("hidato", pulp.LpMinimize)
        super().__init__(inst, lambda k, c: prob.add_variable(f"x_{k}_{c}", 0, 1, pulp.LpBinary))
        prob += pulp.LpAffineExpression()  # satisfaction: no objective
        for k in range(1, inst.n + 1):
            prob += _sum(self.x[k].values()) == 1, f"number_{k}"
        for c, vars_ in enumerate(self.by_cell()):
            prob += _sum(vars_) == 1, f"cell_{c}"
        for k, c, j, cells in self.successions():
            prob += self.x[k][c] <= _sum(self.x[j][d] for d in cells), f"path_{k}_{c}_{j}"
        self.nogoods = 0

    def suggest(self, solution: Solution) -> None:
        chosen = {id(v) for v in self.placed(solution) if v is not None}
        for k in range(1, self.inst.n + 1):
            for var in self.x[k].values():
                var.setInitialValue(1 if id(var) in chosen else 0)

    def impose(self, partial: Solution) -> None:
        for var in self.placed(partial):
            if var is None:
                self.prob += pulp.LpAffineExpression() >= 1  # ruled out: infeasible
            elif var.lowBound != 1:
                var.lowBound = 1

    def forbid(self, solution: Solution) -> None:
        placed = [v for v in self.placed(solution) if v is not None]
        self.nogoods += 1
        self.prob += _sum(placed) <= len(placed) - 1, f"nogood_{self.nogoods}"


def build(inst: HidatoInstance, opts: SolveOptions) -> HidatoMilp:
    return HidatoMilp(inst)


def solve(inst: HidatoInstance, opts: SolveOptions) -> Outcome:
    return runner.run(built(opts, lambda: build(inst, opts)), opts)


def count(inst: HidatoInstance, opts: SolveOptions) -> Outcome:
    return runner.count(built(opts, lambda: build(inst, opts)), opts)


BACKEND = Backend("milp", OPTIONS, solve, count=count, build=build)
