"""Hidato as a CP-SAT model; `--model` picks one of three.

- `boolean` (default): literals x[k][c] (number k in cell c) over the pruned candidates, exactly
  one per number and per cell, and k in c needs k-1 and k+1 next to c. On a generated
  1,000-cell board it solved in 1 s where `position` took 31 s (all-different over 1,000
  integers dominates); on small boards the two are equally fast.
- `position`: pos[k] = the cell holding k, all different, and a table of adjacent
  (pos[k], pos[k+1]) pairs per k (the classic model).
- `circuit`: one arc literal per pair of neighbours plus a dummy node closing the path into a
  circuit (AddCircuit), with val[head] = val[tail] + 1 on every chosen arc.
All three start from `HidatoInstance.candidates` (distance pruning around the givens).
"""

from __future__ import annotations

from ortools.sat.python import cp_model

from ...backends import cpsat as runner
from ...core.errors import InputError
from ...core.limits import built
from ...core.options import Option, Options
from ...core.registry import Backend
from ...core.result import Outcome, Solution, SolveOptions
from .instance import HidatoInstance
from .placements import Placements

MODELS = ("position", "boolean", "circuit")
OPTIONS = Options(Option("model", str, "boolean", "boolean: a literal per number and cell; "
                         "position: the cell of each number; circuit: a path of arcs "
                         "(AddCircuit)"))


class HidatoPosition(runner.CpsatModel):
    def __init__(self, inst: HidatoInstance):
        self.inst = inst
        m = self.model = cp_model.CpModel()
        cands = inst.candidates()
        n = inst.n
        self.pos = [None] + [
            m.new_int_var_from_domain(cp_model.Domain.from_values(cands[k]), f"pos{k}")
            for k in range(1, n + 1)
        ]
        m.add_all_different(self.pos[1:])
        nbrs = inst.neighbours
        for k in range(1, n):
            nxt = set(cands[k + 1])
            pairs = [(a, b) for a in cands[k] for b in nbrs[a] if b in nxt]
            m.add_allowed_assignments([self.pos[k], self.pos[k + 1]], pairs)

    def decode(self, value) -> Solution:
        cells = self.inst.cells
        return {cells[value(self.pos[k])]: k for k in range(1, self.inst.n + 1)}

    def _indexed(self, solution: Solution):
        idx = self.inst.index
        return [(self.pos[k], idx[c]) for c, k in solution.items()
                if c in idx and isinstance(k, int) and 1 <= k <= self.inst.n]

    def suggest(self, solution: Solution) -> None:
        self.model.clear_hints()
        for var, val in self._indexed(solution):
            self.model.add_hint(var, val)

    def impose(self, partial: Solution) -> None:
        for var, val in self._indexed(partial):
            self.model.add(var == val)

    def forbid(self, solution: Solution) -> None:
        pairs = sorted((k, self.inst.index[c]) for c, k in solution.items())
        self.model.add_forbidden_assignments([self.pos[k] for k, _ in pairs],
                                             [[i for _, i in pairs]])


class HidatoCircuit(runner.CpsatModel):
    def __init__(self, inst: HidatoInstance):
        self.inst = inst
        m = self.model = cp_model.CpModel()
        n = inst.n
        cands = inst.candidates()
        values: list[list[int]] = [[] for _ in range(n)]
        for k in range(1, n + 1):
            for c in cands[k]:
                values[c].append(k)
        self.val = [m.new_int_var_from_domain(cp_model.Domain.from_values(values[c]), f"v{c}")
                    for c in range(n)]
        m.add_all_different(self.val)
        arcs = []
        for a in range(n):
            for b in inst.neighbours[a]:
                lit = m.new_bool_var(f"a{a}_{b}")
                m.add(self.val[b] == self.val[a] + 1).only_enforce_if(lit)
                arcs.append((a, b, lit))
            first, last = m.new_bool_var(f"s{a}"), m.new_bool_var(f"e{a}")
            m.add(self.val[a] == 1).only_enforce_if(first)
            m.add(self.val[a] == n).only_enforce_if(last)
            arcs += [(n, a, first), (a, n, last)]
        m.add_circuit(arcs)

    def decode(self, value) -> Solution:
        return {c: value(v) for c, v in zip(self.inst.cells, self.val, strict=True)}

    def _indexed(self, solution: Solution):
        idx = self.inst.index
        return [(self.val[idx[c]], k) for c, k in solution.items()
                if c in idx and isinstance(k, int) and 1 <= k <= self.inst.n]

    suggest = HidatoPosition.suggest
    impose = HidatoPosition.impose

    def forbid(self, solution: Solution) -> None:
        pairs = self._indexed(solution)
        self.model.add_forbidden_assignments([v for v, _ in pairs], [[k for _, k in pairs]])


class HidatoBoolean(Placements, runner.CpsatModel):
    """x[k][c] literals: number k sits in cell c (only the pruned candidates); exactly one
    cell per number and one number per cell; k in c needs k+1 and k-1 next to c. A SAT-like
    model that scales to boards of thousands of cells, where all-different is the bottleneck."""

    def __init__(self, inst: HidatoInstance):
        m = self.model = cp_model.CpModel()
        super().__init__(inst, lambda k, c: m.new_bool_var(f"x{k}_{c}"))
        for k in range(1, inst.n + 1):
            m.add_exactly_one(self.x[k].values())
        for lits in self.by_cell():
            m.add_exactly_one(lits)
        for k, c, j, cells in self.successions():
            m.add_bool_or([~self.x[k][c], *(self.x[j][d] for d in cells)])

    def suggest(self, solution: Solution) -> None:
        self.model.clear_hints()
        for lit in self.placed(solution):
            if lit is not None:
                self.model.add_hint(lit, 1)

    def impose(self, partial: Solution) -> None:
        for lit in self.placed(partial):
            self.model.add_bool_or([lit] if lit is not None else [])

    def forbid(self, solution: Solution) -> None:
        self.model.add_bool_or([~lit for lit in self.placed(solution) if lit is not None])


def build(inst: HidatoInstance, opts: SolveOptions):
    kind = str(opts.params.get("model", "boolean"))
    if kind not in MODELS:
        raise InputError(f"--model must be one of {', '.join(MODELS)}, got {kind!r}")
    return {"position": HidatoPosition, "boolean": HidatoBoolean, "circuit": HidatoCircuit}[
        kind
    ](inst)


def solve(inst: HidatoInstance, opts: SolveOptions) -> Outcome:
    return runner.run(built(opts, lambda: build(inst, opts)), opts)


def count(inst: HidatoInstance, opts: SolveOptions) -> Outcome:
    return runner.count(built(opts, lambda: build(inst, opts)), opts)


BACKEND = Backend("cpsat", OPTIONS, solve, count=count, build=build)
