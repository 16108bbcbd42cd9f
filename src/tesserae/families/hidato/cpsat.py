"""Hidato as a CP-SAT model.

Default, the position model: pos[k] = the cell holding number k, over the cells that the
distance pruning of `HidatoInstance.candidates` leaves; all different; for every k a table of
the adjacent (pos[k], pos[k+1]) pairs. It beat the circuit model 3-20x in our measurements.
`--model circuit` selects the successor model instead: one arc literal per pair of neighbours
plus a dummy node closing the path into a circuit (AddCircuit), and val[cell] with
val[head] = val[tail] + 1 on every chosen arc.
"""

from __future__ import annotations

from ortools.sat.python import cp_model

from ...backends import cpsat as runner
from ...core.errors import InputError
from ...core.result import Outcome, Solution, SolveOptions
from .model import HidatoInstance
from .unique import count_solutions

MODELS = ("position", "circuit")


class HidatoPosition:
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

    def hint(self, solution: Solution) -> None:
        self.model.clear_hints()
        for var, val in self._indexed(solution):
            self.model.add_hint(var, val)

    def fix(self, partial: Solution) -> None:
        for var, val in self._indexed(partial):
            self.model.add(var == val)

    def forbid(self, solution: Solution) -> None:
        pairs = sorted((k, self.inst.index[c]) for c, k in solution.items())
        self.model.add_forbidden_assignments([self.pos[k] for k, _ in pairs],
                                             [[i for _, i in pairs]])


class HidatoCircuit:
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

    hint = HidatoPosition.hint
    fix = HidatoPosition.fix

    def forbid(self, solution: Solution) -> None:
        pairs = self._indexed(solution)
        self.model.add_forbidden_assignments([v for v, _ in pairs], [[k for _, k in pairs]])


def build(inst: HidatoInstance, opts: SolveOptions):
    kind = str(opts.params.get("model", "position"))
    if kind not in MODELS:
        raise InputError(f"--model must be one of {', '.join(MODELS)}, got {kind!r}")
    return HidatoCircuit(inst) if kind == "circuit" else HidatoPosition(inst)


def solve(inst: HidatoInstance, opts: SolveOptions) -> Outcome:
    return runner.run(build(inst, opts), opts)


def count(inst: HidatoInstance, opts: SolveOptions) -> Outcome:
    return count_solutions(build(inst, opts), runner.run, opts)
