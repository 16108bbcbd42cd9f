"""The CP-SAT backend: one integer per cell, all-different rows and columns; the runner
(backends/cpsat.py) solves it, counts its solutions and `tilesolve export --to cpsat` writes it."""

from __future__ import annotations

from ortools.sat.python import cp_model

from ...backends import cpsat as runner
from ...core.limits import built
from ...core.options import Options
from ...core.registry import Backend
from ...core.result import Outcome, Solution, SolveOptions
from .instance import LatinInstance

OPTIONS = Options()  # the model takes no options of its own


class LatinCpsat(runner.CpsatModel):
    def __init__(self, inst: LatinInstance):
        self.model = cp_model.CpModel()
        n = inst.n
        self.x = {cell: self.model.new_int_var(1, n, f"x{cell}") for cell in inst.cells()}
        for i in range(n):
            self.model.add_all_different([self.x[i, c] for c in range(n)])
            self.model.add_all_different([self.x[r, i] for r in range(n)])
        self.impose(inst.givens)

    def decode(self, value) -> Solution:
        return {cell: int(value(var)) for cell, var in self.x.items()}

    def impose(self, partial: Solution) -> None:
        for cell, v in partial.items():
            self.model.add(self.x[cell] == v)

    def forbid(self, solution: Solution) -> None:
        same = [self.model.new_bool_var("") for _ in solution]
        for b, (cell, v) in zip(same, solution.items(), strict=True):
            self.model.add(self.x[cell] == v).only_enforce_if(b)
            self.model.add(self.x[cell] != v).only_enforce_if(~b)
        self.model.add_bool_or([~b for b in same])


def build(inst: LatinInstance, opts: SolveOptions) -> LatinCpsat:
    return built(opts, lambda: LatinCpsat(inst))


def solve(inst: LatinInstance, opts: SolveOptions) -> Outcome:
    return runner.run(build(inst, opts), opts)


def count(inst: LatinInstance, opts: SolveOptions) -> Outcome:
    return runner.count(build(inst, opts), opts)


BACKEND = Backend("cpsat", OPTIONS, solve, count=count, build=build)
