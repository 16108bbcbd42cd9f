"""Hidato as CNF (PySAT), a compact position encoding.

x(k, c) = "number k sits in cell c", only for the candidates left by the distance pruning
around the givens (`HidatoInstance.candidates`), so a well-clued board needs far fewer than
N^2 variables. Exactly one cell per number and one number per cell: an at-least-one clause
plus an at-most-one from pysat.card (sequential counter for long lists, pairwise for short).
The path: x(k, c) implies x(k+1, d) for some neighbour d of c, and the same for k-1. Every
model of the formula is a Hamiltonian path, so no lazy clauses are needed; a counted solution
is excluded by one blocking clause.
"""

from __future__ import annotations

from pysat.card import CardEnc, EncType
from pysat.formula import IDPool

from ...backends import cnf as runner
from ...core.limits import built
from ...core.registry import Backend
from ...core.result import Outcome, Solution, SolveOptions
from .instance import HidatoInstance
from .placements import Placements

OPTIONS = runner.OPTIONS  # the solver; the model itself has no options

PAIRWISE_UP_TO = 6  # at-most-one lists this short are cheapest as pairwise clauses


def exactly_one(lits: list[int], pool: IDPool, clauses: list[list[int]]) -> None:
    clauses.append(list(lits))
    if len(lits) > 1:
        enc = EncType.pairwise if len(lits) <= PAIRWISE_UP_TO else EncType.seqcounter
        clauses.extend(CardEnc.atmost(lits, 1, vpool=pool, encoding=enc).clauses)


class HidatoCnf(Placements, runner.CnfModel):
    def __init__(self, inst: HidatoInstance):
        pool = self.vpool = IDPool()
        super().__init__(inst, lambda k, c: pool.id(("x", k, c)))
        cl: list[list[int]] = []
        for k in range(1, inst.n + 1):
            exactly_one(list(self.x[k].values()), pool, cl)
        for lits in self.by_cell():
            exactly_one(lits, pool, cl)
        for k, c, j, cells in self.successions():
            cl.append([-self.x[k][c], *(self.x[j][d] for d in cells)])
        self.false = pool.id("false")  # stands for placements the pruning ruled out
        cl.append([-self.false])
        self.clauses = cl

    def literals(self, solution: Solution) -> list[int]:
        return [self.false if lit is None else lit for lit in self.placed(solution)]

    def suggest(self, solution: Solution) -> None:
        self.phases = self.literals(solution)

    def impose(self, partial: Solution) -> None:
        self.clauses.extend([lit] for lit in self.literals(partial))

    def forbid(self, solution: Solution) -> None:
        self.clauses.append([-lit for lit in self.literals(solution)])


def build(inst: HidatoInstance, opts: SolveOptions) -> HidatoCnf:
    return HidatoCnf(inst)


def solve(inst: HidatoInstance, opts: SolveOptions) -> Outcome:
    return runner.run(built(opts, lambda: build(inst, opts)), opts)


def count(inst: HidatoInstance, opts: SolveOptions) -> Outcome:
    return runner.count(built(opts, lambda: build(inst, opts)), opts)


BACKEND = Backend("sat", OPTIONS, solve, count=count, build=build)
