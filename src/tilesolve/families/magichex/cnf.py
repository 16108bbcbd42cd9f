"""The magic hexagon as CNF (PySAT), order encoding with a clausal adder per line.

Variables: ge[c, k] = "the number in cell c is at least k" (an order encoding, one chain per
cell) and x[c, v] = "cell c holds v", channelled as x[c, v] <-> ge[c, v] and not ge[c, v+1].
Each number sits in exactly one cell (at-least-one clause + ladder at-most-one).

A line c1..cL is summed left to right, S_j = S_(j-1) + value(c_j), every partial sum itself
order-encoded over the range it can still take (between the j smallest/largest numbers, and
close enough to M that the remaining cells can make up the difference). The adder clauses
    S_(j-1) >= a and value >= b  ->  S_j >= a+b
    S_(j-1) <= a and value <= b  ->  S_j <= a+b
fix S_L = M. No pseudo-Boolean library is needed (pysat.pb is an optional extra).
Symmetry breaking as in the other models, stated on the order literals.
"""

from __future__ import annotations

from pysat.card import CardEnc, EncType
from pysat.formula import IDPool

from ...backends import cnf as runner
from ...core.limits import built
from ...core.options import NO_SYMMETRY, Options, switch
from ...core.registry import Backend
from ...core.result import Outcome, Solution, SolveOptions
from .instance import Cell, MagicHexInstance

OPTIONS = Options(runner.OPTIONS, NO_SYMMETRY)
TRUE, FALSE = "T", "F"


class OrderInt:
    """An integer in lo..hi as literals ge(t) = [X >= t] for lo < t <= hi."""

    def __init__(self, pool: IDPool, name, lo: int, hi: int, clauses: list[list[int]]):
        self.lo, self.hi = lo, hi
        self.lits = {t: pool.id((name, t)) for t in range(lo + 1, hi + 1)}
        for t in range(lo + 2, hi + 1):
            clauses.append([-self.lits[t], self.lits[t - 1]])  # X >= t implies X >= t-1

    def ge(self, t: int):
        if t <= self.lo:
            return TRUE
        if t > self.hi:
            return FALSE
        return self.lits[t]


def add_clause(clauses: list[list[int]], lits) -> None:
    """Add a clause given with constant TRUE/FALSE literals folded away."""
    if TRUE in lits:
        return
    clauses.append([lit for lit in lits if lit != FALSE])


def neg(lit):
    return FALSE if lit == TRUE else TRUE if lit == FALSE else -lit


class MagicHexCnf(runner.CnfModel):
    def __init__(self, inst: MagicHexInstance, symmetry: bool = True):
        self.inst = inst
        pool = self.vpool = IDPool()
        cl: list[list[int]] = []
        self.clauses = cl
        lo, hi = inst.first, inst.last
        self.num = {c: OrderInt(pool, ("ge", c), lo, hi, cl) for c in inst.cells}
        self.x: dict[tuple[Cell, int], int] = {}
        for c in inst.cells:
            o = self.num[c]
            for v in inst.values:
                x = self.x[c, v] = pool.id(("x", c, v))
                at, above = o.ge(v), o.ge(v + 1)
                add_clause(cl, [-x, at])
                add_clause(cl, [-x, neg(above)])
                add_clause(cl, [x, neg(at), above])
        for v in inst.values:
            lits = [self.x[c, v] for c in inst.cells]
            cl.append(lits)
            cl.extend(CardEnc.atmost(lits, 1, vpool=pool, encoding=EncType.ladder).clauses)
        for li, (_name, line) in enumerate(inst.lines):
            self._line_sum(li, line)
        for c, v in inst.givens.items():
            cl.append([self.x[c, v]])
        if symmetry and not inst.givens and inst.order > 1:
            corner = [self.num[c] for c in inst.corners]
            for other in corner[1:]:
                self._less(corner[0], other)
            self._less(corner[1], corner[5])

    def _less(self, a: OrderInt, b: OrderInt) -> None:
        for k in range(a.lo, a.hi + 1):
            add_clause(self.clauses, [neg(a.ge(k)), b.ge(k + 1)])

    def _line_sum(self, li: int, line: list[Cell]) -> None:
        inst = self.inst
        vals = sorted(inst.values)
        m, size = inst.magic, len(line)
        acc = self.num[line[0]]
        for j in range(1, size):
            rest = size - j - 1  # cells after this one
            lo = max(sum(vals[: j + 1]), m - sum(vals[len(vals) - rest :]) if rest else m)
            hi = min(sum(vals[len(vals) - j - 1 :]), m - sum(vals[:rest]))
            out = OrderInt(self.vpool, ("sum", li, j), lo, hi, self.clauses)
            cell = self.num[line[j]]
            for a in range(acc.lo, acc.hi + 1):
                for b in range(cell.lo, cell.hi + 1):
                    cl = self.clauses
                    add_clause(cl, [neg(acc.ge(a)), neg(cell.ge(b)), out.ge(a + b)])
                    add_clause(cl, [acc.ge(a + 1), cell.ge(b + 1), neg(out.ge(a + b + 1))])
            acc = out

    def decode(self, value) -> Solution:
        return {c: v for (c, v), x in self.x.items() if value(x)}

    def suggest(self, solution: Solution) -> None:
        self.phases = [x if solution.get(c) == v else -x
                       for (c, v), x in self.x.items() if c in solution]

    def impose(self, partial: Solution) -> None:
        self.clauses.extend([self.x[c, int(v)]] for c, v in partial.items()
                            if (c, int(v)) in self.x)

    def forbid(self, solution: Solution) -> None:
        self.clauses.append([-self.x[c, int(v)] for c, v in solution.items()])


def build(inst: MagicHexInstance, opts: SolveOptions) -> MagicHexCnf:
    symmetry = not (opts.fix or opts.hint or switch(opts.params, "no_symmetry", False))
    return MagicHexCnf(inst, symmetry=symmetry)


def solve(inst: MagicHexInstance, opts: SolveOptions) -> Outcome:
    return runner.run(built(opts, lambda: build(inst, opts)), opts)


def count(inst: MagicHexInstance, opts: SolveOptions) -> Outcome:
    # every raw solution, so the 12 symmetries stay in
    return runner.count(built(opts, lambda: MagicHexCnf(inst, symmetry=False)), opts)


BACKEND = Backend("sat", OPTIONS, solve, count=count, build=build)
